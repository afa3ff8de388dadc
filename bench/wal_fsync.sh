#!/usr/bin/env bash
# wal_fsync.sh — iobench's WAL pattern beside pg_test_fsync, on the same
# directory, for each wal_sync_method Linux has.
#
#   bench/wal_fsync.sh                  2 s per method and tool, 3 rounds
#   BENCH_SECONDS=5 BENCH_ROUNDS=5 bench/wal_fsync.sh
#   BENCH_DIR=/srv/wal bench/wal_fsync.sh   a tablespace there instead of
#                                           the cluster's pg_default
#   BENCH_DIR=/mnt/loop/wal BENCH_WRITE_IOPS=200 bench/wal_fsync.sh
#                           as root: the cluster and pg_test_fsync in a
#                           cgroup-v1 blkio group that caps the disk under
#                           BENCH_DIR at 200 writes/s (write_iops_device),
#                           as a container's I/O limit does
#
# pg_test_fsync (shipped with the server) times "one 8kB write" per method:
# open_datasync and open_sync with O_DIRECT, fdatasync and fsync buffered,
# each write of the same 8 kB at the start of a 16 MB file followed by the
# sync.  iobench runs the oltp suite's WAL pattern (wal_pattern.c) with each
# method picked by the caller: sequential 8 kB writes through one file of
# the server's wal_segment_size, wrapping, one sync or synchronous write
# each.  iobench's headline is its commits (runs.commit_*: each write plus
# its sync, as a WAL flush), not the buffered write alone: commits per
# second against pg_test_fsync's ops/sec (the ratio is iobench /
# pg_test_fsync), the mean commit latency against its usecs/op, and the
# commit's p99.  On a device with a known flush time the two
# agree within a few per cent; on a device with a volatile write cache the
# figures are those of the cache.  A shared disk drifts from one second
# to the next, so the tools take turns, round after round, and the figures
# printed are the medians over the rounds.  For each iobench run the
# device's own writes and flushes per second (iobench.disk_stats(), from
# /proc/diskstats) are printed too: under a write cap, every write and
# every flush counts against it, so open_datasync and fdatasync (a write
# and a flush per commit) run at half the cap.
#
# The cluster runs from a private install tree (tools/private_install.sh),
# so nothing is installed into the system's PostgreSQL.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECS=${BENCH_SECONDS:-2}
ROUNDS=${BENCH_ROUNDS:-3}
PG_TEST_FSYNC=${PG_TEST_FSYNC:-/usr/lib/postgresql/15/bin/pg_test_fsync}
METHODS=(open_datasync fdatasync fsync open_sync)
CAP=${BENCH_WRITE_IOPS:-}
CGROUP=

# The maj:min of the whole disk under directory $1 (a partition's disk)
disk_of() {
	local dev sys
	dev=$(mountpoint -d "$(findmnt -n -o TARGET -T "$1")")
	sys=$(readlink -f "/sys/dev/block/$dev")
	if [ -f "$sys/partition" ]; then sys=$(dirname "$sys"); fi
	cat "$sys/dev"
}

# Put this shell (and so the cluster and pg_test_fsync it starts) in a
# blkio group that caps the disk under BENCH_DIR at $CAP writes/s.
cap_writes() {
	[ -n "${BENCH_DIR:-}" ] || { echo "BENCH_WRITE_IOPS needs BENCH_DIR (a directory on a block device)" >&2; exit 1; }
	[ "$(id -u)" -eq 0 ] || { echo "BENCH_WRITE_IOPS needs root (a cgroup-v1 blkio group)" >&2; exit 1; }
	[ -f /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ] ||
		{ echo "BENCH_WRITE_IOPS needs a cgroup-v1 blkio hierarchy at /sys/fs/cgroup/blkio" >&2; exit 1; }
	mkdir -p "$BENCH_DIR"
	CGROUP=/sys/fs/cgroup/blkio/iobench-walbench-$$
	mkdir "$CGROUP"
	echo "$(disk_of "$BENCH_DIR") $CAP" >"$CGROUP/blkio.throttle.write_iops_device"
	echo $$ >"$CGROUP/cgroup.procs"
	echo "write cap: $(cat "$CGROUP/blkio.throttle.write_iops_device") writes/s (blkio group $CGROUP)"
}
if [ -n "$CAP" ]; then cap_writes; fi

. "$SRC/tools/private_install.sh"
INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-walbench.XXXXXX")
# Out of the blkio group and remove it (its processes have ended)
leave_cgroup() {
	[ -n "$CGROUP" ] || return 0
	echo $$ >/sys/fs/cgroup/blkio/cgroup.procs
	rmdir "$CGROUP" 2>/dev/null || true
}
trap 'rm -rf "$INST"; leave_cgroup' EXIT
chmod 755 "$INST"	# the cluster owner runs the binaries from it
make -C "$SRC" -s >/dev/null
private_install_tree "$SRC" "$INST"
CLUSTER_PGBIN=$INST$PG_BIN
. "$SRC/tools/cluster.sh"
cluster_start "shared_preload_libraries = 'iobench'" "iobench.progress = off"
# cluster.sh's EXIT trap replaces ours: remove the install tree there too
TS_DIR=
trap 'rc=$?; cluster_stop; rm -rf "$INST" ${TS_DIR:+"$TS_DIR"}; leave_cgroup; exit $rc' EXIT
cluster_psql -c "CREATE EXTENSION iobench"

