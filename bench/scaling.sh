#!/usr/bin/env bash
# scaling.sh — how iobench's costs grow with the work: tables for the wait
# collector against the number of connected backends, I/O against workers
# and queue depth on a RAM-backed device (against fio), stored results
# against the number of runs kept, and memory against the length of a run.
#
#   bench/scaling.sh                      every part
#   SCALING_ONLY=collector bench/scaling.sh   one part: collector, io, store, memory
#   SCALING_SECONDS=5 bench/scaling.sh    seconds per measured point (default 3)
#   SCALING_RUNS="10 1000 100000"         numbers of stored runs (store part)
#   SCALING_SESSIONS, SCALING_WORKERS, SCALING_DEPTHS   the other parts' points
#
# collector  the collector's on-CPU time (schedstat) per tick taken, with 10,
#            100 and 1,000 connected sessions (max_connections = 1100), idle
#            (in ClientRead) and with 10 % of them running pgbench -S, at
#            iobench.sample_period = SCALING_PERIOD ms (default 1).
# io         8 KB random reads with io_uring on a RAM-backed block device
#            (bench/ramdev.sh: zram or brd, ext4), workers 1-16 x QD 1-128,
#            iobench against fio with the same numjobs x iodepth: IOPS and
#            CPU time per I/O, and their ratios.
# store      rows and bytes stored per run, and the median time of report(),
#            run_json(), compare() (a real two-tablespace suite) and
#            compare_runs() with 10, 1,000 and 100,000 runs stored (copies of
#            a real run inserted with SQL), and how many plans of one run's
#            report(), run_json() and the suite's compare() read a stored
#            table with a sequential scan (auto_explain of every statement,
#            nested ones included; on a few rows a sequential scan is the
#            planner's right choice, at 100,000 runs there must be none).
# memory     the launcher's and each worker's memory (Pss and private dirty
#            pages from /proc/PID/smaps_rollup) and the run's DSM segment
#            (/dev/shm) over a 1-minute run, and during the first seconds of
#            a 1-hour run, which is then cancelled.
#
# Figures on a shared machine drift: read them as ratios within one run.
# The cluster is a throwaway one (tools/cluster.sh) from a private copy of
# PostgreSQL 15 with this checkout's iobench; needs root for the RAM device.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ONLY=${SCALING_ONLY:-}
SECS=${SCALING_SECONDS:-3}
PERIOD=${SCALING_PERIOD:-1}
NRUNS=${SCALING_RUNS:-10 1000 100000}
SESSIONS=${SCALING_SESSIONS:-10 100 1000}
WORKERS=${SCALING_WORKERS:-1 2 4 8 16}
DEPTHS=${SCALING_DEPTHS:-1 8 32 128}

. "$SRC/bench/waits_common.sh"
. "$SRC/bench/ramdev.sh"

# psql returning unaligned values
q() { cluster_psql -At -c "SET client_min_messages = warning" -c "$1"; }

# pgbench against the cluster, in the background; args: pgbench options.
# Its runuser (or pgbench itself) is remembered in PGBENCH_PIDS.
PGBENCH_PIDS=()
pgbench_bg() {
	cluster_as_owner "$CLUSTER_PGBIN/pgbench" -n -h "$CLUSTER_SOCK" -p "$CLUSTER_PORT" \
		-U postgres "$@" postgres >/dev/null 2>&1 &
	PGBENCH_PIDS+=($!)
}

