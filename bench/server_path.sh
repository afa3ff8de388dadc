#!/usr/bin/env bash
# server_path.sh — what PostgreSQL's own read path gets from a disk, beside
# the raw disk, per release and io_method, in one run (issue 27).
#
#   sudo bench/server_path.sh [RELEASE...]
#
# RELEASE is "host" (the PostgreSQL PG_CONFIG names, default Debian's 15),
# or a Debian root of tools/debian_root.sh: trixie (17), sid (18),
# experimental (19); default: host.  For a root, this checkout is copied
# into the root's /var/tmp and the script runs there (tools/debian_root.sh
# run), then the copy is removed.
#
# Per release, iobench is built and installed into a private copy of that
# PostgreSQL (tools/private_install.sh), a throwaway cluster is started
# (tools/cluster.sh; shared_buffers 128MB) with two tablespaces: "disk"
# under $IOBENCH_TMPDIR (default /var/tmp, this machine's disk) and "ram" on
# a RAM-backed block device (bench/ramdev.sh).  For each io_method the
# release has (18 and later: sync, worker, and io_uring where the server and
# the kernel allow it; one pass before 18) the cluster is restarted with it,
# and on each tablespace:
#   (a, b) raw vs server: 8 kB random reads at concurrency 1, 16 and 128
#          (raw: engine io_uring, direct I/O, that iodepth; server: engine
#          postgres, that effective_io_concurrency), and sequential reads at
#          the combine size (io_combine_limit blocks, 128 kB before 17) at
#          the server's default effective_io_concurrency (raw: that iodepth,
#          at least 1); IOPS of both and the ratio server/raw.  The raw
#          figures do not depend on io_method: they are measured once.
#   (c)    the cold sequential read of the benchmark relation
#          iobench_internal.read_target_<tablespace oid> (VACUUM FREEZE'd, so
#          a scan sets no hint bits) through the engine (relation bytes /
#          the engine's MB/s of a sequential run at the combine size and the
#          server's default effective_io_concurrency) against PostgreSQL's
#          own cold sequential scan of it: EXPLAIN (ANALYZE, BUFFERS) SELECT
#          count(*) (its execution time, the median of three) and
#          pg_prewarm(..., 'buffer'), each
#          after a restart (no buffer of it left) and its files dropped from
#          the page cache (dd iflag=nocache); no parallel scan (one process,
#          as the engine's one worker).  Target: scan / engine within
#          0.9-1.1.  scan_io_s is the scan's I/O read time (track_io_timing:
#          the time it waited for its reads), the rest of scan_s its CPU;
#          engine_dev the device's read bytes over the bytes the engine
#          read in its run (1: every block from the device).
#
# Environment: BENCH_SECONDS (per run, default 5), BENCH_FILE_SIZE (the
# relation and the raw file, default 1GB), BENCH_CHECK_ONLY=1 (only (c)),
# IOBENCH_TMPDIR.  About 10 minutes
# per release with io_method (18+) at the defaults, half that before.
set -euo pipefail

COMBINE=
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECS=${BENCH_SECONDS:-5}
FILE_SIZE=${BENCH_FILE_SIZE:-1GB}
CHECK_ONLY=${BENCH_CHECK_ONLY:-0}
RAW_TS='disk ram'
[ "$CHECK_ONLY" = 0 ] || RAW_TS=
[ "$(id -u)" -eq 0 ] || { echo "server_path.sh: run as root (it makes a RAM-backed device)" >&2; exit 1; }

