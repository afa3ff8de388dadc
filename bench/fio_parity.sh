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
# as part of its write).  Targets: iobench/fio IOPS >= 0.98, CPU per I/O
# at most fio's.  The last columns give the mean size of the device's reads
# during each tool's run: a 1 MB read split by the device driver shows there.
#
# CPU is counted the same way for both tools: every thread of fio's job
# processes and of iobench's worker processes, including the io_uring
# worker threads (io-wq, "iou-wrk-N") that the kernel starts in a process to
# run what a ring cannot issue without blocking, such as fsync.  iobench's
# own figure (getrusage RUSAGE_SELF) covers them; fio's (RUSAGE_THREAD, its
# usr_cpu/sys_cpu) leaves them out.  So fio's figure is scaled by the share
# of its jobs' io-wq threads in their CPU time, read from
# /proc/PID/task/*/schedstat between 1/5 of the run and 0.5 s before its end
# (the same reading is taken of iobench's workers).  A second table gives
# both tools counted fio's way, each job's or worker's own thread only, and
# the io-wq share of each.
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
# to install fio/jq when missing.  iobench is built and installed into a
# private copy of the PostgreSQL that PG_CONFIG names (default: Debian's 15;
# tools/private_install.sh), so the run cannot pick up another checkout's
# build and leaves the system's PostgreSQL alone.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_EACH=${BENCH_SECONDS:-10}
FILE_SIZE=${BENCH_FILE_SIZE:-1GB}	# iobench spelling; fio gets the same bytes
ONLY=${BENCH_ONLY:-}
ROUNDS=${BENCH_ROUNDS:-3}

# Workloads: name | fio options | iobench arguments | op kind compared.
# Names starting with "ram " run on a RAM-backed block device
# (bench/ramdev.sh), where the CPU and not the disk is the limit.  fio's I/O
# memory is on 2 MB huge pages, as iobench's is (see below), except where its
# options say DEFAULTMEM: those rows keep fio's default buffers, to show what
# the memory alone is worth.
WORKLOADS=(
	"8k randread QD1 psync|--rw=randread --bs=8k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'psync'|read"
	"8k randwrite+fsync QD1 psync|--rw=randwrite --bs=8k --ioengine=psync --iodepth=1 --numjobs=1 --fsync=1|rw => 'randwrite', block_size => '8kB', engine => 'psync', fsync_every => 1|write"
	"64k seq read QD1 psync, fio default mem|--rw=read --bs=64k --ioengine=psync --iodepth=1 --numjobs=1 DEFAULTMEM|rw => 'read', block_size => '64kB', engine => 'psync'|read"
	"64k seq read QD1 psync|--rw=read --bs=64k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'read', block_size => '64kB', engine => 'psync'|read"
	"8k randread QD32 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32|read"
	"8k randread 4x QD8 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=8 --numjobs=4|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 8, workers => 4|read"
	"1M seq read QD8, fio default mem|--rw=read --bs=1m --ioengine=io_uring --iodepth=8 --numjobs=1 DEFAULTMEM|rw => 'read', block_size => '1MB', engine => 'io_uring', iodepth => 8|read"
	"1M seq read QD8 io_uring|--rw=read --bs=1m --ioengine=io_uring --iodepth=8 --numjobs=1|rw => 'read', block_size => '1MB', engine => 'io_uring', iodepth => 8|read"
	"8k 90/10 rw+fsync 10x io_uring|IOLOG 10 90|rw => 'randrw', read_pct => 90, block_size => '8kB', engine => 'io_uring', fsync_every => 1, workers => 10|read+write"
	"ram 8k randread QD1 psync|--rw=randread --bs=8k --ioengine=psync --iodepth=1 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'psync'|read"
	"ram 8k randread QD32 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=1|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32|read"
	"ram 8k randread 2x QD32 io_uring|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=2|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32, workers => 2|read"
	"ram 8k randread QD32, fio peak|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=1 PEAK|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32|read"
	"ram 8k randread 2x QD32, fio peak|--rw=randread --bs=8k --ioengine=io_uring --iodepth=32 --numjobs=2 PEAK|rw => 'randread', block_size => '8kB', engine => 'io_uring', iodepth => 32, workers => 2|read"
)

