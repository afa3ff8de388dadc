#!/usr/bin/env bash
# sampler_overhead.sh — what always-on wait sampling costs: pgbench TPS with
# no sampler, with iobench's collector at 10 ms and 1 ms, and with
# pg_wait_sampling at the same periods, in one run, side by side.
#
#   bench/sampler_overhead.sh
#   BENCH_SECONDS=15 BENCH_ROUNDS=3 bench/sampler_overhead.sh
#
# For each configuration the cluster is restarted with that sampler
# preloaded (or none), then:
#   idle:  nothing runs for BENCH_IDLE_SECONDS; the sampler's CPU and the
#          share of its ticks it took (every round, like the load phase);
#   load:  pgbench -S (select-only, CPU-bound: a sampler's CPU is taken from
#          the clients) with BENCH_CLIENTS clients for BENCH_SECONDS, after a
#          short warm-up; TPS, the sampler's CPU and its share of ticks.
# Rounds run the configurations in alternating order, so drift of the
# machine does not favour one; TPS is the median over rounds (a shared VM's
# TPS moves by tens of percent from one run to the next, far more than a
# sampler can cost: the "of CPUs" column, the collector's share of all CPUs,
# bounds what it can take from a CPU-bound workload and is the steadier
# figure for the 1 % target).
#
# Sampler CPU: on-CPU time of the collector process over the phase (field 1
# of /proc/PID/schedstat, ns), in % of one core; utime+stime from
# /proc/PID/stat (10 ms ticks) is printed beside it.
# Ticks taken: iobench counts them exactly (a timerfd tells how many periods
# passed; iobench.wait_collector.ticks / (ticks + missed_ticks)).
# pg_wait_sampling counts nothing, so its share is estimated from its
# profile: the samples of the checkpointer (always present, idle in
# CheckpointerMain) over the periods that elapsed.
#
# Side by side: last, both collectors run in one cluster at once (iobench's
# and pg_wait_sampling's, the same period), through the same idle and load
# phases, BENCH_ROUNDS times per period.  Each sees the other as one more
# process; both are measured over the very same seconds, so the drift of a
# shared machine between configurations, which moves a collector's CPU by
# tens of per cent, does not enter their ratio.
#
# Targets: TPS loss <= 1 % at 10 ms; CPU no more than pg_wait_sampling's at
# the same period; >= 99 % of ticks at 1 ms idle.
#
# Runs on the PostgreSQL that PG_CONFIG names (default: Debian's 15).  For a
# Debian-packaged server, installs postgresql-N-pg-wait-sampling when missing
# (root or sudo); where no such package exists (a source build, a release
# Debian does not package it for), the pg_wait_sampling rows are left out and
# the header says so.  The cluster runs from a private copy of that
# PostgreSQL with this checkout's iobench installed into it; the original
# installation is not touched.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_EACH=${BENCH_SECONDS:-4}
ROUNDS=${BENCH_ROUNDS:-3}
IDLE_SECONDS=${BENCH_IDLE_SECONDS:-3}
CLIENTS=${BENCH_CLIENTS:-4}
SCALE=${BENCH_SCALE:-10}
WARMUP_SECONDS=1

. "$SRC/bench/waits_common.sh"

# name | library to preload | its period setting | period in ms
CONFIGS=(
	"none|||"
	"iobench 10 ms|iobench|iobench.sample_period = 10|10"
	"iobench 1 ms|iobench|iobench.sample_period = 1|1"
	"iobench 1 ms, no schedstat|iobench|iobench.sample_period = 1\niobench.sample_signal = off|1"
	"pg_wait_sampling 10 ms|pg_wait_sampling|pg_wait_sampling.profile_period = 10|10"
	"pg_wait_sampling 1 ms|pg_wait_sampling|pg_wait_sampling.profile_period = 1|1"
)

# Run a command as root: directly when we are root, otherwise through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Install pg_wait_sampling (the peer) when it is missing and Debian packages
# it for this server; set PWS_VERSION to its version, or drop its rows from
# CONFIGS (PWS_VERSION says why).
ensure_pg_wait_sampling() {
	local pkg=postgresql-$PG_MAJOR-pg-wait-sampling c kept=()
	PWS_VERSION=
	if [ "$PG_CONFIG" = "/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" ]; then
		if ! dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null | grep -x installed >/dev/null &&
			apt-cache show "$pkg" >/dev/null 2>&1; then
			echo "sampler_overhead: installing $pkg" >&2
			as_root apt-get install -y -qq "$pkg" >/dev/null
		fi
		PWS_VERSION=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || PWS_VERSION=
	fi
	[ -n "$PWS_VERSION" ] && return 0
	PWS_VERSION="left out (no $pkg for $PG_CONFIG)"
	for c in "${CONFIGS[@]}"; do
		[[ $c == pg_wait_sampling* ]] || kept+=("$c")
	done
	CONFIGS=("${kept[@]}")
}

