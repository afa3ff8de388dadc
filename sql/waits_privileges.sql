-- Who may read and who may change the wait statistics
CREATE ROLE regress_waits_monitor IN ROLE pg_monitor;
CREATE ROLE regress_waits_nobody;

-- What there is to read: a run's waits, and, since a reset, a session
-- blocked on a lock through dblink while the readers sample it (one entry
-- into Lock:relation each time it is blocked)
SELECT run_id AS waits_run
  FROM public.with_io($$SELECT * FROM iobench.run(duration => '200ms', file_size => '1MB',
                                                  engine => 'psync')$$) \gset
SELECT dblink_connect('holder', waits_connstr()) AS holder,
       dblink_connect('waiter', waits_connstr()) AS waiter;
SELECT pid AS waiter_pid FROM dblink('waiter', 'SELECT pg_backend_pid()') AS t(pid int) \gset
-- The holder locks waits_target in a transaction it keeps open; the waiter
-- asks for the table (deadlock_timeout raised: a deadlock check would break
-- the wait in two) and is blocked until the holder commits
CREATE FUNCTION pg_temp.block_waiter(waiter integer) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM dblink_exec('holder', 'BEGIN');
    PERFORM dblink_exec('holder', 'LOCK TABLE waits_target IN ACCESS EXCLUSIVE MODE');
    PERFORM dblink_send_query('waiter', 'DO $d$BEGIN PERFORM set_config(''deadlock_timeout'', ''10min'', false); LOCK TABLE waits_target IN ACCESS SHARE MODE; END$d$');
    FOR i IN 1 .. 600 LOOP
        IF EXISTS (SELECT FROM pg_locks l WHERE l.pid = waiter AND NOT l.granted) THEN
            RETURN true;
        END IF;
        PERFORM pg_sleep(0.05);
    END LOOP;
    RETURN false;
END
$$;
CREATE FUNCTION pg_temp.release_waiter() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM dblink_exec('holder', 'COMMIT');
    RETURN waits_finish('waiter');
END
$$;
SELECT iobench.reset_waits();
SELECT iobench.snapshot_waits('regress_waits_before') IS NOT NULL AS taken;
SELECT pg_temp.block_waiter(:waiter_pid) AS blocked;

-- pg_monitor reads them: the blocked session in a window it samples,
SET ROLE regress_waits_monitor;
SELECT "WaitType", "WaitCount"
  FROM iobench.sample_waits('200 ms', pids => ARRAY[:waiter_pid]) WHERE "WaitType" = 'Lock:relation';
RESET ROLE;
SELECT pg_temp.release_waiter() AS released;
SELECT pg_sleep(0.1);			-- the collector's next tick closes the interval
SET ROLE regress_waits_monitor;
-- and in the collector's totals, with the benign waits flagged
SELECT "WaitType", "WaitCount" FROM iobench.wait_stats WHERE "WaitType" = 'Lock:relation';
SELECT wait_type, wait_count, benign FROM iobench.wait_stats_all WHERE wait_type = 'Lock:relation';
SELECT pid IS NOT NULL AS readable FROM iobench.wait_collector;
SELECT reason FROM iobench.benign_waits WHERE wait_type = 'Timeout:PgSleep';
-- the run's reads are in its waits, with the workers' exact count
SELECT bool_or(w.wait_type = 'IO:DataFileRead' AND w.exact_count = r.read_ops) AS run_reads_counted
  FROM iobench.run_waits w JOIN iobench.runs r USING (run_id) WHERE r.run_id = :waits_run;
SELECT iobench.reset_waits();
SELECT iobench.snapshot_waits('regress_waits');
INSERT INTO iobench.benign_waits (wait_type, reason) VALUES ('IO:WALSync', 'no');
SET iobench.sample_period = 1;
SET iobench.sample_signal = off;
RESET ROLE;

SET ROLE regress_waits_nobody;
SELECT * FROM iobench.wait_stats;
RESET ROLE;
-- even with the schema, a role outside pg_monitor reads nothing
GRANT USAGE ON SCHEMA iobench TO regress_waits_nobody;
SET ROLE regress_waits_nobody;
SELECT * FROM iobench.wait_stats;
SELECT * FROM iobench.waits_raw();
SELECT * FROM iobench.sample_waits('20 ms');
SELECT iobench.reset_waits();
SELECT * FROM iobench.run_waits;
RESET ROLE;
REVOKE USAGE ON SCHEMA iobench FROM regress_waits_nobody;