# End the pgbench clients started here (runuser passes the signal on) and
# wait until their sessions are gone.
end_sessions() {
	local p
	for p in "${PGBENCH_PIDS[@]}"; do
		# runuser's child first: a client sleeping in \sleep would outlive it
		kill $(ps -o pid= --ppid "$p") "$p" 2>/dev/null || true
	done
	for p in "${PGBENCH_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	PGBENCH_PIDS=()
	# a session that ends between the read and the terminate only warns
	q "SET client_min_messages = error;
	   SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
	    WHERE application_name = 'pgbench'" >/dev/null
	for _ in $(seq 1 100); do
		[ "$(q "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'")" = 0 ] && return
		sleep 0.2
	done
}

# Wait until n pgbench sessions are connected.
await_sessions() {
	local n=$1
	for _ in $(seq 1 600); do
		[ "$(q "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'")" -ge "$n" ] && return
		sleep 0.2
	done
	echo "scaling: only $(q "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'") of $n sessions connected" >&2
}

part_collector() {
	local n mode active pid c0 c1 t0 t1 m0 m1 idle_sql
	waits_restart "shared_preload_libraries = 'iobench'" "iobench.sample_period = $PERIOD"
	cd "$CLUSTER_DIR"			# pgbench runs as the cluster's owner
	idle_sql=$CLUSTER_DIR/idle.sql
	printf '\\sleep 600 s\n' | cluster_as_owner tee "$idle_sql" >/dev/null
	(cd "$CLUSTER_DIR" && cluster_as_owner "$CLUSTER_PGBIN/pgbench" -h "$CLUSTER_SOCK" \
		-p "$CLUSTER_PORT" -U postgres -i -q -s 1 postgres >/dev/null 2>&1)
	pid=$(q "SELECT pid FROM iobench.wait_collector")
	echo
	echo "Collector CPU per tick against connected sessions (sample_period = $PERIOD ms, ${SECS}s per point)"
	printf '%-10s %-10s %12s %10s %14s\n' sessions state "us/tick" "ticks %" "ns/tick/sess"
	for n in $SESSIONS; do
		for mode in idle "10% active"; do
			active=0
			[ "$mode" = idle ] || active=$(((n + 9) / 10))
			pgbench_bg -c $((n - active)) -j 2 -T 900 -f "$idle_sql"
			await_sessions $((n - active))
			[ "$active" -eq 0 ] || pgbench_bg -S -c "$active" -j 2 -T $((SECS + 30))
			await_sessions "$n"
			sleep 1
			q "SELECT iobench.reset_waits()" >/dev/null
			c0=$(waits_proc_cpu_ns "$pid"); t0=$(q "SELECT ticks + missed_ticks FROM iobench.wait_collector")
			m0=$(q "SELECT ticks FROM iobench.wait_collector")
			sleep "$SECS"
			c1=$(waits_proc_cpu_ns "$pid"); t1=$(q "SELECT ticks + missed_ticks FROM iobench.wait_collector")
			m1=$(q "SELECT ticks FROM iobench.wait_collector")
			awk -v n="$n" -v mode="$mode" -v c="$((c1 - c0))" -v tk="$((m1 - m0))" -v all="$((t1 - t0))" 'BEGIN {
				printf "%-10d %-10s %12.1f %10.2f %14.1f\n", n, mode, c / tk / 1000,
					100 * tk / (all > 0 ? all : 1), c / tk / n }'
			end_sessions
		done
	done
	cd "$SRC"
}

# fio on the RAM device; prints "iops cpu_us_per_io"; args: jobs depth [extra]
fio_point() {
	local jobs=$1 depth=$2
	shift 2
	(cd "$CLUSTER_DIR" && cluster_as_owner fio --name=scaling --filename="$RAMDEV_DIR/fio.0" \
		--size=512m --direct=1 --time_based --runtime="$SECS" --group_reporting \
		--randrepeat=0 --rw=randread --bs=8k --ioengine=io_uring --iodepth="$depth" \
		--numjobs="$jobs" --output-format=json "$@") 2>/dev/null |
		jq -r '.jobs[0] | [.read.iops, ((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000 / .read.total_ios * 1e6)] | map(tostring) | join(" ")'
}

# iobench on the RAM device; prints "iops cpu_us_per_io"; args: workers depth
iobench_point() {
	cluster_psql -At -F ' ' -c "SET iobench.progress = off" -c "
		SELECT iops, (cpu_user_pct + cpu_sys_pct) / 100 * measured_s / ops * 1e6
		  FROM iobench.run(tablespace => 'iob_ram', rw => 'randread', block_size => '8kB',
		                   engine => 'io_uring', iodepth => $2, workers => $1,
		                   duration => '${SECS}s', file_size => '512MB', label => 'scaling')"
}

part_io() {
	local w d f i
	ramdev_setup 1536
	q "CREATE TABLESPACE iob_ram LOCATION '$RAMDEV_DIR/ts'" 2>/dev/null ||
		{ cluster_as_owner mkdir -p "$RAMDEV_DIR/ts"; q "CREATE TABLESPACE iob_ram LOCATION '$RAMDEV_DIR/ts'"; }
	cluster_as_owner dd if=/dev/urandom of="$RAMDEV_DIR/fio.0" bs=1M count=512 conv=fsync status=none
	echo
	echo "8 KB random reads, io_uring, on $RAMDEV ($RAMDEV_KIND, ext4), ${SECS}s per point: iobench / fio"
	printf '%-8s %-5s %10s %10s %7s  %9s %9s %7s\n' workers QD "fio IOPS" "iob IOPS" ratio \
		"fio CPU/IO" "iob CPU/IO" ratio
	for w in $WORKERS; do
		for d in $DEPTHS; do
			read -r fi fc <<<"$(fio_point "$w" "$d")"
			read -r ii ic <<<"$(iobench_point "$w" "$d")"
			awk -v w="$w" -v d="$d" -v fi="$fi" -v fc="$fc" -v ii="$ii" -v ic="$ic" 'BEGIN {
				printf "%-8d %-5d %10.0f %10.0f %7.3f  %9.2f %9.2f %7.3f\n",
					w, d, fi, ii, ii / fi, fc, ic, ic / fc }'
		done
	done
	q "DROP TABLESPACE iob_ram" >/dev/null || true
	rm -f "$RAMDEV_DIR/fio.0"
}

