-- iobench.sample_waits(): a window sampled from this backend.  Sessions are
-- blocked on a lock for a known time through dblink, and must show up
-- under that lock's wait type with about that much wait time.

SELECT dblink_connect('holder', waits_connstr()) AS holder,
       dblink_connect('w1', waits_connstr()) AS w1,
       dblink_connect('w2', waits_connstr()) AS w2;

-- The holder keeps the table locked for 1.2 s; the two waiters ask for it
-- 0.2 s in (after sampling has started), so each waits about 1.0 s.
-- (deadlock_timeout is raised: a deadlock check at 1 s, as long as the
-- wait, would break it in two on a loaded machine, WaitCount 3)
SELECT dblink_send_query('holder', 'DO $$BEGIN LOCK TABLE waits_target IN ACCESS EXCLUSIVE MODE; PERFORM pg_sleep(1.2); END$$');
SELECT dblink_send_query('w1', 'DO $$BEGIN PERFORM set_config(''deadlock_timeout'', ''10min'', false); PERFORM pg_sleep(0.2); LOCK TABLE waits_target IN ACCESS SHARE MODE; END$$');
SELECT dblink_send_query('w2', 'DO $$BEGIN PERFORM set_config(''deadlock_timeout'', ''10min'', false); PERFORM pg_sleep(0.2); LOCK TABLE waits_target IN ACCESS SHARE MODE; END$$');

CREATE TEMP TABLE samples AS
    SELECT ARRAY(SELECT r FROM iobench.sample_waits_raw('1.4 s') AS r) AS raw;

SELECT waits_finish('holder');
SELECT waits_finish('w1');
SELECT waits_finish('w2');

-- Two entries, about 2 x 1.0 s, the top non-benign wait, split adds up
CREATE TEMP TABLE sampled AS
    SELECT * FROM iobench.wait_table_all((SELECT raw FROM samples));
SELECT wait_type, wait_count,
       wait_s BETWEEN 1.6 AND 2.6 AS wait_s_near_2,
       signal_s IS NOT NULL AS signal_known,
       abs(resource_s + signal_s - wait_s) < 1e-9 AS split_adds_up,
       benign, in_top_95
  FROM sampled WHERE wait_type = 'Lock:relation';
SELECT round(sum(percentage)::numeric, 6) AS percent_sum FROM sampled;
SELECT bool_and(signal_s IS NULL OR abs(resource_s + signal_s - wait_s) < 1e-9) AS split_adds_up
  FROM sampled;
-- iobench samplers (this one, the collector) leave themselves out
SELECT count(*) FROM sampled WHERE wait_type IN ('Extension:Extension', 'Extension:IobenchSampler');
-- Raw rows carry the backend type the server gives the processes that
-- waited, and the names the server gives their waits (pg_wait_events, 17+)
SELECT r.backend_type = (SELECT a.backend_type FROM pg_stat_activity a
                          WHERE a.pid = pg_backend_pid()) AS waiters_typed_as_the_server_does
  FROM unnest((SELECT raw FROM samples)) r WHERE r.wait_type = 'Lock:relation';
SELECT count(*) AS not_named_as_the_server_does
  FROM unnest((SELECT raw FROM samples)) r
 WHERE current_setting('server_version_num')::int >= 170000
   AND r.wait_type NOT IN ('CPU:Preempted', 'Client:ClientRead (idle in transaction)')
   AND r.wait_type NOT IN (SELECT d.wait_type FROM iobench.wait_event_descriptions() d);

-- The table people read, from the same samples
SELECT "WaitType", "WaitCount", "Wait_S" BETWEEN 1.6 AND 2.6 AS "Wait_S_near_2",
       "Resource_S" + "Signal_S" BETWEEN "Wait_S" - 0.011 AND "Wait_S" + 0.011 AS split_adds_up
  FROM iobench.wait_table((SELECT raw FROM samples)) WHERE "WaitType" = 'Lock:relation';

-- sample_waits() returns that shape directly
CREATE TEMP TABLE randal AS
    SELECT * FROM iobench.sample_waits('50 ms', sample_period => '5 ms');
SELECT attname FROM pg_attribute
 WHERE attrelid = 'randal'::regclass AND attnum > 0 ORDER BY attnum;

