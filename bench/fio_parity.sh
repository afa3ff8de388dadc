#!/usr/bin/env bash
# fio_parity.sh — the same workloads with fio and with iobench, on the same
# disk, in one run, side by side.
#
#   bench/fio_parity.sh                 all workloads, 10 s each per tool
#   BENCH_SECONDS=20 bench/fio_parity.sh
#   BENCH_ONLY=randread bench/fio_parity.sh   workloads whose name matches
#   BENCH_ROUNDS=5 bench/fio_parity.sh        rounds (default 3)
#
# A shared or virtual disk drifts by several per cent from one run to the
# next, more than the targets allow, so each workload runs BENCH_ROUNDS times
# per tool, the tools taking turns to go first, and every figure printed is
# the median over the rounds.
#
# For each workload it prints IOPS of both tools and their ratio, p50 and p99
# latency of both (submission to completion: fio's "lat", iobench's latency),
# and CPU time per I/O of both (user + system time of fio's jobs / of
# iobench's workers, divided by the data I/Os completed; a write's fsync counts
# as part of its write).  Targets: iobench/fio IOPS >= 0.95, CPU per I/O
# within 10 % of fio's.
#
# An op kind of "read+write" compares IOPS and CPU per I/O over reads and
# writes together, latency of the reads.
#
# fio 3.33's fsync=N on a mixed read/write job also syncs after reads (its
# check looks at the write count only, fixed upstream later), so the mixed
# workload with a sync after each write ("IOLOG jobs read_pct" in place of
# fio options) is given to fio as a replay log (read_iolog, format 2): one
# log per job of random 8 KB reads and writes in the same proportion, each
# write followed by a "sync" of the file, replayed at iodepth 1 with io_uring
# until the run time is up.
#
# Both tools use files of the same size in the same directory (the
# throwaway cluster's pg_default temporary-file directory, under
# $IOBENCH_TMPDIR, default /var/tmp), with direct I/O.  Needs root or sudo
# to install fio/jq and iobench when missing.  iobench is installed into the
# PostgreSQL that PG_CONFIG names (default: Debian's 15).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_EACH=${BENCH_SECONDS:-10}
FILE_SIZE=${BENCH_FILE_SIZE:-1GB}	# iobench spelling; fio gets the same bytes
ONLY=${BENCH_ONLY:-}
ROUNDS=${BENCH_ROUNDS:-3}

# Workloads: name | fio options | iobench arguments | op kind compared
WORKLOADS=(
	"8k randread QD1 psync|--rw=randread --bs=8k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'psync'|read"
	"8k randwrite+fsync QD1 psync|--rw=randwrite --bs=8k --ioengine=psync --iodepth=1 --numjobs=1 --fsync=1|rw => 'randwrite', block_size => '8kB', engine => 'psync', fsync_every => 1|write"
	"64k seq read QD1 psync|--rw=read --bs=64k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'read', block_size => '64kB', engine => 'psync'|read"
	"8k randread QD32 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32|read"
	"8k randread 4x QD8 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=8 --numjobs=4|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 8, workers => 4|read"
	"1M seq read QD8 io_uring|--rw=read --bs=1m --ioengine=io_uring --iodepth=8 --numjobs=1|rw => 'read', block_size => '1MB', engine => 'io_uring', iodepth => 8|read"
	"8k 90/10 rw+fsync 10x io_uring|IOLOG 10 90|rw => 'randrw', read_pct => 90, block_size => '8kB', engine => 'io_uring', fsync_every => 1, workers => 10|read+write"
)

. "$SRC/tools/cluster.sh"

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Install fio and jq if missing, build and install iobench.
prepare() {
	"$SRC/tools/deps.sh"
	if ! command -v fio >/dev/null || ! command -v jq >/dev/null; then
		as_root apt-get install -y -qq fio jq >/dev/null
	fi
	pg_dirs
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG"
	as_root make -C "$SRC" -s install PG_CONFIG="$PG_CONFIG" >/dev/null
	CLUSTER_PGBIN=$PG_BIN
}

