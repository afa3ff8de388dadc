-- search_path: a role that can create objects in a schema on a privileged
-- user's search_path must not get its objects run by any iobench function.
-- The attacker plants operators for every pair of the types iobench's
-- functions compute with, and the functions and aggregates they call; a
-- superuser then calls every function and reads every view of the
-- extension with the attacker's schema first on its path.  Every planted
-- object records its call in public.planted_calls.
SET client_min_messages = warning;

CREATE ROLE iob_attacker;
CREATE SCHEMA attacker AUTHORIZATION iob_attacker;
CREATE TABLE public.planted_calls (what text);
GRANT INSERT ON public.planted_calls TO PUBLIC;

SET ROLE iob_attacker;
-- operators: for each pair whose pg_catalog operator resolves (exactly or
-- through a cast), a planted one with the same argument and result types
DO $do$
DECLARE
    op text;
    l text;
    r text;
    res regtype;
    n integer := 0;
BEGIN
    FOREACH op IN ARRAY ARRAY['+', '-', '*', '/', '%', '^', '=', '<>', '<', '>', '<=', '>=', '||'] LOOP
        FOREACH l IN ARRAY ARRAY['smallint', 'integer', 'bigint', 'numeric', 'real',
                                 'double precision', 'text', 'name', 'interval',
                                 'timestamp with time zone', 'boolean', 'jsonb'] LOOP
            FOREACH r IN ARRAY ARRAY['smallint', 'integer', 'bigint', 'numeric', 'real',
                                     'double precision', 'text', 'name', 'interval',
                                     'timestamp with time zone', 'boolean', 'jsonb'] LOOP
                BEGIN
                    EXECUTE format('SELECT pg_catalog.pg_typeof(NULL::%s OPERATOR(pg_catalog.%s) NULL::%s)',
                                   l, op, r) INTO res;
                EXCEPTION WHEN OTHERS THEN
                    CONTINUE;
                END;
                n := n + 1;
                EXECUTE format($f$
                    CREATE FUNCTION attacker.op_%s(%s, %s) RETURNS %s
                    LANGUAGE sql AS $b$
                        INSERT INTO public.planted_calls VALUES (%L);
                        SELECT $1 OPERATOR(pg_catalog.%s) $2
                    $b$$f$, n, l, r, res, format('operator %s(%s, %s)', op, l, r), op);
                EXECUTE format('CREATE OPERATOR attacker.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = attacker.op_%s)',
                               op, l, r, n);
            END LOOP;
        END LOOP;
    END LOOP;