-- sample_waits_by_backend() is rounded for reading, as the wait table is
-- (two decimals; wait_table_by_backend() keeps the exact figures)
SELECT count(*) > 0 AS has_rows,
       bool_and(wait_s = round(wait_s::numeric, 2)
                AND resource_s IS NOT DISTINCT FROM round(resource_s::numeric, 2)::double precision
                AND signal_s IS NOT DISTINCT FROM round(signal_s::numeric, 2)::double precision
                AND percentage IS NOT DISTINCT FROM round(percentage::numeric, 2)::double precision) AS rounded
  FROM iobench.sample_waits_by_backend('50 ms', sample_period => '5 ms');

-- A session idle in a transaction is not idle: its ClientRead is shown
SELECT dblink_exec('w1', 'BEGIN');
SELECT pid AS w1_pid FROM dblink('w1', 'SELECT pg_backend_pid()') AS t(pid int) \gset
SELECT wait_type, benign, wait_s > 0.1 AS waited
  FROM iobench.sample_waits_all('0.3 s', pids => ARRAY[:w1_pid])
 WHERE wait_type LIKE 'Client:%';
SELECT dblink_exec('w1', 'COMMIT');
SELECT wait_type, benign, wait_s > 0.1 AS waited
  FROM iobench.sample_waits_all('0.3 s', pids => ARRAY[:w1_pid])
 WHERE wait_type LIKE 'Client:%';

SELECT dblink_disconnect('holder'), dblink_disconnect('w1'), dblink_disconnect('w2');

-- Every wait the sampler sees is counted, also in a process it sees for the
-- first time while that process already waits: w0 blocks before the window
-- starts, n1..n3 connect during the window and block at once.  All four
-- wait on one advisory lock until the window ends: WaitCount is 4.
-- (deadlock_timeout is raised so that no deadlock check interrupts a wait.)
CREATE FUNCTION waiter_connstr() RETURNS text
LANGUAGE sql AS $$
    SELECT waits_connstr() || ' options=''-c deadlock_timeout=10min'''
$$;
-- Wait (at most 60 s) until n sessions wait on the advisory lock ('lock'),
-- or until the sampler session is in its sampling loop ('sampler')
CREATE FUNCTION waits_until(what text, n int) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..6000 LOOP
        IF (SELECT count(*) FROM pg_stat_activity
            WHERE CASE what WHEN 'lock' THEN wait_event_type = 'Lock' AND wait_event = 'advisory'
                            ELSE wait_event_type = 'Extension'
                                 AND query LIKE '%sample_waits%(''3 s'')%' END) >= n THEN
            RETURN true;
        END IF;
        PERFORM pg_sleep(0.01);
        PERFORM pg_stat_clear_snapshot();
    END LOOP;
    RETURN false;
END
$$;
SELECT dblink_connect('holder', waits_connstr()) AS holder,
       dblink_connect('sampler', waits_connstr()) AS sampler,
       dblink_connect('w0', waiter_connstr()) AS w0;
SELECT * FROM dblink('holder', 'SELECT pg_advisory_lock(4242)') AS t(x text);
SELECT dblink_send_query('w0', 'SELECT pg_advisory_lock_shared(4242)');
SELECT waits_until('lock', 1) AS w0_waits;
SELECT dblink_send_query('sampler', $$SELECT sum(wait_count)::bigint, sum(wait_s) FROM iobench.sample_waits_raw('3 s') WHERE wait_type = 'Lock:advisory'$$);
SELECT waits_until('sampler', 1) AS sampling;
SELECT dblink_connect('n1', waiter_connstr()) AS n1,
       dblink_send_query('n1', 'SELECT pg_advisory_lock_shared(4242)') AS n1_sent,
       dblink_connect('n2', waiter_connstr()) AS n2,
       dblink_send_query('n2', 'SELECT pg_advisory_lock_shared(4242)') AS n2_sent,
       dblink_connect('n3', waiter_connstr()) AS n3,
       dblink_send_query('n3', 'SELECT pg_advisory_lock_shared(4242)') AS n3_sent;
