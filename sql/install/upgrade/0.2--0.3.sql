------------------------------------------------------------------------
-- Upgrade from 0.2 to 0.3: the steps that CREATE OR REPLACE cannot take
--
-- The upgrade script iobench--0.2--0.3.sql is this file, then the schema
-- files new in 0.3 (NEW_SCHEMA_0.2 in the Makefile), then every
-- sql/install/code/*.sql file and finish.sql; see 0.1--0.2.sql for the
-- rules.  The test "upgrade" checks that an upgraded 0.2 equals a fresh 0.3.
------------------------------------------------------------------------

-- run() gained effective_io_concurrency and io_combine_limit (engine
-- 'postgres', issue 27): 10_run.sql creates the new one, which gets the
-- grants of the 0.2 function (finish.sql).
ALTER FUNCTION iobench.run(name, text, text, integer, integer, interval, interval,
                           text, integer, integer, integer, text, boolean, text,
                           integer, bigint, text, integer, boolean, interval,
                           interval, timestamptz, text, double precision,
                           interval, name[]) RENAME TO run__replaced;

-- compare_runs() shows each run's engine, and the io_method and
-- effective_io_concurrency of a run of engine 'postgres': a new result
-- type, for the API function (finish.sql carries its grants over) and for
-- its body in iobench_internal (finish.sql drops the old one).
ALTER FUNCTION iobench.compare_runs(bigint[], bigint) RENAME TO compare_runs__replaced;
ALTER FUNCTION iobench_internal.compare_runs(bigint[], bigint) RENAME TO compare_runs__replaced;

-- The functions that return rows return a composite type of
-- schema/70_result_rows.sql (new in 0.3), which says their columns once,
-- instead of a column list written in the API function and again in its
-- body: the same columns, a new result type.  As for compare_runs()
-- above, the API functions are replaced (their grants carried over) and
-- their bodies in iobench_internal dropped by finish.sql; the functions
-- that call them (report(), the wait tables, import_fio(), the fleet
-- comparison) are replaced by the code files and so call the new ones.
-- wait_event_descriptions() had no body in iobench_internal in 0.2.
ALTER FUNCTION iobench.compare(bigint, name) RENAME TO compare__replaced;
ALTER FUNCTION iobench_internal.compare(bigint, name) RENAME TO compare__replaced;
ALTER FUNCTION iobench.stalls(bigint, double precision, interval) RENAME TO stalls__replaced;
ALTER FUNCTION iobench_internal.stalls(bigint, double precision, interval) RENAME TO stalls__replaced;
ALTER FUNCTION iobench.disk_stats(bigint) RENAME TO disk_stats__replaced;
ALTER FUNCTION iobench_internal.disk_stats(bigint) RENAME TO disk_stats__replaced;
ALTER FUNCTION iobench.wait_event_descriptions() RENAME TO wait_event_descriptions__replaced;
ALTER FUNCTION iobench.merged_latency(bigint[], text) RENAME TO merged_latency__replaced;
ALTER FUNCTION iobench_internal.merged_latency(bigint[], text) RENAME TO merged_latency__replaced;
ALTER FUNCTION iobench.fleet_compare(bigint, text) RENAME TO fleet_compare__replaced;
ALTER FUNCTION iobench_internal.fleet_compare(bigint, text) RENAME TO fleet_compare__replaced;
-- (server_vs_disk() and tune_tablespace() are new in 0.3: nothing to replace)

-- pg_dump keeps the stored results (issue 35): every table of user data is
-- registered, as the schema files do for a fresh install, with the
-- sequences behind its serial columns (run_server_reads is new in 0.3: its
-- schema file registers it).  0.2 registered only benign_waits and the
-- wait snapshots.
SELECT pg_catalog.pg_extension_config_dump('iobench.runs', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.runs_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_seconds', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_latency', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_stalls', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_disk_seconds', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_tablespaces', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.suite_tests',
    $$WHERE NOT (suite = 'sqlio' AND test_no BETWEEN 1 AND 11 OR suite = 'oltp' AND test_no BETWEEN 1 AND 4)$$);
SELECT pg_catalog.pg_extension_config_dump('iobench.suites', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.suites_suite_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.suite_runs', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_waits', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_wait_sampling', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.fleets', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.fleets_fleet_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.fleet_runs', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.searches', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.searches_search_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.search_steps', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.live_runs', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.live_seconds', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.live_stalls', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.live_disk_seconds', '');

-- A run of engine 'postgres' that read more than 1 % of its blocks from
-- memory (shared buffers, the page cache) is stored with status "invalid"
-- (issue 35)
ALTER TABLE iobench.runs DROP CONSTRAINT runs_status_check,
    ADD CONSTRAINT runs_status_check CHECK (status IN ('completed', 'incomplete', 'cancelled', 'failed', 'invalid'));

-- A run that syncs after each write at iodepth 1 (the WAL test) stores its
-- commits, write plus sync, as the headline latency of compare() (issue 38)
ALTER TABLE iobench.runs
    ADD COLUMN commit_ops        bigint,
    ADD COLUMN commit_iops       double precision,
    ADD COLUMN commit_lat_avg_us double precision,
    ADD COLUMN commit_lat_p50_us double precision,
    ADD COLUMN commit_lat_p90_us double precision,
    ADD COLUMN commit_lat_p99_us double precision,
    ADD COLUMN commit_lat_p999_us double precision,
    ADD COLUMN commit_lat_max_us double precision;

-- Fleet calls run in the campaign frame (issue 37): their row is stored
-- "running" when they begin, finished when they end, and a cancelled one
-- is kept by the frame, so fleet_store() is gone
ALTER TABLE iobench.fleets DROP CONSTRAINT fleets_status_check,
    ADD CONSTRAINT fleets_status_check CHECK (status IN ('running', 'completed', 'cancelled')),
    ALTER COLUMN finished_at DROP NOT NULL;
DROP FUNCTION iobench_internal.fleet_store(jsonb, jsonb);