END
$do$;
-- functions the extension's SQL calls, with pg_catalog's argument types
DO $do$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT * FROM (VALUES
        ('unnest', 'anyarray', 'SETOF anyelement', 'SELECT pg_catalog.unnest($1)'),
        ('round', 'numeric, integer', 'numeric', 'SELECT pg_catalog.round($1, $2)'),
        ('round', 'numeric', 'numeric', 'SELECT pg_catalog.round($1)'),
        ('round', 'double precision', 'double precision', 'SELECT pg_catalog.round($1)'),
        ('floor', 'double precision', 'double precision', 'SELECT pg_catalog.floor($1)'),
        ('ceil', 'double precision', 'double precision', 'SELECT pg_catalog.ceil($1)'),
        ('log', 'double precision', 'double precision', 'SELECT pg_catalog.log($1)'),
        ('abs', 'double precision', 'double precision', 'SELECT pg_catalog.abs($1)'),
        ('sqrt', 'double precision', 'double precision', 'SELECT pg_catalog.sqrt($1)'),
        ('substr', 'text, integer, integer', 'text', 'SELECT pg_catalog.substr($1, $2, $3)'),
        ('repeat', 'text, integer', 'text', 'SELECT pg_catalog.repeat($1, $2)'),
        ('format', 'text', 'text', 'SELECT pg_catalog.format($1)'),
        ('to_char', 'timestamp with time zone, text', 'text', 'SELECT pg_catalog.to_char($1, $2)'),
        ('to_char', 'numeric, text', 'text', 'SELECT pg_catalog.to_char($1, $2)'),
        ('to_char', 'double precision, text', 'text', 'SELECT pg_catalog.to_char($1, $2)'),
        ('generate_series', 'integer, integer', 'SETOF integer', 'SELECT pg_catalog.generate_series($1, $2)'),
        ('pg_size_pretty', 'bigint', 'text', 'SELECT pg_catalog.pg_size_pretty($1)'),
        ('pg_size_bytes', 'text', 'bigint', 'SELECT pg_catalog.pg_size_bytes($1)'),
        ('array_position', 'anycompatiblearray, anycompatible', 'integer', 'SELECT pg_catalog.array_position($1, $2)'),
        ('cardinality', 'anyarray', 'integer', 'SELECT pg_catalog.cardinality($1)'),
        ('clock_timestamp', '', 'timestamp with time zone', 'SELECT pg_catalog.clock_timestamp()'),
        ('now', '', 'timestamp with time zone', 'SELECT pg_catalog.now()'),
        ('to_regprocedure', 'text', 'regprocedure', 'SELECT pg_catalog.to_regprocedure($1)'),
        ('to_regclass', 'text', 'regclass', 'SELECT pg_catalog.to_regclass($1)'),
        ('jsonb_strip_nulls', 'jsonb', 'jsonb', 'SELECT pg_catalog.jsonb_strip_nulls($1)'),
        ('jsonb_build_array', 'jsonb', 'jsonb', 'SELECT pg_catalog.jsonb_build_array($1)'),
        ('current_setting', 'text', 'text', 'SELECT pg_catalog.current_setting($1)'),
        ('least', 'double precision, double precision', 'double precision', 'SELECT pg_catalog.float8smaller($1, $2)'))
        AS t(name, args, result, body)
    LOOP
        EXECUTE format($f$
            CREATE FUNCTION attacker.%I(%s) RETURNS %s
            LANGUAGE sql AS $b$
                INSERT INTO public.planted_calls VALUES (%L);
                %s
            $b$$f$, f.name, f.args, f.result, format('function %s(%s)', f.name, f.args), f.body);
    END LOOP;
END
$do$;
-- aggregates
CREATE FUNCTION attacker.agg_step(state double precision, v anyelement)
RETURNS double precision LANGUAGE sql AS $$
    INSERT INTO public.planted_calls VALUES ('aggregate');
    SELECT state
$$;
DO $do$
DECLARE
    a text;
    t text;
BEGIN
    FOREACH a IN ARRAY ARRAY['sum', 'max', 'min', 'avg', 'count', 'stddev_samp', 'stddev_pop'] LOOP
        FOREACH t IN ARRAY ARRAY['integer', 'bigint', 'numeric', 'double precision', 'text', 'name'] LOOP
            EXECUTE format('CREATE AGGREGATE attacker.%I(%s) (SFUNC = attacker.agg_step, STYPE = double precision)',
                           a, t);
        END LOOP;
    END LOOP;
END
$do$;
RESET ROLE;

-- Each planted object runs when a function does not pin its search_path:
-- this probe is what every iobench function would be without the pin.
CREATE FUNCTION public.unpinned_probe(b bigint) RETURNS bigint
LANGUAGE sql AS $$ SELECT b % 1024 + length(b::text) $$;
SET search_path = attacker, public, pg_catalog;
SELECT public.unpinned_probe(8192);
SELECT what FROM public.planted_calls ORDER BY what;
RESET search_path;
TRUNCATE public.planted_calls;

-- A superuser with the attacker's schema first calls everything.  The
-- statements below use no operator or function outside iobench's own, so
-- any planted call comes from inside the extension; their results are
-- checked afterwards with the normal search_path.
SET search_path = attacker, public, pg_catalog;
CREATE TEMP TABLE r AS
SELECT run_id FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync',
                               rw => 'randrw', fsync_every => 2, label => 'search_path');
CREATE TEMP TABLE p AS
SELECT run_id FROM iobench.pgiosim(files => 1, workers => 1, duration => '200ms',
                                   file_size => '1MB', stall_threshold => '1 us');
CREATE TEMP TABLE s AS
SELECT suite_id FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '100ms',
                                   file_size => '1MB');