SELECT waits_until('lock', 4) AS all_wait;
CREATE TEMP TABLE lock_counts AS
    SELECT * FROM dblink_get_result('sampler') AS t(wait_count bigint, wait_s double precision);
SELECT waits_finish('sampler');
SELECT * FROM dblink('holder', 'SELECT pg_advisory_unlock(4242)') AS t(x boolean);
SELECT waits_finish('w0'), waits_finish('n1'), waits_finish('n2'), waits_finish('n3');
SELECT wait_count, wait_s > 0 AND wait_s < 4 * 3.1 AS wait_s_bounded FROM lock_counts;
SELECT dblink_disconnect('holder'), dblink_disconnect('sampler'), dblink_disconnect('w0'),
       dblink_disconnect('n1'), dblink_disconnect('n2'), dblink_disconnect('n3');

-- PostgreSQL's exact counts over the same window: a session commits 20
-- times during a window of the whole instance, and the window's WAL writes
-- are counted exactly (pg_stat_wal), beside whatever the sampler saw.  A
-- window of a set of processes gets no instance-wide counts.  The wait
-- event is IO:WALWrite up to 16 and IO:WalWrite from 17 on, as each server
-- names it.
SELECT dblink_connect('sampler', waits_connstr()) AS sampler,
       dblink_connect('writer', waits_connstr()) AS writer;
SELECT dblink_send_query('sampler', $$SELECT wait_count, exact_count, count_exact FROM iobench.sample_waits_all('3 s') WHERE wait_type IN ('IO:WALWrite', 'IO:WalWrite')$$);
SELECT waits_until('sampler', 1) AS sampling;
SELECT dblink_exec('writer', 'DO $$BEGIN FOR i IN 1..20 LOOP INSERT INTO waits_target VALUES (i); COMMIT; END LOOP; END$$');
SELECT * FROM dblink('writer', 'SELECT pg_stat_force_next_flush()') AS t(x text);
CREATE TEMP TABLE wal_counts AS
    SELECT * FROM dblink_get_result('sampler') AS t(wait_count bigint, exact_count bigint, count_exact boolean);
SELECT waits_finish('sampler');
SELECT exact_count >= 20 AS exact_counted, count_exact, wait_count <= exact_count AS sampled_below
  FROM wal_counts;
SELECT count(*) AS exact_rows
  FROM iobench.sample_waits_all('50 ms', pids => ARRAY[pg_backend_pid()])
 WHERE exact_count IS NOT NULL;
SELECT dblink_disconnect('sampler'), dblink_disconnect('writer');
TRUNCATE waits_target;

-- A wait named as the server names it, whatever its release calls the
-- class: VACUUM (FREEZE) waits for the cleanup lock of a page that a
-- cursor keeps pinned, BufferPin:BufferPin up to 18 and
-- Buffer:BufferCleanup on 19; the sampled name is pg_stat_activity's.
CREATE TABLE waits_pinned (id int);
INSERT INTO waits_pinned SELECT generate_series(1, 100);
SELECT dblink_connect('pinner', waits_connstr()) AS pinner,
       dblink_connect('vacuumer', waits_connstr()) AS vacuumer;
