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
SELECT count(*) >= 0 AS readable FROM iobench.suite_comparison, iobench.suite_tests, iobench.run_stalls;
SELECT count(*) > 0 AS compared
  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites WHERE label = 'by iob_suite_user'));
SELECT count(*) >= 0 AS stalls_read
  FROM iobench.stalls((SELECT max(run_id) FROM iobench.runs WHERE label = 'by iob_suite_user'));
SELECT count(*) > 5 AS report_lines
  FROM iobench.report((SELECT max(run_id) FROM iobench.runs WHERE label = 'by iob_suite_user'));
SELECT iobench.run_json((SELECT max(run_id) FROM iobench.runs WHERE label = 'by iob_suite_user'))
         ? 'jobs' AS json_read;
RESET ROLE;

DELETE FROM iobench.suites WHERE label = 'by iob_suite_user';
DELETE FROM iobench.runs WHERE label = 'by iob_suite_user' OR label LIKE 'oltp #%';
DROP OWNED BY iob_suite_user;
DROP ROLE iob_suite_user;
DROP ROLE iob_suite_reader;
