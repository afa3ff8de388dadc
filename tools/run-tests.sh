#!/usr/bin/env bash
# run-tests.sh — build iobench and run its pg_regress suite on a private instance.
#
#   tools/run-tests.sh                 all tests named by REGRESS in the Makefile
#   tools/run-tests.sh run_patterns    only these tests (names of sql/<name>.sql),
#                                      preceded by "setup" when REGRESS has it
#
# It tests on the PostgreSQL installation that PG_CONFIG names (environment
# or `make test PG_CONFIG=...`; default: Debian's PostgreSQL 15, see
# tools/pg_dirs.sh).  Nothing touches that installation: its binaries,
# libraries and share files are copied into a private install tree in a
# temporary directory, iobench is installed there with DESTDIR, and pg_regress
# starts a throwaway instance from that tree (--temp-instance) with
# test/regress.conf, which preloads iobench.  Several checkouts can test at once.
#
# As root, the temporary directory is given to the "postgres" user and
# pg_regress runs as that user (initdb refuses root); otherwise it runs as you.
#
# On failure, regression.diffs, regression.out, results/ and log/ (initdb and
# server logs) land in the checkout root; diffs and the server log are printed.
#
# Environment:
#   PG_CONFIG=path       pg_config of the PostgreSQL to test on (15 to 19)
#   WERROR=1             build with -Werror (CI does)
#   IOBENCH_TMPDIR=dir   parent of the temporary directory (default /var/tmp,
#                        disk-backed, so direct I/O works; /tmp may be tmpfs)
#   IOBENCH_KEEP_TMP=1   keep the temporary directory afterwards
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=private_install.sh
. "$SRC/tools/private_install.sh"
PG_REGRESS=
WORK=
INST=

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

# Stop a temp instance left running by an interrupted pg_regress, remove WORK.
cleanup() {
	local rc=$?
	[ -n "$WORK" ] && [ -d "$WORK" ] || exit "$rc"
	if [ -f "$WORK/instance/data/postmaster.pid" ]; then
		as_pg "$INST$PG_BIN/pg_ctl" -D "$WORK/instance/data" -m immediate -w stop >/dev/null 2>&1 || true
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

# Copy the pg_regress inputs (postgres may not be able to read the checkout);
# arguments: the tests to run.
copy_inputs() {
	mkdir -p "$WORK/input" "$WORK/output"
	local d
	for d in sql expected input output data; do
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

# Copy pg_regress's outputs into the checkout and print the diffs and logs.
report_failure() {
	local out=$WORK/output f kept=()
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

main() {
	local tests=("$@") all t opts
	"$SRC/tools/deps.sh"
	pg_dirs || die "no PostgreSQL to test on"
	PG_REGRESS=$PG_LIB/pgxs/src/test/regress/pg_regress
	[ -x "$PG_REGRESS" ] || die "pg_regress not found at $PG_REGRESS"
	read -ra all <<<"$(make_var REGRESS)"
	if [ "${#tests[@]}" -eq 0 ]; then
		tests=("${all[@]}")
	elif [[ " ${all[*]} " == *" setup "* && " ${tests[*]} " != *" setup "* ]]; then
		# The other tests need what "setup" creates (the extension).
		tests=(setup "${tests[@]}")
	fi
	[ "${#tests[@]}" -gt 0 ] || die "no tests: REGRESS in the Makefile is empty"
	for t in "${tests[@]}"; do
		[ -f "$SRC/sql/$t.sql" ] || die "no such test: sql/$t.sql"
	done
	read -ra opts <<<"$(make_var REGRESS_OPTS)"

	rm -rf "$SRC/regression.diffs" "$SRC/regression.out" "$SRC/results" "$SRC/log"
	build

	trap cleanup EXIT
	trap 'exit 130' INT TERM
	WORK=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-test.XXXXXX")
	INST=$WORK/inst
	make_install_tree
	copy_inputs "${tests[@]}"
	if [ "$(id -u)" -eq 0 ]; then
		chown -R postgres: "$WORK"
	fi

	say "pg_regress ${tests[*]}"
	local rc=0
	# TMPDIR: pg_regress puts the instance's Unix socket there.
	(cd "$WORK" && as_pg env TMPDIR="$WORK" "$PG_REGRESS" \
		--temp-instance="$WORK/instance" \
		--temp-config="$WORK/regress.conf" \
		--bindir="$INST$PG_BIN" \
		--inputdir="$WORK/input" \
		--outputdir="$WORK/output" \
		--no-locale --encoding=UTF8 \
		"${opts[@]}" \
		"${tests[@]}") 2>&1 | tee "$WORK/pg_regress.log" || rc=$?
	# One closing line that any CI can read: "N passed, N failed".
	if [ -f "$WORK/pg_regress.log" ]; then
		local passed failed
		# pg_regress 15 prints "name ... ok", 16 and later "ok N - name".
		passed=$(grep -cE '\.\.\. ok( |$)|^ok [0-9]+ ' "$WORK/pg_regress.log" || true)
		failed=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' "$WORK/pg_regress.log" || true)
		echo "run-tests: $passed passed, $failed failed"
	fi
	if [ "$rc" -ge 128 ]; then
		say "interrupted"
		exit "$rc"
	elif [ "$rc" -ne 0 ]; then
		report_failure
		exit "$rc"
	fi
}

main "$@"
