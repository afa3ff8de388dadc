-- latency_search(): raise the load until a latency target is exceeded;
-- every step a stored run, the best one marked.  (The known-answer test
-- on a throttled device is t/031_latency_search.pl.)
SET client_min_messages = warning;

-- a target every step meets: all steps taken, psync so the depth stays 1
-- and the workers grow (1, then 2)
CREATE TEMP TABLE s AS
SELECT * FROM iobench.latency_search(latency_target => '10s', max_workers => 2,
                                     step_duration => '300ms', file_size => '1MB',
                                     engine => 'psync', label => 'search test');
SELECT step, workers, iodepth, outstanding, met_target, latency_percentile
  FROM s ORDER BY step;
-- exactly one best step: the most IOPS, the lightest load within 1 % of it
SELECT count(*) FILTER (WHERE best) = 1 AS one_best,
       (SELECT iops FROM s WHERE best) >= 0.99 * max(iops) AS best_has_most_iops
  FROM s;
-- the search and its steps are stored; the steps are runs
SELECT x.status, x.label, x.tablespace, x.latency_target, x.latency_percentile, x.rw,
       x.block_size, x.max_iodepth, x.max_workers, x.step_duration, x.engine,
       x.best_step = (SELECT step FROM s WHERE best) AS best_stored
  FROM iobench.searches x WHERE x.search_id = (SELECT max(search_id) FROM s);
SELECT bool_and(r.status = 'completed' AND r.workers = s.workers AND r.iodepth = s.iodepth
                AND r.label = 'latency search #' || s.search_id || ': ' || s.workers || ' x QD' || s.iodepth
                AND abs(s.latency_us - r.lat_p99_us) <= 0.1) AS steps_are_runs
  FROM s JOIN iobench.runs r USING (run_id);

-- latency_percentile() reads the histogram as the runs' own percentiles do
SELECT bool_and(abs(iobench.latency_percentile(r.run_id, 50) - r.lat_p50_us) <= 0.01
                AND abs(iobench.latency_percentile(r.run_id, 99.9) - r.lat_p999_us) <= 0.01
                AND iobench.latency_percentile(r.run_id, 100) <= r.lat_max_us
                AND abs(iobench.latency_percentile(r.run_id, 90, 'read') - r.read_lat_p90_us) <= 0.01)
         AS same_as_runs
  FROM s JOIN iobench.runs r USING (run_id);

-- the mean as the target (percentile NULL), and a target the first step
-- misses: the search stops there, no best step, and a NOTICE says so (its
-- DETAIL has the step's latency)
SET client_min_messages = notice;
\set VERBOSITY terse
CREATE TEMP TABLE m AS
SELECT * FROM iobench.latency_search(latency_target => '1 microsecond', latency_percentile => NULL,
                                     max_workers => 2, step_duration => '200ms',
                                     file_size => '1MB', engine => 'psync');
\set VERBOSITY default
SET client_min_messages = warning;
SELECT step, met_target, best, latency_percentile IS NULL AS mean FROM m ORDER BY step;
SELECT best_step IS NULL AS no_best, status FROM iobench.searches
 WHERE search_id = (SELECT max(search_id) FROM m);

-- bad input, refused before anything runs
\set SHOW_CONTEXT never
SELECT count(*) FROM iobench.searches;
SELECT * FROM iobench.latency_search(latency_target => '0s');
SELECT * FROM iobench.latency_search(latency_target => '2h');
SELECT * FROM iobench.latency_search(latency_target => NULL);
SELECT * FROM iobench.latency_search(latency_percentile => 0);
SELECT * FROM iobench.latency_search(latency_percentile => 100.5);
SELECT * FROM iobench.latency_search(max_iodepth => 0);
SELECT * FROM iobench.latency_search(max_iodepth => 2000);
SELECT * FROM iobench.latency_search(max_workers => 0);
SELECT * FROM iobench.latency_search(max_workers => 40);  -- more than iobench.max_workers_per_run
SELECT * FROM iobench.latency_search(rw => 'trim');
SELECT * FROM iobench.latency_search(step_duration => '0s');
SELECT * FROM iobench.latency_search(max_iodepth => 1024, block_size => '16MB');
-- (issue 35) a queue depth that engine psync would drop is refused, naming both
SELECT count(*) FROM iobench.latency_search(max_iodepth => 16, engine => 'psync',
                                            step_duration => '100ms', file_size => '1MB',
                                            latency_target => '10s');
SELECT * FROM iobench.latency_search(tablespace => 'no_such_tablespace');
SELECT count(*) FROM iobench.searches;

DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM iobench.search_steps);
DELETE FROM iobench.searches;
SELECT leftover_files(), running_workers();
