------------------------------------------------------------------------
-- Privileges of every object of the extension, in one place
--
-- Running benchmarks and reading their results is for the group role
-- iobench_user ("GRANT iobench_user TO alice" is the one step); reading
-- results is also for pg_monitor; resetting, snapshots and the benign list
-- are for the owner (and whoever the owner grants them to).  This file
-- runs last in the install script and again at the end of every upgrade.
--
-- Every function of the API is executable by PUBLIC as well: each first
-- calls iobench_internal.require_grant() (the SECURITY DEFINER imports
-- require_caller_grant(), the same in C), which refuses a caller that
-- holds EXECUTE through no role but PUBLIC, with a HINT naming the grant:
-- iobench_user, pg_monitor, or EXECUTE on the function for those of the
-- owner; sweep_io_workers() checks for a superuser itself.  PUBLIC's
-- EXECUTE grants nothing else (see src/base/privileges.c), so that a user
-- without a grant never meets PostgreSQL's bare "permission denied".
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

-- The internal schema: no role but the owner may use it.  The API's SQL
-- functions reach their helpers bound when created (SQL-standard bodies),
-- which needs no USAGE; the functions inside keep PUBLIC's EXECUTE, since
-- each reads and writes with the rights of its caller, or checks them.  A
-- role the owner lets make fleet calls gets USAGE too: the fleet's steps
-- run as their caller (its user mappings), by name.
REVOKE ALL ON SCHEMA iobench_internal FROM PUBLIC;

-- The grant check of the entry points
GRANT EXECUTE ON FUNCTION iobench_internal.require_grant(regprocedure),
    iobench_internal.require_caller_grant(regprocedure), iobench_internal.holds_grant(regprocedure) TO PUBLIC;

-- EXECUTE on the functions: for each, PUBLIC's default right is revoked
-- (so that the ACL reads the same after an upgrade from 0.1 as after a
-- fresh install), then EXECUTE is granted to the roles named, in that
-- order; the functions only the owner (and whoever the owner grants them
-- to) may call name PUBLIC alone, for the check, or nobody (the helpers).
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT * FROM (VALUES
        -- Running benchmarks
        ('iobench.run', 'PUBLIC, iobench_user'),
        ('iobench.drop_read_targets(name)', 'PUBLIC, iobench_user'),
        ('iobench.server_vs_disk(name, integer[], interval, text, integer, text)', 'PUBLIC, iobench_user'),
        ('iobench.tune_tablespace(name, integer[], integer[], double precision, interval, text,
                                  integer, text)', 'PUBLIC, iobench_user'),
        -- changes server settings (ALTER SYSTEM): superusers only, which it
        -- checks itself (PUBLIC only reaches that check)
        ('iobench.sweep_io_workers(name, integer[], text, text, integer, interval, text, integer,
                                   text)', 'PUBLIC'),
        ('iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                          interval, text, interval, bigint, text)', 'PUBLIC, iobench_user'),
        ('iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint,
                        text, text)', 'PUBLIC, iobench_user'),
        ('iobench.latency_search(name, interval, double precision, text, text, integer, integer,
                                 interval, interval, text, integer, boolean, text, bigint, text)',
         'PUBLIC, iobench_user'),
        -- Runs on many servers, and storing runs made elsewhere: the
        -- definer functions (import_runs, import_fio) and the campaign
        -- frame write the result tables; fleet_run and fleet_suite run on other servers
        -- with the rights the caller's user mappings give there.  The
        -- helpers they call (iobench_internal) check or do nothing a caller
        -- could not do with dblink itself.
        ('iobench.import_runs(jsonb, text)', 'PUBLIC'),
        ('iobench.import_fio(jsonb, text, text)', 'PUBLIC'),
        ('iobench_internal.insert_run(jsonb)', NULL),
        ('iobench_internal.import_children(bigint, jsonb)', NULL),
        ('iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb)', NULL),
        ('iobench.fleet_run(text[], jsonb, boolean, interval, text)', 'PUBLIC'),
        ('iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint,
                              boolean, interval, text)', 'PUBLIC'),
        -- Reading results (PUBLIC too: each checks the grant, see above)
        ('iobench.compare(bigint, name)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.compare_runs(bigint[], bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.stalls(bigint, double precision, interval)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.latency_ranges(bigint, text)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.report(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.fio_latency(bigint, text, double precision, double precision, boolean)',
         'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.fio_direction(iobench.runs, text)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.run_json(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.export_runs(bigint[], timestamptz)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.export_run_row(iobench.runs)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.merged_latency(bigint[], text)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.fleet_compare(bigint, text)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.fleet_report(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.disk_stats(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.latency_percentile(bigint, double precision, text)', 'pg_monitor, iobench_user, PUBLIC'),
        -- Wait statistics: for pg_monitor; the wait tables of runs, which
        -- report() shows (with the server's descriptions they read), for
        -- iobench_user too.  Those of the instance show every session's
        -- waits: pg_monitor alone.  PUBLIC everywhere, only so that the
        -- check (iobench_internal.require_grant(), or the same in C) tells a
        -- caller what to ask for.
        ('iobench.wait_table_all(iobench.wait_raw[])', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.wait_table(iobench.wait_raw[])', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.wait_table_all(iobench.wait_raw[], double precision)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.wait_table(iobench.wait_raw[], double precision)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.wait_table_by_backend(iobench.wait_raw[])', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.wait_event_descriptions()', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.waits_raw()', 'pg_monitor, PUBLIC'),
        ('iobench.reset_waits()', 'PUBLIC'),
        ('iobench.wait_collector_status()', 'pg_monitor, PUBLIC'),
        ('iobench.snapshot_waits(text)', 'PUBLIC'),
        ('iobench.wait_snapshot_diff_raw(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.wait_stats_diff(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.wait_stats_diff_all(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_raw(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_all(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_by_backend(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.run_wait_stats(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.run_wait_stats_all(bigint)', 'pg_monitor, iobench_user, PUBLIC')
    ) AS t(signature, grantees)
    LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f.signature);
        IF f.grantees IS NOT NULL THEN
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f.signature, f.grantees);
        END IF;
    END LOOP;
END
$$;

-- Reading results
GRANT USAGE ON SCHEMA iobench TO pg_monitor;
GRANT SELECT ON iobench.runs, iobench.run_seconds, iobench.run_latency,
    iobench.run_disk_seconds, iobench.run_tablespaces, iobench.run_server_reads,
    iobench.read_targets TO pg_monitor, iobench_user;
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
    iobench.tunings,
    iobench.tuning_runs,
    iobench.live_runs,
    iobench.live_seconds,
    iobench.live_stalls,
    iobench.live_disk_seconds,
    iobench.running_runs
TO pg_monitor, iobench_user;

-- Wait statistics
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
GRANT SELECT ON iobench.benign_waits, iobench.run_waits, iobench.run_wait_sampling TO iobench_user;
-- the views of the instance's waits too, so that their functions' check
-- tells a member of iobench_user that pg_monitor is the grant they need
GRANT SELECT ON iobench.wait_stats, iobench.wait_stats_all, iobench.wait_stats_by_backend,
    iobench.wait_collector TO iobench_user;

-- the summary of runs: the view reads the tables as its owner
GRANT SELECT ON iobench.run_summary TO pg_monitor, iobench_user;
