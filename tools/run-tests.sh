#!/usr/bin/env bash
# run-tests.sh — build iobench and run its tests on private instances: the
# pg_regress suite (REGRESS in the Makefile), the isolation specs (ISOLATION,
# specs/<name>.spec) and the TAP tests (t/*.pl, when TAP_TESTS is set).
#
#   tools/run-tests.sh                 everything
#   tools/run-tests.sh run_patterns    only these tests: names of sql/<name>.sql
#                                      (preceded by "setup" when REGRESS has it),
#                                      specs/<name>.spec or t/<name>.pl
#   tools/run-tests.sh pg_regress      the whole pg_regress suite (REGRESS) only
#   tools/run-tests.sh tap             all the TAP tests (t/*.pl) only
#
# It tests on the PostgreSQL installation that PG_CONFIG names (environment
# or `make test PG_CONFIG=...`; default: Debian's PostgreSQL 15, see
# tools/pg_dirs.sh).  Nothing touches that installation: its binaries,
# libraries and share files are copied into a private install tree in a
# temporary directory, iobench is installed there with DESTDIR, and pg_regress
# and pg_isolation_regress start throwaway instances from that tree
# (--temp-instance) with test/regress.conf, which preloads iobench.  The TAP
# tests (PostgreSQL::Test::Cluster) start their own clusters from the same
# tree: its bin directory comes first in PATH.  Several checkouts can test at
# once.
#
# As root, the temporary directory is given to the "postgres" user and the
# tests run as that user (initdb refuses root); otherwise they run as you.
#
# On failure, regression.diffs, regression.out, results/ and log/ (initdb and
# server logs) land in the checkout root, and tmp_check/ for the TAP tests;
# diffs, the server log and the TAP logs of failed tests are printed.
#
# Environment:
#   PG_CONFIG=path       pg_config of the PostgreSQL to test on (15 to 19)
#   WERROR=1             build with -Werror (CI does)
#   IOBENCH_TMPDIR=dir   parent of the temporary directory (default /var/tmp,
#                        disk-backed, so direct I/O works; /tmp may be tmpfs)
#   IOBENCH_KEEP_TMP=1   keep the temporary directory afterwards
#   IOBENCH_EXPECTED_SKIPS="t1 t2"  the TAP tests that may skip here (CI sets
#                        it per part); any other test that skips fails the
#                        run, so a package or rig that should be there and is
#                        not cannot pass unseen.  Empty: none may skip.
#                        Unset: a skip counts as passed, and is printed.
#
# As root, the TAP tests also get IOBENCH_SMALL_FS: a 160 MB tmpfs mounted
# for them (free-space tests), unmounted afterwards.
#
# A TAP test sees IOBENCH_REGRESS_CONF, the path of a copy of
# test/regress.conf, to append to its nodes' postgresql.conf if it wants
# the settings the pg_regress instance has; IOBENCH_CHECKOUT, the checkout
# itself (t/.. is a copy of the few files the tests read; t/050_meta.pl
# makes the release bundle from the checkout's git); as root, also the storage rigs
# (IOBENCH_TEST_LOOP_DIR, IOBENCH_TEST_LOOP_DEV, IOBENCH_TEST_TMPFS_DIR,
# IOBENCH_TEST_BLKIO_CGROUP, IOBENCH_TEST_LATENCY_*: see make_storage_rigs).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=private_install.sh
. "$SRC/tools/private_install.sh"
# Set by main() from pg_dirs (tools/pg_dirs.sh).
PG_REGRESS=
PG_ISOLATION_REGRESS=
PG_TAP_PERL=
WORK=
INST=
PORT_LOCKS=

# Print a progress line.
say() { echo "run-tests: $*"; }

# Print an error and exit.
die() { echo "run-tests: ERROR: $*" >&2; exit 1; }

# Run a command as the user that owns the test instance.
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# Print the value of a variable as the Makefile sets it.  PGXS is left out
# (PGXS= on the command line): it appends --dbname=contrib_regression to
# REGRESS_OPTS, and pg_regress keeps the last --dbname.
make_var() {
	make -s --no-print-directory -C "$SRC" -f Makefile -f - PGXS= "print-$1" <<'EOF'
print-%:
	@echo '$($*)'
EOF
}

