-- Wait statistics of a benchmark run: the launcher samples its workers and
-- stores what it saw, with the workers' exact per-I/O figures beside it.
SET client_min_messages = warning;

CREATE TEMP TABLE r AS
SELECT * FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randrw', fsync_every => 4, workers => 2,
                          duration => '1s', file_size => '8MB', engine => 'psync')$$);

-- how it was sampled: the workers, at iobench.sample_period, over the measured second
SELECT s.scope, s.period_ms, s.ticks BETWEEN 50 AND 101 AS ticks_ok,
       s.sampled_s BETWEEN 0.9 AND 1.05 AS sampled_the_run
  FROM r JOIN iobench.run_wait_sampling s USING (run_id);

-- the exact figures are the run's own; the sampled time agrees with them
SELECT w.wait_type,
       w.exact_count = CASE w.wait_type WHEN 'IO:DataFileRead' THEN r.read_ops
                                        WHEN 'IO:DataFileWrite' THEN r.write_ops
                                        ELSE r.fsync_ops END AS exact_count_is_ops,
       abs(w.exact_wait_s * 1e6 - w.exact_count *
           CASE w.wait_type WHEN 'IO:DataFileRead' THEN r.read_lat_avg_us
                            WHEN 'IO:DataFileWrite' THEN r.write_lat_avg_us
                            ELSE r.fsync_lat_avg_us END) < 1 AS exact_time_is_latency_sum,
       w.signal_s IS NOT NULL AS signal_known
  FROM r JOIN iobench.run_waits w USING (run_id)
 WHERE w.exact_count IS NOT NULL
 ORDER BY w.wait_type;
-- (within 40 %, or within four standard deviations of the samples' count
-- where few samples fell in the reads: sampled time is samples x period,
-- and the samples' count varies by about its square root)
SELECT abs(w.wait_s - w.exact_wait_s) <=
         greatest(0.4 * w.exact_wait_s, 4 * sqrt(w.exact_wait_s * s.period_ms / 1000.0))
         AS sampled_near_exact,
       w.wait_count > 0 AS entries_seen
  FROM r JOIN iobench.run_waits w USING (run_id)
  JOIN iobench.run_wait_sampling s USING (run_id)
 WHERE w.wait_type = 'IO:DataFileRead';

-- the table people read, with the exact columns at the end
SELECT "WaitType", "ExactCount" > 0 AS exact, "Percentage" > 0 AS share
  FROM r, iobench.run_wait_stats(r.run_id)
 WHERE "WaitType" = 'IO:DataFileRead';
SELECT count(*) = (SELECT count(*) FROM r, iobench.run_waits w WHERE w.run_id = r.run_id)
       AS all_rows
  FROM r, iobench.run_wait_stats_all(r.run_id);

-- a cancelled run fails its statement (57014) and is stored by a process
-- that commits on its own, its wait statistics with it.  The window is
-- closed at the cancel, the end of the measured period its figures cover,
-- not left at the last tick before it
\set VERBOSITY terse
SET statement_timeout = '2s';
SELECT * FROM iobench.run(duration => '30s', file_size => '8MB', workers => 2,
                          engine => 'psync', label => 'waits cancelled');
RESET statement_timeout;
\set VERBOSITY default
CREATE TEMP TABLE r_cancel AS
SELECT * FROM iobench.runs WHERE label = 'waits cancelled';
SELECT r.status, s.ticks > 0 AS sampled,
       s.sampled_s <= r.measured_s + 1e-6 AS not_past_the_cancel,
       s.sampled_s > r.measured_s - 0.1 AS up_to_the_cancel
  FROM r_cancel r JOIN iobench.run_wait_sampling s USING (run_id);
SELECT w.wait_s > 0 AS waited, w.signal_s IS NOT NULL AS signal_known,
       w.exact_count = r.read_ops AS exact_count_is_ops
  FROM r_cancel r JOIN iobench.run_waits w USING (run_id)
 WHERE w.wait_type = 'IO:DataFileRead';

-- iobench.run_waits = off: nothing sampled
SET iobench.run_waits = off;
CREATE TEMP TABLE r_off AS
SELECT * FROM iobench.run(duration => '200ms', file_size => '8MB', engine => 'psync');
SELECT count(*) FROM r_off JOIN iobench.run_waits USING (run_id);
SELECT count(*) FROM r_off JOIN iobench.run_wait_sampling USING (run_id);

-- iobench.run_waits = instance: every process, the background ones too
SET iobench.run_waits = instance;
CREATE TEMP TABLE r_inst AS
SELECT * FROM iobench.run(duration => '300ms', file_size => '8MB', engine => 'psync');
SELECT s.scope FROM r_inst JOIN iobench.run_wait_sampling s USING (run_id);
-- (the Activity class is the main loops of background processes: the
-- checkpointer's, the background writer's, the WAL writer's, ...; one
-- alone may be busy elsewhere, as the checkpointer in
-- Timeout:CheckpointWriteDelay through a spread checkpoint)
SELECT count(*) > 0 AS background_seen
  FROM r_inst JOIN iobench.run_waits w USING (run_id)
 WHERE w.wait_type LIKE 'Activity:%';
-- exact counts of the whole instance: the workers' own reads, plus
-- PostgreSQL's counts of the other processes' (pg_stat_database here)
SELECT w.exact_count >= r.read_ops AS exact_covers_workers,
       t."WaitCount" = w.exact_count AS count_is_exact
  FROM r_inst r JOIN iobench.run_waits w USING (run_id)
  JOIN iobench.run_wait_stats(r.run_id) t ON t."WaitType" = w.wait_type
 WHERE w.wait_type = 'IO:DataFileRead';
RESET iobench.run_waits;

-- deleting a run deletes its wait statistics
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM r UNION ALL SELECT run_id FROM r_inst
                                          UNION ALL SELECT run_id FROM r_off
                                          UNION ALL SELECT run_id FROM r_cancel);
SELECT count(*) FROM iobench.run_waits w JOIN r USING (run_id);
SELECT count(*) FROM iobench.run_wait_sampling w JOIN r USING (run_id);
