-- suite(): named suites run on two tablespaces, stored, compared.
SET client_min_messages = warning;

\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
\set ts_dir2 :abs_builddir '/testtablespace2'
CREATE TABLESPACE iob_suite_a LOCATION :'ts_dir';
CREATE TABLESPACE iob_suite_b LOCATION :'ts_dir2';

-- the suites and their tests can be listed
SELECT suite, count(*) AS tests, min(test_no) AS first, max(test_no) AS last
  FROM iobench.suite_tests GROUP BY suite ORDER BY suite;
SELECT test_no, test, rw, block_size, workers * iodepth AS in_flight, files
  FROM iobench.suite_tests WHERE suite = 'sqlio' ORDER BY test_no;

-- oltp on both tablespaces, twice each.  QD32 runs on io_uring where the
-- kernel allows it and is skipped (and says so) where it does not.
CREATE TEMP TABLE o AS
SELECT * FROM iobench.suite('oltp', ARRAY['iob_suite_a', 'iob_suite_b'], repeat => 2,
                            duration => '300ms', file_size => '1MB', label => 'suite test');
SELECT test_no, test, tablespace_no, tablespace,
       CASE WHEN test_no = 2
            THEN (runs = 2 AND engine = 'io_uring' AND iodepth = 32 AND note IS NULL)
              OR (runs = 0 AND note = 'skipped: iodepth 32 needs io_uring, which is not available')
            -- the WAL test writes as the server's WAL writer (with pwrite(),
            -- whatever the suite's engine), and says how; its latencies are
            -- its commits' (a write and its sync)
            WHEN test_no = 4
            THEN runs = 2 AND iodepth = 1 AND engine = 'psync'
                 AND note = format('as the WAL writer with wal_sync_method %s (the server''s): buffered 8 kB writes into a %s segment, %s after each; latencies per commit (a write and its sync)',
                                   current_setting('wal_sync_method'),
                                   pg_size_pretty(pg_size_bytes(current_setting('wal_segment_size'))),
                                   current_setting('wal_sync_method'))
            ELSE runs = 2 AND iodepth = 1 AND note IS NULL
       END AS ran_or_skipped_honestly,
       -- a test that ran has a mean, and a standard deviation from two
       -- runs on; a skipped one has neither (the figures themselves are
       -- compared with those of the runs below)
       (iops IS NOT NULL AND mb_per_s IS NOT NULL) = (runs > 0)
         AND (iops_stddev IS NOT NULL AND mb_per_s_stddev IS NOT NULL) = (runs > 1) AS mean_and_stddev
  FROM o ORDER BY test_no, tablespace_no;

-- the suite is stored, and its runs belong to it (QD32, which depends on
-- io_uring, has two runs per tablespace or one skipped member)
SELECT s.name, s.status, s.label, s.tablespaces, s.repeat, s.duration, s.file_size,
       s.direct, s.engine, s.seed, s.finished_at >= s.started_at AS finished
  FROM iobench.suites s WHERE s.suite_id = (SELECT max(suite_id) FROM o);
SELECT sr.test_no, sr.tablespace, count(*) AS members, count(r.run_id) AS runs,
       bool_and(r.run_id IS NULL OR (r.tablespace = sr.tablespace AND r.status = 'completed'
                AND r.label = 'oltp #' || sr.suite_id || ': ' || sr.test)) AS runs_match
  FROM iobench.suite_runs sr LEFT JOIN iobench.runs r USING (run_id)
 WHERE sr.suite_id = (SELECT max(suite_id) FROM o) AND sr.test_no <> 2
 GROUP BY sr.test_no, sr.tablespace ORDER BY 1, 2;
SELECT sr.tablespace,
       (count(*) = 2 AND count(sr.run_id) = 2) OR (count(*) = 1 AND count(sr.run_id) = 0)
         AS qd32_ran_or_skipped
  FROM iobench.suite_runs sr
 WHERE sr.suite_id = (SELECT max(suite_id) FROM o) AND sr.test_no = 2
 GROUP BY sr.tablespace ORDER BY 1;
-- the settings of each test reached its runs
SELECT DISTINCT sr.test_no, r.rw, r.block_size, r.workers, r.files, r.fsync_every, r.sync_method
  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
 WHERE sr.suite_id = (SELECT max(suite_id) FROM o) AND sr.test_no <> 2
 ORDER BY 1;