# Stop the instances an interrupted run left behind (pg_regress's temp
# instances, TAP clusters), remove WORK.
cleanup() {
	local rc=$? pid
	[ -n "$WORK" ] && [ -d "$WORK" ] || exit "$rc"
	for pid in "$WORK"/*/instance/data/postmaster.pid "$WORK"/tap/tmp_check/t_*_data/pgdata/postmaster.pid; do
		[ -f "$pid" ] || continue
		as_pg "$INST$PG_BIN/pg_ctl" -D "$(dirname "$pid")" -m immediate -w stop >/dev/null 2>&1 || true
	done
	remove_storage_rigs
	if mountpoint -q "$WORK/smallfs" 2>/dev/null; then
		umount "$WORK/smallfs" || true
	fi
	if [ "${IOBENCH_KEEP_TMP:-0}" = 1 ]; then
		say "kept $WORK"
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}

# Build the extension in the checkout, as the invoking user.
build() {
	say "building for $PG_VERSION_TEXT ($PG_CONFIG)"
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG"
}

# Copy the PostgreSQL installation into $INST and install iobench there (DESTDIR install).
make_install_tree() {
	say "private install tree in $INST"
	private_install_tree "$SRC" "$INST" || die "no private install tree"
}

# Copy the pg_regress and isolation inputs (postgres may not be able to read
# the checkout); arguments: the tests to run (regress and isolation names).
copy_inputs() {
	mkdir -p "$WORK/input" "$WORK/output" "$WORK/isolation"
	local d
	for d in sql expected input output data specs; do
		if [ -d "$SRC/$d" ]; then cp -r "$SRC/$d" "$WORK/input/"; fi
	done
	cp "$SRC/test/regress.conf" "$WORK/regress.conf"
	# Tests create tablespaces in $PG_ABS_BUILDDIR/testtablespace (the output
	# directory), as PostgreSQL's own suite does; its Makefile makes the directory.
	# A second one lets tests compare two tablespaces.
	mkdir -p "$WORK/output/testtablespace" "$WORK/output/testtablespace2"
	# A new test without expected output yet: diff against an empty file, so
	# the whole output is shown and lands in results/ to be reviewed.
	local t
	mkdir -p "$WORK/input/expected"
	for t in "$@"; do
		if [ ! -f "$WORK/input/expected/$t.out" ]; then
			say "WARNING: no expected/$t.out, the test will fail"
			touch "$WORK/input/expected/$t.out"
		fi
	done
}

# Storage rigs for the TAP tests that need storage of a known kind, made
# as root before the tests drop to "postgres" (losetup, mount): an ext4 file
# system on a loop device of its own, idle but for the test (initialised
# in full by mkfs, so no lazy inode-table writes run in the background)
# (IOBENCH_TEST_LOOP_DIR, its device in IOBENCH_TEST_LOOP_DEV), a second
# small one (IOBENCH_TEST_LOOP2_DIR, IOBENCH_TEST_LOOP2_DEV), and a small
# tmpfs (IOBENCH_TEST_TMPFS_DIR), and a cgroup-v1 blkio group whose
# throttle files and cgroup.procs "postgres" may write, to put a test's
# server under a known IOPS limit (IOBENCH_TEST_BLKIO_CGROUP), and the
# latency disk (IOBENCH_TEST_LATENCY_*: make_latency_rig).  Each
# directory is given to "postgres".
# Without root, or where the kernel refuses (a container), the variables
# stay unset and those tests skip, saying why: IOBENCH_RIG_WHY has a line
# "VARIABLE: reason" for each rig that could not be made.
RIG_LOOP_DEV=
RIG_LOOP2_DEV=
RIG_MOUNTS=()
RIG_CGROUP=
RIG_WHY=
make_storage_rigs() {
	# (set by make_latency_rig only, never taken from the caller)
	unset IOBENCH_TEST_LATENCY_FAILED
	if [ "$(id -u)" -ne 0 ]; then
		local v
		for v in IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV IOBENCH_TEST_LOOP2_DIR IOBENCH_TEST_LOOP2_DEV \
			IOBENCH_TEST_TMPFS_DIR IOBENCH_TEST_BLKIO_CGROUP IOBENCH_TEST_LATENCY_DIR \
			IOBENCH_TEST_LATENCY_DEV IOBENCH_TEST_LATENCY_CONTROL; do
			rig_missing "$v" "tools/run-tests.sh runs as $(id -un), not as root (losetup, mount and cgroups need root)"
		done
		return 0
	fi
	local img=$WORK/rig-loop.img dir=$WORK/rig-loop tdir=$WORK/rig-tmpfs
	mkdir -p "$dir" "$tdir"
	if truncate -s 256M "$img" && RIG_LOOP_DEV=$(losetup -f --show "$img" 2>/dev/null) &&
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$RIG_LOOP_DEV" && mount -o noatime "$RIG_LOOP_DEV" "$dir"; then
		RIG_MOUNTS+=("$dir")
		chown postgres: "$dir"
		export IOBENCH_TEST_LOOP_DIR=$dir IOBENCH_TEST_LOOP_DEV=$RIG_LOOP_DEV
		say "storage rig: ext4 on $RIG_LOOP_DEV at $dir"
	else
		say "no loop-device rig (losetup or mount refused); tests that need one skip"
		rig_missing IOBENCH_TEST_LOOP_DIR "losetup or mount of a loop device was refused here"
		rig_missing IOBENCH_TEST_LOOP_DEV "losetup or mount of a loop device was refused here"
	fi
	# a second, small one: two disks under one run (t/034)
	local img2=$WORK/rig-loop2.img dir2=$WORK/rig-loop2
	mkdir -p "$dir2"
	if [ -n "${IOBENCH_TEST_LOOP_DIR:-}" ] && truncate -s 64M "$img2" &&
		RIG_LOOP2_DEV=$(losetup -f --show "$img2" 2>/dev/null) &&
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$RIG_LOOP2_DEV" && mount -o noatime "$RIG_LOOP2_DEV" "$dir2"; then
		RIG_MOUNTS+=("$dir2")
		chown postgres: "$dir2"
		export IOBENCH_TEST_LOOP2_DIR=$dir2 IOBENCH_TEST_LOOP2_DEV=$RIG_LOOP2_DEV
		say "storage rig: ext4 on $RIG_LOOP2_DEV at $dir2"
	else
		rig_missing IOBENCH_TEST_LOOP2_DIR "a second loop device could not be set up and mounted"
		rig_missing IOBENCH_TEST_LOOP2_DEV "a second loop device could not be set up and mounted"
	fi
	if mount -t tmpfs -o size=64m,mode=0700 iobench-rig "$tdir" 2>/dev/null; then
		RIG_MOUNTS+=("$tdir")
		chown postgres: "$tdir"
		export IOBENCH_TEST_TMPFS_DIR=$tdir
	else
		rig_missing IOBENCH_TEST_TMPFS_DIR "mounting a tmpfs was refused here"
	fi
	make_latency_rig
	local cg=/sys/fs/cgroup/blkio/iobench-test-$$
	if [ ! -f /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
		rig_missing IOBENCH_TEST_BLKIO_CGROUP \
			"no cgroup-v1 blkio hierarchy is mounted at /sys/fs/cgroup/blkio (a cgroup-v2-only system has none)"
	elif ! mkdir "$cg" 2>/dev/null; then
		rig_missing IOBENCH_TEST_BLKIO_CGROUP "could not create the group $cg"
	else
		RIG_CGROUP=$cg
		chown postgres: "$cg/cgroup.procs" "$cg/tasks" "$cg"/blkio.throttle.*_device
		export IOBENCH_TEST_BLKIO_CGROUP=$cg
	fi
}

# The latency disk (tools/latency_disk.sh): ext4 on a loop device over a
# FUSE file whose reads each take a fixed latency under a fixed number of
# slots, which the tests set through its control file (owned by
# "postgres").  Missing only where FUSE or loop devices are (the tests on
# it skip then); where both are there and it still cannot be made,
# IOBENCH_TEST_LATENCY_FAILED says so and those tests fail.
RIG_LATENCY=
make_latency_rig() {
	local dir=$WORK/rig-latency out why='' v
	if [ ! -c /dev/fuse ]; then
		why="no /dev/fuse: FUSE is not available here"
	elif [ -z "${IOBENCH_TEST_LOOP_DEV:-}" ]; then
		why="losetup or mount of a loop device was refused here"
	fi
	if [ -n "$why" ]; then
		for v in IOBENCH_TEST_LATENCY_DIR IOBENCH_TEST_LATENCY_DEV IOBENCH_TEST_LATENCY_CONTROL; do
			rig_missing "$v" "$why"
		done
	elif out=$("$SRC/tools/latency_disk.sh" start "$dir" --owner postgres); then
		RIG_LATENCY=$dir
		IOBENCH_TEST_LATENCY_DIR=$(sed -n 's/^MNT=//p' <<<"$out")
		IOBENCH_TEST_LATENCY_DEV=$(sed -n 's/^DEV=//p' <<<"$out")
		IOBENCH_TEST_LATENCY_CONTROL=$(sed -n 's/^CONTROL=//p' <<<"$out")
		export IOBENCH_TEST_LATENCY_DIR IOBENCH_TEST_LATENCY_DEV IOBENCH_TEST_LATENCY_CONTROL
		say "storage rig: latency disk, ext4 on $IOBENCH_TEST_LATENCY_DEV at $IOBENCH_TEST_LATENCY_DIR"
	else
		export IOBENCH_TEST_LATENCY_FAILED="tools/latency_disk.sh start failed with /dev/fuse and loop devices present (its messages are in the runner's output)"
		say "no latency disk: tools/latency_disk.sh start failed; tests on it fail"
	fi
}

# Note why the rig of variable $1 is missing ($2), for the skip message of
# the tests that need it (IOBENCH_RIG_WHY).
rig_missing() {
	RIG_WHY+="$1: $2"$'\n'
	export IOBENCH_RIG_WHY=$RIG_WHY
}

# Unmount the rigs and free the loop device; safe to call twice.
remove_storage_rigs() {
	local m
	if [ -n "$RIG_LATENCY" ]; then "$SRC/tools/latency_disk.sh" stop "$RIG_LATENCY" || true; fi
	RIG_LATENCY=
	for m in "${RIG_MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	RIG_MOUNTS=()
	if [ -n "$RIG_LOOP_DEV" ]; then losetup -d "$RIG_LOOP_DEV" 2>/dev/null || true; fi
	if [ -n "$RIG_LOOP2_DEV" ]; then losetup -d "$RIG_LOOP2_DEV" 2>/dev/null || true; fi
	RIG_LOOP_DEV=
	RIG_LOOP2_DEV=
	# the servers in it are stopped by now: the group is empty
	if [ -n "$RIG_CGROUP" ]; then rmdir "$RIG_CGROUP" 2>/dev/null || true; fi
	RIG_CGROUP=
}

# Copy the TAP tests into $WORK/tap (prove runs there; logs in tmp_check/).
# The port lock directory is shared by every checkout on the machine, so
# clusters of parallel runs never pick the same port.
copy_tap_inputs() {
	PORT_LOCKS=${IOBENCH_TMPDIR:-/var/tmp}/iobench-tap-portlock
	mkdir -p "$PORT_LOCKS" && chmod 1777 "$PORT_LOCKS" 2>/dev/null || true
	mkdir -p "$WORK/tap"
	cp -r "$SRC/t" "$WORK/tap/"
	# the test data pg_regress reads too (t/../data, as in the checkout)
	if [ -d "$SRC/data" ]; then cp -r "$SRC/data" "$WORK/tap/"; fi
	cp "$SRC/test/regress.conf" "$WORK/tap/regress.conf"
	# what t/050_meta.pl, t/060_reference.pl and t/061_doc_examples.pl read (t/.. is the
	# checkout's top)
	mkdir -p "$WORK/tap/doc"
	cp "$SRC/META.json" "$SRC/iobench.control" "$SRC/LICENSE" "$WORK/tap/"
	cp "$SRC/doc/iobench.md" "$SRC/doc/reference.md" "$SRC/doc/methodology.md" "$WORK/tap/doc/"
	cp "$SRC/README.md" "$WORK/tap/"
	# and the licence each source file and the Debian package state
	mkdir -p "$WORK/tap/debian" "$WORK/tap/sql"
	cp "$SRC/debian/copyright" "$SRC/debian/changelog" "$WORK/tap/debian/"
	cp -r "$SRC/src" "$WORK/tap/"
	cp -r "$SRC/sql/install" "$WORK/tap/sql/"
}

# Copy an output directory's diffs, results and logs into the checkout and
# print the diffs and the server log; argument: the output directory.
report_failure() {
	local out=$1 f kept=()
	for f in regression.diffs regression.out results log; do
		if [ -e "$out/$f" ]; then
			cp -r "$out/$f" "$SRC/"
			kept+=("$f")
		fi
	done
	if [ -s "$out/regression.diffs" ]; then
		echo "======================== regression.diffs ========================"
		cat "$out/regression.diffs"
	fi
	# The server log; initdb's only when there is no server log (initdb failed).
	for f in "$out"/log/postmaster.log "$out"/log/initdb.log; do
		[ -s "$f" ] || continue
		echo "======================== ${f#"$out"/} ========================"
		cat "$f"
		break
	done
	echo "=================================================================="
	say "FAILED; kept ${kept[*]:-nothing} in $SRC"
}

# Copy the TAP logs into the checkout and print those of the failed tests;
# arguments: the names of the failed tests (t/<name>.pl).
report_tap_failure() {
	local logs=$WORK/tap/tmp_check/log t f
	rm -rf "$SRC/tmp_check"
	[ -d "$WORK/tap/tmp_check" ] && cp -r "$WORK/tap/tmp_check" "$SRC/"
	for t in "$@"; do
		# regress_log_<test>: the test's own log; then the logs of its nodes.
		for f in "$logs/regress_log_$t" "$logs/${t}"_*.log; do
			[ -s "$f" ] || continue
			echo "======================== tmp_check/log/${f##*/} ========================"
			cat "$f"
		done
	done
	echo "=================================================================="
	say "TAP FAILED: ${*}; kept tmp_check in $SRC"
}

