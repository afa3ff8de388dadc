-- size_fuzz: every size and count argument of every entry point, fuzzed by
-- a role granted iobench_user (issue 35): each call ends in an ERROR with a
-- clear message or in a completed run, never in a crash (which would lose
-- this session's connection and every line after it).
--
-- Most calls add a "probe": an argument that is checked after every size
-- check of the call and before anything is created, given a value it
-- refuses.  Its error means the sizes were accepted, without a run of that
-- size; any other error is the size's own.  The sizes that would really
-- run are tiny and short.
SET client_min_messages = warning;
SET iobench.progress = off;
\set VERBOSITY default

SELECT coalesce(max(run_id), 0) AS runs_before FROM iobench.runs \gset
SELECT coalesce(max(search_id), 0) AS searches_before FROM iobench.searches \gset
CREATE ROLE iob_fuzz LOGIN;
GRANT iobench_user TO iob_fuzz;
SET ROLE iob_fuzz;

-- a call's outcome: 'ok', or the SQLSTATE and message of its error; with
-- read_only, the call is made in a read-only transaction, the probe of the
-- functions that check every argument before they refuse to write (until
-- the call ends: the subtransaction of its error undoes the setting)
CREATE FUNCTION pg_temp.outcome(query text, read_only boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    msg text;
BEGIN
    IF read_only THEN
        PERFORM pg_catalog.set_config('transaction_read_only', 'on', true);
    END IF;
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    RETURN SQLSTATE || ': ' || msg;
END
$$;

-- The sizes: 0, 1, below and at the smallest block, the server's block,
-- 2^31-1 blocks, the largest relation (2^32-1 blocks), 2^32 blocks (32 TB,
-- where a 32-bit block count wraps to 0) and one block more, the largest
-- file (1 PB) and past it, 2^63-1 and 2^63 bytes, negative, every unit up
-- to PB (bytes, kB, MB, GB, TB, PB), then 'EB', fractions and garbage.
CREATE TEMP TABLE sizes (n int PRIMARY KEY, size text);
INSERT INTO sizes VALUES
    (1, '0'), (2, '1'), (3, '511'), (4, '512'), (5, '8191'), (6, '8192'),
    (7, '8kB'), (8, '1MB'), (9, '-1'), (10, '-8kB'),
    (11, '17592186036224'),            -- 2^31 - 1 blocks of 8 kB
    (12, '35184372080640'),            -- 2^32 - 1 blocks: the largest relation
    (13, '32TB'),                      -- 2^32 blocks
    (14, '35184372097024'),            -- 2^32 + 1 blocks
    (15, '1TB'), (16, '1PB'), (17, '1025TB'),
    (18, '9223372036854775807'),       -- 2^63 - 1 bytes
    (19, '9223372036854775808'),       -- 2^63 bytes
    (20, '8388608 PB'),                -- 2^63 bytes, in PB
    (21, '1 EB'), (22, '1.5kB'), (23, 'garbage'), (24, ''),
    (25, '1GB'), (26, '8192 bytes');   -- the units not above

-- The calls: {} is the size; each ends with its probe (see above).
-- engine 'postgres' checks its relation's size after the sizes every
-- engine shares: effective_io_concurrency => -1 is refused after it.
-- latency_search() refuses engine 'postgres' before it checks that the
-- block size is a multiple of 512 (the runs it makes are checked again);
-- with engine 'psync' it checks its heaviest step as a run (calls 15 and
-- 16), then refuses a read-only transaction (their probe).
-- sweep_io_workers() is for superusers (it runs ALTER SYSTEM): the granted
-- role is refused before any size; its file_size takes the check of calls
-- 11 and 12 (server_tuning_check()), its block_size run()'s.
CREATE TEMP TABLE calls (n int PRIMARY KEY, call text, read_only boolean NOT NULL DEFAULT false);
INSERT INTO calls (n, call) VALUES
    (1, $$iobench.run(block_size => {}, effective_io_concurrency => 1)$$),
    (2, $$iobench.run(file_size => {}, effective_io_concurrency => 1)$$),
    (3, $$iobench.run(file_size => {}, files => 1024, effective_io_concurrency => 1)$$),
    (4, $$iobench.run(engine => 'postgres', file_size => {}, effective_io_concurrency => -1)$$),
    (5, $$iobench.run(engine => 'postgres', block_size => {}, file_size => '16MB', effective_io_concurrency => -1)$$),
    (6, $$iobench.run(engine => 'postgres', block_size => '16kB', file_size => {}, effective_io_concurrency => -1)$$),
    (7, $$iobench.pgiosim(file_size => {}, warmup => '-1s')$$),
    (8, $$iobench.suite('oltp', ARRAY['pg_default'], file_size => {}, wal_sync_method => 'bogus')$$),
    (9, $$iobench.latency_search(block_size => {}, engine => 'postgres')$$),
    (10, $$iobench.latency_search(file_size => {}, engine => 'postgres')$$),
    (11, $$iobench.server_vs_disk(file_size => {}, concurrencies => '{0}')$$),
    (12, $$iobench.tune_tablespace('pg_default', file_size => {}, concurrencies => '{0}')$$),
    (13, $$iobench.sweep_io_workers(file_size => {})$$),
    (14, $$iobench.sweep_io_workers(block_size => {})$$);
INSERT INTO calls VALUES
    (15, $$iobench.latency_search(engine => 'psync', max_iodepth => 1, block_size => {})$$, true),
    (16, $$iobench.latency_search(engine => 'psync', max_iodepth => 1, file_size => {})$$, true);

CREATE TEMP TABLE outcomes AS
SELECT c.n AS call_no, s.n AS size_no, c.call, s.size,
       pg_temp.outcome('SELECT ' || replace(c.call, '{}', quote_literal(s.size)), c.read_only) AS outcome
  FROM calls c CROSS JOIN sizes s;
-- NULL sizes
INSERT INTO outcomes
SELECT c.n, 27, c.call, NULL, pg_temp.outcome('SELECT ' || replace(c.call, '{}', 'NULL'), c.read_only)
  FROM calls c;

-- every outcome, call by call (the probe's error: the sizes were taken)
SELECT call_no, size_no, size, outcome FROM outcomes ORDER BY call_no, size_no;

-- The counts: 0, 1, -1, the int4 extremes, and their products with the
-- largest sizes (workers x iodepth x block_size, files x file_size).
CREATE TEMP TABLE counts (n int PRIMARY KEY, call text);
INSERT INTO counts VALUES
    (1, $$iobench.run(workers => 0)$$),
    (2, $$iobench.run(workers => -1)$$),
    (3, $$iobench.run(workers => 2147483647)$$),
    (4, $$iobench.run(iodepth => 0)$$),
    (5, $$iobench.run(iodepth => -2147483648)$$),
    (6, $$iobench.run(iodepth => 2147483647)$$),
    (7, $$iobench.run(files => 0)$$),
    (8, $$iobench.run(files => 2147483647)$$),
    (9, $$iobench.run(workers => 4, iodepth => 1024, block_size => '16MB')$$),
    (10, $$iobench.run(workers => 8, iodepth => 64, block_size => '16MB')$$),
    (11, $$iobench.run(workers => 4, iodepth => 64, block_size => '16MB', effective_io_concurrency => 1)$$),
    (12, $$iobench.run(files => 1024, file_size => '1PB', block_size => '16MB', effective_io_concurrency => 1)$$),
    (13, $$iobench.run(fsync_every => -1)$$),
    (14, $$iobench.run(fsync_every => 2147483647, rw => 'write', effective_io_concurrency => 1)$$),
    (15, $$iobench.run(rate_iops => -1)$$),
    (16, $$iobench.run(rate_iops => 2147483647, effective_io_concurrency => 1)$$),
    (17, $$iobench.run(engine => 'postgres', effective_io_concurrency => -2147483648)$$),
    (18, $$iobench.pgiosim(files => 0)$$),
    (19, $$iobench.pgiosim(files => 2147483647)$$),
    (20, $$iobench.pgiosim(workers => 0)$$),
    (21, $$iobench.suite('oltp', ARRAY['pg_default'], repeat => 0)$$),
    (22, $$iobench.suite('oltp', ARRAY['pg_default'], repeat => 2147483647)$$),
    (23, $$iobench.latency_search(max_iodepth => 0)$$),
    (24, $$iobench.latency_search(max_workers => 2147483647)$$),
    (25, $$iobench.latency_search(files => -1)$$),
    (26, $$iobench.latency_search(max_iodepth => 1024, block_size => '16MB', engine => 'auto')$$),
    (27, $$iobench.server_vs_disk(workers => 0)$$),
    (28, $$iobench.server_vs_disk(concurrencies => '{-1}')$$),
    (29, $$iobench.server_vs_disk(concurrencies => '{}')$$),
    (30, $$iobench.tune_tablespace('pg_default', workers => 2147483647)$$),
    (31, $$iobench.tune_tablespace('pg_default', concurrencies => '{2147483647}')$$),
    (32, $$iobench.tune_tablespace('pg_default', cache_miss_pct => 0)$$),
    (33, $$iobench.sweep_io_workers(io_workers => '{0}')$$);
SELECT n, call, pg_temp.outcome('SELECT ' || call) AS outcome FROM counts ORDER BY n;

-- The size helpers: fio's notation (NULL for what is not a plain size),
-- and a size for reading, at the bigint extremes
SELECT s.n, s.size, pg_temp.outcome(format('SELECT iobench.fio_size(%L)', s.size)) AS fio_size_call,
       CASE WHEN pg_temp.outcome(format('SELECT iobench.fio_size(%L)', s.size)) = 'ok'
            THEN iobench.fio_size(s.size) END AS fio_size
  FROM sizes s ORDER BY s.n;
SELECT v, iobench.format_bytes(v)
  FROM unnest(ARRAY[-9223372036854775808, -1, 0, 1, 8192, 35184372080640,
                    9223372036854775807]::bigint[]) AS v;

-- The calls of issue 35 that killed a worker with signal 11 (a block count
-- that wrapped to 0): an ERROR naming file_size and its range
SELECT pg_temp.outcome($$SELECT run_id FROM iobench.run(engine => 'postgres', file_size => '32TB', duration => '1s')$$);
SELECT pg_temp.outcome($$SELECT run_id FROM iobench.run(engine => 'postgres', file_size => '1 PB', duration => '1s')$$);
SELECT pg_temp.outcome($$SELECT run_id FROM iobench.run(engine => 'postgres', file_size => '35184372097024', duration => '1s')$$);
-- the same error in full (the largest relation is in its detail)
SELECT run_id FROM iobench.run(engine => 'postgres', file_size => '32TB', duration => '1s');

-- Sizes that really run, tiny and short: each completes
SELECT status, file_size, block_size
  FROM iobench.run(file_size => '512', block_size => '512', duration => '100ms', engine => 'psync');
SELECT status, file_size, block_size
  FROM iobench.run(file_size => '8kB', block_size => '8kB', duration => '100ms', engine => 'psync',
                   direct => false, files => 2, workers => 2);
-- (engine postgres: "invalid" where the page cache served more than 1 % of
-- the reads, as the kernel's read-ahead may on a relation this small; its
-- WARNING says so, hence client_min_messages)
SET client_min_messages = error;
SELECT status IN ('completed', 'invalid') AS ran, file_size, block_size
  FROM iobench.run(engine => 'postgres', file_size => '8MB', block_size => '16kB', duration => '100ms');
SET client_min_messages = warning;
SELECT status, file_size FROM iobench.pgiosim(file_size => '8kB', files => 1, workers => 1,
                                               duration => '100ms');
SELECT count(*) = 1 AS searched
  FROM iobench.latency_search(latency_target => '10s', max_iodepth => 1, step_duration => '100ms',
                              file_size => '8kB', engine => 'psync');
RESET ROLE;

-- The fleet calls, for the owner of iobench (iobench_user does not give
-- them): each size goes to the run() of every server (here iob_loop_a, this
-- database through dblink), whose error comes back as the server's row.
-- fleet_run()'s probe is effective_io_concurrency, as for run();
-- fleet_suite()'s a label longer than run() takes (its length, which
-- differs per test, left out), sent to every test, the WAL test too.
SELECT coalesce(max(fleet_id), 0) AS fleets_before FROM iobench.fleets \gset
-- a fleet call's outcome: its error, or what the servers' rows said
CREATE FUNCTION pg_temp.fleet_outcome(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    msg text;
BEGIN
    EXECUTE format($q$SELECT string_agg(DISTINCT said, '; ' ORDER BY said)
                        FROM (SELECT (f.status || ': ' || coalesce(regexp_replace(f.error,
                                 'is \d+ characters long', 'is too long'), '')) COLLATE "C" AS said
                                FROM %s f) s$q$, query)
       INTO msg;
    RETURN msg;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    RETURN SQLSTATE || ': ' || msg;
END
$$;
CREATE TEMP TABLE fleet_calls (n int PRIMARY KEY, call text);
INSERT INTO fleet_calls VALUES
    (1, $$iobench.fleet_run(ARRAY['iob_loop_a'], jsonb_build_object('file_size', {}, 'effective_io_concurrency', 1),
                            concurrent => false)$$),
    (2, $$iobench.fleet_run(ARRAY['iob_loop_a'], jsonb_build_object('block_size', {}, 'effective_io_concurrency', 1),
                            concurrent => false)$$),
    (3, $$iobench.fleet_suite('oltp', ARRAY['iob_loop_a'], file_size => {}, concurrent => false,
                              label => repeat('x', 1025))$$);
CREATE TEMP TABLE fleet_outcomes AS
SELECT c.n AS call_no, s.n AS size_no, s.size,
       pg_temp.fleet_outcome(replace(c.call, '{}', coalesce(quote_literal(s.size), 'NULL::text'))) AS outcome
  FROM fleet_calls c CROSS JOIN (SELECT n, size FROM sizes UNION ALL SELECT 27, NULL) s;
SELECT call_no, size_no, size, outcome FROM fleet_outcomes ORDER BY call_no, size_no;

-- the calls made: sizes (and NULL) x calls, counts, the helpers (fio_size
-- on each size, format_bytes on 7 values), issue 35's three and its one in
-- full, five runs, the fleet calls
SELECT (SELECT count(*) FROM outcomes) + (SELECT count(*) FROM counts)
       + (SELECT count(*) FROM sizes) + 7 + 3 + 1 + 5
       + (SELECT count(*) FROM fleet_outcomes) AS calls;
-- every one was refused or completed; nothing is left behind
SELECT leftover_files(), running_workers();
-- (the relation of its engine-postgres runs; a test before it may have
-- left the scan relation of server_vs_disk() there too)
SELECT iobench.drop_read_targets('pg_default') >= 1 AS dropped;
SELECT NOT EXISTS (SELECT FROM iobench.read_targets WHERE tablespace = 'pg_default') AS none_left;
DELETE FROM iobench.searches WHERE search_id > :searches_before;
DELETE FROM iobench.runs WHERE run_id > :runs_before;
DELETE FROM iobench.fleets WHERE fleet_id > :fleets_before;
DROP OWNED BY iob_fuzz;
DROP ROLE iob_fuzz;