# Summarise fio's JSON for op kind "read", "write" or "read+write";
# prints "iops p50_us p99_us cpu_us_per_io".
fio_summary() {
	jq -r --arg op "$1" '.jobs[0] as $j | ($op | split("+")) as $ks |
		($ks | map($j[.].iops) | add) as $iops |
		($ks | map($j[.].total_ios) | add) as $ios |
		$j[$ks[0]] as $o |
		[$iops,
		 ($o.lat_ns.percentile["50.000000"] / 1000),
		 ($o.lat_ns.percentile["99.000000"] / 1000),
		 (($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000 / $ios * 1e6)]
		| map(tostring) | join(" ")'
}

# Write fio replay logs (format 2) for "jobs" jobs: random 8 KB reads,
# read_pct % of the ops, the others writes each followed by a sync, enough
# for the run time at up to 40,000 ops/s per job.
make_iologs() {
	local jobs=$1 read_pct=$2 file=$3 dir=$4 j
	local blocks=$(($(numfmt --from=iec "${FILE_SIZE%B}") / 8192))
	for j in $(seq 0 $((jobs - 1))); do
		awk -v f="$file" -v n=$((SECONDS_EACH * 40000)) -v blocks="$blocks" \
			-v rp="$read_pct" -v seed=$((j + 1)) 'BEGIN {
			srand(seed)
			print "fio version 2 iolog"; print f " add"; print f " open"
			for (i = 0; i < n; i++) {
				off = int(rand() * blocks) * 8192
				if (rand() * 100 < rp)
					print f " read " off " 8192"
				else {
					print f " write " off " 8192"; print f " sync 0 0"
				}
			}
			print f " close"
		}' >"$dir/parity.$j.iolog"
	done
}

# Give fio a file prepared as iobench prepares its own, fresh for every run:
# random data, synced, evicted from the page cache.  How a file was last
# written changes what a virtual disk's host cache holds; fio's own layout
# left files that read up to 30 % faster at 1 MB than the same bytes written
# and synced like iobench's (and twice as fast when read a second time).
make_file_like_iobench() {
	local file=$1 mib
	mib=$(( $(numfmt --from=iec "${FILE_SIZE%B}") / 1048576 ))
	rm -f "$file"
	cluster_as_owner dd if=/dev/urandom of="$file" bs=1M count="$mib" conv=fsync status=none
	cluster_as_owner dd if="$file" iflag=nocache count=0 status=none
}

# Run fio for one workload; prints "iops p50_us p99_us cpu_us_per_io".
run_fio() {
	local opts=$1 op=$2 file=$3 json jobs read_pct logdir j jobargs=()
	make_file_like_iobench "$file"
	if [[ $opts == IOLOG* ]]; then
		read -r _ jobs read_pct <<<"$opts"
		logdir=$(cluster_as_owner mktemp -d -p "$CLUSTER_DIR")
		make_iologs "$jobs" "$read_pct" "$file" "$logdir"
		chown -R --reference="$CLUSTER_DIR" "$logdir"
		for j in $(seq 0 $((jobs - 1))); do
			jobargs+=(--name="parity$j" --read_iolog="$logdir/parity.$j.iolog")
		done
		json=$(cd "$CLUSTER_DIR" && cluster_as_owner fio --direct=1 \
			--ioengine=io_uring --iodepth=1 --runtime="$SECONDS_EACH" \
			--group_reporting --lat_percentiles=1 --output-format=json "${jobargs[@]}")
		rm -rf "$logdir"
	else
		json=$(cd "$CLUSTER_DIR" && cluster_as_owner fio --name=parity --filename="$file" \
			--size="$(numfmt --from=iec "${FILE_SIZE%B}")" --direct=1 --time_based \
			--runtime="$SECONDS_EACH" --group_reporting --lat_percentiles=1 \
			--randrepeat=0 --output-format=json $opts)
	fi
	fio_summary "$op" <<<"$json"
}

# Run iobench for one workload; prints "iops p50_us p99_us cpu_us_per_io".
run_iobench() {
	local args=$1 op=$2 first=${2%%+*} iops ops
	iops="${op//+/_iops + }_iops"
	ops="${op//+/_ops + }_ops"
	cluster_psql -At -F ' ' -c "SET iobench.progress = off" -c "
		SELECT $iops, ${first}_lat_p50_us, ${first}_lat_p99_us,
		       (cpu_user_pct + cpu_sys_pct) / 100 * measured_s / ($ops) * 1e6
		  FROM iobench.run($args, duration => '${SECONDS_EACH}s',
		                   file_size => '$FILE_SIZE', label => 'fio_parity')"
}