PASSED=0
FAILED=0
SKIPPED=()		# TAP tests that skipped (counted as passed), with the reason

# Under IOBENCH_EXPECTED_SKIPS, count each skipped TAP test that it does not
# name as failed, saying so; false when there was one.
check_skips() {
	local s name unexpected=0 may
	[ -n "${IOBENCH_EXPECTED_SKIPS+set}" ] || return 0
	# shellcheck disable=SC2086 # unquoted on purpose: one space between names
	may=$(echo $IOBENCH_EXPECTED_SKIPS)
	may=${may:-none}
	for s in "${SKIPPED[@]}"; do
		name=${s%%:*}
		case " $IOBENCH_EXPECTED_SKIPS " in
		*" $name "*) continue ;;
		esac
		say "UNEXPECTED SKIP of $name: the tests that may skip here (IOBENCH_EXPECTED_SKIPS) are: $may"
		PASSED=$((PASSED - 1))
		FAILED=$((FAILED + 1))
		unexpected=1
	done
	[ "$unexpected" -eq 0 ]
}

# Count the passed and failed tests of a pg_regress-style log: 15 prints
# "name ... ok", 16 and later "ok N - name" and "not ok N - name".
count_regress_log() {
	local log=$1 p f
	p=$(grep -cE '\.\.\. ok( |$)|^ok [0-9]+ ' "$log" || true)
	f=$(grep -cE '\.\.\. (FAILED|failed)|^not ok [0-9]+ ' "$log" || true)
	PASSED=$((PASSED + p))
	FAILED=$((FAILED + f))
}

