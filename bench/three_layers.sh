#!/usr/bin/env bash
# three_layers.sh — the three layers of one tablespace side by side: the raw
# disk, the server's read path (engine postgres) and PostgreSQL's executor
# (a cold bitmap heap scan, a cold sequential scan), from one call of
# iobench.server_vs_disk() (issue 36).
#
#   bench/three_layers.sh [TABLESPACE [CONCURRENCIES [FILE_SIZE [DURATION]]]]
#
# Defaults: pg_default, {1,16,128}, 1GB, 5s.  It connects with psql's
# environment (PGHOST, PGPORT, PGDATABASE, PGUSER) to a server where iobench
# is installed and the user may run it (iobench_user).  With
# BENCH_THROWAWAY=1 it builds this checkout instead, installs it into a
# private copy of the PostgreSQL that PG_CONFIG names and starts a throwaway
# cluster (tools/cluster.sh: shared_buffers 128MB, the data directory under
# IOBENCH_TMPDIR, default /var/tmp) for the call.  The scan reads within
# the buffers free (bound: 0.5 % of shared buffers of other relations' pages
# per call); a row without scan figures says why in its summary.
# With BENCH_TUNE=1 it then calls iobench.tune_tablespace() on the same
# tablespace, size and duration and prints its rows (effective_io_concurrency
# from the scan's curve, the read path's own recommendation in its basis).
# BENCH_RELEASE=trixie|sid|experimental (as root) does the throwaway call on
# that Debian root's PostgreSQL (tools/debian_root.sh), on a copy of this
# checkout.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TS=${1:-pg_default}
STEPS=${2:-'{1,16,128}'}
FILE_SIZE=${3:-1GB}
SECS=${4:-5s}

if [ -n "${BENCH_RELEASE:-}" ]; then
	root=$("$SRC/tools/debian_root.sh" path "$BENCH_RELEASE")
	"$SRC/tools/debian_root.sh" make "$BENCH_RELEASE" >/dev/null
	work=$(mktemp -d "$root/var/tmp/iobench-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$work"
	"$SRC/tools/debian_root.sh" run "$BENCH_RELEASE" env BENCH_THROWAWAY=1 BENCH_TUNE="${BENCH_TUNE:-0}" \
		PG_CONFIG="$("$SRC/tools/debian_root.sh" pg_config "$BENCH_RELEASE")" \
		"${work#"$root"}/bench/three_layers.sh" "$TS" "$STEPS" "$FILE_SIZE" "$SECS"
	exit
fi

PSQL=(psql -X -v ON_ERROR_STOP=1)
if [ "${BENCH_THROWAWAY:-0}" = 1 ]; then
	# shellcheck source=../tools/private_install.sh
	. "$SRC/tools/private_install.sh"
	pg_dirs
	INST=$(mktemp -d "${IOBENCH_TMPDIR:-/var/tmp}/iobench-inst.XXXXXX")
	chmod 755 "$INST"
	make -C "$SRC" -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
	private_install_tree "$SRC" "$INST"
	CLUSTER_PGBIN=$INST$PG_BIN
	# shellcheck source=../tools/cluster.sh
	. "$SRC/tools/cluster.sh"
	finish() {
		local rc=$?
		cluster_stop
		rm -rf "$INST"
		exit "$rc"
	}
	cluster_start "shared_preload_libraries = 'iobench'" "shared_buffers = 128MB" \
		"iobench.progress = off"
	trap finish EXIT
	cluster_psql -q -c "CREATE EXTENSION iobench"
	PSQL=(cluster_psql -X -v ON_ERROR_STOP=1)
fi

echo "== $("${PSQL[@]}" -At -c 'SHOW server_version'), kernel $(uname -r), tablespace $TS," \
	"file_size $FILE_SIZE, $SECS per run"
"${PSQL[@]}" -v ts="$TS" -v steps="$STEPS" -v size="$FILE_SIZE" -v secs="$SECS" <<'SQL'
\set QUIET on
CREATE TEMP TABLE layers AS
SELECT * FROM iobench.server_vs_disk(:'ts', :'steps'::int[], :'secs'::interval, :'size',
                                     label => 'three_layers');
\set QUIET off
-- blocks/s of 8 kB: the engine's sequential reads are of block_size bytes
SELECT pattern, concurrency AS eic, block_size,
       round(raw_iops * block_size / 8192) AS disk_blocks_s,
       round(server_iops * block_size / 8192) AS engine_blocks_s,
       round(scan_blocks_per_s) AS scan_blocks_s,
       round(ratio::numeric, 2) AS engine_disk,
       round(scan_ratio::numeric, 2) AS scan_engine,
       round(scan_disk_ratio::numeric, 2) AS scan_disk,
       scan_read_blocks AS scan_read, scan_hit_blocks AS scan_hit,
       coalesce(limiting_layer, '-') AS limits
  FROM layers;
SELECT summary FROM layers;
SQL

if [ "${BENCH_TUNE:-0}" = 1 ]; then
	"${PSQL[@]}" -v ts="$TS" -v size="$FILE_SIZE" -v secs="$SECS" <<'SQL'
SELECT setting, recommended, in_effect, basis
  FROM iobench.tune_tablespace(:'ts', duration => :'secs'::interval, file_size => :'size',
                               label => 'three_layers');
SQL
fi
