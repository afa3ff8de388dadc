# shellcheck shell=bash
# ramdev.sh — a RAM-backed block device with an ext4 file system on it, for
# benchmarks where the CPU, not the disk, is the limit (source it; root).
#
#   ramdev_setup SIZE_MB   sets RAMDEV (the device) and RAMDEV_DIR (its mount
#                          point, owned by the cluster's owner)
#   ramdev_cleanup         unmounts it and gives the memory back
#
# Uses the first free zram device (zram0 with no disk size), adding one with
# /sys/class/zram-control when there is none free; otherwise brd (/dev/ram0)
# when the kernel has it.  zram compresses pages, but iobench's and fio's
# buffers are random, so every block is stored whole.  Direct I/O goes
# through the block layer as on a disk, without a device's latency.

RAMDEV=
RAMDEV_DIR=
RAMDEV_KIND=

# Find or add a free zram device; prints its name (zram0) or nothing.
ramdev_free_zram() {
	local d
	for d in /sys/block/zram*; do
		[ -e "$d/disksize" ] || continue
		if [ "$(cat "$d/disksize")" = 0 ]; then
			basename "$d"
			return 0
		fi
	done
	if [ -e /sys/class/zram-control/hot_add ]; then
		echo "zram$(cat /sys/class/zram-control/hot_add)"
	fi
}

# Create the device and mount an ext4 file system on it.
ramdev_setup() {
	local size_mb=$1 z owner=${2:-postgres}
	z=$(ramdev_free_zram)
	if [ -n "$z" ]; then
		echo "${size_mb}M" >"/sys/block/$z/disksize"
		RAMDEV=/dev/$z
		RAMDEV_KIND="zram ($(sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$z/comp_algorithm"))"
	elif [ -b /dev/ram0 ]; then
		RAMDEV=/dev/ram0
		RAMDEV_KIND=brd
	else
		echo "ramdev.sh: no zram or brd device in this kernel" >&2
		return 1
	fi
	# no blocks reserved for root: the size asked for is the room wanted
	mkfs.ext4 -q -F -m 0 -E lazy_itable_init=0,lazy_journal_init=0 "$RAMDEV"
	RAMDEV_DIR=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-ramdev.XXXXXX")
	mount "$RAMDEV" "$RAMDEV_DIR"
	chown "$owner": "$RAMDEV_DIR"
}

# Unmount and free the device (safe to call twice).
ramdev_cleanup() {
	if [ -n "$RAMDEV_DIR" ]; then
		umount "$RAMDEV_DIR" 2>/dev/null || true
		rmdir "$RAMDEV_DIR" 2>/dev/null || true
	fi
	if [ -n "$RAMDEV" ] && [[ $RAMDEV == /dev/zram* ]]; then
		echo 1 >"/sys/block/${RAMDEV#/dev/}/reset" 2>/dev/null || true
	fi
	RAMDEV=
	RAMDEV_DIR=
}