# Run pg_regress or pg_isolation_regress on a temp instance; arguments: the
# program, its output directory, then the tests.  Returns its status.
run_regress() {
	local prog=$1 out=$2 rc=0 opts=()
	shift 2
	mkdir -p "$out"
	if [ "$(id -u)" -eq 0 ]; then chown postgres: "$out"; fi
	read -ra opts <<<"$(make_var REGRESS_OPTS)"
	# TMPDIR: pg_regress puts the instance's Unix socket there.
	(cd "$WORK" && as_pg env TMPDIR="$WORK" "$prog" \
		--temp-instance="$out/instance" \
		--temp-config="$WORK/regress.conf" \
		--bindir="$INST$PG_BIN" \
		--inputdir="$WORK/input" \
		--outputdir="$out" \
		--no-locale --encoding=UTF8 \
		"${opts[@]}" \
		"$@") 2>&1 | tee "$out/run.log" || rc=$?
	count_regress_log "$out/run.log"
	return "$rc"
}

# Run prove on TAP test files with the environment the tests expect;
# arguments: the log to append its output to (also printed), the small file
# system's path (or empty), prove's options, then the files.
# PostgreSQL::Test::Cluster finds initdb and postgres in PATH: the private
# tree's bin directory comes first.  Returns prove's status.
prove_tap() {
	local log=$1 small_fs=$2 rc=0
	shift 2
	# 15 and 16 put data and logs under $TESTDIR/tmp_check; 17 and later
	# where TESTDATADIR and TESTLOGDIR say (else ./tmp_check and ./log):
	# the same place on every release, where cleanup and reports look
	(cd "$WORK/tap" && as_pg env TMPDIR="$WORK" \
		IOBENCH_SMALL_FS="$small_fs" \
		PATH="$INST$PG_BIN:$PATH" \
		TESTDIR="$WORK/tap" \
		TESTDATADIR="$WORK/tap/tmp_check" TESTLOGDIR="$WORK/tap/tmp_check/log" \
		PG_REGRESS="$PG_REGRESS" \
		IOBENCH_REGRESS_CONF="$WORK/tap/regress.conf" \
		IOBENCH_CHECKOUT="$SRC" \
		IOBENCH_TEST_LOOP_DIR="${IOBENCH_TEST_LOOP_DIR:-}" \
		IOBENCH_TEST_LOOP_DEV="${IOBENCH_TEST_LOOP_DEV:-}" \
		IOBENCH_TEST_TMPFS_DIR="${IOBENCH_TEST_TMPFS_DIR:-}" \
		IOBENCH_TEST_BLKIO_CGROUP="${IOBENCH_TEST_BLKIO_CGROUP:-}" \
		IOBENCH_TEST_LATENCY_DIR="${IOBENCH_TEST_LATENCY_DIR:-}" \
		IOBENCH_TEST_LATENCY_DEV="${IOBENCH_TEST_LATENCY_DEV:-}" \
		IOBENCH_TEST_LATENCY_CONTROL="${IOBENCH_TEST_LATENCY_CONTROL:-}" \
		IOBENCH_TEST_LATENCY_FAILED="${IOBENCH_TEST_LATENCY_FAILED:-}" \
		PG_TEST_PORT_DIR="$PORT_LOCKS" \
		prove --timer -I "$PG_TAP_PERL" -I "$WORK/tap" "$@") 2>&1 |
		tee -a "$log" || rc=$?
	return "$rc"
}