SELECT dblink_exec('pinner', 'BEGIN');
SELECT dblink_exec('pinner', 'DECLARE c CURSOR FOR SELECT * FROM waits_pinned');
SELECT * FROM dblink('pinner', 'FETCH 1 FROM c') AS t(id int);
SELECT pid AS vacuumer_pid FROM dblink('vacuumer', 'SELECT pg_backend_pid()') AS t(pid int) \gset
SELECT dblink_send_query('vacuumer', 'VACUUM (FREEZE) waits_pinned');
CREATE FUNCTION waits_until_pinned(p int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    name text;
BEGIN
    FOR i IN 1..6000 LOOP
        SELECT a.wait_event_type || ':' || a.wait_event INTO name
          FROM pg_stat_activity a
         WHERE a.pid = p AND a.wait_event_type IN ('BufferPin', 'Buffer');
        IF name IS NOT NULL THEN
            RETURN name;
        END IF;
        PERFORM pg_sleep(0.01);
        PERFORM pg_stat_clear_snapshot();
    END LOOP;
    RETURN NULL;
END
$$;
SELECT waits_until_pinned(:vacuumer_pid) AS server_name \gset
CREATE TEMP TABLE pin_sampled AS
    SELECT * FROM iobench.sample_waits_raw('200 ms', pids => ARRAY[:vacuumer_pid]);
SELECT dblink_exec('pinner', 'COMMIT');
SELECT waits_finish('vacuumer');
SELECT :'server_name' IN ('BufferPin:BufferPin', 'Buffer:BufferCleanup') AS a_pin_wait,
       (SELECT array_agg(wait_type) FROM pin_sampled) = ARRAY[:'server_name'] AS named_as_the_server_does,
       (SELECT bool_and(backend_type = 'client backend') FROM pin_sampled) AS client_backend;
SELECT dblink_disconnect('pinner'), dblink_disconnect('vacuumer');
DROP FUNCTION waits_until_pinned(int);
DROP TABLE waits_pinned;

-- Without schedstat, signal and resource time are unknown (NULL), never 0
SET iobench.sample_signal = off;
SELECT count(*) > 0 AS rows, bool_and(signal_s IS NULL AND resource_s IS NULL) AS unknown,
       count(*) FILTER (WHERE wait_type = 'CPU:Preempted') AS preempted_rows
  FROM iobench.sample_waits_all('100 ms');
RESET iobench.sample_signal;

-- Cancel (statement_timeout) stops sampling and closes every descriptor.
-- Only descriptors on /proc count: the backend opens and closes relation
-- files on its own (lazily, and on invalidations) while the sampler runs.
CREATE FUNCTION open_proc_fds() RETURNS bigint
LANGUAGE sql AS $$
    WITH procfs AS (
        SELECT split_part(line, ' ', 1) AS mnt_id
          FROM regexp_split_to_table(pg_read_file('/proc/self/mountinfo'), E'\n') AS line
         WHERE split_part(line, ' ', 5) = '/proc'),
    fds AS (
        SELECT substring(pg_read_file('/proc/' || pg_backend_pid() || '/fdinfo/' || fd, 0, 4096, true)
                         FROM E'mnt_id:\\s*(\\d+)') AS mnt_id
          FROM pg_ls_dir('/proc/' || pg_backend_pid() || '/fd') AS fd)
    SELECT count(*) FROM fds WHERE mnt_id IN (SELECT mnt_id FROM procfs)
$$;
SELECT open_proc_fds() AS fds_before \gset
SET statement_timeout = '300ms';
SELECT count(*) FROM iobench.sample_waits_raw('10 s');
RESET statement_timeout;
SELECT open_proc_fds() = :fds_before AS fds_closed;

-- iobench's own processes stay out of the instance's table: while a run
-- goes on in another session, its launcher (that session) and its recorder
-- wait on the run, and neither shows; its workers' I/O does
SELECT dblink_connect('runner', waits_connstr()) AS runner;
SELECT dblink_send_query('runner', $$SELECT status FROM iobench.run(duration => '1500ms',
                                      file_size => '8MB', engine => 'psync', label => 'waits of others')$$);
SELECT pg_sleep(0.3);
CREATE TEMP TABLE during_run AS
    SELECT * FROM iobench.sample_waits_by_backend('800 ms', sample_period => '5 ms');
SELECT waits_finish('runner');
SELECT dblink_disconnect('runner');
SELECT count(*) FILTER (WHERE wait_type LIKE 'Extension:%') AS iobench_own_waits,
       count(*) FILTER (WHERE wait_type LIKE 'IO:DataFile%') > 0 AS workers_io_shown
  FROM during_run;

-- Arguments are checked up front
SELECT * FROM iobench.sample_waits(NULL);
SELECT * FROM iobench.sample_waits('0 s');
SELECT * FROM iobench.sample_waits('2 days');
SELECT * FROM iobench.sample_waits('1 s', sample_period => '0.5 ms');
SELECT * FROM iobench.sample_waits('1 s', sample_period => '2 s');
SELECT * FROM iobench.sample_waits('1 s', pids => '{}');
SELECT * FROM iobench.sample_waits('1 s', pids => '{1, NULL}');

DROP FUNCTION open_proc_fds();
