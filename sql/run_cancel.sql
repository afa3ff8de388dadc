-- Cancel stops the workers, removes the files and stores the run as
-- "cancelled" with what was measured until then.
SET client_min_messages = warning;

SET statement_timeout = '700ms';
SELECT status, duration, measured_s < 1 AS stopped_early, ops > 0 AS measured_something
  FROM iobench.run(duration => '30s', file_size => '8MB', workers => 2, engine => 'psync',
                   label => 'cancel me');
RESET statement_timeout;

SELECT leftover_files(), running_workers();

-- the cancelled run is stored with its time series
SELECT r.status, r.label, count(s.*) > 0 AS has_seconds
  FROM iobench.runs r LEFT JOIN iobench.run_seconds s USING (run_id)
 WHERE r.label = 'cancel me'
 GROUP BY r.status, r.label;

-- cancel while the files are still being written: stored without figures
SET statement_timeout = '50ms';
SELECT status FROM iobench.run(duration => '30s', file_size => '512MB', files => 1,
                               engine => 'psync', label => 'cancel early');
RESET statement_timeout;
SELECT count(*) AS early_runs FROM iobench.runs WHERE label = 'cancel early' AND ops > 0;
SELECT leftover_files(), running_workers();

-- an error inside a transaction block after the run: the files are gone too
BEGIN;
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
SELECT 1 / 0;
ROLLBACK;
SELECT leftover_files(), running_workers();
