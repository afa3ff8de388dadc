#!/usr/bin/env bash
# plot.sh — render PNGs of stored iobench results with gnuplot.
#
#   bench/plot.sh [-o DIR] [-r RUN_ID]... [-s SUITE_ID]... [-- PSQL_ARGS...]
#
#   -r RUN_ID     for a run:   run_<id>_time.png     IOPS per second, with the
#                                                    mean and max latency of each second
#                              run_<id>_latency.png  latency histogram per op kind
#   -s SUITE_ID   for a suite: suite_<id>_iops.png   IOPS per test, a bar per tablespace
#                              suite_<id>_ratio.png  each tablespace against the
#                                                    baseline (the first), per test
#   -o DIR        where the PNGs go (default: ./plots)
#   PSQL_ARGS     how to connect (e.g. -h /tmp -p 5432 -d mydb); the PG*
#                 environment variables work too.  PSQL names the psql binary.
#
# iobench stores per-second means and maxima, not per-second percentiles, so
# the time plot shows the mean and max latency of each second and the run's
# p99 as a line.  gnuplot comes from Debian's packages (gnuplot-nox); it is
# installed when missing and we may (root or sudo).
set -euo pipefail

OUT=./plots
RUNS=()
SUITES=()
PSQL=${PSQL:-psql}

# Print an error and exit.
die() { echo "plot.sh: ERROR: $*" >&2; exit 1; }

# Install gnuplot-nox when gnuplot is missing.
need_gnuplot() {
	command -v gnuplot >/dev/null && return 0
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	if [ -n "$sudo" ] && ! command -v sudo >/dev/null; then
		die "gnuplot is missing: install Debian's gnuplot-nox"
	fi
	echo "plot.sh: installing gnuplot-nox" >&2
	$sudo apt-get install -y -q gnuplot-nox >/dev/null || die "could not install gnuplot-nox"
}

while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	-r) RUNS+=("$2"); shift 2 ;;
	-s) SUITES+=("$2"); shift 2 ;;
	--) shift; break ;;
	-h | --help) sed -n '2,20p' "$0"; exit 0 ;;
	*) die "unknown argument: $1 (see --help)" ;;
	esac
done
PSQL_ARGS=("$@")
[ ${#RUNS[@]} -gt 0 ] || [ ${#SUITES[@]} -gt 0 ] || die "name at least one run (-r) or suite (-s)"
for id in "${RUNS[@]}" "${SUITES[@]}"; do
	[[ $id =~ ^[0-9]+$ ]] || die "not an id: $id"
done
need_gnuplot
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Run a query and print tab-separated rows without headers.
q() { "$PSQL" -X -q -At -F $'\t' -v ON_ERROR_STOP=1 "${PSQL_ARGS[@]}" -c "$1"; }

# Quote a string for a gnuplot string literal.
gq() { printf '"%s"' "${1//\"/\\\"}"; }

COMMON='set terminal pngcairo size 1100,560 font "DejaVu Sans,10" noenhanced
set border lw 1 lc rgb "#555555"
set grid ytics lc rgb "#dddddd"
set key top right opaque box lc rgb "#cccccc"'

for id in "${RUNS[@]}"; do
	title=$(q "SELECT format('run %s: %s, %s on \"%s\" (%s %s)', run_id, coalesce(label, rw),
	                         iobench.format_bytes(block_size) || ' ' || rw || ', ' || workers
	                         || ' x QD' || iodepth, device, tablespace, engine,
	                         CASE WHEN direct THEN 'direct' ELSE 'buffered' END)
	           FROM iobench.runs WHERE run_id = $id")
	[ -n "$title" ] || die "run $id does not exist"
	p99=$(q "SELECT coalesce(lat_p99_us, 0) / 1000 FROM iobench.runs WHERE run_id = $id")

	# second, data IOPS, mean latency ms, max latency ms (every op kind)
	q "SELECT g, coalesce(sum(s.ops) FILTER (WHERE s.op <> 'fsync'), 0)
	                / least(1.0, r.measured_s - g),
	          coalesce(sum(s.lat_mean_us * s.ops) FILTER (WHERE s.op <> 'fsync')
	                   / nullif(sum(s.ops) FILTER (WHERE s.op <> 'fsync'), 0) / 1000, 'NaN'),
	          coalesce(max(s.lat_max_us) / 1000, 'NaN')
	     FROM iobench.runs r
	     CROSS JOIN generate_series(0, ceil(r.measured_s)::int - 1) g
	     LEFT JOIN iobench.run_seconds s ON s.run_id = r.run_id AND s.second = g
	    WHERE r.run_id = $id GROUP BY g, r.measured_s ORDER BY g" >"$TMP/time.tsv"
	gnuplot <<EOF
$COMMON
set output "$OUT/run_${id}_time.png"
set title $(gq "$title")
set xlabel "second of the measured period"
set ylabel "IOPS (reads + writes)"
set y2label "latency (ms, log scale)"
set logscale y2
set ytics nomirror
set y2tics
set yrange [0:*]
set style fill transparent solid 0.35 noborder
plot "$TMP/time.tsv" using 1:2 with boxes lc rgb "#4878cf" title "IOPS", \
     "" using 1:3 axes x1y2 with linespoints lw 2 pt 7 ps 0.5 lc rgb "#6acc65" title "mean latency", \
     "" using 1:4 axes x1y2 with linespoints lw 2 pt 7 ps 0.5 lc rgb "#d65f5f" title "max latency", \
     ($p99 > 0 ? $p99 : 1/0) axes x1y2 with lines dt 2 lw 2 lc rgb "#956cb4" title "p99 of the run"
EOF

	# one block per op kind: bucket midpoint (µs), share of that kind's ops (%)
	plot_cmd=
	for op in read write fsync; do
		q "SELECT (lower_us + upper_us) / 2, 100.0 * count / sum(count) OVER ()
		     FROM iobench.run_latency WHERE run_id = $id AND op = '$op' ORDER BY lower_us" \
			>"$TMP/lat_$op.tsv"
		if [ -s "$TMP/lat_$op.tsv" ]; then
			color=$(case $op in read) echo "#4878cf" ;; write) echo "#d65f5f" ;; *) echo "#6acc65" ;; esac)
			plot_cmd+="${plot_cmd:+, }\"$TMP/lat_$op.tsv\" using 1:2 with impulses lw 2 lc rgb \"$color\" title \"$op\""
		fi
	done
	if [ -n "$plot_cmd" ]; then
		gnuplot <<EOF