# Print the first test of the first queue file (one test a line) that
# has one, and remove it from there; false when all are empty.  Call it
# under the queue's lock.
take_test() {
	local q t
	for q in "$@"; do
		t=$(head -n 1 "$q")
		if [ -n "$t" ]; then
			sed -i 1d "$q"
			echo "$t"
			return 0
		fi
	done
	return 1
}

# One lane of TAP tests run at once: it runs one test after the other,
# each taken from the first of the queue files named that still has one;
# arguments: the small file system's path (or empty), then the queue
# files.  Each test's output is printed and added to prove.log when it
# ends, under the queue's lock (so lanes do not mix their lines).
# Returns false when one of its tests failed.
tap_lane() {
	local small_fs=$1 t tlog rc=0
	shift
	while t=$( { flock 9 && take_test "$@"; } 9>"$WORK/tap/queue.lock"); do
		tlog=$(mktemp "$WORK/tap/prove.XXXXXX")
		prove_tap "$tlog" "$small_fs" "$t" >/dev/null || rc=1
		# (without prove's closing lines of a passed file: one a test)
		{ flock 9 && grep -vE '^(All tests successful\.$|Files=[0-9]+, Tests=|Result: PASS$|\[[0-9:]+\]$)' "$tlog" |
			tee -a "$WORK/tap/prove.log"; } 9>"$WORK/tap/queue.lock" || true
		rm -f "$tlog"
	done
	return "$rc"
}

