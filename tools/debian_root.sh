#!/usr/bin/env bash
# debian_root.sh — a packaged PostgreSQL of a newer Debian release, in a
# minimal root file system of that release, to build and test iobench on.
#
#   tools/debian_root.sh make RELEASE             make (or reuse) the cached root
#   tools/debian_root.sh test RELEASE [VAR=value...] [test...]
#                                                 `make test PG_CONFIG=...` inside,
#                                                 on a copy of this checkout
#   tools/debian_root.sh run RELEASE CMD [ARG...] run a command inside the root
#   tools/debian_root.sh package RELEASE          build postgresql-N-iobench from
#                                                 debian/ inside (by the guide's
#                                                 package route, as written, when
#                                                 it names N), install it and
#                                                 run installcheck against it
#   tools/debian_root.sh path RELEASE             print the cached root's path
#   tools/debian_root.sh pg_config RELEASE        print pg_config's path inside it
#   tools/debian_root.sh mirror                   print the Debian mirror it uses
#   tools/debian_root.sh fresh [VAR=value...]     README's quick start on a fresh
#                                                 Debian 12 (see below)
#
# RELEASE is one of
#   bookworm      Debian 12 with postgresql-15, as `make test` installs it
#   trixie        Debian 13 with postgresql-17
#   sid           Debian unstable with postgresql-18
#   experimental  sid with postgresql-19 and postgresql-server-dev-19 taken
#                 from experimental by name (its Release file may be expired:
#                 check-valid-until=no); everything else comes from sid
#
# A root holds debootstrap's minbase, PostgreSQL with its server headers, and
# what building and testing needs (make, gcc, liburing-dev, libipc-run-perl
# for TAP tests, fuse3 and libfuse3-dev for their latency disk).  Roots are cached in $IOBENCH_ROOTS (default
# /var/tmp/iobench-roots), one directory per release and recipe; a root is
# built in a temporary directory and renamed into place only when complete,
# so a cached root is never half made.  The mirror is the one this machine's
# apt configuration uses for its own release (IOBENCH_MIRROR overrides it).
#
# "test" copies the checkout's files (tracked and untracked, not ignored ones)
# into the root's /var/tmp and runs there `make test PG_CONFIG=...` with the
# VAR=value arguments (for example WERROR=1), or `tools/run-tests.sh test...`
# when tests are named.  On failure, regression.diffs, results/ and log/ are
# copied back into the checkout as results.RELEASE/.
#
# "package" builds the Debian package postgresql-N-iobench of RELEASE's
# PostgreSQL N from this checkout's debian/ (tracked and untracked files, as
# "test" copies them) in the Debian way (debhelper, dh --with pgxs_loop,
# pg_buildext, debian/control made from debian/control.in for N), with the
# suite left out of the build (nocheck), runs lintian on the .changes and
# its .deb files (printing what it says; an error, or a tag on the licence
# or debian/copyright, fails), installs the package with apt,
# runs debian/tests/installcheck (pg_buildext installcheck: the regression
# suite against the installed package on a throwaway cluster) as
# autopkgtest does, and a TAP test through make installcheck's
# prove_installcheck as the user postgres.  All of this happens in an
# overlay on the cached root (or a copy, where overlays cannot be mounted),
# so the cache never sees the build dependencies or the package; the .deb
# files are copied into the checkout as packages.RELEASE/.
#
# "fresh" is README's quick start as a newcomer meets it: a Debian 12 made
# by debootstrap --variant=minbase, with nothing else (no git, make,
# compiler, PostgreSQL or sudo).  As root inside it, it runs the lines of
# README's quick-start block meant for root (apt-get ... git make), clones
# this checkout's HEAD (the submission, not uncommitted changes) into
# /root/iobench, then runs the block's make lines there (make run, make
# test) with the VAR=value arguments in their environment (CI gives
# IOBENCH_EXPECTED_SKIPS).  It fails when any line fails or make test does
# not end with "run-tests: N passed, 0 failed".  Only debootstrap's output
# is cached (a tarball in $IOBENCH_ROOTS); every run unpacks it anew, so
# each starts from nothing but what README installs, and the root is
# removed afterwards.
#
# Commands that enter a root run in a private mount namespace: /proc, /sys,
# /dev, a tmpfs on /dev/shm, the host's cgroup-v1 blkio hierarchy (where it
# has one) and the root bound onto itself are mounted there,
# seen by nobody else, and unmounted on exit and on error.  Each step prints
# how long it took.  Needs root; debootstrap is installed when missing.
#
# Other scripts can reuse a root: `tools/debian_root.sh run sid CMD` runs CMD
# with the root's PostgreSQL 18 (pg_config at `tools/debian_root.sh pg_config
# sid`), and `tools/debian_root.sh test sid WERROR=1 name...` runs named tests.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOTS=${IOBENCH_ROOTS:-/var/tmp/iobench-roots}
# Bump when what goes into a root changes: old caches are then left unused.
RECIPE=3
# (fuse3 and libfuse3-dev: the latency disk of the TAP tests, tools/latency_disk.sh)
BUILD_PACKAGES="make gcc libc6-dev liburing-dev libipc-run-perl mount e2fsprogs fuse3 libfuse3-dev"
MOUNTS=()
TEMP_DIRS=()
ROOT=

