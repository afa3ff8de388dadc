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
RETURNS TABLE (
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
    in_top_95    boolean)
LANGUAGE sql STABLE PARALLEL SAFE
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
RETURNS TABLE (
    "WaitType"   text,
    "Wait_S"     numeric(16, 2),
    "Resource_S" numeric(16, 2),
    "Signal_S"   numeric(16, 2),
    "WaitCount"  bigint,
    "Percentage" numeric(5, 2),
    "AvgWait_S"  numeric(16, 4),
    "AvgRes_S"   numeric(16, 4),
    "AvgSig_S"   numeric(16, 4))
LANGUAGE sql STABLE PARALLEL SAFE
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
AS $$
DECLARE
    before_reset timestamptz;
    after_reset  timestamptz;
    sampled      double precision;
    taken        timestamptz := clock_timestamp();
BEGIN
    IF snapshot_name IS NULL THEN
        RAISE EXCEPTION 'snapshot name must not be null'
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
AS $$
DECLARE
    f iobench.wait_snapshots;
    t iobench.wait_snapshots;
    current_reset timestamptz;
BEGIN
    IF from_snapshot IS NULL THEN
        RAISE EXCEPTION 'from_snapshot must not be null'
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
RETURNS TABLE (
    "WaitType"   text,
    "Wait_S"     numeric(16, 2),
    "Resource_S" numeric(16, 2),
    "Signal_S"   numeric(16, 2),
    "WaitCount"  bigint,
    "Percentage" numeric(5, 2),
    "AvgWait_S"  numeric(16, 4),
    "AvgRes_S"   numeric(16, 4),
    "AvgSig_S"   numeric(16, 4))
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
AS $$
    SELECT * FROM iobench.wait_table(ARRAY(
        SELECT r FROM iobench.wait_snapshot_diff_raw(from_snapshot, to_snapshot) AS r))
$$;
COMMENT ON FUNCTION iobench.wait_stats_diff IS 'the wait table of the interval between two snapshots, or since one';

CREATE FUNCTION iobench.wait_stats_diff_all(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS TABLE (
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
    in_top_95    boolean)
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
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
RETURNS TABLE (
    "WaitType"   text,
    "Wait_S"     numeric(16, 2),
    "Resource_S" numeric(16, 2),
    "Signal_S"   numeric(16, 2),
    "WaitCount"  bigint,
    "Percentage" numeric(5, 2),
    "AvgWait_S"  numeric(16, 4),
    "AvgRes_S"   numeric(16, 4),
    "AvgSig_S"   numeric(16, 4))
LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT * FROM iobench.wait_table(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r))
$$;
COMMENT ON FUNCTION iobench.sample_waits IS 'sample wait events for a window and return the wait table in SQL Server''s format';

CREATE FUNCTION iobench.sample_waits_all(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS TABLE (
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
    in_top_95    boolean)
LANGUAGE sql VOLATILE PARALLEL UNSAFE
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
RETURNS TABLE (
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
    in_top_95    boolean)
LANGUAGE sql STABLE PARALLEL SAFE
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
