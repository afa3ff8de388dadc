-- Engine 'postgres' (issue 27): the arguments it refuses, and small runs
-- through the buffer manager with the relation they read
-- (iobench.read_targets), its reuse, growth and removal.
SET client_min_messages = warning;
SET iobench.progress = off;
\set VERBOSITY terse

\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
\set ts_dir2 :abs_builddir '/testtablespace2'
CREATE TABLESPACE iob_sr_ts LOCATION :'ts_dir';
CREATE TABLESPACE iob_sr_ts2 LOCATION :'ts_dir2';

-- The error of a call, as SQLSTATE and message (for the errors whose text
-- depends on the release)
CREATE FUNCTION pg_temp.run_error(call text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    msg text;
BEGIN
    EXECUTE call;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    RETURN SQLSTATE || ': ' || msg;
END
$$;

-- Refused: patterns that write, partial server blocks, what only the raw
-- files have
SELECT iobench.run(engine => 'postgres', rw => 'randwrite', duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', rw => 'write', duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', rw => 'randrw', duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', rw => 'readwrite', duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', block_size => '4kB', duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', block_size => '12kB', duration => '1s', file_size => '12MB');
SELECT iobench.run(engine => 'postgres', files => 2, duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', iodepth => 8, duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', rate_iops => 100, duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', rw => 'randread', rewrite_pct => 10,
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', cold_reads => true, direct => false,
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', tablespaces => ARRAY['iob_sr_ts'],
                   duration => '1s', file_size => '1MB');
-- (issue 35) a group can never work with it, nor with sync_method 'wal':
-- one error, whatever the files, never a hint to add files and then one
-- to remove them
\set VERBOSITY default
SELECT iobench.run(engine => 'postgres', tablespaces => ARRAY['iob_sr_ts', 'iob_sr_ts2'],
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', tablespaces => ARRAY['iob_sr_ts', 'iob_sr_ts2'],
                   files => 2, duration => '1s', file_size => '1MB');
SELECT iobench.run(sync_method => 'wal', tablespaces => ARRAY['iob_sr_ts', 'iob_sr_ts2'],
                   duration => '200ms');
SELECT iobench.run(sync_method => 'wal', tablespaces => ARRAY['iob_sr_ts', 'iob_sr_ts2'],
                   files => 2, duration => '200ms');
-- an argument it would ignore is refused, naming both, never overridden:
-- sync_method 'wal' (the WAL writer's writes), direct => false
SELECT engine, rw, status FROM iobench.run(engine => 'postgres', sync_method => 'wal',
                                           duration => '200ms');
SELECT engine, direct, status FROM iobench.run(engine => 'postgres', direct => false,
                                               duration => '200ms', file_size => '1MB');
\set VERBOSITY terse
-- effective_io_concurrency: in range, and for engine 'postgres' only
SELECT iobench.run(engine => 'postgres', effective_io_concurrency => -1,
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'postgres', effective_io_concurrency => 1001,
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'psync', effective_io_concurrency => 8,
                   duration => '1s', file_size => '1MB');
SELECT iobench.run(effective_io_concurrency => 8, duration => '1s', file_size => '1MB');
SELECT iobench.run(engine => 'psync', io_combine_limit => 8, duration => '1s', file_size => '1MB');
-- io_combine_limit: from 1 to the server's largest (17+); 15 and 16 have none
SELECT pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', io_combine_limit => 0,
                                              duration => '1s', file_size => '1MB')$$)
       = CASE WHEN current_setting('server_version_num')::int >= 170000
              THEN '22023: 0 is out of range for argument "io_combine_limit"'
              ELSE '0A000: argument "io_combine_limit" needs PostgreSQL 17 or later' END
       AS zero_refused;
SELECT pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', io_combine_limit => 100000,
                                              duration => '1s', file_size => '1MB')$$)
       = CASE WHEN current_setting('server_version_num')::int >= 170000
              THEN '22023: 100000 is out of range for argument "io_combine_limit"'
              ELSE '0A000: argument "io_combine_limit" needs PostgreSQL 17 or later' END
       AS too_large_refused;
