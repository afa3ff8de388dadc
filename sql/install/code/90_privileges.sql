------------------------------------------------------------------------
-- Privileges of every object of the extension, in one place
--
-- Running benchmarks is for the roles the owner grants it to; reading
-- results is for pg_monitor; resetting, snapshots and the benign list are
-- for the owner (and whoever the owner grants them to).  This file runs
-- last in the install script and again at the end of every upgrade.
------------------------------------------------------------------------

-- Running benchmarks
REVOKE ALL ON FUNCTION iobench.run FROM PUBLIC;
REVOKE ALL ON FUNCTION
    iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                    interval, text, interval, bigint, text),
    iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, text)
FROM PUBLIC;

-- Reading results
GRANT USAGE ON SCHEMA iobench TO pg_monitor;
GRANT SELECT ON iobench.runs, iobench.run_seconds, iobench.run_latency TO pg_monitor;
REVOKE ALL ON FUNCTION
    iobench.compare(bigint, name),
    iobench.compare_runs(bigint[], bigint),
    iobench.stalls(bigint, double precision, interval),
    iobench.latency_ranges(bigint, text),
    iobench.report(bigint),
    iobench.fio_latency(bigint, text, double precision, double precision, boolean),
    iobench.fio_direction(iobench.runs, text),
    iobench.run_json(bigint)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    iobench.compare(bigint, name),
    iobench.compare_runs(bigint[], bigint),
    iobench.stalls(bigint, double precision, interval),
    iobench.latency_ranges(bigint, text),
    iobench.report(bigint),
    iobench.fio_latency(bigint, text, double precision, double precision, boolean),
    iobench.fio_direction(iobench.runs, text),
    iobench.run_json(bigint)
TO pg_monitor;
GRANT SELECT ON
    iobench.run_stalls,
    iobench.suite_tests,
    iobench.suites,
    iobench.suite_runs,
    iobench.suite_results,
    iobench.suite_comparison
TO pg_monitor;

-- Wait statistics
REVOKE ALL ON FUNCTION
    iobench.wait_table_all(iobench.wait_raw[]),
    iobench.wait_table(iobench.wait_raw[]),
    iobench.wait_table_all(iobench.wait_raw[], double precision),
    iobench.wait_table(iobench.wait_raw[], double precision),
    iobench.wait_table_by_backend(iobench.wait_raw[]),
    iobench.wait_event_descriptions(),
    iobench.waits_raw(),
    iobench.reset_waits(),
    iobench.wait_collector_status(),
    iobench.snapshot_waits(text),
    iobench.wait_snapshot_diff_raw(text, text),
    iobench.wait_stats_diff(text, text),
    iobench.wait_stats_diff_all(text, text),
    iobench.sample_waits_raw(interval, interval, integer[]),
    iobench.sample_waits(interval, interval, integer[]),
    iobench.sample_waits_all(interval, interval, integer[]),
    iobench.sample_waits_by_backend(interval, interval, integer[]),
    iobench.run_wait_stats(bigint),
    iobench.run_wait_stats_all(bigint)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    iobench.wait_table_all(iobench.wait_raw[]),
    iobench.wait_table(iobench.wait_raw[]),
    iobench.wait_table_all(iobench.wait_raw[], double precision),
    iobench.wait_table(iobench.wait_raw[], double precision),
    iobench.wait_table_by_backend(iobench.wait_raw[]),
    iobench.wait_event_descriptions(),
    iobench.waits_raw(),
    iobench.wait_collector_status(),
    iobench.wait_snapshot_diff_raw(text, text),
    iobench.wait_stats_diff(text, text),
    iobench.wait_stats_diff_all(text, text),
    iobench.sample_waits_raw(interval, interval, integer[]),
    iobench.sample_waits(interval, interval, integer[]),
    iobench.sample_waits_all(interval, interval, integer[]),
    iobench.sample_waits_by_backend(interval, interval, integer[]),
    iobench.run_wait_stats(bigint),
    iobench.run_wait_stats_all(bigint)
TO pg_monitor;
GRANT SELECT ON
    iobench.benign_waits,
    iobench.wait_stats,
    iobench.wait_stats_all,
    iobench.wait_stats_by_backend,
    iobench.wait_collector,
    iobench.wait_snapshots,
    iobench.wait_snapshot_rows,
    iobench.run_waits,
    iobench.run_wait_sampling
TO pg_monitor;