# Run the TAP tests (t/<name>.pl) with prove; arguments: the test names.
# With IOBENCH_TAP_JOBS=N (N > 1), N lanes run tests at once, each taking
# the next test when its last one ends, but tests that share something of
# the machine never overlap: those on the storage rigs or the small file
# system (one loop device, one blkio throttle, one tmpfs, one latency
# disk for all) are run
# by the first lane only, before it takes any other; those that crash a
# server or stop it with -m immediate run alone afterwards, since the
# shared memory segments a crash leaves until the restart would count as
# another test's leftovers (iob_assert_clean), and so do those on the
# latency disk, whose rates within 15 % of min(N, K) / L need the CPU for
# the rig's path between the reader and the disk (under io_method worker
# on 19, 0.79 to 0.83 in four tries beside another lane's test).  (prove -j's own --rules
# gave the rig tests their turn only once every other test had started.)
# Returns prove's status.
run_tap() {
	local rc=0 t f jobs=${IOBENCH_TAP_JOBS:-1} files=() shared=() alone=() failed=() small_fs=
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "IOBENCH_TAP_JOBS must be a positive number, not \"$jobs\""
	for t in "$@"; do
		f=t/$t.pl
		if [ "$jobs" -gt 1 ] && grep -qE "kill 'KILL'|immediate|iob_latency_disk\(" "$SRC/$f"; then
			alone+=("$f")
		elif [ "$jobs" -gt 1 ] && grep -qE 'iob_need_rigs|iob_small_fs|iob_latency_disk|IOBENCH_TEST_|IOBENCH_SMALL_FS' "$SRC/$f"; then
			shared+=("$f")
		else
			files+=("$f")
		fi
	done
	make_storage_rigs
	# a small file system for the free-space tests (mounting needs root)
	if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/smallfs" &&
		mount -t tmpfs -o size=160M,mode=0700 tmpfs "$WORK/smallfs"; then
		chown postgres: "$WORK/smallfs"
		small_fs=$WORK/smallfs
	fi
	local log=$WORK/tap/prove.log
	: >"$log"
	if [ "$jobs" -gt 1 ]; then
		local i pids=() rigs_q=$WORK/tap/queue-rigs others_q=$WORK/tap/queue-others
		say "$jobs at a time; in the first lane only: ${shared[*]#t/}; alone afterwards: ${alone[*]#t/}"
		printf '%s\n' "${shared[@]}" | sed '/^$/d' >"$rigs_q"
		printf '%s\n' "${files[@]}" | sed '/^$/d' >"$others_q"
		tap_lane "$small_fs" "$rigs_q" "$others_q" &
		pids+=($!)
		for ((i = 2; i <= jobs; i++)); do
			tap_lane "$small_fs" "$others_q" &
			pids+=($!)
		done
		for i in "${pids[@]}"; do
			wait "$i" || rc=1
		done
		[ "${#alone[@]}" -eq 0 ] || prove_tap "$log" "$small_fs" "${alone[@]}" || rc=$?
	else
		prove_tap "$log" "$small_fs" "${files[@]}" || rc=$?
	fi
	remove_storage_rigs
	for t in "$@"; do
		# (prove --timer starts each line with the time: "[hh:mm:ss] ")
		if grep -qE "^(\[[0-9:]+\] )?t/$t\.pl \.+ ok" "$WORK/tap/prove.log"; then
			PASSED=$((PASSED + 1))
		elif grep -qE "^(\[[0-9:]+\] )?t/$t\.pl \.+ skipped" "$WORK/tap/prove.log"; then
			PASSED=$((PASSED + 1))
			SKIPPED+=("$(sed -nE "s/^(\[[0-9:]+\] )?t\/$t\.pl \.+ skipped: /$t: /p" "$WORK/tap/prove.log")")
		else
			FAILED=$((FAILED + 1))
			failed+=("$t")
		fi
	done
	[ "${#failed[@]}" -eq 0 ] || report_tap_failure "${failed[@]}"
	[ "${#failed[@]}" -eq 0 ] || [ "$rc" -ne 0 ] || rc=1
	return "$rc"
}

