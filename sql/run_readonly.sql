-- A run in a read-only transaction (as on a hot standby, see
-- t/021_standby_run.pl): it runs, its row is returned with run_id NULL, a
-- NOTICE says nothing was stored, and nothing is.
SET client_min_messages = notice;
SET iobench.progress = off;
\set VERBOSITY default
SELECT count(*) AS runs_before FROM iobench.runs \gset

BEGIN READ ONLY;
SELECT run_id IS NULL AS not_stored, status, tablespace
  FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
-- what it measured (a stalled disk can leave a 200 ms run without an I/O:
-- with_io_quiet() runs it again, up to five times, without the NOTICEs)
SELECT run_id IS NULL AS not_stored, ops > 0 AS measured, iops > 0 AS has_iops,
       lat_p99_us > 0 AS has_p99, mib_per_s > 0 AS has_mib
  FROM public.with_io_quiet($$SELECT * FROM iobench.run(duration => '200ms',
                                file_size => '1MB', engine => 'psync')$$);
-- pgiosim() is run() with its settings: the same
SELECT run_id IS NULL AS not_stored, status, label
  FROM iobench.pgiosim(duration => '200ms', file_size => '1MB', workers => 1, files => 1);
-- the summary reads the returned row as it would a stored one
SELECT s.run_id, s.status, s.iops > 0 AS has_iops,
       s.throughput LIKE '% MiB/s (% MB/s)' AS rate_shown
  FROM public.with_io_quiet($$SELECT * FROM iobench.run(duration => '200ms',
                                file_size => '1MB', engine => 'psync')$$) AS r,
       LATERAL iobench.summary(r) AS s;
-- a suite is its stored rows: refused
SELECT count(*) FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '100ms',
                                   file_size => '1MB');
ROLLBACK;

-- a cancelled run is not kept either: the error says so
BEGIN READ ONLY;
SET LOCAL statement_timeout = '2s';
SELECT run_id FROM iobench.run(duration => '20s', file_size => '1MB', engine => 'psync');
ROLLBACK;

-- the same with default_transaction_read_only
SET default_transaction_read_only = on;
SELECT run_id IS NULL AS not_stored, status
  FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
RESET default_transaction_read_only;

-- nothing was stored, no file or worker is left
SELECT count(*) = :runs_before AS nothing_stored FROM iobench.runs;
SELECT public.leftover_files() AS leftover_files, public.running_workers() AS running_workers;
