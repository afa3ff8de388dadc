-- iobench.sample_waits(): a window sampled from this backend.  Sessions are
-- blocked on a lock for a known time through dblink, and must show up
-- under that lock's wait type with about that much wait time.
CREATE EXTENSION IF NOT EXISTS dblink;

CREATE TABLE waits_target (i int);

-- How a dblink session reaches this instance
CREATE FUNCTION waits_connstr() RETURNS text
LANGUAGE sql AS $$
    SELECT format('dbname=%s host=%s port=%s', current_database(),
                  split_part(current_setting('unix_socket_directories'), ',', 1),
                  current_setting('port'))
$$;

SELECT dblink_connect('holder', waits_connstr()) AS holder,
       dblink_connect('w1', waits_connstr()) AS w1,
       dblink_connect('w2', waits_connstr()) AS w2;

-- The holder keeps the table locked for 1.4 s; the two waiters ask for it
-- 0.4 s in (after sampling has started), so each waits about 1.0 s.
SELECT dblink_send_query('holder', 'BEGIN; LOCK TABLE waits_target IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(1.4); COMMIT');
SELECT dblink_send_query('w1', 'SELECT pg_sleep(0.4); LOCK TABLE waits_target IN ACCESS SHARE MODE');
SELECT dblink_send_query('w2', 'SELECT pg_sleep(0.4); LOCK TABLE waits_target IN ACCESS SHARE MODE');

CREATE TEMP TABLE sampled AS
    SELECT * FROM iobench.sample_waits_all('1.7 s');

SELECT count(*) FROM dblink_get_result('holder') AS t(x text);
SELECT count(*) FROM dblink_get_result('w1') AS t(x text);
SELECT count(*) FROM dblink_get_result('w2') AS t(x text);

-- Two entries, about 2 x 1.0 s, the top non-benign wait, split adds up
SELECT wait_type, wait_count,
       wait_s BETWEEN 1.6 AND 2.6 AS wait_s_near_2,
       signal_s IS NOT NULL AS signal_known,
       abs(resource_s + signal_s - wait_s) < 1e-9 AS split_adds_up,
       benign, in_top_95
  FROM sampled WHERE wait_type = 'Lock:relation';
SELECT round(sum(percentage)::numeric, 6) AS percent_sum FROM sampled;
SELECT bool_and(signal_s IS NULL OR abs(resource_s + signal_s - wait_s) < 1e-9) AS split_adds_up
  FROM sampled;
-- the sampler leaves itself out
SELECT count(*) FROM sampled WHERE wait_type = 'Extension:Extension';

-- The same through the table people read, with one waiter this time
SELECT dblink_send_query('holder', 'BEGIN; LOCK TABLE waits_target IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(1.2); COMMIT');
SELECT dblink_send_query('w1', 'SELECT pg_sleep(0.2); LOCK TABLE waits_target IN ACCESS SHARE MODE');
CREATE TEMP TABLE randal AS
    SELECT * FROM iobench.sample_waits('1.4 s', sample_period => '5 ms');
SELECT count(*) FROM dblink_get_result('holder') AS t(x text);
SELECT count(*) FROM dblink_get_result('w1') AS t(x text);
SELECT "WaitType", "WaitCount", "Wait_S" BETWEEN 0.8 AND 1.3 AS "Wait_S_near_1",
       "Resource_S" + "Signal_S" BETWEEN "Wait_S" - 0.011 AND "Wait_S" + 0.011 AS split_adds_up
  FROM randal WHERE "WaitType" = 'Lock:relation';
SELECT attname FROM pg_attribute
 WHERE attrelid = 'randal'::regclass AND attnum > 0 ORDER BY attnum;

-- A session idle in a transaction is not idle: its ClientRead is shown
SELECT dblink_exec('w1', 'BEGIN');
SELECT pid AS w1_pid FROM dblink('w1', 'SELECT pg_backend_pid()') AS t(pid int) \gset
SELECT wait_type, benign, wait_s > 0.1 AS waited
  FROM iobench.sample_waits_all('0.3 s', pids => ARRAY[:w1_pid]);
SELECT dblink_exec('w1', 'COMMIT');
SELECT wait_type, benign, wait_s > 0.1 AS waited
  FROM iobench.sample_waits_all('0.3 s', pids => ARRAY[:w1_pid]);

SELECT dblink_disconnect('holder'), dblink_disconnect('w1'), dblink_disconnect('w2');

-- Cancel (statement_timeout) stops sampling and closes every descriptor
CREATE FUNCTION open_fds() RETURNS bigint
LANGUAGE sql AS $$
    SELECT count(*) FROM pg_ls_dir('/proc/' || pg_backend_pid() || '/fd')
$$;
SELECT open_fds() AS fds_before \gset
SET statement_timeout = '300ms';
SELECT count(*) FROM iobench.sample_waits_raw('10 s');
RESET statement_timeout;
SELECT open_fds() = :fds_before AS fds_closed;

-- Arguments are checked up front
SELECT * FROM iobench.sample_waits(NULL);
SELECT * FROM iobench.sample_waits('0 s');
SELECT * FROM iobench.sample_waits('2 days');
SELECT * FROM iobench.sample_waits('1 s', sample_period => '0.5 ms');
SELECT * FROM iobench.sample_waits('1 s', sample_period => '2 s');
SELECT * FROM iobench.sample_waits('1 s', pids => '{}');
SELECT * FROM iobench.sample_waits('1 s', pids => '{1, NULL}');

DROP FUNCTION open_fds();
DROP FUNCTION waits_connstr();
DROP TABLE waits_target;
