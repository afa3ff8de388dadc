-- Running one benchmark (C, src/run/run_launcher.c).

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
    tablespaces  name[]   DEFAULT NULL,
    effective_io_concurrency integer DEFAULT NULL,
    io_combine_limit integer DEFAULT NULL)
RETURNS iobench.runs
AS 'MODULE_PATHNAME', 'iobench_run'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.run IS 'run one I/O benchmark in background workers and store its result';
