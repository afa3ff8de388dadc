#!/usr/bin/env bash
# wal_fsync.sh — iobench's WAL pattern beside pg_test_fsync, on the same
# directory, for each wal_sync_method Linux has.
#
#   bench/wal_fsync.sh                  2 s per method and tool, 3 rounds
#   BENCH_SECONDS=5 BENCH_ROUNDS=5 bench/wal_fsync.sh
#   BENCH_DIR=/srv/wal bench/wal_fsync.sh   a tablespace there instead of
#                                           the cluster's pg_default
#
# pg_test_fsync (shipped with the server) times "one 8kB write" per method:
# open_datasync and open_sync with O_DIRECT, fdatasync and fsync buffered,
# each write of the same 8 kB at the start of a 16 MB file followed by the
# sync.  iobench runs the oltp suite's WAL pattern (wal_pattern.c) with each
# method picked by the caller: sequential 8 kB writes through one file of
# the server's wal_segment_size, wrapping, one sync or synchronous write
# each.  Both are reported as operations per second; the ratio is
# iobench / pg_test_fsync.  On a device with a known flush time the two
# agree within a few per cent; on a device with a volatile write cache the
# figures are those of the cache.  A shared disk drifts from one second
# to the next, so the tools take turns, round after round, and the figures
# printed are the medians over the rounds.
#
# The cluster runs from a private install tree (tools/private_install.sh),
# so nothing is installed into the system's PostgreSQL.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECS=${BENCH_SECONDS:-2}
ROUNDS=${BENCH_ROUNDS:-3}
PG_TEST_FSYNC=${PG_TEST_FSYNC:-/usr/lib/postgresql/15/bin/pg_test_fsync}
METHODS=(open_datasync fdatasync fsync open_sync)

. "$SRC/tools/private_install.sh"
INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-walbench.XXXXXX")
trap 'rm -rf "$INST"' EXIT
chmod 755 "$INST"	# the cluster owner runs the binaries from it
make -C "$SRC" -s >/dev/null
private_install_tree "$SRC" "$INST"
CLUSTER_PGBIN=$INST$PG_BIN
. "$SRC/tools/cluster.sh"
cluster_start "shared_preload_libraries = 'iobench'" "iobench.progress = off"
# cluster.sh's EXIT trap replaces ours: remove the install tree there too
trap 'rc=$?; cluster_stop; rm -rf "$INST"; exit $rc' EXIT
cluster_psql -c "CREATE EXTENSION iobench"

SPC=pg_default
if [ -n "${BENCH_DIR:-}" ]; then
	mkdir -p "$BENCH_DIR"
	if [ "$(id -u)" -eq 0 ]; then chown postgres: "$BENCH_DIR"; fi
	cluster_psql -c "CREATE TABLESPACE wal_bench LOCATION '$BENCH_DIR'"
	SPC=wal_bench
fi
# The directory iobench writes its files in (made by the first run)
cluster_psql -At -c "SELECT 1 FROM iobench.run(tablespace => '$SPC', duration => '100ms', file_size => '1MB')" >/dev/null
if [ "$SPC" = pg_default ]; then
	DIR=$CLUSTER_DATA/base/pgsql_tmp
else
	DIR=$(find "$BENCH_DIR" -maxdepth 2 -type d -name pgsql_tmp | head -n 1)
fi
# A suite of the WAL test alone (a suite_tests row with sync_method 'wal')
cluster_psql -c "INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers,
	iodepth, files, fsync_every, sync_method, description)
	VALUES ('wal_only', 1, 'WAL', 'write', '8kB', 1, 1, 1, 1, 'wal', 'the oltp suite''s WAL test alone')"

echo "directory: $DIR ($(df --output=source,fstype "$DIR" | tail -n 1 | tr -s ' '))"
# ops/sec of "one 8kB write" for method $2, from pg_test_fsync output $1
ptf_ops() {
	awk -v m="$2" '/^Compare file sync methods using one 8kB write/ { on = 1; next }
		on && /^Compare/ { exit }
		on && $1 == m && $3 == "ops/sec" { print $2; exit }' <<<"$1"
}

# iobench's WAL test with method $1: "direct writes/s p99_us"
iobench_wal() {
	# the suite's rows are read by a second statement: the first one's
	# snapshot predates them
	cluster_psql -At -F ' ' -c "SET client_min_messages = warning;
		CREATE TEMP TABLE s AS
		SELECT * FROM iobench.suite('wal_only', ARRAY['$SPC'], duration => '${SECS}s',
		                            file_size => '1MB', wal_sync_method => '$1', label => 'wal_fsync');
		SELECT r.direct, round((r.write_ops / r.measured_s)::numeric, 1),
		       round((coalesce(r.fsync_lat_p99_us, 0) + r.write_lat_p99_us)::numeric)
		  FROM s JOIN iobench.suite_runs sr USING (suite_id, test_no)
		  JOIN iobench.runs r ON r.run_id = sr.run_id"
}

# Median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A PTF IOB P99 DIRECT
for ((round = 1; round <= ROUNDS; round++)); do
	echo "round $round/$ROUNDS: pg_test_fsync -s $SECS, then iobench (${#METHODS[@]} x ${SECS}s)"
	out=$(cd "$CLUSTER_DIR" && cluster_as_owner "$PG_TEST_FSYNC" -f "$DIR/pg_test_fsync.out" -s "$SECS" 2>&1)
	cluster_as_owner rm -f "$DIR/pg_test_fsync.out"
	for m in "${METHODS[@]}"; do
		PTF[$m]+="$(ptf_ops "$out" "$m") "
		read -r d iops p99 <<<"$(iobench_wal "$m")"
		DIRECT[$m]=$d
		IOB[$m]+="$iops "
		P99[$m]+="$p99 "
	done
done

printf '%-15s %7s %16s %16s %7s %14s\n' method direct 'pg_test_fsync/s' 'iobench/s' ratio 'iobench p99'
for m in "${METHODS[@]}"; do
	ptf=$(tr ' ' '\n' <<<"${PTF[$m]}" | grep . | median)
	iob=$(tr ' ' '\n' <<<"${IOB[$m]}" | grep . | median)
	p99=$(tr ' ' '\n' <<<"${P99[$m]}" | grep . | median)
	ratio=$(awk -v a="$iob" -v b="$ptf" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
	printf '%-15s %7s %16s %16s %7s %11s us\n' "$m" "${DIRECT[$m]}" "$ptf" "$iob" "$ratio" "$p99"
done
echo "(medians of $ROUNDS rounds; iobench p99: the p99 of the writes plus the p99 of their syncs)"
