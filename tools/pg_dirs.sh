# shellcheck shell=bash
# pg_dirs.sh — which PostgreSQL installation the scripts build against, test
# and benchmark on, for scripts to source.
#
#   . tools/pg_dirs.sh
#   pg_dirs        sets PG_CONFIG (exported), PG_BIN, PG_LIB (pkglibdir),
#                  PG_SHARE, PG_MAJOR and PG_VERSION_TEXT
#
# The installation is the one whose pg_config PG_CONFIG names (from the
# environment, or `make ... PG_CONFIG=...`, which exports it to the scripts
# it runs); without it, the Makefile's default: Debian's PostgreSQL 15 when
# installed, else the pg_config on PATH.  Everything else is asked of that
# pg_config, so a packaged server of any release or a source build works alike.

# The Makefile's default, in the same order.
PG_DIRS_DEFAULT=/usr/lib/postgresql/15/bin/pg_config

# Print the pg_config to use.
pg_dirs_config() {
	if [ -n "${PG_CONFIG:-}" ]; then
		echo "$PG_CONFIG"
	elif [ -x "$PG_DIRS_DEFAULT" ]; then
		echo "$PG_DIRS_DEFAULT"
	else
		command -v pg_config || echo "$PG_DIRS_DEFAULT"
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