# Print a progress line.
say() { echo "debian_root: $*"; }

# Print an error and exit.
die() { echo "debian_root: ERROR: $*" >&2; exit 1; }

# Print the usage text (the comment at the top of this file).
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

# Print the major version of PostgreSQL packaged for RELEASE.
release_pg_major() {
	case $1 in
	bookworm) echo 15 ;;
	trixie) echo 17 ;;
	sid) echo 18 ;;
	experimental) echo 19 ;;
	*) die "unknown release \"$1\": use bookworm, trixie, sid or experimental" ;;
	esac
}

# Print the cache directory of RELEASE's root.
root_dir() { echo "$ROOTS/$1-r$RECIPE"; }

# Run a step, then print how long it took; arguments: name, command...
step() {
	local name=$1 start end rc=0
	shift
	start=$(date +%s.%N)
	"$@" || rc=$?
	end=$(date +%s.%N)
	say "$(printf 'step %-34s %6.1f s%s' "$name" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
		"$([ "$rc" -eq 0 ] || echo " FAILED (status $rc)")")" >&2
	return "$rc"
}

# Print the URI of the Debian mirror this machine's apt uses for its own
# release: deb822 .sources files first, then the one-line format of
# /etc/apt/sources.list and .list files.  Any of them may be missing (a
# debootstrap root has only /etc/apt/sources.list, a recent Debian image only
# .sources files): only the files that exist are read.
host_mirror() {
	local codename uri f deb822=() oneline=()
	if [ -n "${IOBENCH_MIRROR:-}" ]; then
		echo "$IOBENCH_MIRROR"
		return 0
	fi
	# shellcheck disable=SC1091
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "no VERSION_CODENAME in /etc/os-release: set IOBENCH_MIRROR"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && deb822+=("$f")
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && oneline+=("$f")
	done
	uri=
	if [ "${#deb822[@]}" -gt 0 ]; then
		uri=$(awk -v cn="$codename" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && enabled != "no" && (" " suites " ") ~ (" " cn " ") && uri == "")
					uri = uris
				types = ""; suites = ""; uris = ""; enabled = ""
			}
			FNR == 1 { flush() }
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			{ key = tolower($1); sub(/:.*/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val) }
			key == "types" { types = val }
			key == "suites" { suites = val }
			key == "enabled" { enabled = tolower(val) }
			key == "uris" { split(val, u, /[ \t]+/); uris = u[1] }
			END { flush(); print uri }' "${deb822[@]}")
	fi
	if [ -z "$uri" ] && [ "${#oneline[@]}" -gt 0 ]; then
		uri=$(sed -e 's/^[ \t]*//' -e 's/\[[^]]*\][ \t]*//' "${oneline[@]}" |
			awk -v cn="$codename" '$1 == "deb" && $3 == cn && !found { print $2; found = 1 }')
	fi
	[ -n "$uri" ] || die "no apt source (deb) for \"$codename\" in /etc/apt/sources.list or /etc/apt/sources.list.d/: set IOBENCH_MIRROR"
	echo "${uri%/}"
}