. "$SRC/tools/cluster.sh"
# shellcheck source=../tools/private_install.sh
. "$SRC/tools/private_install.sh"
. "$SRC/bench/ramdev.sh"

# fio's fastest io_uring set-up on the RAM device: registered files and
# buffers, non-vectored reads (t/io_uring's peak-IOPS options).  Polled
# completions (--hipri) need a device with poll queues; zram and brd have
# none (fio fails with EOPNOTSUPP), so they are left out.
FIO_PEAK="--registerfiles=1 --fixedbufs=1 --nonvectored=1"

# Huge pages for fio's I/O memory.  iobench's buffers are on a 2 MB
# transparent huge page, so every request is one physical segment; fio's
# default buffers are 4 kB pages, so a request of more than 4 kB is several
# segments (a 64 kB read 16, where the device or its host handles each one),
# and virtio-blk, which takes at most 254 segments per request, splits each
# 1 MB read.  fio cannot ask for transparent huge pages (--iomem_align=2m
# alone leaves its requests split), so it gets hugetlbfs pages:
# --iomem=mmaphuge on a mount made here, one file that the jobs of a row
# share (each maps it from its start; the data read or written is not
# looked at, so sharing changes nothing but the memory used).
HUGE_DIR=
HUGE_PAGES_BEFORE=
huge_setup() {
	# 16 pages more than the pool holds now: pages in use can be counted
	# in HugePages_Total and not in nr_hugepages (left over from a smaller
	# setting), so adding to nr_hugepages alone may add no free page
	HUGE_PAGES_BEFORE=$(cat /proc/sys/vm/nr_hugepages)
	as_root sh -c "echo $(($(awk '/^HugePages_Total/ { print $2 }' /proc/meminfo) + 16)) > /proc/sys/vm/nr_hugepages"
	HUGE_DIR=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-huge.XXXXXX")
	# min_size reserves the pages for this mount: a server started meanwhile
	# with huge_pages = try (other clusters on the machine) cannot take them,
	# which left fio's 1 MB reads failing with "Bad address".  Without 16
	# free 2 MB pages (fragmented memory, or taken already) the mount is
	# made without the reservation.
	if ! as_root mount -t hugetlbfs -o pagesize=2M,min_size=32M,mode=1777 none "$HUGE_DIR" 2>/dev/null; then
		echo "fio_parity: warning: could not reserve 16 huge pages; fio's runs on huge pages may fail" >&2
		as_root mount -t hugetlbfs -o pagesize=2M,mode=1777 none "$HUGE_DIR"
	fi
}
huge_cleanup() {
	if [ -n "$HUGE_DIR" ]; then
		as_root umount "$HUGE_DIR" 2>/dev/null || true
		rmdir "$HUGE_DIR" 2>/dev/null || true
		as_root sh -c "echo $HUGE_PAGES_BEFORE > /proc/sys/vm/nr_hugepages"
	fi
	HUGE_DIR=
}

# Device reads completed and sectors read (/sys/block/DEV/stat fields 1, 3)
dev_reads() { awk '{ print $1, $3 }' "/sys/block/$1/stat"; }

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Install fio and jq if missing, build iobench and install it into a
# private copy of PostgreSQL (INST, removed on exit).
INST=
prepare() {
	"$SRC/tools/deps.sh"
	if ! command -v fio >/dev/null || ! command -v jq >/dev/null; then
		as_root apt-get install -y -qq fio jq >/dev/null
	fi
	pg_dirs
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG"
	INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-bench-inst.XXXXXX")
	private_install_tree "$SRC" "$INST"
	chmod -R a+rX "$INST"
	CLUSTER_PGBIN=$INST$PG_BIN
}

# Summarise fio's JSON for op kind "read", "write" or "read+write";
# prints "iops p50_us p99_us cpu_us_per_io" (fio's own CPU figure: its job
# threads, without their io-wq threads).
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