# SQL helpers of the store part, in a schema of their own
store_helpers() {
	q "CREATE SCHEMA IF NOT EXISTS scaling" >/dev/null
	cluster_psql <<'EOF'
-- median milliseconds of n executions of a query
CREATE OR REPLACE FUNCTION scaling.ms(query text, n integer DEFAULT 5) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
    ts float8[] := '{}';
BEGIN
    FOR i IN 1..n LOOP
        t0 := clock_timestamp();
        EXECUTE 'SELECT sum(length(x::text)) FROM (' || query || ') x';
        ts := ts || extract(epoch FROM clock_timestamp() - t0) * 1000;
    END LOOP;
    RETURN (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ts) x);
END $$;
-- add n copies of run "template" with all its rows; returns the new total
CREATE OR REPLACE FUNCTION scaling.copy_runs(template bigint, n integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    cols text;
    before bigint;
    t text;
BEGIN
    SELECT max(run_id) INTO before FROM iobench.runs;
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
      FROM pg_attribute WHERE attrelid = 'iobench.runs'::regclass AND attnum > 0
       AND NOT attisdropped AND attgenerated = '' AND attname <> 'run_id';
    EXECUTE format('INSERT INTO iobench.runs (%s) SELECT %s FROM iobench.runs, generate_series(1, %s) WHERE run_id = %s',
                   cols, cols, n, template);
    FOREACH t IN ARRAY ARRAY['run_seconds', 'run_latency', 'run_stalls', 'run_waits', 'run_wait_sampling'] LOOP
        IF to_regclass('iobench.' || t) IS NULL THEN CONTINUE; END IF;
        SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
          FROM pg_attribute WHERE attrelid = ('iobench.' || t)::regclass AND attnum > 0
           AND NOT attisdropped AND attgenerated = '' AND attname <> 'run_id';
        EXECUTE format('INSERT INTO iobench.%I (run_id, %s) SELECT r.run_id, %s FROM iobench.runs r, iobench.%I c
                         WHERE r.run_id > %s AND c.run_id = %s',
                       t, cols, regexp_replace(cols, '([^, ]+)', 'c.\1', 'g'), t, before, template);
    END LOOP;
    RETURN (SELECT count(*) FROM iobench.runs);
END $$;
EOF
}

