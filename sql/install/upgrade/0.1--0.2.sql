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


-- Latency-target searches (iobench.latency_search()).
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

-- Runs store their seconds and stalls as they go (the recorder).
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
    duration        interval NOT NULL
);
COMMENT ON TABLE iobench.live_runs IS 'runs going on (or interrupted), as their recorder stored them';

CREATE TABLE iobench.live_seconds (
    run_id       bigint NOT NULL REFERENCES iobench.live_runs ON DELETE CASCADE,
    second       integer NOT NULL,
    op           text NOT NULL CHECK (op IN ('read', 'write', 'fsync')),
    ops          bigint NOT NULL,
    bytes        bigint NOT NULL,
    lat_mean_us  double precision,
    lat_max_us   double precision,
    PRIMARY KEY (run_id, second, op)
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

-- The block device's seconds of runs going on (iobench.run_disk_seconds'
-- counters, without its generated columns).
CREATE TABLE iobench.live_disk_seconds (
    run_id          bigint NOT NULL REFERENCES iobench.live_runs ON DELETE CASCADE,
    device          text NOT NULL,
    member          boolean NOT NULL,
    second          integer NOT NULL,
    interval_s      double precision NOT NULL,
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
    PRIMARY KEY (run_id, device, second)
);
COMMENT ON TABLE iobench.live_disk_seconds IS 'the block device''s seconds of runs going on';

-- 0.2 stores a run that a worker's error ended, with status "failed"
ALTER TABLE iobench.runs DROP CONSTRAINT runs_status_check,
    ADD CONSTRAINT runs_status_check CHECK (status IN ('completed', 'cancelled', 'failed'));

-- Wait statistics that know the newer servers: raw rows carry the backend
-- type of the processes that waited, the unrounded rows the server's
-- description and the backend types, a per-backend-type shape; the idle
-- loop of 18's I/O workers is benign.
ALTER TYPE iobench.wait_raw ADD ATTRIBUTE backend_type text;
ALTER TYPE iobench.wait_stats_row ADD ATTRIBUTE description text,
    ADD ATTRIBUTE backend_types text[];
CREATE TYPE iobench.wait_backend_row AS (
    backend_type text,
    wait_type    text,
    wait_s       double precision,
    resource_s   double precision,
    signal_s     double precision,
    wait_count   bigint,
    percentage   double precision,
    benign       boolean,
    description  text);
INSERT INTO iobench.benign_waits (wait_type, reason, builtin) VALUES
    ('Activity:IoWorkerMain', 'I/O worker waiting for I/O to do (PostgreSQL 18+)', true)
ON CONFLICT (wait_type) DO NOTHING;

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

-- Runs on a tablespace group (run(tablespaces => ...)).
ALTER TABLE iobench.runs ADD COLUMN tablespaces name[];

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