$COMMON
set output "$OUT/run_${id}_latency.png"
set title $(gq "$title — latency histogram")
set xlabel "latency (µs, log scale; buckets within 1.6 %)"
set ylabel "share of the op kind's I/Os (%)"
set logscale x
set format x "%g"
set yrange [0:*]
plot $plot_cmd
EOF
	fi
	echo "$OUT/run_${id}_time.png"
	[ -z "$plot_cmd" ] || echo "$OUT/run_${id}_latency.png"
done

for id in "${SUITES[@]}"; do
	mapfile -t spcs < <(q "SELECT unnest(tablespaces) FROM iobench.suites WHERE suite_id = $id")
	[ ${#spcs[@]} -gt 0 ] || die "suite $id does not exist"
	title=$(q "SELECT format('suite %s \"%s\" (%s), %s', suite_id, name, array_to_string(tablespaces, ' vs '),
	                         to_char(started_at, 'YYYY-MM-DD HH24:MI'))
	           FROM iobench.suites WHERE suite_id = $id")
	# test, then IOPS and ratio of each tablespace in suite order ("NaN" when skipped)
	q "SELECT test, string_agg(coalesce(iops::text, 'NaN'), E'\t' ORDER BY tablespace_no),
	          string_agg(coalesce(iops_ratio::text, 'NaN'), E'\t' ORDER BY tablespace_no)
	     FROM iobench.suite_comparison WHERE suite_id = $id GROUP BY test_no, test ORDER BY test_no" \
		>"$TMP/suite.tsv"
	# room for the test names, slanted down to the right under their bars
	# (-30 degrees): a name of n characters reaches about n/4 lines below the
	# axis, and the last one overhangs the plot's right edge by up to 2n/3
	# character widths
	longest=$(q "SELECT coalesce(max(length(test)), 0) FROM iobench.suite_comparison WHERE suite_id = $id")
	bmargin=$((longest / 4 + 3))
	rmargin=$((longest * 2 / 3))
	[ "$rmargin" -ge 14 ] || rmargin=14
	# the ratio axis starts below the smallest ratio, so the baseline's bars (1) show
	ymin=$(q "SELECT least(0.5, min(iops_ratio) / 2) FROM iobench.suite_comparison
	           WHERE suite_id = $id AND iops_ratio > 0")
	n=${#spcs[@]}
	iops_cols='' ratio_cols=''
	for ((i = 0; i < n; i++)); do
		iops_cols+="${iops_cols:+, }\"$TMP/suite.tsv\" using $((i + 2)):xtic(1) title $(gq "${spcs[$i]}")"
		ratio_cols+="${ratio_cols:+, }\"$TMP/suite.tsv\" using $((i + 2 + n)):xtic(1) title $(gq "${spcs[$i]}")"
	done
	gnuplot <<EOF
$COMMON
set datafile separator "\t"
set output "$OUT/suite_${id}_iops.png"
set title $(gq "$title — IOPS per test (mean over repeats)")
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y
set ylabel "IOPS (log scale)"
set xtics rotate by -30 left
set bmargin $bmargin
set rmargin $rmargin
set key top right
plot $iops_cols
EOF
	gnuplot <<EOF
$COMMON
set datafile separator "\t"
set output "$OUT/suite_${id}_ratio.png"
set title $(gq "$title — IOPS relative to ${spcs[0]}")
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y
set yrange [${ymin:-0.5}:*]
set ylabel "IOPS / IOPS of ${spcs[0]} (log scale)"
set xtics rotate by -30 left
set bmargin $bmargin
set rmargin $rmargin
set key top right
plot $ratio_cols, 1 with lines dt 2 lc rgb "#555555" notitle
EOF
	echo "$OUT/suite_${id}_iops.png"
	echo "$OUT/suite_${id}_ratio.png"
done