-- a benchmark user reads the waits of runs; those of the instance need
-- pg_monitor, and each refusal says so
CREATE ROLE regress_waits_user IN ROLE iobench_user;
SET ROLE regress_waits_user;
SELECT bool_or(w.wait_type = 'IO:DataFileRead' AND w.exact_count = r.read_ops) AS run_reads_counted
  FROM iobench.run_waits w JOIN iobench.runs r USING (run_id) WHERE r.run_id = :waits_run;
SELECT * FROM iobench.wait_stats;
SELECT * FROM iobench.wait_stats_all;
SELECT * FROM iobench.wait_stats_by_backend;
SELECT * FROM iobench.wait_collector;
SELECT * FROM iobench.sample_waits('20 ms');
SELECT * FROM iobench.sample_waits_all('20 ms');
SELECT * FROM iobench.sample_waits_by_backend('20 ms');
SELECT * FROM iobench.sample_waits_raw('20 ms');
SELECT * FROM iobench.wait_stats_diff('regress_waits');
SELECT * FROM iobench.wait_snapshot_diff_raw('regress_waits');
RESET ROLE;
-- and once granted pg_monitor, they read them
GRANT pg_monitor TO regress_waits_user;
SELECT iobench.snapshot_waits('regress_waits_user') IS NOT NULL AS taken;
SELECT pg_temp.block_waiter(:waiter_pid) AS blocked;
SET ROLE regress_waits_user;
SELECT backend_type, wait_type, wait_count
  FROM iobench.sample_waits_by_backend('200 ms', pids => ARRAY[:waiter_pid]) WHERE wait_type = 'Lock:relation';
RESET ROLE;
SELECT pg_temp.release_waiter() AS released;
SELECT pg_sleep(0.1);			-- the collector's next tick closes the interval
SET ROLE regress_waits_user;
-- blocked twice since the reset, once since the snapshot
SELECT "WaitType", "WaitCount" FROM iobench.wait_stats WHERE "WaitType" = 'Lock:relation';
SELECT "WaitType", "WaitCount"
  FROM iobench.wait_stats_diff('regress_waits_user') WHERE "WaitType" = 'Lock:relation';
SELECT "WaitType", "WaitCount"
  FROM iobench.wait_stats_diff('regress_waits_before', 'regress_waits_user') WHERE "WaitType" = 'Lock:relation';
RESET ROLE;
DROP ROLE regress_waits_user;
SELECT dblink_disconnect('holder'), dblink_disconnect('waiter');
DELETE FROM iobench.wait_snapshots WHERE snapshot_name IN ('regress_waits_before', 'regress_waits_user');
DELETE FROM iobench.runs WHERE run_id = :waits_run;

-- the settings
SELECT name, setting, unit, context FROM pg_settings
 WHERE name IN ('iobench.sample_period', 'iobench.max_wait_types', 'iobench.run_waits',
                'iobench.sample_signal')
 ORDER BY name;

-- sampling the whole instance during a run takes what pg_stat_activity
-- takes to show other sessions' waits (pg_read_all_stats): a plain member
-- of iobench_user is refused before anything is made
CREATE ROLE regress_waits_member IN ROLE iobench_user;
GRANT iobench_user TO regress_waits_monitor;
SET ROLE regress_waits_member;
SET iobench.run_waits = 'instance';
SELECT count(*) AS runs_before FROM iobench.runs \gset
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
SELECT * FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '200ms', file_size => '1MB');
SELECT * FROM iobench.latency_search('pg_default', latency_target => '1h', max_iodepth => 1,
                                     step_duration => '200ms', file_size => '1MB');
SELECT count(*) = :runs_before AS nothing_stored FROM iobench.runs;
-- its own workers it may sample
SET iobench.run_waits = 'workers';
CREATE TEMP TABLE member_run AS
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
SELECT s.scope FROM iobench.run_wait_sampling s JOIN member_run USING (run_id);
RESET ROLE;
-- with pg_monitor, the instance
SET ROLE regress_waits_monitor;
SET iobench.run_waits = 'instance';
CREATE TEMP TABLE monitor_run AS
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
SELECT s.scope FROM iobench.run_wait_sampling s JOIN monitor_run USING (run_id);
RESET iobench.run_waits;
RESET ROLE;
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM member_run UNION SELECT run_id FROM monitor_run);
DROP TABLE member_run, monitor_run;
DROP ROLE regress_waits_member;

DROP ROLE regress_waits_monitor;
DROP ROLE regress_waits_nobody;