-- a tablespace's own effective_io_concurrency is what the server uses: a
-- different argument is refused, the same one is not
ALTER TABLESPACE iob_sr_ts SET (effective_io_concurrency = 4);
SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts', effective_io_concurrency => 8,
                   duration => '1s', file_size => '1MB');
-- (a relation of 2 MB: on 18 the kernel's read-around may serve more than
-- 1 % of its reads from the page cache, and the run is stored "invalid")
SET client_min_messages = error;
SELECT status IN ('completed', 'invalid') AS ran, engine
  FROM iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts',
                   effective_io_concurrency => 4, duration => '200ms', file_size => '2MB');
SET client_min_messages = warning;
SELECT r.effective_io_concurrency FROM iobench.runs r
 WHERE r.engine = 'postgres' ORDER BY r.run_id DESC LIMIT 1;
ALTER TABLESPACE iob_sr_ts RESET (effective_io_concurrency);
SELECT iobench.drop_read_targets('iob_sr_ts');
-- the refused calls ran nothing: one run, of the relation now removed
SELECT count(*) AS runs FROM iobench.run_server_reads;
SELECT count(*) AS relations FROM iobench.read_targets;

-- A relation too small to be read cold is refused before anything is
-- made, with the minimum for the run's workers, op size and read-ahead
-- (engine_postgres.c; the read-ahead differs by release): one block, three
-- workers, sequential reads of 16 kB
SELECT pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                                              file_size => '8kB', duration => '1s')$$)
       ~ '^22023: argument "file_size" must be at least \d+kB for this run of engine "postgres", not 8kB$'
       AS one_block_refused;
SELECT pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                                              file_size => '8kB', workers => 3, duration => '1s')$$)
       ~ '^22023: argument "file_size" must be at least \d+kB for this run of engine "postgres", not 8kB$'
       AS three_workers_refused;
SELECT pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2', rw => 'read',
                                              block_size => '16kB', file_size => '16kB', duration => '1s')$$)
       ~ '^22023: argument "file_size" must be at least \d+kB for this run of engine "postgres", not 16kB$'
       AS sequential_refused;
-- the minimum grows with the workers; one block less than the minimum is
-- refused, a relation of the minimum is read without shared-buffer hits
-- (what the minimum is for; the page cache is the kernel's: the run's
-- status is not shown, nor a WARNING about it)
SELECT substring(pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                                   file_size => '8kB', duration => '1s')$$) FROM 'at least (\d+)kB')::bigint
       AS min_kb \gset
SELECT substring(pg_temp.run_error($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                                   file_size => '8kB', workers => 3, duration => '1s')$$) FROM 'at least (\d+)kB')::bigint
       = 3 * :min_kb AS three_times_the_minimum;
SELECT pg_temp.run_error(format($$SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                                  file_size => '%skB', duration => '1s')$$, :min_kb - 8))
       ~ ('^22023: argument "file_size" must be at least ' || :min_kb || 'kB') AS one_block_less_refused;
SELECT count(*) AS relations_made FROM iobench.read_targets WHERE tablespace = 'iob_sr_ts2';
SET client_min_messages = error;
CREATE TEMP TABLE sr_min AS
SELECT * FROM iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2', file_size => :min_kb || 'kB',
                          duration => '200ms');
SET client_min_messages = warning;
SELECT r.status IN ('completed', 'incomplete', 'invalid') AS ran,
       s.buffer_hits <= 0.01 * (s.buffer_hits + s.buffer_reads) AS no_buffer_hits
  FROM sr_min r JOIN iobench.run_server_reads s USING (run_id);
SELECT iobench.drop_read_targets('iob_sr_ts2');