part_store() {
	local tmpl suite have target last plans
	cluster_as_owner mkdir -p "$CLUSTER_DIR/ts2"
	q "CREATE TABLESPACE iob_second LOCATION '$CLUSTER_DIR/ts2'" >/dev/null
	q "TRUNCATE iobench.runs CASCADE" >/dev/null
	store_helpers
	echo "scaling: a real two-tablespace suite (oltp, 1 s per test) ..." >&2
	suite=$(cluster_psql -At -c "SET iobench.progress = off" -c "SELECT DISTINCT suite_id FROM iobench.suite('oltp',
	          ARRAY['pg_default', 'iob_second']::name[], duration => '1s', file_size => '64MB')")
	tmpl=$(q "SELECT run_id FROM iobench.runs ORDER BY run_id LIMIT 1")
	echo
	echo "Stored per run (run $tmpl, 1 s, 8 KB random reads): rows and bytes with indexes"
	q "SELECT t, rows, pg_size_pretty(bytes) FROM (
	     SELECT 'runs' t, 1 rows, pg_column_size(r.*) bytes FROM iobench.runs r WHERE run_id = $tmpl
	     UNION ALL SELECT 'run_seconds', count(*), sum(pg_column_size(x.*)) FROM iobench.run_seconds x WHERE run_id = $tmpl
	     UNION ALL SELECT 'run_latency', count(*), sum(pg_column_size(x.*)) FROM iobench.run_latency x WHERE run_id = $tmpl
	     UNION ALL SELECT 'run_waits', count(*), sum(pg_column_size(x.*)) FROM iobench.run_waits x WHERE run_id = $tmpl) s" |
		awk -F'|' '{ printf "  %-12s %6s rows %10s of row data\n", $1, $2, $3 }'
	echo
	echo "Time of one call (median of 5) against runs stored; Seq: sequential scans of runs, run_seconds, run_latency, run_waits or suite_runs in the plans of one report(), run_json() and compare()"
	printf '%-10s %12s %10s %10s %10s %14s %6s\n' "runs" "bytes/run" "report" "run_json" "compare" "compare_runs" "Seq"
	for target in $NRUNS; do
		have=$(q "SELECT count(*) FROM iobench.runs")
		if [ "$target" -gt "$have" ]; then
			echo "scaling: storing $((target - have)) more runs ..." >&2
			q "SELECT scaling.copy_runs($tmpl, $((target - have)))" >/dev/null
			q "VACUUM ANALYZE iobench.runs, iobench.run_seconds, iobench.run_latency, iobench.run_waits" >/dev/null
		fi
		last=$(q "SELECT max(run_id) FROM iobench.runs")
		plans=$( (cluster_psql -c "LOAD 'auto_explain'" -c "SET auto_explain.log_min_duration = 0" \
			-c "SET auto_explain.log_nested_statements = on" -c "SET client_min_messages = log" \
			-c "SELECT count(*) FROM iobench.report($last)" -c "SELECT iobench.run_json($last) IS NULL" \
			-c "SELECT count(*) FROM iobench.compare($suite)" 2>&1 >/dev/null || true) |
			grep -cE "Seq Scan on (runs|run_seconds|run_latency|run_waits|suite_runs)" || true)
		q "SELECT count(*),
		          (SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['iobench.runs', 'iobench.run_seconds',
		              'iobench.run_latency', 'iobench.run_waits', 'iobench.run_stalls']::regclass[]) c) / count(*),
		          scaling.ms('SELECT * FROM iobench.report($last)'),
		          scaling.ms('SELECT iobench.run_json($last)'),
		          scaling.ms('SELECT * FROM iobench.compare($suite)'),
		          scaling.ms('SELECT * FROM iobench.compare_runs(ARRAY[$tmpl, $last])')
		     FROM iobench.runs" |
			awk -F'|' -v seq="$plans" '{ printf "%-10d %12.0f %8.2fms %8.2fms %8.2fms %12.2fms %6d\n", $1, $2, $3, $4, $5, $6, seq }'
	done
	q "TRUNCATE iobench.runs CASCADE" >/dev/null
	q "DROP TABLESPACE iob_second" >/dev/null || true
}

