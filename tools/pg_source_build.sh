#!/usr/bin/env bash
# pg_source_build.sh — an assert-enabled PostgreSQL 18 built from Debian's
# source package, cached in a prefix under /var/tmp, to test iobench on.
#
#   tools/pg_source_build.sh            build when not cached; print pg_config's path
#   tools/pg_source_build.sh --prefix   print the prefix only (builds nothing)
#
# Debian's binary packages are built without assertions.  This fetches the
# source package postgresql-18 with `apt-get source`, from a deb-src entry for
# sid on the mirror this machine's apt uses (tools/debian_root.sh finds it;
# IOBENCH_MIRROR overrides it), through a private apt configuration that
# leaves the machine's own untouched.  It configures it with
# --enable-cassert --enable-debug --with-liburing --enable-tap-tests and
# builds and installs PostgreSQL with contrib ("world-bin", no docs).
#
# The prefix is $IOBENCH_PGBUILDS/postgresql-18-cassert-rN (default
# /var/tmp/iobench-pg).
# Everything happens in a temporary directory beside it, and the finished
# installation is renamed into place as the last step, so a cached prefix is
# always complete.  A failing step stops the build: its name and the end of
# its log are printed, the log is kept as postgresql-18-cassert-rN.failed.log,
# and no prefix is left.  Each step prints how long it took.
#
# Test on it:  make test PG_CONFIG="$(tools/pg_source_build.sh)"
# Needs root (or sudo) only to install the build dependencies when missing.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MAJOR=18
# Bump when the configure options change: old prefixes are then left unused.
RECIPE=2
BUILDS=${IOBENCH_PGBUILDS:-/var/tmp/iobench-pg}
# "postgresql" in the prefix keeps pkglibdir and sharedir at $PREFIX/lib and
# $PREFIX/share: PostgreSQL appends /postgresql to them otherwise, and Debian's
# 50-per-version-dirs.patch turns that pkglibdir into /usr/lib/postgresql/N/lib,
# outside the prefix.
PREFIX=$BUILDS/postgresql-$MAJOR-cassert-r$RECIPE
CONFIGURE_OPTS=(--enable-cassert --enable-debug --with-liburing --enable-tap-tests
	--with-icu --with-readline --with-zlib)
BUILD_DEPS=(dpkg-dev gcc make bison flex perl pkg-config libreadline-dev zlib1g-dev
	libicu-dev liburing-dev libipc-run-perl xz-utils bzip2)
TMP=
LOG=

# Print a progress line (stderr: stdout carries only the result).
say() { echo "pg_source_build: $*" >&2; }

# Print an error and exit.
die() { echo "pg_source_build: ERROR: $*" >&2; exit 1; }

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Run a build step with its output in its own log, then print how long it
# took; on failure print the end of the log, keep it and stop.
# Arguments: step name, command...
step() {
	local name=$1 start end rc=0
	shift
	LOG=$TMP/logs/${name// /_}.log
	start=$(date +%s.%N)
	"$@" >"$LOG" 2>&1 || rc=$?
	end=$(date +%s.%N)
	say "$(printf 'step %-24s %6.1f s%s' "$name" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
		"$([ "$rc" -eq 0 ] || echo " FAILED (status $rc)")")"
	if [ "$rc" -ne 0 ]; then
		cp "$LOG" "$PREFIX.failed.log"
		echo "------------------------- end of $name's log -------------------------" >&2
		tail -n 60 "$LOG" >&2
		echo "----------------------------------------------------------------------" >&2
		die "step \"$name\" failed; its whole log is in $PREFIX.failed.log"
	fi
}

# EXIT trap: remove the temporary directory (the build and any staged install).
cleanup() {
	local rc=$?
	[ -n "$TMP" ] && rm -rf "$TMP"
	exit "$rc"
}