CREATE TEMP TABLE out_report AS SELECT * FROM iobench.report((SELECT run_id FROM r));
CREATE TEMP TABLE out_report_p AS SELECT * FROM iobench.report((SELECT run_id FROM p));
CREATE TEMP TABLE out_json AS SELECT iobench.run_json((SELECT run_id FROM r)) AS j;
CREATE TEMP TABLE out_search AS
SELECT * FROM iobench.latency_search(latency_target => '10s', max_iodepth => 1,
                                     step_duration => '100ms', file_size => '1MB');
CREATE TEMP TABLE out_pct AS SELECT iobench.latency_percentile((SELECT run_id FROM r), 99) AS p;
CREATE TEMP TABLE out_disk AS SELECT * FROM iobench.disk_stats((SELECT run_id FROM r));
CREATE TEMP TABLE out_stalls AS SELECT * FROM iobench.stalls((SELECT run_id FROM r), 0.9, '1 us');
CREATE TEMP TABLE out_ranges AS SELECT * FROM iobench.latency_ranges((SELECT run_id FROM r), 'read');
CREATE TEMP TABLE out_lat AS SELECT iobench.fio_latency((SELECT run_id FROM r), 'read', 1, 2, true) AS j;
CREATE TEMP TABLE out_row AS
SELECT iobench.export_run_row((SELECT x FROM iobench.runs x ORDER BY x.run_id DESC LIMIT 1)) AS j;
CREATE TEMP TABLE out_dir AS
SELECT iobench.fio_direction((SELECT x FROM iobench.runs x ORDER BY x.run_id DESC LIMIT 1), 'write') AS j;
CREATE TEMP TABLE out_compare AS SELECT * FROM iobench.compare((SELECT suite_id FROM s LIMIT 1));
CREATE TEMP TABLE out_compare_runs AS
SELECT * FROM iobench.compare_runs(ARRAY[(SELECT run_id FROM r), (SELECT run_id FROM p)]);
CREATE TEMP TABLE out_format AS
SELECT iobench.format_us(1234.5) AS a, iobench.format_us(12) AS b, iobench.format_bytes(8192) AS c,
       iobench.format_bytes(1073741824) AS d, iobench.format_bytes(1000) AS e,
       iobench.sparkline('{1,2,3,0}') AS f, iobench.bar(0.5, 16) AS g,
       iobench.format_rate(69800000) AS h;
CREATE TEMP TABLE out_summary AS SELECT * FROM iobench.run_summary;
CREATE TEMP TABLE out_suite_results AS SELECT * FROM iobench.suite_results;
CREATE TEMP TABLE out_suite_comparison AS SELECT * FROM iobench.suite_comparison;
CREATE TEMP TABLE out_run_waits AS SELECT * FROM iobench.run_wait_stats((SELECT run_id FROM r));
CREATE TEMP TABLE out_run_waits_all AS SELECT * FROM iobench.run_wait_stats_all((SELECT run_id FROM r));
CREATE TEMP TABLE out_sample AS SELECT * FROM iobench.sample_waits('50ms');
CREATE TEMP TABLE out_sample_all AS SELECT * FROM iobench.sample_waits_all('50ms');
CREATE TEMP TABLE out_table AS
SELECT * FROM iobench.wait_table(ARRAY[ROW('IO:DataFileRead', 2, 1, 3, NULL, NULL, NULL)::iobench.wait_raw,
                                       ROW('Lock:relation', 1, NULL, 1, NULL, NULL, NULL)::iobench.wait_raw]);
CREATE TEMP TABLE out_table_all AS
SELECT * FROM iobench.wait_table_all(ARRAY[ROW('IO:DataFileRead', 2, 1, 3, NULL, NULL, NULL)::iobench.wait_raw]);
CREATE TEMP TABLE out_by_backend AS
SELECT * FROM iobench.wait_table_by_backend(ARRAY[ROW('IO:DataFileRead', 2, 1, 3, NULL, NULL, 'io worker')::iobench.wait_raw,
                                                  ROW('IO:DataFileRead', 1, 0, 1, NULL, NULL, 'client backend')::iobench.wait_raw]);
