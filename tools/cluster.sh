#!/usr/bin/env bash
# cluster.sh — a throwaway PostgreSQL cluster, for scripts to source.
#
#   . tools/cluster.sh
#   cluster_start [postgresql.conf lines...]   # initdb + start; sets CLUSTER_* vars
#   cluster_psql -c "SELECT 1"                  # psql as the cluster's owner
#   cluster_stop                                # stop and remove (also on EXIT)
#
# The cluster lives in a temporary directory under $IOBENCH_TMPDIR (default
# /var/tmp: disk-backed, so benchmark files land on a real disk), listens on
# a private Unix socket only, and runs as "postgres" when we are root
# (initdb refuses root).  It uses the binaries of the PostgreSQL that
# PG_CONFIG names (tools/pg_dirs.sh; default: Debian's 15), or those in
# CLUSTER_PGBIN, so iobench must be installed there (make install).  An EXIT trap stops and
# removes the cluster even after an error or Ctrl-C, and shows the end of the
# server log after an error; with CLUSTER_KEEP=1 a cluster whose script
# succeeded keeps running and cluster_keep_hints says how to reach it.

# shellcheck source=pg_dirs.sh
. "$(dirname "${BASH_SOURCE[0]}")/pg_dirs.sh"
# Empty when that pg_config is not installed yet: cluster_start asks again.
CLUSTER_PGBIN=${CLUSTER_PGBIN:-$(pg_dirs 2>/dev/null && echo "$PG_BIN")}
CLUSTER_DIR=
CLUSTER_DATA=
CLUSTER_SOCK=
CLUSTER_PORT=

# Run a command as the cluster's owner: "postgres" when we are root, else us.
cluster_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Print a TCP port of 127.0.0.1 that nobody listens on (the socket name carries it).
cluster_free_port() {
	local port
	for port in $(seq 54330 54530); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null &&
			! ls /tmp/.s.PGSQL."$port" >/dev/null 2>&1; then
			echo "$port"
			return 0
		fi
	done
	echo "cluster.sh: no free port in 54330-54530" >&2
	return 1
}

# Create and start the cluster; extra arguments are postgresql.conf lines.
cluster_start() {
	if [ -z "$CLUSTER_PGBIN" ]; then
		pg_dirs || return 1
		CLUSTER_PGBIN=$PG_BIN
	fi
	CLUSTER_DIR=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-cluster.XXXXXX")
	CLUSTER_DATA=$CLUSTER_DIR/data
	CLUSTER_SOCK=$CLUSTER_DIR/socket
	mkdir "$CLUSTER_SOCK"
	if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$CLUSTER_DIR"; fi
	CLUSTER_PORT=$(cluster_free_port)
	trap cluster_on_exit EXIT
	trap 'exit 130' INT TERM

	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/initdb" -D "$CLUSTER_DATA" \
		-A trust -U postgres --no-sync >"$CLUSTER_DIR/initdb.log" 2>&1) ||
		{ cat "$CLUSTER_DIR/initdb.log" >&2; return 1; }
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$CLUSTER_SOCK'"
		echo "port = $CLUSTER_PORT"
		echo "max_worker_processes = 32"
		local line
		for line in "$@"; do echo "$line"; done
	} | cluster_as_owner tee -a "$CLUSTER_DATA/postgresql.conf" >/dev/null
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
		-l "$CLUSTER_DIR/server.log" -w start >/dev/null) ||
		{ tail -n 30 "$CLUSTER_DIR/server.log" >&2; return 1; }
}

# psql into the cluster's "postgres" database as its superuser.
cluster_psql() {
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/psql" -X -q -v ON_ERROR_STOP=1 \
		-h "$CLUSTER_SOCK" -p "$CLUSTER_PORT" -U postgres -d postgres "$@")
}

# Print how to connect to the cluster and how to stop and remove it.
cluster_keep_hints() {
	local as=
	if [ "$(id -u)" -eq 0 ]; then as="runuser -u postgres -- "; fi
	cat <<EOF

The cluster keeps running.
  connect:  $as$CLUSTER_PGBIN/psql -h $CLUSTER_SOCK -p $CLUSTER_PORT -U postgres -d postgres
  stop it:  $as$CLUSTER_PGBIN/pg_ctl -D $CLUSTER_DATA stop && rm -rf $CLUSTER_DIR
EOF
}

# EXIT trap: keep the cluster (CLUSTER_KEEP=1 and success), or show the end
# of the server log after an error (not after Ctrl-C), then stop and remove it.
cluster_on_exit() {
	local rc=$?
	[ -n "$CLUSTER_DIR" ] && [ -d "$CLUSTER_DIR" ] || exit "$rc"
	if [ "${CLUSTER_KEEP:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
		cluster_keep_hints
		exit 0
	fi
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ -s "$CLUSTER_DIR/server.log" ]; then
		echo "---------------------------- server log ----------------------------"
		tail -n 40 "$CLUSTER_DIR/server.log"
		echo "--------------------------------------------------------------------"
	fi
	cluster_stop
	exit "$rc"
}

# Stop the cluster and remove its directory; safe to call twice.
cluster_stop() {
	[ -n "$CLUSTER_DIR" ] && [ -d "$CLUSTER_DIR" ] || return 0
	if [ -f "$CLUSTER_DATA/postmaster.pid" ]; then
		(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
			-m fast -w stop >/dev/null 2>&1) || true
	fi
	rm -rf "$CLUSTER_DIR"
	CLUSTER_DIR=
}
