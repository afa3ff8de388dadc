-- Wait statistics that are kept: the benign list, collector snapshots, the waits of runs.

-- Raw rows of a wait table, as every sampler produces them, and the two
-- shapes of the tables people and programs read (functions in code/40_waits.sql).
CREATE TYPE iobench.wait_raw AS (
    wait_type    text,              -- "type:event", e.g. IO:DataFileRead
    wait_s       double precision,  -- sampled time in the wait
    signal_s     double precision,  -- runnable, not running (NULL: unknown)
    wait_count   bigint,            -- observed entries into the wait
    exact_count  bigint,            -- exact entries, where something counted them
    exact_wait_s double precision,  -- exact time, where something timed it
    backend_type text               -- the server's backend type of the processes
                                    -- that waited (NULL: unknown or summed)
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
    in_top_95    boolean,
    sampled_count bigint,           -- entries the sampler saw (a lower bound)
    count_exact  boolean,           -- wait_count is exact_count, not sampled_count
    description  text,              -- the server's (pg_wait_events, 17+; else NULL)
    backend_types text[]);          -- backend types that had the wait, sorted

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
    ('Activity:IoWorkerMain',          'I/O worker waiting for I/O to do (PostgreSQL 18+)', true),
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

-- Per benchmark run: the launcher samples while it waits for its workers
-- (iobench.run_waits setting: workers, instance or off)

CREATE TABLE iobench.run_waits (
    run_id       bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    wait_type    text NOT NULL,
    wait_s       double precision NOT NULL,
    signal_s     double precision,
    wait_count   bigint NOT NULL,
    exact_count  bigint,            -- the workers' own count of their I/Os, and
                                    -- PostgreSQL's where it keeps one (scope instance)
    exact_wait_s double precision,  -- and their summed latency
    PRIMARY KEY (run_id, wait_type)
);
COMMENT ON TABLE iobench.run_waits IS 'wait statistics sampled during each run, with the workers'' exact I/O figures beside them';
SELECT pg_catalog.pg_extension_config_dump('iobench.run_waits', '');

CREATE TABLE iobench.run_wait_sampling (
    run_id       bigint PRIMARY KEY REFERENCES iobench.runs ON DELETE CASCADE,
    scope        text NOT NULL CHECK (scope IN ('workers', 'instance')),
    period_ms    integer NOT NULL,
    ticks        bigint NOT NULL,
    missed_ticks bigint NOT NULL,
    sampled_s    double precision NOT NULL
);
COMMENT ON TABLE iobench.run_wait_sampling IS 'how the wait statistics of each run were sampled';
SELECT pg_catalog.pg_extension_config_dump('iobench.run_wait_sampling', '');
