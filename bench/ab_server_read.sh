#!/usr/bin/env bash
# ab_server_read.sh — engine postgres before and after a change, in turns on
# one cluster: the figure CONTRIBUTING asks for when a change can move one.
#
#   sudo bench/ab_server_read.sh BASE [RELEASE] [ROUNDS] [FILE_SIZE]
#
# BASE is a commit of this repository (the "before"); the "after" is the
# working tree as tools/debian_root.sh test copies it (tracked and untracked
# files).  RELEASE is "host" (the PostgreSQL PG_CONFIG names, default
# Debian's 15) or a Debian root of tools/debian_root.sh (trixie, sid,
# experimental); default sid (18).  Both are built and their libraries kept
# in one private install (tools/private_install.sh, the SQL of the working
# tree); one throwaway cluster (tools/cluster.sh, shared_buffers 128MB) is
# restarted before each run with one library or the other, ROUNDS times
# (default 6) "before" then "after", one run each:
#
#   run(engine => 'postgres', rw => 'randread', block_size => '8kB',
#       file_size => FILE_SIZE (default 256MB), effective_io_concurrency => 16,
#       duration => '3s')
#
# Taking turns cancels most of the drift of a shared machine.  Prints each
# run (library, run_id, IOPS, status, the server's buffer hits and reads,
# blocks, read p50 and p99 in µs), then per library the runs, median and
# mean IOPS and how many completed (on 17+ a small relation's runs may be
# stored "invalid": page-cache hits, see bench/RESULTS.md).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE=${1:?usage: bench/ab_server_read.sh BASE [RELEASE] [ROUNDS] [FILE_SIZE]}
RELEASE=${2:-sid}
ROUNDS=${3:-6}
FILE_SIZE=${4:-256MB}

# In RELEASE's root: copies of BASE and of the working tree, then this
# script's "inner" part there.
if [ "$BASE" != --inner ] && [ "$RELEASE" != host ]; then
	root=$("$SRC/tools/debian_root.sh" path "$RELEASE")
	"$SRC/tools/debian_root.sh" make "$RELEASE" >/dev/null
	work=$(mktemp -d "$root/var/tmp/iobench-ab.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	mkdir "$work/base" "$work/new"
	git -C "$SRC" archive "$BASE" | tar -xf - -C "$work/base"
	# shellcheck disable=SC2016
	(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$work/new"
	"$SRC/tools/debian_root.sh" run "$RELEASE" env \
		PG_CONFIG="$("$SRC/tools/debian_root.sh" pg_config "$RELEASE")" \
		"${work#"$root"}/new/bench/ab_server_read.sh" --inner "${work#"$root"}" "$ROUNDS" "$FILE_SIZE"
	exit 0
fi

CLEAN_DIR=
if [ "$BASE" = --inner ]; then
	DIR=$2
else
	# host: the copies in a temporary directory here
	DIR=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-ab.XXXXXX")
	CLEAN_DIR=$DIR
	trap 'rm -rf "$CLEAN_DIR"' EXIT
	mkdir "$DIR/base" "$DIR/new"
	git -C "$SRC" archive "$BASE" | tar -xf - -C "$DIR/base"
	# shellcheck disable=SC2016
	(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$DIR/new"
fi

# shellcheck source=../tools/private_install.sh
. "$DIR/new/tools/private_install.sh"
pg_dirs
INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-inst.XXXXXX")
chmod 755 "$INST"
for v in base new; do
	make -C "$DIR/$v" -s clean >/dev/null
	make -C "$DIR/$v" -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
done
private_install_tree "$DIR/new" "$INST"
cp "$DIR/base/iobench.so" "$INST/lib_base.so"
cp "$DIR/new/iobench.so" "$INST/lib_new.so"
CLUSTER_PGBIN=$INST$PG_BIN
# shellcheck source=../tools/cluster.sh
. "$DIR/new/tools/cluster.sh"
finish() {
	local rc=$?
	cluster_stop
	rm -rf "$INST" "$CLEAN_DIR"
	exit "$rc"
}
cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB" \
	"autovacuum = off" "iobench.progress = off"
trap finish EXIT
cluster_psql -q -c "CREATE EXTENSION iobench; CREATE TABLE lib (run_id bigint, lib text)" >/dev/null

# the server restarts on the other library: a new file (rename), never the
# mapped one rewritten
use_library() {
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" -m fast -w stop >/dev/null)
	cp "$INST/lib_$1.so" "$INST$PG_LIB/iobench.so.tmp"
	mv "$INST$PG_LIB/iobench.so.tmp" "$INST$PG_LIB/iobench.so"
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pg_ctl" -D "$CLUSTER_DATA" \
		-l "$CLUSTER_DIR/server.log" -w start >/dev/null)
}

for _ in $(seq "$ROUNDS"); do
	for v in base new; do
		use_library "$v"
		# a run stored "invalid" says why in a WARNING: its row says it too
		cluster_psql -At -c "INSERT INTO lib SELECT run_id, '$v' FROM iobench.run(engine => 'postgres',
			rw => 'randread', block_size => '8kB', file_size => '$FILE_SIZE',
			effective_io_concurrency => 16, duration => '3s')" >/dev/null 2>&1
	done
done
cluster_psql -At -c "SELECT l.lib, r.run_id, round(r.iops), r.status, s.buffer_hits, s.buffer_reads,
		s.blocks, round(r.read_lat_p50_us), round(r.read_lat_p99_us)
	FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id) JOIN lib l USING (run_id)
	ORDER BY r.run_id"
cluster_psql -At -c "SELECT l.lib, count(*) AS runs,
		round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.iops)) AS median_iops,
		round(avg(r.iops)) AS mean_iops, count(*) FILTER (WHERE r.status = 'completed') AS completed
	FROM iobench.runs r JOIN lib l USING (run_id) GROUP BY l.lib ORDER BY 1"
