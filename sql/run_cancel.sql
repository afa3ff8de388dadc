-- A run that ends before its end fails its statement with the error that
-- ended it (57014 for a cancel, as any statement does).  The partial run is
-- stored by a process that commits on its own: it stays although the
-- statement failed, the error's DETAIL names it, and its totals equal the
-- sums of its per-second rows and of its histogram buckets, however the
-- run ended.
SET client_min_messages = warning;

-- how each run ended: the error's SQLSTATE, message and the run it names
CREATE TEMP TABLE ending (how text, sqlstate text, message text, run_id bigint);

-- Totals equal the per-second sums and the histogram sums, per op kind
CREATE FUNCTION pg_temp.adds_up(id bigint) RETURNS boolean
LANGUAGE sql AS $$
    SELECT bool_and(coalesce(t.ops, 0) = coalesce(s.ops, 0)
                    AND coalesce(t.ops, 0) = coalesce(h.ops, 0)
                    AND coalesce(t.bytes, 0) = coalesce(s.bytes, 0))
      FROM iobench.runs r
     CROSS JOIN LATERAL (VALUES ('read', r.read_ops, r.read_bytes),
                                ('write', r.write_ops, r.write_bytes),
                                ('fsync', r.fsync_ops, 0::bigint)) AS t(op, ops, bytes)
      LEFT JOIN (SELECT op, sum(ops) AS ops, sum(bytes) AS bytes
                   FROM iobench.run_seconds WHERE run_id = id GROUP BY op) s USING (op)
      LEFT JOIN (SELECT op, sum(count) AS ops
                   FROM iobench.run_latency WHERE run_id = id GROUP BY op) h USING (op)
     WHERE r.run_id = id
$$;

-- Record the error a statement ended with
CREATE FUNCTION pg_temp.record(how text, sqlstate text, message text, detail text)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO ending
    VALUES (how, sqlstate, message,
            substring(detail from 'stored as run (\d+) ')::bigint)
$$;

-- 1. statement_timeout: 57014, the run is kept.  The timeouts of the
-- cancels below that expect a stored run leave the run time to write its
-- files and start measuring (a run cancelled before it measures stores
-- nothing) on a slow or busy disk
SET statement_timeout = '2s';
DO $$
DECLARE s text; m text; d text;
BEGIN
    PERFORM iobench.run(duration => '30s', file_size => '8MB', workers => 2,
                        engine => 'psync', label => 'cancel me');
EXCEPTION WHEN query_canceled THEN
    GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
    PERFORM pg_temp.record('statement_timeout', s, m, d);
END
$$;
RESET statement_timeout;
SELECT leftover_files(), running_workers();

-- without a handler the statement fails like any cancelled statement
\set VERBOSITY terse
SET statement_timeout = '2s';
SELECT run_id FROM iobench.run(duration => '30s', file_size => '8MB', engine => 'psync',
                               label => 'cancel me too');
RESET statement_timeout;
\set VERBOSITY default

-- 2. one worker cancelled, 3. one worker terminated: the run is started
-- through dblink, and a worker is signalled once it measures
CREATE FUNCTION pg_temp.signal_worker(how text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s text; m text; d text;
BEGIN
    PERFORM dblink_connect('runner', waits_connstr());
    PERFORM dblink_send_query('runner',
        format('SELECT run_id FROM iobench.run(duration => %L, file_size => %L, workers => 2, engine => %L, label => %L)',
               '10s', '8MB', 'psync', how));
    -- both workers running, one seen in its I/O loop, and measuring a while
    FOR i IN 1..400 LOOP
        PERFORM pg_stat_clear_snapshot();
        EXIT WHEN (SELECT count(*) FROM pg_stat_activity
                    WHERE backend_type = 'iobench worker') = 2
              AND EXISTS (SELECT FROM pg_stat_activity
                           WHERE backend_type = 'iobench worker'
                             AND wait_event = 'DataFileRead');
        PERFORM pg_sleep(0.025);
    END LOOP;
    PERFORM pg_sleep(0.3);
    PERFORM pg_stat_clear_snapshot();
    IF how = 'worker cancelled' THEN
        PERFORM pg_cancel_backend(min(pid)) FROM pg_stat_activity WHERE backend_type = 'iobench worker';
    ELSE
        PERFORM pg_terminate_backend(min(pid)) FROM pg_stat_activity WHERE backend_type = 'iobench worker';
    END IF;
    BEGIN
        PERFORM * FROM dblink_get_result('runner') AS t(run_id bigint);
        PERFORM pg_temp.record(how, '00000', 'completed', NULL);
    EXCEPTION WHEN query_canceled OR others THEN
        GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
        PERFORM pg_temp.record(how, s, m, d);
    END;
    PERFORM * FROM dblink_get_result('runner') AS t(run_id bigint);
    PERFORM dblink_disconnect('runner');
END
$$;
SELECT pg_temp.signal_worker('worker cancelled');
SELECT leftover_files(), running_workers();
SELECT pg_temp.signal_worker('worker terminated');
SELECT leftover_files(), running_workers();

-- 4. a completed run, for comparison
INSERT INTO ending
SELECT 'completed', '00000', status, run_id
  FROM iobench.run(duration => '300ms', file_size => '8MB', workers => 2, engine => 'psync');

-- every ending: the real SQLSTATE and message, a stored run that adds up
SELECT e.how, e.sqlstate, regexp_replace(e.message, 'worker \d+', 'worker N') AS message,
       r.status, r.label,
       r.measured_s < 10 AS stopped_early, r.ops > 0 AS measured_something,
       r.cpu_sys_pct IS NOT NULL AS has_cpu, pg_temp.adds_up(e.run_id) AS adds_up
  FROM ending e LEFT JOIN iobench.runs r USING (run_id)
 ORDER BY e.how;
SELECT status, label FROM iobench.runs WHERE label = 'cancel me too';

-- cancel while the files are still being written: nothing was measured,
-- so nothing is stored
SET statement_timeout = '50ms';
SELECT status FROM iobench.run(duration => '30s', file_size => '512MB', files => 1,
                               engine => 'psync', label => 'cancel early');
RESET statement_timeout;
SELECT count(*) AS early_runs FROM iobench.runs WHERE label = 'cancel early';
SELECT leftover_files(), running_workers();

-- BEGIN; run; ROLLBACK: a completed run goes with the transaction; a
-- cancelled one stays, as it would outside a transaction block
SELECT count(*) AS runs_before FROM iobench.runs \gset
BEGIN;
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
ROLLBACK;
BEGIN;
SET LOCAL statement_timeout = '1500ms';
\set VERBOSITY terse
SELECT status FROM iobench.run(duration => '30s', file_size => '1MB', engine => 'psync',
                               label => 'cancelled in a transaction');
\set VERBOSITY default
ROLLBACK;
SELECT count(*) - :runs_before AS runs_kept,
       count(*) FILTER (WHERE label = 'cancelled in a transaction') AS cancelled_kept
  FROM iobench.runs;
-- and neither leaves a live row: the rolled-back run is not "interrupted"
SELECT count(*) AS live_rows_left FROM iobench.live_runs;
SELECT count(*) AS listed_running FROM iobench.running_runs;

-- an error inside a transaction block after the run: the files are gone too
BEGIN;
SELECT status FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
SELECT 1 / 0;
ROLLBACK;
SELECT leftover_files(), running_workers();
