#!/usr/bin/env bash
# quickstart.sh — see iobench work in one command (what `make run` runs).
#
# Installs what is missing (tools/deps.sh), builds iobench, installs it into the
# system's PostgreSQL 15 (as root, or through sudo), then starts a throwaway
# cluster in a temporary directory — no TCP listener, a private Unix socket
# directory, iobench preloaded — creates the extension and runs a 5-second
# benchmark on pg_default.  The cluster is stopped and removed on exit, also
# after an error or Ctrl-C.  As root the cluster runs as the "postgres" user.
#
# Environment:
#   IOBENCH_KEEP=1         leave the cluster running; prints how to connect to it
#                          and how to stop and remove it
#   IOBENCH_TMPDIR=dir     parent of the cluster's directory (default /var/tmp,
#                          disk-backed: the benchmark files live in the cluster)
#   IOBENCH_DURATION=5s    duration of the benchmark
#   IOBENCH_FILE_SIZE=256MB  size of its test file
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PGBIN=/usr/lib/postgresql/15/bin
WORK=
DATA=
SOCK=
PORT=

# Print a progress line.
say() { echo "quickstart: $*"; }

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Run a command as the cluster's owner: "postgres" when we are root, else us.
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Print the prefix a user types to run a client as the cluster's owner.
as_pg_hint() {
	if [ "$(id -u)" -eq 0 ]; then echo "runuser -u postgres -- "; fi
}

# Print a TCP port of 127.0.0.1 nobody listens on (the cluster listens on a
# Unix socket only, but its name carries the port, and clients ask for it).
free_port() {
	local port
	for port in $(seq 54330 54430); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return 0
		fi
	done
	echo "quickstart: no free port in 54330-54430" >&2
	return 1
}

# Stop the cluster and remove its directory, unless IOBENCH_KEEP=1 (EXIT trap).
cleanup() {
	local rc=$?
	[ -n "$WORK" ] && [ -d "$WORK" ] || exit "$rc"
	if [ "${IOBENCH_KEEP:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
		print_keep_hints
		exit 0
	fi
	if [ -f "$DATA/postmaster.pid" ]; then
		say "stopping the cluster"
		(cd "$WORK" && as_pg "$PGBIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null) || true
	fi
	# The server log explains a failure; after Ctrl-C (130) it is only noise.
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ -s "$WORK/server.log" ]; then
		echo "---------------------------- server log ----------------------------"
		tail -n 40 "$WORK/server.log"
		echo "--------------------------------------------------------------------"
	fi
	rm -rf "$WORK"
	exit "$rc"
}

# Tell the user how to reach the kept cluster and how to get rid of it.
print_keep_hints() {
	cat <<EOF

The cluster keeps running (IOBENCH_KEEP=1).
  connect:  $(as_pg_hint)$PGBIN/psql -h $SOCK -p $PORT -U postgres -d postgres
  stop it:  $(as_pg_hint)$PGBIN/pg_ctl -D $DATA stop && rm -rf $WORK
EOF
}

# Build iobench as the invoking user and install it into PostgreSQL 15.
build_and_install() {
	say "building"
	make -C "$SRC" -s -j2
	say "installing into $("$PGBIN/pg_config" --pkglibdir)"
	as_root make -C "$SRC" -s install >/dev/null
}

# Create and start the throwaway cluster in $WORK.
start_cluster() {
	WORK=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-quickstart.XXXXXX")
	DATA=$WORK/data
	SOCK=$WORK/socket
	mkdir "$SOCK"
	if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$WORK"; fi
	PORT=$(free_port)
	cd "$WORK"

	say "creating a cluster in $DATA"
	as_pg "$PGBIN/initdb" -D "$DATA" -A trust -U postgres --no-sync >"$WORK/initdb.log" 2>&1 ||
		{ cat "$WORK/initdb.log"; return 1; }
	as_pg tee -a "$DATA/postgresql.conf" >/dev/null <<EOF

# quickstart.sh: private, throwaway, iobench preloaded
listen_addresses = ''
unix_socket_directories = '$SOCK'
port = $PORT
shared_preload_libraries = 'iobench'
max_worker_processes = 32
EOF
	say "starting it on socket $SOCK, port $PORT"
	as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$WORK/server.log" -w start >/dev/null
}

# Create the extension and run a short benchmark, shown one field a line.
run_benchmark() {
	local duration=${IOBENCH_DURATION:-5s} size=${IOBENCH_FILE_SIZE:-256MB}
	say "running iobench.run(duration => '$duration', file_size => '$size')"
	as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCK" -p "$PORT" -U postgres -d postgres \
		-v duration="$duration" -v size="$size" <<'EOF'
CREATE EXTENSION iobench;
\x on
SELECT * FROM iobench.run(duration => :'duration', file_size => :'size');
EOF
}

main() {
	"$SRC/tools/deps.sh"
	build_and_install
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	start_cluster
	run_benchmark
}

main "$@"