# Where fio's replay logs go: /dev/shm when it is a tmpfs, else the
# cluster's directory.
iolog_parent() {
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
		echo /dev/shm
	else
		echo "$CLUSTER_DIR"
	fi
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
# allocated at its full size first (posix_fallocate), then filled with
# random data in 1 MB writes, synced, evicted from the page cache.  How a
# file was last written changes what a virtual disk's host cache holds;
# fio's own layout left files that read up to 30 % faster at 1 MB than the
# same bytes written and synced like iobench's (and twice as fast when read
# a second time).
make_file_like_iobench() {
	local file=$1 mib
	mib=$(( $(numfmt --from=iec "${FILE_SIZE%B}") / 1048576 ))
	rm -f "$file"
	cluster_as_owner fallocate -l "$((mib * 1048576))" "$file"
	cluster_as_owner dd if=/dev/urandom of="$file" bs=1M count="$mib" conv=notrunc,fsync status=none
	cluster_as_owner dd if="$file" iflag=nocache count=0 status=none
}

# On-CPU nanoseconds (schedstat field 1) of the threads of the given
# processes, summed; prints "main others": the processes' main threads, and
# their other threads (the io_uring io-wq workers; neither tool starts threads
# of its own in a job or worker process).  Shell builtins only, so that a
# reading takes little time on a busy machine.
threads_ns() {
	local p t ns main=0 others=0
	for p in "$@"; do
		for t in /proc/"$p"/task/*; do
			{ read -r ns _ <"$t/schedstat"; } 2>/dev/null || continue
			if [ "${t##*/}" = "$p" ]; then main=$((main + ns)); else others=$((others + ns)); fi
		done
	done
	echo "$main $others"
}

# fio's job processes below PID: fio processes whose parent is a fio process
# below PID.
fio_job_pids() {
	ps -e -o pid=,ppid=,comm= | awk -v top="$1" '
		{ parent[$1] = $2; comm[$1] = $3 }
		END {
			for (p in parent) {
				if (comm[p] != "fio" || comm[parent[p]] != "fio")
					continue
				for (q = parent[p]; q in parent && q != top; q = parent[q])
					;
				if (q == top)
					print p
			}
		}'
}

# This cluster's iobench worker processes (the argument is not used).
iobench_worker_pids() {
	local p title
	for p in $(pgrep -P "$(head -1 "$CLUSTER_DATA/postmaster.pid")"); do
		{ read -r -d '' title <"/proc/$p/cmdline"; } 2>/dev/null
		[[ ${title:-} != "postgres: iobench worker"* ]] || echo "$p"
	done
	return 0
}

# Sleep until EPOCHREALTIME reaches the given time in seconds.
sleep_until_time() {
	local left
	left=$(awk -v t="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.3f", (t > now ? t - now : 0) }')
	sleep "$left"
}

# While a tool runs in the background (PID): wait for its first I/O process
# (FINDER PID prints them), then read the threads' CPU of all of them at 1/5
# of the run and 0.5 s before its end, both times counted from that first
# process; prints "main_ns others_ns" between the two, or "0 0" when the run
# ended first.
sample_threads() {
	local finder=$1 pid=$2 procs="" t0 a b
	while kill -0 "$pid" 2>/dev/null; do
		procs=$($finder "$pid")
		[ -z "$procs" ] || break
		sleep 0.05
	done
	[ -n "$procs" ] || { echo "0 0"; return 0; }
	t0=$EPOCHREALTIME
	sleep_until_time "$(awk -v t="$t0" -v s="$SECONDS_EACH" 'BEGIN { printf "%.6f", t + (s / 5 > 0.5 ? s / 5 : 0.5) }')"
	procs=$($finder "$pid")		# all of them have started by now
	# shellcheck disable=SC2086
	a=$(threads_ns $procs)
	sleep_until_time "$(awk -v t="$t0" -v s="$SECONDS_EACH" 'BEGIN { printf "%.6f", t + (s - 0.5 > s / 5 + 0.2 ? s - 0.5 : s / 5 + 0.2) }')"
	# shellcheck disable=SC2086
	b=$(threads_ns $procs)
	echo "$a $b" | awk '$3 + $4 >= $1 + $2 { print $3 - $1, $4 - $2; next } { print 0, 0 }'
}