# Median of the arguments.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

# psql returning one unaligned value.
q() { cluster_psql -At -c "$1"; }

# Restart with a configuration; prints the collector's pid (empty for none).
start_config() {
	local lib=$1 setting=$2
	waits_restart "shared_preload_libraries = '$lib'" "$(printf '%b' "$setting")"
	case $lib in
	iobench)
		q "SELECT pid FROM iobench.wait_collector" ;;
	pg_wait_sampling)
		q "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS pg_wait_sampling" >/dev/null
		q "SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_wait_sampling collector'" ;;
	*) echo "" ;;
	esac
}

# Forget the sampler's counts before a phase.
reset_ticks() {
	case $1 in
	iobench) q "SELECT iobench.reset_waits()" >/dev/null ;;
	pg_wait_sampling) q "SELECT pg_wait_sampling_reset_profile()" >/dev/null ;;
	esac
}

# Share of ticks taken (%) since reset_ticks, and their number; args: lib
# period_ms elapsed_s.
ticks_taken() {
	local lib=$1 period=$2 elapsed=$3
	case $lib in
	iobench)
		q "SELECT round((100.0 * ticks / nullif(ticks + missed_ticks, 0))::numeric, 2), ticks
		     FROM iobench.wait_collector" | tr '|' ' ' ;;
	pg_wait_sampling)
		q "SELECT round((100.0 * coalesce(sum(p.count), 0) / ($elapsed * 1000 / $period))::numeric, 2),
		          coalesce(sum(p.count), 0)
		     FROM pg_wait_sampling_profile p
		    WHERE p.pid = (SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer')" |
			tr '|' ' ' ;;
	esac
}

# Measure the collector over a phase: runs "$@" between two readings and
# prints "cpu_pct stat_pct elapsed_s" (empty CPU figures without a collector).
measure() {
	local pid=$1 t0 t1 c0 c1 s0 s1
	shift
	t0=$(now)
	[ -n "$pid" ] && { c0=$(waits_proc_cpu_ns "$pid"); s0=$(waits_proc_ticks "$pid"); }
	"$@"
	t1=$(now)
	[ -n "$pid" ] && { c1=$(waits_proc_cpu_ns "$pid"); s1=$(waits_proc_ticks "$pid"); }
	if [ -n "$pid" ]; then
		awk -v c0="$c0" -v c1="$c1" -v s0="$s0" -v s1="$s1" -v t0="$t0" -v t1="$t1" \
			-v hz="$(getconf CLK_TCK)" 'BEGIN {
			e = t1 - t0
			printf "%.3f %.2f %.3f\n", (c1 - c0) / 1e9 / e * 100, (s1 - s0) / hz / e * 100, e }'
	else
		awk -v t0="$t0" -v t1="$t1" 'BEGIN { printf "- - %.3f\n", t1 - t0 }'
	fi
}

# pgbench select-only; prints TPS into the file named by $PGBENCH_OUT.
pgbench_run() {
	local secs=$1
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pgbench" -h "$CLUSTER_SOCK" \
		-p "$CLUSTER_PORT" -U postgres -n -S -c "$CLIENTS" -j 2 -T "$secs" postgres) \
		2>/dev/null | awk '/^tps = / { print $3; exit }' >"$PGBENCH_OUT"
}

