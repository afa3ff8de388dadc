/* iobench--0.1--0.2.sql — upgrade from release 0.1 to 0.2, frozen by tools/release.sh from sql/install/ at c9df8601013a; never edited */
\echo Use "ALTER EXTENSION iobench UPDATE TO '0.2'" to load this file. \quit
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
------------------------------------------------------------------------
-- The internal schema
--
-- The functions that iobench's own functions call and users do not
-- (checks, parsers of imported documents, the fleet's steps) live in
-- iobench_internal, so that schema iobench holds only the API
-- (doc/reference.md).  No role is granted USAGE on it (90_privileges.sql):
-- the API reaches its helpers through SQL-standard function bodies, which
-- are bound when created, or as the extension's owner (SECURITY DEFINER).
------------------------------------------------------------------------
CREATE SCHEMA iobench_internal;
COMMENT ON SCHEMA iobench_internal IS 'iobench: internal functions, not an API (no role is granted USAGE)';
-- The units of the columns of iobench.runs whose names leave them open,
-- new in 0.2 (the upgrade from 0.1 runs this file as it is, after adding
-- the *_mib_per_s columns).
COMMENT ON COLUMN iobench.runs.block_size IS 'bytes';
COMMENT ON COLUMN iobench.runs.file_size IS 'bytes per file (file_size => ''256MB'' is 256 MiB, 268435456 bytes)';
COMMENT ON COLUMN iobench.runs.bytes IS 'bytes of data I/O (reads and writes) in the measured period';
COMMENT ON COLUMN iobench.runs.mb_per_s IS 'data I/O throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.read_mb_per_s IS 'read throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.write_mb_per_s IS 'write throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.mib_per_s IS 'data I/O throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.read_mib_per_s IS 'read throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.write_mib_per_s IS 'write throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
-- Details of runs new in 0.2: what the block device saw each second, and
-- the figures of each tablespace of a tablespace group.

-- What the block device under the tablespace saw, second by second of the
-- measured period (/proc/diskstats): the disk (for a partition, its whole
-- disk; a dm or md device itself) and, where the kernel lists them, its
-- members (member = true).  The counters are the differences over the
-- second (in_flight is the level at its end); the generated columns are
-- iostat's figures.  Discards and flushes are NULL where the kernel has
-- no such counters.  A run on a file system without a block device has no
-- rows here.  MB is 10^6 bytes; sectors are 512 bytes.
CREATE TABLE iobench.run_disk_seconds (
    run_id          bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    device          text NOT NULL,
    member          boolean NOT NULL,
    second          integer NOT NULL,
    interval_s      double precision NOT NULL CHECK (interval_s > 0),
    reads           bigint NOT NULL,
    read_merges     bigint NOT NULL,
    read_sectors    bigint NOT NULL,
    read_ms         bigint NOT NULL,
    writes          bigint NOT NULL,
    write_merges    bigint NOT NULL,
    write_sectors   bigint NOT NULL,
    write_ms        bigint NOT NULL,
    in_flight       bigint NOT NULL,
    io_ms           bigint NOT NULL,
    queue_ms        bigint NOT NULL,
    discards        bigint,
    discard_merges  bigint,
    discard_sectors bigint,
    discard_ms      bigint,
    flushes         bigint,
    flush_ms        bigint,
    r_s             double precision GENERATED ALWAYS AS (reads / interval_s) STORED,
    w_s             double precision GENERATED ALWAYS AS (writes / interval_s) STORED,
    rmb_s           double precision GENERATED ALWAYS AS (read_sectors * 512 / 1e6 / interval_s) STORED,
    wmb_s           double precision GENERATED ALWAYS AS (write_sectors * 512 / 1e6 / interval_s) STORED,
    areq_kb         double precision GENERATED ALWAYS AS (
                        CASE WHEN reads + writes + coalesce(discards, 0) > 0
                             THEN (read_sectors + write_sectors + coalesce(discard_sectors, 0)) / 2.0
                                  / (reads + writes + coalesce(discards, 0)) END) STORED,
    aqu_sz          double precision GENERATED ALWAYS AS (queue_ms / 1000.0 / interval_s) STORED,
    r_await_ms      double precision GENERATED ALWAYS AS (
                        CASE WHEN reads > 0 THEN read_ms::double precision / reads END) STORED,
    w_await_ms      double precision GENERATED ALWAYS AS (
                        CASE WHEN writes > 0 THEN write_ms::double precision / writes END) STORED,
    util_pct        double precision GENERATED ALWAYS AS (
                        LEAST(io_ms / 10.0 / interval_s, 100)) STORED,
    d_s             double precision GENERATED ALWAYS AS (discards / interval_s) STORED,
    f_s             double precision GENERATED ALWAYS AS (flushes / interval_s) STORED,
    PRIMARY KEY (run_id, device, second)
);
COMMENT ON TABLE iobench.run_disk_seconds IS 'per-second /proc/diskstats of the block device under each run''s tablespace, with iostat''s figures';


-- Each tablespace of a tablespace group (run(tablespaces => ...)): where
-- its files lay and its figures, the same columns as the run's own in
-- iobench.runs (which are the aggregate), from per-tablespace histograms.
CREATE TABLE iobench.run_tablespaces (
    run_id      bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    tablespace  name NOT NULL,
    position    integer NOT NULL,            -- in the group, from 1
    device      text,
    filesystem  text,
    mount_point text,
    files       integer NOT NULL,
    ops bigint,
    bytes bigint,
    mb_per_s double precision,
    mib_per_s double precision,
    iops double precision,
    lat_avg_us double precision,
    lat_p50_us double precision,
    lat_p90_us double precision,
    lat_p99_us double precision,
    lat_p999_us double precision,
    lat_max_us double precision,
    read_ops bigint,
    read_bytes bigint,
    read_mb_per_s double precision,
    read_mib_per_s double precision,
    read_iops double precision,
    read_lat_avg_us double precision,
    read_lat_p50_us double precision,
    read_lat_p90_us double precision,
    read_lat_p99_us double precision,
    read_lat_p999_us double precision,
    read_lat_max_us double precision,
    write_ops bigint,
    write_bytes bigint,
    write_mb_per_s double precision,
    write_mib_per_s double precision,
    write_iops double precision,
    write_lat_avg_us double precision,
    write_lat_p50_us double precision,
    write_lat_p90_us double precision,
    write_lat_p99_us double precision,
    write_lat_p999_us double precision,
    write_lat_max_us double precision,
    fsync_ops bigint,
    fsync_iops double precision,
    fsync_lat_avg_us double precision,
    fsync_lat_p50_us double precision,
    fsync_lat_p90_us double precision,
    fsync_lat_p99_us double precision,
    fsync_lat_p999_us double precision,
    fsync_lat_max_us double precision,
    PRIMARY KEY (run_id, tablespace)
);
COMMENT ON TABLE iobench.run_tablespaces IS 'per-tablespace figures of runs on a tablespace group';
-- The waits of each backend type (iobench.wait_table_by_backend()), new in
-- 0.2 (the upgrade from 0.1 runs this file as it is).
CREATE TYPE iobench.wait_backend_row AS (
    backend_type text,              -- NULL: unknown
    wait_type    text,
    wait_s       double precision,
    resource_s   double precision,
    signal_s     double precision,
    wait_count   bigint,            -- sampled entries (a lower bound)
    percentage   double precision,  -- of all non-benign wait time
    benign       boolean,
    description  text);
-- Runs on many servers: one row per fleet call, one per server and test.

-- One row per call of iobench.fleet_run() or iobench.fleet_suite().
CREATE TABLE iobench.fleets (
    fleet_id     bigserial PRIMARY KEY,
    suite        text,                       -- NULL: one workload (fleet_run)
    settings     jsonb NOT NULL,             -- the run() arguments sent to every server
    servers      text[] NOT NULL,            -- foreign server names, in the order given
    concurrent   boolean NOT NULL,           -- all at once (true) or one after another
    start_delay  interval,                   -- concurrent: from sending to the common start
    status       text NOT NULL CHECK (status IN ('completed', 'cancelled')),
    label        text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz NOT NULL
);
COMMENT ON TABLE iobench.fleets IS 'one row per run of a workload or suite on many servers';

-- What each server did for each test of a fleet call: the run gathered
-- from it, or the error it gave.
CREATE TABLE iobench.fleet_runs (
    fleet_id      bigint NOT NULL REFERENCES iobench.fleets ON DELETE CASCADE,
    server        text NOT NULL,
    test_no       integer NOT NULL,          -- 1 for fleet_run()
    test          text NOT NULL,
    run_id        bigint REFERENCES iobench.runs ON DELETE SET NULL, -- the gathered copy
    remote_run_id bigint,                    -- its run_id on the server
    start_at      timestamptz,               -- the common start (concurrent calls)
    go_at         timestamptz,               -- when the server's workers started
    skew_us       double precision,          -- go_at after the test's earliest go_at
    error         text,                      -- NULL: the server ran the test
    sqlstate      text,
    PRIMARY KEY (fleet_id, server, test_no)
);
COMMENT ON TABLE iobench.fleet_runs IS 'per fleet call, server and test: the gathered run or the error';

-- A row of what iobench.fleet_run() and fleet_suite() return: per server
-- and test, the gathered run's headline figures or the error.
CREATE TYPE iobench.fleet_result AS (
    fleet_id      bigint,
    server        text,
    test_no       integer,
    test          text,
    status        text,              -- completed, cancelled (the run's) or failed
    run_id        bigint,            -- the gathered copy, here
    remote_run_id bigint,            -- its run_id on the server
    iops          numeric,
    mb_per_s      numeric,
    lat_p99_us    numeric,
    start_at      timestamptz,
    go_at         timestamptz,
    skew_ms       numeric,           -- go_at after the test's earliest go_at
    error         text);
COMMENT ON TYPE iobench.fleet_result IS 'per server and test of a fleet call: the gathered run''s figures or the error';
-- Latency-target searches (iobench.latency_search()) and their steps.

-- One row per search: what it looked for, and its best step.
CREATE TABLE iobench.searches (
    search_id          bigserial PRIMARY KEY,
    status             text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
    label              text,
    started_at         timestamptz NOT NULL,
    finished_at        timestamptz,
    tablespace         name NOT NULL,
    latency_target     interval NOT NULL,
    latency_percentile double precision,      -- NULL: the mean latency
    rw                 text NOT NULL,
    block_size         integer NOT NULL,
    max_iodepth        integer NOT NULL,
    max_workers        integer NOT NULL,
    step_duration      interval NOT NULL,
    file_size          bigint NOT NULL,
    engine             text NOT NULL,         -- as requested
    best_step          integer                -- most IOPS within the target; NULL: none
);
COMMENT ON TABLE iobench.searches IS 'latency-target searches: the most load a disk carries within a latency target';

-- One row per step taken: a run at one workers x iodepth.
CREATE TABLE iobench.search_steps (
    search_id   bigint NOT NULL REFERENCES iobench.searches ON DELETE CASCADE,
    step        integer NOT NULL,
    run_id      bigint REFERENCES iobench.runs ON DELETE SET NULL,
    workers     integer NOT NULL,
    iodepth     integer NOT NULL,
    iops        double precision,
    latency_us  double precision,             -- the search's percentile (or mean) of data I/O
    met_target  boolean NOT NULL,
    PRIMARY KEY (search_id, step)
);
COMMENT ON TABLE iobench.search_steps IS 'the steps of each latency-target search, each a stored run';
-- What a running run has stored so far (its recorder's, src/recorder.c):
-- committed as the run goes, so other sessions see it and a crash keeps
-- it.  When the run is stored in iobench.runs its seconds move to
-- iobench.run_seconds and its live rows are deleted, in one transaction;
-- rows whose recorder is gone and whose run is not in iobench.runs are
-- those of a run interrupted (a crash, an error) — delete them at will.

CREATE TABLE iobench.live_runs (
    run_id          bigint PRIMARY KEY,         -- the iobench.runs row it will be
    started_at      timestamptz NOT NULL,
    recorder_pid    integer NOT NULL,
    recorder_start  timestamptz,                -- with the pid, names the process
    launcher_pid    integer NOT NULL,
    tablespace      name NOT NULL,
    rw              text NOT NULL,
    block_size      integer NOT NULL,
    workers         integer NOT NULL,
    iodepth         integer NOT NULL,
    duration        interval NOT NULL,
    -- what of the shared memory's seconds (src/second_ring.h) the rows
    -- below hold: seconds of the ring, and each worker's late entries
    ring_stored     integer NOT NULL DEFAULT 0,
    late_stored     bigint[] NOT NULL DEFAULT '{}'
);
COMMENT ON TABLE iobench.live_runs IS 'runs going on (or interrupted), as their recorder stored them';

-- The rows that move to iobench.run_seconds: its columns, keyed to the
-- live run.
CREATE TABLE iobench.live_seconds (
    LIKE iobench.run_seconds,
    CHECK (op IN ('read', 'write', 'fsync')),
    PRIMARY KEY (run_id, second, op),
    FOREIGN KEY (run_id) REFERENCES iobench.live_runs ON DELETE CASCADE
);
COMMENT ON TABLE iobench.live_seconds IS 'the seconds of runs going on, stored as they end';

CREATE TABLE iobench.live_stalls (
    run_id       bigint NOT NULL REFERENCES iobench.live_runs ON DELETE CASCADE,
    at_s         double precision NOT NULL,
    worker       integer NOT NULL,
    file         integer NOT NULL,
    file_offset  bigint NOT NULL,
    write_us     double precision NOT NULL,
    sync_us      double precision NOT NULL
);
CREATE INDEX ON iobench.live_stalls (run_id, at_s);
COMMENT ON TABLE iobench.live_stalls IS 'the write stalls of runs going on, stored as they happen';

-- The block device's seconds of runs going on: iobench.run_disk_seconds'
-- columns, iostat's generated ones included, keyed to the live run.
CREATE TABLE iobench.live_disk_seconds (
    LIKE iobench.run_disk_seconds INCLUDING GENERATED,
    CHECK (interval_s > 0),
    PRIMARY KEY (run_id, device, second),
    FOREIGN KEY (run_id) REFERENCES iobench.live_runs ON DELETE CASCADE
);
COMMENT ON TABLE iobench.live_disk_seconds IS 'the block device''s seconds of runs going on';
-- Who may run benchmarks and read results (C, src/privileges.c).  The group
-- role iobench_user and the grants are made in 90_privileges.sql.

-- Raise "permission denied" with a HINT naming the grant unless the caller
-- holds EXECUTE on function fn through a role other than PUBLIC.  The entry
-- points call it first: PUBLIC may call them only to get that error.
CREATE OR REPLACE FUNCTION iobench_internal.require_grant(fn regprocedure)
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_require_grant'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION iobench_internal.require_grant(regprocedure) IS 'raise permission denied, with the grant to ask for, unless the caller was granted EXECUTE on the function';
-- Checks of the arguments that name stored runs, shared by the functions
-- that read them (the API calls them before its bodies: 20_presets.sql on).

-- The stored run run_id, for the functions that read one; the errors name
-- their argument "run_id".
CREATE OR REPLACE FUNCTION iobench_internal.existing_run(run_id bigint)
RETURNS iobench.runs
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
BEGIN
    IF existing_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = existing_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', existing_run.run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN r;
END
$$;
COMMENT ON FUNCTION iobench_internal.existing_run(bigint) IS 'the stored run of that id; an error when there is none';

-- Check an argument "run_ids" of the functions that read several runs: no
-- nulls, every run stored, and (when required) at least one run.
CREATE OR REPLACE FUNCTION iobench_internal.check_run_ids(run_ids bigint[], required boolean)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    missing bigint;
BEGIN
    IF check_run_ids.required
       AND (check_run_ids.run_ids IS NULL OR cardinality(check_run_ids.run_ids) = 0) THEN
        RAISE EXCEPTION 'argument "run_ids" must name at least one run'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(check_run_ids.run_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "run_ids" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.id INTO missing
      FROM unnest(check_run_ids.run_ids) u(id)
     WHERE NOT EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = u.id)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % does not exist', missing
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_run_ids(bigint[], boolean) IS 'check an argument run_ids: no nulls, every run stored, at least one when required';
-- Running one benchmark (C, src/run_launcher.c).

CREATE OR REPLACE FUNCTION iobench.run(
    tablespace   name     DEFAULT 'pg_default',
    rw           text     DEFAULT NULL,    -- NULL: randread (the WAL writer's with sync_method 'wal')
    block_size   text     DEFAULT '8kB',
    workers      integer  DEFAULT 1,
    iodepth      integer  DEFAULT 1,
    duration     interval DEFAULT '10s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    files        integer  DEFAULT 1,
    read_pct     integer  DEFAULT NULL,
    fsync_every  integer  DEFAULT 0,
    sync_method  text     DEFAULT 'fsync',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    rate_iops    integer  DEFAULT 0,
    seed         bigint   DEFAULT NULL,
    label        text     DEFAULT NULL,
    rewrite_pct  integer  DEFAULT 0,
    cold_reads   boolean  DEFAULT false,
    stall_threshold interval DEFAULT NULL,
    progress_interval interval DEFAULT '1s',
    start_at     timestamptz DEFAULT NULL,
    steady_state text     DEFAULT NULL,
    steady_band  double precision DEFAULT 10,
    steady_window interval DEFAULT '5s',
    tablespaces  name[]   DEFAULT NULL)
RETURNS iobench.runs
AS 'MODULE_PATHNAME', 'iobench_run'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.run IS 'run one I/O benchmark in background workers and store its result';
-- Presets built on run(): pgiosim() and suite() (C, src/pgiosim.c and
-- src/suite.c), and the
-- side-by-side comparison of suites and runs.

-- pgiosim's workload done right: random 8 kB buffered reads from a cold
-- cache over "files" files, write_pct % of them followed by a rewrite of the
-- same block and (fsync on) an fsync; stalls counted and listed.  workers
-- NULL: pgiosim's 10, or as many as a run may have here when fewer (a
-- NOTICE says so).
CREATE OR REPLACE FUNCTION iobench.pgiosim(
    tablespace        name     DEFAULT 'pg_default',
    files             integer  DEFAULT 4,
    workers           integer  DEFAULT NULL,
    write_pct         integer  DEFAULT 10,
    fsync             boolean  DEFAULT true,
    stall_threshold   interval DEFAULT '1s',
    duration          interval DEFAULT '60s',
    file_size         text     DEFAULT '1GB',
    warmup            interval DEFAULT '0s',
    sync_method       text     DEFAULT 'fsync',
    progress_interval interval DEFAULT '10s',
    seed              bigint   DEFAULT NULL,
    label             text     DEFAULT 'pgiosim')
RETURNS iobench.runs
AS 'MODULE_PATHNAME', 'iobench_pgiosim'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.pgiosim IS 'pgiosim-style burn-in: random 8 kB cold reads, a share rewritten and fsync''d, write stalls listed';

-- Mean and standard deviation over the repeats of each (suite, test,
-- tablespace); figures of completed runs only.  Rounded for reading: the
-- exact figures are in iobench.runs.
CREATE OR REPLACE VIEW iobench.suite_results AS
SELECT sr.suite_id,
       s.name AS suite,
       sr.test_no,
       sr.test,
       array_position(s.tablespaces, sr.tablespace) AS tablespace_no,
       sr.tablespace,
       count(r.run_id)::integer AS runs,
       max(r.workers) AS workers,
       max(r.iodepth) AS iodepth,
       max(r.engine) AS engine,
       round(avg(r.iops)::numeric, 1) AS iops,
       round(stddev_samp(r.iops)::numeric, 1) AS iops_stddev,
       round(avg(r.mb_per_s)::numeric, 2) AS mb_per_s,
       round(stddev_samp(r.mb_per_s)::numeric, 2) AS mb_per_s_stddev,
       round(avg(r.lat_avg_us)::numeric, 1) AS lat_avg_us,
       round(avg(r.lat_p99_us)::numeric, 1) AS lat_p99_us,
       round(stddev_samp(r.lat_p99_us)::numeric, 1) AS lat_p99_stddev,
       round(avg(r.fsync_lat_p99_us)::numeric, 1) AS fsync_p99_us,
       string_agg(DISTINCT sr.note, '; ') AS note,
       round(avg(r.mib_per_s)::numeric, 2) AS mib_per_s,
       round(stddev_samp(r.mib_per_s)::numeric, 2) AS mib_per_s_stddev
  FROM iobench.suite_runs sr
  JOIN iobench.suites s USING (suite_id)
  LEFT JOIN iobench.runs r ON r.run_id = sr.run_id AND r.status IN ('completed', 'incomplete')
 GROUP BY sr.suite_id, s.name, sr.test_no, sr.test, s.tablespaces, sr.tablespace;
COMMENT ON VIEW iobench.suite_results IS 'per suite, test and tablespace: mean and standard deviation over the repeats';

-- Run a named suite on each tablespace; one row per (test, tablespace).
CREATE OR REPLACE FUNCTION iobench.suite(
    name         text,
    tablespaces  name[],
    repeat       integer  DEFAULT 1,
    duration     interval DEFAULT '30s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    seed         bigint   DEFAULT NULL,
    label        text     DEFAULT NULL,
    wal_sync_method text  DEFAULT NULL)
RETURNS SETOF iobench.suite_results
AS 'MODULE_PATHNAME', 'iobench_suite'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.suite IS 'run a named suite (iobench.suite_tests) on each tablespace, repeat times, and store it';

-- Every suite's tablespaces side by side with the first one (the
-- baseline): ratios above 1 mean more IOPS or MB/s, or a longer p99.
CREATE OR REPLACE VIEW iobench.suite_comparison AS
SELECT o.suite_id,
       o.suite,
       o.test_no,
       o.test,
       b.tablespace AS base_tablespace,
       o.tablespace,
       b.iops AS base_iops,
       o.iops,
       round(o.iops / nullif(b.iops, 0), 2) AS iops_ratio,
       b.mb_per_s AS base_mb_per_s,
       o.mb_per_s,
       round(o.mb_per_s / nullif(b.mb_per_s, 0), 2) AS mb_per_s_ratio,
       b.lat_p99_us AS base_p99_us,
       o.lat_p99_us AS p99_us,
       round(o.lat_p99_us / nullif(b.lat_p99_us, 0), 2) AS p99_ratio,
       o.tablespace_no,
       o.note
  FROM iobench.suite_results o
  JOIN iobench.suite_results b
    ON b.suite_id = o.suite_id AND b.test_no = o.test_no AND b.tablespace_no = 1;
COMMENT ON VIEW iobench.suite_comparison IS 'each suite''s tablespaces side by side per test, with ratios to the first tablespace';

-- One suite's tablespaces side by side per test, against a chosen baseline
-- (the suite's first tablespace when NULL).  The baseline's own rows have
-- ratio 1.
CREATE OR REPLACE FUNCTION iobench_internal.compare(suite_id bigint, baseline name DEFAULT NULL)
RETURNS TABLE (
    test_no        integer,
    test           text,
    base_tablespace name,
    tablespace     name,
    base_iops      numeric,
    iops           numeric,
    iops_ratio     numeric,
    base_mb_per_s  numeric,
    mb_per_s       numeric,
    mb_per_s_ratio numeric,
    base_p99_us    numeric,
    p99_us         numeric,
    p99_ratio      numeric,
    note           text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    spcs name[];
    base name;
BEGIN
    IF compare.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT s.tablespaces INTO spcs FROM iobench.suites s WHERE s.suite_id = compare.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', compare.suite_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Stored suites are listed in iobench.suites.';
    END IF;
    base := coalesce(compare.baseline, spcs[1]);
    IF NOT base = ANY (spcs) THEN
        RAISE EXCEPTION 'tablespace "%" is not part of suite %', base, compare.suite_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Suite %s ran on %s.', compare.suite_id,
                                (SELECT string_agg(format('"%s"', t), ', ') FROM unnest(spcs) t));
    END IF;
    RETURN QUERY
    SELECT o.test_no, o.test, b.tablespace, o.tablespace,
           b.iops, o.iops, round(o.iops / nullif(b.iops, 0), 2),
           b.mb_per_s, o.mb_per_s, round(o.mb_per_s / nullif(b.mb_per_s, 0), 2),
           b.lat_p99_us, o.lat_p99_us, round(o.lat_p99_us / nullif(b.lat_p99_us, 0), 2),
           o.note
      FROM iobench.suite_results o
      JOIN iobench.suite_results b
        ON b.suite_id = o.suite_id AND b.test_no = o.test_no AND b.tablespace = base
     WHERE o.suite_id = compare.suite_id
     ORDER BY o.test_no, o.tablespace_no;
END
$$;
COMMENT ON FUNCTION iobench_internal.compare(bigint, name) IS 'the body of iobench.compare(), which checks the grant first';

-- iobench.compare(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.compare(suite_id bigint, baseline name DEFAULT NULL)
RETURNS TABLE (
    test_no        integer,
    test           text,
    base_tablespace name,
    tablespace     name,
    base_iops      numeric,
    iops           numeric,
    iops_ratio     numeric,
    base_mb_per_s  numeric,
    mb_per_s       numeric,
    mb_per_s_ratio numeric,
    base_p99_us    numeric,
    p99_us         numeric,
    p99_ratio      numeric,
    note           text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.compare(bigint, name)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.compare(compare.suite_id, compare.baseline);
END;
COMMENT ON FUNCTION iobench.compare(bigint, name) IS 'one suite''s tablespaces side by side per test, with ratios to a baseline tablespace';

-- Any runs side by side, in the order given, against a baseline run (the
-- first when NULL).  server names where each ran: the name it was gathered
-- or imported under, or the host for runs made here.
CREATE OR REPLACE FUNCTION iobench_internal.compare_runs(run_ids bigint[], baseline bigint DEFAULT NULL)
RETURNS TABLE (
    run_id         bigint,
    server         text,
    label          text,
    tablespace     name,
    rw             text,
    block_size     integer,
    workers        integer,
    iodepth        integer,
    baseline_run   bigint,
    base_iops      numeric,
    iops           numeric,
    iops_ratio     numeric,
    base_mb_per_s  numeric,
    mb_per_s       numeric,
    mb_per_s_ratio numeric,
    base_p99_us    numeric,
    p99_us         numeric,
    p99_ratio      numeric)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    base bigint;
BEGIN
    base := coalesce(compare_runs.baseline, compare_runs.run_ids[1]);
    IF NOT base = ANY (compare_runs.run_ids) THEN
        RAISE EXCEPTION 'baseline run % is not one of the runs compared', base
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    SELECT o.run_id, coalesce(iobench.run_server(o), o.host), o.label, o.tablespace, o.rw, o.block_size, o.workers, o.iodepth, b.run_id,
           round(b.iops::numeric, 1), round(o.iops::numeric, 1),
           round((o.iops / nullif(b.iops, 0))::numeric, 2),
           round(b.mb_per_s::numeric, 2), round(o.mb_per_s::numeric, 2),
           round((o.mb_per_s / nullif(b.mb_per_s, 0))::numeric, 2),
           round(b.lat_p99_us::numeric, 1), round(o.lat_p99_us::numeric, 1),
           round((o.lat_p99_us / nullif(b.lat_p99_us, 0))::numeric, 2)
      FROM unnest(compare_runs.run_ids) WITH ORDINALITY AS u(id, n)
      JOIN iobench.runs o ON o.run_id = u.id
      JOIN iobench.runs b ON b.run_id = base
     ORDER BY u.n;
END
$$;
COMMENT ON FUNCTION iobench_internal.compare_runs(bigint[], bigint) IS 'the body of iobench.compare_runs(), which checks the grant and the runs first';

-- iobench.compare_runs(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.compare_runs(run_ids bigint[], baseline bigint DEFAULT NULL)
RETURNS TABLE (
    run_id         bigint,
    server         text,
    label          text,
    tablespace     name,
    rw             text,
    block_size     integer,
    workers        integer,
    iodepth        integer,
    baseline_run   bigint,
    base_iops      numeric,
    iops           numeric,
    iops_ratio     numeric,
    base_mb_per_s  numeric,
    mb_per_s       numeric,
    mb_per_s_ratio numeric,
    base_p99_us    numeric,
    p99_us         numeric,
    p99_ratio      numeric)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.compare_runs(bigint[], bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.check_run_ids(compare_runs.run_ids, true);
    SELECT * FROM iobench_internal.compare_runs(compare_runs.run_ids, compare_runs.baseline);
END;
COMMENT ON FUNCTION iobench.compare_runs(bigint[], bigint) IS 'any runs side by side, with ratios to a baseline run';
-- Reading stored results: stall hunting, formatting helpers, the text report
-- for psql and a fio-shaped JSON export.

-- The name a run goes by beside others: the name it was gathered or
-- imported under, or, for a run a fleet call made on this very database
-- (through a foreign server that reaches it: a loopback), that server's
-- name in iobench.fleet_runs, which the call recorded without changing
-- the run; NULL for a run made here otherwise.
CREATE OR REPLACE FUNCTION iobench.run_server(r iobench.runs)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(r.server,
                    (SELECT fr.server FROM iobench.fleet_runs fr
                      WHERE fr.run_id = r.run_id ORDER BY fr.fleet_id, fr.server LIMIT 1))
$$;
COMMENT ON FUNCTION iobench.run_server(iobench.runs) IS 'the name a run goes by: gathered or imported under, or its loopback fleet server';

-- Seconds of a run in which data-I/O throughput fell under min_fraction of
-- the run's median second, or the longest I/O completed (any kind, syncs
-- included) took longer than max_latency.  Seconds in which nothing
-- completed count as throughput 0.  A final second shorter than half a
-- second is judged on latency only.  NULL turns a criterion off.
CREATE OR REPLACE FUNCTION iobench_internal.stalls(
    run_id        bigint,
    min_fraction  double precision DEFAULT 0.5,
    max_latency   interval DEFAULT '1s')
RETURNS TABLE (
    second         integer,
    iops           numeric,
    median_iops    numeric,
    fraction       numeric,
    max_latency_us numeric,
    max_latency_op text,
    reason         text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    measured double precision;
    max_us double precision := extract(epoch FROM stalls.max_latency) * 1e6;
BEGIN
    IF stalls.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF stalls.min_fraction < 0 OR stalls.min_fraction > 1 THEN
        RAISE EXCEPTION '% is out of range for argument "min_fraction"', stalls.min_fraction
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are between 0 and 1.';
    END IF;
    IF max_us <= 0 THEN
        RAISE EXCEPTION '"%" is out of range for argument "max_latency"', stalls.max_latency
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are greater than 0 seconds.';
    END IF;
    SELECT x.measured_s INTO measured FROM iobench.runs x WHERE x.run_id = stalls.run_id;

    RETURN QUERY
    WITH secs AS (
        SELECT g AS sec, least(1.0, measured - g) AS len
          FROM generate_series(0, greatest(ceil(coalesce(measured, 0))::integer - 1, -1)) AS g
    ), per AS (
        SELECT s.sec, s.len,
               coalesce(sum(rs.ops) FILTER (WHERE rs.op <> 'fsync'), 0) / s.len AS rate,
               max(rs.lat_max_us) AS max_lat,
               (array_agg(rs.op ORDER BY rs.lat_max_us DESC NULLS LAST))[1] AS max_op
          FROM secs s
          LEFT JOIN iobench.run_seconds rs ON rs.run_id = stalls.run_id AND rs.second = s.sec
         GROUP BY s.sec, s.len
    ), med AS (
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY p.rate) AS m
          FROM per p
         WHERE p.len >= 0.5 OR NOT EXISTS (SELECT FROM per q WHERE q.len >= 0.5)
    ), judged AS (
        SELECT p.*, med.m,
               (p.len >= 0.5 AND p.rate < stalls.min_fraction * med.m) AS slow,
               (p.max_lat > max_us) AS late
          FROM per p, med
    )
    SELECT j.sec, round(j.rate::numeric, 1), round(j.m::numeric, 1),
           round((j.rate / nullif(j.m, 0))::numeric, 3),
           round(j.max_lat::numeric, 1), j.max_op,
           concat_ws(', ',
                     CASE WHEN j.slow AND j.rate = 0 THEN 'no I/O completed'
                          WHEN j.slow THEN 'throughput' END,
                     CASE WHEN j.late THEN 'latency' END)
      FROM judged j
     WHERE coalesce(j.slow, false) OR coalesce(j.late, false)
     ORDER BY j.sec;
END
$$;
COMMENT ON FUNCTION iobench_internal.stalls(bigint, double precision, interval) IS 'the body of iobench.stalls(), which checks the grant and the run first';

-- iobench.stalls(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.stalls(
    run_id        bigint,
    min_fraction  double precision DEFAULT 0.5,
    max_latency   interval DEFAULT '1s')
RETURNS TABLE (
    second         integer,
    iops           numeric,
    median_iops    numeric,
    fraction       numeric,
    max_latency_us numeric,
    max_latency_op text,
    reason         text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.stalls(bigint, double precision, interval)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(stalls.run_id);
    SELECT * FROM iobench_internal.stalls(stalls.run_id, stalls.min_fraction, stalls.max_latency);
END;
COMMENT ON FUNCTION iobench.stalls(bigint, double precision, interval) IS 'seconds of a run where throughput collapsed or latency spiked';

-- A latency in microseconds for reading: three significant digits, in µs,
-- ms or s.
CREATE OR REPLACE FUNCTION iobench.format_us(us double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN us IS NULL THEN '-'
        WHEN us = 0 THEN '0 µs'
        -- NaN and the infinities have no magnitude to round to
        WHEN us IN ('NaN', 'Infinity', '-Infinity') THEN us::text
        WHEN us < 1000 THEN
            round(us::numeric, greatest(0, 2 - floor(log(abs(us)))::integer)) || ' µs'
        WHEN us < 1000000 THEN
            round((us / 1000)::numeric, greatest(0, 2 - floor(log(us / 1000))::integer)) || ' ms'
        ELSE
            round((us / 1000000)::numeric, greatest(0, 2 - floor(log(us / 1000000))::integer)) || ' s'
    END
$$;
COMMENT ON FUNCTION iobench.format_us(double precision) IS 'a latency in microseconds as text with a unit (µs, ms, s)';

-- A size in bytes for reading: exact kB, MB or GB when it is a whole
-- number of them (8 kB, 1 MB), else as pg_size_pretty() has it.
CREATE OR REPLACE FUNCTION iobench.format_bytes(bytes bigint)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN bytes IS NULL THEN '-'
        WHEN bytes > 0 AND bytes % 1073741824 = 0 THEN (bytes / 1073741824) || ' GB'
        WHEN bytes > 0 AND bytes % 1048576 = 0 THEN (bytes / 1048576) || ' MB'
        WHEN bytes > 0 AND bytes % 1024 = 0 THEN (bytes / 1024) || ' kB'
        ELSE pg_size_pretty(bytes)
    END
$$;
COMMENT ON FUNCTION iobench.format_bytes(bigint) IS 'a size in bytes as text with a unit (kB, MB, GB are 1024-based, as PostgreSQL''s)';

-- A throughput in bytes per second for reading, binary first and decimal
-- beside it, as fio prints it: 66.6 MiB/s (69.8 MB/s); GiB/s (GB/s) from
-- 1 GiB/s up.
CREATE OR REPLACE FUNCTION iobench.format_rate(bytes_per_s double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN bytes_per_s IS NULL THEN '-'
        WHEN bytes_per_s >= 1073741824 THEN
            round((bytes_per_s / 1073741824)::numeric, 2) || ' GiB/s ('
            || round((bytes_per_s / 1e9)::numeric, 2) || ' GB/s)'
        ELSE
            round((bytes_per_s / 1048576)::numeric, 1) || ' MiB/s ('
            || round((bytes_per_s / 1e6)::numeric, 1) || ' MB/s)'
    END
$$;
COMMENT ON FUNCTION iobench.format_rate(double precision) IS 'a throughput in bytes per second as text: MiB/s with MB/s beside it';

-- A sparkline of the values, one character each, scaled from 0 to the
-- largest finite value; 0 is a blank, so a second without I/O shows as a
-- gap; NaN is a blank too and Infinity a full block.
CREATE OR REPLACE FUNCTION iobench.sparkline(vals double precision[])
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT string_agg(
               CASE WHEN v IS NULL OR v = 'NaN' OR v <= 0 THEN ' '
                    WHEN v = 'Infinity' THEN '█'
                    WHEN m IS NULL OR m <= 0 THEN ' '
                    ELSE substr('▁▂▃▄▅▆▇█', least(8, 1 + floor(v / m * 8)::integer), 1)
               END, '' ORDER BY n)
      FROM unnest(vals) WITH ORDINALITY AS u(v, n),
           -- the scale: the largest finite value (NaN sorts above Infinity)
           (SELECT max(x) FILTER (WHERE x < 'Infinity') AS m FROM unnest(vals) AS x) AS mx
$$;
COMMENT ON FUNCTION iobench.sparkline(double precision[]) IS 'values as a line of ▁▂▃▄▅▆▇█ scaled from 0 to the largest';

-- A bar of width/8 character cells for a share (0..1) of the width,
-- drawn with eighth blocks.
CREATE OR REPLACE FUNCTION iobench.bar(share double precision, width integer DEFAULT 40)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT repeat('█', (e / 8)::integer)
           || CASE WHEN e % 8 > 0 THEN substr('▏▎▍▌▋▊▉', (e % 8)::integer, 1) ELSE '' END
      FROM (SELECT round(greatest(least(coalesce(share, 0), 1), 0) * width * 8)::bigint AS e) AS x
$$;
COMMENT ON FUNCTION iobench.bar(double precision, integer) IS 'a horizontal bar of block characters for a share between 0 and 1';

-- A run in a dozen columns a DBA reads first, rounded and with units:
--   SELECT * FROM iobench.summary(iobench.run(duration => '10s'));
-- The full row stays in iobench.runs; the view iobench.run_summary has every
-- stored run this way.  NULL (no run) gives no row.
CREATE OR REPLACE FUNCTION iobench.summary(r iobench.runs)
RETURNS TABLE (
    run_id     bigint,
    status     text,
    tablespace name,
    storage    text,
    workload   text,
    seconds    numeric,
    iops       numeric,
    throughput text,
    lat_avg    text,
    lat_p50    text,
    lat_p99    text,
    lat_max    text,
    fsync_p99  text)
LANGUAGE sql STABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT r.run_id, r.status, r.tablespace,
           concat_ws(', ', coalesce(r.device, '?'),
                     coalesce(r.filesystem, '?') || ' on ' || coalesce(r.mount_point, '?')),
           format('%s %s, %s worker%s x QD%s, %s, %s, %s file%s x %s',
                  r.rw, iobench.format_bytes(r.block_size), r.workers,
                  CASE WHEN r.workers > 1 THEN 's' ELSE '' END, r.iodepth, r.engine,
                  CASE WHEN r.direct THEN 'direct' ELSE 'buffered' END,
                  r.files, CASE WHEN r.files > 1 THEN 's' ELSE '' END,
                  iobench.format_bytes(r.file_size))
           || CASE WHEN r.read_pct IS NOT NULL THEN format(', %s %% reads', r.read_pct) ELSE '' END
           || CASE WHEN r.fsync_every > 0 THEN format(', %s every %s', r.sync_method, r.fsync_every)
                   ELSE '' END,
           round(r.measured_s::numeric, 1),
           round(r.iops::numeric),
           iobench.format_rate(r.bytes / nullif(r.measured_s, 0)),
           iobench.format_us(r.lat_avg_us),
           iobench.format_us(r.lat_p50_us),
           iobench.format_us(r.lat_p99_us),
           iobench.format_us(r.lat_max_us),
           iobench.format_us(r.fsync_lat_p99_us)
$$;
COMMENT ON FUNCTION iobench.summary(iobench.runs) IS 'a run in a dozen rounded columns with units, for reading';

-- run_id, status and tablespace come from the table itself, so that a
-- condition on them reaches its index (WHERE run_id = 42 computes one
-- summary, not one per stored run: summary() is not inlined).
CREATE OR REPLACE VIEW iobench.run_summary AS
SELECT r.run_id, r.status, r.tablespace, s.storage, s.workload, s.seconds, s.iops, s.throughput,
       s.lat_avg, s.lat_p50, s.lat_p99, s.lat_max, s.fsync_p99
  FROM iobench.runs r, LATERAL iobench.summary(r) s;
COMMENT ON VIEW iobench.run_summary IS 'every stored run in a dozen rounded columns with units, for reading';

-- The latency histogram of a run and op kind, grouped into 1-2-5 ranges
-- (10-20 µs, 20-50 µs, 50-100 µs ...) from the first non-empty range to the
-- last; each stored bucket goes to the range holding its midpoint.
CREATE OR REPLACE FUNCTION iobench.latency_ranges(run_id bigint, op text)
RETURNS TABLE (lower_us double precision, upper_us double precision, count bigint, share double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH edges AS (
        SELECT m * 10::double precision ^ e AS lo,
               lead(m * 10::double precision ^ e) OVER (ORDER BY e, m) AS hi
          FROM generate_series(-2, 9) AS e, unnest(ARRAY[1, 2, 5]) AS m
    ), filled AS (
        SELECT e.lo, e.hi, coalesce(sum(l.count), 0)::bigint AS n
          FROM edges e
          LEFT JOIN iobench.run_latency l
            ON l.run_id = latency_ranges.run_id AND l.op = latency_ranges.op
           AND (l.lower_us + l.upper_us) / 2 >= e.lo AND (l.lower_us + l.upper_us) / 2 < e.hi
         WHERE e.hi IS NOT NULL
         GROUP BY e.lo, e.hi
    ), bounds AS (
        SELECT min(lo) AS first_lo, max(lo) AS last_lo, sum(n) AS total
          FROM filled WHERE n > 0
    )
    SELECT f.lo, f.hi, f.n, f.n::double precision / b.total
      FROM filled f, bounds b
     WHERE f.lo BETWEEN b.first_lo AND b.last_lo
     ORDER BY f.lo
$$;
COMMENT ON FUNCTION iobench.latency_ranges(bigint, text) IS 'a run''s latency histogram for one op kind, in 1-2-5 ranges';

-- What the block device saw during a run (iobench.run_disk_seconds): per
-- device, the average over the measured period (second NULL; rates from
-- the summed counters over the summed intervals, as iostat computes an
-- interval) and the busiest second (highest %util, then most I/Os).
CREATE OR REPLACE FUNCTION iobench_internal.disk_stats(run_id bigint)
RETURNS TABLE (device text, member boolean, kind text, second integer,
               r_s double precision, w_s double precision,
               rmb_s double precision, wmb_s double precision,
               areq_kb double precision, aqu_sz double precision,
               r_await_ms double precision, w_await_ms double precision,
               util_pct double precision, d_s double precision, f_s double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    -- rounded for reading as iostat prints them, two decimals; the exact
    -- figures are in iobench.run_disk_seconds
    SELECT s.device, s.member, s.kind, s.second,
           round(s.r_s::numeric, 2)::double precision, round(s.w_s::numeric, 2)::double precision,
           round(s.rmb_s::numeric, 2)::double precision, round(s.wmb_s::numeric, 2)::double precision,
           round(s.areq_kb::numeric, 2)::double precision, round(s.aqu_sz::numeric, 2)::double precision,
           round(s.r_await_ms::numeric, 2)::double precision, round(s.w_await_ms::numeric, 2)::double precision,
           round(s.util_pct::numeric, 2)::double precision, round(s.d_s::numeric, 2)::double precision,
           round(s.f_s::numeric, 2)::double precision
      FROM (
    SELECT d.device, d.member, 'average' AS kind, NULL::integer AS second,
           sum(d.reads) / sum(d.interval_s),
           sum(d.writes) / sum(d.interval_s),
           sum(d.read_sectors) * 512 / 1e6 / sum(d.interval_s),
           sum(d.write_sectors) * 512 / 1e6 / sum(d.interval_s),
           (sum(d.read_sectors) + sum(d.write_sectors) + coalesce(sum(d.discard_sectors), 0)) / 2.0
               / nullif(sum(d.reads) + sum(d.writes) + coalesce(sum(d.discards), 0), 0),
           sum(d.queue_ms) / 1000.0 / sum(d.interval_s),
           sum(d.read_ms)::double precision / nullif(sum(d.reads), 0),
           sum(d.write_ms)::double precision / nullif(sum(d.writes), 0),
           least(sum(d.io_ms) / 10.0 / sum(d.interval_s), 100),
           sum(d.discards) / sum(d.interval_s) AS d_s,
           sum(d.flushes) / sum(d.interval_s) AS f_s
      FROM iobench.run_disk_seconds d
     WHERE d.run_id = disk_stats.run_id
     GROUP BY d.device, d.member
    UNION ALL
    SELECT * FROM (
        SELECT DISTINCT ON (d.device) d.device, d.member, 'busiest', d.second,
               d.r_s, d.w_s, d.rmb_s, d.wmb_s, d.areq_kb, d.aqu_sz, d.r_await_ms, d.w_await_ms,
               d.util_pct, d.d_s, d.f_s
          FROM iobench.run_disk_seconds d
         WHERE d.run_id = disk_stats.run_id
         ORDER BY d.device, d.util_pct DESC, d.reads + d.writes DESC, d.second) AS b
    ) AS s(device, member, kind, second, r_s, w_s, rmb_s, wmb_s, areq_kb, aqu_sz,
           r_await_ms, w_await_ms, util_pct, d_s, f_s)
    ORDER BY 2, 1, 3;
END
$$;
COMMENT ON FUNCTION iobench_internal.disk_stats(bigint) IS 'the body of iobench.disk_stats(), which checks the run first';

-- iobench.disk_stats(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.disk_stats(run_id bigint)
RETURNS TABLE (device text, member boolean, kind text, second integer,
               r_s double precision, w_s double precision,
               rmb_s double precision, wmb_s double precision,
               areq_kb double precision, aqu_sz double precision,
               r_await_ms double precision, w_await_ms double precision,
               util_pct double precision, d_s double precision, f_s double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.existing_run(disk_stats.run_id);
    SELECT * FROM iobench_internal.disk_stats(disk_stats.run_id);
END;
COMMENT ON FUNCTION iobench.disk_stats(bigint) IS 'the block device''s iostat figures during a run: average and busiest second per device';

-- A text report of one run that reads well in psql (\pset format unaligned
-- or \t to drop the header): settings, summary with percentiles per op
-- kind, latency histograms drawn with bars, a per-second IOPS sparkline,
-- stalls, and the run's top waits when they were recorded.
CREATE OR REPLACE FUNCTION iobench_internal.report(run_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
    k record;
    line text;
    vals double precision[];
    n integer;
    i integer;
    nstall integer := 0;
    w record;
    has_waits boolean := false;
    fmt constant text := '  %-8s %10s %10s %9s %9s %9s %9s %9s %9s %9s %9s';
BEGIN
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = report.run_id;

    -- what ran, where
    RETURN NEXT format('iobench run %s: %s%s', r.run_id, r.status,
                       CASE WHEN r.label IS NOT NULL THEN format(', "%s"', r.label) ELSE '' END);
    RETURN NEXT format('  %s%s, %s blocks, %s worker%s x iodepth %s (%s), %s I/O, %s file%s of %s',
                       r.rw,
                       CASE WHEN r.read_pct IS NOT NULL THEN format(' (%s %% reads)', r.read_pct) ELSE '' END,
                       iobench.format_bytes(r.block_size), r.workers,
                       CASE WHEN r.workers > 1 THEN 's' ELSE '' END,
                       r.iodepth, r.engine,
                       CASE WHEN r.direct THEN 'direct' ELSE 'buffered' END,
                       r.files, CASE WHEN r.files > 1 THEN 's' ELSE '' END,
                       iobench.format_bytes(r.file_size));
    IF r.fsync_every > 0 OR r.rewrite_pct > 0 OR r.sync_method IN ('open_datasync', 'open_sync') THEN
        RETURN NEXT '  ' || concat_ws(', ',
            CASE WHEN r.rewrite_pct > 0 THEN format('%s %% of reads rewritten', r.rewrite_pct) END,
            CASE r.sync_method WHEN 'open_datasync' THEN 'every write synchronous (open_datasync: O_DSYNC)'
                               WHEN 'open_sync' THEN 'every write synchronous (open_sync: O_SYNC)' END,
            CASE WHEN r.fsync_every = 1 THEN format('%s after every write', r.sync_method)
                 WHEN r.fsync_every > 1 THEN format('%s after every %s writes to a file',
                                                    r.sync_method, r.fsync_every) END);
    END IF;
    RETURN NEXT format('  tablespace "%s": %s, %s on %s; host %s, PostgreSQL %s',
                       r.tablespace, coalesce(r.device, '?'), coalesce(r.filesystem, '?'),
                       coalesce(r.mount_point, '?'), coalesce(r.host, '?'), coalesce(r.pg_version, '-'));
    -- the server's I/O settings that it has (none recorded before 0.2)
    SELECT string_agg(s.name || '=' || s.value, ', ' ORDER BY s.n) INTO line
      FROM (VALUES (1, 'io_method', r.io_method),
                   (2, 'io_workers', r.io_workers::text),
                   (3, 'io_min_workers', r.io_min_workers::text),
                   (4, 'io_max_workers', r.io_max_workers::text),
                   (5, 'io_combine_limit', r.io_combine_limit),
                   (6, 'effective_io_concurrency', r.effective_io_concurrency::text),
                   (7, 'maintenance_io_concurrency', r.maintenance_io_concurrency::text),
                   (8, 'wal_sync_method', r.wal_sync_method),
                   (9, 'full_page_writes',
                    CASE r.full_page_writes WHEN true THEN 'on' WHEN false THEN 'off' END))
           AS s(n, name, value)
     WHERE s.value IS NOT NULL;
    IF line IS NOT NULL THEN
        RETURN NEXT '  I/O settings: ' || line;
    END IF;
    IF r.imported_at IS NOT NULL THEN
        RETURN NEXT format('  server "%s": its run %s there, imported %s%s',
                           coalesce(r.server, r.host, '?'), coalesce(r.origin_run_id::text, '?'),
                           to_char(r.imported_at, 'YYYY-MM-DD HH24:MI:SS TZ'),
                           CASE WHEN r.tool <> 'iobench' THEN format(', measured by %s', r.tool) ELSE '' END);
    ELSIF iobench.run_server(r) IS NOT NULL THEN
        RETURN NEXT format('  server "%s" (gathered from this server)', iobench.run_server(r));
    END IF;
    IF r.start_at IS NOT NULL THEN
        RETURN NEXT format('  common start %s, workers started %s ms after it',
                           to_char(r.start_at, 'YYYY-MM-DD HH24:MI:SS.MS TZ'),
                           coalesce(round((extract(epoch FROM r.go_at - r.start_at) * 1000)::numeric, 3)::text, '?'));
    END IF;
    IF r.steady_state IS NOT NULL THEN
        RETURN NEXT format('  steady state (%s within %s %% of the mean over %s s): %s',
                           r.steady_state, r.steady_band, extract(epoch FROM r.steady_window)::integer,
                           CASE WHEN r.steady_reached
                                THEN format('reached at %s s, where the run ended', r.steady_at_s)
                                ELSE 'not reached' END);
    END IF;
    RETURN NEXT format('  started %s, measured %s s after %s s of warm-up, seed %s',
                       to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS TZ'),
                       round(r.measured_s::numeric, 1),
                       round(extract(epoch FROM r.warmup), 1), r.seed);

    -- summary and percentiles
    RETURN NEXT '';
    RETURN NEXT 'Summary';
    RETURN NEXT format(fmt, 'op', 'ops', 'IOPS', 'MiB/s', 'MB/s', 'avg', 'p50', 'p90', 'p99', 'p99.9', 'max');
    FOR k IN
        SELECT * FROM (VALUES
            (1, 'read',  r.read_ops,  r.read_iops,  coalesce(r.read_mib_per_s, r.read_mb_per_s * 1e6 / 1048576), r.read_mb_per_s, r.read_lat_avg_us,
             r.read_lat_p50_us, r.read_lat_p90_us, r.read_lat_p99_us, r.read_lat_p999_us, r.read_lat_max_us),
            (2, 'write', r.write_ops, r.write_iops, coalesce(r.write_mib_per_s, r.write_mb_per_s * 1e6 / 1048576), r.write_mb_per_s, r.write_lat_avg_us,
             r.write_lat_p50_us, r.write_lat_p90_us, r.write_lat_p99_us, r.write_lat_p999_us, r.write_lat_max_us),
            (3, 'fsync', r.fsync_ops, r.fsync_iops, NULL, NULL, r.fsync_lat_avg_us,
             r.fsync_lat_p50_us, r.fsync_lat_p90_us, r.fsync_lat_p99_us, r.fsync_lat_p999_us, r.fsync_lat_max_us),
            (4, 'all data', r.ops, r.iops, coalesce(r.mib_per_s, r.mb_per_s * 1e6 / 1048576), r.mb_per_s, r.lat_avg_us,
             r.lat_p50_us, r.lat_p90_us, r.lat_p99_us, r.lat_p999_us, r.lat_max_us))
            AS t(n, op, ops, iops, mibps, mbps, avg, p50, p90, p99, p999, mx)
         WHERE coalesce(t.ops, 0) > 0 ORDER BY t.n
    LOOP
        RETURN NEXT format(fmt, k.op, k.ops, round(k.iops::numeric, 1),
                           coalesce(round(k.mibps::numeric, 2)::text, ''),
                           coalesce(round(k.mbps::numeric, 2)::text, ''),
                           iobench.format_us(k.avg), iobench.format_us(k.p50),
                           iobench.format_us(k.p90), iobench.format_us(k.p99),
                           iobench.format_us(k.p999), iobench.format_us(k.mx));
    END LOOP;
    RETURN NEXT format('  CPU of the workers: user %s %%, system %s %% of one CPU',
                       coalesce(round(r.cpu_user_pct::numeric, 1)::text, '-'),
                       coalesce(round(r.cpu_sys_pct::numeric, 1)::text, '-'));

    -- a tablespace group: each tablespace's share
    IF r.tablespaces IS NOT NULL THEN
        RETURN NEXT '';
        RETURN NEXT format('Tablespace group (%s): files spread one by one, every worker on all of them',
                           array_to_string(r.tablespaces, ', '));
        RETURN NEXT format('  %-16s %-12s %5s %10s %9s %9s %9s %9s %9s',
                           'tablespace', 'device', 'files', 'IOPS', 'MB/s', 'avg', 'p50', 'p99', 'p99.9');
        FOR w IN SELECT * FROM iobench.run_tablespaces t WHERE t.run_id = r.run_id ORDER BY t.position LOOP
            RETURN NEXT format('  %-16s %-12s %5s %10s %9s %9s %9s %9s %9s',
                               w.tablespace, coalesce(w.device, '?'), w.files,
                               round(coalesce(w.iops, 0)::numeric, 1),
                               coalesce(round(w.mb_per_s::numeric, 2)::text, ''),
                               iobench.format_us(w.lat_avg_us), iobench.format_us(w.lat_p50_us),
                               iobench.format_us(w.lat_p99_us), iobench.format_us(w.lat_p999_us));
        END LOOP;
    END IF;

    -- what the block device saw (iostat's columns)
    RETURN NEXT '';
    IF r.disk IS NULL THEN
        RETURN NEXT 'Device: not sampled (no block device under the tablespace)';
    ELSE
        RETURN NEXT format('Device %s (/proc/diskstats, MB = 10^6 bytes)', r.disk);
        RETURN NEXT format('  %-20s %9s %9s %8s %8s %8s %8s %8s %8s %7s %7s %7s',
                           'device', 'r/s', 'w/s', 'rMB/s', 'wMB/s', 'areq-kB', 'aqu-sz',
                           'r_await', 'w_await', '%util', 'd/s', 'f/s');
        FOR w IN SELECT * FROM iobench.disk_stats(r.run_id) LOOP
            RETURN NEXT format('  %-20s %9s %9s %8s %8s %8s %8s %8s %8s %7s %7s %7s',
                               w.device || CASE WHEN w.member THEN ' (member)' ELSE '' END
                                   || CASE WHEN w.kind = 'busiest' THEN format(' busiest s %s', w.second) ELSE ' avg' END,
                               round(w.r_s::numeric, 1), round(w.w_s::numeric, 1),
                               round(w.rmb_s::numeric, 2), round(w.wmb_s::numeric, 2),
                               coalesce(round(w.areq_kb::numeric, 1)::text, '-'),
                               round(w.aqu_sz::numeric, 2),
                               coalesce(round(w.r_await_ms::numeric, 2)::text, '-'),
                               coalesce(round(w.w_await_ms::numeric, 2)::text, '-'),
                               round(w.util_pct::numeric, 1),
                               coalesce(round(w.d_s::numeric, 1)::text, '-'),
                               coalesce(round(w.f_s::numeric, 1)::text, '-'));
        END LOOP;
        RETURN NEXT format('  iobench itself: %s reads/s, %s writes/s, %s syncs/s',
                           round(coalesce(r.read_iops, 0)::numeric, 1),
                           round(coalesce(r.write_iops, 0)::numeric, 1),
                           round(coalesce(r.fsync_iops, 0)::numeric, 1));
    END IF;

    -- latency histograms
    FOR k IN SELECT DISTINCT l.op, CASE l.op WHEN 'read' THEN 1 WHEN 'write' THEN 2 ELSE 3 END AS n
               FROM iobench.run_latency l WHERE l.run_id = r.run_id ORDER BY 2
    LOOP
        RETURN NEXT '';
        RETURN NEXT format('Latency histogram: %s (%s ops)', k.op,
                           (SELECT sum(l.count) FROM iobench.run_latency l
                             WHERE l.run_id = r.run_id AND l.op = k.op));
        FOR w IN SELECT h.*, max(h.share) OVER () AS top
                   FROM iobench.latency_ranges(r.run_id, k.op) h ORDER BY h.lower_us
        LOOP
            RETURN NEXT format('  %9s - %-9s %-40s %5s %%  %s',
                               iobench.format_us(w.lower_us), iobench.format_us(w.upper_us),
                               iobench.bar(w.share / nullif(w.top, 0)),
                               to_char(100 * w.share, 'FM990.0'), w.count);
        END LOOP;
    END LOOP;

    -- IOPS per second
    SELECT array_agg(coalesce(s.iops, 0) ORDER BY g), count(*)
      INTO vals, n
      FROM generate_series(0, greatest(ceil(coalesce(r.measured_s, 0))::integer - 1, -1)) AS g
      LEFT JOIN (SELECT x.second, sum(x.ops) / least(1.0, r.measured_s - x.second) AS iops
                   FROM iobench.run_seconds x
                  WHERE x.run_id = r.run_id AND x.op <> 'fsync'
                  GROUP BY x.second) s ON s.second = g;
    IF n > 0 AND NOT EXISTS (SELECT FROM iobench.run_seconds x WHERE x.run_id = r.run_id) THEN
        -- nothing to draw: an imported fio result (fio's JSON has no
        -- per-second series) or a run whose seconds were not stored
        RETURN NEXT '';
        RETURN NEXT CASE WHEN r.tool <> 'iobench'
                         THEN format('IOPS per second: none (an imported %s result has no per-second series)', r.tool)
                         ELSE 'IOPS per second: none stored for this run' END;
    ELSIF n > 0 THEN
        RETURN NEXT '';
        RETURN NEXT format('IOPS per second (data I/O): min %s, median %s, max %s',
                           round(min(v)::numeric), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY v)::numeric),
                           round(max(v)::numeric))
          FROM unnest(vals) v;
        i := 1;
        WHILE i <= n LOOP
            RETURN NEXT format('  %6s |%s|', (i - 1) || ' s', iobench.sparkline(vals[i:i + 59]));
            i := i + 60;
        END LOOP;
    END IF;

    -- stalls: slow seconds, then stall events
    RETURN NEXT '';
    RETURN NEXT 'Stalls (seconds under 50 % of the median IOPS, or with an I/O over 1 s)';
    FOR w IN SELECT * FROM iobench.stalls(r.run_id) LOOP
        IF nstall = 0 THEN
            RETURN NEXT format('  %6s %10s %9s %12s %-5s  %s', 'second', 'IOPS', 'of median', 'max latency', 'op', 'reason');
        END IF;
        nstall := nstall + 1;
        RETURN NEXT format('  %6s %10s %8s%% %12s %-5s  %s', w.second, w.iops,
                           coalesce(round(100 * w.fraction)::text, '-'),
                           iobench.format_us(w.max_latency_us::double precision),
                           coalesce(w.max_latency_op, '-'), w.reason);
    END LOOP;
    IF nstall = 0 THEN
        RETURN NEXT '  none';
    END IF;
    IF r.stall_threshold IS NOT NULL THEN
        RETURN NEXT '';
        RETURN NEXT format('Write stalls (write + sync over %s): %s',
                           iobench.format_us(extract(epoch FROM r.stall_threshold)::float8 * 1e6),
                           coalesce(r.stall_count, 0));
        FOR w IN SELECT * FROM iobench.run_stalls s WHERE s.run_id = r.run_id
                  ORDER BY s.total_us DESC, s.at_s LIMIT 10
        LOOP
            RETURN NEXT format('  at %8s s  worker %-3s file %-3s offset %-12s write %-9s sync %-9s total %s',
                               round(w.at_s::numeric, 3), w.worker, w.file, w.file_offset,
                               iobench.format_us(w.write_us), iobench.format_us(w.sync_us),
                               iobench.format_us(w.total_us));
        END LOOP;
        IF coalesce(r.stall_count, 0) > 10 THEN
            RETURN NEXT format('  (the 10 longest shown; iobench.run_stalls keeps up to 64 per worker)');
        END IF;
    END IF;

    -- top waits (none when the run's waits were not recorded)
    FOR w IN SELECT x."WaitType" AS t, x."Wait_S" AS s, x."Signal_S" AS sig,
                    x."WaitCount" AS c, x."Percentage" AS p
               FROM iobench.run_wait_stats(r.run_id) x LIMIT 10
    LOOP
        IF NOT has_waits THEN
            RETURN NEXT '';
            RETURN NEXT 'Top waits';
            RETURN NEXT format('  %-28s %10s %10s %10s %10s', 'WaitType', 'Wait_S', 'Signal_S', 'WaitCount', 'Percentage');
            has_waits := true;
        END IF;
        RETURN NEXT format('  %-28s %10s %10s %10s %10s', w.t, w.s, coalesce(w.sig::text, '-'), w.c, w.p);
    END LOOP;
    RETURN;
END
$$;
COMMENT ON FUNCTION iobench_internal.report(bigint) IS 'the body of iobench.report(), which checks the grant and the run first';

-- iobench.report(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.report(run_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.report(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(report.run_id);
    SELECT * FROM iobench_internal.report(report.run_id);
END;
COMMENT ON FUNCTION iobench.report(bigint) IS 'a text report of one run: summary, percentiles, histograms, sparkline, stalls, waits';

-- One op kind of a run as fio's JSON has it: a latency block ({min, max,
-- mean, stddev, N, percentile, bins}) from the stored histogram, in ns.
CREATE OR REPLACE FUNCTION iobench.fio_latency(run_id bigint, op text, mean_us double precision,
                                    max_us double precision, with_percentiles boolean)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH b AS (
        SELECT round((l.lower_us * 1000 + l.upper_us * 1000 - 1) / 2)::bigint AS ns, l.count,
               l.lower_us,
               sum(l.count) OVER (ORDER BY l.lower_us) AS cum,
               sum(l.count) OVER () AS total
          FROM iobench.run_latency l
         WHERE l.run_id = fio_latency.run_id AND l.op = fio_latency.op
    ), stats AS (
        SELECT coalesce(max(total), 0) AS n,
               min(ns) AS min_ns,
               sqrt(greatest(sum(count * (ns - mean_us * 1000) ^ 2) / nullif(max(total), 0), 0)) AS sd
          FROM b
    ), pct AS (
        SELECT jsonb_object_agg(to_char(p, 'FM990.000000'),
                                (SELECT least(b.ns, round(max_us * 1000)::bigint) FROM b
                                  WHERE b.cum >= ceil(p / 100 * b.total) ORDER BY b.lower_us LIMIT 1)) AS j
          FROM unnest(ARRAY[1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]::numeric[]) AS p
    )
    SELECT jsonb_build_object(
               'min', coalesce(stats.min_ns, 0),
               'max', coalesce(round(max_us * 1000)::bigint, 0),
               'mean', coalesce(mean_us * 1000, 0),
               'stddev', coalesce(stats.sd, 0),
               'N', stats.n)
           || CASE WHEN with_percentiles AND stats.n > 0 THEN
                  jsonb_build_object('percentile', pct.j,
                                     'bins', (SELECT jsonb_object_agg(b.ns::text, b.count) FROM b))
              ELSE '{}' END
      FROM stats, pct
$$;
COMMENT ON FUNCTION iobench.fio_latency(bigint, text, double precision, double precision, boolean) IS 'a latency block of fio''s JSON output (ns) for one op kind of a run';

-- One direction (read or write) of a run as fio's JSON has it.
CREATE OR REPLACE FUNCTION iobench.fio_direction(r iobench.runs, op text)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT CASE op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops END AS ops,
               CASE op WHEN 'read' THEN r.read_bytes WHEN 'write' THEN r.write_bytes END AS bytes,
               CASE op WHEN 'read' THEN r.read_lat_avg_us WHEN 'write' THEN r.write_lat_avg_us END AS mean_us,
               CASE op WHEN 'read' THEN r.read_lat_max_us WHEN 'write' THEN r.write_lat_max_us END AS max_us,
               nullif(r.measured_s, 0) AS secs
    ), per_second AS (
        SELECT s.ops, s.bytes
          FROM iobench.run_seconds s
         WHERE s.run_id = r.run_id AND s.op = fio_direction.op
           AND s.second + 1 <= r.measured_s
    ), samples AS (
        SELECT count(*) AS n,
               min(bytes / 1024) AS bw_min, max(bytes / 1024) AS bw_max,
               avg(bytes / 1024.0)::float8 AS bw_mean, stddev_pop(bytes / 1024.0)::float8 AS bw_dev,
               min(ops) AS iops_min, max(ops) AS iops_max,
               avg(ops)::float8 AS iops_mean, stddev_pop(ops)::float8 AS iops_dev
          FROM per_second
    )
    SELECT jsonb_build_object(
               'io_bytes', coalesce(v.bytes, 0),
               'io_kbytes', coalesce(v.bytes, 0) / 1024,
               'bw_bytes', coalesce(round(v.bytes / v.secs)::bigint, 0),
               'bw', coalesce(round(v.bytes / 1024.0 / v.secs)::bigint, 0),
               'iops', coalesce(v.ops / v.secs, 0),
               'runtime', coalesce(round(r.measured_s * 1000)::bigint, 0),
               'total_ios', coalesce(v.ops, 0),
               'short_ios', 0,
               'drop_ios', 0,
               'slat_ns', jsonb_build_object('min', 0, 'max', 0, 'mean', 0.0, 'stddev', 0.0, 'N', 0),
               'clat_ns', iobench.fio_latency(r.run_id, op, v.mean_us, v.max_us, true),
               'lat_ns', iobench.fio_latency(r.run_id, op, v.mean_us, v.max_us, false),
               'bw_min', coalesce(samples.bw_min, 0),
               'bw_max', coalesce(samples.bw_max, 0),
               'bw_agg', CASE WHEN coalesce(v.ops, 0) > 0 THEN 100.0 ELSE 0.0 END,
               'bw_mean', coalesce(samples.bw_mean, 0),
               'bw_dev', coalesce(samples.bw_dev, 0),
               'bw_samples', samples.n,
               'iops_min', coalesce(samples.iops_min, 0),
               'iops_max', coalesce(samples.iops_max, 0),
               'iops_mean', coalesce(samples.iops_mean, 0),
               'iops_stddev', coalesce(samples.iops_dev, 0),
               'iops_samples', samples.n)
      FROM v, samples
$$;
COMMENT ON FUNCTION iobench.fio_direction(iobench.runs, text) IS 'the read or write section of fio''s JSON output for a run';

-- A run as fio's JSON output (fio 3.33, --output-format=json+): one job
-- standing for all workers (as fio's group_reporting), read/write/trim/sync
-- sections with bytes, bw (KiB/s), iops, runtime (ms), latencies in ns with
-- percentiles and histogram bins, so fio tooling (fio_jsonplus_clat2csv,
-- fio-plot, ...) reads iobench results.  iobench's own figures are under
-- the extra key "iobench".
CREATE OR REPLACE FUNCTION iobench_internal.run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
    lat_buckets jsonb;
BEGIN
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = run_json.run_id;

    -- fio's coarse latency distribution of data I/O: % of I/Os per range
    WITH ranges(unit, key, lo, hi) AS (
        SELECT u.unit, u.key, u.lo, u.hi
          FROM (VALUES
            ('latency_ns', '2', 0, 2), ('latency_ns', '4', 2, 4), ('latency_ns', '10', 4, 10),
            ('latency_ns', '20', 10, 20), ('latency_ns', '50', 20, 50), ('latency_ns', '100', 50, 100),
            ('latency_ns', '250', 100, 250), ('latency_ns', '500', 250, 500),
            ('latency_ns', '750', 500, 750), ('latency_ns', '1000', 750, 1000),
            ('latency_us', '2', 1e3, 2e3), ('latency_us', '4', 2e3, 4e3), ('latency_us', '10', 4e3, 1e4),
            ('latency_us', '20', 1e4, 2e4), ('latency_us', '50', 2e4, 5e4), ('latency_us', '100', 5e4, 1e5),
            ('latency_us', '250', 1e5, 2.5e5), ('latency_us', '500', 2.5e5, 5e5),
            ('latency_us', '750', 5e5, 7.5e5), ('latency_us', '1000', 7.5e5, 1e6),
            ('latency_ms', '2', 1e6, 2e6), ('latency_ms', '4', 2e6, 4e6), ('latency_ms', '10', 4e6, 1e7),
            ('latency_ms', '20', 1e7, 2e7), ('latency_ms', '50', 2e7, 5e7), ('latency_ms', '100', 5e7, 1e8),
            ('latency_ms', '250', 1e8, 2.5e8), ('latency_ms', '500', 2.5e8, 5e8),
            ('latency_ms', '750', 5e8, 7.5e8), ('latency_ms', '1000', 7.5e8, 1e9),
            ('latency_ms', '2000', 1e9, 2e9), ('latency_ms', '>=2000', 2e9, 'infinity'))
            AS u(unit, key, lo, hi)
    ), data AS (
        SELECT (l.lower_us + l.upper_us) * 500 AS ns, l.count
          FROM iobench.run_latency l
         WHERE l.run_id = r.run_id AND l.op IN ('read', 'write')
    ), shares AS (
        SELECT g.unit, g.key,
               coalesce(100.0 * sum(d.count) / nullif((SELECT sum(count) FROM data), 0), 0) AS pct
          FROM ranges g
          LEFT JOIN data d ON d.ns >= g.lo AND d.ns < g.hi
         GROUP BY g.unit, g.key
    )
    SELECT jsonb_object_agg(unit, j) INTO lat_buckets
      FROM (SELECT unit, jsonb_object_agg(key, round(pct, 6)) AS j FROM shares GROUP BY unit) AS x;

    RETURN jsonb_build_object(
        'fio version', 'iobench-0.1',
        'timestamp', floor(extract(epoch FROM r.started_at))::bigint,
        'timestamp_ms', floor(extract(epoch FROM r.started_at) * 1000)::bigint,
        'time', to_char(r.started_at, 'Dy Mon DD HH24:MI:SS YYYY'),
        'jobs', jsonb_build_array(
            jsonb_build_object(
                'jobname', coalesce(r.label, 'iobench run ' || r.run_id),
                'groupid', 0,
                'error', 0,
                'eta', 0,
                'elapsed', ceil(r.measured_s + extract(epoch FROM r.warmup))::bigint,
                'job options', jsonb_strip_nulls(jsonb_build_object(
                    'name', coalesce(r.label, 'iobench run ' || r.run_id),
                    'rw', r.rw,
                    'bs', r.block_size::text,
                    'numjobs', r.workers::text,
                    'iodepth', r.iodepth::text,
                    'ioengine', r.engine,
                    'direct', CASE WHEN r.direct THEN '1' ELSE '0' END,
                    'size', r.file_size::text,
                    'nrfiles', r.files::text,
                    'runtime', round(extract(epoch FROM r.duration))::text,
                    'ramp_time', round(extract(epoch FROM r.warmup))::text,
                    'time_based', '1',
                    'rwmixread', r.read_pct::text,
                    'fsync', CASE WHEN r.fsync_every > 0 AND r.sync_method = 'fsync' THEN r.fsync_every::text END,
                    'fdatasync', CASE WHEN r.fsync_every > 0 AND r.sync_method = 'fdatasync' THEN r.fsync_every::text END,
                    'sync', CASE r.sync_method WHEN 'open_datasync' THEN 'dsync' WHEN 'open_sync' THEN 'sync' END,
                    'rate_iops', CASE WHEN r.rate_iops > 0 THEN r.rate_iops::text END,
                    'randseed', r.seed::text,
                    'group_reporting', '1')),
                'read', iobench.fio_direction(r, 'read'),
                'write', iobench.fio_direction(r, 'write'),
                'trim', iobench.fio_direction(r, 'trim'),
                'sync', jsonb_build_object(
                    'total_ios', coalesce(r.fsync_ops, 0),
                    'lat_ns', iobench.fio_latency(r.run_id, 'fsync', r.fsync_lat_avg_us,
                                                  r.fsync_lat_max_us, true)),
                'job_runtime', coalesce(round(r.measured_s * 1000)::bigint, 0),
                'usr_cpu', coalesce(r.cpu_user_pct, 0),
                'sys_cpu', coalesce(r.cpu_sys_pct, 0),
                'ctx', 0,
                'majf', 0,
                'minf', 0,
                'latency_ns', lat_buckets -> 'latency_ns',
                'latency_us', lat_buckets -> 'latency_us',
                'latency_ms', lat_buckets -> 'latency_ms',
                'latency_depth', r.iodepth,
                'latency_target', 0,
                'latency_percentile', 100.0,
                'latency_window', 0,
                'iobench', jsonb_build_object(
                    'run_id', r.run_id, 'status', r.status, 'tablespace', r.tablespace,
                    'device', r.device, 'filesystem', r.filesystem, 'host', r.host,
                    'pg_version', r.pg_version, 'stall_count', r.stall_count))
            -- fio's steadystate, for runs that looked for it
            || CASE WHEN r.steady_state IS NOT NULL THEN jsonb_build_object('steadystate',
                   jsonb_build_object(
                       'ss', format('%s:%s%%', CASE r.steady_state WHEN 'latency' THEN 'lat' ELSE 'iops' END,
                                    to_char(r.steady_band, 'FM990.000000')),
                       'duration', extract(epoch FROM r.steady_window)::bigint,
                       'attained', CASE WHEN r.steady_reached THEN 1 ELSE 0 END))
               ELSE '{}'::jsonb END),
        'disk_util', coalesce((
            -- fio's disk_util: each device with its counters over the
            -- measured period (ticks and in_queue in ms); a device with
            -- members (dm, md) also has fio's aggr_* sums over them
            SELECT jsonb_agg(jsonb_build_object(
                       'name', d.device,
                       'read_ios', d.reads, 'write_ios', d.writes,
                       'read_merges', d.read_merges, 'write_merges', d.write_merges,
                       'read_ticks', d.read_ms, 'write_ticks', d.write_ms,
                       'in_queue', d.queue_ms,
                       'util', round(least(d.io_ms / 10.0 / d.secs, 100)::numeric, 6))
                   || coalesce((
                       SELECT jsonb_build_object(
                                  'aggr_read_ios', sum(m.reads), 'aggr_write_ios', sum(m.writes),
                                  'aggr_read_merges', sum(m.read_merges),
                                  'aggr_write_merge', sum(m.write_merges),
                                  'aggr_read_ticks', sum(m.read_ms), 'aggr_write_ticks', sum(m.write_ms),
                                  'aggr_in_queue', sum(m.queue_ms),
                                  -- fio: the busiest member's utilisation
                                  'aggr_util', round(least(max(m.io_ms) / 10.0 / d.secs, 100)::numeric, 6))
                         FROM (SELECT y.device, sum(y.reads) AS reads, sum(y.writes) AS writes,
                                      sum(y.read_merges) AS read_merges,
                                      sum(y.write_merges) AS write_merges,
                                      sum(y.read_ms) AS read_ms, sum(y.write_ms) AS write_ms,
                                      sum(y.queue_ms) AS queue_ms, sum(y.io_ms) AS io_ms
                                 FROM iobench.run_disk_seconds y
                                WHERE y.run_id = r.run_id AND y.member
                                GROUP BY y.device) AS m
                       HAVING count(*) > 0), '{}')
                   ORDER BY d.device)
              FROM (SELECT x.device, sum(x.reads) AS reads, sum(x.writes) AS writes,
                           sum(x.read_merges) AS read_merges, sum(x.write_merges) AS write_merges,
                           sum(x.read_ms) AS read_ms, sum(x.write_ms) AS write_ms,
                           sum(x.queue_ms) AS queue_ms, sum(x.io_ms) AS io_ms,
                           sum(x.interval_s) AS secs
                      FROM iobench.run_disk_seconds x
                     WHERE x.run_id = r.run_id AND NOT x.member
                     GROUP BY x.device) AS d), '[]'::jsonb));
END
$$;
COMMENT ON FUNCTION iobench_internal.run_json(bigint) IS 'the body of iobench.run_json(), which checks the grant and the run first';

-- iobench.run_json(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.run_json(run_id bigint)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.run_json(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(run_json.run_id);
    SELECT iobench_internal.run_json(run_json.run_id);
END;
COMMENT ON FUNCTION iobench.run_json(bigint) IS 'a run as fio''s JSON output (json+), for fio tooling';

------------------------------------------------------------------------
-- Wait statistics
--
-- Raw rows (iobench.wait_raw) come from three samplers: the always-on
-- collector (iobench.waits_raw(), needs shared_preload_libraries), a window
-- sampled from the calling backend (iobench.sample_waits_raw()) and a
-- benchmark run (iobench.run_waits).  iobench.wait_table_all() is the one
-- definition of the columns, the benign filter and the 95 % cut; every
-- table people read is built from it.
------------------------------------------------------------------------

-- The server's description of each wait event, as "type:event" (PostgreSQL
-- 17 and later have the pg_wait_events view; before, no rows).
CREATE OR REPLACE FUNCTION iobench.wait_event_descriptions()
RETURNS TABLE (wait_type text, description text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_wait_events') IS NOT NULL THEN
        RETURN QUERY EXECUTE
            'SELECT e.type OPERATOR(pg_catalog.||) '':'' OPERATOR(pg_catalog.||) e.name, e.description
               FROM pg_catalog.pg_wait_events e';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench.wait_event_descriptions IS 'the server''s description of each wait event (pg_wait_events, PostgreSQL 17+; no rows before)';

-- The one definition of the wait table, on raw rows: rows of one name (of
-- every backend type) are summed; Signal_S is unknown (NULL) if any part of it is, and is capped at
-- Wait_S (run_delay is credited when a process gets back on a CPU, so one
-- sample can carry more than its own interval; the cap keeps
-- Resource_S + Signal_S = Wait_S with Resource_S >= 0); Percentage is of
-- the non-benign rows; in_top_95 keeps the rows while the running total
-- before them is under 95 %, so the row that crosses 95 % is kept.
--
-- Counts and averages (doc/iobench.md, "WaitCount and AvgWait_S"): a
-- sampled count is a lower bound (waits shorter than a tick slip between
-- ticks, and back-to-back waits of one process look like one), so:
-- - where something counted every wait (exact_count, at least the sampled
--   count), WaitCount is that count and AvgWait_S is exact_wait_s over it
--   (or, untimed, the sampled time over it), split into AvgRes_S and
--   AvgSig_S as the sampled time splits;
-- - otherwise WaitCount is the sampled count (count_exact false), and the
--   averages are left NULL unless the waits are long enough to be counted
--   one by one: an average of at least 10 sampling periods, in a class
--   whose waits are not sub-tick by nature (not IO or LWLock).
--
-- sample_period_s is the sampling period of the raw rows (NULL: unknown;
-- then only the class rule holds back an average).
CREATE OR REPLACE FUNCTION iobench.wait_table_all(raw iobench.wait_raw[],
                                                  sample_period_s double precision)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH grouped AS (
        SELECT u.wait_type,
               sum(u.wait_s) AS wait_s,
               CASE WHEN count(u.signal_s) = count(*) THEN sum(u.signal_s) END AS signal_s,
               sum(u.wait_count)::bigint AS wait_count,
               sum(u.exact_count)::bigint AS exact_count,
               CASE WHEN count(u.exact_wait_s) = count(u.exact_count)
                    THEN sum(u.exact_wait_s) END AS exact_wait_s,
               array_agg(DISTINCT u.backend_type ORDER BY u.backend_type)
                   FILTER (WHERE u.backend_type IS NOT NULL) AS backend_types,
               wait_table_all.sample_period_s AS period_s
        FROM unnest(raw) AS u
        WHERE u.wait_type IS NOT NULL
        GROUP BY u.wait_type
    ), counted AS (
        SELECT g.*,
               coalesce(g.exact_count >= g.wait_count, false) AS count_exact
        FROM grouped g
    ), averaged AS (
        SELECT c.*,
               CASE WHEN c.count_exact THEN
                        coalesce(c.exact_wait_s, c.wait_s) / nullif(c.exact_count, 0)
                    WHEN split_part(c.wait_type, ':', 1) NOT IN ('IO', 'LWLock')
                         AND c.wait_s >= 10 * coalesce(c.period_s, 0) * c.wait_count THEN
                        c.wait_s / nullif(c.wait_count, 0)
               END AS avg_wait
        FROM counted c
    ), flagged AS (
        SELECT a.*,
               CASE WHEN a.signal_s IS NOT NULL THEN least(a.signal_s, a.wait_s) END AS sig,
               EXISTS (SELECT 1 FROM iobench.benign_waits b
                       WHERE b.wait_type = a.wait_type) AS benign
        FROM averaged a
    ), pct AS (
        SELECT f.*,
               CASE WHEN NOT f.benign THEN
                   100.0 * f.wait_s / nullif(sum(f.wait_s) FILTER (WHERE NOT f.benign) OVER (), 0)
               END AS percentage
        FROM flagged f
    ), running AS (
        SELECT p.*,
               coalesce(sum(p.percentage) OVER (ORDER BY p.wait_s DESC, p.wait_type
                                                ROWS UNBOUNDED PRECEDING), 0)
                 - coalesce(p.percentage, 0) AS before
        FROM pct p
    )
    SELECT r.wait_type,
           r.wait_s,
           r.wait_s - r.sig,
           r.sig,
           CASE WHEN r.count_exact THEN r.exact_count ELSE r.wait_count END,
           r.percentage,
           r.avg_wait,
           r.avg_wait * (r.wait_s - r.sig) / nullif(r.wait_s, 0),
           r.avg_wait * r.sig / nullif(r.wait_s, 0),
           r.exact_count,
           r.exact_wait_s,
           r.benign,
           NOT r.benign AND r.percentage IS NOT NULL AND r.before < 95,
           r.wait_count,
           r.count_exact,
           d.description,
           r.backend_types
    FROM running r
    LEFT JOIN iobench.wait_event_descriptions() AS d ON d.wait_type = r.wait_type
    ORDER BY r.wait_s DESC, r.wait_type
$$;
COMMENT ON FUNCTION iobench.wait_table_all(iobench.wait_raw[], double precision) IS 'all rows of a wait table sampled every sample_period_s seconds, unrounded, with the benign and 95 % flags';

CREATE OR REPLACE FUNCTION iobench.wait_table_all(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT * FROM iobench.wait_table_all(raw, NULL::double precision)
$$;
COMMENT ON FUNCTION iobench.wait_table_all(iobench.wait_raw[]) IS 'all rows of a wait table, unrounded, with the benign and 95 % flags (sampling period unknown)';

-- One row of the table people read, from a row of wait_table_all(): Paul
-- Randal's columns, rounded.
CREATE OR REPLACE FUNCTION iobench_internal.wait_table_rounded(t iobench.wait_stats_row)
RETURNS iobench.wait_table_row
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ROW(t.wait_type,
               t.wait_s::numeric(16, 2),
               t.resource_s::numeric(16, 2),
               t.signal_s::numeric(16, 2),
               t.wait_count,
               t.percentage::numeric(5, 2),
               t.avg_wait_s::numeric(16, 4),
               t.avg_res_s::numeric(16, 4),
               t.avg_sig_s::numeric(16, 4))::iobench.wait_table_row
$$;
COMMENT ON FUNCTION iobench_internal.wait_table_rounded IS 'a row of a wait table in SQL Server''s format (Paul Randal''s columns, rounded) from a row of wait_table_all()';

-- The table people read, from the rows of a wait_table_all(): Paul
-- Randal's columns, benign rows left out, cut after the row that takes the
-- running total past 95 %.  Every wait table in that format (wait_table,
-- wait_stats_diff, sample_waits) is this over the matching *_all rows.
CREATE OR REPLACE FUNCTION iobench_internal.wait_table_top(all_rows iobench.wait_stats_row[])
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT r.*
    FROM unnest(all_rows) AS t,
         iobench_internal.wait_table_rounded(t) AS r
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type;
END;
COMMENT ON FUNCTION iobench_internal.wait_table_top IS 'the wait table in SQL Server''s format (Paul Randal''s columns, top 95 %) from the rows of wait_table_all()';

-- The table people read, from raw rows.
CREATE OR REPLACE FUNCTION iobench.wait_table(raw iobench.wait_raw[],
                                              sample_period_s double precision)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.wait_table_all(raw, sample_period_s) AS t));
END;
COMMENT ON FUNCTION iobench.wait_table(iobench.wait_raw[], double precision) IS 'the wait table in SQL Server''s format (Paul Randal''s columns) from raw rows sampled every sample_period_s seconds';

CREATE OR REPLACE FUNCTION iobench.wait_table(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT * FROM iobench.wait_table(raw, NULL::double precision)
$$;
COMMENT ON FUNCTION iobench.wait_table(iobench.wait_raw[]) IS 'the wait table in SQL Server''s format (Paul Randal''s columns) from raw rows (sampling period unknown)';

-- The waits of each backend type: a row per backend type and wait type,
-- the time split as in wait_table_all(), Percentage of all non-benign wait
-- time, with the server's description.  Counts are the sampled entries.
CREATE OR REPLACE FUNCTION iobench.wait_table_by_backend(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_backend_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH grouped AS (
        SELECT u.backend_type,
               u.wait_type,
               sum(u.wait_s) AS wait_s,
               CASE WHEN count(u.signal_s) = count(*) THEN sum(u.signal_s) END AS signal_s,
               sum(u.wait_count)::bigint AS wait_count
        FROM unnest(raw) AS u
        WHERE u.wait_type IS NOT NULL
        GROUP BY u.backend_type, u.wait_type
    ), flagged AS (
        SELECT g.*,
               CASE WHEN g.signal_s IS NOT NULL THEN least(g.signal_s, g.wait_s) END AS sig,
               EXISTS (SELECT 1 FROM iobench.benign_waits b
                       WHERE b.wait_type = g.wait_type) AS benign
        FROM grouped g
    )
    SELECT f.backend_type,
           f.wait_type,
           f.wait_s,
           f.wait_s - f.sig,
           f.sig,
           f.wait_count,
           CASE WHEN NOT f.benign THEN
               100.0 * f.wait_s / nullif(sum(f.wait_s) FILTER (WHERE NOT f.benign) OVER (), 0)
           END,
           f.benign,
           d.description
    FROM flagged f
    LEFT JOIN iobench.wait_event_descriptions() AS d ON d.wait_type = f.wait_type
    ORDER BY f.wait_s DESC, f.wait_type, f.backend_type
$$;
COMMENT ON FUNCTION iobench.wait_table_by_backend(iobench.wait_raw[]) IS 'the waits of a wait table per backend type, with the benign flag and the server''s description';

-- Always on (needs shared_preload_libraries = 'iobench')

CREATE OR REPLACE FUNCTION iobench.waits_raw()
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_waits_raw'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION iobench.waits_raw IS 'the wait collector''s raw totals since the last reset';

CREATE OR REPLACE FUNCTION iobench.reset_waits()
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_reset_waits'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.reset_waits IS 'clear the wait collector''s totals';

CREATE OR REPLACE FUNCTION iobench.wait_collector_status(
    OUT pid              integer,
    OUT period_ms        integer,
    OUT started_at       timestamptz,
    OUT reset_at         timestamptz,
    OUT ticks            bigint,
    OUT missed_ticks     bigint,
    OUT tick_pct         double precision,
    OUT sampled_s        double precision,
    OUT wait_types       integer,
    OUT max_wait_types   integer,
    OUT overflow_samples bigint,
    OUT schedstat        boolean)
AS 'MODULE_PATHNAME', 'iobench_wait_collector_status'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION iobench.wait_collector_status IS 'the wait collector''s pid, period, ticks taken and missed, and use of its bounded table';

CREATE OR REPLACE VIEW iobench.wait_stats AS
    SELECT * FROM iobench.wait_table(ARRAY(SELECT r FROM iobench.waits_raw() AS r),
                                      (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision)
    ORDER BY "Wait_S" DESC, "WaitType";
COMMENT ON VIEW iobench.wait_stats IS 'wait statistics of the instance since the last reset, in SQL Server''s format';

CREATE OR REPLACE VIEW iobench.wait_stats_all AS
    SELECT * FROM iobench.wait_table_all(ARRAY(SELECT r FROM iobench.waits_raw() AS r),
                                          (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision)
    ORDER BY wait_s DESC, wait_type;
COMMENT ON VIEW iobench.wait_stats_all IS 'every wait type since the last reset, unrounded, with benign and 95 % flags';

-- (rounded for reading, as the wait tables are: seconds and percentages
-- to two decimals; wait_table_by_backend() keeps the exact figures)
CREATE OR REPLACE VIEW iobench.wait_stats_by_backend AS
    SELECT b.backend_type, b.wait_type,
           round(b.wait_s::numeric, 2)::double precision AS wait_s,
           round(b.resource_s::numeric, 2)::double precision AS resource_s,
           round(b.signal_s::numeric, 2)::double precision AS signal_s,
           b.wait_count,
           round(b.percentage::numeric, 2)::double precision AS percentage,
           b.benign, b.description
      FROM iobench.wait_table_by_backend(ARRAY(SELECT r FROM iobench.waits_raw() AS r)) AS b
    ORDER BY b.wait_s DESC, b.wait_type, b.backend_type;
COMMENT ON VIEW iobench.wait_stats_by_backend IS 'wait statistics of the instance since the last reset, per backend type';

CREATE OR REPLACE VIEW iobench.wait_collector AS
    SELECT * FROM iobench.wait_collector_status();
COMMENT ON VIEW iobench.wait_collector IS 'the wait collector worker: period, ticks taken and missed, table use';

CREATE OR REPLACE FUNCTION iobench.snapshot_waits(snapshot_name text)
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    before_reset timestamptz;
    after_reset  timestamptz;
    sampled      double precision;
    taken        timestamptz := clock_timestamp();
    keep         integer;
BEGIN
    IF snapshot_name IS NULL THEN
        RAISE EXCEPTION 'argument "snapshot_name" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    -- a name to read and type, and one the table's index can hold
    IF length(snapshot_name) NOT BETWEEN 1 AND 255 THEN
        RAISE EXCEPTION 'argument "snapshot_name" must be 1 to 255 characters long, not %', length(snapshot_name)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF EXISTS (SELECT 1 FROM iobench.wait_snapshots s
               WHERE s.snapshot_name = snapshot_waits.snapshot_name) THEN
        RAISE EXCEPTION 'wait snapshot "%" already exists', snapshot_name
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Choose another name, or delete the old snapshot from iobench.wait_snapshots.';
    END IF;

    SELECT c.reset_at, c.sampled_s INTO before_reset, sampled
    FROM iobench.wait_collector_status() AS c;
    INSERT INTO iobench.wait_snapshots VALUES (snapshot_name, taken, before_reset, sampled);
    INSERT INTO iobench.wait_snapshot_rows
        SELECT snapshot_name, r.wait_type, sum(r.wait_s),
               CASE WHEN count(r.signal_s) = count(*) THEN sum(r.signal_s) END,
               sum(r.wait_count)
        FROM iobench.waits_raw() AS r
        GROUP BY r.wait_type;
    SELECT c.reset_at INTO after_reset FROM iobench.wait_collector_status() AS c;
    IF after_reset <> before_reset THEN
        RAISE EXCEPTION 'the wait statistics were reset while snapshot "%" was taken', snapshot_name
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Take the snapshot again.';
    END IF;
    -- retention: keep the newest iobench.wait_snapshots_keep (0 keeps all)
    keep := coalesce(pg_catalog.current_setting('iobench.wait_snapshots_keep', true)::integer, 100);
    IF keep > 0 THEN
        DELETE FROM iobench.wait_snapshots s
         WHERE s.snapshot_name IN (SELECT o.snapshot_name FROM iobench.wait_snapshots o
                                    ORDER BY o.taken_at DESC, o.snapshot_name DESC
                                   OFFSET keep);
    END IF;
    RETURN taken;
END
$$;
COMMENT ON FUNCTION iobench.snapshot_waits IS 'store the wait collector''s current totals under a name; the oldest beyond iobench.wait_snapshots_keep are removed';

-- Raw rows of the interval between two snapshots, or since one (to_snapshot NULL)
CREATE OR REPLACE FUNCTION iobench_internal.wait_snapshot_diff_raw(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_raw
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.wait_snapshots;
    t iobench.wait_snapshots;
    current_reset timestamptz;
BEGIN
    IF from_snapshot IS NULL THEN
        RAISE EXCEPTION 'argument "from_snapshot" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO f FROM iobench.wait_snapshots s WHERE s.snapshot_name = from_snapshot;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'wait snapshot "%" does not exist', from_snapshot
            USING ERRCODE = 'undefined_object';
    END IF;

    IF to_snapshot IS NULL THEN
        SELECT c.reset_at INTO current_reset FROM iobench.wait_collector_status() AS c;
        IF current_reset <> f.reset_at THEN
            RAISE EXCEPTION 'the wait statistics were reset after snapshot "%" was taken', from_snapshot
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Take a new snapshot to diff from.';
        END IF;
        RETURN QUERY
            SELECT n.wait_type,
                   n.wait_s - coalesce(o.wait_s, 0),
                   CASE WHEN n.signal_s IS NULL OR (o.wait_type IS NOT NULL AND o.signal_s IS NULL)
                        THEN NULL ELSE n.signal_s - coalesce(o.signal_s, 0) END,
                   n.wait_count - coalesce(o.wait_count, 0),
                   NULL::bigint, NULL::double precision, NULL::text
            FROM (SELECT r.wait_type, sum(r.wait_s) AS wait_s,
                         CASE WHEN count(r.signal_s) = count(*) THEN sum(r.signal_s) END AS signal_s,
                         sum(r.wait_count)::bigint AS wait_count
                  FROM iobench.waits_raw() AS r GROUP BY r.wait_type) AS n
            LEFT JOIN iobench.wait_snapshot_rows o
                   ON o.snapshot_name = from_snapshot AND o.wait_type = n.wait_type
            WHERE n.wait_s > coalesce(o.wait_s, 0) OR n.wait_count > coalesce(o.wait_count, 0);
        RETURN;
    END IF;

    SELECT * INTO t FROM iobench.wait_snapshots s WHERE s.snapshot_name = to_snapshot;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'wait snapshot "%" does not exist', to_snapshot
            USING ERRCODE = 'undefined_object';
    END IF;
    IF t.taken_at < f.taken_at THEN
        RAISE EXCEPTION 'wait snapshot "%" was taken before "%"', to_snapshot, from_snapshot
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Pass the earlier snapshot first.';
    END IF;
    IF t.reset_at <> f.reset_at THEN
        RAISE EXCEPTION 'the wait statistics were reset between snapshots "%" and "%"', from_snapshot, to_snapshot
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN QUERY
        SELECT n.wait_type,
               n.wait_s - coalesce(o.wait_s, 0),
               CASE WHEN n.signal_s IS NULL OR (o.wait_type IS NOT NULL AND o.signal_s IS NULL)
                    THEN NULL ELSE n.signal_s - coalesce(o.signal_s, 0) END,
               n.wait_count - coalesce(o.wait_count, 0),
               NULL::bigint, NULL::double precision, NULL::text
        FROM iobench.wait_snapshot_rows n
        LEFT JOIN iobench.wait_snapshot_rows o
               ON o.snapshot_name = from_snapshot AND o.wait_type = n.wait_type
        WHERE n.snapshot_name = to_snapshot
          AND (n.wait_s > coalesce(o.wait_s, 0) OR n.wait_count > coalesce(o.wait_count, 0));
END
$$;
COMMENT ON FUNCTION iobench_internal.wait_snapshot_diff_raw IS 'the body of iobench.wait_snapshot_diff_raw(), which checks the grant first';

-- iobench.wait_snapshot_diff_raw(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.wait_snapshot_diff_raw(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_raw
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_snapshot_diff_raw(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_snapshot_diff_raw(wait_snapshot_diff_raw.from_snapshot, wait_snapshot_diff_raw.to_snapshot);
END;
COMMENT ON FUNCTION iobench.wait_snapshot_diff_raw IS 'raw wait statistics between two snapshots, or since one';

CREATE OR REPLACE FUNCTION iobench.wait_stats_diff_all(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_stats_diff_all(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.wait_snapshot_diff_raw(from_snapshot, to_snapshot) AS r),
        (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision);
END;
COMMENT ON FUNCTION iobench.wait_stats_diff_all IS 'every wait type of the interval between two snapshots, or since one, with flags';

CREATE OR REPLACE FUNCTION iobench.wait_stats_diff(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_stats_diff(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.wait_stats_diff_all(from_snapshot, to_snapshot) AS t));
END;
COMMENT ON FUNCTION iobench.wait_stats_diff IS 'the wait table of the interval between two snapshots, or since one';

-- A window sampled from the calling backend (no preloading needed)

CREATE OR REPLACE FUNCTION iobench.sample_waits_raw(
    duration      interval,
    sample_period interval  DEFAULT NULL,   -- NULL: iobench.sample_period
    pids          integer[] DEFAULT NULL)   -- NULL: every process
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_sample_waits_raw'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.sample_waits_raw IS 'sample wait events from this backend for a window; raw rows';

CREATE OR REPLACE FUNCTION iobench.sample_waits_all(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits_all(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r),
        coalesce(extract(epoch FROM sample_period)::double precision,
                 extract(epoch FROM current_setting('iobench.sample_period')::interval)::double precision));
END;
COMMENT ON FUNCTION iobench.sample_waits_all IS 'sample wait events for a window and return every wait type with flags';

CREATE OR REPLACE FUNCTION iobench.sample_waits(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.sample_waits_all(duration, sample_period, pids) AS t));
END;
COMMENT ON FUNCTION iobench.sample_waits IS 'sample wait events for a window and return the wait table in SQL Server''s format';

CREATE OR REPLACE FUNCTION iobench.sample_waits_by_backend(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_backend_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits_by_backend(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    -- rounded for reading, as wait_stats_by_backend is
    SELECT b.backend_type, b.wait_type,
           round(b.wait_s::numeric, 2)::double precision AS wait_s,
           round(b.resource_s::numeric, 2)::double precision AS resource_s,
           round(b.signal_s::numeric, 2)::double precision AS signal_s,
           b.wait_count,
           round(b.percentage::numeric, 2)::double precision AS percentage,
           b.benign, b.description
      FROM iobench.wait_table_by_backend(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r)) AS b
     ORDER BY b.wait_s DESC, b.wait_type, b.backend_type;
END;
COMMENT ON FUNCTION iobench.sample_waits_by_backend IS 'sample wait events for a window and return them per backend type';

CREATE OR REPLACE FUNCTION iobench.run_wait_stats_all(run_id bigint)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT ROW(w.wait_type, w.wait_s, w.signal_s, w.wait_count,
                   w.exact_count, w.exact_wait_s, NULL::text)::iobench.wait_raw
        FROM iobench.run_waits w
        WHERE w.run_id = run_wait_stats_all.run_id),
        (SELECT s.period_ms / 1000.0 FROM iobench.run_wait_sampling s
         WHERE s.run_id = run_wait_stats_all.run_id))
$$;
COMMENT ON FUNCTION iobench.run_wait_stats_all IS 'every wait type of one run, unrounded, with flags';

CREATE OR REPLACE FUNCTION iobench.run_wait_stats(run_id bigint)
RETURNS TABLE (
    "WaitType"    text,
    "Wait_S"      numeric(16, 2),
    "Resource_S"  numeric(16, 2),
    "Signal_S"    numeric(16, 2),
    "WaitCount"   bigint,
    "Percentage"  numeric(5, 2),
    "AvgWait_S"   numeric(16, 4),
    "AvgRes_S"    numeric(16, 4),
    "AvgSig_S"    numeric(16, 4),
    "ExactCount"  bigint,
    "ExactWait_S" numeric(16, 2))
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT r.*, t.exact_count, t.exact_wait_s::numeric(16, 2)
    FROM iobench.run_wait_stats_all(run_wait_stats.run_id) AS t,
         iobench_internal.wait_table_rounded(t) AS r
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type;
END;
COMMENT ON FUNCTION iobench.run_wait_stats IS 'the wait table of one run, with the workers'' exact I/O figures beside the sampled ones';

-- Privileges: readers are pg_monitor; reset, snapshots and
-- Runs across servers: export and import (iobench's own documents and fio's
-- JSON), merged latency histograms, and the fleet comparison.
--
-- A run is identified everywhere by runs.run_uuid; a copy keeps it, with
-- the run's origin (host, system_identifier, pg_version, device, its
-- run_id there as origin_run_id) and the name it was gathered under
-- (server).  Importing a run that is already stored changes nothing, so
-- gathering twice stores once.

-- A document of iobench runs (version 1) around the runs given, each
-- {"run": ..., "seconds": ..., ...}, as import_runs() reads it.  Keys
-- added since (0.2: "disk_seconds", "tablespaces") keep the version: a
-- reader ignores the keys it does not know and stores no rows for the
-- ones a document lacks.
CREATE OR REPLACE FUNCTION iobench_internal.runs_document(runs jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'format', 'iobench runs',
        'version', 1,
        'exported_at', now(),
        'exported_by', (SELECT 'iobench ' || e.extversion FROM pg_extension e
                         WHERE e.extname = 'iobench'),
        'runs', runs_document.runs)
$$;
COMMENT ON FUNCTION iobench_internal.runs_document(jsonb) IS 'a document of iobench runs for import_runs() around the runs given';

-- A run's row that was not stored (a run on a hot standby or in a
-- read-only transaction returns it with run_id NULL) as a document for
-- iobench.import_runs() on the primary: the row alone, without seconds,
-- histogram or waits, which such a run does not keep.
CREATE OR REPLACE FUNCTION iobench_internal.export_run_row(r iobench.runs)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF export_run_row.r IS NULL OR (export_run_row.r).run_uuid IS NULL THEN
        RAISE EXCEPTION 'argument "r" must be a row of iobench.run() with a run_uuid'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN jsonb_build_array(jsonb_build_object('run', to_jsonb(export_run_row.r)));
END
$$;
COMMENT ON FUNCTION iobench_internal.export_run_row(iobench.runs) IS 'the body of iobench.export_run_row(): the checked row as the runs of a document';

-- iobench.export_run_row(): the API; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.export_run_row(r iobench.runs)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.runs_document(iobench_internal.export_run_row(export_run_row.r));
END;
COMMENT ON FUNCTION iobench.export_run_row(iobench.runs) IS 'a row iobench.run() returned without storing it, as a document for iobench.import_runs()';

-- Runs with their seconds, latency histograms, stalls, waits, the block
-- device's seconds and the tablespaces of a group as one self-contained
-- JSON document, for iobench.import_runs() on another server.  Generated
-- columns are left out (the importing server computes them).  run_ids
-- NULL: every run (since "since", when given).
CREATE OR REPLACE FUNCTION iobench_internal.export_runs(run_ids bigint[] DEFAULT NULL,
                                               since timestamptz DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'run', to_jsonb(r),
                       'seconds', coalesce((
                           SELECT jsonb_agg(to_jsonb(s) - 'run_id' ORDER BY s.second, s.op)
                             FROM iobench.run_seconds s WHERE s.run_id = r.run_id), '[]'),
                       'latency', coalesce((
                           SELECT jsonb_agg(to_jsonb(l) - 'run_id' ORDER BY l.op, l.lower_us)
                             FROM iobench.run_latency l WHERE l.run_id = r.run_id), '[]'),
                       'stalls', coalesce((
                           SELECT jsonb_agg(to_jsonb(t) - 'run_id' - 'total_us' ORDER BY t.at_s, t.worker)
                             FROM iobench.run_stalls t WHERE t.run_id = r.run_id), '[]'),
                       'waits', coalesce((
                           SELECT jsonb_agg(to_jsonb(w) - 'run_id' ORDER BY w.wait_type)
                             FROM iobench.run_waits w WHERE w.run_id = r.run_id), '[]'),
                       'wait_sampling', (
                           SELECT to_jsonb(ws) - 'run_id'
                             FROM iobench.run_wait_sampling ws WHERE ws.run_id = r.run_id),
                       -- without iostat's figures, which the generated columns compute
                       'disk_seconds', coalesce((
                           SELECT jsonb_agg(to_jsonb(d) - ('{run_id}'::text[] || ARRAY(
                                                SELECT a.attname::text FROM pg_attribute a
                                                 WHERE a.attrelid = 'iobench.run_disk_seconds'::regclass
                                                   AND a.attgenerated <> ''))
                                            ORDER BY d.device, d.second)
                             FROM iobench.run_disk_seconds d WHERE d.run_id = r.run_id), '[]'),
                       'tablespaces', coalesce((
                           SELECT jsonb_agg(to_jsonb(g) - 'run_id' ORDER BY g.position)
                             FROM iobench.run_tablespaces g WHERE g.run_id = r.run_id), '[]'))
                   ORDER BY r.run_id)
              FROM iobench.runs r
             WHERE (export_runs.run_ids IS NULL OR r.run_id = ANY (export_runs.run_ids))
               AND (export_runs.since IS NULL OR r.started_at >= export_runs.since)), '[]');
END
$$;
COMMENT ON FUNCTION iobench_internal.export_runs(bigint[], timestamptz) IS 'the body of iobench.export_runs(): the runs of the document, after the run ids are checked';

-- iobench.export_runs(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.export_runs(run_ids bigint[] DEFAULT NULL,
                                               since timestamptz DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.check_run_ids(export_runs.run_ids, false);
    SELECT iobench_internal.runs_document(iobench_internal.export_runs(export_runs.run_ids, export_runs.since));
END;
COMMENT ON FUNCTION iobench.export_runs(bigint[], timestamptz) IS 'runs with their seconds, histograms, stalls, waits, device seconds and group tablespaces as one JSON document, for import_runs()';

-- Insert one iobench.runs row from a JSON object keyed by column name,
-- unless a run with its run_uuid is stored already; returns the new run_id
-- or NULL.  Keys that are no column (a newer version's) are ignored, and a
-- column missing or null in the object gets its default, so documents of
-- other versions import.  Called by the import functions as the owner.
CREATE OR REPLACE FUNCTION iobench_internal.insert_run(r jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cols text;
    vals text;
    id bigint;
BEGIN
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum),
           string_agg('p.' || quote_ident(a.attname), ', ' ORDER BY a.attnum)
      INTO cols, vals
      FROM pg_attribute a
     WHERE a.attrelid = 'iobench.runs'::regclass AND a.attnum > 0 AND NOT a.attisdropped
       AND a.attgenerated = '' AND jsonb_typeof(insert_run.r -> a.attname::text) <> 'null';
    EXECUTE format('INSERT INTO iobench.runs (%s) SELECT %s '
                   'FROM pg_catalog.jsonb_populate_record(NULL::iobench.runs, $1) AS p '
                   'ON CONFLICT ON CONSTRAINT runs_run_uuid_key DO NOTHING RETURNING run_id', cols, vals)
        USING insert_run.r INTO id;
    RETURN id;
END
$$;
COMMENT ON FUNCTION iobench_internal.insert_run(jsonb) IS 'insert a run from a JSON object keyed by column name (the import functions)';

-- The children of an imported run (seconds, histogram, stalls, waits,
-- the device's seconds, the tablespaces of a group) from its entry in an
-- export_runs() document; a key missing from the entry stores no rows.
CREATE OR REPLACE FUNCTION iobench_internal.import_children(run_id bigint, run jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO iobench.run_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us)
    SELECT import_children.run_id, s.second, s.op, s.ops, s.bytes, s.lat_mean_us, s.lat_max_us
      FROM jsonb_populate_recordset(NULL::iobench.run_seconds, coalesce(import_children.run -> 'seconds', '[]')) s;
    INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
    SELECT import_children.run_id, l.op, l.lower_us, l.upper_us, l.count
      FROM jsonb_populate_recordset(NULL::iobench.run_latency, coalesce(import_children.run -> 'latency', '[]')) l;
    INSERT INTO iobench.run_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us)
    SELECT import_children.run_id, t.at_s, t.worker, t.file, t.file_offset, t.write_us, t.sync_us
      FROM jsonb_populate_recordset(NULL::iobench.run_stalls, coalesce(import_children.run -> 'stalls', '[]')) t;
    INSERT INTO iobench.run_waits (run_id, wait_type, wait_s, signal_s, wait_count, exact_count, exact_wait_s)
    SELECT import_children.run_id, w.wait_type, w.wait_s, w.signal_s, w.wait_count, w.exact_count, w.exact_wait_s
      FROM jsonb_populate_recordset(NULL::iobench.run_waits, coalesce(import_children.run -> 'waits', '[]')) w;
    IF jsonb_typeof(import_children.run -> 'wait_sampling') = 'object' THEN
        INSERT INTO iobench.run_wait_sampling (run_id, scope, period_ms, ticks, missed_ticks, sampled_s)
        SELECT import_children.run_id, ws.scope, ws.period_ms, ws.ticks, ws.missed_ticks, ws.sampled_s
          FROM jsonb_populate_record(NULL::iobench.run_wait_sampling, import_children.run -> 'wait_sampling') ws;
    END IF;
    -- new in 0.2: documents of 0.1 have neither
    INSERT INTO iobench.run_disk_seconds (run_id, device, member, second, interval_s,
                                          reads, read_merges, read_sectors, read_ms,
                                          writes, write_merges, write_sectors, write_ms,
                                          in_flight, io_ms, queue_ms,
                                          discards, discard_merges, discard_sectors, discard_ms,
                                          flushes, flush_ms)
    SELECT import_children.run_id, d.device, d.member, d.second, d.interval_s,
           d.reads, d.read_merges, d.read_sectors, d.read_ms,
           d.writes, d.write_merges, d.write_sectors, d.write_ms,
           d.in_flight, d.io_ms, d.queue_ms,
           d.discards, d.discard_merges, d.discard_sectors, d.discard_ms,
           d.flushes, d.flush_ms
      FROM jsonb_populate_recordset(NULL::iobench.run_disk_seconds, coalesce(import_children.run -> 'disk_seconds', '[]')) d;
    INSERT INTO iobench.run_tablespaces (run_id, tablespace, position, device, filesystem, mount_point, files,
        ops, bytes, mb_per_s, mib_per_s, iops,
        lat_avg_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us,
        read_ops, read_bytes, read_mb_per_s, read_mib_per_s, read_iops,
        read_lat_avg_us, read_lat_p50_us, read_lat_p90_us, read_lat_p99_us, read_lat_p999_us, read_lat_max_us,
        write_ops, write_bytes, write_mb_per_s, write_mib_per_s, write_iops,
        write_lat_avg_us, write_lat_p50_us, write_lat_p90_us, write_lat_p99_us, write_lat_p999_us, write_lat_max_us,
        fsync_ops, fsync_iops,
        fsync_lat_avg_us, fsync_lat_p50_us, fsync_lat_p90_us, fsync_lat_p99_us, fsync_lat_p999_us, fsync_lat_max_us)
    SELECT import_children.run_id, g.tablespace, g.position, g.device, g.filesystem, g.mount_point, g.files,
        g.ops, g.bytes, g.mb_per_s, g.mib_per_s, g.iops,
        g.lat_avg_us, g.lat_p50_us, g.lat_p90_us, g.lat_p99_us, g.lat_p999_us, g.lat_max_us,
        g.read_ops, g.read_bytes, g.read_mb_per_s, g.read_mib_per_s, g.read_iops,
        g.read_lat_avg_us, g.read_lat_p50_us, g.read_lat_p90_us, g.read_lat_p99_us, g.read_lat_p999_us, g.read_lat_max_us,
        g.write_ops, g.write_bytes, g.write_mb_per_s, g.write_mib_per_s, g.write_iops,
        g.write_lat_avg_us, g.write_lat_p50_us, g.write_lat_p90_us, g.write_lat_p99_us, g.write_lat_p999_us, g.write_lat_max_us,
        g.fsync_ops, g.fsync_iops,
        g.fsync_lat_avg_us, g.fsync_lat_p50_us, g.fsync_lat_p90_us, g.fsync_lat_p99_us, g.fsync_lat_p999_us, g.fsync_lat_max_us
      FROM jsonb_populate_recordset(NULL::iobench.run_tablespaces, coalesce(import_children.run -> 'tablespaces', '[]')) g;
END
$$;
COMMENT ON FUNCTION iobench_internal.import_children(bigint, jsonb) IS 'store the children of an imported run';

-- What breaks the rules of a measured run in an imported run stored under
-- run_id (its row and children, before the import commits): every figure
-- finite and not negative (the seed excepted), intervals not negative, a
-- run that ends after it starts, data ops the sum of reads and writes, and
-- each op's histogram holding as many I/Os as the op's count.  One row per
-- problem, first the run's own columns; "field" names the document's key
-- ("run", "seconds", ...) with the row's key and the column, as a reader
-- of the document finds it.  Called by the import functions as the owner.
CREATE OR REPLACE FUNCTION iobench_internal.imported_run_problems(run_id bigint)
RETURNS TABLE (field text, problem text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t record;
    checks text;
    row_key text;
BEGIN
    FOR t IN SELECT * FROM (VALUES
            (1, 'iobench.runs'::regclass, 'run'),
            (2, 'iobench.run_seconds'::regclass, 'seconds'),
            (3, 'iobench.run_latency'::regclass, 'latency'),
            (4, 'iobench.run_stalls'::regclass, 'stalls'),
            (5, 'iobench.run_waits'::regclass, 'waits'),
            (6, 'iobench.run_wait_sampling'::regclass, 'wait_sampling'),
            (7, 'iobench.run_disk_seconds'::regclass, 'disk_seconds'),
            (8, 'iobench.run_tablespaces'::regclass, 'tablespaces')) AS v(n, rel, doc_key)
        ORDER BY v.n
    LOOP
        -- (column, holds the rule, the value as text) for every figure
        SELECT string_agg(format('(%L, %s, x.%I::text)', a.attname,
                   CASE WHEN a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)
                        THEN format('x.%I >= 0', a.attname)
                        WHEN a.atttypid = 'numeric'::regtype
                        THEN format('x.%I BETWEEN 0 AND 18446744073709551615', a.attname)
                        WHEN a.atttypid = 'interval'::regtype
                        THEN format('x.%I >= ''0''::interval AND pg_catalog.date_part(''epoch'', x.%I) < ''infinity''::float8',
                                    a.attname, a.attname)
                        ELSE format('x.%I >= 0 AND x.%I < ''infinity''::float8', a.attname, a.attname)
                   END, a.attname), ', ' ORDER BY a.attnum)
          INTO checks
          FROM pg_attribute a
         WHERE a.attrelid = t.rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
           AND a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype,
                              'float8'::regtype, 'numeric'::regtype, 'interval'::regtype)
           AND a.attname NOT IN ('run_id', 'seed');
        -- the row's key in the document: the primary key's columns but run_id
        SELECT coalesce('format(' || quote_literal(' (' || string_agg(a.attname || ' %s', ', ' ORDER BY k.n) || ')')
                        || ', ' || string_agg(format('x.%I', a.attname), ', ' ORDER BY k.n) || ')', '''''')
          INTO row_key
          FROM pg_index i
         CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
         WHERE i.indrelid = t.rel AND i.indisprimary AND a.attname <> 'run_id';
        RETURN QUERY EXECUTE format(
            'SELECT pg_catalog.format(%L, %s, c.col), '
            '       pg_catalog.format(''is %%s, but must be finite and not negative'', c.shown) '
            '  FROM %s x CROSS JOIN LATERAL (VALUES %s) AS c(col, ok, shown) '
            ' WHERE x.run_id = $1 AND NOT c.ok',
            '"' || t.doc_key || '"%s."%s"', row_key, t.rel, checks)
            USING imported_run_problems.run_id;
    END LOOP;

    RETURN QUERY
    SELECT '"run"."finished_at"', format('is %s, before "started_at" %s', r.finished_at, r.started_at)
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id AND r.finished_at < r.started_at;
    RETURN QUERY
    SELECT '"run"."ops"', format('is %s, but the run has %s reads and %s writes', r.ops,
                                 coalesce(r.read_ops, 0), coalesce(r.write_ops, 0))
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id
       AND r.ops <> coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0);
    RETURN QUERY
    SELECT format('"latency" (op %s)', h.op),
           format('holds %s I/Os, but "run"."%s_ops" is %s', h.n, h.op, coalesce(h.ops::text, 'null'))
      FROM (SELECT l.op, sum(l.count) AS n,
                   CASE l.op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops ELSE r.fsync_ops END AS ops
              FROM iobench.run_latency l JOIN iobench.runs r ON r.run_id = l.run_id
             WHERE l.run_id = imported_run_problems.run_id
             GROUP BY l.op, r.read_ops, r.write_ops, r.fsync_ops) AS h
     WHERE h.ops IS DISTINCT FROM h.n
     ORDER BY h.op;
    RETURN QUERY
    SELECT format('"latency" (op %s, lower_us %s)', l.op, l.lower_us),
           format('has "upper_us" %s, not above "lower_us"', l.upper_us)
      FROM iobench.run_latency l
     WHERE l.run_id = imported_run_problems.run_id AND NOT l.upper_us > l.lower_us
     ORDER BY l.op, l.lower_us;
END
$$;
COMMENT ON FUNCTION iobench_internal.imported_run_problems(bigint) IS 'what breaks the rules of a measured run in an imported run (the import functions)';

-- Raise the first problem iobench_internal.imported_run_problems() finds in the
-- run stored under run_id.
CREATE OR REPLACE FUNCTION iobench_internal.check_imported_run(run_id bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p record;
BEGIN
    SELECT * INTO p FROM iobench_internal.imported_run_problems(check_imported_run.run_id) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% %', p.field, p.problem
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_imported_run(bigint) IS 'raise the first problem of an imported run (the import functions)';

-- The largest document the import functions take: 64 MB (jsonb's own
-- size).  An import holds the document, its runs and their rows in
-- memory at once, several times the document's size; a bound keeps one
-- import from taking a server's memory.  Larger exports are split by
-- run_ids or since, and imported one by one.
CREATE OR REPLACE FUNCTION iobench_internal.check_import_size(doc jsonb)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bytes bigint := pg_column_size(check_import_size.doc || '{}'::jsonb);  -- its size uncompressed
BEGIN
    IF bytes > 64 * 1024 * 1024 THEN
        RAISE EXCEPTION 'argument "doc" is % MB, more than the limit of 64 MB', round(bytes / 1048576.0, 1)
            USING ERRCODE = 'program_limit_exceeded',
                  DETAIL = 'An import holds the whole document in memory, several times over; a document of more than 64 MB is refused.',
                  HINT = 'Export fewer runs per document (export_runs() with run_ids, or since) and import each.';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_import_size(jsonb) IS 'refuse a document larger than the import functions take (64 MB)';

-- Store the runs of an iobench.export_runs() document.  A run already
-- stored here (same run_uuid), made here or imported, is left as it is
-- (its name included) and returned with imported false.  Every figure of
-- a new run is checked against the rules of a measured run
-- (iobench_internal.imported_run_problems()); a run breaking one is not stored and
-- the error names the run and the field.  "server" names the server the
-- runs come from when the document does not (a run copied on keeps its
-- first name).  A document is at most 64 MB (check_import_size()).  Runs
-- as the owner: callers need EXECUTE only.
CREATE OR REPLACE FUNCTION iobench.import_runs(doc jsonb, server text DEFAULT NULL)
RETURNS TABLE (run_id bigint, run_uuid uuid, imported boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e record;
    rr jsonb;
    id bigint;
    uid uuid;
    name text;
BEGIN
    IF import_runs.doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    PERFORM iobench_internal.check_import_size(import_runs.doc);
    IF jsonb_typeof(import_runs.doc) <> 'object'
       OR import_runs.doc ->> 'format' IS DISTINCT FROM 'iobench runs'
       OR jsonb_typeof(import_runs.doc -> 'runs') IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'argument "doc" is not a document of iobench.export_runs()'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A document is a JSON object with "format": "iobench runs", "version": 1 and an array "runs".',
                  HINT = 'A result of fio --output-format=json or json+ is imported with iobench.import_fio().';
    END IF;
    IF import_runs.doc ->> 'version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'version % of argument "doc" is not supported', import_runs.doc ->> 'version'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'This version of iobench reads version 1.';
    END IF;
    IF import_runs.server = '' THEN
        RAISE EXCEPTION 'argument "server" must not be empty'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    FOR e IN SELECT x.value AS v, x.n FROM jsonb_array_elements(import_runs.doc -> 'runs') WITH ORDINALITY AS x(value, n) LOOP
        rr := e.v -> 'run';
        BEGIN
            uid := (rr ->> 'run_uuid')::uuid;
            IF uid IS NULL THEN
                RAISE EXCEPTION 'it has no run_uuid' USING ERRCODE = 'invalid_parameter_value';
            END IF;
            name := coalesce(rr ->> 'server', import_runs.server, rr ->> 'host');
            SELECT r.run_id INTO id FROM iobench.runs r WHERE r.run_uuid = uid;
            IF FOUND THEN
                -- stored already: left as it is, whoever made it (an import
                -- never changes a run it did not create)
                RETURN QUERY SELECT r.run_id, r.run_uuid, false
                               FROM iobench.runs r WHERE r.run_id = id;
                CONTINUE;
            END IF;
            id := iobench_internal.insert_run((rr - 'run_id') || jsonb_build_object(
                    'origin_run_id', coalesce((rr ->> 'origin_run_id')::bigint, (rr ->> 'run_id')::bigint),
                    'server', name,
                    'imported_at', coalesce(nullif(rr -> 'imported_at', 'null'), to_jsonb(now()))));
            IF id IS NULL THEN
                -- a concurrent import stored it first
                RETURN QUERY SELECT r.run_id, r.run_uuid, false
                               FROM iobench.runs r WHERE r.run_uuid = uid;
                CONTINUE;
            END IF;
            PERFORM iobench_internal.import_children(id, e.v);
            PERFORM iobench_internal.check_imported_run(id);
        EXCEPTION
            WHEN invalid_parameter_value OR not_null_violation OR check_violation
                 OR unique_violation OR invalid_text_representation OR datatype_mismatch
                 OR invalid_datetime_format OR datetime_field_overflow
                 OR numeric_value_out_of_range OR string_data_right_truncation
                 OR interval_field_overflow THEN
            RAISE EXCEPTION 'run % of argument "doc" could not be imported', e.n
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('%s (run_uuid %s).', SQLERRM, coalesce(rr ->> 'run_uuid', 'missing'));
        END;
        RETURN QUERY SELECT r.run_id, r.run_uuid, true FROM iobench.runs r WHERE r.run_id = id;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench.import_runs(jsonb, text) IS 'store the runs of an export_runs() document; a run stored already is left as it is';

-- The bucket of iobench's latency histogram (src/histogram.h) holding a
-- value in nanoseconds, as the lower and upper bound in microseconds that
-- run_latency stores: every value below 64 ns has its own bucket, above,
-- each power of two is split into 64; 2^41 ns and more go to the top one.
CREATE OR REPLACE FUNCTION iobench.latency_bucket(value_ns bigint,
                                                  OUT lower_us double precision,
                                                  OUT upper_us double precision)
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT greatest(value_ns, 0) AS ns
    ), e AS (
        SELECT v.ns, least(64 - position('1' IN v.ns::bit(64)::text), 41) AS exp
          FROM v
    ), b AS (
        SELECT CASE WHEN e.ns < 64 THEN e.ns
                    WHEN 64 - position('1' IN e.ns::bit(64)::text) > 41
                    THEN (1::bigint << 41) + (63::bigint << 35)
                    ELSE (1::bigint << e.exp) + (((e.ns >> (e.exp - 6)) & 63) << (e.exp - 6))
               END AS lo,
               CASE WHEN e.ns < 64 THEN 1::bigint ELSE 1::bigint << (e.exp - 6) END AS width
          FROM e
    )
    SELECT b.lo / 1000.0::double precision, (b.lo + b.width) / 1000.0::double precision FROM b
$$;
COMMENT ON FUNCTION iobench.latency_bucket(bigint) IS 'the bucket of iobench''s latency histogram holding a value in ns, in µs';

-- Latency percentiles of several runs together, from their summed
-- histograms (the buckets are the same everywhere, so they add up): the
-- figures one histogram holding all their I/Os gives.  op: 'data' (reads
-- and writes, as the unprefixed columns of iobench.runs), 'read', 'write'
-- or 'fsync'.  As in iobench.run(), a percentile is the midpoint of the
-- bucket holding its rank, clamped to the largest maximum of the runs.
CREATE OR REPLACE FUNCTION iobench_internal.merged_latency(run_ids bigint[], op text DEFAULT 'data')
RETURNS TABLE (runs integer, ops bigint, lat_avg_us double precision,
               lat_p50_us double precision, lat_p90_us double precision,
               lat_p99_us double precision, lat_p999_us double precision,
               lat_max_us double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ops_of text[];
BEGIN
    ops_of := CASE merged_latency.op WHEN 'data' THEN ARRAY['read', 'write']
                                     WHEN 'read' THEN ARRAY['read']
                                     WHEN 'write' THEN ARRAY['write']
                                     WHEN 'fsync' THEN ARRAY['fsync'] END;
    IF ops_of IS NULL THEN
        RAISE EXCEPTION '"%" is not a valid value for argument "op"', merged_latency.op
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Valid values are "data", "read", "write" and "fsync".';
    END IF;

    RETURN QUERY
    WITH picked AS (
        SELECT DISTINCT u.id FROM unnest(merged_latency.run_ids) u(id)
    ), per_run AS (
        SELECT CASE merged_latency.op WHEN 'data' THEN r.ops WHEN 'read' THEN r.read_ops
                    WHEN 'write' THEN r.write_ops ELSE r.fsync_ops END AS n,
               CASE merged_latency.op WHEN 'data' THEN r.lat_avg_us WHEN 'read' THEN r.read_lat_avg_us
                    WHEN 'write' THEN r.write_lat_avg_us ELSE r.fsync_lat_avg_us END AS avg_us,
               CASE merged_latency.op WHEN 'data' THEN r.lat_max_us WHEN 'read' THEN r.read_lat_max_us
                    WHEN 'write' THEN r.write_lat_max_us ELSE r.fsync_lat_max_us END AS max_us
          FROM iobench.runs r JOIN picked p ON p.id = r.run_id
    ), buckets AS (
        SELECT l.lower_us, l.upper_us, sum(l.count)::bigint AS n
          FROM iobench.run_latency l JOIN picked p ON p.id = l.run_id
         WHERE l.op = ANY (ops_of)
         GROUP BY l.lower_us, l.upper_us
    ), cum AS (
        SELECT b.*, sum(b.n) OVER (ORDER BY b.lower_us) AS seen, sum(b.n) OVER () AS total
          FROM buckets b
    ), top AS (
        SELECT max(pr.max_us) AS max_us,
               sum(pr.avg_us * pr.n) / nullif(sum(pr.n) FILTER (WHERE pr.avg_us IS NOT NULL), 0) AS avg_us
          FROM per_run pr
    ), pct AS (
        SELECT q.p,
               (SELECT least((c.lower_us * 1000 + c.upper_us * 1000 - 1) / 2 / 1000,
                             coalesce((SELECT top.max_us FROM top), 'infinity'))
                  FROM cum c
                 WHERE c.seen >= least(greatest(ceil(q.p / 100 * c.total - 1e-9), 1), c.total)
                 ORDER BY c.lower_us LIMIT 1) AS v
          FROM unnest(ARRAY[50, 90, 99, 99.9]::double precision[]) AS q(p)
    )
    SELECT (SELECT count(*) FROM picked)::integer,
           (SELECT coalesce(sum(b.n), 0)::bigint FROM buckets b),
           (SELECT top.avg_us FROM top),
           (SELECT pct.v FROM pct WHERE pct.p = 50),
           (SELECT pct.v FROM pct WHERE pct.p = 90),
           (SELECT pct.v FROM pct WHERE pct.p = 99),
           (SELECT pct.v FROM pct WHERE pct.p = 99.9),
           (SELECT top.max_us FROM top);
END
$$;
COMMENT ON FUNCTION iobench_internal.merged_latency(bigint[], text) IS 'the body of iobench.merged_latency(), which checks the runs first';

-- iobench.merged_latency(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.merged_latency(run_ids bigint[], op text DEFAULT 'data')
RETURNS TABLE (runs integer, ops bigint, lat_avg_us double precision,
               lat_p50_us double precision, lat_p90_us double precision,
               lat_p99_us double precision, lat_p999_us double precision,
               lat_max_us double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.check_run_ids(merged_latency.run_ids, true);
    SELECT * FROM iobench_internal.merged_latency(merged_latency.run_ids, merged_latency.op);
END;
COMMENT ON FUNCTION iobench.merged_latency(bigint[], text) IS 'latency percentiles of several runs together, from their summed histograms';

-- Every server's completed runs side by side per I/O pattern, with its
-- ratio to the fleet's median server and its rank from the slowest:
-- "which disk is slowest for 8 KB random reads", "how far is each replica
-- from the median".  A server is the name its runs were gathered under, or
-- the host for runs made here (a run a fleet call made on this very
-- database, through a foreign server that reaches it, under that server's
-- name in iobench.fleet_runs); a pattern is what was asked of the disk
-- (rw, block size, workers x iodepth, read share, sync, direct I/O), so
-- fio's imported runs take part.  Figures are means over a server's runs.
CREATE OR REPLACE VIEW iobench.fleet_comparison AS
WITH per_server AS (
    SELECT coalesce(iobench.run_server(r), r.host, '?') AS server,
           r.rw, r.block_size, r.workers, r.iodepth, r.read_pct, r.fsync_every, r.sync_method, r.direct,
           count(*)::integer AS runs,
           avg(r.iops) AS iops,
           avg(r.mb_per_s) AS mb_per_s,
           avg(r.lat_p99_us) AS lat_p99_us,
           max(r.finished_at) AS last_run
      FROM iobench.runs r
     WHERE r.status IN ('completed', 'incomplete')
     GROUP BY 1, r.rw, r.block_size, r.workers, r.iodepth, r.read_pct, r.fsync_every, r.sync_method, r.direct
), medians AS (
    SELECT p.rw, p.block_size, p.workers, p.iodepth, p.read_pct, p.fsync_every, p.sync_method, p.direct,
           count(*) AS servers,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY p.iops) AS median_iops
      FROM per_server p
     GROUP BY p.rw, p.block_size, p.workers, p.iodepth, p.read_pct, p.fsync_every, p.sync_method, p.direct
), fleet AS (
    SELECT p.*, m.servers, m.median_iops
      FROM per_server p
      JOIN medians m
        ON m.rw = p.rw AND m.block_size = p.block_size AND m.workers = p.workers
       AND m.iodepth = p.iodepth AND m.read_pct IS NOT DISTINCT FROM p.read_pct
       AND m.fsync_every = p.fsync_every AND m.sync_method = p.sync_method AND m.direct = p.direct
)
SELECT f.rw, f.block_size, f.workers, f.iodepth, f.read_pct, f.fsync_every, f.sync_method, f.direct,
       f.server, f.runs,
       round(f.iops::numeric, 1) AS iops,
       round(f.mb_per_s::numeric, 2) AS mb_per_s,
       round(f.lat_p99_us::numeric, 1) AS lat_p99_us,
       f.servers::integer AS servers,
       round(f.median_iops::numeric, 1) AS fleet_median_iops,
       round((f.iops / nullif(f.median_iops, 0))::numeric, 2) AS ratio_to_median,
       rank() OVER (PARTITION BY f.rw, f.block_size, f.workers, f.iodepth, f.read_pct,
                                 f.fsync_every, f.sync_method, f.direct
                    ORDER BY f.iops NULLS FIRST)::integer AS rank_from_slowest,
       f.last_run
  FROM fleet f;
COMMENT ON VIEW iobench.fleet_comparison IS 'each server''s runs per I/O pattern, with the ratio to the fleet median and the rank from the slowest';
-- The load a disk carries within a latency target (C, src/search.c).

-- A latency percentile of a run's data I/O (op NULL: reads and writes) or
-- of one op kind, from its stored histogram, as the runs' own percentiles
-- are computed: the middle of the bucket holding the value, at most the
-- largest latency.
CREATE OR REPLACE FUNCTION iobench_internal.latency_percentile(run_id bigint, percentile double precision,
                                                      op text DEFAULT NULL)
RETURNS double precision
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v double precision;
BEGIN
    IF latency_percentile.percentile IS NULL
       OR NOT (latency_percentile.percentile > 0 AND latency_percentile.percentile <= 100) THEN
        RAISE EXCEPTION 'argument "percentile" must be greater than 0 and at most 100, not %',
                        coalesce(latency_percentile.percentile::text, 'null')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF latency_percentile.op IS NOT NULL AND latency_percentile.op NOT IN ('read', 'write', 'fsync') THEN
        RAISE EXCEPTION '"%" is not a valid value for argument "op"', latency_percentile.op
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Valid values are "read", "write", "fsync", and NULL for data I/O (reads and writes).';
    END IF;
    WITH b AS (
        SELECT l.lower_us, l.upper_us, sum(l.count) AS count
          FROM iobench.run_latency l
         WHERE l.run_id = latency_percentile.run_id
           AND CASE WHEN latency_percentile.op IS NULL THEN l.op IN ('read', 'write')
                    ELSE l.op = latency_percentile.op END
         GROUP BY l.lower_us, l.upper_us
    ), c AS (
        SELECT b.*, sum(b.count) OVER (ORDER BY b.lower_us) AS cum, sum(b.count) OVER () AS total
          FROM b
    )
    SELECT least((c.lower_us + c.upper_us - 0.001) / 2,
                 (SELECT CASE latency_percentile.op WHEN 'read' THEN r.read_lat_max_us
                                                    WHEN 'write' THEN r.write_lat_max_us
                                                    WHEN 'fsync' THEN r.fsync_lat_max_us
                                                    ELSE r.lat_max_us END
                    FROM iobench.runs r WHERE r.run_id = latency_percentile.run_id))
      INTO v
      FROM c
     WHERE c.cum >= greatest(ceil(latency_percentile.percentile / 100 * c.total - 1e-9), 1)
     ORDER BY c.lower_us
     LIMIT 1;
    RETURN v;
END
$$;
COMMENT ON FUNCTION iobench_internal.latency_percentile(bigint, double precision, text) IS 'the body of iobench.latency_percentile(), which checks the run first';

-- iobench.latency_percentile(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.latency_percentile(run_id bigint, percentile double precision,
                                                      op text DEFAULT NULL)
RETURNS double precision
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.existing_run(latency_percentile.run_id);
    SELECT iobench_internal.latency_percentile(latency_percentile.run_id, latency_percentile.percentile, latency_percentile.op);
END;
COMMENT ON FUNCTION iobench.latency_percentile(bigint, double precision, text) IS 'a latency percentile (µs) of a run, from its stored histogram';

-- Each step of each search, the best one marked.
CREATE OR REPLACE VIEW iobench.search_results AS
SELECT t.search_id, t.step, t.run_id, t.workers, t.iodepth,
       t.workers * t.iodepth AS outstanding,
       round(t.iops::numeric, 1) AS iops,
       round(t.latency_us::numeric, 1) AS latency_us,
       s.latency_target,
       s.latency_percentile,
       t.met_target,
       coalesce(t.step = s.best_step, false) AS best
  FROM iobench.search_steps t
  JOIN iobench.searches s USING (search_id);
COMMENT ON VIEW iobench.search_results IS 'the steps of each latency-target search, the best one marked';

-- Raise the load step by step until the latency target is exceeded.
CREATE OR REPLACE FUNCTION iobench.latency_search(
    tablespace         name             DEFAULT 'pg_default',
    latency_target     interval         DEFAULT '1ms',
    latency_percentile double precision DEFAULT 99,
    rw                 text             DEFAULT 'randread',
    block_size         text             DEFAULT '8kB',
    max_iodepth        integer          DEFAULT 256,
    max_workers        integer          DEFAULT 1,
    step_duration      interval         DEFAULT '10s',
    warmup             interval         DEFAULT '0s',
    file_size          text             DEFAULT '1GB',
    files              integer          DEFAULT 1,
    direct             boolean          DEFAULT true,
    engine             text             DEFAULT 'auto',
    seed               bigint           DEFAULT NULL,
    label              text             DEFAULT NULL)
RETURNS SETOF iobench.search_results
AS 'MODULE_PATHNAME', 'iobench_latency_search'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.latency_search IS 'raise queue depth and workers step by step until a latency percentile target is exceeded; the best step within it';
-- Importing fio's results (--output-format=json or json+) as runs, so a
-- disk measured with fio on a machine without PostgreSQL sits beside
-- iobench's runs.

-- A size as fio writes it in job options ("8k", "4K", "1m", "1g", "512",
-- "64KiB"): fio's k, m, g and t are powers of 1024 (kb_base=1024).  NULL
-- for what is not a plain size (a percentage, a range, a list).
CREATE OR REPLACE FUNCTION iobench.fio_size(size text)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN m IS NULL THEN NULL
                ELSE m[1]::numeric * 1024::numeric ^ CASE WHEN m[2] = '' THEN 0 ELSE strpos('kmgtp', lower(m[2])) END
           END::bigint
      FROM (SELECT regexp_match(btrim(size), '^([0-9]+)([kKmMgGtTpP]?)(i?[bB])?$') AS m) AS x
$$;
COMMENT ON FUNCTION iobench.fio_size(text) IS 'a size in fio''s notation (8k, 1m: powers of 1024) in bytes';

-- A number of a fio document (a JSON number, or a string holding one, as
-- fio writes job options): NULL when the key is missing or null; raises,
-- naming the document's field and the valid range, for anything else than
-- a finite number from min_value to max_value (a whole one when whole).
CREATE OR REPLACE FUNCTION iobench_internal.fio_number(value jsonb, field text, min_value numeric, max_value numeric,
                                              whole boolean DEFAULT true)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t text := fio_number.value #>> '{}';
    v numeric;
BEGIN
    IF fio_number.value IS NULL OR jsonb_typeof(fio_number.value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(fio_number.value) IN ('number', 'string')
       AND t ~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$' THEN
        v := t::numeric;
    END IF;
    IF v IS NULL OR v < fio_number.min_value OR v > fio_number.max_value
       OR (fio_number.whole AND v <> trunc(v)) THEN
        RAISE EXCEPTION 'field % of argument "doc" is %, but must be a % from % to %',
                        fio_number.field, fio_number.value::text,
                        CASE WHEN fio_number.whole THEN 'whole number' ELSE 'number' END,
                        fio_number.min_value, fio_number.max_value
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN v;
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_number(jsonb, text, numeric, numeric, boolean) IS 'a number of a fio document, checked against its valid range, naming the field';

-- A size of a fio job option in fio's notation (iobench.fio_size()) in
-- bytes, from min_value to max_value; NULL when the option is missing or
-- not a plain size (a percentage, a range).  Raises naming the field for a
-- size out of range.
CREATE OR REPLACE FUNCTION iobench_internal.fio_size_option(size text, field text, min_value numeric, max_value numeric)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    m text[] := regexp_match(btrim(fio_size_option.size), '^([0-9]{1,30})([kKmMgGtTpP]?)(i?[bB])?$');
    v numeric;
BEGIN
    IF m IS NULL THEN
        RETURN NULL;
    END IF;
    v := m[1]::numeric * 1024::numeric ^ CASE WHEN m[2] = '' THEN 0 ELSE strpos('kmgtp', lower(m[2])) END;
    IF v < fio_size_option.min_value OR v > fio_size_option.max_value THEN
        RAISE EXCEPTION 'field % of argument "doc" is "%", but must be a size from % to % bytes',
                        fio_size_option.field, fio_size_option.size,
                        fio_size_option.min_value, fio_size_option.max_value
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN v::bigint;
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_size_option(text, text, numeric, numeric) IS 'a size of a fio job option in bytes, checked against its valid range, naming the field';

-- The latency block of one direction of a fio job ("read", "write" or
-- "fsync"): completion latency (clat_ns), or lat_ns when fio computed
-- percentiles of it (lat_percentiles); syncs have lat_ns only.
CREATE OR REPLACE FUNCTION iobench_internal.fio_latency_section(job jsonb, op text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' -> 'lat_ns'
                WHEN job -> op -> 'lat_ns' ? 'percentile' THEN job -> op -> 'lat_ns'
                ELSE job -> op -> 'clat_ns' END
$$;
COMMENT ON FUNCTION iobench_internal.fio_latency_section(jsonb, text) IS 'the latency block of one direction of a fio job';

-- The iobench.runs columns of one direction of a fio job, as a JSON object
-- keyed by column ("read_ops", "read_lat_p99_us", ...; "fsync_" for the
-- sync section); empty when the direction did no I/O.  fio's ns become µs.
CREATE OR REPLACE FUNCTION iobench_internal.fio_figures(job jsonb, op text, runtime_s double precision)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH d AS (
        SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' ELSE job -> op END AS sec,
               CASE WHEN op = 'fsync' THEN 'sync' ELSE op END AS key,
               iobench_internal.fio_latency_section(job, op) AS lat,
               CASE WHEN op = 'fsync' OR job -> op -> 'lat_ns' ? 'percentile' THEN 'lat_ns' ELSE 'clat_ns' END AS lat_key
    )
    SELECT CASE WHEN coalesce(iobench_internal.fio_number(d.sec -> 'total_ios', format('"%s"."total_ios"', d.key), 0, 9223372036854775807), 0) = 0
                THEN '{}'::jsonb
           ELSE jsonb_strip_nulls(jsonb_build_object(
               op || '_ops', iobench_internal.fio_number(d.sec -> 'total_ios', format('"%s"."total_ios"', d.key), 0, 9223372036854775807)::bigint,
               op || '_bytes', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'io_bytes', format('"%s"."io_bytes"', d.key), 0, 9223372036854775807)::bigint END,
               op || '_iops', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'iops', format('"%s"."iops"', d.key), 0, 1e15, false)::double precision
                                   ELSE (d.sec ->> 'total_ios')::double precision / nullif(runtime_s, 0) END,
               op || '_mb_per_s', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'bw_bytes', format('"%s"."bw_bytes"', d.key), 0, 1e18, false)::double precision / 1e6 END,
               op || '_lat_avg_us', iobench_internal.fio_number(d.lat -> 'mean', format('"%s"."%s"."mean"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p50_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '50.000000', format('"%s"."%s"."percentile"."50.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p90_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '90.000000', format('"%s"."%s"."percentile"."90.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p99_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '99.000000', format('"%s"."%s"."percentile"."99.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p999_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '99.900000', format('"%s"."%s"."percentile"."99.900000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_max_us', iobench_internal.fio_number(d.lat -> 'max', format('"%s"."%s"."max"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000))
           END
      FROM d
$$;
COMMENT ON FUNCTION iobench_internal.fio_figures(jsonb, text, double precision) IS 'the iobench.runs columns of one direction of a fio job';

-- The settings and summary of a fio job as iobench.runs columns (a JSON
-- object keyed by column): job options over the global options, fio's
-- defaults where a job leaves one out.  Raises for a job that failed or
-- uses a pattern iobench does not store.
CREATE OR REPLACE FUNCTION iobench_internal.fio_settings(doc jsonb, job jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o jsonb;
    rw text;
    run_s double precision;
    fin timestamptz;
    warm interval;
BEGIN
    -- job options over global options
    o := coalesce(doc -> 'global options', '{}') || coalesce(job -> 'job options', '{}');
    IF coalesce(iobench_internal.fio_number(job -> 'error', '"error"', -2147483648, 2147483647), 0) <> 0 THEN
        RAISE EXCEPTION 'fio job "%" ended with error %', job ->> 'jobname', job ->> 'error'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only jobs that ran to their end are imported.';
    END IF;
    rw := split_part(coalesce(o ->> 'rw', o ->> 'readwrite', 'read'), ':', 1);
    rw := CASE rw WHEN 'rw' THEN 'readwrite' WHEN 'randread' THEN 'randread'
                  WHEN 'randwrite' THEN 'randwrite' WHEN 'randrw' THEN 'randrw'
                  WHEN 'read' THEN 'read' WHEN 'write' THEN 'write'
                  WHEN 'readwrite' THEN 'readwrite' END;
    IF rw IS NULL THEN
        RAISE EXCEPTION 'fio job "%" uses rw=%, which iobench does not store', job ->> 'jobname', o ->> 'rw'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'iobench stores randread, randwrite, randrw, read, write and readwrite (rw).';
    END IF;
    -- fio's times: job_runtime in ms, elapsed in s, the end as a Unix time
    -- (within ten days of run time and a time before the year 10000)
    run_s := coalesce(iobench_internal.fio_number(job -> 'job_runtime', '"job_runtime"', 0, 864000000, false), 0) / 1000;
    fin := to_timestamp(coalesce(iobench_internal.fio_number(doc -> 'timestamp_ms', '"timestamp_ms"', 0, 253402300799000, false) / 1000,
                                 iobench_internal.fio_number(doc -> 'timestamp', '"timestamp"', 0, 253402300799, false)));
    IF fin IS NULL THEN
        RAISE EXCEPTION 'argument "doc" has neither "timestamp_ms" nor "timestamp"'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'fio writes the time its result was made as "timestamp" (Unix seconds) and "timestamp_ms"; a run needs it.';
    END IF;
    -- ramp_time: seconds, or a time with fio's units (10s, 500ms, 2m)
    IF o ->> 'ramp_time' ~ '^\s*[0-9]{1,9}\s*$' THEN
        warm := make_interval(secs => (o ->> 'ramp_time')::double precision);
    ELSIF o ->> 'ramp_time' IS NOT NULL THEN
        BEGIN
            warm := (o ->> 'ramp_time')::interval;
        EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR interval_field_overflow
                       OR invalid_parameter_value OR numeric_value_out_of_range THEN
            warm := NULL;
        END;
        IF warm IS NULL OR warm < '0s' OR warm > '10 days' THEN
            RAISE EXCEPTION 'field "job options"."ramp_time" of argument "doc" is "%", but must be a time from 0 to 10 days', o ->> 'ramp_time'
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'fio writes ramp_time as seconds ("10") or with a unit ("10s", "500ms", "2m").';
        END IF;
    END IF;
    RETURN jsonb_build_object(
            'status', 'completed',
            'started_at', fin - make_interval(secs => coalesce(iobench_internal.fio_number(job -> 'elapsed', '"elapsed"', 0, 864000, false)::double precision, run_s)),
            'finished_at', fin,
            'tablespace', left(coalesce(o ->> 'directory', o ->> 'filename', ''), 63),
            'device', doc -> 'disk_util' -> 0 ->> 'name',
            'host', doc ->> 'hostname',
            'imported_at', now(),
            'tool', doc ->> 'fio version',
            'rw', rw,
            'block_size', coalesce(iobench_internal.fio_size_option(split_part(split_part(o ->> 'bs', ',', 1), '-', 1),
                                                           '"job options"."bs"', 1, 2147483647), 4096),
            'workers', CASE WHEN o ? 'group_reporting'
                            THEN coalesce(iobench_internal.fio_number(o -> 'numjobs', '"job options"."numjobs"', 1, 2147483647), 1)
                            ELSE 1 END,
            'iodepth', coalesce(iobench_internal.fio_number(o -> 'iodepth', '"job options"."iodepth"', 1, 2147483647), 1),
            'duration', make_interval(secs => run_s),
            'warmup', coalesce(warm, '0s'),
            'file_size', coalesce(iobench_internal.fio_size_option(o ->> 'size', '"job options"."size"', 0, 9223372036854775807),
                                  iobench_internal.fio_size_option(o ->> 'filesize', '"job options"."filesize"', 0, 9223372036854775807), 0),
            'files', coalesce(iobench_internal.fio_number(o -> 'nrfiles', '"job options"."nrfiles"', 1, 2147483647), 1),
            'read_pct', CASE WHEN rw IN ('randrw', 'readwrite')
                             THEN coalesce(iobench_internal.fio_number(o -> 'rwmixread', '"job options"."rwmixread"', 0, 100),
                                           100 - iobench_internal.fio_number(o -> 'rwmixwrite', '"job options"."rwmixwrite"', 0, 100), 50) END,
            'fsync_every', coalesce(iobench_internal.fio_number(o -> 'fsync', '"job options"."fsync"', 0, 2147483647),
                                    iobench_internal.fio_number(o -> 'fdatasync', '"job options"."fdatasync"', 0, 2147483647), 0),
            'sync_method', CASE WHEN o ? 'fdatasync' AND NOT o ? 'fsync' THEN 'fdatasync' ELSE 'fsync' END,
            'direct', coalesce(o ->> 'direct', '0') = '1' OR coalesce(o ->> 'buffered', '1') = '0',
            'engine', coalesce(o ->> 'ioengine', 'psync'),
            'rate_iops', coalesce(iobench_internal.fio_size_option(split_part(o ->> 'rate_iops', ',', 1),
                                                          '"job options"."rate_iops"', 0, 2147483647), 0),
            -- fio's seed is unsigned 64-bit, iobench's signed: the same bits
            'seed', (SELECT CASE WHEN s.x > 9223372036854775807 THEN s.x - 18446744073709551616 ELSE s.x END
                       FROM (SELECT coalesce(iobench_internal.fio_number(o -> 'randseed', '"job options"."randseed"', 0,
                                                                18446744073709551615), 0) AS x) AS s),
            'measured_s', run_s,
            'cpu_user_pct', iobench_internal.fio_number(job -> 'usr_cpu', '"usr_cpu"', 0, 1e9, false),
            'cpu_sys_pct', iobench_internal.fio_number(job -> 'sys_cpu', '"sys_cpu"', 0, 1e9, false));
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_settings(jsonb, jsonb) IS 'the settings and summary of a fio job as iobench.runs columns';

-- Store each job of a fio JSON result as a run.  Settings come from the
-- job options (fio's defaults where a job leaves one out), figures from
-- the read, write and sync sections: fio's own percentiles of completion
-- latency (clat, or lat when fio was told lat_percentiles), and with
-- json+ its histogram bins, moved into iobench's buckets so they merge
-- with iobench's runs.  fio has no per-second series in its JSON.  A job
-- with group_reporting stands for numjobs workers, one without for one.
-- The run's run_uuid is derived from the result, so importing it again
-- stores nothing.  tablespace holds the job's directory or filename (fio
-- has no tablespace), device the first disk of disk_util.
CREATE OR REPLACE FUNCTION iobench.import_fio(doc jsonb, server text DEFAULT NULL, label text DEFAULT NULL)
RETURNS SETOF iobench.runs
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    j record;
    id bigint;
    uid uuid;
    run_s double precision;
    k text;
    bin_key text;
    lat_key text;
BEGIN
    IF import_fio.doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    PERFORM iobench_internal.check_import_size(import_fio.doc);
    IF jsonb_typeof(import_fio.doc) <> 'object' OR NOT import_fio.doc ? 'fio version'
       OR jsonb_typeof(import_fio.doc -> 'jobs') IS DISTINCT FROM 'array'
       OR jsonb_array_length(import_fio.doc -> 'jobs') = 0 THEN
        RAISE EXCEPTION 'argument "doc" is not a JSON result of fio'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A result of fio --output-format=json or json+ is an object with "fio version" and a non-empty array "jobs".',
                  HINT = 'A document of iobench.export_runs() is imported with iobench.import_runs().';
    END IF;
    IF import_fio.server = '' THEN
        RAISE EXCEPTION 'argument "server" must not be empty'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    FOR j IN SELECT x.value AS v, x.n FROM jsonb_array_elements(import_fio.doc -> 'jobs') WITH ORDINALITY AS x(value, n) LOOP
        uid := md5(concat_ws('/', import_fio.doc ->> 'fio version', import_fio.doc ->> 'timestamp_ms',
                             j.n, j.v::text))::uuid;
        SELECT r.run_id INTO id FROM iobench.runs r WHERE r.run_uuid = uid;
        IF FOUND THEN
            RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
            CONTINUE;
        END IF;

        BEGIN
        run_s := coalesce(iobench_internal.fio_number(j.v -> 'job_runtime', '"job_runtime"', 0, 864000000, false), 0) / 1000;
        id := iobench_internal.insert_run(iobench_internal.fio_settings(import_fio.doc, j.v)
            || jsonb_build_object('run_uuid', uid, 'server', import_fio.server,
                                  'label', coalesce(import_fio.label, j.v ->> 'jobname'))
            || iobench_internal.fio_figures(j.v, 'read', run_s)
            || iobench_internal.fio_figures(j.v, 'write', run_s)
            || iobench_internal.fio_figures(j.v, 'fsync', run_s));

        -- per direction: histogram bins (json+), moved into iobench's buckets
        FOREACH k IN ARRAY ARRAY['read', 'write', 'fsync'] LOOP
            bin_key := CASE k WHEN 'fsync' THEN 'sync' ELSE k END;
            lat_key := CASE WHEN k = 'fsync' OR j.v -> k -> 'lat_ns' ? 'percentile' THEN 'lat_ns' ELSE 'clat_ns' END;
            INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
            SELECT id, k, b.lower_us, b.upper_us,
                   sum(iobench_internal.fio_number(e.value, format('"%s"."%s"."bins"."%s"', bin_key, lat_key, e.key), 0, 9223372036854775807))
              FROM jsonb_each(coalesce(iobench_internal.fio_latency_section(j.v, k) -> 'bins', '{}')) AS e(key, value),
                   LATERAL iobench.latency_bucket(iobench_internal.fio_number(to_jsonb(e.key), format('"%s"."%s"."bins" (a key)', bin_key, lat_key),
                                                                     0, 9223372036854775807)::bigint) AS b
             GROUP BY b.lower_us, b.upper_us;
        END LOOP;

        -- data I/O as a whole: reads and writes; fio's percentiles when only
        -- one direction ran, otherwise from the merged histogram (json+)
        UPDATE iobench.runs r SET
            ops = coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0),
            bytes = coalesce(r.read_bytes, 0) + coalesce(r.write_bytes, 0),
            iops = coalesce(r.read_iops, 0) + coalesce(r.write_iops, 0),
            mb_per_s = coalesce(r.read_mb_per_s, 0) + coalesce(r.write_mb_per_s, 0),
            lat_avg_us = (coalesce(r.read_lat_avg_us * r.read_ops, 0) + coalesce(r.write_lat_avg_us * r.write_ops, 0))
                         / nullif(coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0), 0),
            lat_max_us = greatest(r.read_lat_max_us, r.write_lat_max_us),
            lat_p50_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p50_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p50_us WHEN m.ops > 0 THEN m.lat_p50_us END,
            lat_p90_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p90_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p90_us WHEN m.ops > 0 THEN m.lat_p90_us END,
            lat_p99_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p99_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p99_us WHEN m.ops > 0 THEN m.lat_p99_us END,
            lat_p999_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p999_us
                               WHEN r.read_ops IS NULL THEN r.write_lat_p999_us WHEN m.ops > 0 THEN m.lat_p999_us END
          FROM iobench.merged_latency(ARRAY[id], 'data') AS m
         WHERE r.run_id = id;
        PERFORM iobench_internal.check_imported_run(id);
        EXCEPTION
            WHEN invalid_parameter_value OR not_null_violation OR check_violation
                 OR invalid_text_representation OR datatype_mismatch
                 OR invalid_datetime_format OR datetime_field_overflow
                 OR numeric_value_out_of_range OR string_data_right_truncation
                 OR interval_field_overflow THEN
            RAISE EXCEPTION 'job % of argument "doc" could not be imported', j.n
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('%s (job "%s").', SQLERRM, coalesce(j.v ->> 'jobname', 'without a name'));
        END;
        RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench.import_fio(jsonb, text, text) IS 'store each job of a fio JSON result (json or json+) as a run';
-- Running on many servers from one session: a workload (fleet_run) or a
-- suite (fleet_suite) on a list of foreign servers, all at once or one
-- after another, through contrib dblink; each run is stored on its own
-- server and gathered here with export_runs() / import_runs().
--
-- Servers are named as foreign servers (CREATE SERVER ... FOREIGN DATA
-- WRAPPER postgres_fdw or dblink_fdw), so passwords stay in the user
-- mappings.  Everything runs as the caller: dblink connects with the
-- caller's user mapping, and the remote server checks the remote role's
-- own rights; nothing here widens them.

-- Store a fleet call and its rows (as the owner: callers of fleet_run()
-- need no write access to the tables); returns the new fleet_id.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_store(fleet jsonb, results jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    id bigint;
BEGIN
    IF fleet_store.fleet IS NULL OR fleet_store.results IS NULL THEN
        RAISE EXCEPTION 'arguments "fleet" and "results" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    INSERT INTO iobench.fleets
    SELECT f.* FROM jsonb_populate_record(NULL::iobench.fleets,
        fleet_store.fleet || jsonb_build_object('fleet_id', nextval('iobench.fleets_fleet_id_seq'::regclass))) AS f
    RETURNING fleets.fleet_id INTO id;
    INSERT INTO iobench.fleet_runs (fleet_id, server, test_no, test, run_id, remote_run_id,
                                    start_at, go_at, skew_us, error, sqlstate)
    SELECT id, x.server, x.test_no, x.test, x.run_id, x.remote_run_id,
           x.start_at, x.go_at, x.skew_us, x.error, x.sqlstate
      FROM jsonb_populate_recordset(NULL::iobench.fleet_runs, fleet_store.results) AS x
     WHERE x.run_id IS NULL OR EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = x.run_id);
    RETURN id;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_store(jsonb, jsonb) IS 'store a fleet call and its rows (used by fleet_run() and fleet_suite())';

-- Check the servers of a fleet call before anything is sent: each is a
-- foreign server the caller may use and has a user mapping for.  Returns
-- the schema of dblink, through which the calls go.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_check(servers text[])
RETURNS name
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s text;
    dbl name;
BEGIN
    IF fleet_check.servers IS NULL OR cardinality(fleet_check.servers) = 0 THEN
        RAISE EXCEPTION 'argument "servers" must name at least one foreign server'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(fleet_check.servers, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "servers" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.s INTO s FROM unnest(fleet_check.servers) u(s) GROUP BY u.s HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'server "%" is named more than once in argument "servers"', s
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT n.nspname INTO dbl
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'dblink';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'extension "dblink" is not installed'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Runs on other servers go through dblink: CREATE EXTENSION dblink.';
    END IF;
    -- storing here: checked before anything is sent
    IF NOT has_function_privilege('iobench_internal.fleet_store(jsonb, jsonb)', 'EXECUTE')
       OR NOT has_function_privilege('iobench.import_runs(jsonb, text)', 'EXECUTE') THEN
        RAISE EXCEPTION 'permission denied to store the runs of a fleet call'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'The owner of iobench grants EXECUTE on iobench_internal.fleet_store(jsonb, jsonb) and iobench.import_runs(jsonb, text) with fleet_run() and fleet_suite().';
    END IF;
    FOREACH s IN ARRAY fleet_check.servers LOOP
        IF NOT EXISTS (SELECT FROM pg_foreign_server f WHERE f.srvname = s) THEN
            RAISE EXCEPTION 'foreign server "%" does not exist', s
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Servers are named as foreign servers: CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...).';
        END IF;
        IF NOT has_server_privilege(s, 'USAGE') THEN
            RAISE EXCEPTION 'permission denied for foreign server %', s
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT EXISTS (SELECT FROM pg_user_mappings m
                        WHERE m.srvname = s AND m.usename IN (current_user, 'public')) THEN
            RAISE EXCEPTION 'user mapping not found for user "%", server "%"', current_user, s
                USING ERRCODE = 'undefined_object',
                      HINT = format('CREATE USER MAPPING FOR %I SERVER %I OPTIONS (user ..., password ...).', current_user, s);
        END IF;
    END LOOP;
    RETURN dbl;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_check(text[]) IS 'check the foreign servers of a fleet call; returns dblink''s schema';

-- The iobench.run() arguments of a workload as named notation for the
-- remote call: every key must be an argument of run() (start_at is the
-- fleet's own), every value a JSON scalar.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_arguments(settings jsonb)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    k text;
    args text[];
BEGIN
    IF fleet_arguments.settings IS NULL OR jsonb_typeof(fleet_arguments.settings) <> 'object' THEN
        RAISE EXCEPTION 'argument "settings" must be a JSON object of iobench.run() arguments'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For example {"rw": "randread", "block_size": "8kB", "duration": "10s"}.';
    END IF;
    SELECT p.proargnames INTO args FROM pg_proc p
     WHERE p.oid = 'iobench.run'::regproc;
    SELECT e.key INTO k FROM jsonb_each(fleet_arguments.settings) e
     WHERE NOT e.key = ANY (args) OR e.key = 'start_at' OR jsonb_typeof(e.value) IN ('object', 'array')
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" is not a valid key of argument "settings"', k
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Keys are arguments of iobench.run() other than start_at, values JSON strings, numbers, booleans or null.',
                  HINT = format('Valid keys are %s.', (SELECT string_agg(a, ', ') FROM unnest(args) a WHERE a <> 'start_at'));
    END IF;
    RETURN coalesce((SELECT string_agg(format('%I => %L', e.key, e.value #>> '{}'), ', ' ORDER BY e.key)
                       FROM jsonb_each(fleet_arguments.settings) e), '');
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_arguments(jsonb) IS 'the run() arguments of a fleet workload as named notation, checked';

-- The engine of fleet_run() and fleet_suite(): each test of "tests" (a
-- JSON array of {test_no, test, settings}) on every server, concurrently
-- (all servers start their workers at one start_at, start_delay after the
-- test is sent) or one server after another; the runs are gathered and
-- stored here, the call with fleet_store().  A server that cannot be
-- reached or fails a test gives a row with its error.  A cancel while
-- waiting cancels the runs on every server; their partial runs are
-- gathered and the call is stored as cancelled.
-- One function of some 200 lines, with a reason: the per-server state
-- (connections, pending queries, results) lives in arrays that PL/pgSQL
-- cannot share between functions, and a cancel must be caught where the
-- loop waits; connecting, gathering, cancelling and storing are helpers.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_execute(suite text, tests jsonb, servers text[],
                                                 concurrent boolean, start_delay interval,
                                                 label text, settings jsonb)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    dbl name := iobench_internal.fleet_check(fleet_execute.servers);
    n integer := cardinality(fleet_execute.servers);
    conn text[];
    connected boolean[];
    pid integer[];
    pending boolean[];
    rid bigint[];
    rdoc jsonb[];               -- a run a server returned without storing it (a hot standby)
    go timestamptz[];
    err text[];
    rerr text[];                -- the error of a run stored all the same
    state text[];
    sent timestamptz[];
    rows jsonb := '[]';
    t record;
    batch integer[];
    b integer;
    i integer;
    busy integer;
    q text;
    v text;
    local_id bigint;
    got_doc jsonb;
    t_start timestamptz;
    first_go timestamptz;
    next_note timestamptz;
    cancel_at timestamptz;
    cancelled boolean := false;
    began timestamptz := clock_timestamp();
    fid bigint;
    ntests integer := jsonb_array_length(fleet_execute.tests);
    code text;
    msg text;
    ctxt text;
    det text;
BEGIN
    IF fleet_execute.concurrent IS NULL THEN
        RAISE EXCEPTION 'argument "concurrent" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF fleet_execute.concurrent AND (fleet_execute.start_delay IS NULL
       OR fleet_execute.start_delay < '0s' OR fleet_execute.start_delay > '1h') THEN
        RAISE EXCEPTION '"%" is out of range for argument "start_delay"', fleet_execute.start_delay
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are between 0 seconds and 1 hour.';
    END IF;
    FOR i IN 1 .. n LOOP
        conn[i] := format('iobench_fleet_%s', i);
        connected[i] := false;
    END LOOP;

    BEGIN
    <<tests>>
    FOR t IN SELECT (x.value ->> 'test_no')::integer AS no, x.value ->> 'test' AS name,
                    iobench_internal.fleet_arguments(x.value -> 'settings') AS args
               FROM jsonb_array_elements(fleet_execute.tests) x ORDER BY 1 LOOP
        EXIT tests WHEN cancelled;
        -- concurrent: one batch of every server; otherwise one batch per server
        FOR b IN 1 .. CASE WHEN fleet_execute.concurrent THEN 1 ELSE n END LOOP
            EXIT WHEN cancelled;
            batch := CASE WHEN fleet_execute.concurrent THEN (SELECT array_agg(g) FROM generate_series(1, n) g)
                          ELSE ARRAY[b] END;
            -- connect (again, after a failure), then send with one start time
            FOREACH i IN ARRAY batch LOOP
                rid[i] := NULL; rdoc[i] := NULL; go[i] := NULL; err[i] := NULL; rerr[i] := NULL; pending[i] := false;
                BEGIN
                    IF NOT connected[i] THEN
                        pid[i] := iobench_internal.fleet_connect(dbl, conn[i], fleet_execute.servers[i]);
                        connected[i] := true;
                    END IF;
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE, det = PG_EXCEPTION_DETAIL;
                    -- dblink puts libpq's reason ("connection refused") in the DETAIL
                    err[i] := concat_ws(': ', msg, nullif(btrim(det, E' \n'), ''));
                    PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                    connected[i] := false;
                    rows := rows || jsonb_build_object('server', fleet_execute.servers[i], 'test_no', t.no,
                                                       'test', t.name, 'error', err[i], 'sqlstate', code);
                END;
            END LOOP;
            t_start := CASE WHEN fleet_execute.concurrent THEN clock_timestamp() + fleet_execute.start_delay END;
            FOREACH i IN ARRAY batch LOOP
                CONTINUE WHEN NOT connected[i];
                BEGIN
                    -- a run not stored there (a hot standby) comes back as a document
                    q := format('SELECT r.run_id, r.status, r.go_at, '
                                'CASE WHEN r.run_id IS NULL THEN iobench.export_run_row(r) END '
                                'FROM iobench.run(%s) AS r',
                                concat_ws(', ', nullif(t.args, ''),
                                          CASE WHEN t_start IS NOT NULL THEN format('start_at => %L', t_start) END));
                    EXECUTE format('SELECT %I.dblink_send_query($1, $2)', dbl) USING conn[i], q INTO busy;
                    IF busy <> 1 THEN
                        EXECUTE format('SELECT %I.dblink_error_message($1)', dbl) USING conn[i] INTO v;
                        RAISE EXCEPTION '%', v USING ERRCODE = 'connection_failure';
                    END IF;
                    pending[i] := true;
                    sent[i] := clock_timestamp();
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE;
                    err[i] := msg;
                    PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                    connected[i] := false;
                    rows := rows || jsonb_build_object('server', fleet_execute.servers[i], 'test_no', t.no,
                                                       'test', t.name, 'start_at', t_start,
                                                       'error', err[i], 'sqlstate', code);
                END;
            END LOOP;

            -- wait for the batch, a progress NOTICE a second, cancel passed on;
            -- each pass is one block, so that a cancel is caught wherever in
            -- the pass it arrives, the tests of the loop included
            next_note := clock_timestamp() + '1s';
            <<wait>>
            LOOP
                BEGIN
                    EXIT wait WHEN NOT EXISTS (SELECT FROM unnest(batch) x(k) WHERE pending[x.k]);
                    FOREACH i IN ARRAY batch LOOP
                        CONTINUE WHEN NOT pending[i];
                        BEGIN
                            EXECUTE format('SELECT %I.dblink_is_busy($1)', dbl) USING conn[i] INTO busy;
                            IF busy = 0 THEN
                                EXECUTE format('SELECT t.run_id, t.go_at, t.doc FROM %I.dblink_get_result($1) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO local_id, first_go, got_doc;
                                EXECUTE format('SELECT count(*) FROM %I.dblink_get_result($1) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO busy;
                                rid[i] := local_id;
                                rdoc[i] := CASE WHEN local_id IS NULL THEN got_doc END;
                                go[i] := first_go;
                                pending[i] := false;
                            ELSIF cancel_at IS NOT NULL AND clock_timestamp() > cancel_at + '10s' THEN
                                RAISE EXCEPTION 'the server did not stop within 10 s of the cancel' USING ERRCODE = 'connection_exception';
                            END IF;
                        EXCEPTION WHEN OTHERS OR query_canceled THEN
                            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE,
                                                    ctxt = PG_EXCEPTION_CONTEXT, det = PG_EXCEPTION_DETAIL;
                            IF code = '57014' AND strpos(ctxt, 'on dblink connection named') = 0 THEN
                                -- our own cancel, not the server's error: cancel them all
                                IF cancel_at IS NULL THEN
                                    cancel_at := clock_timestamp();
                                    cancelled := true;
                                    PERFORM iobench_internal.fleet_cancel(dbl, conn, fleet_execute.servers, pid, pending);
                                END IF;
                                CONTINUE;
                            END IF;
                            err[i] := msg;
                            pending[i] := false;
                            -- a run that ended in an error (a cancel, a failed worker) is
                            -- stored there all the same, and the DETAIL names it: gather it
                            rid[i] := substring(det FROM 'The partial run is stored as run ([0-9]+) ')::bigint;
                            IF rid[i] IS NOT NULL THEN
                                rerr[i] := CASE WHEN NOT (cancel_at IS NOT NULL AND code = '57014') THEN msg END;
                                -- the end of the failed query, before the connection serves again
                                EXECUTE format('SELECT count(*) FROM %I.dblink_get_result($1, false) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO busy;
                                CONTINUE;
                            END IF;
                            PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                            connected[i] := false;
                            rows := rows || jsonb_build_object('server', fleet_execute.servers[i], 'test_no', t.no,
                                                               'test', t.name, 'start_at', t_start,
                                                               'error', err[i], 'sqlstate', code);
                        END;
                    END LOOP;
                    EXIT wait WHEN NOT EXISTS (SELECT FROM unnest(batch) x(k) WHERE pending[x.k]);
                    IF clock_timestamp() >= next_note THEN
                        next_note := next_note + '1s';
                        RAISE NOTICE '%', format('fleet test %s of %s "%s": %s', t.no, ntests, t.name,
                            (SELECT string_agg(format('%s %s', fleet_execute.servers[x.k],
                                CASE WHEN err[x.k] IS NOT NULL THEN 'failed'
                                     WHEN NOT pending[x.k] THEN 'done'
                                     WHEN cancel_at IS NOT NULL THEN 'cancelling'
                                     WHEN t_start IS NOT NULL AND clock_timestamp() < t_start THEN 'preparing'
                                     ELSE format('running %s s', round(extract(epoch FROM clock_timestamp()
                                                 - coalesce(t_start, sent[x.k]))::numeric, 1)) END), ', ')
                               FROM unnest(batch) x(k)));
                    END IF;
                    PERFORM pg_sleep(0.05);  -- polls only; the start is each server's own
                EXCEPTION WHEN query_canceled THEN
                    IF cancel_at IS NULL THEN
                        cancel_at := clock_timestamp();
                        cancelled := true;
                        PERFORM iobench_internal.fleet_cancel(dbl, conn, fleet_execute.servers, pid, pending);
                    END IF;
                END;
            END LOOP wait;

            -- gather the runs of the batch and record their start skew
            first_go := NULL;
            SELECT min(go[x.k]) INTO first_go FROM unnest(batch) x(k)
             WHERE rid[x.k] IS NOT NULL OR rdoc[x.k] IS NOT NULL;
            FOREACH i IN ARRAY batch LOOP
                -- a server that failed has its row already; one that answered
                -- with no run at all gets one too: none is dropped silently
                IF rid[i] IS NULL AND rdoc[i] IS NULL THEN
                    IF err[i] IS NULL THEN
                        rows := rows || jsonb_build_object('server', fleet_execute.servers[i], 'test_no', t.no,
                            'test', t.name, 'start_at', t_start, 'go_at', go[i],
                            'error', 'the server returned no run', 'sqlstate', '22023');
                    END IF;
                    CONTINUE;
                END IF;
                BEGIN
                    rows := rows || (CASE WHEN rid[i] IS NULL
                                          THEN iobench_internal.fleet_import(rdoc[i], NULL, fleet_execute.servers[i])
                                          ELSE iobench_internal.fleet_gather(dbl, conn[i], rid[i], fleet_execute.servers[i]) END
                        || jsonb_strip_nulls(jsonb_build_object(
                               'test_no', t.no, 'test', t.name, 'start_at', t_start, 'go_at', go[i],
                               'skew_us', extract(epoch FROM go[i] - first_go) * 1e6,
                               'error', rerr[i])));
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE;
                    err[i] := msg;
                    rows := rows || jsonb_build_object('server', fleet_execute.servers[i], 'test_no', t.no,
                        'test', t.name, 'remote_run_id', rid[i], 'start_at', t_start, 'go_at', go[i],
                        'error', format('could not gather run %s: %s', coalesce(rid[i]::text, '(not stored there)'), err[i]),
                        'sqlstate', code);
                END;
            END LOOP;
        END LOOP;
    END LOOP;
    EXCEPTION WHEN query_canceled THEN
        -- cancelled outside the wait (connecting, sending, gathering): stop
        -- every server still running (once), then give up
        IF cancel_at IS NULL THEN
            PERFORM iobench_internal.fleet_cancel(dbl, conn, fleet_execute.servers, pid, pending);
        END IF;
        FOR i IN 1 .. n LOOP
            PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
        END LOOP;
        RAISE;
    END;

    FOR i IN 1 .. n LOOP
        PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
    END LOOP;
    IF cancelled THEN
        RAISE WARNING 'fleet call cancelled'
            USING DETAIL = 'The runs on every server were cancelled; their partial runs were gathered with status "cancelled" and the tests not begun were skipped.';
    END IF;
    fid := iobench_internal.fleet_store(jsonb_build_object(
               'suite', fleet_execute.suite, 'settings', fleet_execute.settings,
               'servers', to_jsonb(fleet_execute.servers), 'concurrent', fleet_execute.concurrent,
               'start_delay', CASE WHEN fleet_execute.concurrent THEN fleet_execute.start_delay END,
               'status', CASE WHEN cancelled THEN 'cancelled' ELSE 'completed' END,
               'label', fleet_execute.label, 'started_at', began, 'finished_at', clock_timestamp()),
           rows);
    -- the figures come with the gathered documents: callers need not read
    -- iobench.runs
    RETURN QUERY
    SELECT fid, x.server, x.test_no, x.test,
           coalesce(x.status, 'failed'),
           x.run_id, x.remote_run_id,
           round(x.iops::numeric, 1), round(x.mb_per_s::numeric, 2), round(x.lat_p99_us::numeric, 1),
           x.start_at, x.go_at, round((x.skew_us / 1000)::numeric, 3), x.error
      FROM jsonb_to_recordset(rows) AS x(server text, test_no integer, test text, status text,
                                         run_id bigint, remote_run_id bigint, iops double precision,
                                         mb_per_s double precision, lat_p99_us double precision,
                                         start_at timestamptz, go_at timestamptz,
                                         skew_us double precision, error text)
     ORDER BY x.test_no, array_position(fleet_execute.servers, x.server);
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb) IS 'run tests on many servers and gather the runs (the engine of fleet_run() and fleet_suite())';

-- Open a fleet call's dblink connection to a foreign server (closing a
-- connection of that name left by an earlier call), pin its search_path
-- and check that iobench is installed there.  Returns the pid of the
-- session there, to cancel it by.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_connect(dbl name, conn text, server text)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v text;
BEGIN
    PERFORM iobench_internal.fleet_drop(fleet_connect.dbl, fleet_connect.conn);
    EXECUTE format('SELECT %I.dblink_connect($1, $2)', fleet_connect.dbl)
        USING fleet_connect.conn, fleet_connect.server;
    EXECUTE format('SELECT %I.dblink_exec($1, $2)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SET search_path = pg_catalog, pg_temp';
    EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SELECT extversion FROM pg_catalog.pg_extension WHERE extname = ''iobench''' INTO v;
    IF v IS NULL THEN
        RAISE EXCEPTION 'extension "iobench" is not installed there' USING ERRCODE = 'undefined_object';
    END IF;
    EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SELECT pg_catalog.pg_backend_pid()' INTO v;
    RETURN v::integer;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_connect(name, text, text) IS 'open a fleet call''s dblink connection to a foreign server';

-- Store the run a server of a fleet call answered with, under its name:
-- a document of export_runs() for its run remote_run_id, or, from a server
-- that could not store the run (a hot standby: remote_run_id NULL), of
-- export_run_row().  Returns the fleet row's part that the run gives:
-- server, run_id (here), remote_run_id and its headline figures.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_import(doc jsonb, remote_run_id bigint, server text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    run jsonb;
    local_id bigint;
    fresh boolean;
BEGIN
    -- the server's answer is untrusted: one run, the one asked for
    run := fleet_import.doc -> 'runs' -> 0 -> 'run';
    IF jsonb_typeof(fleet_import.doc -> 'runs') IS DISTINCT FROM 'array' OR jsonb_array_length(fleet_import.doc -> 'runs') <> 1
       OR (run ->> 'run_id') IS DISTINCT FROM fleet_import.remote_run_id::text THEN
        RAISE EXCEPTION 'the server answered with a document that does not hold its run % alone', fleet_import.remote_run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT m.run_id, m.imported INTO local_id, fresh FROM iobench.import_runs(fleet_import.doc, fleet_import.server) m;
    -- a run stored already must be that server's own run, gathered before,
    -- or the run itself when the server is this database (a loopback):
    -- never another run its run_uuid names
    IF NOT fresh AND NOT EXISTS (
            SELECT FROM iobench.runs r
             WHERE r.run_id = local_id
               AND ((r.server = fleet_import.server AND r.origin_run_id = fleet_import.remote_run_id)
                    OR (r.imported_at IS NULL AND r.run_id = fleet_import.remote_run_id
                        AND r.system_identifier = (SELECT c.system_identifier::numeric
                                                          + CASE WHEN c.system_identifier < 0 THEN 18446744073709551616 ELSE 0 END
                                                     FROM pg_control_system() c)))) THEN
        RAISE EXCEPTION 'the server answered with run_uuid % of a run that is not its run %',
                        run ->> 'run_uuid', fleet_import.remote_run_id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A server of a fleet can add its own runs here, never name another run.';
    END IF;
    RETURN jsonb_build_object('server', fleet_import.server, 'run_id', local_id,
                              'remote_run_id', fleet_import.remote_run_id, 'go_at', run -> 'go_at',
                              'status', run -> 'status', 'iops', run -> 'iops',
                              'mb_per_s', run -> 'mb_per_s', 'lat_p99_us', run -> 'lat_p99_us');
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_import(jsonb, bigint, text) IS 'store the run a server of a fleet call answered with';

-- Gather one run from a server of a fleet call: export it there, import
-- it here under the server's name (iobench_internal.fleet_import()).
CREATE OR REPLACE FUNCTION iobench_internal.fleet_gather(dbl name, conn text, remote_run_id bigint, server text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    doc jsonb;
BEGIN
    EXECUTE format('SELECT t.doc FROM %I.dblink($1, $2) AS t(doc jsonb)', fleet_gather.dbl)
        USING fleet_gather.conn,
              format('SELECT iobench.export_runs(ARRAY[%s]::bigint[])', fleet_gather.remote_run_id) INTO doc;
    RETURN iobench_internal.fleet_import(doc, fleet_gather.remote_run_id, fleet_gather.server);
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_gather(name, text, bigint, text) IS 'gather one run of a fleet call from its server';

-- Close a dblink connection of a fleet call if it is open.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_drop(dbl name, conn text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF fleet_drop.conn = ANY (coalesce(iobench_internal.dblink_connections(fleet_drop.dbl), '{}')) THEN
        EXECUTE format('SELECT %I.dblink_disconnect($1)', fleet_drop.dbl) USING fleet_drop.conn;
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_drop(name, text) IS 'close a dblink connection of a fleet call if it is open';

-- Cancel the statements running on the dblink connections of a fleet call
-- that are pending: conn, servers, pid and pending are fleet_execute()'s
-- arrays, one element per server.  The cancel goes through a
-- second connection to the server as pg_cancel_backend(pid), which sends
-- one SIGINT: a protocol cancel request (dblink_cancel_query(), like
-- psql's Ctrl-C) arrives as two, since the postmaster signals the backend
-- and its process group, and the second can land while run() is handing
-- its partial run over to be stored.  Where that connection fails,
-- dblink_cancel_query() is the fallback.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_cancel(dbl name, conn text[], servers text[],
                                                pid integer[], pending boolean[])
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c record;
    v text;
BEGIN
    FOR c IN SELECT x.conn, x.server, x.pid
               FROM unnest(fleet_cancel.conn, fleet_cancel.servers, fleet_cancel.pid,
                           fleet_cancel.pending) AS x(conn, server, pid, pending)
              WHERE x.pending
    LOOP
        BEGIN
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
            EXECUTE format('SELECT %I.dblink_connect($1, $2)', fleet_cancel.dbl)
                USING 'iobench_fleet_cancel', c.server;
            EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_cancel.dbl)
                USING 'iobench_fleet_cancel', format('SELECT pg_catalog.pg_cancel_backend(%s)', c.pid) INTO v;
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
        EXCEPTION WHEN OTHERS OR query_canceled THEN
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
            EXECUTE format('SELECT %I.dblink_cancel_query($1)', fleet_cancel.dbl) USING c.conn INTO v;
        END;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_cancel(name, text[], text[], integer[], boolean[]) IS 'cancel the statements pending on the dblink connections of a fleet call';

-- The names of this session's open dblink connections.
CREATE OR REPLACE FUNCTION iobench_internal.dblink_connections(dbl name)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    names text[];
BEGIN
    EXECUTE format('SELECT %I.dblink_get_connections()', dblink_connections.dbl) INTO names;
    RETURN names;
END
$$;
COMMENT ON FUNCTION iobench_internal.dblink_connections(name) IS 'the names of this session''s open dblink connections';

-- One workload on many servers; settings are iobench.run()'s arguments
-- as a JSON object.  One row per server.
CREATE OR REPLACE FUNCTION iobench.fleet_run(
    servers      text[],
    settings     jsonb    DEFAULT '{}',
    concurrent   boolean  DEFAULT true,
    start_delay  interval DEFAULT '5s',
    label        text     DEFAULT NULL)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s jsonb := coalesce(fleet_run.settings, 'null'::jsonb);
BEGIN
    -- the fleet's steps are internal functions, called as the caller
    IF NOT has_schema_privilege('iobench_internal', 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to make fleet calls'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'The owner of iobench grants USAGE on schema iobench_internal with EXECUTE on fleet_run() and fleet_suite().';
    END IF;
    PERFORM iobench_internal.fleet_arguments(s);
    IF fleet_run.label IS NOT NULL THEN
        s := s || jsonb_build_object('label', fleet_run.label);
    END IF;
    RETURN QUERY SELECT * FROM iobench_internal.fleet_execute(NULL, jsonb_build_array(jsonb_build_object(
        'test_no', 1, 'test', coalesce(s ->> 'label', s ->> 'rw', 'randread'), 'settings', s)),
        fleet_run.servers, fleet_run.concurrent, fleet_run.start_delay, fleet_run.label, s);
END
$$;
COMMENT ON FUNCTION iobench.fleet_run(text[], jsonb, boolean, interval, text) IS 'run one workload on many servers, all at once or one after another, and gather the runs';

-- A named suite (iobench.suite_tests, as defined here) on many servers,
-- test by test: with concurrent, every server runs each test at once.
-- One row per server and test.  With engine psync the tests that need
-- io_uring (a queue deeper than 1) are left out, as suite() skips them.
CREATE OR REPLACE FUNCTION iobench.fleet_suite(
    name         text,
    servers      text[],
    tablespace   name     DEFAULT 'pg_default',
    duration     interval DEFAULT '30s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    seed         bigint   DEFAULT NULL,
    concurrent   boolean  DEFAULT true,
    start_delay  interval DEFAULT '5s',
    label        text     DEFAULT NULL)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    common jsonb;
    tests jsonb;
BEGIN
    -- the fleet's steps are internal functions, called as the caller
    IF NOT has_schema_privilege('iobench_internal', 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to make fleet calls'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'The owner of iobench grants USAGE on schema iobench_internal with EXECUTE on fleet_run() and fleet_suite().';
    END IF;
    IF NOT EXISTS (SELECT FROM iobench.suite_tests t WHERE t.suite = fleet_suite.name) THEN
        RAISE EXCEPTION 'suite "%" does not exist', fleet_suite.name
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Suites are %s.', (SELECT string_agg(DISTINCT format('"%s"', t.suite), ', ')
                                                    FROM iobench.suite_tests t));
    END IF;
    common := jsonb_strip_nulls(jsonb_build_object(
        'tablespace', fleet_suite.tablespace, 'duration', fleet_suite.duration,
        'warmup', fleet_suite.warmup, 'file_size', fleet_suite.file_size,
        'direct', fleet_suite.direct, 'engine', fleet_suite.engine, 'seed', fleet_suite.seed));
    SELECT jsonb_agg(jsonb_build_object(
               'test_no', t.test_no, 'test', t.test,
               'settings', common || jsonb_build_object(
                   'rw', t.rw, 'block_size', t.block_size, 'workers', t.workers,
                   'iodepth', t.iodepth, 'files', t.files, 'fsync_every', t.fsync_every,
                   'sync_method', t.sync_method,
                   'label', concat_ws(': ', coalesce(fleet_suite.label, fleet_suite.name), t.test)))
           ORDER BY t.test_no)
      INTO tests
      FROM iobench.suite_tests t
     WHERE t.suite = fleet_suite.name
       AND NOT (t.needs_uring AND fleet_suite.engine = 'psync');
    RETURN QUERY SELECT * FROM iobench_internal.fleet_execute(fleet_suite.name, tests, fleet_suite.servers,
        fleet_suite.concurrent, fleet_suite.start_delay, fleet_suite.label, common);
END
$$;
COMMENT ON FUNCTION iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint, boolean, interval, text) IS 'run a named suite on many servers, test by test, and gather the runs';
-- Runs going on, seen from any session: each with its last stored second.
-- state: 'running' while its recorder lives; 'interrupted' when it is gone
-- and the run was never stored: a crash or a shutdown cut it off.  A run
-- that ended has no live row (its recorder deletes them once the launcher
-- has read them, whether the caller's transaction then commits or rolls
-- back); a stored run is never listed, even if a recorder stopped inside
-- its transaction kept its rows.
CREATE OR REPLACE VIEW iobench.running_runs AS
SELECT l.run_id,
       CASE WHEN a.pid IS NOT NULL THEN 'running' ELSE 'interrupted' END AS state,
       l.started_at, l.tablespace, l.rw, l.block_size, l.workers, l.iodepth, l.duration,
       l.launcher_pid,
       s.seconds_stored,
       s.last_second,
       s.last_iops,
       s.last_mb_per_s,
       s.last_lat_max_us,
       (SELECT count(*) FROM iobench.live_stalls x WHERE x.run_id = l.run_id) AS stalls
  FROM iobench.live_runs l
  LEFT JOIN pg_catalog.pg_stat_activity a
         ON a.pid = l.recorder_pid AND a.backend_start = l.recorder_start
  LEFT JOIN LATERAL (
        SELECT count(DISTINCT x.second) AS seconds_stored,
               max(x.second) AS last_second,
               sum(x.ops) FILTER (WHERE x.op <> 'fsync' AND x.second = m.last) AS last_iops,
               round((sum(x.bytes) FILTER (WHERE x.second = m.last) / 1e6)::numeric, 2) AS last_mb_per_s,
               max(x.lat_max_us) FILTER (WHERE x.second = m.last) AS last_lat_max_us
          FROM iobench.live_seconds x,
               (SELECT max(y.second) AS last FROM iobench.live_seconds y WHERE y.run_id = l.run_id) m
         WHERE x.run_id = l.run_id) s ON true
 WHERE NOT EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = l.run_id);
COMMENT ON VIEW iobench.running_runs IS 'runs going on (or interrupted), with their last stored second';
-- Reading the runs of a fleet call: servers side by side per test, and a
-- table of them as the four-systems comparisons of SQLIO days print it.

-- The stored fleet call fleet_id, for the functions that read one; the
-- errors name their argument "fleet_id".
CREATE OR REPLACE FUNCTION iobench_internal.existing_fleet(fleet_id bigint)
RETURNS iobench.fleets
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
BEGIN
    IF existing_fleet.fleet_id IS NULL THEN
        RAISE EXCEPTION 'argument "fleet_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = existing_fleet.fleet_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'fleet call % does not exist', existing_fleet.fleet_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Stored fleet calls are listed in iobench.fleets.';
    END IF;
    RETURN f;
END
$$;
COMMENT ON FUNCTION iobench_internal.existing_fleet(bigint) IS 'the stored fleet call of that id; an error when there is none';

-- The servers of a fleet call side by side per test, with ratios to a
-- baseline server (the first given when NULL) and to the median server.
-- A concurrent call adds a row "(all servers)" per test: their IOPS and
-- MB/s summed and their percentiles from the merged histograms.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_compare(fleet_id bigint, baseline text DEFAULT NULL)
RETURNS TABLE (
    test_no         integer,
    test            text,
    server          text,
    base_server     text,
    iops            numeric,
    iops_ratio      numeric,
    mb_per_s        numeric,
    mb_per_s_ratio  numeric,
    p99_us          numeric,
    p99_ratio       numeric,
    ratio_to_median numeric,
    skew_ms         numeric,
    run_id          bigint,
    error           text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
    base text;
BEGIN
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = fleet_compare.fleet_id;
    base := coalesce(fleet_compare.baseline, f.servers[1]);
    IF NOT base = ANY (f.servers) THEN
        RAISE EXCEPTION 'server "%" is not part of fleet call %', base, fleet_compare.fleet_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Fleet call %s ran on %s.', fleet_compare.fleet_id,
                                (SELECT string_agg(format('"%s"', s), ', ') FROM unnest(f.servers) s));
    END IF;
    RETURN QUERY
    WITH fr AS (
        SELECT x.*, r.iops AS r_iops, r.mb_per_s AS r_mb, r.lat_p99_us AS r_p99,
               array_position(f.servers, x.server) AS pos
          FROM iobench.fleet_runs x
          LEFT JOIN iobench.runs r ON r.run_id = x.run_id AND r.status IN ('completed', 'incomplete')
         WHERE x.fleet_id = f.fleet_id
    ), med AS (
        SELECT fr.test_no, percentile_cont(0.5) WITHIN GROUP (ORDER BY fr.r_iops) AS m
          FROM fr WHERE fr.r_iops IS NOT NULL GROUP BY fr.test_no
    ), rows AS (
        SELECT o.test_no, o.test, o.server, o.pos, o.r_iops, o.r_mb, o.r_p99, o.skew_us,
               o.run_id, o.error
          FROM fr o
        UNION ALL
        SELECT o.test_no, min(o.test), '(all servers)', cardinality(f.servers) + 1,
               sum(o.r_iops), sum(o.r_mb),
               (SELECT m.lat_p99_us FROM iobench.merged_latency(array_agg(o.run_id), 'data') m),
               max(o.skew_us), NULL, NULL
          FROM fr o
         WHERE f.concurrent AND o.r_iops IS NOT NULL
         GROUP BY o.test_no
        HAVING count(*) > 1
    )
    SELECT x.test_no, x.test, x.server, base,
           round(x.r_iops::numeric, 1), round((x.r_iops / nullif(b.r_iops, 0))::numeric, 2),
           round(x.r_mb::numeric, 2), round((x.r_mb / nullif(b.r_mb, 0))::numeric, 2),
           round(x.r_p99::numeric, 1), round((x.r_p99 / nullif(b.r_p99, 0))::numeric, 2),
           CASE WHEN x.run_id IS NOT NULL THEN round((x.r_iops / nullif(med.m, 0))::numeric, 2) END,
           round((x.skew_us / 1000)::numeric, 3), x.run_id, x.error
      FROM rows x
      LEFT JOIN fr b ON b.test_no = x.test_no AND b.server = base
      LEFT JOIN med ON med.test_no = x.test_no
     ORDER BY x.test_no, x.pos;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_compare(bigint, text) IS 'the body of iobench.fleet_compare(), which checks the fleet call first';

-- iobench.fleet_compare(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.fleet_compare(fleet_id bigint, baseline text DEFAULT NULL)
RETURNS TABLE (
    test_no         integer,
    test            text,
    server          text,
    base_server     text,
    iops            numeric,
    iops_ratio      numeric,
    mb_per_s        numeric,
    mb_per_s_ratio  numeric,
    p99_us          numeric,
    p99_ratio       numeric,
    ratio_to_median numeric,
    skew_ms         numeric,
    run_id          bigint,
    error           text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.existing_fleet(fleet_compare.fleet_id);
    SELECT * FROM iobench_internal.fleet_compare(fleet_compare.fleet_id, fleet_compare.baseline);
END;
COMMENT ON FUNCTION iobench.fleet_compare(bigint, text) IS 'the servers of a fleet call side by side per test, with ratios to a baseline server and to the median';

-- A fleet call as one table for reading: a row per test, and per server
-- its IOPS and MB/s (or its error), as seed comparisons of four systems
-- print them.  Servers in the order given.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_report(fleet_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
    t record;
    line text;
    s text;
    cell text;
    w integer;
    tw integer;
BEGIN
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = fleet_report.fleet_id;
    SELECT greatest(max(length(x.test)), 4) INTO tw FROM iobench.fleet_runs x WHERE x.fleet_id = f.fleet_id;
    w := greatest(19, (SELECT max(length(u.n)) FROM unnest(f.servers) u(n)));
    RETURN NEXT format('fleet call %s: %s on %s server%s, %s%s', f.fleet_id,
                       coalesce(format('suite "%s"', f.suite), 'one workload'), cardinality(f.servers),
                       CASE WHEN cardinality(f.servers) > 1 THEN 's' ELSE '' END,
                       CASE WHEN f.concurrent THEN 'all at once' ELSE 'one after another' END,
                       CASE WHEN f.status <> 'completed' THEN ', ' || f.status ELSE '' END);
    line := rpad('test', tw);
    FOREACH s IN ARRAY f.servers LOOP
        line := line || ' | ' || lpad(s, w);
    END LOOP;
    RETURN NEXT line;
    line := rpad('', tw);
    FOREACH s IN ARRAY f.servers LOOP
        line := line || ' | ' || lpad(lpad('IOPS', 9) || ' ' || lpad('MB/s', 8), w);
    END LOOP;
    RETURN NEXT line;
    RETURN NEXT repeat('-', tw) || repeat('-+-' || repeat('-', w), cardinality(f.servers));
    FOR t IN SELECT DISTINCT x.test_no, x.test FROM iobench.fleet_runs x
              WHERE x.fleet_id = f.fleet_id ORDER BY x.test_no LOOP
        line := rpad(t.test, tw);
        FOREACH s IN ARRAY f.servers LOOP
            SELECT CASE WHEN r.run_id IS NOT NULL AND r.status <> 'completed' THEN r.status
                        WHEN x.error IS NOT NULL THEN 'failed'
                        WHEN r.run_id IS NULL THEN '-'
                        ELSE format('%s %s', lpad(round(r.iops::numeric)::text, 9),
                                    lpad(round(r.mb_per_s::numeric, 1)::text, 8)) END
              INTO cell
              FROM iobench.fleet_runs x LEFT JOIN iobench.runs r ON r.run_id = x.run_id
             WHERE x.fleet_id = f.fleet_id AND x.test_no = t.test_no AND x.server = s;
            line := line || ' | ' || lpad(coalesce(cell, '-'), w);
        END LOOP;
        RETURN NEXT line;
    END LOOP;
    FOR t IN SELECT x.server, x.test, x.error FROM iobench.fleet_runs x
              WHERE x.fleet_id = f.fleet_id AND x.error IS NOT NULL
              ORDER BY x.test_no, array_position(f.servers, x.server) LOOP
        RETURN NEXT format('%s, %s: %s', t.server, t.test, t.error);
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_report(bigint) IS 'the body of iobench.fleet_report(), which checks the fleet call first';

-- iobench.fleet_report(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.fleet_report(fleet_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.existing_fleet(fleet_report.fleet_id);
    SELECT * FROM iobench_internal.fleet_report(fleet_report.fleet_id);
END;
COMMENT ON FUNCTION iobench.fleet_report(bigint) IS 'a fleet call as one table: per test, each server''s IOPS and MB/s';
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
-- first calls iobench_internal.require_grant(), which refuses a caller that holds
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

-- The internal schema: no role but the owner may use it.  The API's SQL
-- functions reach their helpers bound when created (SQL-standard bodies),
-- which needs no USAGE; the functions inside keep PUBLIC's EXECUTE, since
-- each reads and writes with the rights of its caller, or checks them.  A
-- role the owner lets make fleet calls gets USAGE too: the fleet's steps
-- run as their caller (its user mappings), by name.
REVOKE ALL ON SCHEMA iobench_internal FROM PUBLIC;

-- The grant check of the entry points
GRANT EXECUTE ON FUNCTION iobench_internal.require_grant(regprocedure) TO PUBLIC;

-- EXECUTE on the functions: for each, PUBLIC's default right is revoked
-- (so that the ACL reads the same after an upgrade from 0.1 as after a
-- fresh install), then EXECUTE is granted to the roles named, in that
-- order; none names the functions only the owner (and whoever the owner
-- grants them to) may call.
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT * FROM (VALUES
        -- Running benchmarks
        ('iobench.run', 'PUBLIC, iobench_user'),
        ('iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                          interval, text, interval, bigint, text)', 'PUBLIC, iobench_user'),
        ('iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint,
                        text, text)', 'PUBLIC, iobench_user'),
        ('iobench.latency_search(name, interval, double precision, text, text, integer, integer,
                                 interval, interval, text, integer, boolean, text, bigint, text)',
         'PUBLIC, iobench_user'),
        -- Runs on many servers, and storing runs made elsewhere: the
        -- definer functions (import_runs, import_fio, fleet_store) write
        -- the result tables; fleet_run and fleet_suite run on other servers
        -- with the rights the caller's user mappings give there.  The
        -- helpers they call (iobench_internal) check or do nothing a caller
        -- could not do with dblink itself.
        ('iobench.import_runs(jsonb, text)', NULL),
        ('iobench.import_fio(jsonb, text, text)', NULL),
        ('iobench_internal.insert_run(jsonb)', NULL),
        ('iobench_internal.import_children(bigint, jsonb)', NULL),
        ('iobench_internal.fleet_store(jsonb, jsonb)', NULL),
        ('iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb)', NULL),
        ('iobench.fleet_run(text[], jsonb, boolean, interval, text)', NULL),
        ('iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint,
                              boolean, interval, text)', NULL),
        -- Reading results; the entry points among them (PUBLIC too) check
        -- the grant themselves (see above)
        ('iobench.compare(bigint, name)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.compare_runs(bigint[], bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.stalls(bigint, double precision, interval)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.latency_ranges(bigint, text)', 'pg_monitor, iobench_user'),
        ('iobench.report(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.fio_latency(bigint, text, double precision, double precision, boolean)',
         'pg_monitor, iobench_user'),
        ('iobench.fio_direction(iobench.runs, text)', 'pg_monitor, iobench_user'),
        ('iobench.run_json(bigint)', 'pg_monitor, iobench_user, PUBLIC'),
        ('iobench.export_runs(bigint[], timestamptz)', 'pg_monitor, iobench_user'),
        ('iobench.export_run_row(iobench.runs)', 'pg_monitor, iobench_user'),
        ('iobench.merged_latency(bigint[], text)', 'pg_monitor, iobench_user'),
        ('iobench.fleet_compare(bigint, text)', 'pg_monitor, iobench_user'),
        ('iobench.fleet_report(bigint)', 'pg_monitor, iobench_user'),
        ('iobench.disk_stats(bigint)', 'pg_monitor, iobench_user'),
        ('iobench.latency_percentile(bigint, double precision, text)', 'pg_monitor, iobench_user'),
        -- Wait statistics: for pg_monitor; the wait tables of runs, which
        -- report() shows (with the server's descriptions they read), for
        -- iobench_user too.  Those of the instance (which show every
        -- session's waits) are executable by PUBLIC as well, only so that
        -- their check (iobench_internal.require_grant(), or the same in C) tells a
        -- caller without pg_monitor what to ask for.
        ('iobench.wait_table_all(iobench.wait_raw[])', 'pg_monitor, iobench_user'),
        ('iobench.wait_table(iobench.wait_raw[])', 'pg_monitor, iobench_user'),
        ('iobench.wait_table_all(iobench.wait_raw[], double precision)', 'pg_monitor, iobench_user'),
        ('iobench.wait_table(iobench.wait_raw[], double precision)', 'pg_monitor, iobench_user'),
        ('iobench.wait_table_by_backend(iobench.wait_raw[])', 'pg_monitor, iobench_user'),
        ('iobench.wait_event_descriptions()', 'pg_monitor, iobench_user'),
        ('iobench.waits_raw()', 'pg_monitor, PUBLIC'),
        ('iobench.reset_waits()', NULL),
        ('iobench.wait_collector_status()', 'pg_monitor, PUBLIC'),
        ('iobench.snapshot_waits(text)', NULL),
        ('iobench.wait_snapshot_diff_raw(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.wait_stats_diff(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.wait_stats_diff_all(text, text)', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_raw(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_all(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.sample_waits_by_backend(interval, interval, integer[])', 'pg_monitor, PUBLIC'),
        ('iobench.run_wait_stats(bigint)', 'pg_monitor, iobench_user'),
        ('iobench.run_wait_stats_all(bigint)', 'pg_monitor, iobench_user')
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
    iobench.run_disk_seconds, iobench.run_tablespaces TO pg_monitor, iobench_user;
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
------------------------------------------------------------------------
-- The last step of every upgrade: grants carried over to new signatures
--
-- A function whose argument list or result type changes cannot be
-- replaced in place.  The upgrade file renames the old one to
-- <name>__replaced instead of dropping it; once the code files have made
-- the new one, this gives every role that could execute the old function
-- the same right on the new one (with grant option where it had it), so a
-- DBA's GRANT EXECUTE survives the upgrade, and drops the old function.
------------------------------------------------------------------------
DO $$
DECLARE
    old regprocedure;
    new regprocedure;
    g record;
BEGIN
    FOR old IN SELECT p.oid FROM pg_catalog.pg_proc p
                WHERE p.pronamespace = 'iobench'::pg_catalog.regnamespace
                  AND p.proname OPERATOR(pg_catalog.~~) '%\_\_replaced'
    LOOP
        SELECT p.oid INTO STRICT new FROM pg_catalog.pg_proc p, pg_catalog.pg_proc o
         WHERE o.oid OPERATOR(pg_catalog.=) old
           AND p.pronamespace OPERATOR(pg_catalog.=) o.pronamespace
           AND p.proname OPERATOR(pg_catalog.=)
               pg_catalog.left(o.proname::pg_catalog.text, -10)::pg_catalog.name;
        FOR g IN SELECT a.grantee, a.is_grantable
                   FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
                  WHERE p.oid OPERATOR(pg_catalog.=) old
                    AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'
                    AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s%s', new,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                           ELSE pg_catalog.quote_ident(g.grantee::pg_catalog.regrole::pg_catalog.text) END,
                                      CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
        END LOOP;
        EXECUTE pg_catalog.format('DROP FUNCTION %s', old);
    END LOOP;
END
$$;