-- the WAL test: the server's method, one file of a WAL segment, buffered
-- as the server writes WAL at wal_level replica
SELECT bool_and(r.sync_method = current_setting('wal_sync_method')
                AND r.file_size = pg_size_bytes(current_setting('wal_segment_size'))
                AND NOT r.direct AND r.rw = 'write' AND r.block_size = 8192) AS wal_as_server,
       -- and measures its commits (a write and its sync: each write here)
       bool_and(r.commit_ops IS NOT NULL AND abs(r.commit_ops - r.write_ops) <= 1) AS commits_measured
  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
 WHERE sr.suite_id = (SELECT max(suite_id) FROM o) AND sr.test_no = 4;
-- the mean and standard deviation are those of the runs
SELECT bool_and(o.iops = round(x.m::numeric, 1) AND o.iops_stddev = round(x.sd::numeric, 1)) AS stats_agree
  FROM o JOIN (SELECT sr.test_no, sr.tablespace, avg(r.iops) AS m, stddev_samp(r.iops) AS sd
                 FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
                WHERE sr.suite_id = (SELECT max(suite_id) FROM o)
                GROUP BY 1, 2) x USING (test_no, tablespace);

-- side by side: a column set per tablespace, ratios to the first one
-- (rounded to 2 decimals, but to two significant digits at least)
CREATE FUNCTION pg_temp.ratio(a numeric, b numeric) RETURNS numeric
LANGUAGE sql AS $$
    SELECT round(a / nullif(b, 0), greatest(2, 1 - floor(log(abs(nullif(a / nullif(b, 0), 0))))::integer))
$$;
SELECT test_no, base_tablespace, tablespace,
       iops_ratio IS NOT DISTINCT FROM pg_temp.ratio(iops, base_iops) AS iops_ratio_ok,
       mb_per_s_ratio IS NOT DISTINCT FROM pg_temp.ratio(mb_per_s, base_mb_per_s) AS mbps_ratio_ok,
       p99_ratio IS NOT DISTINCT FROM pg_temp.ratio(p99_us, base_p99_us) AS p99_ratio_ok,
       tablespace <> base_tablespace OR base_iops = 0
         OR (iops_ratio = 1 AND coalesce(p99_ratio, 1) = 1) AS baseline_is_1
  FROM iobench.compare((SELECT max(suite_id) FROM o))
 WHERE test_no <> 2
 ORDER BY test_no, tablespace;
-- another baseline
SELECT DISTINCT base_tablespace
  FROM iobench.compare((SELECT max(suite_id) FROM o), baseline => 'iob_suite_b');
-- the view has every suite, with the first tablespace as baseline (a
-- skipped test has its rows too, without figures)
SELECT count(*) AS rows, bool_and(base_tablespace = 'iob_suite_a') AS first_is_baseline
  FROM iobench.suite_comparison WHERE suite_id = (SELECT max(suite_id) FROM o);
-- any runs side by side
SELECT count(*) AS runs, bool_and(baseline_run = x.ids[1]) AS first_is_baseline,
       bool_and(iops_ratio IS NOT DISTINCT FROM pg_temp.ratio(iops, base_iops)) AS ratios_ok
  FROM (SELECT array_agg(run_id ORDER BY run_id) AS ids FROM iobench.suite_runs
         WHERE suite_id = (SELECT max(suite_id) FROM o) AND test_no = 1) x,
       iobench.compare_runs(x.ids);

-- sqlio with engine psync: eleven tests, each at iodepth 1 and saying so
SELECT test_no, test, runs, workers, iodepth, engine, note
  FROM iobench.suite('sqlio', ARRAY['iob_suite_b'], duration => '100ms', file_size => '1MB',
                     engine => 'psync', direct => false, seed => 42)
 ORDER BY test_no;
SELECT status, seed, direct, engine FROM iobench.suites WHERE name = 'sqlio';

-- a cancel fails the suite's statement with 57014 like any statement; the
-- suite is kept as cancelled with the runs done before and the cancelled
-- one (stored by a process that commits on its own), its DETAIL says so.
-- On a tablespace group, so that the kept runs carry per-tablespace rows.
SELECT coalesce(max(suite_id), 0) AS suites_before FROM iobench.suites \gset
-- (the timeout falls in the middle of the second test's 2 s, with most of
-- a second to spare either side, so a slow machine moves it little)
SET statement_timeout = '3s';
DO $$
DECLARE s text; d text;
BEGIN
    PERFORM * FROM iobench.suite('oltp', ARRAY['iob_suite_a+iob_suite_b'], duration => '2s',
                                 file_size => '1MB', engine => 'psync');