# Mount what a root needs (in this private namespace); argument: the root.
mount_root() {
	local root=$1
	mount --bind "$root" "$root" && MOUNTS+=("$root")
	mount -t proc proc "$root/proc" && MOUNTS+=("$root/proc")
	mount -t sysfs sysfs "$root/sys" && MOUNTS+=("$root/sys")
	mount --bind /dev "$root/dev" && MOUNTS+=("$root/dev")
	mount --bind /dev/pts "$root/dev/pts" && MOUNTS+=("$root/dev/pts")
	mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm" && MOUNTS+=("$root/dev/shm")
	# the host's cgroup-v1 blkio hierarchy, where it has one: the test
	# runner's blkio rig (a disk with a known IOPS limit) works inside too
	if findmnt -rno FSTYPE /sys/fs/cgroup/blkio 2>/dev/null | grep -x cgroup >/dev/null; then
		mount -t tmpfs -o mode=0755,nosuid,nodev,noexec cgroup "$root/sys/fs/cgroup" &&
			MOUNTS+=("$root/sys/fs/cgroup") &&
			mkdir "$root/sys/fs/cgroup/blkio" &&
			mount --bind /sys/fs/cgroup/blkio "$root/sys/fs/cgroup/blkio" &&
			MOUNTS+=("$root/sys/fs/cgroup/blkio")
	fi
}

# Unmount what mount_root mounted, last first.
unmount_all() {
	local i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null ||
			echo "debian_root: could not unmount ${MOUNTS[i]}" >&2
	done
	MOUNTS=()
}

# EXIT trap: unmount, then remove temporary directories (never a mounted one).
cleanup() {
	local rc=$? d
	unmount_all
	for d in "${TEMP_DIRS[@]}"; do
		if [ -d "$d" ] && ! findmnt -rno TARGET | grep "^$d" >/dev/null; then
			rm -rf "$d"
		fi
	done
	exit "$rc"
}

