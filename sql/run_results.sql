-- Results land in the tables and go with their run.
SET client_min_messages = warning;

CREATE TEMP TABLE r AS
SELECT * FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randrw', fsync_every => 2, workers => 2, files => 2,
                          duration => '1200ms', file_size => '8MB', engine => 'psync',
                          label => 'results test')$$);

-- the returned row is the stored row
SELECT (SELECT row(s.*)::text FROM iobench.runs s WHERE s.run_id = r.run_id) = row(r.*)::text AS same_row
  FROM r;

-- settings are stored as given
SELECT tablespace, rw, block_size, workers, iodepth, duration, warmup, file_size,
       files, read_pct, fsync_every, sync_method, direct, engine, rate_iops, label,
       pg_version = current_setting('server_version') AS pg_version_ok,
       system_identifier = (SELECT system_identifier FROM pg_control_system()) AS sysid_ok,
       started_at < finished_at AS times_ordered
  FROM r;

-- the time series covers the measured period and adds up to the totals
SELECT s.op,
       count(*) BETWEEN 1 AND 2 AS seconds_present,
       sum(s.ops) = CASE s.op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops
                              ELSE r.fsync_ops END AS ops_add_up,
       max(s.lat_max_us) <= CASE s.op WHEN 'read' THEN r.read_lat_max_us
                                      WHEN 'write' THEN r.write_lat_max_us
                                      ELSE r.fsync_lat_max_us END + 0.001 AS max_within_run_max,
       bool_and(s.lat_mean_us <= s.lat_max_us) AS mean_below_max
  FROM r JOIN iobench.run_seconds s USING (run_id)
 GROUP BY s.op, r.read_ops, r.write_ops, r.fsync_ops, r.read_lat_max_us,
          r.write_lat_max_us, r.fsync_lat_max_us
 ORDER BY s.op;

-- the histogram holds every op once, in buckets about 1.6 % wide at most
SELECT l.op,
       sum(l.count) = CASE l.op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops
                                ELSE r.fsync_ops END AS counts_add_up,
       bool_and(l.upper_us > l.lower_us) AS buckets_ordered,
       bool_and((l.upper_us - l.lower_us) <= l.lower_us / 64 + 0.001) AS buckets_narrow
  FROM r JOIN iobench.run_latency l USING (run_id)
 GROUP BY l.op, r.read_ops, r.write_ops, r.fsync_ops
 ORDER BY l.op;

-- p99 read from the stored histogram agrees with the summary (within a bucket)
WITH h AS (
    SELECT l.*, sum(l.count) OVER (ORDER BY l.lower_us) AS cum,
           sum(l.count) OVER () AS total
      FROM r JOIN iobench.run_latency l USING (run_id)
     WHERE l.op = 'read')
SELECT abs(min(h.upper_us) - r.read_lat_p99_us) <= min(h.upper_us) / 32 AS p99_agrees
  FROM h, r
 WHERE h.cum >= ceil(0.99 * h.total)
 GROUP BY r.read_lat_p99_us;

-- deleting a run deletes its rows
DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM r);
SELECT (SELECT count(*) FROM iobench.run_seconds WHERE run_id = (SELECT run_id FROM r)) AS seconds_left,
       (SELECT count(*) FROM iobench.run_latency WHERE run_id = (SELECT run_id FROM r)) AS buckets_left;

-- the server settings that shape I/O are recorded as the run's session sees
-- them, NULL where the server has no such setting (io_combine_limit before
-- 17, io_method and io_workers before 18, io_min_workers and io_max_workers
-- before 19)
SET effective_io_concurrency = 7;
SET maintenance_io_concurrency = 9;
DO $$
BEGIN
    IF current_setting('io_combine_limit', true) IS NOT NULL THEN
        PERFORM pg_catalog.set_config('io_combine_limit', '64kB', false);
    END IF;
END
$$;
CREATE TEMP TABLE s AS
SELECT * FROM iobench.run(duration => '300ms', file_size => '1MB', engine => 'psync',
                          label => 'settings test');
SELECT effective_io_concurrency = 7 AS eic_is_the_sessions,
       maintenance_io_concurrency = 9 AS mic_is_the_sessions,
       io_combine_limit IS NOT DISTINCT FROM
           CASE WHEN current_setting('server_version_num')::int >= 170000 THEN '64kB' END
           AS io_combine_limit_is_the_sessions,
       io_method IS NOT DISTINCT FROM current_setting('io_method', true) AS io_method_ok,
       io_workers::text IS NOT DISTINCT FROM current_setting('io_workers', true) AS io_workers_ok,
       io_min_workers::text IS NOT DISTINCT FROM current_setting('io_min_workers', true)
           AS io_min_workers_ok,
       io_max_workers::text IS NOT DISTINCT FROM current_setting('io_max_workers', true)
           AS io_max_workers_ok,
       wal_sync_method = current_setting('wal_sync_method') AS wal_sync_method_ok,
       full_page_writes = current_setting('full_page_writes')::boolean AS fpw_ok,
       (io_method IS NOT NULL) = (current_setting('server_version_num')::int >= 180000)
           AS io_method_from_18
  FROM s;
RESET effective_io_concurrency;
RESET maintenance_io_concurrency;
DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM s);
