# shellcheck shell=bash
# private_install.sh — PostgreSQL 15 with this checkout's iobench in a
# private tree, for scripts to source (tests and benchmarks), so nothing
# touches the system's PostgreSQL and several checkouts can work at once.
#
#   . tools/private_install.sh
#   private_install_tree SRC INST    fills INST; its binaries are in
#                                    $INST$PG15_BIN

PG15_BIN=/usr/lib/postgresql/15/bin
PG15_LIB=/usr/lib/postgresql/15/lib
PG15_SHARE=/usr/share/postgresql/15

# Copy PostgreSQL 15 into INST (same layout) and install SRC's iobench there
# with DESTDIR; fail when the copy would not find its own share/ and lib/.
private_install_tree() {
	local src=$1 inst=$2
	mkdir -p "$inst$PG15_BIN/.." "$inst$PG15_SHARE/.."
	# Real copies: postgres resolves symlinks to find its share and lib dirs.
	cp -rL "$PG15_BIN" "$PG15_LIB" "$inst$PG15_BIN/.."
	cp -rL "$PG15_SHARE" "$inst$PG15_SHARE/.."
	# Drop any iobench copied from a system install; only this build may be found.
	rm -rf "$inst$PG15_LIB"/iobench.so "$inst$PG15_LIB"/bitcode/iobench* \
		"$inst$PG15_SHARE"/extension/iobench[.-]*
	make -C "$src" -s install DESTDIR="$inst" >/dev/null

	if [ "$("$inst$PG15_BIN/pg_config" --sharedir)" != "$inst$PG15_SHARE" ] ||
		[ "$("$inst$PG15_BIN/pg_config" --pkglibdir)" != "$inst$PG15_LIB" ]; then
		echo "private_install.sh: the copied PostgreSQL does not resolve its directories inside $inst" >&2
		return 1
	fi
	if [ ! -f "$inst$PG15_LIB/iobench.so" ] || [ ! -f "$inst$PG15_SHARE/extension/iobench.control" ]; then
		echo "private_install.sh: make install DESTDIR=$inst did not install iobench there" >&2
		return 1
	fi
}
