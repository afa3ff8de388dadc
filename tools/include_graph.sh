#!/bin/sh
# tools/include_graph.sh — the local-include graph of src/, and its cycles.
#
# A module is a pair src/NAME.c + src/NAME.h.  Module A depends on module B
# when src/A.c or src/A.h includes "B.h".  The script prints every edge
# ("A -> B"), then every cycle of the graph (each strongly connected
# component of more than one module), and exits with status 1 when there is
# a cycle that the allow-list below does not explain.
#
# It checks one more rule of the includes: PostgreSQL's version is tested in
# src/compat.h only (PG_VERSION_NUM); other files test the IOB_HAVE_* macros
# it defines, and so must include it (else such a test is silently false).
#
#   tools/include_graph.sh          the graph and the cycles
#   tools/include_graph.sh -q       the cycles only
#   make include-check              the same as -q, from the Makefile
#
# Run from anywhere; it reads the src/ next to this script.

set -eu
cd "$(dirname "$0")/.."

quiet=0
[ "${1:-}" = "-q" ] && quiet=1

# Edges left out of the cycle check, each with why it is allowed.  Start-up
# edges only: _PG_init (iobench.c) calls each subsystem's initialisation
# function, and those subsystems read the GUC variables iobench.h declares,
# so the two include each other without a layering problem — the GUCs and
# _PG_init are the entry point, not a layer of the run.
ALLOWED='
iobench run_limits	_PG_init calls iob_limits_init(); run_limits reads the GUCs
iobench wait_collector	_PG_init calls iob_wait_collector_init(); the collector reads the GUCs
'

edges=$(for f in src/*.c src/*.h; do
	from=$(basename "$f"); from=${from%.*}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
	while read -r to; do
		if [ "$to" != "$from" ] && [ -f "src/$to.h" ]; then
			echo "$from $to"
		fi
	done
done | sort -u)

if [ $quiet -eq 0 ]; then
	echo "$edges" | awk '{ print $1 " -> " $2 }'
	echo
fi

# Reachability (Warshall) over the edges not allowed, then the strongly
# connected components: modules that reach each other.
status=0
printf '%s\n---\n%s\n' "$ALLOWED" "$edges" | awk '
	BEGIN { n = 0 }
	/^---$/ { body = 1; next }
	!body { if (NF >= 2) allowed[$1 " " $2] = 1; next }
	NF == 2 {
		if (!($1 in id)) { id[$1] = n; name[n++] = $1 }
		if (!($2 in id)) { id[$2] = n; name[n++] = $2 }
		if (($1 " " $2) in allowed) { skipped++; next }
		r[id[$1], id[$2]] = 1
	}
	END {
		for (k = 0; k < n; k++)
			for (i = 0; i < n; i++)
				if (r[i, k])
					for (j = 0; j < n; j++)
						if (r[k, j]) r[i, j] = 1
		cycles = 0
		for (i = 0; i < n; i++) {
			if (done[i] || !r[i, i]) continue
			line = ""
			for (j = 0; j < n; j++)
				if (r[i, j] && r[j, i]) { done[j] = 1; line = line " " name[j] }
			print "cycle:" line
			cycles++
		}
		for (e in allowed)
			print "allowed (start-up): " e
		if (cycles) {
			print cycles " include cycle(s) in src/" > "/dev/stderr"
			exit 1
		}
		print "no include cycle in src/ but the allowed start-up edges"
	}' || status=1

for f in src/*.c src/*.h; do
	[ "$f" = src/compat.h ] && continue
	if grep -q 'PG_VERSION_NUM' "$f"; then
		echo "$f: tests PG_VERSION_NUM (that belongs in src/compat.h)" >&2
		status=1
	fi
	if grep -q 'IOB_HAVE_' "$f" && ! grep -q '^#include "compat.h"' "$f"; then
		echo "$f: tests IOB_HAVE_* without including compat.h" >&2
		status=1
	fi
done
exit $status
