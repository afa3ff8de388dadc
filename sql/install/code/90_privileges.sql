------------------------------------------------------------------------
-- Privileges of every object of the extension, in one place
--
-- Running benchmarks and reading their results is for the group role
-- iobench_user ("GRANT iobench_user TO alice" is the one step); reading
-- results is also for pg_monitor; resetting, snapshots and the benign list
-- are for the owner (and whoever the owner grants them to).  This file
-- runs last in the install script and again at the end of every upgrade.
--
-- The entry points a user calls (run, suite, pgiosim, report, compare,
-- compare_runs, stalls, run_json) are executable by PUBLIC as well: each
-- first calls iobench.require_grant(), which refuses a caller that holds
-- EXECUTE through no role but PUBLIC, with a HINT naming the grant.
-- PUBLIC's EXECUTE grants nothing else (see src/privileges.c).
------------------------------------------------------------------------

-- The group role of benchmark users.  Roles are cluster-wide and not
-- members of an extension (PostgreSQL's "Packaging Related Objects into an
-- Extension"): the role is made when missing, is shared by every database
-- that installs iobench, and stays after DROP EXTENSION.  An existing role
-- of that name is taken only when it is what this script would make (no
-- LOGIN, no attributes), so that no login role or superuser is handed
-- benchmark rights by accident.
DO $$
DECLARE
    r record;
BEGIN
    SELECT * INTO r FROM pg_catalog.pg_roles WHERE rolname = 'iobench_user';
    IF NOT FOUND THEN
        CREATE ROLE iobench_user NOLOGIN;
        COMMENT ON ROLE iobench_user IS 'iobench: members may run benchmarks and read results (GRANT iobench_user TO alice)';
    ELSIF r.rolcanlogin OR r.rolsuper OR r.rolcreaterole OR r.rolcreatedb
          OR r.rolreplication OR r.rolbypassrls THEN
        RAISE EXCEPTION 'role "iobench_user" exists but is not a group role without attributes'
            USING ERRCODE = 'duplicate_object',
                  DETAIL = 'iobench grants benchmark rights to role "iobench_user"; an existing role of that name must be NOLOGIN and have no other attributes.',
                  HINT = 'Rename the existing role (ALTER ROLE iobench_user RENAME TO ...) or remove its attributes (ALTER ROLE iobench_user NOLOGIN ...), then create the extension again.';
    END IF;
END
$$;

-- USAGE on the schema for PUBLIC too, so that a caller without a grant
-- reaches the entry points' check and its HINT rather than "permission
-- denied for schema iobench"; tables and the other functions keep their
-- own privileges.
GRANT USAGE ON SCHEMA iobench TO PUBLIC, iobench_user;

-- Running benchmarks is for the roles the owner grants it to; reading
-- results is for pg_monitor; resetting, snapshots and the benign list are
-- for the owner (and whoever the owner grants them to).  This file runs
-- last in the install script and again at the end of every upgrade.
------------------------------------------------------------------------

-- The grant check of the entry points
GRANT EXECUTE ON FUNCTION iobench.require_grant(regprocedure) TO PUBLIC;

-- Running benchmarks (PUBLIC revoked first, so that the ACL reads the same
-- after an upgrade from 0.1 as after a fresh install)
REVOKE ALL ON FUNCTION
    iobench.run,
    iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                    interval, text, interval, bigint, text),
    iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, text, text),
    iobench.latency_search(name, interval, double precision, text, text, integer, integer,
                           interval, interval, text, integer, boolean, text, bigint, text)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    iobench.run,
    iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                    interval, text, interval, bigint, text),
    iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, text, text),
    iobench.latency_search(name, interval, double precision, text, text, integer, integer,
                           interval, interval, text, integer, boolean, text, bigint, text)
TO PUBLIC, iobench_user;