# Run a command inside a mounted root with a clean environment.
in_root() {
	local root=$1
	shift
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# Write the root's apt sources, and keep postgresql-common from creating and
# starting a "main" cluster; arguments: root, release, mirror.
configure_root() {
	local root=$1 release=$2 mirror=$3 suite=$2 valid=
	[ "$release" = experimental ] && suite=sid
	# sid's and experimental's Release files are valid for a week only; a
	# mirror that is a snapshot serves them expired.
	[ "$suite" = sid ] && valid="Check-Valid-Until: no"
	rm -f "$root/etc/apt/sources.list"
	mkdir -p "$root/etc/apt/sources.list.d"
	cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
$valid
EOF
	if [ "$release" = experimental ]; then
		cat >>"$root/etc/apt/sources.list.d/debian.sources" <<EOF

Types: deb
URIs: $mirror
Suites: experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
Check-Valid-Until: no
EOF
	fi
	mkdir -p "$root/etc/postgresql-common/createcluster.d"
	echo "create_main_cluster = false" >"$root/etc/postgresql-common/createcluster.d/iobench.conf"
	# No service starts inside the root.
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
}

# Install PostgreSQL and the build tools inside a mounted root.
install_packages() {
	local root=$1 release=$2 major pkgs
	major=$(release_pg_major "$release")
	if [ "$release" = experimental ]; then
		# By name, with the libpq they need: experimental is NotAutomatic, so
		# apt takes nothing else from it.
		pkgs="postgresql-$major/experimental postgresql-server-dev-$major/experimental"
		pkgs+=" postgresql-client-$major/experimental libpq5/experimental libpq-dev/experimental"
	else
		pkgs="postgresql-$major postgresql-server-dev-$major"
	fi
	# Called through step (an || context, where set -e does not apply):
	# each command checks its status.  apt-get update exits 0 when an index
	# could not be used, so its warnings are errors here.
	in_root "$root" apt-get update -q --error-on=any >/dev/null || return 1
	# shellcheck disable=SC2086
	in_root "$root" apt-get install -y -q --no-install-recommends $pkgs $BUILD_PACKAGES >/dev/null || return 1
	in_root "$root" apt-get clean || return 1
	[ -x "$root/usr/lib/postgresql/$major/bin/pg_config" ] ||
		die "postgresql-server-dev-$major did not install pg_config in the $release root"
}

# Set ROOT to the path of RELEASE's root, making it first when it is not cached.
ensure_root() {
	local release=$1 root tmp mirror suite
	root=$(root_dir "$release")
	ROOT=$root
	[ -d "$root" ] && return 0
	command -v debootstrap >/dev/null || step "install debootstrap" \
		env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2 ||
		die "debootstrap is not installed and could not be installed"
	mkdir -p "$ROOTS"
	mirror=$(host_mirror)
	suite=$release
	[ "$release" = experimental ] && suite=sid
	tmp=$(mktemp -d "$ROOTS/.tmp-$release.XXXXXX")
	TEMP_DIRS+=("$tmp")
	# mktemp makes it 0700: the root's own users (_apt, postgres) need to enter it.
	chmod 755 "$tmp"
	say "making the $release root from $mirror in $tmp" >&2
	step "debootstrap $suite" debootstrap --variant=minbase "$suite" "$tmp" "$mirror" \
		>"$tmp.log" 2>&1 || { tail -n 30 "$tmp.log" >&2; rm -f "$tmp.log"; die "debootstrap $suite failed"; }
	rm -f "$tmp.log"
	configure_root "$tmp" "$release" "$mirror"
	mount_root "$tmp"
	step "PostgreSQL $(release_pg_major "$release") + build tools" install_packages "$tmp" "$release" >&2 ||
		die "installing packages into the $release root failed"
	unmount_all
	# Another run may have made the same root meanwhile: keep the first.
	mv -T "$tmp" "$root" 2>/dev/null || say "$root appeared meanwhile; using it" >&2
}

# Copy the checkout (tracked and untracked files, not ignored ones) into DIR.
copy_checkout() {
	local dir=$1
	if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
			tar --null -T - -cf -) | tar -xf - -C "$dir"
	else
		tar -C "$SRC" --exclude='*.o' --exclude='*.so' --exclude='*.bc' -cf - . | tar -xf - -C "$dir"
	fi
}

