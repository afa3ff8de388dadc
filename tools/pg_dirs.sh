#!/usr/bin/env bash
# pg_dirs.sh — which PostgreSQL installation iobench builds against, tests
# and benchmarks on: the one rule shared by the Makefile and tools/*.sh.
#
#   . tools/pg_dirs.sh
#   pg_dirs        sets PG_CONFIG (exported), PG_BIN, PG_LIB (pkglibdir),
#                  PG_SHARE, PG_MAJOR and PG_VERSION_TEXT
#   tools/pg_dirs.sh
#                  prints the pg_config to use (the Makefile's default)
#
# The pg_config is, in this order:
#   1. the one PG_CONFIG names (environment, or `make ... PG_CONFIG=...`,
#      which exports it to the scripts it runs);
#   2. Debian's PostgreSQL 15, /usr/lib/postgresql/15/bin/pg_config, when
#      installed;
#   3. a pg_config on PATH that belongs to a server installation: it runs and
#      its PGXS makefile exists (libpq-dev's /usr/bin/pg_config alone does
#      not count);
#   4. otherwise Debian's PostgreSQL 15 all the same: on a fresh Debian,
#      tools/deps.sh (make's "deps" step) installs it there.
# Everything else is asked of that pg_config, so a packaged server of any
# release or a source build works alike.

# Debian's PostgreSQL 15: the default, installed when missing.
PG_DIRS_DEFAULT=/usr/lib/postgresql/15/bin/pg_config

# Does pg_config $1 belong to a server installation with its headers?
pg_dirs_usable() {
	local pgxs
	pgxs=$("$1" --pgxs 2>/dev/null) && [ -f "$pgxs" ]
}

# Print the pg_config to use.
pg_dirs_config() {
	local found
	if [ -n "${PG_CONFIG:-}" ]; then
		echo "$PG_CONFIG"
	elif [ -x "$PG_DIRS_DEFAULT" ]; then
		echo "$PG_DIRS_DEFAULT"
	elif found=$(command -v pg_config) && pg_dirs_usable "$found"; then
		echo "$found"
	else
		echo "$PG_DIRS_DEFAULT"
	fi
}

# Set PG_CONFIG, PG_BIN, PG_LIB, PG_SHARE, PG_MAJOR and PG_VERSION_TEXT;
# fail with a message when that pg_config cannot be run.
pg_dirs() {
	PG_CONFIG=$(pg_dirs_config)
	export PG_CONFIG
	if ! PG_VERSION_TEXT=$("$PG_CONFIG" --version 2>/dev/null); then
		echo "pg_dirs.sh: cannot run pg_config \"$PG_CONFIG\" (set PG_CONFIG to a PostgreSQL 15 to 19 pg_config)" >&2
		return 1
	fi
	PG_BIN=$("$PG_CONFIG" --bindir)
	PG_LIB=$("$PG_CONFIG" --pkglibdir)
	PG_SHARE=$("$PG_CONFIG" --sharedir)
	PG_MAJOR=$(sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p' <<<"$PG_VERSION_TEXT")
}

# Run, not sourced: print the pg_config to use.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	pg_dirs_config
fi