# Both ways of counting CPU from a tool's own figure OWN_CPU, which covers
# all threads (ALL=1) or the main threads only (ALL=0), and the threads'
# share in the sample: prints "cpu_all cpu_main others_pct".
cpu_both_ways() {
	awk -v c="$1" -v all="$2" -v m="$3" -v o="$4" 'BEGIN {
		if (m + o <= 0) { m = 1; o = 0 }
		if (all) printf "%s %s %.1f\n", c, c * m / (m + o), 100 * o / (m + o)
		else printf "%s %s %.1f\n", c * (m + o) / m, c, 100 * o / (m + o)
	}'
}

# Run fio for one workload; prints "iops p50_us p99_us cpu_us_per_io
# cpu_us_per_io_main_threads iowq_pct".
run_fio() {
	local opts=$1 op=$2 file=$3 out jobs read_pct logdir j jobargs=() bg threads figures mem
	make_file_like_iobench "$file"
	if [[ $opts == *DEFAULTMEM* ]]; then
		opts=${opts/DEFAULTMEM/}
		mem=()
	else
		mem=(--iomem=mmaphuge:"$HUGE_DIR/fio_parity.mem")
	fi
	opts=${opts/PEAK/$FIO_PEAK}
	out=$(mktemp)
	if [[ $opts == IOLOG* ]]; then
		read -r _ jobs read_pct <<<"$opts"
		# the logs (about 11 MB per job) go to memory where there is a
		# tmpfs: written to the disk under test, their writeback would
		# land in a later run of either tool
		logdir=$(cluster_as_owner mktemp -d -p "$(iolog_parent)")
		make_iologs "$jobs" "$read_pct" "$file" "$logdir"
		chown -R --reference="$CLUSTER_DIR" "$logdir"
		for j in $(seq 0 $((jobs - 1))); do
			jobargs+=(--name="parity$j" --read_iolog="$logdir/parity.$j.iolog")
		done
		(cd "$CLUSTER_DIR" && cluster_as_owner fio --direct=1 \
			--ioengine=io_uring --iodepth=1 --runtime="$SECONDS_EACH" \
			--group_reporting --lat_percentiles=1 --output-format=json "${mem[@]}" \
			"${jobargs[@]}" >"$out") &
	else
		# shellcheck disable=SC2086
		(cd "$CLUSTER_DIR" && cluster_as_owner fio --name=parity --filename="$file" \
			--size="$(numfmt --from=iec "${FILE_SIZE%B}")" --direct=1 --time_based \
			--runtime="$SECONDS_EACH" --group_reporting --lat_percentiles=1 \
			--randrepeat=0 --output-format=json "${mem[@]}" $opts >"$out") &
	fi
	bg=$!
	threads=$(sample_threads fio_job_pids "$bg")
	wait "$bg"
	[ -z "${logdir:-}" ] || rm -rf "$logdir"
	figures=$(fio_summary "$op" <"$out")
	rm -f "$out"
	# shellcheck disable=SC2086
	echo "${figures% *} $(cpu_both_ways "${figures##* }" 0 $threads)"
}

# Run iobench for one workload; prints "iops p50_us p99_us cpu_us_per_io
# cpu_us_per_io_main_threads iowq_pct".
run_iobench() {
	local args=$1 op=$2 first=${2%%+*} iops ops out bg threads figures
	iops="${op//+/_iops + }_iops"
	ops="${op//+/_ops + }_ops"
	out=$(mktemp)
	cluster_psql -At -F ' ' -c "SET iobench.progress = off" -c "
		SELECT $iops, ${first}_lat_p50_us, ${first}_lat_p99_us,
		       (cpu_user_pct + cpu_sys_pct) / 100 * measured_s / ($ops) * 1e6
		  FROM iobench.run($args, duration => '${SECONDS_EACH}s',
		                   file_size => '$FILE_SIZE', label => 'fio_parity')" >"$out" &
	bg=$!
	threads=$(sample_threads iobench_worker_pids "$bg")
	wait "$bg"
	figures=$(cat "$out")
	rm -f "$out"
	# shellcheck disable=SC2086
	echo "${figures% *} $(cpu_both_ways "${figures##* }" 1 $threads)"
}

# Run a tool (run_fio or run_iobench and its arguments) with the device's
# read counters around it; prints the tool's figures and the mean size of
# the device's reads in kB (what iostat calls rareq-sz), 0 without reads.
with_dev_reads() {
	local dev=$1 before after figures
	shift
	before=$(dev_reads "$dev")
	figures=$("$@")
	after=$(dev_reads "$dev")
	echo "$figures $(echo "$before $after" | awk '{ n = $3 - $1; printf "%.0f", (n > 0 ? ($4 - $2) * 512 / 1024 / n : 0) }')"
}

# On exit: the cluster (and its server log after an error), then the huge
# pages and the RAM device it used.
parity_exit() {
	local rc=$?
	if [ "$rc" -ne 0 ] && [ -n "$CLUSTER_DIR" ] && [ -s "$CLUSTER_DIR/server.log" ]; then
		tail -n 40 "$CLUSTER_DIR/server.log"
	fi
	cluster_stop
	huge_cleanup
	ramdev_cleanup
	[ -z "$INST" ] || rm -rf "$INST"
	exit "$rc"
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
	local w name fio_opts ib_args op f file dev disk_dev i rows=() ram=0

	prepare
	cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB"
	trap parity_exit EXIT
	cluster_psql -c "CREATE EXTENSION iobench"
	f=$CLUSTER_DATA/base/pgsql_tmp/fio_parity.0
	cluster_as_owner mkdir -p "$(dirname "$f")"
	disk_dev=$(basename "$(df --output=source "$CLUSTER_DATA" | tail -1)")
	for w in "${WORKLOADS[@]}"; do
		IFS='|' read -r name _ <<<"$w"
		[ -z "$ONLY" ] || [[ $name == *$ONLY* ]] || continue
		[[ $name == ram\ * ]] && ram=1
	done
	huge_setup
	if [ "$ram" = 1 ]; then
		# fio's file stays while iobench's is written: room for both, and
		# for ext4's journal and inode tables (an eighth more, plus 256 MB)
		local file_mb=$(($(numfmt --from=iec "${FILE_SIZE%B}") / 1048576))
		ramdev_setup $((file_mb * 2 + file_mb / 8 + 256))
		cluster_as_owner mkdir "$RAMDEV_DIR/ts"
		cluster_psql -c "CREATE TABLESPACE iob_ram LOCATION '$RAMDEV_DIR/ts'"
	fi

	echo "fio_parity: $(cluster_psql -At -c 'SELECT version()'), assertions $(cluster_psql -At -c 'SHOW debug_assertions')"
	echo "fio_parity: $(fio --version), iobench from $SRC, ${SECONDS_EACH}s per tool per workload, $FILE_SIZE file, direct I/O"
	echo "fio_parity: files in $(dirname "$f") on $(df --output=source,fstype "$CLUSTER_DATA" | tail -1)"
	[ "$ram" = 0 ] || echo "fio_parity: \"ram\" workloads on $RAMDEV ($RAMDEV_KIND, ext4); fio peak: $FIO_PEAK"
	echo "fio_parity: $ROUNDS rounds, tools taking turns to go first; medians over the rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for w in "${WORKLOADS[@]}"; do
		IFS='|' read -r name fio_opts ib_args op <<<"$w"
		[ -z "$ONLY" ] || [[ $name == *$ONLY* ]] || continue
		file=$f
		dev=$disk_dev
		if [[ $name == ram\ * ]]; then
			file=$RAMDEV_DIR/fio_parity.0
			dev=${RAMDEV#/dev/}
			ib_args="$ib_args, tablespace => 'iob_ram'"
		fi
		local fio_all=() ib_all=() r
		for r in $(seq 1 "$ROUNDS"); do
			echo "fio_parity: $name, round $r ..." >&2
			if [ $((r % 2)) -eq 1 ]; then
				fio_all+=("$(with_dev_reads "$dev" run_fio "$fio_opts" "$op" "$file")")
				ib_all+=("$(with_dev_reads "$dev" run_iobench "$ib_args" "$op")")
			else
				ib_all+=("$(with_dev_reads "$dev" run_iobench "$ib_args" "$op")")
				fio_all+=("$(with_dev_reads "$dev" run_fio "$fio_opts" "$op" "$file")")
			fi
		done
		for r in $(seq 0 $((ROUNDS - 1))); do
			echo "fio_parity: $name, round $((r + 1)): IOPS fio ${fio_all[r]%% *}, iobench ${ib_all[r]%% *}" >&2
		done
		rows+=("$name|$(medians "${fio_all[@]}")|$(medians "${ib_all[@]}")")
		rm -f "$file"
	done

	echo
	printf '%-34s %10s %10s %6s  %8s %8s  %8s %8s  %9s %9s %6s  %7s %7s\n' \
		workload "fio IOPS" "iob IOPS" ratio "fio p50" "iob p50" "fio p99" "iob p99" \
		"fio CPU/IO" "iob CPU/IO" ratio "fio rd" "iob rd"
	printf '%-34s %10s %10s %6s  %8s %8s  %8s %8s  %9s %9s %6s  %7s %7s\n' \
		"" "" "" "" "us" "us" "us" "us" "us" "us" "" "kB" "kB"
	for i in "${rows[@]}"; do
		IFS='|' read -r name fr ir <<<"$i"
		read -r fi_iops fi_p50 fi_p99 fi_cpu _ _ fi_rq <<<"$fr"
		read -r ib_iops ib_p50 ib_p99 ib_cpu _ _ ib_rq <<<"$ir"
		awk -v n="$name" -v fi="$fi_iops" -v ii="$ib_iops" -v f50="$fi_p50" -v i50="$ib_p50" \
			-v f99="$fi_p99" -v i99="$ib_p99" -v fc="$fi_cpu" -v ic="$ib_cpu" \
			-v frq="$fi_rq" -v irq="$ib_rq" 'BEGIN {
			if (fi + 0 == 0 || ii + 0 == 0 || fc + 0 == 0 || ic + 0 == 0) {
				printf "%-34s %10.0f %10.0f  FAILED: a tool did no I/O (its error is above)\n", n, fi, ii
				exit
			}
			printf "%-34s %10.0f %10.0f %6.3f  %8.1f %8.1f  %8.1f %8.1f  %9.2f %9.2f %6.3f  %7.0f %7.0f  %s\n",
				n, fi, ii, ii / fi, f50, i50, f99, i99, fc, ic, ic / fc, frq, irq,
				(ii / fi >= 0.98 && ic / fc <= 1.00) ? "ok" : "MISSED"
		}'
	done
	echo
	echo "CPU per I/O counted fio's way (each job's or worker's own thread, without io-wq threads):"
	printf '%-34s %9s %9s %6s  %9s %9s\n' workload "fio CPU/IO" "iob CPU/IO" ratio "fio io-wq" "iob io-wq"
	printf '%-34s %9s %9s %6s  %9s %9s\n' "" us us "" "% of CPU" "% of CPU"
	for i in "${rows[@]}"; do
		IFS='|' read -r name fr ir <<<"$i"
		read -r _ _ _ _ fi_own fi_wq _ <<<"$fr"
		read -r _ _ _ _ ib_own ib_wq _ <<<"$ir"
		awk -v n="$name" -v fc="$fi_own" -v ic="$ib_own" -v fw="$fi_wq" -v iw="$ib_wq" 'BEGIN {
			if (fc + 0 == 0 || ic + 0 == 0) {
				printf "%-34s  FAILED\n", n
				exit
			}
			printf "%-34s %9.2f %9.2f %6.3f  %9.1f %9.1f\n", n, fc, ic, ic / fc, fw, iw
		}'
	done
	echo
	echo "CPU/IO: user + system time of every thread of fio's jobs / iobench's workers, io_uring's io-wq threads included (see the header)"
	echo "rd: mean size of the device's reads during the tool's run (other processes' reads included)"
	echo "targets: iops ratio >= 0.98 and CPU/IO ratio <= 1.00 (ok / MISSED per row)"
	echo "fio_parity: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
}

main "$@"
