-- benchmark_user: one grant, GRANT iobench_user TO alice, lets a fresh role
-- run benchmarks (run, suite, pgiosim) and read results (report, compare,
-- the tables); without it, each entry point says what to grant.
SET client_min_messages = notice;
SET iobench.progress = off;

\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace2'
CREATE TABLESPACE iob_grant_ts LOCATION :'ts_dir';

-- the extension made the group role: no login, no attributes
SELECT rolname, rolcanlogin, rolsuper, rolcreaterole, rolinherit
  FROM pg_roles WHERE rolname = 'iobench_user';

CREATE ROLE iob_alice LOGIN;
-- a run to read (the owner's)
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync',
                               label => 'grant test');
SELECT max(run_id) AS owner_run FROM iobench.runs \gset

-- without the grant: each entry point refuses with the grant to ask for
\set VERBOSITY default
SET ROLE iob_alice;
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB');
SELECT count(*) FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '200ms',
                                   file_size => '1MB');
SELECT run_id FROM iobench.pgiosim(duration => '200ms', file_size => '1MB', workers => 1,
                                   files => 1);
SELECT count(*) FROM iobench.latency_search(step_duration => '200ms', file_size => '1MB');
SELECT count(*) FROM iobench.report(:owner_run);
SELECT count(*) FROM iobench.stalls(:owner_run);
SELECT count(*) FROM iobench.compare_runs(ARRAY[:owner_run]::bigint[]);
SELECT count(*) FROM iobench.compare(1);
SELECT iobench.run_json(:owner_run) IS NOT NULL;
-- PostgreSQL's own error for the table: documented, no hint possible
SELECT count(*) FROM iobench.runs;
RESET ROLE;

-- the one step
GRANT iobench_user TO iob_alice;

SET ROLE iob_alice;
SELECT status, label FROM iobench.run(duration => '200ms', file_size => '1MB',
                                      engine => 'psync', label => 'by alice');
SELECT max(run_id) AS alice_run FROM iobench.runs WHERE label = 'by alice' \gset
-- (where the kernel refuses io_uring, the QD32 test is skipped and its
-- note says so: the same here as a run)
SET client_min_messages = warning;
SELECT test_no, runs = 1 OR (runs = 0 AND note LIKE 'skipped: iodepth % needs io_uring, which is not available')
         AS ran_or_skipped_without_io_uring
  FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '200ms',
                     file_size => '1MB', engine => 'auto')
 ORDER BY test_no;
SET client_min_messages = notice;
SELECT status, label FROM iobench.pgiosim(duration => '200ms', file_size => '1MB',
                                          workers => 1, files => 1);
SELECT count(*) = 1 AS searched
  FROM iobench.latency_search(latency_target => '10s', max_iodepth => 1,
                              step_duration => '200ms', file_size => '1MB', engine => 'psync');
-- (its runs are over: none is running)
SELECT count(*) = 0 AS running_read_none FROM iobench.running_runs;
SELECT count(*) > 0 AS disk_read FROM iobench.run_disk_seconds WHERE run_id = :alice_run
 HAVING (SELECT disk FROM iobench.runs WHERE run_id = :alice_run) IS NOT NULL
 UNION ALL SELECT true WHERE (SELECT disk FROM iobench.runs WHERE run_id = :alice_run) IS NULL;
SELECT count(*) > 10 AS report_lines FROM iobench.report(:alice_run);
-- every second of I/O is a stall at a latency limit of 1 µs, none at a
-- fraction of 0 and 1 h
SELECT (SELECT count(*) FROM iobench.stalls(:alice_run, max_latency => '1 us'))
       = (SELECT count(DISTINCT second) FROM iobench.run_seconds WHERE run_id = :alice_run AND ops > 0)
       AND NOT EXISTS (SELECT FROM iobench.stalls(:alice_run, min_fraction => 0, max_latency => '1h'))
       AS stalls_read;
SELECT count(*) = 1 AS compared FROM iobench.compare_runs(ARRAY[:alice_run]::bigint[]);
SELECT count(*) = 4 AS compared
  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites));
SELECT (iobench.run_json(:alice_run) -> 'jobs' -> 0 ->> 'jobname') AS jobname;
SELECT count(*) > 0 AS runs_read FROM iobench.runs;
SELECT count(*) > 0 AS seconds_read FROM iobench.run_seconds WHERE run_id = :alice_run;
SELECT count(*) > 0 AS latency_read FROM iobench.run_latency WHERE run_id = :alice_run;
-- the run's reads are in its waits, with the workers' exact count
SELECT bool_or(w.wait_type = 'IO:DataFileRead' AND w.exact_count = r.read_ops) AS waits_read
  FROM iobench.run_wait_stats_all(:alice_run) w, iobench.runs r WHERE r.run_id = :alice_run;
SELECT count(*) > 0 AS suites_read FROM iobench.suite_results;

-- another tablespace needs CREATE on it, granted once to the group role
SELECT run_id FROM iobench.run(tablespace => 'iob_grant_ts', duration => '200ms',
                               file_size => '1MB');
RESET ROLE;
GRANT CREATE ON TABLESPACE iob_grant_ts TO iobench_user;
SET ROLE iob_alice;
SELECT tablespace, status FROM iobench.run(tablespace => 'iob_grant_ts', duration => '200ms',
                                           file_size => '1MB', engine => 'psync');
-- the grant is for running and reading, not for changing results
DELETE FROM iobench.runs WHERE run_id = :alice_run;
SELECT iobench.reset_waits();
RESET ROLE;

-- the 0.1 way, EXECUTE granted to a role directly, still works; PUBLIC's
-- EXECUTE alone does not
CREATE ROLE iob_bob LOGIN;
GRANT USAGE ON SCHEMA iobench TO iob_bob;
GRANT EXECUTE ON FUNCTION iobench.run TO iob_bob;
SET ROLE iob_bob;
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
RESET ROLE;
GRANT EXECUTE ON FUNCTION iobench.run TO PUBLIC;
REVOKE EXECUTE ON FUNCTION iobench.run FROM iob_bob;
SET ROLE iob_bob;
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
RESET ROLE;

-- CREATE EXTENSION in another database finds the role and takes it; a role
-- of that name that can log in is refused
CREATE DATABASE iob_grant_db;
\c iob_grant_db
SET client_min_messages = warning;
CREATE EXTENSION iobench;
DROP EXTENSION iobench;
ALTER ROLE iobench_user LOGIN;
\set VERBOSITY default
-- (no CONTEXT: 18 and later add the extension script's line to it)
\set SHOW_CONTEXT never
CREATE EXTENSION iobench;
\set SHOW_CONTEXT errors
ALTER ROLE iobench_user NOLOGIN;
\c iobench_regression
DROP DATABASE iob_grant_db;
SET client_min_messages = warning;

DELETE FROM iobench.suites WHERE suite_id IN (SELECT suite_id FROM iobench.suite_runs sr
    JOIN iobench.runs r USING (run_id) WHERE r.label IN ('by alice') OR r.tablespace = 'iob_grant_ts');
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM iobench.search_steps);
DELETE FROM iobench.searches;
DELETE FROM iobench.runs WHERE label IN ('grant test', 'by alice', 'pgiosim')
    OR tablespace = 'iob_grant_ts' OR run_id > :owner_run;
REVOKE CREATE ON TABLESPACE iob_grant_ts FROM iobench_user;
DROP TABLESPACE iob_grant_ts;
DROP OWNED BY iob_alice, iob_bob;
DROP ROLE iob_alice, iob_bob;
SELECT public.leftover_files() AS leftover_files;