-- Runs: random and sequential reads of 64 kB (8 blocks each); on 17 and
-- later the kernel's read-ahead may serve more than 1 % of a relation this
-- small from the page cache, and the run is stored "invalid" (status
-- shown as "completed or invalid")
SET client_min_messages = error;
CREATE TEMP TABLE sr_runs AS
SELECT * FROM public.with_io($$SELECT * FROM iobench.run(engine => 'postgres', rw => 'randread',
                               block_size => '64kB', duration => '1s', file_size => '16MB',
                               workers => 2, label => 'sr randread')$$);
INSERT INTO sr_runs
SELECT * FROM public.with_io($$SELECT * FROM iobench.run(engine => 'postgres', rw => 'read',
                               block_size => '64kB', duration => '1s', file_size => '16MB',
                               effective_io_concurrency => 4, label => 'sr read')$$);
SET client_min_messages = warning;
SELECT r.label, CASE WHEN r.status IN ('completed', 'invalid') THEN 'completed or invalid' ELSE r.status END AS status,
       r.engine, r.rw, r.block_size, r.read_ops > 0 AS has_reads,
       r.ops = s.blocks / (r.block_size / 8192) AS ops_are_blocks,
       -- every block obtained was a hit or a read, but for the ops at the
       -- period's edges: each worker's op that straddles an edge (counted
       -- whole, or not at all), and the blocks the read path had read
       -- ahead: a read stream (17+) pins at most 4 x effective_io_concurrency
       -- buffers or io_combine_limit (17), (effective_io_concurrency + 1) x
       -- io_combine_limit (18+); 15/16 read the block asked for only
       -- (the figures are shown when they are not)
       CASE WHEN abs(s.blocks - s.buffer_hits - s.buffer_reads)
                 <= r.workers * (r.block_size / 8192
                                 + CASE WHEN s.read_path = 'prefetch' THEN 0
                                        ELSE (r.effective_io_concurrency + 1)
                                             * greatest(pg_size_bytes(r.io_combine_limit) / 8192, 4) END)
            THEN 'yes'
            ELSE format('blocks %s, hits %s, reads %s, eic %s, combine %s',
                        s.blocks, s.buffer_hits, s.buffer_reads,
                        r.effective_io_concurrency, r.io_combine_limit) END
           AS blocks_counted,
       s.buffer_reads > 0 AS read_by_server,
       s.read_path = CASE WHEN current_setting('server_version_num')::int >= 170000
                          THEN 'read_stream' ELSE 'prefetch' END AS read_path_of_release,
       (r.io_combine_limit IS NULL) = (current_setting('server_version_num')::int < 170000)
           AS combine_of_release,
       (r.io_method IS NULL) = (current_setting('server_version_num')::int < 180000)
           AS method_of_release,
       s.shared_buffers = pg_size_bytes(current_setting('shared_buffers')) AS shared_buffers,
       s.relation, s.relation_bytes / 1048576 AS relation_mb, s.page_cache_dropped
  FROM sr_runs r JOIN iobench.run_server_reads s USING (run_id)
 ORDER BY r.run_id;
-- the concurrency stored: the argument, or the server's setting
SELECT r.label, r.effective_io_concurrency =
       COALESCE(CASE WHEN r.label = 'sr read' THEN 4 END,
                current_setting('effective_io_concurrency')::int) AS concurrency
  FROM sr_runs r JOIN iobench.run_server_reads s USING (run_id)
 ORDER BY r.run_id;
-- the relation: listed, an unlogged extension member in the database's
-- tablespace, of file_size (in whole MB: a bulk insert of 18 and later
-- extends a relation by a few more blocks than it fills)
SELECT relation, tablespace, bytes / 1048576 AS mb, size
  FROM iobench.read_targets;
SELECT c.relpersistence, d.deptype
  FROM pg_class c
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
                  AND d.refclassid = 'pg_extension'::regclass
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'iobench'
 WHERE c.oid = (SELECT relation FROM iobench.read_targets);