-- Runs on many servers, and storing runs made elsewhere: the definer
-- functions (import_runs, import_fio, fleet_store) write the result
-- tables; fleet_run and fleet_suite run on other servers with the rights
-- the caller's user mappings give there.  The helpers they call check or
-- do nothing a caller could not do with dblink itself.
REVOKE ALL ON FUNCTION
    iobench.import_runs(jsonb, text),
    iobench.import_fio(jsonb, text, text),
    iobench.insert_run(jsonb),
    iobench.import_children(bigint, jsonb),
    iobench.fleet_store(jsonb, jsonb),
    iobench.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb),
    iobench.fleet_run(text[], jsonb, boolean, interval, text),
    iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint,
                        boolean, interval, text)
FROM PUBLIC;

-- Reading results
GRANT USAGE ON SCHEMA iobench TO pg_monitor;
GRANT SELECT ON iobench.runs, iobench.run_seconds, iobench.run_latency,
    iobench.run_disk_seconds, iobench.run_tablespaces TO pg_monitor, iobench_user;
REVOKE ALL ON FUNCTION
    iobench.compare(bigint, name),
    iobench.compare_runs(bigint[], bigint),
    iobench.stalls(bigint, double precision, interval),
    iobench.latency_ranges(bigint, text),
    iobench.report(bigint),
    iobench.fio_latency(bigint, text, double precision, double precision, boolean),
    iobench.fio_direction(iobench.runs, text),
    iobench.run_json(bigint),
    iobench.export_runs(bigint[], timestamptz),
    iobench.export_run_row(iobench.runs),
    iobench.merged_latency(bigint[], text),
    iobench.fleet_compare(bigint, text),
    iobench.fleet_report(bigint),
    iobench.disk_stats(bigint),
    iobench.latency_percentile(bigint, double precision, text)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    iobench.compare(bigint, name),
    iobench.compare_runs(bigint[], bigint),
    iobench.stalls(bigint, double precision, interval),
    iobench.latency_ranges(bigint, text),
    iobench.report(bigint),
    iobench.fio_latency(bigint, text, double precision, double precision, boolean),
    iobench.fio_direction(iobench.runs, text),
    iobench.run_json(bigint),
    iobench.export_runs(bigint[], timestamptz),
    iobench.export_run_row(iobench.runs),
    iobench.merged_latency(bigint[], text),
    iobench.fleet_compare(bigint, text),
    iobench.fleet_report(bigint),
    iobench.disk_stats(bigint),
    iobench.latency_percentile(bigint, double precision, text)
TO pg_monitor, iobench_user;
-- the entry points among them check the grant themselves (see above)
GRANT EXECUTE ON FUNCTION
    iobench.compare(bigint, name),
    iobench.compare_runs(bigint[], bigint),
    iobench.stalls(bigint, double precision, interval),
    iobench.report(bigint),
    iobench.run_json(bigint)
TO PUBLIC;
GRANT SELECT ON
    iobench.run_stalls,
    iobench.suite_tests,
    iobench.suites,
    iobench.suite_runs,
    iobench.suite_results,
    iobench.suite_comparison,
    iobench.fleets,
    iobench.fleet_runs,
    iobench.fleet_comparison,
    iobench.searches,
    iobench.search_steps,
    iobench.search_results,
    iobench.live_runs,
    iobench.live_seconds,
    iobench.live_stalls,
    iobench.live_disk_seconds,
    iobench.running_runs
TO pg_monitor, iobench_user;

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
-- the wait tables of runs, which report() shows (with the server's
-- descriptions they read)
GRANT EXECUTE ON FUNCTION
    iobench.wait_table_all(iobench.wait_raw[]),
    iobench.wait_table_all(iobench.wait_raw[], double precision),
    iobench.wait_table(iobench.wait_raw[]),
    iobench.wait_table(iobench.wait_raw[], double precision),
    iobench.wait_table_by_backend(iobench.wait_raw[]),
    iobench.wait_event_descriptions(),
    iobench.run_wait_stats(bigint),
    iobench.run_wait_stats_all(bigint)
TO iobench_user;
GRANT SELECT ON iobench.benign_waits, iobench.run_waits, iobench.run_wait_sampling TO iobench_user;

-- the summary of runs: the view reads the tables as its owner
GRANT SELECT ON iobench.run_summary TO pg_monitor, iobench_user;
