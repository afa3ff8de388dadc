#!/bin/sh
# tools/include_graph.sh — the subsystems of src/, the direction of their
# includes, and the cycles of the local-include graph.
#
# src/ is seven subsystems, one folder each, under the entry point
# src/iobench.c (module magic and _PG_init).  The table below gives each
# its level and its one public header.  A file may include:
#   - any header of its own subsystem;
#   - the public header of a subsystem on a LOWER level (never one on its
#     own level or above, never another subsystem's inner header).
# src/iobench.c, the entry point, is above every subsystem.  A header that
# lies outside every subsystem, or an include that breaks these rules, fails
# the check.
#
# It also checks, as before the folders:
#   - no cycle between modules (a module is a pair NAME.c + NAME.h), inside a
#     subsystem or across;
#   - PostgreSQL's version is tested in src/base/compat.h only
#     (PG_VERSION_NUM); other files test the IOB_HAVE_* macros it defines, and
#     so must include it (else such a test is silently false).
#
#   tools/include_graph.sh          the subsystems, their edges, the verdict
#   tools/include_graph.sh -q       the verdict only (errors, if any)
#   make include-check              the same as -q, from the Makefile (CI)
#
# Run from anywhere; it reads the src/ next to this script.

set -eu
cd "$(dirname "$0")/.."

quiet=0
[ "${1:-}" = "-q" ] && quiet=1

# subsystem  level  public header       what it holds
# Why this order: a campaign is many runs; a run drives an engine, samples
# the waits of its workers, reads the device's counters and leaves results;
# a run's record holds the engine's and the device's figures (the settings
# of the server's read path, the device's seconds), so results sit above
# them; every subsystem uses the PostgreSQL glue of base.  ("base" and not
# "common": PostgreSQL's own headers live under common/, which -Isrc would
# shadow.)
LAYERS='
campaigns 6 campaigns/campaign.h many runs: the frame of every campaign, the plans of suites and searches
run       5 run/run.h          one run: arguments, limits, launcher, workers, recorder
results   4 results/results.h  what a run leaves: its record, histograms, the runs tables
engine    3 engine/engine.h    how one I/O reaches the device: psync, io_uring, postgres
waits     3 waits/waits.h      wait-event sampling and the SQL Server-style tables
device    2 device/device.h    the device under a tablespace: its counters, its free space
base      1 base/base.h        PostgreSQL glue: settings, compat, SPI, privileges, workers
'

# errors go to a file: err() is called in subshells (pipelines) too
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
err() { echo "include-check: $*" | tee -a "$errors" >&2; }

level_of() { echo "$LAYERS" | awk -v s="$1" '$1 == s { print $2 }'; }
public_of() { echo "$LAYERS" | awk -v s="$1" '$1 == s { print $3 }'; }

# Every file lies in a subsystem, or is the entry point
for f in $(find src -name '*.[ch]' | sort); do
	case $f in
	src/iobench.c) continue ;;
	src/*/*.[ch]) ;;
	*) err "$f lies outside every subsystem (put it in one of the folders of the table)" ;;
	esac
	sub=$(echo "$f" | cut -d/ -f2)
	[ -n "$(level_of "$sub")" ] || err "$f: folder $sub is not a subsystem of the table"
done

# The local includes, one line each: FILE SUBSYSTEM INCLUDED-HEADER (as a
# path under src/) -- a header that is not iobench's is PostgreSQL's or the
# system's, and left out
includes=$(for f in $(find src -name '*.[ch]' | sort); do
	dir=$(dirname "$f")
	sub=$(echo "$f" | cut -d/ -f2)
	[ "$f" = src/iobench.c ] && sub=entry
	rel=${dir#src}
	rel=${rel#/}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r inc; do
		if [ -f "$dir/$inc" ]; then
			echo "$f $sub ${rel:+$rel/}$inc"
		elif [ -f "src/$inc" ]; then
			echo "$f $sub $inc"
		fi
	done
done)

edges=$(echo "$includes" | while read -r f sub inc; do
	[ -n "$f" ] || continue
	to=$(echo "$inc" | cut -d/ -f1)
	case $inc in */*) ;; *) to=entry ;; esac
	[ "$to" = "$sub" ] && continue
	if [ "$to" = entry ]; then
		err "$f includes $inc: nothing includes the entry point"
		continue
	fi
	if [ "$sub" != entry ] && [ -n "$(level_of "$sub")" ]; then
		lf=$(level_of "$sub")
		lt=$(level_of "$to")
		if [ "$lt" -ge "$lf" ]; then
			err "$f ($sub, level $lf) includes $inc ($to, level $lt): includes run downwards only"
		fi
	fi
	pub=$(public_of "$to")
	if [ "$inc" != "$pub" ]; then
		err "$f includes $inc, an inner header of $to: include $pub"
	fi
	echo "$sub -> $to"
done | sort -u)

# Cycles between modules (NAME.c + NAME.h, by path): Tarjan-free, by
# repeatedly removing modules with no outgoing or no incoming edge; what is
# left lies on a cycle.
mod_edges=$(echo "$includes" | while read -r f sub inc; do
	[ -n "$f" ] || continue
	from=${f#src/}
	from=${from%.*}
	to=${inc%.h}
	[ "$from" != "$to" ] && echo "$from $to"
done | sort -u)
on_cycle=$(echo "$mod_edges" | awk '
	NF == 2 { e[++n] = $1 " " $2; }
	END {
		do {
			changed = 0;
			delete out; delete inn;
			for (i = 1; i <= n; i++) if (e[i] != "") { split(e[i], p, " "); out[p[1]]++; inn[p[2]]++; }
			for (i = 1; i <= n; i++) if (e[i] != "") {
				split(e[i], p, " ");
				if (!(p[2] in out) || !(p[1] in inn)) { e[i] = ""; changed = 1; }
			}
		} while (changed);
		for (i = 1; i <= n; i++) if (e[i] != "") print e[i];
	}')
if [ -n "$on_cycle" ]; then
	err "include cycle among these edges: $(echo "$on_cycle" | sed 's/ / -> /' | paste -sd ';' -)"
fi

# PG_VERSION_NUM only in compat.h; IOB_HAVE_* users include compat.h
for f in $(find src -name '*.[ch]' | sort); do
	[ "$f" = src/base/compat.h ] && continue
	if grep -q 'PG_VERSION_NUM' "$f"; then
		err "$f tests PG_VERSION_NUM: put the difference in src/base/compat.h (an IOB_HAVE_* macro or a shim)"
	fi
	if grep -q '^[[:space:]]*#[[:space:]]*if.*IOB_HAVE_' "$f" &&
		! grep -q '#include "\(base/\)\{0,1\}\(compat\|base\)\.h"' "$f"; then
		err "$f tests an IOB_HAVE_* macro without including compat.h (directly or through base/base.h)"
	fi
done

if [ "$quiet" -eq 0 ]; then
	echo "subsystems (level, public header):"
	echo "$LAYERS" | awk 'NF { printf "  %-10s %s  %s\n", $1, $2, $3 }'
	echo "edges between subsystems:"
	echo "$edges" | sed 's/^/  /'
fi
if [ -s "$errors" ]; then
	echo "include-check: FAILED (the table is in tools/include_graph.sh)" >&2
	exit 1
fi
[ "$quiet" -eq 1 ] || echo "include-check: every include runs downwards, through public headers; no cycle"
