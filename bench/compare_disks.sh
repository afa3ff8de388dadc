#!/usr/bin/env bash
# compare_disks.sh — the "comparing disks" walkthrough, end to end, on two
# kinds of storage of this machine: the root disk and a RAM-backed tmpfs.
#
#   sudo bench/compare_disks.sh [OUTDIR]      (root: it mounts a tmpfs)
#
# Starts a throwaway cluster (tools/cluster.sh; run "make install" first),
# makes tablespace "disk" on the disk under $IOBENCH_TMPDIR (default
# /var/tmp) and "ram" on a fresh 1 GB tmpfs, runs the oltp and sqlio suites
# on both, a pgiosim burn-in on the disk, prints the comparison and a report,
# and renders the plots with bench/plot.sh into OUTDIR (default ./plots).
#
# Environment: DURATION (per test, default 3s), FILE_SIZE (default 256MB).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$(realpath -m "${1:-./plots}")
DURATION=${DURATION:-3s}
FILE_SIZE=${FILE_SIZE:-256MB}
[ "$(id -u)" -eq 0 ] || { echo "compare_disks.sh: run as root (it mounts a tmpfs)" >&2; exit 1; }

# shellcheck source=../tools/cluster.sh
. "$SRC/tools/cluster.sh"
RAM=
finish() {
	cluster_stop
	if [ -n "$RAM" ] && mountpoint -q "$RAM"; then umount "$RAM"; fi
	[ -z "$RAM" ] || rmdir "$RAM" 2>/dev/null || true
}
cluster_start
trap finish EXIT

mkdir -p "$CLUSTER_DIR/disk"
RAM=$(mktemp -d /var/tmp/iobench-ram.XXXXXX)
mount -t tmpfs -o size=1G tmpfs "$RAM"
chown postgres: "$CLUSTER_DIR/disk" "$RAM"

cluster_psql <<SQL
CREATE EXTENSION iobench;
CREATE TABLESPACE disk LOCATION '$CLUSTER_DIR/disk';
CREATE TABLESPACE ram LOCATION '$RAM';
SET iobench.progress = off;
\echo === oltp suite, disk vs ram
SELECT test, tablespace, runs, iodepth, engine, iops, mb_per_s, lat_p99_us, fsync_p99_us, note
  FROM iobench.suite('oltp', ARRAY['disk', 'ram'], duration => '$DURATION', file_size => '$FILE_SIZE');
\echo === how much faster is ram than disk, per pattern?
SELECT test, iops AS ram_iops, base_iops AS disk_iops, iops_ratio, p99_ratio
  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites))
 WHERE tablespace = 'ram' ORDER BY test_no;
\echo === sqlio suite, disk vs ram
SELECT test, tablespace, iodepth, engine, iops, mb_per_s, lat_p99_us
  FROM iobench.suite('sqlio', ARRAY['disk', 'ram'], duration => '$DURATION', file_size => '$FILE_SIZE');
SELECT test, base_iops AS disk_iops, iops AS ram_iops, iops_ratio, mb_per_s_ratio, p99_ratio
  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites))
 WHERE tablespace = 'ram' ORDER BY test_no;
\echo === pgiosim burn-in on disk
SELECT run_id, read_iops, write_iops, fsync_lat_p99_us, stall_count
  FROM iobench.pgiosim('disk', workers => 4, duration => '10s', file_size => '$FILE_SIZE',
                       stall_threshold => '50ms');
\pset format unaligned
\pset tuples_only on
SELECT iobench.report((SELECT max(run_id) FROM iobench.runs));
SQL

suites=$(cluster_psql -At -c "SELECT string_agg('-s ' || suite_id, ' ') FROM iobench.suites")
runs=$(cluster_psql -At -c "SELECT '-r ' || max(run_id) || ' -r ' || (SELECT min(r.run_id) FROM iobench.suite_runs r
           JOIN iobench.suites s USING (suite_id) WHERE s.name = 'oltp' AND r.test_no = 4
           AND r.tablespace = 'disk') FROM iobench.runs")
# shellcheck disable=SC2086
PSQL="$CLUSTER_PGBIN/psql" "$SRC/bench/plot.sh" -o "$OUT" $suites $runs -- \
	-h "$CLUSTER_SOCK" -p "$CLUSTER_PORT" -U postgres -d postgres
