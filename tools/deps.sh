#!/usr/bin/env bash
# deps.sh — install what building, running and testing iobench needs on Debian 12.
#
# Checks the packages with dpkg-query and stays silent when all are present (the
# common case, well under a second).  Otherwise runs `apt-get update` and
# `apt-get install` for the missing ones only: directly as root, through sudo
# for anybody else.
#
# On a machine without PostgreSQL 15 yet, Debian's postgresql-15 package would
# create and start a "main" cluster on port 5432.  iobench's scripts use their
# own throwaway clusters, so for that first install only, a drop-in in
# /etc/postgresql-common/createcluster.d/ tells postgresql-common not to create
# it; the drop-in is removed again afterwards.  Set IOBENCH_MAIN_CLUSTER=1 to
# get Debian's usual main cluster.
set -euo pipefail

# What the Makefile and tools/*.sh use.  gcc only recommends libc6-dev, and we
# install without recommends, so it is named too.  postgresql-server-dev-15
# brings clang and llvm (PGXS builds JIT bitcode); postgresql-15 brings psql.
# The TAP tests (PostgreSQL::Test::Cluster) need IPC::Run; their storage
# rigs (tools/run-tests.sh, as root) need losetup and mount (mount) and
# mkfs.ext4 (e2fsprogs); t/033_pg_cron.pl schedules a run with pg_cron.
PACKAGES=(
	make gcc libc6-dev
	postgresql-15 postgresql-server-dev-15
	liburing-dev
	libipc-run-perl
	mount e2fsprogs
	postgresql-15-cron
)

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
	[ "${#missing[@]}" -eq 0 ] && return 0

	if ! command -v apt-get >/dev/null; then
		echo "deps.sh: missing ${missing[*]}, and this is not a Debian-like system (no apt-get);" >&2
		echo "deps.sh: install PostgreSQL 15 with its server headers, liburing and a C compiler by hand" >&2
		exit 1
	fi
	if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
		echo "deps.sh: missing ${missing[*]}; installing needs root, and sudo is not installed." >&2
		echo "deps.sh: as root, run: apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "deps.sh: installing ${missing[*]}"

	# A first install of postgresql-15 would create and start a "main" cluster.
	if [ "${IOBENCH_MAIN_CLUSTER:-0}" != 1 ] && [[ " ${missing[*]} " == *" postgresql-15 "* ]]; then
		trap remove_no_main_cluster_conf EXIT
		as_root mkdir -p "$(dirname "$NO_MAIN_CLUSTER_CONF")"
		echo "create_main_cluster = false" | as_root tee "$NO_MAIN_CLUSTER_CONF" >/dev/null
	fi

	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
}

main "$@"
