#!/usr/bin/env bash
# deps.sh — install what building, running and testing iobench needs on Debian 12.
#
# The PostgreSQL is the one PG_CONFIG names (tools/pg_dirs.sh).  For Debian's
# layout, /usr/lib/postgresql/N/bin/pg_config (the default is N = 15), the
# packages postgresql-N and postgresql-server-dev-N are installed with the
# rest; for any other pg_config (a source build, another distribution's
# package) only the compiler, make and liburing are, and the pg_config must
# exist already.
#
# Checks the packages with dpkg-query and stays silent when all are present (the
# common case, well under a second).  Otherwise runs `apt-get update` and
# `apt-get install` for the missing ones only: directly as root, through sudo
# for anybody else.
#
# On a machine without that PostgreSQL yet, Debian's postgresql-N package would
# create and start a "main" cluster on port 5432.  iobench's scripts use their
# own throwaway clusters, so for that first install only, a drop-in in
# /etc/postgresql-common/createcluster.d/ tells postgresql-common not to create
# it; the drop-in is removed again afterwards.  Set IOBENCH_MAIN_CLUSTER=1 to
# get Debian's usual main cluster.
set -euo pipefail

# shellcheck source=pg_dirs.sh
. "$(dirname "${BASH_SOURCE[0]}")/pg_dirs.sh"

# What the Makefile and tools/*.sh use.  gcc only recommends libc6-dev, and we
# install without recommends, so it is named too.  postgresql-server-dev-N
# brings clang and llvm (PGXS builds JIT bitcode); postgresql-N brings psql.
# The TAP tests (PostgreSQL::Test::Cluster) need IPC::Run; their storage
# rigs (tools/run-tests.sh, as root) need losetup and mount (mount) and
# mkfs.ext4 (e2fsprogs), and the latency disk (tools/latency_disk.sh)
# libfuse3 (fuse3, libfuse3-dev); t/033_pg_cron.pl schedules a run with pg_cron
# (Debian's postgresql-N-cron, for the PostgreSQL Debian packages; the test
# skips where pg_cron is not installed).
PACKAGES=(make gcc libc6-dev liburing-dev libipc-run-perl mount e2fsprogs fuse3 libfuse3-dev)
# Installed where the archive has them; their tests skip where it has not.
OPTIONAL_PACKAGES=()
PG_PACKAGE=
PG_CONFIG_PATH=$(pg_dirs_config)
if [[ $PG_CONFIG_PATH =~ ^/usr/lib/postgresql/([0-9]+)/bin/pg_config$ ]]; then
	PG_PACKAGE=postgresql-${BASH_REMATCH[1]}
	PACKAGES+=("$PG_PACKAGE" "postgresql-server-dev-${BASH_REMATCH[1]}")
	# pg_cron is packaged for most releases, not for all (none for 19 yet)
	OPTIONAL_PACKAGES+=("postgresql-${BASH_REMATCH[1]}-cron")
fi

NO_MAIN_CLUSTER_CONF=/etc/postgresql-common/createcluster.d/zz-iobench-no-main-cluster.conf

# Print the packages of PACKAGES that are not installed, one per line.
missing_packages() {
	local installed
	installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null |
		awk '$2 == "installed" { print $1 }') || true
	local p
	for p in "${PACKAGES[@]}"; do
		grep -qxF "$p" <<<"$installed" || echo "$p"
	done
	for p in "${OPTIONAL_PACKAGES[@]}"; do
		dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -x installed >/dev/null ||
			! available "$p" || echo "$p"
	done
}

# Does the archive (as apt's lists know it) have package $1?
available() {
	apt-cache policy "$1" 2>/dev/null | grep 'Candidate: [^(]' >/dev/null
}

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Remove the temporary "no main cluster" drop-in (EXIT trap of a fresh install).
remove_no_main_cluster_conf() {
	as_root rm -f "$NO_MAIN_CLUSTER_CONF"
}

main() {
	local missing
	mapfile -t missing < <(missing_packages)
	if [ "${#missing[@]}" -eq 0 ]; then
		check_pg_config
		return 0
	fi

	if ! command -v apt-get >/dev/null; then
		echo "deps.sh: missing ${missing[*]}, and this is not a Debian-like system (no apt-get);" >&2
		echo "deps.sh: install PostgreSQL 15 to 19 with its server headers, liburing and a C compiler by hand" >&2
		exit 1
	fi
	if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
		echo "deps.sh: missing ${missing[*]}; installing needs root, and sudo is not installed." >&2
		echo "deps.sh: as root, run: apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "deps.sh: installing ${missing[*]}"

	# A first install of postgresql-N would create and start a "main" cluster.
	if [ "${IOBENCH_MAIN_CLUSTER:-0}" != 1 ] && [ -n "$PG_PACKAGE" ] &&
		[[ " ${missing[*]} " == *" $PG_PACKAGE "* ]]; then
		trap remove_no_main_cluster_conf EXIT
		as_root mkdir -p "$(dirname "$NO_MAIN_CLUSTER_CONF")"
		echo "create_main_cluster = false" | as_root tee "$NO_MAIN_CLUSTER_CONF" >/dev/null
	fi

	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
	# lists were empty or old before the update: the optional ones again
	local p
	for p in "${OPTIONAL_PACKAGES[@]}"; do
		[[ " ${missing[*]} " == *" $p "* ]] || ! available "$p" ||
			dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -x installed >/dev/null ||
			missing+=("$p")
	done
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	check_pg_config
}

# Fail when the pg_config to build against cannot be run.
check_pg_config() {
	"$PG_CONFIG_PATH" --version >/dev/null 2>&1 && return 0
	echo "deps.sh: pg_config \"$PG_CONFIG_PATH\" cannot be run: set PG_CONFIG to the pg_config of a" >&2
	echo "deps.sh: PostgreSQL 15 to 19 installation with its server headers" >&2
	exit 1
}

main "$@"