# Both collectors in one cluster at the same period: for each phase and
# round, prints "phase iobench_cpu_pct pgws_cpu_pct iobench_ticks
# pgws_ticks_est elapsed_s" (tick counts as ticks_taken()).
side_by_side() {
	local period=$1 signal=$2 round phase ipid ppid t0 t1 i0 i1 p0 p1 ti tp
	local PGBENCH_OUT=/dev/null
	waits_restart "shared_preload_libraries = 'iobench, pg_wait_sampling'" \
		"iobench.sample_period = $period" "iobench.sample_signal = $signal" \
		"pg_wait_sampling.profile_period = $period"
	q "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS pg_wait_sampling" >/dev/null
	ipid=$(q "SELECT pid FROM iobench.wait_collector")
	ppid=$(q "SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_wait_sampling collector'")
	for ((round = 1; round <= ROUNDS; round++)); do
		for phase in idle load; do
			[ "$phase" = idle ] || pgbench_run "$WARMUP_SECONDS"
			reset_ticks iobench
			reset_ticks pg_wait_sampling
			t0=$(now); i0=$(waits_proc_cpu_ns "$ipid"); p0=$(waits_proc_cpu_ns "$ppid")
			if [ "$phase" = idle ]; then sleep "$IDLE_SECONDS"; else pgbench_run "$SECONDS_EACH"; fi
			t1=$(now); i1=$(waits_proc_cpu_ns "$ipid"); p1=$(waits_proc_cpu_ns "$ppid")
			ti=$(ticks_taken iobench "$period" 1 | awk '{ print $2 }')
			tp=$(ticks_taken pg_wait_sampling "$period" 1 | awk '{ print $2 }')
			awk -v ph="$phase" -v i="$((i1 - i0))" -v p="$((p1 - p0))" -v t0="$t0" -v t1="$t1" \
				-v ti="$ti" -v tp="$tp" 'BEGIN {
				e = t1 - t0; printf "%s %.3f %.3f %d %d %.3f\n", ph, i / e / 1e7, p / e / 1e7, ti, tp, e }'
		done
	done
}

# Print the side-by-side table of one period's side_by_side output (stdin).
side_by_side_table() {
	awk -v label="$1" '{
		n[$1]++; ic[$1] += $2; pc[$1] += $3; it[$1] += $4; pt[$1] += $5; el[$1] += $6
		r[$1] = r[$1] sprintf("%.2f ", ($3 > 0 ? $2 / $3 : 0))
	} END {
		for (k = 1; k <= 2; k++) {
			ph = (k == 1) ? "under load" : "idle"; key = (k == 1) ? "load" : "idle"
			if (!(key in n)) continue
			printf "%-34s %-10s %9.3f %9.3f %6.2f   %-18s %8.1f %8.1f\n", label, ph,
				ic[key] / n[key], pc[key] / n[key], (pc[key] > 0 ? ic[key] / pc[key] : 0), r[key],
				(it[key] > 0 ? ic[key] / n[key] / 100 * el[key] * 1e6 / it[key] : 0),
				(pt[key] > 0 ? pc[key] / n[key] / 100 * el[key] * 1e6 / pt[key] : 0)
		}
	}'
}