# Run one kind of test; arguments: its name for the FAILED line, the output
# directory to report on failure (empty: the runner reports itself), then
# the command.  A failure is noted in main's "bad" and "rc" (bash functions
# see their caller's locals); an interrupt ends the script.
run_kind() {
	local name=$1 out=$2 r=0
	shift 2
	"$@" || r=$?
	[ "$r" -lt 128 ] || { say "interrupted"; exit "$r"; }
	if [ "$r" -ne 0 ]; then
		[ -z "$out" ] || report_failure "$out"
		bad+=("$name")
		rc=$r
	fi
}

main() {
	local args=("$@") all_regress all_isolation all_tap t
	local regress=() isolation=() tap=()
	"$SRC/tools/deps.sh"
	pg_dirs || die "no PostgreSQL to test on"
	PG_REGRESS=$PG_LIB/pgxs/src/test/regress/pg_regress
	PG_ISOLATION_REGRESS=$PG_LIB/pgxs/src/test/isolation/pg_isolation_regress
	PG_TAP_PERL=$PG_LIB/pgxs/src/test/perl
	[ -x "$PG_REGRESS" ] || die "pg_regress not found at $PG_REGRESS"
	read -ra all_regress <<<"$(make_var REGRESS)"
	read -ra all_isolation <<<"$(make_var ISOLATION)"
	all_tap=()
	if [ -n "$(make_var TAP_TESTS)" ] && [ -d "$SRC/t" ]; then
		for t in "$SRC"/t/*.pl; do
			[ -f "$t" ] && all_tap+=("$(basename "$t" .pl)")
		done
	fi
	if [ "${#args[@]}" -eq 0 ]; then
		regress=("${all_regress[@]}")
		isolation=("${all_isolation[@]}")
		tap=("${all_tap[@]}")
	else
		for t in "${args[@]}"; do
			if [ "$t" = pg_regress ]; then
				regress+=("${all_regress[@]}")
			elif [ "$t" = tap ]; then
				[ "${#all_tap[@]}" -gt 0 ] || die "\"tap\": no TAP tests (TAP_TESTS unset or t/ empty)"
				tap+=("${all_tap[@]}")
			elif [ -f "$SRC/sql/$t.sql" ]; then
				regress+=("$t")
			elif [ -f "$SRC/specs/$t.spec" ]; then
				isolation+=("$t")
			elif [ -f "$SRC/t/$t.pl" ]; then
				tap+=("$t")
			else
				die "no such test: sql/$t.sql, specs/$t.spec or t/$t.pl"
			fi
		done
		# The other pg_regress tests need what "setup" creates (the extension).
		if [ "${#regress[@]}" -gt 0 ] && [[ " ${all_regress[*]} " == *" setup "* &&
			" ${regress[*]} " != *" setup "* ]]; then
			regress=(setup "${regress[@]}")
		fi
	fi
	[ $((${#regress[@]} + ${#isolation[@]} + ${#tap[@]})) -gt 0 ] ||
		die "no tests: REGRESS, ISOLATION and t/ are empty"
	if [ "${#isolation[@]}" -gt 0 ]; then
		[ -x "$PG_ISOLATION_REGRESS" ] || die "pg_isolation_regress not found at $PG_ISOLATION_REGRESS"
	fi

	rm -rf "$SRC/regression.diffs" "$SRC/regression.out" "$SRC/results" "$SRC/log" "$SRC/tmp_check"
	build

	trap cleanup EXIT
	trap 'exit 130' INT TERM
	WORK=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-test.XXXXXX")
	INST=$WORK/inst
	make_install_tree
	copy_inputs "${regress[@]}" "${isolation[@]}"
	[ "${#tap[@]}" -eq 0 ] || copy_tap_inputs
	if [ "$(id -u)" -eq 0 ]; then
		chown -R postgres: "$WORK"
	fi

	local rc=0 bad=()
	if [ "${#regress[@]}" -gt 0 ]; then
		say "pg_regress ${regress[*]}"
		run_kind pg_regress "$WORK/output" \
			run_regress "$PG_REGRESS" "$WORK/output" "${regress[@]}"
	fi
	if [ "${#isolation[@]}" -gt 0 ]; then
		say "pg_isolation_regress ${isolation[*]}"
		run_kind isolation "$WORK/isolation" \
			run_regress "$PG_ISOLATION_REGRESS" "$WORK/isolation" "${isolation[@]}"
	fi
	if [ "${#tap[@]}" -gt 0 ]; then
		say "prove ${tap[*]}"
		run_kind TAP "" run_tap "${tap[@]}"
	fi
	# What did not run here, and why (a skip counts as passed unless it
	# was not expected)
	for t in "${SKIPPED[@]}"; do say "skipped $t"; done
	if ! check_skips; then
		rc=1
		bad+=("unexpected skips")
	fi
	# One closing line that any CI can read: "N passed, N failed".
	echo "run-tests: $PASSED passed, $FAILED failed"
	if [ "$rc" -ne 0 ]; then
		say "FAILED: ${bad[*]}"
		exit "$rc"
	fi
}

main "$@"