CREATE TEMP TABLE out_sample_by_backend AS SELECT * FROM iobench.sample_waits_by_backend('50ms');
CREATE TEMP TABLE out_descriptions AS SELECT * FROM iobench.wait_event_descriptions();
CREATE TEMP TABLE out_wait_stats_by_backend AS SELECT * FROM iobench.wait_stats_by_backend;
CREATE TEMP TABLE out_wait_stats AS SELECT * FROM iobench.wait_stats;
CREATE TEMP TABLE out_wait_stats_all AS SELECT * FROM iobench.wait_stats_all;
CREATE TEMP TABLE out_collector AS SELECT * FROM iobench.wait_collector;
CREATE TEMP TABLE out_snap_a AS SELECT iobench.snapshot_waits('search_path a') AS t;
CREATE TEMP TABLE out_snap_b AS SELECT iobench.snapshot_waits('search_path b') AS t;
CREATE TEMP TABLE out_diff_raw AS SELECT * FROM iobench.wait_snapshot_diff_raw('search_path a', 'search_path b');
CREATE TEMP TABLE out_diff AS SELECT * FROM iobench.wait_stats_diff('search_path a', 'search_path b');
CREATE TEMP TABLE out_diff_all AS SELECT * FROM iobench.wait_stats_diff_all('search_path a');
CREATE TEMP TABLE out_export AS SELECT iobench.export_runs(ARRAY[(SELECT run_id FROM r)]) AS d;
CREATE TEMP TABLE out_import AS SELECT * FROM iobench.import_runs((SELECT d FROM out_export), 'search_path');
CREATE TEMP TABLE out_fio AS
SELECT run_id FROM iobench.import_fio('{"fio version": "fio-3.33", "timestamp_ms": 1764580000000, "jobs": [{"jobname": "search_path", "job_runtime": 1000, "job options": {"rw": "randrw", "bs": "8k", "size": "1m", "rwmixread": "70", "ramp_time": "1"}, "read": {"total_ios": 2, "io_bytes": 16384, "iops": 2, "bw_bytes": 16384, "clat_ns": {"mean": 1500, "max": 2000, "percentile": {"50.000000": 1000, "99.000000": 2000}, "bins": {"1000": 1, "2000": 1}}}, "write": {"total_ios": 1, "io_bytes": 8192, "iops": 1, "bw_bytes": 8192, "clat_ns": {"mean": 3000, "max": 3000, "percentile": {"50.000000": 3000}, "bins": {"3000": 1}}}, "sync": {"total_ios": 0}}]}', 'search_path');
CREATE TEMP TABLE out_merged AS SELECT * FROM iobench.merged_latency(ARRAY[(SELECT run_id FROM r), (SELECT run_id FROM p)]);
CREATE TEMP TABLE out_bucket AS SELECT * FROM iobench.latency_bucket(123456);
CREATE TEMP TABLE out_fio_size AS SELECT iobench.fio_size('4k') AS b;
CREATE TEMP TABLE out_fleet AS
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a', 'iob_nowhere'],
                                '{"duration": "100ms", "file_size": "1MB", "engine": "psync", "label": "search_path fleet"}',
                                start_delay => '200ms');
CREATE TEMP TABLE out_fleet_suite AS
SELECT * FROM iobench.fleet_suite('oltp', ARRAY['iob_loop_a'], duration => '100ms', file_size => '1MB',
                                  engine => 'psync', concurrent => false, label => 'search_path');
SET statement_timeout = '1s';
DO $$
BEGIN
    PERFORM * FROM iobench.fleet_run(ARRAY['iob_loop_a'],
                                     '{"duration": "60s", "file_size": "1MB", "engine": "psync", "label": "search_path cancel"}',
                                     start_delay => '100ms');
EXCEPTION WHEN query_canceled THEN
    NULL;