EXCEPTION WHEN query_canceled THEN
    GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
    RAISE WARNING 'sqlstate %, detail: %', s,
        regexp_replace(d, '\d+', 'N', 'g');
END
$$;
RESET statement_timeout;
SELECT s.status, count(sr.run_id) >= 2 AS runs_kept,
       count(*) FILTER (WHERE r.status = 'completed') >= 1 AS completed_kept,
       count(*) FILTER (WHERE r.status = 'cancelled') AS cancelled_kept,
       bool_and(r.label = 'oltp #' || s.suite_id || ': ' || sr.test) AS labels_match
  FROM iobench.suites s JOIN iobench.suite_runs sr USING (suite_id)
  JOIN iobench.runs r USING (run_id)
 WHERE s.suite_id > :suites_before
 GROUP BY s.status;
-- the kept runs are whole: their per-second rows and, for the completed
-- ones, a row per tablespace of the group came along
SELECT bool_and(EXISTS (SELECT FROM iobench.run_seconds x WHERE x.run_id = sr.run_id)) AS seconds_kept,
       bool_and((SELECT count(*) FROM iobench.run_tablespaces x WHERE x.run_id = sr.run_id) = 2)
         FILTER (WHERE r.status = 'completed') AS tablespaces_kept
  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
 WHERE sr.suite_id > :suites_before;
-- and no run of it is left listed as interrupted
SELECT count(*) AS listed_running FROM iobench.running_runs;

-- every argument is checked
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT * FROM iobench.suite('bogus', ARRAY['pg_default']);
SELECT * FROM iobench.suite(NULL, ARRAY['pg_default']);
SELECT * FROM iobench.suite('oltp', NULL);
SELECT * FROM iobench.suite('oltp', ARRAY[]::name[]);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default', NULL]);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default', 'pg_default']);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default+']);
SELECT * FROM iobench.suite('oltp', ARRAY['+pg_default']);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default++pg_global']);
SELECT * FROM iobench.suite('oltp', ARRAY[['pg_default'], ['pg_global']]);
SELECT * FROM iobench.suite('oltp', ARRAY['no_such_tablespace']);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_global']);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], repeat => 0);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], repeat => 101);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '0s');
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], warmup => '-1s');
SELECT * FROM iobench.suite('sqlio', ARRAY['pg_default'], file_size => '512kB');
SELECT * FROM iobench.suite('sqlio', ARRAY['pg_default'], file_size => '1536kB');
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], direct => NULL);
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], engine => 'spdk');
SET iobench.io_uring = off;
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], engine => 'io_uring');
RESET iobench.io_uring;

-- every test of a suite is checked too: the CHECKs of iobench.suite_tests
-- refuse a test that no run could do
\set SHOW_CONTEXT errors
PREPARE bad_test(text, text, integer, integer, integer, integer) AS
INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers, iodepth, files, fsync_every)
VALUES ('bad', 1, $1, 'randread', $2, $3, $4, $5, $6);
EXECUTE bad_test('no block', '0', 1, 1, 1, 0);
EXECUTE bad_test('part of a sector', '1000', 1, 1, 1, 0);
EXECUTE bad_test('no unit pg_size_bytes knows', '8k', 1, 1, 1, 0);
EXECUTE bad_test('huge blocks', '32MB', 1, 1, 1, 0);
EXECUTE bad_test('16 GB per worker', '16MB', 1, 1024, 1, 0);
EXECUTE bad_test('8 GB in all', '128kB', 64, 1024, 1, 0);
EXECUTE bad_test('too many files', '8kB', 1, 1, 5000, 0);
EXECUTE bad_test('syncs without writes', '8kB', 1, 1, 1, 16);
DEALLOCATE bad_test;

-- and iobench.suite() checks each test as a run before it stores anything,
-- naming the test (here with the CHECKs out of the way)
SELECT last_value AS suite_seq_before FROM iobench.suites_suite_id_seq \gset
BEGIN;
ALTER TABLE iobench.suite_tests
  DROP CONSTRAINT suite_tests_block_size_check,
  DROP CONSTRAINT suite_tests_buffers_check,
  DROP CONSTRAINT suite_tests_files_check,
  DROP CONSTRAINT suite_tests_sync_needs_writes_check;
INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers, iodepth, files)
VALUES ('bad', 1, 'fine', 'randread', '8kB', 1, 1, 1),
       ('bad', 2, 'the bad one', 'randread', '0', 1, 1, 1);
