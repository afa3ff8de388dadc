#!/usr/bin/env bash
# latency_disk.sh — a test disk that knows its answer: every read takes a
# fixed latency L and at most K reads are served at once, so a read path
# keeping N reads in flight gets min(N, K) / L reads per second (Little's
# law).  Made of three layers, all torn down again by "stop":
#   DIR/fuse   tools/latency_disk/latency_disk.c, a FUSE file system serving
#              one file, "disk", from memory: each read sleeps L under K
#              slots (simulated in virtual time), writes are immediate;
#              its "control" file shows and sets K and L
#   a loop device over DIR/fuse/disk with direct I/O on (losetup
#              --direct-io=on: the loop driver's reads reach FUSE
#              asynchronously, so many are in flight; without it the loop
#              driver reads one at a time)
#   DIR/mnt    ext4 on the loop device: a real block device, so
#              /proc/diskstats counts its reads and the page cache,
#              posix_fadvise and O_DIRECT behave as on a disk
#
#   tools/latency_disk.sh start DIR [--slots K] [--latency-us L] [--size BYTES] [--owner USER]
#       make the rig under DIR (made if missing); prints DEV=, MNT=,
#       CONTROL= lines (shell assignments); K 8, L 20000 us, 1 GiB by default;
#       USER owns DIR/mnt and may write the control file
#   tools/latency_disk.sh stop DIR
#       unmount, detach and stop everything start made (safe to repeat)
#   tools/latency_disk.sh check DIR [K...]
#       the rig's self-check with fio: 8 kB random direct reads at iodepth
#       1, K/2, K and 4K for each K (default: the K in effect), IOPS
#       against min(N, K) / L (within 5 %) and the loop device's reads in
#       /proc/diskstats against fio's
#
# Needs root (mount, losetup), /dev/fuse and libfuse3 (Debian: fuse3,
# libfuse3-dev); check needs fio.  The daemon is built into DIR/bin.
# start leaves nothing behind when a step fails.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Print a progress line on stderr (stdout carries start's assignments).
say() { echo "latency_disk: $*" >&2; }

# Print an error and exit.
die() { echo "latency_disk: ERROR: $*" >&2; exit 1; }

# Print the value of key $2 of the control file $1.
control_value() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# Build the daemon into $1/bin/latency_disk.
build_daemon() {
	local dir=$1 flags
	mkdir -p "$dir/bin"
	flags=$(pkg-config --cflags --libs fuse3 2>/dev/null) || flags="-I/usr/include/fuse3 -lfuse3 -lpthread"
	# shellcheck disable=SC2086 # the flags are words
	${CC:-cc} -O2 -Wall -o "$dir/bin/latency_disk" "$SRC/tools/latency_disk/latency_disk.c" $flags -lpthread ||
		die "could not build tools/latency_disk/latency_disk.c (Debian: apt-get install libfuse3-dev)"
}

