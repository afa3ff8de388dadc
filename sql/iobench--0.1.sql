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