SAVEPOINT checked;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK TO checked;
UPDATE iobench.suite_tests SET block_size = '1000' WHERE suite = 'bad' AND test_no = 2;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK TO checked;
UPDATE iobench.suite_tests SET block_size = '8GB' WHERE suite = 'bad' AND test_no = 2;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK TO checked;
UPDATE iobench.suite_tests SET block_size = '16MB', iodepth = 1024 WHERE suite = 'bad' AND test_no = 2;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '16MB');
ROLLBACK TO checked;
-- (64 workers are held to the 28 that max_worker_processes leaves: 7 GB)
UPDATE iobench.suite_tests SET block_size = '256kB', iodepth = 1024, workers = 64
 WHERE suite = 'bad' AND test_no = 2;
SET LOCAL iobench.max_workers_per_run = 64;
SET LOCAL iobench.max_workers_total = 64;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK TO checked;
UPDATE iobench.suite_tests SET block_size = '8kB', files = 5000 WHERE suite = 'bad' AND test_no = 2;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK TO checked;
UPDATE iobench.suite_tests SET block_size = '8kB', fsync_every = 16 WHERE suite = 'bad' AND test_no = 2;
SELECT * FROM iobench.suite('bad', ARRAY['pg_default'], file_size => '1MB');
ROLLBACK;
-- no suite row was inserted, not even one rolled back since
SELECT last_value = :suite_seq_before AS no_suite_inserted FROM iobench.suites_suite_id_seq;
SELECT count(*) AS bad_tests FROM iobench.suite_tests WHERE suite = 'bad';

-- a test with more workers than iobench.max_workers_per_run allows runs
-- with fewer, and its row says so (2 slots: a worker and the recorder)
INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers, iodepth, files)
VALUES ('tiny', 1, '8 kB random read, 2 workers, QD4', 'randread', '8kB', 2, 4, 1);
SET iobench.max_workers_per_run = 2;
SELECT test_no, runs, workers, iodepth, note
  FROM iobench.suite('tiny', ARRAY['iob_suite_a'], duration => '100ms', file_size => '1MB',
                     engine => 'psync');
RESET iobench.max_workers_per_run;
SELECT DISTINCT r.workers, sr.note
  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
  JOIN iobench.suites s USING (suite_id) WHERE s.name = 'tiny';
DELETE FROM iobench.suites WHERE name = 'tiny';
DELETE FROM iobench.suite_tests WHERE suite = 'tiny';
\set SHOW_CONTEXT never

-- the caller picks the WAL test's sync method: open_datasync is O_DIRECT
-- with O_DSYNC and no sync call, as pg_test_fsync measures it
-- (a stalled disk can leave a 200 ms test without a write: the suite runs
-- again, up to five times, until its WAL test wrote)
CREATE TEMP TABLE w AS
SELECT * FROM iobench.suite('oltp', ARRAY['iob_suite_a']) WITH NO DATA;
DO $$
BEGIN
    FOR i IN 1 .. 5 LOOP
        DELETE FROM iobench.runs WHERE run_id IN
            (SELECT run_id FROM iobench.suite_runs WHERE suite_id IN (SELECT suite_id FROM w));
        DELETE FROM iobench.suites WHERE suite_id IN (SELECT suite_id FROM w);
        DELETE FROM w;
        INSERT INTO w
        SELECT * FROM iobench.suite('oltp', ARRAY['iob_suite_a'], duration => '200ms',
                                    file_size => '1MB', wal_sync_method => 'open_datasync');
        EXIT WHEN (SELECT r.write_ops > 0
                     FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
                    WHERE sr.suite_id = (SELECT max(suite_id) FROM w) AND sr.test_no = 4);
    END LOOP;
END
$$;
SELECT r.sync_method, r.direct, r.engine, r.fsync_every, r.fsync_ops, r.write_ops > 0 AS wrote,
       sr.note
  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
 WHERE sr.suite_id = (SELECT max(suite_id) FROM w) AND sr.test_no = 4;
SELECT iobench.suite('oltp', ARRAY['iob_suite_a'], wal_sync_method => 'fsync_writethrough');

SELECT leftover_files(), running_workers();
DELETE FROM iobench.runs WHERE tablespace IN ('iob_suite_a', 'iob_suite_b');
DROP TABLESPACE iob_suite_a;
DROP TABLESPACE iob_suite_b;

