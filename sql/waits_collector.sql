-- The always-on collector (iobench is preloaded in the test instance):
-- totals since a reset, snapshots and diffs, and the bound on its shared
-- memory.

SELECT pid IS NOT NULL AS running, period_ms, schedstat, max_wait_types
  FROM iobench.wait_collector;

SELECT dblink_connect('holder', waits_connstr()) AS holder,
       dblink_connect('w1', waits_connstr()) AS w1,
       dblink_connect('w2', waits_connstr()) AS w2;

SELECT iobench.reset_waits();
SELECT count(*) FROM iobench.wait_stats_all WHERE wait_type = 'Lock:relation';
SELECT iobench.snapshot_waits('waits_before') IS NOT NULL AS taken;

-- Two sessions blocked for about 1.0 s each (deadlock_timeout raised: a
-- deadlock check at 1 s would break a wait in two)
SELECT dblink_send_query('holder', 'DO $$BEGIN LOCK TABLE waits_target IN ACCESS EXCLUSIVE MODE; PERFORM pg_sleep(1.2); END$$');
SELECT dblink_send_query('w1', 'DO $$BEGIN PERFORM set_config(''deadlock_timeout'', ''10min'', false); PERFORM pg_sleep(0.2); LOCK TABLE waits_target IN ACCESS SHARE MODE; END$$');
SELECT dblink_send_query('w2', 'DO $$BEGIN PERFORM set_config(''deadlock_timeout'', ''10min'', false); PERFORM pg_sleep(0.2); LOCK TABLE waits_target IN ACCESS SHARE MODE; END$$');
SELECT waits_finish('holder');
SELECT waits_finish('w1');
SELECT waits_finish('w2');
SELECT pg_sleep(0.1);			-- the collector's next tick closes the interval
SELECT iobench.snapshot_waits('waits_after') IS NOT NULL AS taken;

-- Since the reset: the view, its snake_case twin, and the collector's figures
SELECT "WaitType", "WaitCount", "Wait_S" BETWEEN 1.6 AND 2.6 AS "Wait_S_near_2"
  FROM iobench.wait_stats WHERE "WaitType" = 'Lock:relation';
SELECT wait_count, wait_s BETWEEN 1.6 AND 2.6 AS wait_s_near_2,
       abs(resource_s + signal_s - wait_s) < 1e-9 AS split_adds_up, in_top_95
  FROM iobench.wait_stats_all WHERE wait_type = 'Lock:relation';
SELECT round(sum(percentage)::numeric, 6) AS percent_sum FROM iobench.wait_stats_all;
SELECT ticks > 0 AS ticking, tick_pct > 50 AS most_ticks_taken,
       sampled_s > 1.0 AS sampled_the_window, overflow_samples
  FROM iobench.wait_collector;

-- Between two snapshots, and since one
SELECT wait_type, wait_count, wait_s BETWEEN 1.6 AND 2.6 AS wait_s_near_2
  FROM iobench.wait_stats_diff_all('waits_before', 'waits_after')
 WHERE wait_type = 'Lock:relation';
SELECT "WaitType", "WaitCount"
  FROM iobench.wait_stats_diff('waits_before') WHERE "WaitType" = 'Lock:relation';
-- nothing blocked after the second snapshot
SELECT count(*) FROM iobench.wait_stats_diff_all('waits_after') WHERE wait_type = 'Lock:relation';
SELECT snapshot_name, wait_count FROM iobench.wait_snapshot_rows
 WHERE wait_type = 'Lock:relation' ORDER BY snapshot_name;

-- Snapshot mistakes are told apart
SELECT iobench.snapshot_waits('waits_after');
SELECT iobench.snapshot_waits(NULL);
SELECT iobench.snapshot_waits('');
SELECT iobench.snapshot_waits(repeat('y', 1048576));
SELECT * FROM iobench.wait_stats_diff('no_such_snapshot');
SELECT * FROM iobench.wait_stats_diff('waits_after', 'waits_before');
SELECT iobench.reset_waits();
SELECT * FROM iobench.wait_stats_diff('waits_before');
SELECT "WaitType", "WaitCount" FROM iobench.wait_stats_diff('waits_before', 'waits_after')
 WHERE "WaitType" = 'Lock:relation';
SELECT iobench.snapshot_waits('waits_reset') IS NOT NULL AS taken;
SELECT * FROM iobench.wait_stats_diff('waits_after', 'waits_reset');

-- The bound on the collector's shared memory (iobench.max_wait_types, the
-- overflow row) needs a server started with a small bound: t/001_wait_bound.pl.

SELECT dblink_disconnect('holder'), dblink_disconnect('w1'), dblink_disconnect('w2');
DELETE FROM iobench.wait_snapshots;

-- A new session is followed from the first ticks after it connects, not
-- only at the collector's scans of every PGPROC slot every 100 ms: ten
-- sessions, each sleeping 50 ms right after it connects, account for most
-- of their 0.5 s (missed until a scan, they would give about a quarter)
SELECT iobench.reset_waits();
DO $$
BEGIN
    FOR i IN 1 .. 10 LOOP
        PERFORM dblink_connect('fresh', waits_connstr());
        PERFORM * FROM dblink('fresh', 'SELECT pg_sleep(0.05)') AS t(slept text);
        PERFORM dblink_disconnect('fresh');
    END LOOP;
END
$$;
SELECT pg_sleep(0.05);			-- the collector's next tick closes the interval
SELECT wait_s >= 0.3 AS fresh_sessions_followed
  FROM iobench.wait_stats_all WHERE wait_type = 'Timeout:PgSleep';

-- retention: snapshot_waits() keeps the newest iobench.wait_snapshots_keep
SET iobench.wait_snapshots_keep = 2;
SELECT iobench.snapshot_waits('keep_1') IS NOT NULL AS taken;
SELECT iobench.snapshot_waits('keep_2') IS NOT NULL AS taken;
SELECT iobench.snapshot_waits('keep_3') IS NOT NULL AS taken;
SELECT snapshot_name FROM iobench.wait_snapshots ORDER BY taken_at;
SELECT count(*) AS rows_of_removed FROM iobench.wait_snapshot_rows
 WHERE snapshot_name NOT IN (SELECT snapshot_name FROM iobench.wait_snapshots);
RESET iobench.wait_snapshots_keep;
