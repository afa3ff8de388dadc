#!/bin/bash
# uring_compare.sh — the io_uring engine (through bench/uring_harness.c) side
# by side with fio, 8 KB random reads, O_DIRECT, on one 1 GiB file.
#
#   bench/uring_compare.sh [DIR] [SECONDS] [ROUNDS]
#
# DIR (default /tmp) holds the test file, which is removed at the end.  Each
# round runs every variant once, interleaved, so that drift of a shared
# virtual disk hits all of them alike; compare medians across rounds.
#
# Variants: plain (what the engine does), -F registered files, -B registered
# buffers, -F -B both, 0x100 IORING_SETUP_COOP_TASKRUN, 0x3000
# IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN, -E a refill
# submitted as one batch; and fio 3.33's io_uring engine with its defaults.
set -euo pipefail

dir=${1:-/tmp}
secs=${2:-5}
rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
pgincl=$(/usr/lib/postgresql/15/bin/pg_config --includedir-server)
pglib=$(/usr/lib/postgresql/15/bin/pg_config --pkglibdir)
bin=$(mktemp -d)
file="$dir/iobench_uring_compare.$$"
trap 'rm -rf "$bin" "$file".0' EXIT

gcc -O2 -Wall -Wmissing-prototypes -I"$pgincl" -I"$here/../src" \
	-o "$bin/uring_harness" "$here/uring_harness.c" \
	-L"$pglib" -L/usr/lib/postgresql/15/lib -lpgport -lpgcommon -luring

# create and fill the file once (the harness stamps each block)
"$bin/uring_harness" -f "$file" -S 1024 -d 1 -t 0.1 > /dev/null

harness() {		# label depth args...
	local label=$1 depth=$2
	shift 2
	"$bin/uring_harness" -f "$file" -S 1024 -m randread -d "$depth" -t "$secs" "$@" |
		awk -v l="$label" -v d="$depth" '
			/^ops=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
			/^  read/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
			/^errors=/ { split($1, kv, "="); err = kv[2] }
			END { printf "%-22s QD%-3d iops=%-7d p50=%-10s p99=%-10s cpu/op=%-8s errors=%s\n",
				l, d, v["iops"], v["p50"], v["p99"], v["cpu/op"], err }'
}

fio_run() {		# depth
	fio --name=x --ioengine=io_uring --rw=randread --bs=8k --direct=1 \
		--iodepth="$1" --size=1g --runtime="$secs" --time_based \
		--filename="$file.0" --lat_percentiles=1 --output-format=json |
		python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]; r = j["read"]; p = r["lat_ns"]["percentile"]
cpu_us = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["elapsed"] * 1e6
print("%-22s QD%-3d iops=%-7d p50=%-10s p99=%-10s cpu/op=%-8s" % ("fio io_uring", int(sys.argv[1]),
      r["iops"], "%.1fus" % (p["50.000000"] / 1e3), "%.1fus" % (p["99.000000"] / 1e3),
      "%.2fus" % (cpu_us / r["total_ios"])))' "$1"
}

fsync_mix() {		# label args...
	local label=$1
	shift
	"$bin/uring_harness" -f "$file" -S 1024 -m mix -d 16 -w 2 -t "$secs" "$@" |
		awk -v l="$label" '
			/^ops=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
			/^  (read|write|fsync)/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[$1 kv[1]] = kv[2] } }
			/^errors=/ { split($1, kv, "="); err = kv[2] }
			END { printf "%-22s QD16  iops=%-7d read p99=%-9s write p99=%-9s fsync p50=%-9s p99=%-9s errors=%s\n",
				l, v["iops"], v["readp99"], v["writep99"], v["fsyncp50"], v["fsyncp99"], err }'
}

for round in $(seq "$rounds"); do
	echo "== round $round"
	for qd in 1 32; do
		harness "engine" "$qd"
		fio_run "$qd"
		harness "engine -F (reg files)" "$qd" -F
		harness "engine -B (reg bufs)" "$qd" -B
		harness "engine -F -B" "$qd" -F -B
		harness "engine COOP_TASKRUN" "$qd" -x 100
		harness "engine DEFER_TASKRUN" "$qd" -x 3000
		harness "engine -E (one batch)" "$qd" -E
	done
	# half writes, an fsync after every 2nd write to a file: hold vs drain
	fsync_mix "mix fsync held back"
	fsync_mix "mix IOSQE_IO_DRAIN" -D
done
