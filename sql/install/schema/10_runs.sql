-- Stored results of runs: one row per run, its seconds, histogram and write stalls.

-- One row per run: its settings, where it ran, and its summary figures.
-- "ops", "iops", "mb_per_s" and the unprefixed latencies cover data I/O
-- (reads and writes); syncs have their own fsync_* columns.  Latencies are
-- microseconds; sizes are bytes; *_mib_per_s are MiB (2^20 bytes) per
-- second, *_mb_per_s MB (10^6 bytes) per second (see the column comments).
CREATE TABLE iobench.runs (
    run_id            bigserial PRIMARY KEY,
    status            text NOT NULL CHECK (status IN ('completed', 'incomplete', 'cancelled', 'failed', 'invalid')),
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
    offset_digest     text,
    cold_reads        boolean NOT NULL DEFAULT false,
    -- the block device's figures over the measured period, beside the
    -- run's own (iobench.run_disk_seconds; NULL without a block device)
    disk              text,
    disk_r_s          double precision,
    disk_w_s          double precision,
    disk_rmb_s        double precision,
    disk_wmb_s        double precision,
    disk_aqu_sz       double precision,
    disk_util_pct     double precision,
    -- steady-state detection (NULL: not asked for): the run ended at
    -- steady_at_s when steady_reached
    steady_state      text CHECK (steady_state IN ('iops', 'latency')),
    steady_band       double precision,
    steady_window     interval,
    steady_reached    boolean,
    steady_at_s       integer,
    mib_per_s         double precision,
    read_mib_per_s    double precision,
    write_mib_per_s   double precision,
    -- a tablespace group: its tablespaces (tablespace is the first); NULL
    -- for a run on one tablespace (iobench.run_tablespaces)
    tablespaces       name[],
    -- identity across servers (0.2): a run keeps its run_uuid wherever it
    -- is copied, so a run gathered twice is stored once
    run_uuid          uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    origin_run_id     bigint,       -- its run_id where it ran; NULL: it ran here
    server            text,         -- the name it was gathered or imported under; NULL: ran here
    imported_at       timestamptz,  -- NULL: it ran here
    tool              text NOT NULL DEFAULT 'iobench', -- 'iobench', or fio's version ("fio-3.33")
    start_at          timestamptz,  -- the start its workers waited for (run()'s start_at)
    go_at             timestamptz,  -- when its workers were told to start (warm-up begins)
    -- The server settings that shape I/O, as the run's session saw them
    -- (SHOW's text for io_combine_limit); NULL where the server has no such
    -- setting (io_combine_limit before 17, io_method and io_workers before
    -- 18, io_min/max_workers before 19).
    io_method                  text,
    io_workers                 integer,
    io_min_workers             integer,
    io_max_workers             integer,
    io_combine_limit           text,
    effective_io_concurrency   integer,
    maintenance_io_concurrency integer,
    wal_sync_method            text,
    full_page_writes           boolean,
    -- commits (0.3): a run at iodepth 1 that syncs after each write
    -- (fsync_every 1), or whose writes are each synchronous (sync_method
    -- open_datasync or open_sync), as a WAL flush: a commit is the write
    -- plus its sync, and its latency their sum.  NULL for other runs.
    commit_ops        bigint,
    commit_iops       double precision,
    commit_lat_avg_us double precision,
    commit_lat_p50_us double precision,
    commit_lat_p90_us double precision,
    commit_lat_p99_us double precision,
    commit_lat_p999_us double precision,
    commit_lat_max_us double precision,
    CONSTRAINT runs_run_uuid_key UNIQUE (run_uuid)
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

-- pg_dump keeps the stored results (an extension's tables are left out of
-- a dump unless registered), and the sequence behind run_id: a registered
-- table's serial sequence is not dumped with it, and runs stored after a
-- restore must not collide with the restored ones.  pg_dump writes the
-- registered tables' rows in the order of their foreign keys.
SELECT pg_catalog.pg_extension_config_dump('iobench.runs', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.runs_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_seconds', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_latency', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.run_stalls', '');