# Run this script inside the Debian root of RELEASE on a copy of the checkout.
in_debian_root() {
	local release=$1 root work rc=0
	root=$("$SRC/tools/debian_root.sh" path "$release")
	"$SRC/tools/debian_root.sh" make "$release" >/dev/null
	work=$(mktemp -d "$root/var/tmp/iobench-bench.XXXXXX")
	(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$work"
	"$SRC/tools/debian_root.sh" run "$release" env \
		PG_CONFIG="$("$SRC/tools/debian_root.sh" pg_config "$release")" \
		BENCH_SECONDS="$SECS" BENCH_FILE_SIZE="$FILE_SIZE" BENCH_CHECK_ONLY="$CHECK_ONLY" \
		"${work#"$root"}/bench/server_path.sh" host || rc=$?
	rm -rf "$work"
	return "$rc"
}

# The whole measurement on the PostgreSQL that PG_CONFIG names.
on_host() {
	# shellcheck source=../tools/private_install.sh
	. "$SRC/tools/private_install.sh"
	# shellcheck source=ramdev.sh
	. "$SRC/bench/ramdev.sh"
	pg_dirs
	local ram_mb
	INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-inst.XXXXXX")
	chmod 755 "$INST"
	make -C "$SRC" -s clean >/dev/null
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
	private_install_tree "$SRC" "$INST"
	CLUSTER_PGBIN=$INST$PG_BIN
	# shellcheck source=../tools/cluster.sh
	. "$SRC/tools/cluster.sh"

	# the relation and the raw file, with room for the file system
	ram_mb=$(($(numfmt --from=iec "${FILE_SIZE%B}") * 5 / 2 / 1048576 + 256))
	ramdev_setup "$ram_mb"
	finish() {
		local rc=$?
		cluster_stop
		ramdev_cleanup
		rm -rf "$INST"
		exit "$rc"
	}
	cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB" \
		"autovacuum = off" "iobench.progress = off" "track_io_timing = on" \
		"max_parallel_workers_per_gather = 0"
	trap finish EXIT
	mkdir -p "$CLUSTER_DIR/disk"
	chown postgres: "$CLUSTER_DIR/disk"

	cluster_psql <<SQL
CREATE EXTENSION iobench;
CREATE EXTENSION pg_prewarm;
CREATE TABLESPACE disk LOCATION '$CLUSTER_DIR/disk';
CREATE TABLESPACE ram LOCATION '$RAMDEV_DIR';
-- one row per figure: raw (method '') or server under a method
CREATE TABLE fig (ts name, method text, pattern text, conc integer, iops numeric,
                  mb_per_s numeric, run_id bigint, hits bigint, reads bigint, blocks bigint);
CREATE TABLE seqcheck (ts name, method text, engine_s numeric, engine_dev numeric, scan_s numeric, scan_io_s numeric,
                       scan_read bigint, scan_hit bigint, prewarm_s numeric, rel_bytes bigint);
-- the plan of a statement, run (EXPLAIN ANALYZE), as JSON
CREATE FUNCTION explain_json(q text) RETURNS jsonb LANGUAGE plpgsql AS \$\$
DECLARE e jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || q INTO e;
	RETURN e;
END \$\$;
-- seconds an SQL statement takes
CREATE FUNCTION secs(q text) RETURNS numeric LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0);
END \$\$;
SQL
	local version methods m ts eic
	version=$(cluster_psql -At -c "SELECT current_setting('server_version_num')::int / 10000")
	methods=$(cluster_psql -At -c "SELECT coalesce(string_agg(v, ' ' ORDER BY o), '-')
		FROM pg_settings, unnest(enumvals) WITH ORDINALITY u(v, o) WHERE name = 'io_method'")
	COMBINE=$(cluster_psql -At -c "SELECT coalesce((SELECT setting::int * 8 FROM pg_settings
		WHERE name = 'io_combine_limit'), 128) || 'kB'")
	echo "== PostgreSQL $(cluster_psql -At -c 'SHOW server_version'), kernel $(uname -r)," \
		"disk: $(findmnt -no SOURCE -T "$CLUSTER_DIR/disk" | sed "s/\[.*//"), ram: $RAMDEV_KIND; io_methods: $methods;" \
		"combine size $COMBINE; ${SECS} s runs over $FILE_SIZE"

	# raw figures, once per tablespace (the io_method plays no part)
	eic=$(cluster_psql -At -c "SELECT greatest(current_setting('effective_io_concurrency')::int, 1)")
	for ts in $RAW_TS; do
		cluster_psql <<SQL
INSERT INTO fig (ts, method, pattern, conc, iops, mb_per_s, run_id)
SELECT '$ts', '', p.pattern, p.conc, r.iops, r.mb_per_s, r.run_id
  FROM (VALUES ('8kB randread', 1, 'randread', '8kB'), ('8kB randread', 16, 'randread', '8kB'),
               ('8kB randread', 128, 'randread', '8kB'), ('$COMBINE read', $eic, 'read', '$COMBINE')) p(pattern, conc, rw, bs),
       LATERAL iobench.run(tablespace => '$ts', engine => 'io_uring', rw => p.rw, block_size => p.bs,
                           iodepth => p.conc, duration => '${SECS}s', file_size => '$FILE_SIZE') r;
SQL
	done

	for m in $methods; do
		if [ "$m" != - ]; then
			cluster_psql -c "ALTER SYSTEM SET io_method = '$m'"
			if ! restart; then
				echo "-- io_method = $m: the server did not start (kernel or build without it); skipped"
				cluster_psql_after_reset || return 1
				continue
			fi
		fi
		for ts in disk ram; do
			[ "$CHECK_ONLY" = 1 ] || cluster_psql <<SQL
INSERT INTO fig
SELECT '$ts', '$m', p.pattern, p.conc, r.iops, r.mb_per_s, r.run_id
  FROM (VALUES (1, '8kB randread', 1, 'randread', '8kB'), (2, '8kB randread', 16, 'randread', '8kB'),
               (3, '8kB randread', 128, 'randread', '8kB'), (4, '$COMBINE read', NULL, 'read', '$COMBINE')) p(o, pattern, conc, rw, bs),
       LATERAL iobench.run(tablespace => '$ts', engine => 'postgres', rw => p.rw, block_size => p.bs,
                           effective_io_concurrency => p.conc, duration => '${SECS}s',
                           file_size => '$FILE_SIZE') r
 ORDER BY p.o;
-- (a statement does not see what the runs it calls stored)
UPDATE fig f SET conc = r.effective_io_concurrency, hits = s.buffer_hits, reads = s.buffer_reads,
                 blocks = s.blocks
  FROM iobench.run_server_reads s JOIN iobench.runs r USING (run_id) WHERE s.run_id = f.run_id;
SQL
			seq_check "$ts" "$m"
		done
	done
	report "$version"
}

# Restart the cluster (a new io_method); fails when the server does not start.
restart() {
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
		-l "$CLUSTER_DIR/server.log" -m fast -w restart >/dev/null)
}

