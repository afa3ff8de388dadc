# shellcheck shell=bash
# private_install.sh — the PostgreSQL installation named by PG_CONFIG
# (tools/pg_dirs.sh) with this checkout's iobench, in a private tree, for
# scripts to source (tests and benchmarks), so nothing touches that
# installation and several checkouts can work at once.
#
#   . tools/private_install.sh
#   private_install_tree SRC INST    fills INST; its binaries are in
#                                    $INST$PG_BIN (pg_dirs has been called)

# shellcheck source=pg_dirs.sh
. "$(dirname "${BASH_SOURCE[0]}")/pg_dirs.sh"

# Copy the installation's bindir, pkglibdir and sharedir into INST (same
# layout under INST) and install SRC's iobench there with DESTDIR; fail when
# the copy would not find its own share/ and lib/.
private_install_tree() {
	local src=$1 inst=$2
	pg_dirs || return 1
	mkdir -p "$inst$PG_BIN/.." "$inst$PG_LIB/.." "$inst$PG_SHARE/.."
	# Real copies: postgres resolves symlinks to find its share and lib dirs.
	cp -rL "$PG_BIN" "$inst$PG_BIN/.."
	cp -rL "$PG_LIB" "$inst$PG_LIB/.."
	cp -rL "$PG_SHARE" "$inst$PG_SHARE/.."
	# Drop any iobench copied from an install; only this build may be found.
	rm -rf "$inst$PG_LIB"/iobench.so "$inst$PG_LIB"/bitcode/iobench* \
		"$inst$PG_SHARE"/extension/iobench[.-]*
	make -C "$src" -s install DESTDIR="$inst" PG_CONFIG="$PG_CONFIG" >/dev/null

	if [ "$("$inst$PG_BIN/pg_config" --sharedir)" != "$inst$PG_SHARE" ] ||
		[ "$("$inst$PG_BIN/pg_config" --pkglibdir)" != "$inst$PG_LIB" ]; then
		echo "private_install.sh: the copied PostgreSQL does not resolve its directories inside $inst" >&2
		return 1
	fi
	if [ ! -f "$inst$PG_LIB/iobench.so" ] || [ ! -f "$inst$PG_SHARE/extension/iobench.control" ]; then
		echo "private_install.sh: make install DESTDIR=$inst did not install iobench there" >&2
		return 1
	fi
}
