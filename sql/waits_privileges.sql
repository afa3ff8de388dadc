-- Who may read and who may change the wait statistics
CREATE ROLE regress_waits_monitor IN ROLE pg_monitor;
CREATE ROLE regress_waits_nobody;

SET ROLE regress_waits_monitor;
SELECT count(*) >= 0 AS readable FROM iobench.wait_stats;
SELECT count(*) >= 0 AS readable FROM iobench.wait_stats_all;
SELECT pid IS NOT NULL AS readable FROM iobench.wait_collector;
SELECT count(*) >= 0 AS readable FROM iobench.sample_waits('20 ms');
SELECT count(*) >= 0 AS readable FROM iobench.benign_waits;
SELECT count(*) >= 0 AS readable FROM iobench.run_waits;
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
SELECT count(*) >= 0 AS readable FROM iobench.run_waits;
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
SET ROLE regress_waits_user;
SELECT count(*) >= 0 AS readable FROM iobench.wait_stats;
SELECT count(*) >= 0 AS readable FROM iobench.sample_waits_by_backend('20 ms');
SELECT count(*) >= 0 AS readable FROM iobench.wait_stats_diff('regress_waits_user');
RESET ROLE;
DROP ROLE regress_waits_user;

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