SPC=pg_default
if [ -n "${BENCH_DIR:-}" ]; then
	mkdir -p "$BENCH_DIR"
	if [ "$(id -u)" -eq 0 ]; then chown postgres: "$BENCH_DIR"; fi
	cluster_psql -c "CREATE TABLESPACE wal_bench LOCATION '$BENCH_DIR'"
	# the tablespace's directory goes with the cluster
	TS_DIR=$(find "$BENCH_DIR" -maxdepth 1 -name 'PG_*' -print -quit)
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
# ops/sec ($3 = 2) or usecs/op ($3 = 4) of "one 8kB write" for method $2,
# from pg_test_fsync output $1
ptf_field() {
	awk -v m="$2" -v f="$3" '/^Compare file sync methods using one 8kB write/ { on = 1; next }
		on && /^Compare/ { exit }
		on && $1 == m && $3 == "ops/sec" { print $f; exit }' <<<"$1"
}

# iobench's WAL test with method $1:
# "direct commits/s commit_avg_us commit_p99_us device_w/s device_f/s"
iobench_wal() {
	# the suite's rows are read by a second statement: the first one's
	# snapshot predates them
	cluster_psql -At -F ' ' -c "SET client_min_messages = warning;
		CREATE TEMP TABLE s AS
		SELECT * FROM iobench.suite('wal_only', ARRAY['$SPC'], duration => '${SECS}s',
		                            file_size => '1MB', wal_sync_method => '$1', label => 'wal_fsync');
		SELECT r.direct, round(r.commit_iops::numeric, 1), round(r.commit_lat_avg_us::numeric),
		       round(r.commit_lat_p99_us::numeric),
		       coalesce(round(d.w_s::numeric, 1)::text, '-'), coalesce(round(d.f_s::numeric, 1)::text, '-')
		  FROM s JOIN iobench.suite_runs sr USING (suite_id, test_no)
		  JOIN iobench.runs r ON r.run_id = sr.run_id
		  LEFT JOIN (SELECT * FROM iobench.disk_stats((SELECT run_id FROM iobench.suite_runs
		                                               WHERE suite_id = (SELECT suite_id FROM s))))
		         d ON d.kind = 'average' AND NOT d.member"
}

# Median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A PTF PTFUS IOB AVG P99 DIRECT DEVW DEVF
for ((round = 1; round <= ROUNDS; round++)); do
	echo "round $round/$ROUNDS: pg_test_fsync -s $SECS, then iobench (${#METHODS[@]} x ${SECS}s)"
	out=$(cd "$CLUSTER_DIR" && cluster_as_owner "$PG_TEST_FSYNC" -f "$DIR/pg_test_fsync.out" -s "$SECS" 2>&1)
	cluster_as_owner rm -f "$DIR/pg_test_fsync.out"
	for m in "${METHODS[@]}"; do
		PTF[$m]+="$(ptf_field "$out" "$m" 2) "
		PTFUS[$m]+="$(ptf_field "$out" "$m" 4) "
		read -r d iops avg p99 devw devf <<<"$(iobench_wal "$m")"
		DIRECT[$m]=$d
		IOB[$m]+="$iops "
		AVG[$m]+="$avg "
		P99[$m]+="$p99 "
		DEVW[$m]+="$devw "
		DEVF[$m]+="$devf "
	done
done

printf '%-15s %7s %16s %17s %7s %16s %16s %12s %10s %10s\n' method direct 'pg_test_fsync/s' \
	'iobench commit/s' ratio 'pg_test_fsync avg' 'iobench commit avg' 'commit p99' 'device w/s' 'device f/s'
for m in "${METHODS[@]}"; do
	ptf=$(tr ' ' '\n' <<<"${PTF[$m]}" | grep . | median)
	ptfus=$(tr ' ' '\n' <<<"${PTFUS[$m]}" | grep . | median)
	iob=$(tr ' ' '\n' <<<"${IOB[$m]}" | grep . | median)
	avg=$(tr ' ' '\n' <<<"${AVG[$m]}" | grep . | median)
	p99=$(tr ' ' '\n' <<<"${P99[$m]}" | grep . | median)
	devw=$(tr ' ' '\n' <<<"${DEVW[$m]}" | grep -v -e '^$' -e '^-$' | median)
	devf=$(tr ' ' '\n' <<<"${DEVF[$m]}" | grep -v -e '^$' -e '^-$' | median)
	ratio=$(awk -v a="$iob" -v b="$ptf" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
	printf '%-15s %7s %16s %17s %7s %13s us %15s us %9s us %10s %10s\n' "$m" "${DIRECT[$m]}" "$ptf" "$iob" "$ratio" \
		"$ptfus" "$avg" "$p99" "$devw" "$devf"
done
echo "(medians of $ROUNDS rounds; iobench's figures are its commits (runs.commit_*): each write plus its"
echo " sync, as a WAL flush; pg_test_fsync avg: its usecs/op; device w/s, f/s: the disk's writes and"
echo " flushes per second during iobench's runs, - when not sampled)"
