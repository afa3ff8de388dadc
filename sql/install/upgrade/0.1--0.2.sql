------------------------------------------------------------------------
-- Upgrade from 0.1 to 0.2: the steps that CREATE OR REPLACE cannot take
--
-- The upgrade script iobench--0.1--0.2.sql is this file followed by every
-- sql/install/code/*.sql file (functions and views, all CREATE OR
-- REPLACE, privileges last), so the functions of 0.2 replace those of 0.1
-- in place and keep the grants a DBA gave on them.  What goes here:
-- - changes to tables, types and built-in rows of sql/install/schema/*.sql;
-- - DROP of a function or view that 0.2 removes, or of a view whose
--   columns change (CREATE OR REPLACE cannot change those);
-- - a function whose arguments or result type change is renamed to
--   <name>__replaced: finish.sql, the last step, gives its grants to the
--   new function of that name and drops it.
-- Tables new in 0.2 that have a schema file of their own (15_run_details.sql, 40_fleet.sql,
-- 40_searches.sql, 50_live.sql), and the schema iobench_internal of the
-- functions that are not the API (05_internal.sql), are not repeated here: the Makefile puts
-- those files right after this one (NEW_SCHEMA_0.1 there).
-- The test "upgrade" checks that an upgraded 0.1 equals a fresh 0.2.
------------------------------------------------------------------------

-- 0.2 pins search_path in every SQL and PL/pgSQL function: the code files
-- that follow replace them all.

-- run() gained rewrite_pct, cold_reads, stall_threshold and
-- progress_interval (what pgiosim() needed, now settings of every run), and
-- start_at (a common start on many servers, issue 12): a
-- new argument list: 10_run.sql creates the new one, which gets the grants
-- of the 0.1 function (finish.sql).
ALTER FUNCTION iobench.run(name, text, text, integer, integer, interval, interval,
                           text, integer, integer, integer, text, boolean, text,
                           integer, bigint, text) RENAME TO run__replaced;

-- Runs record whether their buffered reads were kept cold.  In 0.1 only
-- pgiosim() did that, and only pgiosim() set a stall_threshold.
ALTER TABLE iobench.runs ADD COLUMN cold_reads boolean NOT NULL DEFAULT false;
UPDATE iobench.runs SET cold_reads = true WHERE stall_threshold IS NOT NULL;

-- The oltp suite's WAL test writes as the server's WAL writer does (its
-- wal_sync_method, or suite()'s new wal_sync_method argument); run()'s
-- sync_method also takes open_datasync and open_sync.
ALTER TABLE iobench.suite_tests DROP CONSTRAINT suite_tests_sync_method_check,
    ADD CONSTRAINT suite_tests_sync_method_check
    CHECK (sync_method IN ('fsync', 'fdatasync', 'open_datasync', 'open_sync', 'wal'));
UPDATE iobench.suite_tests
   SET test = 'WAL: 8 kB sequential write + sync, as the server', sync_method = 'wal',
       description = 'commits: each WAL page written and made durable as wal_sync_method says'
 WHERE suite = 'oltp' AND test_no = 4;
ALTER FUNCTION iobench.suite(text, name[], integer, interval, interval, text, boolean,
                             text, bigint, text) RENAME TO suite__replaced;

-- Runs store what the block device under the tablespace saw: its figures
-- over the measured period in runs, its seconds in run_disk_seconds.
ALTER TABLE iobench.runs
    ADD COLUMN disk          text,
    ADD COLUMN disk_r_s      double precision,
    ADD COLUMN disk_w_s      double precision,
    ADD COLUMN disk_rmb_s    double precision,
    ADD COLUMN disk_wmb_s    double precision,
    ADD COLUMN disk_aqu_sz   double precision,
    ADD COLUMN disk_util_pct double precision;

-- Steady-state detection (run()'s steady_state, steady_band, steady_window).
ALTER TABLE iobench.runs
    ADD COLUMN steady_state   text CHECK (steady_state IN ('iops', 'latency')),
    ADD COLUMN steady_band    double precision,
    ADD COLUMN steady_window  interval,
    ADD COLUMN steady_reached boolean,
    ADD COLUMN steady_at_s    integer;



-- 0.2 identifies runs across servers and keeps their origin (issue 12).
ALTER TABLE iobench.runs
    ADD COLUMN run_uuid uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    ADD COLUMN origin_run_id bigint,
    ADD COLUMN server text,
    ADD COLUMN imported_at timestamptz,
    ADD COLUMN tool text NOT NULL DEFAULT 'iobench',
    ADD COLUMN start_at timestamptz,
    ADD COLUMN go_at timestamptz,
    ADD CONSTRAINT runs_run_uuid_key UNIQUE (run_uuid);

-- compare_runs() names each run's server: a new result type (finish.sql
-- carries its grants over).
ALTER FUNCTION iobench.compare_runs(bigint[], bigint) RENAME TO compare_runs__replaced;

-- The test helper plant_waits() leaves the product: the bound on the
-- collector's shared memory is tested by a cluster started with a small
-- iobench.max_wait_types (t/001_wait_bound.pl).
DROP FUNCTION iobench.plant_waits(integer, double precision);

-- Honest counts and averages: the unrounded rows say whether their count
-- is exact.
ALTER TYPE iobench.wait_stats_row ADD ATTRIBUTE sampled_count bigint,
    ADD ATTRIBUTE count_exact boolean;

-- 0.2 stores a run that a worker's error ended, with status "failed"
ALTER TABLE iobench.runs DROP CONSTRAINT runs_status_check,
    ADD CONSTRAINT runs_status_check CHECK (status IN ('completed', 'incomplete', 'cancelled', 'failed'));

-- Wait statistics that know the newer servers: raw rows carry the backend
-- type of the processes that waited, the unrounded rows the server's
-- description and the backend types (the per-backend-type shape is
-- schema/35_waits_by_backend.sql); the idle loop of 18's I/O workers is
-- benign.
ALTER TYPE iobench.wait_raw ADD ATTRIBUTE backend_type text;
ALTER TYPE iobench.wait_stats_row ADD ATTRIBUTE description text,
    ADD ATTRIBUTE backend_types text[];
INSERT INTO iobench.benign_waits (wait_type, reason, builtin) VALUES
    ('Activity:IoWorkerMain', 'I/O worker waiting for I/O to do (PostgreSQL 18+)', true)
ON CONFLICT (wait_type) DO NOTHING;

-- 0.2 names binary throughput as binary: runs gains *_mib_per_s (2^20
-- bytes per second) beside the decimal *_mb_per_s of 0.1, which keep their
-- names and meaning; 0.1's rows get theirs from the stored bytes (the
-- column comments with the units: schema/11_runs_units.sql).
ALTER TABLE iobench.runs
    ADD COLUMN mib_per_s double precision,
    ADD COLUMN read_mib_per_s double precision,
    ADD COLUMN write_mib_per_s double precision;
UPDATE iobench.runs
   SET mib_per_s = mb_per_s * 1e6 / 1048576,
       read_mib_per_s = read_mb_per_s * 1e6 / 1048576,
       write_mib_per_s = write_mb_per_s * 1e6 / 1048576;

-- 0.2 spells kilobytes as PostgreSQL does ("8 kB"), also in the names of
-- the built-in suite tests; suites stored before keep the names they ran
-- under.
UPDATE iobench.suite_tests
   SET test = regexp_replace(test, '([0-9]) KB\M', '\1 kB', 'g')
 WHERE suite IN ('sqlio', 'oltp') AND test ~ '[0-9] KB\M';

-- Runs on a tablespace group (run(tablespaces => ...)).
ALTER TABLE iobench.runs ADD COLUMN tablespaces name[];


-- 0.2 records the server settings that shape I/O with each run.
ALTER TABLE iobench.runs
    ADD COLUMN io_method                  text,
    ADD COLUMN io_workers                 integer,
    ADD COLUMN io_min_workers             integer,
    ADD COLUMN io_max_workers             integer,
    ADD COLUMN io_combine_limit           text,
    ADD COLUMN effective_io_concurrency   integer,
    ADD COLUMN maintenance_io_concurrency integer,
    ADD COLUMN wal_sync_method            text,
    ADD COLUMN full_page_writes           boolean;
