#!/usr/bin/env bash
# insert_waits.sh — the random-GUID insert experiment, PostgreSQL edition:
# N clients insert rows keyed by a random uuid into a table whose index no
# longer fits in a small shared_buffers, then the wait table shows where
# the time went.  On SQL Server the same experiment is dominated by
# PAGEIOLATCH_EX (reading index pages back in) and WRITELOG (commit
# flushes); here expect IO:DataFileRead and IO:WALSync / IO:WALWrite (and
# LWLock:WALWrite for commits queued behind another's flush).
#
#   bench/insert_waits.sh
#   BENCH_CLIENTS=16 BENCH_SECONDS=60 bench/insert_waits.sh
#
# The wait table is iobench's always-on collector (preloaded), reset just
# before the load, at iobench.sample_period = 10 ms.  Exact counters of
# PostgreSQL are printed beside it as a cross-check: the read time of data
# blocks (track_io_timing) and the WAL write and sync times
# (track_wal_io_timing), both cumulative over all backends like Wait_S.
#
# This machine's RAM holds the whole table in the page cache, where a
# production table would not fit: with BENCH_EVICT=1 (the default) the
# table's and index's files are dropped from the page cache twice a second
# during the load (posix_fadvise(DONTNEED) through "dd iflag=nocache"), so
# a page missing from shared_buffers is read from the disk, as it would be
# for a table larger than RAM.  BENCH_EVICT=0 leaves the cache alone.
#
# The cluster runs from a private copy of PostgreSQL 15 with this checkout's
# iobench installed into it; the system's PostgreSQL is not touched.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLIENTS=${BENCH_CLIENTS:-8}
SECONDS_EACH=${BENCH_SECONDS:-45}
PREFILL_ROWS=${BENCH_PREFILL_ROWS:-1000000}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-16MB}
EVICT=${BENCH_EVICT:-1}
EVICT_PID=

. "$SRC/bench/waits_common.sh"

q() { cluster_psql -At -c "$1"; }

# Drop the table's and index's files from the page cache every 0.5 s, in
# the background, until stop_evicting.
start_evicting() {
	local files
	files=$(q "SELECT string_agg(current_setting('data_directory') || '/' || pg_relation_filepath(c), ' ')
	             FROM unnest(ARRAY['guid_insert', 'guid_insert_pkey']::regclass[]) AS c")
	(
		while :; do
			for f in $files "${files// /.1 }.1"; do
				[ -f "$f" ] && dd if="$f" iflag=nocache count=0 status=none 2>/dev/null
			done
			sleep 0.5
		done
	) &
	EVICT_PID=$!
}

# Stop the eviction loop started by start_evicting.
stop_evicting() {
	if [ -n "$EVICT_PID" ]; then
		kill "$EVICT_PID" 2>/dev/null || true
		wait "$EVICT_PID" 2>/dev/null || true
		EVICT_PID=
	fi
}

main() {
	local script tps

	waits_private_install
	cluster_start "shared_buffers = $SHARED_BUFFERS" "max_connections = 50" \
		"track_io_timing = on" "track_wal_io_timing = on"
	trap 'stop_evicting; waits_cleanup' EXIT
	waits_restart "shared_preload_libraries = 'iobench'"
	q "CREATE EXTENSION iobench" >/dev/null

	echo "insert_waits: PostgreSQL $(q 'SHOW server_version'), $(nproc) CPUs," \
		"shared_buffers $SHARED_BUFFERS, $CLIENTS clients, ${SECONDS_EACH}s, page-cache eviction $EVICT," \
		"$PREFILL_ROWS rows before the run, data in $CLUSTER_DATA on" \
		"$(df --output=source,fstype "$CLUSTER_DATA" | tail -1 | tr -s ' ')"
	echo "insert_waits: creating and filling the table ..." >&2
	cluster_psql <<-SQL
		CREATE TABLE guid_insert (
		    id      uuid DEFAULT gen_random_uuid() PRIMARY KEY,
		    ts      timestamptz NOT NULL DEFAULT now(),
		    filler  char(111) NOT NULL DEFAULT 'x',
		    a       int NOT NULL,
		    b       int NOT NULL,
		    c       bigint NOT NULL
		);
		INSERT INTO guid_insert (a, b, c)
		    SELECT i % 1000, i % 7, i FROM generate_series(1, $PREFILL_ROWS) AS i;
		VACUUM ANALYZE guid_insert;
		CHECKPOINT;
	SQL
	q "SELECT 'insert_waits: table ' || pg_size_pretty(pg_relation_size('guid_insert'))
	     || ', index ' || pg_size_pretty(pg_relation_size('guid_insert_pkey'))"

	script=$CLUSTER_DIR/insert.sql
	cat <<-'SQL' | cluster_as_owner tee "$script" >/dev/null
		\set a random(1, 1000000)
		\set b random(1, 1000000)
		INSERT INTO guid_insert (a, b, c) VALUES (:a % 1000, :b % 7, :a::bigint * :b);
	SQL

	[ "$EVICT" = 1 ] && start_evicting
	q "SELECT pg_stat_reset(), pg_stat_reset_shared('wal'), iobench.reset_waits()" >/dev/null
	echo "insert_waits: $CLIENTS clients inserting for ${SECONDS_EACH}s ..." >&2
	tps=$( (cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pgbench" -h "$CLUSTER_SOCK" \
		-p "$CLUSTER_PORT" -U postgres -n -c "$CLIENTS" -j 2 -T "$SECONDS_EACH" \
		-f "$script" postgres) 2>"$CLUSTER_DIR/pgbench.err" | awk '/^tps = / { print $3; exit }') || true
	stop_evicting
	if [ -z "$tps" ]; then
		cat "$CLUSTER_DIR/pgbench.err" >&2
		exit 1
	fi
	sleep 0.1
	echo "insert_waits: $tps inserts/s; $(waits_pressure)"
	echo

	cluster_psql -c "SELECT * FROM iobench.wait_stats"
	cluster_psql -c "SELECT period_ms, ticks, missed_ticks, round(tick_pct::numeric, 2) AS tick_pct,
	                        round(sampled_s::numeric, 1) AS sampled_s
	                   FROM iobench.wait_collector"
	echo "Cross-check with PostgreSQL's exact counters (seconds, all backends):"
	cluster_psql -c "
		WITH w AS (SELECT * FROM iobench.wait_stats_all)
		SELECT 'data block reads' AS what,
		       round((SELECT blk_read_time / 1000 FROM pg_stat_database
		               WHERE datname = current_database())::numeric, 2) AS exact_s,
		       round((SELECT wait_s FROM w WHERE wait_type = 'IO:DataFileRead')::numeric, 2)
		           AS sampled_s,
		       'IO:DataFileRead' AS wait_type
		UNION ALL
		SELECT 'WAL writes', round((wal_write_time / 1000)::numeric, 2),
		       round((SELECT wait_s FROM w WHERE wait_type = 'IO:WALWrite')::numeric, 2),
		       'IO:WALWrite'
		  FROM pg_stat_wal
		UNION ALL
		SELECT 'WAL syncs', round((wal_sync_time / 1000)::numeric, 2),
		       round((SELECT wait_s FROM w WHERE wait_type = 'IO:WALSync')::numeric, 2),
		       'IO:WALSync'
		  FROM pg_stat_wal"
	echo "(blk_read_time counts this database's backends only; WAL times include the WAL writer)"
}

main "$@"