# After a method the server refused: back to the default one, started.
cluster_psql_after_reset() {
	cluster_as_owner sed -i '/^io_method/d' "$CLUSTER_DATA/postgresql.auto.conf"
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
		-l "$CLUSTER_DIR/server.log" -w start >/dev/null)
}

# Drop the files of relation REL from the page cache.
drop_relation_cache() {
	local f
	f=$(cluster_psql -At -c "SELECT current_setting('data_directory') || '/' || pg_relation_filepath('$1')")
	for f in "$f" "$f".[0-9]*; do
		[ -e "$f" ] && dd if="$f" iflag=nocache count=0 status=none
	done
	return 0
}

# (c): the engine's cold sequential read of the relation against a
# sequential scan's and pg_prewarm's; arguments: tablespace, method.
seq_check() {
	local ts=$1 m=$2 rel run engine_s scan prewarm_s
	rel=iobench_internal.read_target_$(cluster_psql -At -c "SELECT oid FROM pg_tablespace WHERE spcname = '$ts'")
	# (made by the first run on the tablespace, which BENCH_CHECK_ONLY leaves out)
	cluster_psql -At -c "SELECT to_regclass('$rel') IS NULL" | grep -q f ||
		cluster_psql -c "SELECT FROM iobench.run(tablespace => '$ts', engine => 'postgres', rw => 'read',
			duration => '1s', file_size => '$FILE_SIZE')"
	cluster_psql -c "VACUUM (FREEZE) $rel" -c CHECKPOINT
	run=$(cluster_psql -At -c "SELECT run_id FROM iobench.run(tablespace => '$ts', engine => 'postgres',
		rw => 'read', block_size => '$COMBINE', duration => '${SECS}s', file_size => '$FILE_SIZE')")
	engine_s=$(cluster_psql -At -c "SELECT round((s.relation_bytes / (r.mb_per_s * 1e6))::numeric, 3) || ' ' ||
		       coalesce(round((SELECT sum(d.read_sectors) * 512 FROM iobench.run_disk_seconds d
		                       WHERE d.run_id = r.run_id AND NOT d.member) / (s.blocks * 8192.0), 2)::text, 'NULL')
		FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id) WHERE run_id = $run")
	# three cold scans, the median kept: the first scan after the engine's
	# run was up to 5 times slower than the next ones on this VM's disk
	scan=$(for i in 1 2 3; do
		restart
		drop_relation_cache "$rel"
		cluster_psql -At -c "SELECT round((e -> 0 ->> 'Execution Time')::numeric / 1000, 3) || ' ' ||
			round(coalesce(e -> 0 -> 'Plan' ->> 'Shared I/O Read Time', e -> 0 -> 'Plan' ->> 'I/O Read Time')::numeric / 1000, 3) || ' ' ||
			(e -> 0 -> 'Plan' ->> 'Shared Read Blocks') || ' ' || (e -> 0 -> 'Plan' ->> 'Shared Hit Blocks')
			FROM explain_json('SELECT count(*) FROM $rel') e"
	done | sort -n | sed -n 2p)
	restart
	drop_relation_cache "$rel"
	prewarm_s=$(cluster_psql -At -c "SELECT round(secs('SELECT pg_prewarm(''$rel'', ''buffer'')'), 3)")
	# shellcheck disable=SC2086
	set -- $scan
	cluster_psql -c "INSERT INTO seqcheck VALUES ('$ts', '$m', ${engine_s/ /, }, $1, $2, $3, $4, $prewarm_s,
		pg_relation_size('$rel'))"
}