# Column-wise medians of lines of numbers given as arguments.
medians() {
	printf '%s\n' "$@" | awk '
		{ for (i = 1; i <= NF; i++) v[i, NR] = $i; n = NR; nf = NF }
		END {
			for (i = 1; i <= nf; i++) {
				m = 0
				for (j = 1; j <= n; j++) a[++m] = v[i, j] + 0
				for (j = 2; j <= m; j++) { x = a[j]; k = j - 1
					while (k >= 1 && a[k] > x) { a[k + 1] = a[k]; k-- }
					a[k + 1] = x }
				printf "%s%s", (i > 1 ? " " : ""), (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2)
			}
			printf "\n"
		}'
}

main() {
	local w name fio_opts ib_args op f i rows=()

	prepare
	cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB"
	cluster_psql -c "CREATE EXTENSION iobench"
	f=$CLUSTER_DATA/base/pgsql_tmp/fio_parity.0
	cluster_as_owner mkdir -p "$(dirname "$f")"

	echo "fio_parity: $(cluster_psql -At -c 'SELECT version()'), assertions $(cluster_psql -At -c 'SHOW debug_assertions')"
	echo "fio_parity: $(fio --version), iobench from $SRC, ${SECONDS_EACH}s per tool per workload, $FILE_SIZE file, direct I/O"
	echo "fio_parity: files in $(dirname "$f") on $(df --output=source,fstype "$CLUSTER_DATA" | tail -1)"
	echo "fio_parity: $ROUNDS rounds, tools taking turns to go first; medians over the rounds"
	for w in "${WORKLOADS[@]}"; do
		IFS='|' read -r name fio_opts ib_args op <<<"$w"
		[ -z "$ONLY" ] || [[ $name == *$ONLY* ]] || continue
		local fio_all=() ib_all=() r
		for r in $(seq 1 "$ROUNDS"); do
			echo "fio_parity: $name, round $r ..." >&2
			if [ $((r % 2)) -eq 1 ]; then
				fio_all+=("$(run_fio "$fio_opts" "$op" "$f")")
				ib_all+=("$(run_iobench "$ib_args" "$op")")
			else
				ib_all+=("$(run_iobench "$ib_args" "$op")")
				fio_all+=("$(run_fio "$fio_opts" "$op" "$f")")
			fi
		done
		for r in $(seq 0 $((ROUNDS - 1))); do
			echo "fio_parity: $name, round $((r + 1)): IOPS fio ${fio_all[r]%% *}, iobench ${ib_all[r]%% *}" >&2
		done
		rows+=("$name|$(medians "${fio_all[@]}")|$(medians "${ib_all[@]}")")
	done
	rm -f "$f"

	echo
	printf '%-30s %10s %10s %6s  %8s %8s  %8s %8s  %9s %9s %6s\n' \
		workload "fio IOPS" "iob IOPS" ratio "fio p50" "iob p50" "fio p99" "iob p99" \
		"fio CPU/IO" "iob CPU/IO" ratio
	printf '%-30s %10s %10s %6s  %8s %8s  %8s %8s  %9s %9s %6s\n' \
		"" "" "" "" "us" "us" "us" "us" "us" "us" ""
	for i in "${rows[@]}"; do
		IFS='|' read -r name fr ir <<<"$i"
		read -r fi_iops fi_p50 fi_p99 fi_cpu <<<"$fr"
		read -r ib_iops ib_p50 ib_p99 ib_cpu <<<"$ir"
		awk -v n="$name" -v fi="$fi_iops" -v ii="$ib_iops" -v f50="$fi_p50" -v i50="$ib_p50" \
			-v f99="$fi_p99" -v i99="$ib_p99" -v fc="$fi_cpu" -v ic="$ib_cpu" 'BEGIN {
			printf "%-30s %10.0f %10.0f %6.3f  %8.1f %8.1f  %8.1f %8.1f  %9.2f %9.2f %6.3f  %s\n",
				n, fi, ii, ii / fi, f50, i50, f99, i99, fc, ic, ic / fc,
				(ii / fi >= 0.95 && ic / fc <= 1.10) ? "ok" : "MISSED"
		}'
	done
	echo
	echo "targets: iops ratio >= 0.95 and CPU/IO ratio <= 1.10 (ok / MISSED per row)"
}

main "$@"
