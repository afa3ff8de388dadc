# shellcheck shell=bash
# waits_common.sh — shared by the wait-statistics benchmarks (source it).
#
# waits_private_install   copy PostgreSQL (PG_CONFIG) into a private tree and install
#                         this checkout's iobench there (nothing touches the
#                         system's PostgreSQL); sets INST and CLUSTER_PGBIN
# waits_restart CONF...   rewrite the bench's settings file with CONF lines
#                         and restart the cluster (tools/cluster.sh)
# waits_proc_cpu_ns PID   on-CPU time of a process in ns (schedstat field 1)
# waits_proc_ticks PID    utime + stime of a process in clock ticks (stat)
#
# The cluster comes from tools/cluster.sh (throwaway, private socket, free
# port, run as "postgres" when we are root, stopped on exit).

INST=

. "$SRC/tools/cluster.sh"
# shellcheck source=../tools/private_install.sh
. "$SRC/tools/private_install.sh"

# Stop the cluster and remove the private tree (EXIT trap).
waits_cleanup() {
	cluster_stop
	[ -n "$INST" ] && rm -rf "$INST"
	INST=
}

# Build iobench and install it into a private copy of the PostgreSQL PG_CONFIG names.
waits_private_install() {
	"$SRC/tools/deps.sh"
	make -C "$SRC" -s -j2
	INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-bench-inst.XXXXXX")
	private_install_tree "$SRC" "$INST"
	chmod -R a+rX "$INST"
	CLUSTER_PGBIN=$INST$PG_BIN
	export CLUSTER_PGBIN
}

# Replace the bench's own settings and restart the cluster.
waits_restart() {
	local line
	{
		for line in "$@"; do echo "$line"; done
	} | cluster_as_owner tee "$CLUSTER_DATA/bench.conf" >/dev/null
	if ! grep -q "^include_if_exists = 'bench.conf'" "$CLUSTER_DATA/postgresql.conf"; then
		echo "include_if_exists = 'bench.conf'" |
			cluster_as_owner tee -a "$CLUSTER_DATA/postgresql.conf" >/dev/null
	fi
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
		-l "$CLUSTER_DIR/server.log" -m fast -w restart >/dev/null) ||
		{ tail -n 30 "$CLUSTER_DIR/server.log" >&2; return 1; }
}

# On-CPU nanoseconds of a process (first field of /proc/PID/schedstat).
waits_proc_cpu_ns() {
	awk '{ print $1 }' "/proc/$1/schedstat"
}

# utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat).
waits_proc_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# One line on how busy the machine is besides us (Linux PSI, last 60 s):
# figures from a shared machine are only comparable within one quiet run.
waits_pressure() {
	local cpu io
	cpu=$(awk '/^some/ { sub("avg60=", "", $3); print $3 }' /proc/pressure/cpu 2>/dev/null || true)
	io=$(awk '/^some/ { sub("avg60=", "", $3); print $3 }' /proc/pressure/io 2>/dev/null || true)
	echo "machine pressure (PSI some avg60): cpu ${cpu:-?} %, io ${io:-?} %"
}
