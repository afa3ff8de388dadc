-- Running needs EXECUTE (revoked from PUBLIC) and CREATE on the tablespace;
-- results are readable by pg_monitor.
SET client_min_messages = warning;

\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
CREATE TABLESPACE iob_priv_ts LOCATION :'ts_dir';

CREATE ROLE iob_user LOGIN;
CREATE ROLE iob_reader LOGIN IN ROLE pg_monitor;

GRANT USAGE ON SCHEMA iobench TO iob_user;

-- no EXECUTE without a grant
SET ROLE iob_user;
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB');
RESET ROLE;

-- and every function of the API says which grant it needs: none gives
-- PostgreSQL's bare "permission denied for function" (PUBLIC reaches the
-- check only); the functions a user without a grant could not execute:
SELECT p.oid::regprocedure AS bare_denial
  FROM pg_proc p
 WHERE p.pronamespace = 'iobench'::regnamespace
   AND NOT has_function_privilege('iob_user', p.oid, 'EXECUTE')
 ORDER BY 1::text;
\set SHOW_CONTEXT never
SET ROLE iob_user;
-- benchmarks and their results: iobench_user
SELECT * FROM iobench.tune_tablespace('pg_default');
SELECT * FROM iobench.server_vs_disk('pg_default');
SELECT iobench.export_runs();
SELECT * FROM iobench.merged_latency(ARRAY[1]::bigint[]);
SELECT * FROM iobench.wait_table(ARRAY[]::iobench.wait_raw[]);
SELECT * FROM iobench.run_wait_stats(1);
-- the owner's functions: EXECUTE on the function
SELECT * FROM iobench.import_runs('{}');
SELECT * FROM iobench.import_fio('{}');
SELECT iobench.reset_waits();
SELECT iobench.snapshot_waits('by iob_user');
-- superusers only
SELECT * FROM iobench.sweep_io_workers();
RESET ROLE;
-- an import runs as its owner: the grant is of the role the session acts as
GRANT EXECUTE ON FUNCTION iobench.import_runs TO iob_user;
SET ROLE iob_user;
SELECT count(*) AS imported FROM iobench.import_runs('{"format": "iobench runs", "version": 1, "runs": []}');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION iobench.import_runs FROM iob_user;
\set SHOW_CONTEXT errors

GRANT EXECUTE ON FUNCTION iobench.run TO iob_user;

-- the database's default tablespace needs no grant, as for temporary files
SET ROLE iob_user;
SELECT status, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync',
                   label => 'by iob_user')$$);

-- results are written as the schema owner with search_path pinned: an
-- operator of the caller's placed first in search_path is never called
RESET ROLE;
GRANT CREATE ON DATABASE iobench_regression TO iob_user;
SET ROLE iob_user;
CREATE SCHEMA evil;
CREATE FUNCTION evil.concat_jsonb(jsonb, jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'hijacked as %', current_user; END $$;
CREATE OPERATOR evil.|| (LEFTARG = jsonb, RIGHTARG = jsonb, FUNCTION = evil.concat_jsonb);
SET search_path = evil, pg_catalog, public;
SELECT '{}'::jsonb || '{}'::jsonb;
SELECT status, label FROM iobench.run(duration => '200ms', file_size => '1MB',
                                      engine => 'psync', label => 'not hijacked');
RESET search_path;
DROP SCHEMA evil CASCADE;

-- another tablespace needs CREATE on it
SELECT run_id FROM iobench.run(tablespace => 'iob_priv_ts', duration => '200ms',
                               file_size => '1MB');
-- stored results are not readable without pg_monitor
SELECT count(*) FROM iobench.runs;
RESET ROLE;

GRANT CREATE ON TABLESPACE iob_priv_ts TO iob_user;
SET ROLE iob_user;
SELECT tablespace, status, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(tablespace => 'iob_priv_ts', duration => '200ms',
                   file_size => '1MB', engine => 'psync')$$);
-- nor writable by a user who may run benchmarks
INSERT INTO iobench.runs (status, started_at, finished_at, tablespace, rw, block_size,
                          workers, iodepth, duration, warmup, file_size, files,
                          fsync_every, sync_method, direct, engine, rate_iops, seed)
VALUES ('completed', now(), now(), 'x', 'read', 1, 1, 1, '1s', '0s', 1, 1, 0, 'fsync',
        true, 'psync', 0, 0);
RESET ROLE;

-- pg_monitor reads results
SET ROLE iob_reader;
SELECT label, status FROM iobench.runs WHERE label = 'by iob_user';
-- with the run's seconds (a 200 ms run: second 0) and its histogram, of
-- reads only, each summing to the run's reads
SELECT s.seconds, s.kinds AS second_kinds, s.ops = r.read_ops AS seconds_sum_to_reads,
       l.kinds AS histogram_kinds, l.ios = r.read_ops AS histogram_sums_to_reads
  FROM iobench.runs r,
       LATERAL (SELECT array_agg(DISTINCT x.second) AS seconds, array_agg(DISTINCT x.op) AS kinds,
                       sum(x.ops) AS ops
                  FROM iobench.run_seconds x WHERE x.run_id = r.run_id) s,
       LATERAL (SELECT array_agg(DISTINCT x.op) AS kinds, sum(x.count) AS ios
                  FROM iobench.run_latency x WHERE x.run_id = r.run_id) l
 WHERE r.label = 'by iob_user';
RESET ROLE;

-- the internal schema: no role but its owner may use it (the API reaches
-- its helpers without), so a member of iobench_user or pg_monitor calls
-- only the API
SELECT NOT EXISTS (SELECT FROM aclexplode(n.nspacl) a WHERE a.grantee <> n.nspowner) AS owner_only
  FROM pg_namespace n WHERE n.nspname = 'iobench_internal';
SELECT r AS role, has_schema_privilege(r, 'iobench_internal', 'USAGE') AS usage
  FROM unnest(ARRAY['iob_user', 'iob_reader', 'iobench_user', 'pg_monitor']) r;
SET ROLE iob_reader;
SELECT iobench_internal.existing_run(1);
SELECT count(*) > 0 AS report_lines, count(*) FILTER (WHERE l LIKE '%IOPS%') > 0 AS has_iops
  FROM iobench.report((SELECT max(run_id) FROM iobench.runs WHERE label = 'by iob_user')) l;
SELECT count(*) > 0 AS compared
  FROM iobench.compare_runs(ARRAY(SELECT run_id FROM iobench.runs WHERE label = 'by iob_user'));
RESET ROLE;

-- the other tablespace's files are gone as well
SELECT count(*) AS leftover_in_ts
  FROM pg_ls_tmpdir((SELECT oid FROM pg_tablespace WHERE spcname = 'iob_priv_ts'))
 WHERE name LIKE 'pgsql_tmp%.iobench%';

DELETE FROM iobench.runs WHERE label = 'by iob_user' OR tablespace = 'iob_priv_ts';
DROP TABLESPACE iob_priv_ts;
DROP OWNED BY iob_user;
DROP ROLE iob_user;
DROP ROLE iob_reader;