# /dev/shm segments mapped by a process, one name per line
mapped_segments() {
	awk '$6 ~ /^\/dev\/shm\/PostgreSQL\./ { print $6 }' "/proc/$1/maps" 2>/dev/null | sort -u
}

# kB of the run's DSM segments: mapped by the launcher and by a worker, but
# not by the collector (which maps only what every process maps)
run_segment_kb() {
	local launcher=$1 worker=$2 collector
	collector=$(q "SELECT pid FROM iobench.wait_collector")
	comm -12 <(mapped_segments "$launcher") <(mapped_segments "$worker") |
		comm -23 - <(mapped_segments "$collector") |
		while read -r f; do stat -c %s "$f"; done | awk '{ s += $1 } END { print int(s / 1024) }'
}

# Memory of the launcher and workers: "kB Pss, kB private dirty" per process
# and the DSM segments under /dev/shm, once.
mem_line() {
	local label=$1 launcher=$2 pids p
	pids=$(q "SELECT string_agg(pid::text, ' ' ORDER BY pid) FROM pg_stat_activity WHERE backend_type LIKE 'iobench worker%'")
	printf '%-10s' "$label"
	for p in $launcher $pids; do
		awk '/^Pss:/ { pss = $2 } /^Private_Dirty:/ { pd = $2 } END { printf " %7d/%-6d", pss, pd }' \
			"/proc/$p/smaps_rollup" 2>/dev/null || printf ' %14s' gone
	done
	printf '   dsm %s kB\n' "$(run_segment_kb "$launcher" "${pids%% *}")"
}

part_memory() {
	local dur launcher t
	waits_restart "shared_preload_libraries = 'iobench'"
	echo
	echo "Memory over a run (kB Pss / kB private dirty: the launcher, then each worker; DSM segments of the run)"
	for dur in 60 3600; do
		echo "  run of $dur s, 2 workers, 8 KB random reads at 200 IOPS:"
		cluster_psql -At -c "SET iobench.progress = off" -c "SELECT run_id FROM iobench.run(rw => 'randread',
		     workers => 2, rate_iops => 200, duration => '${dur}s', file_size => '64MB', label => 'scaling')" \
			>/dev/null 2>&1 &
		for _ in $(seq 1 100); do
			launcher=$(q "SELECT pid FROM pg_stat_activity WHERE query LIKE '%label => ''scaling''%' AND pid <> pg_backend_pid()")
			[ -n "$launcher" ] && [ -n "$(q "SELECT 1 FROM pg_stat_activity WHERE backend_type LIKE 'iobench worker%' LIMIT 1")" ] && break
			sleep 0.2
		done
		for t in 2 10 20 30 40 50; do
			[ "$dur" -gt 60 ] && [ "$t" -gt 20 ] && break
			sleep $((t - ${prev:-0})); prev=$t
			mem_line "  ${t}s" "$launcher"
		done
		prev=0
		[ "$dur" -gt 60 ] && q "SELECT pg_cancel_backend($launcher)" >/dev/null
		wait || true
	done
}

main() {
	command -v fio >/dev/null && command -v jq >/dev/null || apt-get install -y -qq fio jq >/dev/null
	waits_private_install
	cluster_start "shared_preload_libraries = 'iobench'" "max_connections = 1100" \
		"shared_buffers = 256MB" "max_worker_processes = 40" "iobench.max_workers_per_run = 16"
	trap 'ramdev_cleanup; waits_cleanup' EXIT
	q "CREATE EXTENSION iobench" >/dev/null
	echo "scaling: PostgreSQL $(q 'SHOW server_version'), $(nproc) CPUs, $(fio --version), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for part in collector io store memory; do
		[ -z "$ONLY" ] || [[ " $ONLY " == *" $part "* ]] || continue
		"part_$part"
	done
	echo
	echo "scaling: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
}

main "$@"
