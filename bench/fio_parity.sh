#!/usr/bin/env bash
# fio_parity.sh — the same workloads with fio and with iobench, on the same
# disk, in one run, side by side.
#
#   bench/fio_parity.sh                 all workloads, 10 s each per tool
#   BENCH_SECONDS=20 bench/fio_parity.sh
#   BENCH_ONLY=randread bench/fio_parity.sh   workloads whose name matches
#
# For each workload it prints IOPS of both tools and their ratio, p50 and p99
# latency of both (submission to completion: fio's "lat", iobench's latency),
# and CPU time per I/O of both (user + system time of fio's jobs / of
# iobench's workers, divided by the data I/Os completed; a write's fsync counts
# as part of its write).  Targets: iobench/fio IOPS >= 0.95, CPU per I/O
# within 10 % of fio's.
#
# Both tools use files of the same size in the same directory (the
# throwaway cluster's pg_default temporary-file directory, under
# $IOBENCH_TMPDIR, default /var/tmp), with direct I/O.  Needs root or sudo
# to install fio/jq and iobench when missing.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_EACH=${BENCH_SECONDS:-10}
FILE_SIZE=${BENCH_FILE_SIZE:-1GB}	# iobench spelling; fio gets the same bytes
ONLY=${BENCH_ONLY:-}

# Workloads: name | fio options | iobench arguments | op kind compared
WORKLOADS=(
	"8k randread QD1 psync|--rw=randread --bs=8k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'psync'|read"
	"8k randwrite+fsync QD1 psync|--rw=randwrite --bs=8k --ioengine=psync --iodepth=1 --numjobs=1 --fsync=1|rw => 'randwrite', block_size => '8kB', engine => 'psync', fsync_every => 1|write"
	"64k seq read QD1 psync|--rw=read --bs=64k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'read', block_size => '64kB', engine => 'psync'|read"
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
	make -C "$SRC" -s -j2
	as_root make -C "$SRC" -s install >/dev/null
}

# Run fio for one workload; prints "iops p50_us p99_us cpu_us_per_io".
run_fio() {
	local opts=$1 op=$2 file=$3 json
	json=$(cd "$CLUSTER_DIR" && cluster_as_owner fio --name=parity --filename="$file" \
		--size="$(numfmt --from=iec "${FILE_SIZE%B}")" --direct=1 --time_based \
		--runtime="$SECONDS_EACH" --group_reporting --lat_percentiles=1 \
		--randrepeat=0 --output-format=json $opts)
	jq -r --arg op "$op" '.jobs[0] as $j | $j[$op] as $o |
		[$o.iops,
		 ($o.lat_ns.percentile["50.000000"] / 1000),
		 ($o.lat_ns.percentile["99.000000"] / 1000),
		 (($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000 / $o.total_ios * 1e6)]
		| map(tostring) | join(" ")' <<<"$json"
}

# Run iobench for one workload; prints "iops p50_us p99_us cpu_us_per_io".
run_iobench() {
	local args=$1 op=$2
	cluster_psql -At -F ' ' -c "SET iobench.progress = off" -c "
		SELECT ${op}_iops, ${op}_lat_p50_us, ${op}_lat_p99_us,
		       (cpu_user_pct + cpu_sys_pct) / 100 * measured_s / ${op}_ops * 1e6
		  FROM iobench.run($args, duration => '${SECONDS_EACH}s',
		                   file_size => '$FILE_SIZE', label => 'fio_parity')"
}

main() {
	local w name fio_opts ib_args op f i rows=()

	prepare
	cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB"
	cluster_psql -c "CREATE EXTENSION iobench"
	f=$CLUSTER_DATA/base/pgsql_tmp/fio_parity.0
	cluster_as_owner mkdir -p "$(dirname "$f")"

	echo "fio_parity: $(fio --version), iobench from $SRC, ${SECONDS_EACH}s per tool per workload, $FILE_SIZE file, direct I/O"
	echo "fio_parity: files in $(dirname "$f") on $(df --output=source,fstype "$CLUSTER_DATA" | tail -1)"
	for w in "${WORKLOADS[@]}"; do
		IFS='|' read -r name fio_opts ib_args op <<<"$w"
		[ -z "$ONLY" ] || [[ $name == *$ONLY* ]] || continue
		echo "fio_parity: $name ..." >&2
		read -r -a fio_r <<<"$(run_fio "$fio_opts" "$op" "$f")"
		read -r -a ib_r <<<"$(run_iobench "$ib_args" "$op")"
		rows+=("$name|${fio_r[*]}|${ib_r[*]}")
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