SELECT pg_relation_filenode(relation) AS filenode_before FROM iobench.read_targets \gset
-- reused by a run of a smaller file_size, unchanged; extended by a larger one
-- (relations this small may be "invalid" on 18: the page cache's read-around)
SET client_min_messages = error;
SELECT status IN ('completed', 'invalid') AS ran
  FROM iobench.run(engine => 'postgres', duration => '200ms', file_size => '8MB');
SELECT relation, bytes / 1048576 AS mb, pg_relation_filenode(relation) = :filenode_before AS same_file
  FROM iobench.read_targets;
SELECT s.relation_bytes / 1048576 AS relation_mb FROM iobench.run_server_reads s
 ORDER BY s.run_id DESC LIMIT 1;
SELECT status IN ('completed', 'invalid') AS ran
  FROM iobench.run(engine => 'postgres', duration => '200ms', file_size => '24MB');
SELECT relation, bytes / 1048576 AS mb, pg_relation_filenode(relation) = :filenode_before AS same_file
  FROM iobench.read_targets;

-- Another tablespace: a relation of its own
SELECT label, tablespace, status IN ('completed', 'invalid') AS ran, engine, read_ops > 0 AS has_reads
  FROM public.with_io($$SELECT * FROM iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2',
                        duration => '1s', file_size => '16MB', label => 'sr ts2')$$);
SET client_min_messages = warning;
SELECT s.relation = 'iobench_internal.read_target_' || t.oid AS relation_of_tablespace,
       s.relation_bytes / 1048576 AS relation_mb
  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id)
  JOIN pg_tablespace t ON t.spcname = r.tablespace
 WHERE r.label = 'sr ts2';
SELECT replace(relation::text, (SELECT oid::text FROM pg_tablespace WHERE spcname = 'iob_sr_ts2'),
               '<oid>') AS relation, tablespace, bytes / 1048576 AS mb
  FROM iobench.read_targets WHERE tablespace = 'iob_sr_ts2';
SELECT count(*) AS relations FROM iobench.read_targets;

-- A run whose blocks are found in shared buffers is stored "invalid",
-- with a WARNING: another session reads its relation all through the
-- run, each scan in a transaction of its own (a scan of less than a
-- quarter of shared buffers keeps its blocks there).  Without it, a run
-- finds at most 1 % of its blocks in shared buffers (a relation this small
-- may still be "invalid" on 18 for the page cache's read-around).
SET client_min_messages = error;
CREATE TEMP TABLE sr_cold AS
SELECT * FROM iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts', file_size => '1MB',
                          effective_io_concurrency => 1, duration => '200ms');
SET client_min_messages = warning;
SELECT s.buffer_hits <= 0.01 * (s.buffer_hits + s.buffer_reads) AS cold_in_shared_buffers
  FROM sr_cold r JOIN iobench.run_server_reads s USING (run_id);
SELECT dblink_connect('warm', waits_connstr());
SELECT dblink_send_query('warm', format($q$DO $d$
DECLARE
    deadline timestamptz := clock_timestamp() + interval '60 s';
BEGIN
    WHILE clock_timestamp() < deadline LOOP
        PERFORM count(*) FROM %s;
        COMMIT;
    END LOOP;
END $d$$q$, (SELECT relation FROM iobench.read_targets WHERE tablespace = 'iob_sr_ts')));
CREATE TEMP TABLE sr_warm AS
SELECT * FROM iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts', file_size => '1MB',
                          effective_io_concurrency => 1, duration => '2s', label => 'sr warm');
SELECT dblink_cancel_query('warm');
SELECT dblink_disconnect('warm');
SELECT r.status, s.buffer_hits > 0.01 * (s.buffer_hits + s.buffer_reads) AS hits_over_1_pct
  FROM sr_warm r JOIN iobench.run_server_reads s USING (run_id);
SELECT status FROM iobench.runs WHERE label = 'sr warm';
-- report() says why
SELECT count(*) AS invalid_lines FROM sr_warm r, iobench.report(r.run_id) AS l(line)
 WHERE l.line ~ '^  INVALID: [0-9.]+ % of the blocks were not read from the disk';
-- an import keeps the rule: such a run as "completed" is refused, as
-- "invalid" it is imported
CREATE FUNCTION pg_temp.import_detail(doc jsonb) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    PERFORM iobench.import_runs(doc, 'elsewhere');
    RETURN 'imported';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ': ' || regexp_replace(detail, '\d+', 'N', 'g');
