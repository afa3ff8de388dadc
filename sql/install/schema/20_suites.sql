-- The suites iobench.suite() runs (with their built-in tests) and the suites it ran.

-- The tests of each named suite.  A superuser may add suites by adding rows.
-- The CHECKs hold the limits of iobench.run() that no setting changes
-- (block size, workers, iodepth, files, buffer memory), taken at build time
-- from src/run/run_validate.h and src/base/settings.h (@NAME@, see the Makefile); before it
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
    workers      integer NOT NULL CHECK (workers BETWEEN 1 AND @IOB_MAX_WORKERS_PER_RUN@),
    iodepth      integer NOT NULL CHECK (iodepth BETWEEN 1 AND @IOB_MAX_IODEPTH@),
    files        integer NOT NULL CHECK (files BETWEEN 1 AND @IOB_MAX_FILES@),
    fsync_every  integer NOT NULL DEFAULT 0 CHECK (fsync_every >= 0),
    -- as run()'s sync_method, or 'wal': write as the server's WAL writer
    -- does (its wal_sync_method, or suite()'s; 8 kB pages into one file of
    -- wal_segment_size; the other settings of the row are not used)
    sync_method  text NOT NULL DEFAULT 'fsync' CHECK (sync_method IN ('fsync', 'fdatasync', 'open_datasync', 'open_sync', 'wal')),
    needs_uring  boolean NOT NULL DEFAULT false, -- without io_uring: skip, rather than run at iodepth 1
    description  text,
    PRIMARY KEY (suite, test_no),
    CONSTRAINT suite_tests_block_size_check CHECK (
        CASE WHEN block_size ~ '^[0-9]+ ?(bytes|kB|MB)?$'
             THEN pg_catalog.pg_size_bytes(block_size) BETWEEN @IOB_MIN_BLOCK_SIZE@ AND @IOB_MAX_BLOCK_SIZE@
                  AND pg_catalog.pg_size_bytes(block_size) % @IOB_MIN_BLOCK_SIZE@ = 0
             ELSE false
        END),
    -- I/O buffers: iodepth x block_size per worker at most 1 GB, and
    -- workers x iodepth x block_size per run at most 4 GB
    CONSTRAINT suite_tests_buffers_check CHECK (
        CASE WHEN block_size ~ '^[0-9]+ ?(bytes|kB|MB)?$'
             THEN pg_catalog.pg_size_bytes(block_size) * iodepth <= @IOB_MAX_WORKER_BUFFERS@
                  AND pg_catalog.pg_size_bytes(block_size) * iodepth * workers <= @IOB_MAX_RUN_BUFFERS@
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
    ('sqlio',  1, 'data: 8 kB random write',       'randwrite', '8kB',   4, 8, 2, 'checkpoints, tempdb'),
    ('sqlio',  2, 'data: 8 kB random read',        'randread',  '8kB',   4, 8, 2, 'singleton lookups'),
    ('sqlio',  3, 'log: 64 kB sequential write',   'write',     '64kB',  4, 8, 1, 'bulk log writes'),
    ('sqlio',  4, 'log: 8 kB random read',         'randread',  '8kB',   4, 8, 1, 'rollbacks, log readers'),
    ('sqlio',  5, 'log: 1 kB sequential write',    'write',     '1kB',   4, 8, 1, 'small log writes'),
    ('sqlio',  6, 'data: 64 kB sequential write',  'write',     '64kB',  4, 8, 2, 'checkpoints, index builds, bulk loads'),
    ('sqlio',  7, 'data: 64 kB sequential read',   'read',      '64kB',  4, 8, 2, 'read-ahead, index builds, consistency checks'),
    ('sqlio',  8, 'data: 128 kB sequential read',  'read',      '128kB', 4, 8, 2, 'read-ahead, index builds'),
    ('sqlio',  9, 'data: 128 kB sequential write', 'write',     '128kB', 4, 8, 2, 'bulk loads, index builds'),
    ('sqlio', 10, 'data: 256 kB sequential read',  'read',      '256kB', 4, 8, 2, 'read-ahead, index builds'),
    ('sqlio', 11, 'data: 1 MB sequential read',    'read',      '1MB',   4, 8, 2, 'backups');

-- oltp: what a PostgreSQL server asks of its disks.
INSERT INTO iobench.suite_tests
    (suite, test_no, test, rw, block_size, workers, iodepth, files, fsync_every,
     sync_method, needs_uring, description)
VALUES
    ('oltp', 1, '8 kB random read, QD1',               'randread',  '8kB', 1,  1, 2,  0, 'fsync',     false, 'a backend reading a page it misses'),
    ('oltp', 2, '8 kB random read, QD32',              'randread',  '8kB', 1, 32, 2,  0, 'fsync',     true,  'many backends, or prefetching, reading at once'),
    ('oltp', 3, '8 kB random write, fsync every 16',   'randwrite', '8kB', 1,  1, 2, 16, 'fsync',     false, 'checkpointer writing and syncing data files'),
    ('oltp', 4, 'WAL: 8 kB sequential write + sync, as the server', 'write', '8kB', 1, 1, 1, 1, 'wal', false, 'commits: each WAL page written and made durable as wal_sync_method says');
-- pg_dump keeps the suites and tests users add, not the built-in tests
-- above (CREATE EXTENSION makes those; a built-in test changed by hand
-- comes back as built).
SELECT pg_catalog.pg_extension_config_dump('iobench.suite_tests',
    $$WHERE NOT (suite = 'sqlio' AND test_no BETWEEN 1 AND 11 OR suite = 'oltp' AND test_no BETWEEN 1 AND 4)$$);

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
SELECT pg_catalog.pg_extension_config_dump('iobench.suites', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.suites_suite_id_seq', '');

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
SELECT pg_catalog.pg_extension_config_dump('iobench.suite_runs', '');
