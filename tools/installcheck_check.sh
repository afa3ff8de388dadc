#!/usr/bin/env bash
# installcheck_check.sh BINDIR DIR... — what `make installcheck` needs from
# the server, checked before pg_regress runs (the Makefile's
# installcheck-prep calls it), each failure said with what to do:
#
#   1. a server answers where libpq's environment points (PGHOST, PGPORT:
#      pg_isready of BINDIR);
#   2. that server can make a tablespace in each DIR (the suite's
#      testtablespace directories): a probe tablespace is created there and
#      dropped at once, by PGUSER, who must be a superuser.  This is exactly
#      what the suite does first; it fails when the server's user cannot
#      reach DIR (a directory above it without search permission, such as a
#      checkout under /root) or does not own it.
#
# On failure it names the directories above DIR that others cannot search.
# The probe leaves DIR empty, owned by the server's user.
set -euo pipefail

PROBE=iobench_installcheck_probe

# Print an error with its hint, then exit.
fail() {
	echo "installcheck: ERROR: $1" >&2
	shift
	local h
	for h in "$@"; do echo "installcheck: HINT: $h" >&2; done
	exit 1
}

# Print where libpq's environment points, for messages.
target() {
	local host=${PGHOST:-} port=${PGPORT:-}
	[ -n "$host" ] || host="(the default socket directory of libpq)"
	[ -n "$port" ] || port="5432 (the default)"
	echo "host $host, port $port"
}

# Print the directories from / down to DIR that others may not search.
closed_parents() {
	local d=$1 mode
	while [ "$d" != / ] && [ -n "$d" ]; do
		d=$(dirname "$d")
		mode=$(stat -c '%A %U' "$d")
		[ "${mode:9:1}" = x ] || [ "${mode:9:1}" = t ] || echo "$d ($mode)"
	done
}

[ $# -ge 2 ] || { echo "usage: $0 BINDIR DIR..." >&2; exit 2; }
bindir=$1
shift

where=$(target)
rc=0
"$bindir/pg_isready" -q || rc=$?
case $rc in
0) ;;
1) fail "the server at $where is not accepting connections yet (starting up or shutting down)" \
	"Wait for it to start, then run make installcheck again." ;;
*) fail "no server answers at $where" \
	"Start the server that has iobench installed, or name it: PGHOST=/var/run/postgresql PGPORT=5433 PGUSER=postgres make installcheck (CONTRIBUTING.md, \"make installcheck\")." ;;
esac

for dir in "$@"; do
	dir=$(cd "$dir" && pwd)
	quoted=${dir//"'"/"''"}
	if ! out=$("$bindir/psql" -X -q -d template1 -v ON_ERROR_STOP=1 \
		-c "SET client_min_messages = warning" \
		-c "DROP TABLESPACE IF EXISTS $PROBE" \
		-c "CREATE TABLESPACE $PROBE LOCATION '$quoted'" \
		-c "DROP TABLESPACE $PROBE" 2>&1); then
		closed=$(closed_parents "$dir")
		hints=()
		if [ -n "$closed" ]; then
			hints+=("The server's user must be able to search every directory above $dir; others cannot search: $(echo "$closed" | paste -sd, - | sed 's/,/, /g').")
			hints+=("Clone the checkout where the server's user reaches it (such as under /var/tmp or /srv), or chmod o+x those directories.")
		fi
		hints+=("As root, make installcheck gives $dir to the user \"postgres\" (IOBENCH_SERVER_USER=name another); as another user, run it as the server's user, or give that user $dir.")
		hints+=("PGUSER must be a superuser of the server at $where.")
		fail "the server at $where cannot make a tablespace in $dir, as the suite does:
$out" "${hints[@]}"
	fi
done