# Install the build dependencies that are missing.  Steps run in an ||
# context, where set -e does not apply: every command checks its status.
install_deps() {
	local missing=() p
	for p in "${BUILD_DEPS[@]}"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -x installed >/dev/null || missing+=("$p")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	say "installing ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Fetch and unpack the source package with a private apt configuration whose
# only source is deb-src for sid on the machine's mirror.
fetch_source() {
	local mirror apt=$TMP/apt opts
	mirror=$("$SRC/tools/debian_root.sh" mirror) ||
		{ echo "no Debian mirror found in this machine's apt sources (tools/debian_root.sh mirror); set IOBENCH_MIRROR"; return 1; }
	echo "deb-src of sid from $mirror"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$TMP/source" || return 1
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg check-valid-until=no] $mirror sid main" \
		>"$apt/sources.list" || return 1
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/none"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o "Debug::NoLocking=1" -o "APT::Sandbox::User=$(id -un)")
	apt-get "${opts[@]}" update --error-on=any || return 1
	(cd "$TMP/source" && apt-get "${opts[@]}" source "postgresql-$MAJOR")
}

# Check that the staged installation runs and has everything inside PREFIX.
check_stage() {
	local stage=$TMP/stage$PREFIX d
	"$stage/bin/postgres" --version || return 1
	for d in bindir pkglibdir sharedir includedir-server; do
		case $("$stage/bin/pg_config" --"$d") in
		"$stage"/*) ;;
		*) echo "pg_config --$d is outside $PREFIX"; return 1 ;;
		esac
	done
	[ -x "$stage/lib/pgxs/src/test/regress/pg_regress" ] || { echo "no pg_regress in pgxs"; return 1; }
	[ -f "$stage/lib/pg_stat_statements.so" ] || { echo "contrib is missing"; return 1; }
}

# Print the unpacked source tree.
source_tree() {
	local d
	for d in "$TMP"/source/postgresql-"$MAJOR"-*/; do
		[ -f "$d/configure" ] && { echo "${d%/}"; return 0; }
	done
	return 1
}

main() {
	case ${1:-} in
	--prefix) echo "$PREFIX"; exit 0 ;;
	-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
	"") ;;
	*) die "unknown argument \"$1\" (see --help)" ;;
	esac
	if [ -x "$PREFIX/bin/pg_config" ]; then
		echo "$PREFIX/bin/pg_config"
		exit 0
	fi
	mkdir -p "$BUILDS"
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	TMP=$(mktemp -d "$BUILDS/.tmp-$MAJOR-cassert.XXXXXX")
	mkdir -p "$TMP/logs"
	rm -f "$PREFIX.failed.log"
	say "building PostgreSQL $MAJOR with assertions into $PREFIX (logs in $TMP/logs)"

	step "build dependencies" install_deps
	step "apt-get source" fetch_source
	local tree
	tree=$(source_tree) || die "apt-get source left no source tree with a configure script"
	say "source: $(basename "$tree") ($(sed -n '1s/.*(\(.*\)).*/\1/p' "$tree/debian/changelog" 2>/dev/null))"
	step "configure" sh -c 'cd "$1" && shift && ./configure "$@"' sh "$tree" \
		--prefix="$PREFIX" "${CONFIGURE_OPTS[@]}"
	step "make world-bin" make -C "$tree" -j"$(nproc)" world-bin
	step "make install-world-bin" make -C "$tree" install-world-bin DESTDIR="$TMP/stage"
	# The staged tree must be a working installation, all of it inside the
	# prefix, before it is published.
	step "check staged install" check_stage
	sed -n '1s/.*(\(.*\)).*/\1/p' "$tree/debian/changelog" >"$TMP/stage$PREFIX/DEBIAN_VERSION"
	mv -T "$TMP/stage$PREFIX" "$PREFIX" || die "could not move the build into $PREFIX"
	say "installed $("$PREFIX/bin/pg_config" --version) with assertions in $PREFIX"
	echo "$PREFIX/bin/pg_config"
}

main "$@"