# "start": see the top of the file.
cmd_start() {
	local dir=$1 slots=8 latency=20000 size=$((1024 * 1024 * 1024)) owner=root uid gid dev
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--slots) slots=$2; shift 2 ;;
		--latency-us) latency=$2; shift 2 ;;
		--size) size=$2; shift 2 ;;
		--owner) owner=$2; shift 2 ;;
		*) die "start: unknown argument \"$1\"" ;;
		esac
	done
	[ "$(id -u)" -eq 0 ] || die "needs root (mount, losetup)"
	[ -c /dev/fuse ] || die "no /dev/fuse: FUSE is not available here"
	[ -e /dev/loop-control ] || die "no /dev/loop-control: loop devices are not available here"
	uid=$(id -u "$owner") || die "no user \"$owner\""
	gid=$(id -g "$owner")
	mkdir -p "$dir/fuse" "$dir/mnt"
	[ ! -s "$dir/state" ] || die "$dir already holds a rig (stop it first)"
	# from here on, a failure removes what was made
	trap 'say "start failed: removing what was made"; cmd_stop "$dir"' EXIT
	build_daemon "$dir"
	"$dir/bin/latency_disk" "$dir/fuse" --size "$size" --slots "$slots" --latency-us "$latency" \
		--owner "$uid:$gid"
	mountpoint -q "$dir/fuse"
	echo "PID=$(pgrep -x -f "$dir/bin/latency_disk $dir/fuse .*")" >"$dir/state"
	dev=$(losetup -f --show --direct-io=on "$dir/fuse/disk")
	echo "DEV=$dev" >>"$dir/state"
	# the loop driver reads the file with direct I/O, asynchronously: else
	# it reads one request at a time and K means nothing
	[ "$(cat "/sys/block/${dev#/dev/}/loop/dio")" = 1 ] ||
		{ say "the loop device refused direct I/O on the FUSE file"; false; }
	# a device of K parallel slots is no spinning disk
	echo 0 >"/sys/block/${dev#/dev/}/queue/rotational" 2>/dev/null || true
	# mkfs writes (no latency) and leaves no lazy initialisation behind
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$dev"
	mount -o noatime "$dev" "$dir/mnt"
	echo "MNT=$dir/mnt" >>"$dir/state"
	chown "$uid:$gid" "$dir/mnt"
	# the counters start at the rig's first use
	echo reset >"$dir/fuse/control"
	trap - EXIT
	say "started: ext4 on $dev at $dir/mnt, K = $slots, L = $latency us, $size bytes"
	echo "DEV=$dev"
	echo "MNT=$dir/mnt"
	echo "CONTROL=$dir/fuse/control"
}

# "stop": see the top of the file.  Every step is tried; a mount still in
# use is detached lazily.
cmd_stop() {
	local dir=$1 dev pid
	dev=$(sed -n 's/^DEV=//p' "$dir/state" 2>/dev/null || true)
	pid=$(sed -n 's/^PID=//p' "$dir/state" 2>/dev/null || true)
	if mountpoint -q "$dir/mnt" 2>/dev/null; then
		umount "$dir/mnt" 2>/dev/null || umount -l "$dir/mnt" || say "could not unmount $dir/mnt"
	fi
	if [ -n "$dev" ] && losetup "$dev" >/dev/null 2>&1; then
		losetup -d "$dev" || say "could not detach $dev"
	fi
	if mountpoint -q "$dir/fuse" 2>/dev/null; then
		umount "$dir/fuse" 2>/dev/null || umount -l "$dir/fuse" || say "could not unmount $dir/fuse"
		# the daemon ends with its mount (up to 5 s)
		for _ in $(seq 50); do
			if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
			sleep 0.1
		done
	fi
	rm -f "$dir/state"
	rmdir "$dir/mnt" "$dir/fuse" 2>/dev/null || true
	rm -rf "${dir:?}/bin"
}

# Print the loop device's completed reads (/proc/diskstats field 4).
device_reads() { awk -v d="$1" '$3 == d { print $4 }' /proc/diskstats; }

# "check": see the top of the file.
cmd_check() {
	local dir=$1 control dev k ks latency n r0 r1 out iops want bad=0 file
	shift
	command -v fio >/dev/null || die "check needs fio (apt-get install fio)"
	control=$dir/fuse/control
	[ -f "$control" ] || die "no rig under $dir"
	dev=$(sed -n 's/^DEV=//p' "$dir/state")
	dev=${dev#/dev/}
	latency=$(control_value "$control" latency_us)
	ks=("$@")
	[ "${#ks[@]}" -gt 0 ] || ks=("$(control_value "$control" slots)")
	file=$dir/mnt/latency-check.dat
	fio --name=fill --filename="$file" --size=256M --rw=write --bs=1M --direct=1 \
		--ioengine=psync --output=/dev/null
	printf '%-6s %-8s %10s %10s %8s %12s %12s\n' K iodepth IOPS 'min(N,K)/L' ratio 'fio reads' 'dev reads'
	for k in "${ks[@]}"; do
		echo "slots=$k" >"$control"
		for n in 1 $((k / 2 > 0 ? k / 2 : 1)) "$k" $((4 * k)); do
			r0=$(device_reads "$dev")
			out=$(fio --name=check --filename="$file" --size=256M --rw=randread --bs=8k --direct=1 \
				--ioengine=libaio --iodepth="$n" --runtime=3 --time_based --norandommap \
				--output-format=terse --terse-version=3)
			r1=$(device_reads "$dev")
			# terse v3: field 8 read IOPS, field 6 read kB (total ios = field 6 / 8)
			iops=$(cut -d';' -f8 <<<"$out")
			want=$(awk -v n="$n" -v k="$k" -v l="$latency" 'BEGIN { printf "%.1f", (n < k ? n : k) * 1e6 / l }')
			printf '%-6s %-8s %10s %10s %8s %12s %12s\n' "$k" "$n" "$iops" "$want" \
				"$(awk -v a="$iops" -v b="$want" 'BEGIN { printf "%.3f", a / b }')" \
				"$(($(cut -d';' -f6 <<<"$out") / 8))" "$((r1 - r0))"
			awk -v a="$iops" -v b="$want" 'BEGIN { exit !(a >= 0.95 * b && a <= 1.05 * b) }' || bad=1
		done
	done
	rm -f "$file"
	[ "$bad" -eq 0 ] || die "IOPS off min(N, K) / L by more than 5 %"
	say "every IOPS within 5 % of min(N, K) / L"
}

main() {
	[ $# -ge 2 ] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2; exit 2; }
	local cmd=$1 dir=$2
	shift 2
	case $cmd in
	start) cmd_start "$dir" "$@" ;;
	stop) cmd_stop "$dir" ;;
	check) cmd_check "$dir" "$@" ;;
	*) die "unknown command \"$cmd\" (start, stop, check)" ;;
	esac
}

main "$@"
