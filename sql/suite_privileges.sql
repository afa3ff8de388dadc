-- Starting runs needs a grant (pgiosim, suite); reading results is for
-- pg_monitor (report, stalls, comparison, JSON, the new tables and views).
SET client_min_messages = warning;
\set VERBOSITY default
\set SHOW_CONTEXT never

CREATE ROLE iob_suite_user LOGIN;
CREATE ROLE iob_suite_reader LOGIN IN ROLE pg_monitor;
GRANT USAGE ON SCHEMA iobench TO iob_suite_user;

-- no EXECUTE without a grant
SET ROLE iob_suite_user;
SELECT run_id FROM iobench.pgiosim(duration => '100ms', file_size => '1MB');
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default']);
RESET ROLE;

GRANT EXECUTE ON FUNCTION iobench.pgiosim, iobench.suite, iobench.run TO iob_suite_user;
SET ROLE iob_suite_user;
SELECT status, label, write_ops > 0 AS rewrites
  FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 1, workers => 1, duration => '200ms', file_size => '1MB',
                       label => 'by iob_suite_user')$$);
SELECT test_no, runs, note IS NOT NULL AS noted
  FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '100ms', file_size => '1MB',
                     engine => 'psync', label => 'by iob_suite_user')
 ORDER BY test_no;
-- nor can users who may run benchmarks read or forge results
SELECT count(*) FROM iobench.suites;
SELECT * FROM iobench.stalls((SELECT 1::bigint));
INSERT INTO iobench.suites (name, status, started_at, tablespaces, repeat, duration, warmup,
                            file_size, direct, engine)
VALUES ('forged', 'completed', now(), '{pg_default}', 1, '1s', '0s', 1, true, 'auto');
RESET ROLE;

-- pg_monitor reads everything
SET ROLE iob_suite_reader;
SELECT s.name, s.status, count(sr.*) AS members
  FROM iobench.suites s JOIN iobench.suite_runs sr USING (suite_id)
 WHERE s.label = 'by iob_suite_user' GROUP BY 1, 2;
SELECT count(*) > 0 AS readable FROM iobench.suite_results WHERE suite = 'oltp';
-- the suite's tests, and the suite on its one tablespace beside itself:
-- a ratio of 1 where a test measured anything
SELECT count(*) AS oltp_tests FROM iobench.suite_tests WHERE suite = 'oltp';
SELECT count(*) AS compared_tests,
       bool_and(tablespace = base_tablespace
                AND iops_ratio IS NOT DISTINCT FROM (CASE WHEN iops > 0 THEN 1 END)) AS own_baseline
  FROM iobench.suite_comparison
 WHERE suite_id = (SELECT max(suite_id) FROM iobench.suites WHERE label = 'by iob_suite_user');
SELECT count(*) > 0 AS compared
  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites WHERE label = 'by iob_suite_user'));
SELECT max(run_id) AS pgiosim_run FROM iobench.runs WHERE label = 'by iob_suite_user' \gset
-- the pgiosim run's stalls (writes + fsyncs over 1 s), each counted and listed
SELECT stall_count = (SELECT count(*) FROM iobench.run_stalls t WHERE t.run_id = r.run_id) AS stalls_listed
  FROM iobench.runs r WHERE r.run_id = :pgiosim_run;
-- its slow seconds: every second of I/O at a latency limit of 1 µs, none
-- at a fraction of 0 and 1 h
SELECT (SELECT count(*) FROM iobench.stalls(:pgiosim_run, max_latency => '1 us'))
       = (SELECT count(DISTINCT second) FROM iobench.run_seconds WHERE run_id = :pgiosim_run AND ops > 0)
       AND NOT EXISTS (SELECT FROM iobench.stalls(:pgiosim_run, min_fraction => 0, max_latency => '1h'))
       AS stalls_read;
SELECT count(*) > 5 AS report_lines FROM iobench.report(:pgiosim_run);
SELECT iobench.run_json(:pgiosim_run) ? 'jobs' AS json_read;
RESET ROLE;

DELETE FROM iobench.suites WHERE label = 'by iob_suite_user';
DELETE FROM iobench.runs WHERE label = 'by iob_suite_user' OR label LIKE 'oltp #%';
DROP OWNED BY iob_suite_user;
DROP ROLE iob_suite_user;
DROP ROLE iob_suite_reader;