main() {
	local round i idx name lib setting period pid r tps order=() results_dir
	declare -A TPS IDLE LOAD

	"$SRC/tools/deps.sh"
	pg_dirs
	ensure_pg_wait_sampling
	waits_private_install
	cluster_start "shared_buffers = 256MB" "max_connections = 50"
	trap waits_cleanup EXIT
	waits_restart "shared_preload_libraries = 'iobench'"
	q "CREATE EXTENSION iobench" >/dev/null
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pgbench" -h "$CLUSTER_SOCK" \
		-p "$CLUSTER_PORT" -U postgres -i -q -s "$SCALE" postgres >/dev/null 2>&1)
	results_dir=$(mktemp -d)
	PGBENCH_OUT=$results_dir/tps

	echo "sampler_overhead: $(q 'SELECT version()')"
	echo "sampler_overhead: assertions $(q 'SHOW debug_assertions'), $(nproc) CPUs," \
		"pgbench -S scale $SCALE, $CLIENTS clients, ${SECONDS_EACH}s x $ROUNDS rounds," \
		"idle phase ${IDLE_SECONDS}s, pg_wait_sampling $PWS_VERSION"
	echo "sampler_overhead: at the start, $(waits_pressure)"

	for ((round = 1; round <= ROUNDS; round++)); do
		order=()
		for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
			if ((round % 2)); then order+=("$i"); else order=("$i" "${order[@]}"); fi
		done
		for idx in "${order[@]}"; do
			IFS='|' read -r name lib setting period <<<"${CONFIGS[$idx]}"
			echo "sampler_overhead: round $round, $name ..." >&2
			pid=$(start_config "$lib" "$setting")
			if [ -n "$lib" ]; then
				reset_ticks "$lib"
				r=$(measure "$pid" sleep "$IDLE_SECONDS")
				# like under load: mean over rounds
				IDLE[$idx]="${IDLE[$idx]:-}|$r $(ticks_taken "$lib" "$period" "$(awk '{print $3}' <<<"$r")")"
			fi
			pgbench_run "$WARMUP_SECONDS"
			reset_ticks "$lib"
			r=$(measure "$pid" pgbench_run "$SECONDS_EACH")
			tps=$(cat "$PGBENCH_OUT")
			TPS[$idx]="${TPS[$idx]:-} $tps"
			if [ -n "$lib" ]; then
				r="$r $(ticks_taken "$lib" "$period" "$(awk '{print $3}' <<<"$r")")"
				# CPU and ticks: mean over rounds
				LOAD[$idx]="${LOAD[$idx]:-}|$r"
			fi
		done
	done
	rm -rf "$results_dir"
	echo "sampler_overhead: at the end, $(waits_pressure)"

	echo
	printf '%-26s %-20s %8s %7s | %-44s | %-35s\n' "" "" "" "" \
		"            under pgbench load" "              idle"
	printf '%-26s %-20s %8s %7s | %7s %8s %7s %9s %8s | %7s %7s %9s %8s\n' \
		sampler "TPS per round" "median" "loss" "CPU %" "of CPUs" "stat %" "us/tick" "ticks %" \
		"CPU %" "stat %" "us/tick" "ticks %"
	local base
	# shellcheck disable=SC2086 # one word per round
	base=$(median ${TPS[0]})
	for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
		IFS='|' read -r name lib setting period <<<"${CONFIGS[$i]}"
		awk -v name="$name" -v tps="${TPS[$i]}" -v base="$base" -v load="${LOAD[$i]:-}" -v ncpu="$(nproc)" \
			-v idle="${IDLE[$i]:-}" 'BEGIN {
			n = split(tps, t, " "); per = ""
			for (k = 1; k <= n; k++) per = per sprintf("%.0f ", t[k])
			for (k = 1; k <= n; k++)		# sort for the median
				for (j = k + 1; j <= n; j++)
					if (t[j] < t[k]) { x = t[k]; t[k] = t[j]; t[j] = x }
			mean = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			m = split(load, l, "|"); cpu = 0; st = 0; tk = 0; cnt = 0; cns = 0; nt = 0
			for (k = 1; k <= m; k++) {
				if (split(l[k], f, " ") < 5) continue
				cpu += f[1]; st += f[2]; tk += f[4]; cnt++
				cns += f[1] / 100 * f[3] * 1e9; nt += f[5]
			}
			m = split(idle, l, "|"); icpu = 0; ist = 0; itk = 0; icnt = 0; icns = 0; int_ = 0
			for (k = 1; k <= m; k++) {
				if (split(l[k], f, " ") < 5) continue
				icpu += f[1]; ist += f[2]; itk += f[4]; icnt++
				icns += f[1] / 100 * f[3] * 1e9; int_ += f[5]
			}
			if (cnt == 0)
				printf "%-26s %-20s %8.0f %7s | %7s %8s %7s %9s %8s | %7s %7s %9s %8s\n",
					name, per, mean, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"
			else
				printf "%-26s %-20s %8.0f %6.2f%% | %7.3f %7.3f%% %7.2f %9.1f %8.2f | %7.3f %7.2f %9.1f %8.2f\n",
					name, per, mean, 100 * (base - mean) / base,
					cpu / cnt, cpu / cnt / ncpu, st / cnt, (nt > 0 ? cns / nt / 1000 : 0), tk / cnt,
					icpu / icnt, ist / icnt, (int_ > 0 ? icns / int_ / 1000 : 0), itk / icnt
		}'
	done
	echo
	echo "CPU %: collector on-CPU time (schedstat) in % of one core; stat %: utime+stime (10 ms ticks);"
	echo "of CPUs: the collector's share of all CPUs, what it can take from a CPU-bound workload at most;"
	echo "us/tick: collector on-CPU time per tick taken"
	echo "ticks %: iobench counts missed periods exactly; pg_wait_sampling's is estimated from its profile"
	echo "targets: loss <= 1 % at 10 ms; iobench CPU <= pg_wait_sampling CPU at the same period; idle ticks >= 99 % at 1 ms"

	[[ $PWS_VERSION == "left out"* ]] && return 0
	echo
	echo "side by side: both collectors in one cluster at once, $ROUNDS rounds, CPU % of a core (mean)"
	printf '%-34s %-10s %9s %9s %6s   %-18s %8s %8s\n' "" phase iobench pgws ratio "ratio per round" \
		"iob us/t" "pgws us/t"
	for period in 10 1; do
		echo "sampler_overhead: side by side, ${period} ms ..." >&2
		side_by_side "$period" on | side_by_side_table "${period} ms"
	done
	echo "sampler_overhead: side by side, 10 ms, no schedstat ..." >&2
	side_by_side 10 off | side_by_side_table "10 ms, iobench signal off"
	echo
	echo "us/t: CPU per tick taken (pg_wait_sampling's ticks estimated from its profile, as above)"
}

main "$@"
