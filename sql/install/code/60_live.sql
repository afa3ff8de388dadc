-- Runs going on, seen from any session: each with its last stored second.
-- state: 'running' while its recorder lives; 'interrupted' when it is gone
-- and the run was never stored: a crash or a shutdown cut it off.  A run
-- that ended has no live row (its recorder deletes them once the launcher
-- has read them, whether the caller's transaction then commits or rolls
-- back); a stored run is never listed, even if a recorder stopped inside
-- its transaction kept its rows.
CREATE OR REPLACE VIEW iobench.running_runs AS
SELECT l.run_id,
       CASE WHEN a.pid IS NOT NULL THEN 'running' ELSE 'interrupted' END AS state,
       l.started_at, l.tablespace, l.rw, l.block_size, l.workers, l.iodepth, l.duration,
       l.launcher_pid,
       s.seconds_stored,
       s.last_second,
       s.last_iops,
       s.last_mb_per_s,
       s.last_lat_max_us,
       (SELECT count(*) FROM iobench.live_stalls x WHERE x.run_id = l.run_id) AS stalls
  FROM iobench.live_runs l
  LEFT JOIN pg_catalog.pg_stat_activity a
         ON a.pid = l.recorder_pid AND a.backend_start = l.recorder_start
  LEFT JOIN LATERAL (
        SELECT count(DISTINCT x.second) AS seconds_stored,
               max(x.second) AS last_second,
               sum(x.ops) FILTER (WHERE x.op <> 'fsync' AND x.second = m.last) AS last_iops,
               round((sum(x.bytes) FILTER (WHERE x.second = m.last) / 1e6)::numeric, 2) AS last_mb_per_s,
               max(x.lat_max_us) FILTER (WHERE x.second = m.last) AS last_lat_max_us
          FROM iobench.live_seconds x,
               (SELECT max(y.second) AS last FROM iobench.live_seconds y WHERE y.run_id = l.run_id) m
         WHERE x.run_id = l.run_id) s ON true
 WHERE NOT EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = l.run_id);
COMMENT ON VIEW iobench.running_runs IS 'runs going on (or interrupted), with their last stored second';
