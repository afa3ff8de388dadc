#!/usr/bin/env bash
# quickstart.sh — see iobench work in one command (what `make run` runs).
#
# Installs what is missing (tools/deps.sh), builds iobench, installs it into the
# PostgreSQL that PG_CONFIG names (default: Debian's 15; as root, or through sudo), then starts a throwaway
# cluster (tools/cluster.sh: a temporary directory, no TCP listener, a private
# Unix socket directory, iobench preloaded), creates the extension, runs a
# 5-second benchmark on pg_default and prints its iobench.report().  The cluster is stopped and removed on exit,
# also after an error or Ctrl-C.  As root the cluster runs as the "postgres" user.
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
# shellcheck source=cluster.sh
. "$SRC/tools/cluster.sh"

# Print a progress line.
say() { echo "quickstart: $*"; }

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Build iobench as the invoking user and install it into that PostgreSQL.
build_and_install() {
	pg_dirs
	say "building for $PG_VERSION_TEXT"
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG"
	say "installing into $PG_LIB"
	as_root make -C "$SRC" -s install PG_CONFIG="$PG_CONFIG" >/dev/null
	CLUSTER_PGBIN=$PG_BIN
}

# Create the extension, run a short benchmark and show its report (the
# full row stays in iobench.runs).
run_benchmark() {
	local duration=${IOBENCH_DURATION:-5s} size=${IOBENCH_FILE_SIZE:-256MB}
	say "running iobench.run(duration => '$duration', file_size => '$size')"
	cluster_psql -v duration="$duration" -v size="$size" <<'EOF'
CREATE EXTENSION iobench;
SELECT run_id FROM iobench.run(duration => :'duration', file_size => :'size') \gset
\pset format unaligned
\pset tuples_only on
SELECT * FROM iobench.report(:run_id);
\echo
\echo 'The same run in a dozen columns:  SELECT * FROM iobench.run_summary WHERE run_id =' :run_id
\echo 'Every stored figure:              SELECT * FROM iobench.runs WHERE run_id =' :run_id
EOF
}

main() {
	"$SRC/tools/deps.sh"
	build_and_install
	CLUSTER_KEEP=${IOBENCH_KEEP:-0}
	say "starting a throwaway cluster"
	cluster_start "shared_preload_libraries = 'iobench'"
	say "cluster in $CLUSTER_DIR, socket $CLUSTER_SOCK, port $CLUSTER_PORT"
	run_benchmark
}

main "$@"