END
$$;
CREATE TEMP TABLE sr_warm_doc AS
SELECT jsonb_set(jsonb_set(x.d, '{runs,0,run,run_uuid}', '"00000000-0000-0000-0000-0000000000e1"'),
                 '{runs,0,server_reads}',
                 x.d -> 'runs' -> 0 -> 'server_reads' || '{"blocks": 1000, "buffer_hits": 500, "buffer_reads": 500}') AS d
  FROM (SELECT iobench.export_runs(ARRAY[r.run_id]) AS d FROM sr_warm r) x;
SELECT pg_temp.import_detail(jsonb_set(d, '{runs,0,run,status}', '"completed"')) AS as_completed,
       pg_temp.import_detail(d) AS as_invalid
  FROM sr_warm_doc;
DELETE FROM iobench.runs WHERE run_uuid = '00000000-0000-0000-0000-0000000000e1';
SELECT iobench.drop_read_targets('iob_sr_ts');

-- Privileges: without CREATE on the tablespace, neither a run there nor the
-- removal of its relation
CREATE ROLE iob_sr_user IN ROLE iobench_user;
SET ROLE iob_sr_user;
SELECT iobench.run(engine => 'postgres', tablespace => 'iob_sr_ts2', duration => '200ms',
                   file_size => '8MB');
SELECT iobench.drop_read_targets('iob_sr_ts2');
SELECT iobench.drop_read_targets();
RESET ROLE;
SELECT count(*) AS relations FROM iobench.read_targets;
GRANT CREATE ON TABLESPACE iob_sr_ts2 TO iob_sr_user;
SET ROLE iob_sr_user;
SELECT iobench.drop_read_targets('iob_sr_ts2');
RESET ROLE;
REVOKE CREATE ON TABLESPACE iob_sr_ts2 FROM iob_sr_user;
DROP ROLE iob_sr_user;
SELECT tablespace FROM iobench.read_targets;
-- a tablespace without one: nothing to remove
SELECT iobench.drop_read_targets('iob_sr_ts2');
SELECT iobench.drop_read_targets('no_such_tablespace');
-- all of them
SELECT iobench.drop_read_targets();
SELECT count(*) AS relations FROM iobench.read_targets;
SELECT count(*) AS members FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
 WHERE d.classid = 'pg_class'::regclass AND c.relname LIKE 'read\_target\_%';

-- DROP EXTENSION removes the relation (in a database of its own: the other
-- tests keep this one's extension)
CREATE DATABASE iob_sr_db;
-- (on this server's socket and port, as waits_connstr() names them: make
-- installcheck's server need not listen where libpq's defaults point)
SELECT dblink_connect('sr', format('dbname=iob_sr_db host=%s port=%s',
                                   split_part(current_setting('unix_socket_directories'), ',', 1),
                                   current_setting('port')));
SELECT * FROM dblink('sr', $$CREATE EXTENSION iobench$$) AS t(r text);
SELECT status IN ('completed', 'invalid') AS ran
  FROM dblink('sr', $$SELECT status FROM iobench.run(engine => 'postgres',
                      duration => '200ms', file_size => '8MB')$$) AS t(status text);
SELECT * FROM dblink('sr', $$SELECT count(*) FROM iobench.read_targets$$) AS t(relations bigint);
SELECT * FROM dblink('sr', $$DROP EXTENSION iobench$$) AS t(r text);
SELECT * FROM dblink('sr', $$SELECT count(*) FROM pg_class WHERE relname LIKE 'read\_target\_%'$$)
  AS t(relations bigint);
SELECT dblink_disconnect('sr');
DROP DATABASE iob_sr_db;

DELETE FROM iobench.runs WHERE engine = 'postgres';
SELECT count(*) AS rows_left FROM iobench.run_server_reads;
DROP TABLESPACE iob_sr_ts;
DROP TABLESPACE iob_sr_ts2;