END
$$;
RESET statement_timeout;
-- (the attacker's schema is still first on the path: operators qualified)
CREATE TEMP TABLE out_fleet_cancel AS
SELECT fr.fleet_id, fr.run_id, f.status
  FROM iobench.fleets f JOIN iobench.fleet_runs fr ON fr.fleet_id OPERATOR(pg_catalog.=) f.fleet_id
 WHERE (f.settings OPERATOR(pg_catalog.->>) 'label') OPERATOR(pg_catalog.=) 'search_path cancel';
CREATE TEMP TABLE out_fleet_compare AS SELECT * FROM iobench.fleet_compare((SELECT fleet_id FROM out_fleet LIMIT 1));
CREATE TEMP TABLE out_fleet_report AS SELECT * FROM iobench.fleet_report((SELECT fleet_id FROM out_fleet LIMIT 1));
CREATE TEMP TABLE out_fleet_comparison AS SELECT * FROM iobench.fleet_comparison;
CREATE TEMP TABLE out_svd AS
SELECT * FROM iobench.server_vs_disk(concurrencies => '{1}', duration => '100ms', file_size => '64MB');
CREATE TEMP TABLE out_tune AS
SELECT * FROM iobench.tune_tablespace('pg_default', concurrencies => '{1,2}', duration => '100ms',
                                      file_size => '64MB');
-- (18 and later: a sweep of one step at the default pool size, through
-- dblink to this server; before 18 it refuses first)
DO $$
BEGIN
    PERFORM * FROM iobench.sweep_io_workers(io_workers => '{3}', duration => '100ms', file_size => '64MB');
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$$;
RESET search_path;

-- no planted object ran
SELECT what, count(*) FROM public.planted_calls GROUP BY what ORDER BY what;

-- and the functions did their work
SELECT (SELECT count(*) FROM r) = 1 AS run, (SELECT count(*) FROM p) = 1 AS pgiosim,
       (SELECT count(DISTINCT suite_id) FROM s) = 1 AS suite,
       (SELECT count(*) FROM out_report) > 10 AS report,
       (SELECT count(*) FROM out_report_p) > 10 AS report_p,
       (SELECT j ? 'jobs' FROM out_json) AS run_json,
       (SELECT count(*) FROM out_search) = 1 AS latency_search,
       (SELECT p > 0 FROM out_pct) AS latency_percentile,
       (SELECT count(*) FILTER (WHERE NOT member) FROM out_disk) =
           (SELECT CASE WHEN x.disk IS NULL THEN 0 ELSE 2 END
              FROM iobench.runs x WHERE x.run_id = (SELECT run_id FROM r)) AS disk_stats,
       (SELECT j ? 'N' FROM out_lat) AS fio_latency,
       (SELECT j ? 'iops' FROM out_dir) AS fio_direction,
       (SELECT j ? 'runs' FROM out_row) AS export_run_row,
       (SELECT count(*) FROM out_compare) > 0 AS compare,
       (SELECT count(*) FROM out_compare_runs) = 2 AS compare_runs,
       (SELECT count(*) FROM out_summary) > 0 AS summary,
       (SELECT count(*) FROM out_suite_results) > 0 AS suite_results,
       (SELECT count(*) FROM out_suite_comparison) > 0 AS suite_comparison,
       (SELECT count(*) FROM out_table) = 2 AS wait_table,
       (SELECT count(*) FROM out_table_all) = 1 AS wait_table_all,
       (SELECT count(*) FROM out_by_backend) = 2 AS wait_table_by_backend,
       (SELECT count(*) > 0 FROM out_descriptions) = (current_setting('server_version_num')::int >= 170000)
         AS descriptions_from_17,
       (SELECT count(*) FROM out_collector) = 1 AS wait_collector,
       (SELECT t FROM out_snap_a) <= (SELECT t FROM out_snap_b) AS snapshots,
       (SELECT count(*) FROM out_import) = 1 AS import_runs,
       (SELECT count(*) FROM out_fio) = 1 AS import_fio,
       (SELECT runs FROM out_merged) = 2 AS merged_latency,
       (SELECT count(*) FROM out_bucket) = 1 AS latency_bucket,
       (SELECT b FROM out_fio_size) = 4096 AS fio_size,
       (SELECT count(*) FROM out_fleet WHERE status = 'completed') = 1 AS fleet_run,
       (SELECT count(*) FROM out_fleet WHERE status = 'failed') = 1 AS fleet_error,
       (SELECT count(*) FROM out_fleet_suite WHERE status = 'completed') = 3 AS fleet_suite,
       (SELECT count(*) FROM out_fleet_compare) = 2 AS fleet_compare,
       (SELECT count(*) FROM out_fleet_report) > 3 AS fleet_report,
       (SELECT count(*) FROM out_fleet_comparison) > 0 AS fleet_comparison,
       (SELECT status FROM out_fleet_cancel) = 'cancelled' AS fleet_cancel,
       (SELECT count(*) FROM out_svd) = 2 AS server_vs_disk,
       (SELECT count(*) FROM out_tune) >= 3 AS tune_tablespace;
SELECT * FROM out_format;

-- the SQL and PL/pgSQL functions of the extension
CREATE VIEW pg_temp.sql_functions AS
SELECT p.*
  FROM pg_depend d
  JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
  JOIN pg_language l ON l.oid = p.prolang
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
   AND l.lanname <> 'c';

-- every one was called above
SELECT p.oid::regprocedure AS not_called
  FROM pg_temp.sql_functions p
 WHERE p.proname NOT IN ('run_json', 'report', 'stalls', 'latency_ranges', 'fio_latency',
                         'fio_direction', 'compare', 'compare_runs', 'format_us',
                         'format_bytes', 'format_rate', 'summary', 'sparkline', 'bar', 'run_wait_stats',
                         'run_wait_stats_all', 'sample_waits', 'sample_waits_all',
                         'wait_table', 'wait_table_all', 'snapshot_waits',
                         'wait_snapshot_diff_raw', 'wait_stats_diff', 'wait_stats_diff_all',
                         'wait_table_by_backend', 'sample_waits_by_backend',
                         'wait_event_descriptions', 'wait_table_rounded', 'wait_table_top',
                         'existing_run', 'check_run_ids', 'existing_fleet', 'runs_document',
                         'export_runs', 'export_run_row', 'import_runs', 'import_fio', 'fio_size', 'latency_bucket',
                         'merged_latency', 'fleet_run', 'fleet_suite', 'fleet_execute', 'fleet_check',
                         'fleet_arguments', 'fleet_body', 'fleet_rows', 'fleet_drop', 'dblink_connections',
                         'fleet_compare', 'fleet_report', 'fleet_cancel', 'insert_run',
                         'import_children', 'fleet_connect', 'fleet_gather', 'fio_settings',
                         'fio_figures', 'fio_latency_section', 'deep_field',
                         'disk_stats', 'latency_percentile', 'imported_run_problems',
                         'check_imported_run', 'check_import_size', 'fio_number', 'fio_size_option',
                         'fleet_import', 'run_server', 'server_vs_disk', 'server_vs_disk_layers', 'tune_tablespace',
                         'scan_plan_figures', 'tune_scans', 'tune_with_scans',
                         'server_tuning_check', 'server_tuning_steps', 'max_io_concurrency',
                         'combine_steps', 'check_cache_miss_pct', 'server_vs_disk_runs', 'server_vs_disk_body',
                         'tune_tablespace_runs', 'tune_tablespace_body', 'tuning_result',
                         'suite', 'suite_body', 'suite_rows', 'latency_search', 'search_body', 'search_rows',
                         -- called through on 18 and later only (before, it refuses first)
                         'sweep_io_workers', 'sweep_io_workers_body', 'conninfo_value', 'set_io_workers',
                         'sweep_connect')
 ORDER BY 1;

-- every one pins its search_path
SELECT p.oid::regprocedure AS unpinned
  FROM pg_temp.sql_functions p
 WHERE NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false)
 ORDER BY 1;

DELETE FROM iobench.wait_snapshots WHERE snapshot_name LIKE 'search_path %';
DELETE FROM iobench.runs
 WHERE run_id IN (SELECT run_id FROM iobench.suite_runs WHERE suite_id IN (SELECT suite_id FROM s));
DELETE FROM iobench.suites WHERE suite_id IN (SELECT suite_id FROM s);
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM out_search);
DELETE FROM iobench.searches WHERE search_id IN (SELECT search_id FROM out_search);
DELETE FROM iobench.fleets WHERE fleet_id IN (SELECT fleet_id FROM out_fleet UNION SELECT fleet_id FROM out_fleet_suite
                                              UNION SELECT fleet_id FROM out_fleet_cancel);
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM out_fleet UNION SELECT run_id FROM out_fleet_suite
                                          UNION SELECT run_id FROM out_fio UNION SELECT run_id FROM out_fleet_cancel);
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM r UNION SELECT run_id FROM p);
DROP FUNCTION public.unpinned_probe(bigint);
DROP TABLE public.planted_calls;
DROP SCHEMA attacker CASCADE;
DROP ROLE iob_attacker;
SELECT public.leftover_files() AS leftover_files;
