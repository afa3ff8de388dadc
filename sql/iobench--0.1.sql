/* iobench--0.1.sql — full install script of version 0.1 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION iobench" to load this file. \quit

------------------------------------------------------------------------
-- Stored results
------------------------------------------------------------------------

-- One row per run: its settings, where it ran, and its summary figures.
-- "ops", "iops", "mb_per_s" and the unprefixed latencies cover data I/O
-- (reads and writes); syncs have their own fsync_* columns.  Latencies are
-- microseconds; MB is 10^6 bytes.
CREATE TABLE iobench.runs (
    run_id            bigserial PRIMARY KEY,
    status            text NOT NULL CHECK (status IN ('completed', 'cancelled')),
    label             text,
    started_at        timestamptz NOT NULL,
    finished_at       timestamptz NOT NULL,
    tablespace        name NOT NULL,
    device            text,
    filesystem        text,
    mount_point       text,
    host              text,
    system_identifier numeric,
    pg_version        text,
    rw                text NOT NULL,
    block_size        integer NOT NULL,
    workers           integer NOT NULL,
    iodepth           integer NOT NULL,
    duration          interval NOT NULL,
    warmup            interval NOT NULL,
    file_size         bigint NOT NULL,
    files             integer NOT NULL,
    read_pct          integer,
    fsync_every       integer NOT NULL,
    sync_method       text NOT NULL,
    direct            boolean NOT NULL,
    engine            text NOT NULL,
    rate_iops         integer NOT NULL,
    seed              bigint NOT NULL,
    rewrite_pct       integer NOT NULL DEFAULT 0,
    stall_threshold   interval,
    measured_s        double precision,
    ops               bigint,
    bytes             bigint,
    iops              double precision,
    mb_per_s          double precision,
    lat_avg_us        double precision,
    lat_p50_us        double precision,
    lat_p90_us        double precision,
    lat_p99_us        double precision,
    lat_p999_us       double precision,
    lat_max_us        double precision,
    read_ops          bigint,
    read_bytes        bigint,
    read_iops         double precision,
    read_mb_per_s     double precision,
    read_lat_avg_us   double precision,
    read_lat_p50_us   double precision,
    read_lat_p90_us   double precision,
    read_lat_p99_us   double precision,
    read_lat_p999_us  double precision,
    read_lat_max_us   double precision,
    write_ops         bigint,
    write_bytes       bigint,
    write_iops        double precision,
    write_mb_per_s    double precision,
    write_lat_avg_us  double precision,
    write_lat_p50_us  double precision,
    write_lat_p90_us  double precision,
    write_lat_p99_us  double precision,
    write_lat_p999_us double precision,
    write_lat_max_us  double precision,
    fsync_ops         bigint,
    fsync_iops        double precision,
    fsync_lat_avg_us  double precision,
    fsync_lat_p50_us  double precision,
    fsync_lat_p90_us  double precision,
    fsync_lat_p99_us  double precision,
    fsync_lat_p999_us double precision,
    fsync_lat_max_us  double precision,
    cpu_user_pct      double precision,
    cpu_sys_pct       double precision,
    stall_count       bigint,
    offset_digest     text
);
COMMENT ON TABLE iobench.runs IS 'one row per benchmark run: settings, storage, summary figures';

-- Per-second time series of the measured period, per op kind.
CREATE TABLE iobench.run_seconds (
    run_id       bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    second       integer NOT NULL,
    op           text NOT NULL CHECK (op IN ('read', 'write', 'fsync')),
    ops          bigint NOT NULL,
    bytes        bigint NOT NULL,
    lat_mean_us  double precision,
    lat_max_us   double precision,
    PRIMARY KEY (run_id, second, op)
);
COMMENT ON TABLE iobench.run_seconds IS 'per-second ops, bytes and latency of each run, per op kind';

-- Latency histogram buckets (non-empty ones), per op kind.
CREATE TABLE iobench.run_latency (
    run_id      bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    op          text NOT NULL CHECK (op IN ('read', 'write', 'fsync')),
    lower_us    double precision NOT NULL,
    upper_us    double precision NOT NULL,
    count       bigint NOT NULL,
    PRIMARY KEY (run_id, op, lower_us)
);
COMMENT ON TABLE iobench.run_latency IS 'latency histogram of each run: non-empty log-linear buckets per op kind';

------------------------------------------------------------------------
-- Running benchmarks
------------------------------------------------------------------------

CREATE FUNCTION iobench.run(
    tablespace   name     DEFAULT 'pg_default',
    rw           text     DEFAULT 'randread',
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
    label        text     DEFAULT NULL)
RETURNS iobench.runs
AS 'MODULE_PATHNAME', 'iobench_run'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.run IS 'run one I/O benchmark in background workers and store its result';

------------------------------------------------------------------------
-- Privileges
------------------------------------------------------------------------

REVOKE ALL ON FUNCTION iobench.run FROM PUBLIC;
GRANT USAGE ON SCHEMA iobench TO pg_monitor;
GRANT SELECT ON iobench.runs, iobench.run_seconds, iobench.run_latency TO pg_monitor;

------------------------------------------------------------------------
-- Suites, comparison and reports
--
-- pgiosim() and suite() run benchmarks (C, src/presets.c); everything
-- else here reads the stored results: side-by-side comparison, stall
-- hunting, a text report for psql and a fio-shaped JSON export.
------------------------------------------------------------------------

-- Stall events of a run: a write plus the sync it triggered (or a write
-- alone when the run does not sync) that took longer than the run's
-- stall_threshold.  Each worker keeps its 64 longest; runs.stall_count
-- counts them all.
CREATE TABLE iobench.run_stalls (
    run_id       bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    at_s         double precision NOT NULL,  -- completion, seconds into the measured period
    worker       integer NOT NULL,
    file         integer NOT NULL,
    file_offset  bigint NOT NULL,            -- of the write
    write_us     double precision NOT NULL,
    sync_us      double precision NOT NULL,  -- 0 when no sync followed
    total_us     double precision GENERATED ALWAYS AS (write_us + sync_us) STORED
);
CREATE INDEX ON iobench.run_stalls (run_id, at_s);
COMMENT ON TABLE iobench.run_stalls IS 'write stalls of each run (write + its sync over the run''s stall_threshold)';

-- The tests of each named suite.  A superuser may add suites by adding rows.
-- The CHECKs hold the limits of iobench.run() that no setting changes
-- (src/run_options.h: block size, iodepth, files, buffer memory); before it
-- stores anything, iobench.suite() checks each test again as a run, with
-- the suite's file_size and iobench.max_workers_per_run, and any error
-- names the test.  A test with more workers than iobench.max_workers_per_run
-- runs with that many, and its rows say so.
CREATE TABLE iobench.suite_tests (
    suite        text NOT NULL,
    test_no      integer NOT NULL,
    test         text NOT NULL,
    rw           text NOT NULL CHECK (rw IN ('randread', 'randwrite', 'randrw', 'read', 'write', 'readwrite')),
    block_size   text NOT NULL,              -- 512 bytes to 16 MB, a multiple of 512 bytes: '8kB', '1MB', '4096'
    workers      integer NOT NULL CHECK (workers BETWEEN 1 AND 1024),
    iodepth      integer NOT NULL CHECK (iodepth BETWEEN 1 AND 1024),
    files        integer NOT NULL CHECK (files BETWEEN 1 AND 1024),
    fsync_every  integer NOT NULL DEFAULT 0 CHECK (fsync_every >= 0),
    sync_method  text NOT NULL DEFAULT 'fsync' CHECK (sync_method IN ('fsync', 'fdatasync')),
    needs_uring  boolean NOT NULL DEFAULT false, -- without io_uring: skip, rather than run at iodepth 1
    description  text,
    PRIMARY KEY (suite, test_no),
    CONSTRAINT suite_tests_block_size_check CHECK (
        CASE WHEN block_size ~ '^[0-9]+ ?(bytes|kB|MB)?$'
             THEN pg_catalog.pg_size_bytes(block_size) BETWEEN 512 AND 16777216
                  AND pg_catalog.pg_size_bytes(block_size) % 512 = 0
             ELSE false
        END),
    -- I/O buffers: iodepth x block_size per worker at most 1 GB, and
    -- workers x iodepth x block_size per run at most 4 GB
    CONSTRAINT suite_tests_buffers_check CHECK (
        CASE WHEN block_size ~ '^[0-9]+ ?(bytes|kB|MB)?$'
             THEN pg_catalog.pg_size_bytes(block_size) * iodepth <= 1073741824
                  AND pg_catalog.pg_size_bytes(block_size) * iodepth * workers <= 4294967296
             ELSE false
        END),
    -- fsync_every counts writes
    CONSTRAINT suite_tests_sync_needs_writes_check CHECK (
        fsync_every = 0 OR rw NOT IN ('randread', 'read'))
);
COMMENT ON TABLE iobench.suite_tests IS 'the tests of each named suite that iobench.suite() runs';

-- sqlio: the eleven classic SQL Server patterns (two data files, one log
-- file), 4 workers x iodepth 8 = 32 I/Os in flight, within SQLIO's usual
-- 16-64 and leaving half of the default max_worker_processes (8) free.
INSERT INTO iobench.suite_tests
    (suite, test_no, test, rw, block_size, workers, iodepth, files, description)
VALUES
    ('sqlio',  1, 'data: 8 KB random write',       'randwrite', '8kB',   4, 8, 2, 'checkpoints, tempdb'),
    ('sqlio',  2, 'data: 8 KB random read',        'randread',  '8kB',   4, 8, 2, 'singleton lookups'),
    ('sqlio',  3, 'log: 64 KB sequential write',   'write',     '64kB',  4, 8, 1, 'bulk log writes'),
    ('sqlio',  4, 'log: 8 KB random read',         'randread',  '8kB',   4, 8, 1, 'rollbacks, log readers'),
    ('sqlio',  5, 'log: 1 KB sequential write',    'write',     '1kB',   4, 8, 1, 'small log writes'),
    ('sqlio',  6, 'data: 64 KB sequential write',  'write',     '64kB',  4, 8, 2, 'checkpoints, index builds, bulk loads'),
    ('sqlio',  7, 'data: 64 KB sequential read',   'read',      '64kB',  4, 8, 2, 'read-ahead, index builds, consistency checks'),
    ('sqlio',  8, 'data: 128 KB sequential read',  'read',      '128kB', 4, 8, 2, 'read-ahead, index builds'),
    ('sqlio',  9, 'data: 128 KB sequential write', 'write',     '128kB', 4, 8, 2, 'bulk loads, index builds'),
    ('sqlio', 10, 'data: 256 KB sequential read',  'read',      '256kB', 4, 8, 2, 'read-ahead, index builds'),
    ('sqlio', 11, 'data: 1 MB sequential read',    'read',      '1MB',   4, 8, 2, 'backups');

-- oltp: what a PostgreSQL server asks of its disks.
INSERT INTO iobench.suite_tests
    (suite, test_no, test, rw, block_size, workers, iodepth, files, fsync_every,
     sync_method, needs_uring, description)
VALUES
    ('oltp', 1, '8 KB random read, QD1',               'randread',  '8kB', 1,  1, 2,  0, 'fsync',     false, 'a backend reading a page it misses'),
    ('oltp', 2, '8 KB random read, QD32',              'randread',  '8kB', 1, 32, 2,  0, 'fsync',     true,  'many backends, or prefetching, reading at once'),
    ('oltp', 3, '8 KB random write, fsync every 16',   'randwrite', '8kB', 1,  1, 2, 16, 'fsync',     false, 'checkpointer writing and syncing data files'),
    ('oltp', 4, 'WAL: 8 KB sequential write + fdatasync', 'write',  '8kB', 1,  1, 1,  1, 'fdatasync', false, 'commits: each WAL write flushed');

-- One row per suite run by iobench.suite().
CREATE TABLE iobench.suites (
    suite_id     bigserial PRIMARY KEY,
    name         text NOT NULL,
    status       text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
    label        text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    tablespaces  name[] NOT NULL,            -- in the order given; the first is the baseline
    repeat       integer NOT NULL,
    duration     interval NOT NULL,
    warmup       interval NOT NULL,
    file_size    bigint NOT NULL,
    direct       boolean NOT NULL,
    engine       text NOT NULL,              -- as requested
    seed         bigint                      -- NULL: a random seed per run
);
COMMENT ON TABLE iobench.suites IS 'one row per suite run by iobench.suite()';

-- The runs of each suite; a test skipped on this server has no run.
CREATE TABLE iobench.suite_runs (
    suite_id     bigint NOT NULL REFERENCES iobench.suites ON DELETE CASCADE,
    test_no      integer NOT NULL,
    test         text NOT NULL,
    tablespace   name NOT NULL,
    repeat_no    integer NOT NULL,
    run_id       bigint UNIQUE REFERENCES iobench.runs ON DELETE CASCADE,
    note         text,                       -- why a test was skipped or adapted
    PRIMARY KEY (suite_id, test_no, tablespace, repeat_no)
);
COMMENT ON TABLE iobench.suite_runs IS 'which runs belong to which suite, test, tablespace and repeat';

-- pgiosim's workload done right: random 8 kB buffered reads from a cold
-- cache over "files" files, write_pct % of them followed by a rewrite of the
-- same block and (fsync on) an fsync; stalls counted and listed.
CREATE FUNCTION iobench.pgiosim(
    tablespace        name     DEFAULT 'pg_default',
    files             integer  DEFAULT 4,
    workers           integer  DEFAULT 10,
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
CREATE VIEW iobench.suite_results AS
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
       string_agg(DISTINCT sr.note, '; ') AS note
  FROM iobench.suite_runs sr
  JOIN iobench.suites s USING (suite_id)
  LEFT JOIN iobench.runs r ON r.run_id = sr.run_id AND r.status = 'completed'
 GROUP BY sr.suite_id, s.name, sr.test_no, sr.test, s.tablespaces, sr.tablespace;
COMMENT ON VIEW iobench.suite_results IS 'per suite, test and tablespace: mean and standard deviation over the repeats';

-- Run a named suite on each tablespace; one row per (test, tablespace).
CREATE FUNCTION iobench.suite(
    name         text,
    tablespaces  name[],
    repeat       integer  DEFAULT 1,
    duration     interval DEFAULT '30s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    seed         bigint   DEFAULT NULL,
    label        text     DEFAULT NULL)
RETURNS SETOF iobench.suite_results
AS 'MODULE_PATHNAME', 'iobench_suite'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.suite IS 'run a named suite (iobench.suite_tests) on each tablespace, repeat times, and store it';

-- Every suite's tablespaces side by side with the first one (the
-- baseline): ratios above 1 mean more IOPS or MB/s, or a longer p99.
CREATE VIEW iobench.suite_comparison AS
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
CREATE FUNCTION iobench.compare(suite_id bigint, baseline name DEFAULT NULL)
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
SET search_path = pg_catalog, iobench, pg_temp
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
COMMENT ON FUNCTION iobench.compare(bigint, name) IS 'one suite''s tablespaces side by side per test, with ratios to a baseline tablespace';

-- Any runs side by side, in the order given, against a baseline run (the
-- first when NULL).
CREATE FUNCTION iobench.compare_runs(run_ids bigint[], baseline bigint DEFAULT NULL)
RETURNS TABLE (
    run_id         bigint,
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
SET search_path = pg_catalog, iobench, pg_temp
AS $$
DECLARE
    base bigint;
    missing bigint;
BEGIN
    IF compare_runs.run_ids IS NULL OR cardinality(compare_runs.run_ids) = 0 THEN
        RAISE EXCEPTION 'argument "run_ids" must name at least one run'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(compare_runs.run_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "run_ids" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.id INTO missing
      FROM unnest(compare_runs.run_ids) u(id)
     WHERE NOT EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = u.id)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % does not exist', missing
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    base := coalesce(compare_runs.baseline, compare_runs.run_ids[1]);
    IF NOT base = ANY (compare_runs.run_ids) THEN
        RAISE EXCEPTION 'baseline run % is not one of the runs compared', base
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    SELECT o.run_id, o.label, o.tablespace, o.rw, o.block_size, o.workers, o.iodepth, b.run_id,
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
COMMENT ON FUNCTION iobench.compare_runs(bigint[], bigint) IS 'any runs side by side, with ratios to a baseline run';

-- Seconds of a run in which data-I/O throughput fell under min_fraction of
-- the run's median second, or the longest I/O completed (any kind, syncs
-- included) took longer than max_latency.  Seconds in which nothing
-- completed count as throughput 0.  A final second shorter than half a
-- second is judged on latency only.  NULL turns a criterion off.
CREATE FUNCTION iobench.stalls(
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
SET search_path = pg_catalog, iobench, pg_temp
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
    SELECT r.measured_s INTO measured FROM iobench.runs r WHERE r.run_id = stalls.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', stalls.run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

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
COMMENT ON FUNCTION iobench.stalls(bigint, double precision, interval) IS 'seconds of a run where throughput collapsed or latency spiked';

-- A latency in microseconds for reading: three significant digits, in µs,
-- ms or s.
CREATE FUNCTION iobench.format_us(us double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT CASE
        WHEN us IS NULL THEN '-'
        WHEN us = 0 THEN '0 µs'
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
CREATE FUNCTION iobench.format_bytes(bytes bigint)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
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

-- A sparkline of the values, one character each, scaled from 0 to the
-- largest; 0 is a blank, so a second without I/O shows as a gap.
CREATE FUNCTION iobench.sparkline(vals double precision[])
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT string_agg(
               CASE WHEN v IS NULL OR v <= 0 OR m IS NULL OR m <= 0 THEN ' '
                    ELSE substr('▁▂▃▄▅▆▇█', least(8, 1 + floor(v / m * 8)::integer), 1)
               END, '' ORDER BY n)
      FROM unnest(vals) WITH ORDINALITY AS u(v, n),
           (SELECT max(x) AS m FROM unnest(vals) AS x) AS mx
$$;
COMMENT ON FUNCTION iobench.sparkline(double precision[]) IS 'values as a line of ▁▂▃▄▅▆▇█ scaled from 0 to the largest';

-- A bar of width/8 character cells for a share (0..1) of the width,
-- drawn with eighth blocks.
CREATE FUNCTION iobench.bar(share double precision, width integer DEFAULT 40)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT repeat('█', (e / 8)::integer)
           || CASE WHEN e % 8 > 0 THEN substr('▏▎▍▌▋▊▉', (e % 8)::integer, 1) ELSE '' END
      FROM (SELECT round(greatest(least(coalesce(share, 0), 1), 0) * width * 8)::bigint AS e) AS x
$$;
COMMENT ON FUNCTION iobench.bar(double precision, integer) IS 'a horizontal bar of block characters for a share between 0 and 1';

-- The latency histogram of a run and op kind, grouped into 1-2-5 ranges
-- (10-20 µs, 20-50 µs, 50-100 µs ...) from the first non-empty range to the
-- last; each stored bucket goes to the range holding its midpoint.
CREATE FUNCTION iobench.latency_ranges(run_id bigint, op text)
RETURNS TABLE (lower_us double precision, upper_us double precision, count bigint, share double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, iobench, pg_temp
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

-- A text report of one run that reads well in psql (\pset format unaligned
-- or \t to drop the header): settings, summary with percentiles per op
-- kind, latency histograms drawn with bars, a per-second IOPS sparkline,
-- stalls, and the run's top waits when they were recorded.
CREATE FUNCTION iobench.report(run_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, iobench, pg_temp
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
    fmt constant text := '  %-8s %10s %10s %9s %9s %9s %9s %9s %9s %9s';
BEGIN
    IF report.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = report.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', report.run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

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
    IF r.fsync_every > 0 OR r.rewrite_pct > 0 THEN
        RETURN NEXT concat_ws(', ',
            CASE WHEN r.rewrite_pct > 0 THEN format('  %s %% of reads rewritten', r.rewrite_pct) END,
            CASE WHEN r.fsync_every = 1 THEN format('%s after every write', r.sync_method)
                 WHEN r.fsync_every > 1 THEN format('%s after every %s writes to a file',
                                                    r.sync_method, r.fsync_every) END);
    END IF;
    RETURN NEXT format('  tablespace "%s": %s, %s on %s; host %s, PostgreSQL %s',
                       r.tablespace, coalesce(r.device, '?'), coalesce(r.filesystem, '?'),
                       coalesce(r.mount_point, '?'), coalesce(r.host, '?'), r.pg_version);
    RETURN NEXT format('  started %s, measured %s s after %s s of warm-up, seed %s',
                       to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS TZ'),
                       round(r.measured_s::numeric, 1),
                       round(extract(epoch FROM r.warmup), 1), r.seed);

    -- summary and percentiles
    RETURN NEXT '';
    RETURN NEXT 'Summary';
    RETURN NEXT format(fmt, 'op', 'ops', 'IOPS', 'MB/s', 'avg', 'p50', 'p90', 'p99', 'p99.9', 'max');
    FOR k IN
        SELECT * FROM (VALUES
            (1, 'read',  r.read_ops,  r.read_iops,  r.read_mb_per_s, r.read_lat_avg_us,
             r.read_lat_p50_us, r.read_lat_p90_us, r.read_lat_p99_us, r.read_lat_p999_us, r.read_lat_max_us),
            (2, 'write', r.write_ops, r.write_iops, r.write_mb_per_s, r.write_lat_avg_us,
             r.write_lat_p50_us, r.write_lat_p90_us, r.write_lat_p99_us, r.write_lat_p999_us, r.write_lat_max_us),
            (3, 'fsync', r.fsync_ops, r.fsync_iops, NULL, r.fsync_lat_avg_us,
             r.fsync_lat_p50_us, r.fsync_lat_p90_us, r.fsync_lat_p99_us, r.fsync_lat_p999_us, r.fsync_lat_max_us),
            (4, 'all data', r.ops, r.iops, r.mb_per_s, r.lat_avg_us,
             r.lat_p50_us, r.lat_p90_us, r.lat_p99_us, r.lat_p999_us, r.lat_max_us))
            AS t(n, op, ops, iops, mbps, avg, p50, p90, p99, p999, mx)
         WHERE coalesce(t.ops, 0) > 0 ORDER BY t.n
    LOOP
        RETURN NEXT format(fmt, k.op, k.ops, round(k.iops::numeric, 1),
                           coalesce(round(k.mbps::numeric, 2)::text, ''),
                           iobench.format_us(k.avg), iobench.format_us(k.p50),
                           iobench.format_us(k.p90), iobench.format_us(k.p99),
                           iobench.format_us(k.p999), iobench.format_us(k.mx));
    END LOOP;
    RETURN NEXT format('  CPU of the workers: user %s %%, system %s %% of one CPU',
                       coalesce(round(r.cpu_user_pct::numeric, 1)::text, '-'),
                       coalesce(round(r.cpu_sys_pct::numeric, 1)::text, '-'));

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
    IF n > 0 THEN
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

    -- top waits, when the wait statistics of runs are recorded
    IF to_regprocedure('iobench.run_wait_stats(bigint)') IS NOT NULL THEN
        FOR w IN EXECUTE 'SELECT "WaitType" AS t, "Wait_S" AS s, "Signal_S" AS sig, '
                         '"WaitCount" AS c, "Percentage" AS p '
                         'FROM iobench.run_wait_stats($1) LIMIT 10' USING r.run_id
        LOOP
            IF NOT has_waits THEN
                RETURN NEXT '';
                RETURN NEXT 'Top waits';
                RETURN NEXT format('  %-28s %10s %10s %10s %10s', 'WaitType', 'Wait_S', 'Signal_S', 'WaitCount', 'Percentage');
                has_waits := true;
            END IF;
            RETURN NEXT format('  %-28s %10s %10s %10s %10s', w.t, w.s, coalesce(w.sig::text, '-'), w.c, w.p);
        END LOOP;
    ELSIF to_regclass('iobench.run_waits') IS NOT NULL THEN
        FOR w IN EXECUTE 'SELECT wait_type AS t, wait_s AS s, wait_count AS c, '
                         'round((100 * wait_s / nullif(sum(wait_s) OVER (), 0))::numeric, 2) AS p '
                         'FROM iobench.run_waits WHERE run_id = $1 ORDER BY wait_s DESC LIMIT 10'
                 USING r.run_id
        LOOP
            IF NOT has_waits THEN
                RETURN NEXT '';
                RETURN NEXT 'Top waits';
                RETURN NEXT format('  %-28s %10s %10s %10s', 'WaitType', 'Wait_S', 'WaitCount', 'Percentage');
                has_waits := true;
            END IF;
            RETURN NEXT format('  %-28s %10s %10s %10s', w.t, round(w.s::numeric, 2), w.c, w.p);
        END LOOP;
    END IF;
    RETURN;
END
$$;
COMMENT ON FUNCTION iobench.report(bigint) IS 'a text report of one run: summary, percentiles, histograms, sparkline, stalls, waits';

-- One op kind of a run as fio's JSON has it: a latency block ({min, max,
-- mean, stddev, N, percentile, bins}) from the stored histogram, in ns.
CREATE FUNCTION iobench.fio_latency(run_id bigint, op text, mean_us double precision,
                                    max_us double precision, with_percentiles boolean)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, iobench, pg_temp
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
CREATE FUNCTION iobench.fio_direction(r iobench.runs, op text)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, iobench, pg_temp
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
CREATE FUNCTION iobench.run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
DECLARE
    r iobench.runs;
    lat_buckets jsonb;
BEGIN
    IF run_json.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = run_json.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', run_json.run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

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
                    'pg_version', r.pg_version, 'stall_count', r.stall_count))),
        'disk_util', '[]'::jsonb);
END
$$;
COMMENT ON FUNCTION iobench.run_json(bigint) IS 'a run as fio''s JSON output (json+), for fio tooling';

-- Privileges: running is for the roles the owner grants it to (as
-- iobench.run()); reading is for pg_monitor.
REVOKE ALL ON FUNCTION
    iobench.pgiosim(name, integer, integer, integer, boolean, interval, interval, text,
                    interval, text, interval, bigint, text),
    iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, text)
FROM PUBLIC;
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

CREATE TYPE iobench.wait_raw AS (
    wait_type    text,              -- "type:event", e.g. IO:DataFileRead
    wait_s       double precision,  -- sampled time in the wait
    signal_s     double precision,  -- runnable, not running (NULL: unknown)
    wait_count   bigint,            -- observed entries into the wait
    exact_count  bigint,            -- exact entries, where iobench timed them
    exact_wait_s double precision   -- exact time, where iobench timed it
);

-- The two shapes every wait table comes in: all rows unrounded with flags
-- (for programs), and Paul Randal's columns (for people).
CREATE TYPE iobench.wait_stats_row AS (
    wait_type    text,
    wait_s       double precision,
    resource_s   double precision,
    signal_s     double precision,
    wait_count   bigint,
    percentage   double precision,
    avg_wait_s   double precision,
    avg_res_s    double precision,
    avg_sig_s    double precision,
    exact_count  bigint,
    exact_wait_s double precision,
    benign       boolean,
    in_top_95    boolean);

CREATE TYPE iobench.wait_table_row AS (
    "WaitType"   text,
    "Wait_S"     numeric(16, 2),
    "Resource_S" numeric(16, 2),
    "Signal_S"   numeric(16, 2),
    "WaitCount"  bigint,
    "Percentage" numeric(5, 2),
    "AvgWait_S"  numeric(16, 4),
    "AvgRes_S"   numeric(16, 4),
    "AvgSig_S"   numeric(16, 4));

COMMENT ON TYPE iobench.wait_raw IS 'raw accumulated wait statistics: one row per wait type';

-- Waits that are idle by nature.  Edit freely: rows added by users survive
-- pg_dump; the built-in rows come back with CREATE EXTENSION.
CREATE TABLE iobench.benign_waits (
    wait_type text PRIMARY KEY,
    reason    text NOT NULL,
    builtin   boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE iobench.benign_waits IS 'wait types left out of iobench.wait_stats (idle by nature); editable';
INSERT INTO iobench.benign_waits (wait_type, reason, builtin) VALUES
    ('Activity:ArchiverMain',          'main loop of an idle process', true),
    ('Activity:AutoVacuumMain',        'main loop of an idle process', true),
    ('Activity:BgWriterHibernate',     'main loop of an idle process', true),
    ('Activity:BgWriterMain',          'main loop of an idle process', true),
    ('Activity:CheckpointerMain',      'main loop of an idle process', true),
    ('Activity:LogicalApplyMain',      'main loop of an idle process', true),
    ('Activity:LogicalLauncherMain',   'main loop of an idle process', true),
    ('Activity:RecoveryWalStream',     'main loop of an idle process', true),
    ('Activity:SysLoggerMain',         'main loop of an idle process', true),
    ('Activity:WalReceiverMain',       'main loop of an idle process', true),
    ('Activity:WalSenderMain',         'main loop of an idle process', true),
    ('Activity:WalWriterMain',         'main loop of an idle process', true),
    ('Client:ClientRead',              'idle session waiting for its next command (idle in transaction is shown as "Client:ClientRead (idle in transaction)")', true),
    ('Client:WalSenderWaitForWAL',     'WAL sender waiting for new WAL to send', true),
    ('Client:LibPQWalReceiverReceive', 'WAL receiver waiting for WAL from the primary', true),
    ('Timeout:PgSleep',                'pg_sleep(): a sleep the session asked for', true),
    ('Timeout:VacuumDelay',            'cost-based vacuum throttling', true),
    ('Timeout:CheckpointWriteDelay',   'checkpoint spreading its writes (checkpoint_completion_target)', true),
    ('Timeout:BaseBackupThrottle',     'base backup throttling (MAX_RATE)', true),
    ('Timeout:RecoveryApplyDelay',     'recovery_min_apply_delay', true),
    ('Timeout:RecoveryRetrieveRetryInterval', 'standby waiting to retry WAL retrieval', true),
    ('IPC:RecoveryPause',              'recovery paused by pg_wal_replay_pause()', true);
SELECT pg_catalog.pg_extension_config_dump('iobench.benign_waits', 'WHERE NOT builtin');

-- The one definition of the wait table, on raw rows: rows of one name are
-- summed; Signal_S is unknown (NULL) if any part of it is, and is capped at
-- Wait_S (run_delay is credited when a process gets back on a CPU, so one
-- sample can carry more than its own interval; the cap keeps
-- Resource_S + Signal_S = Wait_S with Resource_S >= 0); Percentage is of
-- the non-benign rows; in_top_95 keeps the rows while the running total
-- before them is under 95 %, so the row that crosses 95 % is kept.
CREATE FUNCTION iobench.wait_table_all(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    WITH grouped AS (
        SELECT u.wait_type,
               sum(u.wait_s) AS wait_s,
               CASE WHEN count(u.signal_s) = count(*) THEN sum(u.signal_s) END AS signal_s,
               sum(u.wait_count)::bigint AS wait_count,
               sum(u.exact_count)::bigint AS exact_count,
               sum(u.exact_wait_s) AS exact_wait_s
        FROM unnest(raw) AS u
        WHERE u.wait_type IS NOT NULL
        GROUP BY u.wait_type
    ), flagged AS (
        SELECT g.*,
               CASE WHEN g.signal_s IS NOT NULL THEN least(g.signal_s, g.wait_s) END AS sig,
               EXISTS (SELECT 1 FROM iobench.benign_waits b
                       WHERE b.wait_type = g.wait_type) AS benign
        FROM grouped g
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
           r.wait_count,
           r.percentage,
           r.wait_s / nullif(r.wait_count, 0),
           (r.wait_s - r.sig) / nullif(r.wait_count, 0),
           r.sig / nullif(r.wait_count, 0),
           r.exact_count,
           r.exact_wait_s,
           r.benign,
           NOT r.benign AND r.percentage IS NOT NULL AND r.before < 95
    FROM running r
    ORDER BY r.wait_s DESC, r.wait_type
$$;
COMMENT ON FUNCTION iobench.wait_table_all IS 'all rows of a wait table, unrounded, with the benign and 95 % flags';

-- The table people read: Paul Randal's columns, benign rows left out, cut
-- after the row that takes the running total past 95 %.
CREATE FUNCTION iobench.wait_table(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT t.wait_type,
           t.wait_s::numeric(16, 2),
           t.resource_s::numeric(16, 2),
           t.signal_s::numeric(16, 2),
           t.wait_count,
           t.percentage::numeric(5, 2),
           t.avg_wait_s::numeric(16, 4),
           t.avg_res_s::numeric(16, 4),
           t.avg_sig_s::numeric(16, 4)
    FROM iobench.wait_table_all(raw) AS t
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type
$$;
COMMENT ON FUNCTION iobench.wait_table IS 'the wait table in SQL Server''s format (Paul Randal''s columns) from raw rows';

-- Always on (needs shared_preload_libraries = 'iobench')

CREATE FUNCTION iobench.waits_raw()
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_waits_raw'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION iobench.waits_raw IS 'the wait collector''s raw totals since the last reset';

CREATE FUNCTION iobench.reset_waits()
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_reset_waits'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.reset_waits IS 'clear the wait collector''s totals';

CREATE FUNCTION iobench.wait_collector_status(
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

CREATE FUNCTION iobench.plant_waits(wait_types integer, wait_s double precision DEFAULT 1)
RETURNS integer
AS 'MODULE_PATHNAME', 'iobench_plant_waits'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.plant_waits IS 'for tests: add made-up wait types to the collector''s totals; returns how many found no room';

CREATE VIEW iobench.wait_stats AS
    SELECT * FROM iobench.wait_table(ARRAY(SELECT r FROM iobench.waits_raw() AS r))
    ORDER BY "Wait_S" DESC, "WaitType";
COMMENT ON VIEW iobench.wait_stats IS 'wait statistics of the instance since the last reset, in SQL Server''s format';

CREATE VIEW iobench.wait_stats_all AS
    SELECT * FROM iobench.wait_table_all(ARRAY(SELECT r FROM iobench.waits_raw() AS r))
    ORDER BY wait_s DESC, wait_type;
COMMENT ON VIEW iobench.wait_stats_all IS 'every wait type since the last reset, unrounded, with benign and 95 % flags';

CREATE VIEW iobench.wait_collector AS
    SELECT * FROM iobench.wait_collector_status();
COMMENT ON VIEW iobench.wait_collector IS 'the wait collector worker: period, ticks taken and missed, table use';

-- Snapshots of the collector's totals, to diff any interval
CREATE TABLE iobench.wait_snapshots (
    snapshot_name text PRIMARY KEY,
    taken_at      timestamptz NOT NULL,
    reset_at      timestamptz NOT NULL,  -- the totals' reset time when taken
    sampled_s     double precision NOT NULL
);
COMMENT ON TABLE iobench.wait_snapshots IS 'named snapshots of the wait collector''s totals';

CREATE TABLE iobench.wait_snapshot_rows (
    snapshot_name text NOT NULL REFERENCES iobench.wait_snapshots
                      ON DELETE CASCADE ON UPDATE CASCADE,
    wait_type     text NOT NULL,
    wait_s        double precision NOT NULL,
    signal_s      double precision,
    wait_count    bigint NOT NULL,
    PRIMARY KEY (snapshot_name, wait_type)
);
COMMENT ON TABLE iobench.wait_snapshot_rows IS 'the totals of each wait snapshot, per wait type';
SELECT pg_catalog.pg_extension_config_dump('iobench.wait_snapshots', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.wait_snapshot_rows', '');

CREATE FUNCTION iobench.snapshot_waits(snapshot_name text)
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
DECLARE
    before_reset timestamptz;
    after_reset  timestamptz;
    sampled      double precision;
    taken        timestamptz := clock_timestamp();
BEGIN
    IF snapshot_name IS NULL THEN
        RAISE EXCEPTION 'argument "snapshot_name" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
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
    RETURN taken;
END
$$;
COMMENT ON FUNCTION iobench.snapshot_waits IS 'store the wait collector''s current totals under a name';

-- Raw rows of the interval between two snapshots, or since one (to_snapshot NULL)
CREATE FUNCTION iobench.wait_snapshot_diff_raw(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_raw
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, iobench, pg_temp
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
                   NULL::bigint, NULL::double precision
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
               NULL::bigint, NULL::double precision
        FROM iobench.wait_snapshot_rows n
        LEFT JOIN iobench.wait_snapshot_rows o
               ON o.snapshot_name = from_snapshot AND o.wait_type = n.wait_type
        WHERE n.snapshot_name = to_snapshot
          AND (n.wait_s > coalesce(o.wait_s, 0) OR n.wait_count > coalesce(o.wait_count, 0));
END
$$;
COMMENT ON FUNCTION iobench.wait_snapshot_diff_raw IS 'raw wait statistics between two snapshots, or since one';

CREATE FUNCTION iobench.wait_stats_diff(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT * FROM iobench.wait_table(ARRAY(
        SELECT r FROM iobench.wait_snapshot_diff_raw(from_snapshot, to_snapshot) AS r))
$$;
COMMENT ON FUNCTION iobench.wait_stats_diff IS 'the wait table of the interval between two snapshots, or since one';

CREATE FUNCTION iobench.wait_stats_diff_all(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.wait_snapshot_diff_raw(from_snapshot, to_snapshot) AS r))
$$;
COMMENT ON FUNCTION iobench.wait_stats_diff_all IS 'every wait type of the interval between two snapshots, or since one, with flags';

-- A window sampled from the calling backend (no preloading needed)

CREATE FUNCTION iobench.sample_waits_raw(
    duration      interval,
    sample_period interval  DEFAULT NULL,   -- NULL: iobench.sample_period
    pids          integer[] DEFAULT NULL)   -- NULL: every process
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_sample_waits_raw'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.sample_waits_raw IS 'sample wait events from this backend for a window; raw rows';

CREATE FUNCTION iobench.sample_waits(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT * FROM iobench.wait_table(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r))
$$;
COMMENT ON FUNCTION iobench.sample_waits IS 'sample wait events for a window and return the wait table in SQL Server''s format';

CREATE FUNCTION iobench.sample_waits_all(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r))
$$;
COMMENT ON FUNCTION iobench.sample_waits_all IS 'sample wait events for a window and return every wait type with flags';

-- Per benchmark run: the launcher samples while it waits for its workers
-- (iobench.run_waits setting: workers, instance or off)

CREATE TABLE iobench.run_waits (
    run_id       bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    wait_type    text NOT NULL,
    wait_s       double precision NOT NULL,
    signal_s     double precision,
    wait_count   bigint NOT NULL,
    exact_count  bigint,            -- the workers' own count of their I/Os
    exact_wait_s double precision,  -- and their summed latency
    PRIMARY KEY (run_id, wait_type)
);
COMMENT ON TABLE iobench.run_waits IS 'wait statistics sampled during each run, with the workers'' exact I/O figures beside them';

CREATE TABLE iobench.run_wait_sampling (
    run_id       bigint PRIMARY KEY REFERENCES iobench.runs ON DELETE CASCADE,
    scope        text NOT NULL CHECK (scope IN ('workers', 'instance')),
    period_ms    integer NOT NULL,
    ticks        bigint NOT NULL,
    missed_ticks bigint NOT NULL,
    sampled_s    double precision NOT NULL
);
COMMENT ON TABLE iobench.run_wait_sampling IS 'how the wait statistics of each run were sampled';

CREATE FUNCTION iobench.run_wait_stats(run_id bigint)
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
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT t.wait_type,
           t.wait_s::numeric(16, 2),
           t.resource_s::numeric(16, 2),
           t.signal_s::numeric(16, 2),
           t.wait_count,
           t.percentage::numeric(5, 2),
           t.avg_wait_s::numeric(16, 4),
           t.avg_res_s::numeric(16, 4),
           t.avg_sig_s::numeric(16, 4),
           t.exact_count,
           t.exact_wait_s::numeric(16, 2)
    FROM iobench.wait_table_all(ARRAY(
             SELECT ROW(w.wait_type, w.wait_s, w.signal_s, w.wait_count,
                        w.exact_count, w.exact_wait_s)::iobench.wait_raw
             FROM iobench.run_waits w
             WHERE w.run_id = run_wait_stats.run_id)) AS t
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type
$$;
COMMENT ON FUNCTION iobench.run_wait_stats IS 'the wait table of one run, with the workers'' exact I/O figures beside the sampled ones';

CREATE FUNCTION iobench.run_wait_stats_all(run_id bigint)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, iobench, pg_temp
AS $$
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT ROW(w.wait_type, w.wait_s, w.signal_s, w.wait_count,
                   w.exact_count, w.exact_wait_s)::iobench.wait_raw
        FROM iobench.run_waits w
        WHERE w.run_id = run_wait_stats_all.run_id))
$$;
COMMENT ON FUNCTION iobench.run_wait_stats_all IS 'every wait type of one run, unrounded, with flags';

-- Privileges: readers are pg_monitor; reset, snapshots, planted data and
-- the benign list are for the owner (and whoever the owner grants them to).
REVOKE ALL ON FUNCTION
    iobench.wait_table_all(iobench.wait_raw[]),
    iobench.wait_table(iobench.wait_raw[]),
    iobench.waits_raw(),
    iobench.reset_waits(),
    iobench.wait_collector_status(),
    iobench.plant_waits(integer, double precision),
    iobench.snapshot_waits(text),
    iobench.wait_snapshot_diff_raw(text, text),
    iobench.wait_stats_diff(text, text),
    iobench.wait_stats_diff_all(text, text),
    iobench.sample_waits_raw(interval, interval, integer[]),
    iobench.sample_waits(interval, interval, integer[]),
    iobench.sample_waits_all(interval, interval, integer[]),
    iobench.run_wait_stats(bigint),
    iobench.run_wait_stats_all(bigint)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    iobench.wait_table_all(iobench.wait_raw[]),
    iobench.wait_table(iobench.wait_raw[]),
    iobench.waits_raw(),
    iobench.wait_collector_status(),
    iobench.wait_snapshot_diff_raw(text, text),
    iobench.wait_stats_diff(text, text),
    iobench.wait_stats_diff_all(text, text),
    iobench.sample_waits_raw(interval, interval, integer[]),
    iobench.sample_waits(interval, interval, integer[]),
    iobench.sample_waits_all(interval, interval, integer[]),
    iobench.run_wait_stats(bigint),
    iobench.run_wait_stats_all(bigint)
TO pg_monitor;
GRANT SELECT ON
    iobench.benign_waits,
    iobench.wait_stats,
    iobench.wait_stats_all,
    iobench.wait_collector,
    iobench.wait_snapshots,
    iobench.wait_snapshot_rows,
    iobench.run_waits,
    iobench.run_wait_sampling
TO pg_monitor;