# Print the tables of one release.
report() {
	cluster_psql <<SQL
\pset footer off
\echo == (a, b) raw vs server, IOPS (sequential: at the combine size; concurrency: raw iodepth, server effective_io_concurrency)
SELECT $1 AS pg, s.method AS io_method, s.ts AS tablespace, s.pattern,
       r.conc AS raw_conc, s.conc AS srv_conc, round(r.iops) AS raw_iops, round(s.iops) AS server_iops,
       round(s.iops / nullif(r.iops, 0), 2) AS ratio, s.reads AS server_reads, s.hits AS server_hits
  FROM fig s
  JOIN fig r ON r.method = '' AND r.ts = s.ts AND r.pattern = s.pattern
            AND (r.conc = s.conc OR s.pattern NOT LIKE '8kB%')
 WHERE s.method <> ''
 ORDER BY s.method, s.ts, s.run_id;
\echo == (c) cold sequential read of the relation: engine vs a sequential scan and pg_prewarm (target: scan / engine 0.9-1.1)
SELECT $1 AS pg, method AS io_method, ts AS tablespace, pg_size_pretty(rel_bytes) AS relation,
       engine_s, engine_dev, scan_s, round(scan_s / engine_s, 2) AS scan_ratio, scan_io_s, scan_read, scan_hit,
       prewarm_s, round(prewarm_s / engine_s, 2) AS prewarm_ratio
  FROM seqcheck ORDER BY method, ts;
SQL
}

if [ "${1:-}" = host ] && [ $# -eq 1 ]; then
	on_host
	exit
fi
[ $# -gt 0 ] || set -- host
rc=0
for release in "$@"; do
	case $release in
	host) "$0" host || rc=1 ;;
	trixie | sid | experimental) in_debian_root "$release" || rc=1 ;;
	*) echo "server_path.sh: unknown release \"$release\" (host, trixie, sid, experimental)" >&2; exit 2 ;;
	esac
done
exit "$rc"