# "test": make test PG_CONFIG=... inside the root on a copy of the checkout.
cmd_test() {
	local release=$1 root major work rc=0 a vars=() tests=()
	shift
	for a in "$@"; do
		if [[ $a == *=* ]]; then vars+=("$a"); else tests+=("$a"); fi
	done
	major=$(release_pg_major "$release")
	step "root $release" ensure_root "$release"
	root=$ROOT
	mount_root "$root"
	work=$(mktemp -d "$root/var/tmp/iobench-src.XXXXXX")
	TEMP_DIRS+=("$work")
	copy_checkout "$work"
	local pgc=/usr/lib/postgresql/$major/bin/pg_config inner=${work#"$root"}
	say "$(chroot "$root" "$pgc" --version) in $root"
	if [ "${#tests[@]}" -eq 0 ]; then
		step "make test ($release)" in_root "$root" make -C "$inner" test PG_CONFIG="$pgc" "${vars[@]}" || rc=$?
	else
		step "run-tests ($release)" in_root "$root" env PG_CONFIG="$pgc" "${vars[@]}" \
			"$inner/tools/run-tests.sh" "${tests[@]}" || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		rm -rf "$SRC/results.$release"
		mkdir -p "$SRC/results.$release"
		for a in regression.diffs regression.out results log; do
			[ -e "$work/$a" ] && cp -r "$work/$a" "$SRC/results.$release/"
		done
		say "FAILED on $release (PostgreSQL $major); outputs in $SRC/results.$release"
	fi
	return "$rc"
}

# Print the command lines of README's quick-start block (the first ```sh
# block under "## Quick start"), comments and blank lines left out.
readme_quickstart_lines() {
	awk '/^## Quick start/ { section = 1; next }
		section && /^## / { exit }
		section && /^```sh/ { block = 1; next }
		block && /^```/ { exit }
		block { sub(/[ \t]*#.*$/, ""); if ($0 != "") print }' "$SRC/README.md"
}

# Print the command lines of the guide's package route (the ```sh block
# under "### From a package" in doc/iobench.md), comments and blank lines
# left out.
guide_package_lines() {
	awk '/^### From a package/ { section = 1; next }
		section && !block && /^#/ { exit }
		section && /^```sh/ { block = 1; next }
		block && /^```/ { exit }
		block { sub(/[ \t]+#.*$/, ""); if ($0 != "") print }' "$SRC/doc/iobench.md"
}

# Set ROOT to a new root unpacked from the cached debootstrap tarball of
# bookworm's minbase, making the tarball first when it is not cached.
fresh_root() {
	local tarball=$ROOTS/bookworm-minbase-r$RECIPE.tar tmp mirror
	mkdir -p "$ROOTS"
	if [ ! -f "$tarball" ]; then
		command -v debootstrap >/dev/null || step "install debootstrap" \
			env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2 ||
			die "debootstrap is not installed and could not be installed"
		mirror=$(host_mirror)
		tmp=$(mktemp -d "$ROOTS/.tmp-bookworm-minbase.XXXXXX")
		TEMP_DIRS+=("$tmp")
		chmod 755 "$tmp"
		say "making a minimal bookworm from $mirror in $tmp" >&2
		step "debootstrap bookworm" debootstrap --variant=minbase bookworm "$tmp" "$mirror" \
			>"$tmp.log" 2>&1 || { tail -n 30 "$tmp.log" >&2; rm -f "$tmp.log"; die "debootstrap bookworm failed"; }
		rm -f "$tmp.log"
		tar -C "$tmp" -cf "$tarball.part" . && mv "$tarball.part" "$tarball" ||
			die "could not write $tarball"
		rm -rf "$tmp"
	fi
	ROOT=$(mktemp -d "$ROOTS/.fresh-bookworm.XXXXXX")
	TEMP_DIRS+=("$ROOT")
	chmod 755 "$ROOT"
	tar -C "$ROOT" -xf "$tarball" || die "could not unpack $tarball"
	# As in Debian's container images, no service starts inside the root
	# (make run's and make test's own clusters are not services).
	printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
	chmod 755 "$ROOT/usr/sbin/policy-rc.d"
}

# "fresh": README's quick start in a new minimal Debian 12, as root.
cmd_fresh() {
	local root a vars=() lines=() line rc=0 log dir
	for a in "$@"; do
		[[ $a == *=* ]] || die "fresh: \"$a\" is not VAR=value"
		vars+=("$a")
	done
	mapfile -t lines < <(readme_quickstart_lines)
	[ "${#lines[@]}" -gt 0 ] || die "no quick-start block under \"## Quick start\" in README.md"
	step "fresh bookworm root" fresh_root
	root=$ROOT
	mount_root "$root"
	# the submission: this checkout's repository, read-only, to clone from
	# (the common one where the checkout is a worktree: a worktree's own
	# git directory is no repository), and its HEAD, checked out in the
	# clone on the checkout's branch when the clone's HEAD is another
	local sha branch
	sha=$(git -C "$SRC" rev-parse HEAD)
	branch=$(git -C "$SRC" symbolic-ref --short -q HEAD || true)
	mkdir -p "$root/mnt/iobench.git"
	mount --bind -o ro "$(git -C "$SRC" rev-parse --path-format=absolute --git-common-dir)" "$root/mnt/iobench.git" &&
		MOUNTS+=("$root/mnt/iobench.git") || die "could not mount the repository into the root"
	say "README's quick start as root in a minimal Debian 12, at $(git -C "$SRC" rev-parse --short HEAD)"
	# The lines before the first make line set the machine up (README's
	# line for root; the one for sudo users is not run as root), then the
	# clone, then the make lines in it.
	local cloned=0
	for line in "${lines[@]}"; do
		[[ $line == sudo\ * ]] && { say "not as root: $line"; continue; }
		if [[ $line == make* ]] && [ "$cloned" -eq 0 ]; then
			step "git clone" in_root "$root" git clone -q /mnt/iobench.git /root/iobench || return 1
			if [ "$(in_root "$root" git -C /root/iobench rev-parse HEAD)" != "$sha" ]; then
				step "git checkout ${branch:-$sha}" in_root "$root" git -C /root/iobench checkout -q \
					$([ -n "$branch" ] && echo "-B $branch" || echo --detach) "$sha" || return 1
			fi
			cloned=1
		fi
		log=$root/root/quickstart-step.log
		say "\$ $line"
		dir=/root
		[ "$cloned" -eq 0 ] || dir=/root/iobench
		step "$line" in_root "$root" env "${vars[@]}" bash -o pipefail -c "cd $dir && $line" \
			2>&1 | tee "$log" || rc=1
		[ "$rc" -eq 0 ] || { say "FAILED: $line"; return 1; }
		if [[ $line == "make test"* ]] && ! grep -E '^run-tests: [0-9]+ passed, 0 failed' "$log" >/dev/null; then
			say "FAILED: make test did not end with \"run-tests: N passed, 0 failed\""
			return 1
		fi
	done
	[ "$cloned" -eq 1 ] || die "README's quick-start block has no make line"
	say "README's quick start passed on a fresh Debian 12"
}

# Set ROOT to a writable root on top of RELEASE's cached root: an overlay
# (in this private namespace) whose changes land in a temporary directory,
# or a copy of the root where overlays are refused.
scratch_root() {
	local release=$1 lower tmp
	ensure_root "$release"
	lower=$ROOT
	tmp=$(mktemp -d "$ROOTS/.scratch-$release.XXXXXX")
	TEMP_DIRS+=("$tmp")
	chmod 755 "$tmp"
	mkdir "$tmp/upper" "$tmp/work" "$tmp/root"
	if mount -t overlay overlay -o "lowerdir=$lower,upperdir=$tmp/upper,workdir=$tmp/work" "$tmp/root" 2>/dev/null; then
		MOUNTS+=("$tmp/root")
	else
		say "no overlay mount here: copying the $release root" >&2
		cp -a "$lower/." "$tmp/root/" || die "could not copy $lower"
	fi
	ROOT=$tmp/root
}

# Run lintian (of the release being packaged) on the .changes of the build
# in the root's /var/tmp/iobench-pkg (which names the .deb files and the
# .buildinfo) and print what it says; arguments: root, that directory as
# seen from outside.  Pedantic tags (P:) are shown too.  Fails on an
# error (E:) or on any error, warning or info about the licence or
# debian/copyright: those are ours to fix.
lint() {
	local root=$1 work=$2 changes out rc=0
	changes=$(cd "$work" && ls iobench_*.changes 2>/dev/null | head -n 1)
	[ -n "$changes" ] || { say "FAILED: dpkg-buildpackage left no .changes"; return 1; }
	out=$(in_root "$root" lintian --display-info --pedantic --allow-root "/var/tmp/iobench-pkg/$changes" 2>&1) || rc=$?
	say "lintian $(in_root "$root" lintian --version | sed 's/^Lintian v//') on $changes and its .deb files:"
	if [ -n "$out" ]; then sed 's/^/  /' <<<"$out"; else echo "  (nothing to say)"; fi
	if grep -E '^E: ' <<<"$out" >/dev/null; then
		say "FAILED: lintian reports errors"
		return 1
	fi
	if grep -E '^[EWI]: .*(copyright|licen[cs]e)' <<<"$out" >/dev/null; then
		say "FAILED: lintian reports on the licence or debian/copyright"
		return 1
	fi
	# lintian exits non-zero for errors only, which are handled above
	[ "$rc" -le 2 ] || { say "FAILED: lintian failed (status $rc)"; return 1; }
	return 0
}

# "package": build, install and installcheck postgresql-N-iobench in a
# scratch root of RELEASE.
cmd_package() {
	local release=$1 root major work inner version deb rc=0
	major=$(release_pg_major "$release")
	step "scratch root $release" scratch_root "$release"
	root=$ROOT
	mount_root "$root"
	version=$(sed -n '1s/^iobench (\([^)]*\)).*/\1/p' "$SRC/debian/changelog")
	[ -n "$version" ] || die "no version in debian/changelog"
	# The source, the build and the test clusters on the host's disk (bound
	# into the root), not on the overlay: runs on a file system without a
	# block device say so in a NOTICE, which the expected outputs lack.  The
	# server (user postgres) reads the tests' files and makes its
	# tablespaces in the source directory: every directory above it is 755.
	work=$root/var/tmp/iobench-pkg
	mkdir -p "${root%/root}/pkg" "$work"
	mount --bind "${root%/root}/pkg" "$work" && MOUNTS+=("$work") || die "could not bind the work directory into the root"
	mkdir -p "$work/iobench-${version%-*}"
	chmod 755 "$work" "$work/iobench-${version%-*}"
	copy_checkout "$work/iobench-${version%-*}"
	inner=/var/tmp/iobench-pkg/iobench-${version%-*}
	if guide_package_lines | grep -q "postgresql-server-dev-$major\b"; then
		# The guide's package route names this release's PostgreSQL: run it
		# as written, in the copy of the checkout, as root (without "sudo",
		# which a minimal root lacks) and answering apt's questions yes, as
		# its reader would
		step "apt-get update" in_root "$root" apt-get update -q >/dev/null || return 1
		printf 'APT::Get::Assume-Yes "true";\n' >"$root/etc/apt/apt.conf.d/90iobench-assume-yes"
		say "the guide's package route (doc/iobench.md, From a package), as written:"
		while IFS= read -r line; do
			say "  \$ $line"
			step "$line" in_root "$root" env DEBIAN_FRONTEND=noninteractive bash -o pipefail -c \
				"cd $inner && ${line#sudo }" >>"$work/build.log" 2>&1 ||
				{ tail -n 60 "$work/build.log"; say "FAILED: the guide's package route, at: $line"; return 1; }
		done < <(guide_package_lines)
	else
		step "build dependencies" in_root "$root" sh -c \
			"apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends build-essential debhelper dpkg-dev fakeroot postgresql-server-dev-all >/dev/null" ||
			return 1
		# debian/control for this release's PostgreSQL only
		step "build postgresql-$major-iobench $version" in_root "$root" env PG_SUPPORTED_VERSIONS="$major" \
			DEB_BUILD_OPTIONS=nocheck sh -c \
			"cd $inner && pg_buildext updatecontrol && dpkg-buildpackage -us -uc -b" \
			>"$work/build.log" 2>&1 || { tail -n 60 "$work/build.log"; say "FAILED: the package build; log above"; return 1; }
	fi
	deb=$(cd "$work" && ls postgresql-"$major"-iobench_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)
	[ -n "$deb" ] || die "dpkg-buildpackage made no postgresql-$major-iobench package"
	rm -rf "$SRC/packages.$release"
	mkdir -p "$SRC/packages.$release"
	cp "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$SRC/packages.$release/" 2>/dev/null || true
	say "built $deb ($(du -k "$work/$deb" | cut -f1) kB); copied into packages.$release/"
	in_root "$root" dpkg-deb --contents "/var/tmp/iobench-pkg/$deb" | awk '{ print "  " $NF }' | grep -E 'iobench[^/]*$'
	step "install lintian" in_root "$root" apt-get install -y -q --no-install-recommends lintian >/dev/null &&
		step "lintian" lint "$root" "$work" || rc=1
	step "install $deb" in_root "$root" apt-get install -y -q --no-install-recommends "/var/tmp/iobench-pkg/$deb" \
		>/dev/null || return 1
	# autopkgtest's view: a clean source tree and the installed package
	in_root "$root" sh -c "cd $inner && make -s clean PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config >/dev/null 2>&1" || true
	mkdir -p "$work/tmp"
	chmod 1777 "$work/tmp"
	step "installcheck against postgresql-$major-iobench" in_root "$root" env PG_SUPPORTED_VERSIONS="$major" \
		IOBENCH_TEST_TMPDIR=/var/tmp/iobench-pkg/tmp sh -c "cd $inner && debian/tests/installcheck" || rc=1
	# the TAP tests through PGXS's prove_installcheck, as a user that may run
	# initdb (one that starts its own cluster with the installed package)
	in_root "$root" chown -R postgres: "$inner"
	step "prove_installcheck (TAP) on $major" in_root "$root" runuser -u postgres -- \
		make -C "$inner" installcheck REGRESS= ISOLATION= PROVE_TESTS="t/050_meta.pl t/010_crash.pl" \
		PG_CONFIG="/usr/lib/postgresql/$major/bin/pg_config" || rc=1
	[ "$rc" -eq 0 ] || say "FAILED on $release (PostgreSQL $major): installcheck of the package"
	return "$rc"
}

# "run": a command inside the mounted root.
cmd_run() {
	local release=$1 root
	shift
	[ $# -gt 0 ] || die "run: no command given"
	ensure_root "$release"
	root=$ROOT
	mount_root "$root"
	in_root "$root" "$@"
}

main() {
	[ $# -ge 1 ] || { usage >&2; exit 2; }
	case $1 in
	-h | --help | help) usage; exit 0 ;;
	mirror) host_mirror; exit 0 ;;
	esac
	local cmd=$1 release
	if [ "$cmd" = fresh ]; then
		release=bookworm
		shift
	else
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		release=$2
		shift 2
	fi
	release_pg_major "$release" >/dev/null
	case $cmd in
	path) echo "$(root_dir "$release")"; return 0 ;;
	pg_config) echo "/usr/lib/postgresql/$(release_pg_major "$release")/bin/pg_config"; return 0 ;;
	make | test | run | fresh | package) ;;
	*) usage >&2; exit 2 ;;
	esac
	[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts)"
	# Enter a private mount namespace once: mounts made here are seen by no
	# other process and vanish with it even if this script is killed.
	if [ "${IOBENCH_ROOT_NS:-}" != "$$" ]; then
		if [ "$cmd" = fresh ]; then set -- "$@"; else set -- "$release" "$@"; fi
		exec unshare --mount --propagation private env IOBENCH_ROOT_NS=$$ "${BASH_SOURCE[0]}" "$cmd" "$@"
	fi
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	case $cmd in
	make) step "root $release" ensure_root "$release" && echo "$ROOT" ;;
	test) cmd_test "$release" "$@" ;;
	run) cmd_run "$release" "$@" ;;
	package) cmd_package "$release" ;;
	fresh) cmd_fresh "$@" ;;
	esac
}

main "$@"
