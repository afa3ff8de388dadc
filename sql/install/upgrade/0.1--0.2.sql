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

-- Runs on many servers (issue 12): the tables of sql/install/schema/40_fleet.sql.
CREATE TABLE iobench.fleets (
    fleet_id     bigserial PRIMARY KEY,
    suite        text,
    settings     jsonb NOT NULL,
    servers      text[] NOT NULL,
    concurrent   boolean NOT NULL,
    start_delay  interval,
    status       text NOT NULL CHECK (status IN ('completed', 'cancelled')),
    label        text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz NOT NULL
);
COMMENT ON TABLE iobench.fleets IS 'one row per run of a workload or suite on many servers';
CREATE TABLE iobench.fleet_runs (
    fleet_id      bigint NOT NULL REFERENCES iobench.fleets ON DELETE CASCADE,
    server        text NOT NULL,
    test_no       integer NOT NULL,
    test          text NOT NULL,
    run_id        bigint REFERENCES iobench.runs ON DELETE SET NULL,
    remote_run_id bigint,
    start_at      timestamptz,
    go_at         timestamptz,
    skew_us       double precision,
    error         text,
    sqlstate      text,
    PRIMARY KEY (fleet_id, server, test_no)
);
COMMENT ON TABLE iobench.fleet_runs IS 'per fleet call, server and test: the gathered run or the error';
CREATE TYPE iobench.fleet_result AS (
    fleet_id      bigint,
    server        text,
    test_no       integer,
    test          text,
    status        text,
    run_id        bigint,
    remote_run_id bigint,
    iops          numeric,
    mb_per_s      numeric,
    lat_p99_us    numeric,
    start_at      timestamptz,
    go_at         timestamptz,
    skew_ms       numeric,
    error         text);
COMMENT ON TYPE iobench.fleet_result IS 'per server and test of a fleet call: the gathered run''s figures or the error';

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
    ADD CONSTRAINT runs_status_check CHECK (status IN ('completed', 'cancelled', 'failed'));

-- 0.2 names binary throughput as binary: runs gains *_mib_per_s (2^20
-- bytes per second) beside the decimal *_mb_per_s of 0.1, which keep their
-- names and meaning; 0.1's rows get theirs from the stored bytes.
ALTER TABLE iobench.runs
    ADD COLUMN mib_per_s double precision,
    ADD COLUMN read_mib_per_s double precision,
    ADD COLUMN write_mib_per_s double precision;
UPDATE iobench.runs
   SET mib_per_s = mb_per_s * 1e6 / 1048576,
       read_mib_per_s = read_mb_per_s * 1e6 / 1048576,
       write_mib_per_s = write_mb_per_s * 1e6 / 1048576;
COMMENT ON COLUMN iobench.runs.block_size IS 'bytes';
COMMENT ON COLUMN iobench.runs.file_size IS 'bytes per file (file_size => ''256MB'' is 256 MiB, 268435456 bytes)';
COMMENT ON COLUMN iobench.runs.bytes IS 'bytes of data I/O (reads and writes) in the measured period';
COMMENT ON COLUMN iobench.runs.mb_per_s IS 'data I/O throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.read_mb_per_s IS 'read throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.write_mb_per_s IS 'write throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.mib_per_s IS 'data I/O throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.read_mib_per_s IS 'read throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.write_mib_per_s IS 'write throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';

-- 0.2 spells kilobytes as PostgreSQL does ("8 kB"), also in the names of
-- the built-in suite tests; suites stored before keep the names they ran
-- under.
UPDATE iobench.suite_tests
   SET test = regexp_replace(test, '([0-9]) KB\M', '\1 kB', 'g')
 WHERE suite IN ('sqlio', 'oltp') AND test ~ '[0-9] KB\M';
