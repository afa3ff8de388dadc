-- The server's read path against the raw disk, and tuning from it:
-- server_vs_disk(), tune_tablespace() and sweep_io_workers().  Argument
-- errors first (nothing runs), then one small real call of each, checked
-- for shape and consistency with the runs it names, not for speed.
\set VERBOSITY default
\set SHOW_CONTEXT never
SET client_min_messages = warning;
SELECT coalesce(max(run_id), 0) AS runs_before FROM iobench.runs \gset

-- every argument is checked before any run
SELECT * FROM iobench.server_vs_disk(tablespace => NULL);
SELECT * FROM iobench.server_vs_disk(tablespace => 'no_such_tablespace');
SELECT * FROM iobench.server_vs_disk(concurrencies => NULL);
SELECT * FROM iobench.server_vs_disk(concurrencies => '{}');
SELECT * FROM iobench.server_vs_disk(concurrencies => '{1,NULL}');
SELECT * FROM iobench.server_vs_disk(concurrencies => '{1,0}');
SELECT * FROM iobench.server_vs_disk(concurrencies => '{5000}');
SELECT * FROM iobench.server_vs_disk(duration => '0s');
SELECT * FROM iobench.server_vs_disk(duration => NULL);
SELECT * FROM iobench.server_vs_disk(duration => '8 days');
SELECT * FROM iobench.server_vs_disk(file_size => 'big');
SELECT * FROM iobench.server_vs_disk(file_size => '1kB');
SELECT * FROM iobench.server_vs_disk(workers => 0);
SELECT * FROM iobench.server_vs_disk(workers => NULL);
SELECT * FROM iobench.tune_tablespace(NULL);
SELECT * FROM iobench.tune_tablespace('pg_default', concurrencies => '{-1}');
SELECT * FROM iobench.tune_tablespace('pg_default', cache_miss_pct => 0);
SELECT * FROM iobench.tune_tablespace('pg_default', cache_miss_pct => 101);
SELECT * FROM iobench.tune_tablespace('pg_default', cache_miss_pct => NULL);
SELECT * FROM iobench.tune_tablespace('pg_default', workers => 2000);
-- combine_limits: out of range on 17+, refused before 17
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$$;
SELECT pg_temp.sqlstate_of($$SELECT * FROM iobench.tune_tablespace('pg_default', combine_limits => '{0}')$$)
       = CASE WHEN current_setting('server_version_num')::int >= 170000 THEN '22023' ELSE '0A000' END AS refused;
SELECT pg_temp.sqlstate_of($$SELECT * FROM iobench.tune_tablespace('pg_default', combine_limits => '{}')$$)
       = CASE WHEN current_setting('server_version_num')::int >= 170000 THEN '22023' ELSE '0A000' END AS refused;

-- a tablespace with its own effective_io_concurrency is refused up front
\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
CREATE TABLESPACE iob_tune_ts LOCATION :'ts_dir';
ALTER TABLESPACE iob_tune_ts SET (effective_io_concurrency = 4);
SELECT * FROM iobench.server_vs_disk('iob_tune_ts');
SELECT * FROM iobench.tune_tablespace('iob_tune_ts');
ALTER TABLESPACE iob_tune_ts RESET (effective_io_concurrency);
SELECT count(*) AS runs_made FROM iobench.runs WHERE run_id > :runs_before;

-- server_vs_disk(): a row per pattern, each naming a raw run (not engine
-- postgres: direct for random reads, buffered and cold with the kernel's
-- read-ahead for sequential ones, as the server's) and a server run of the
-- same pattern and block size, and the executor's cold scan.
-- Where the kernel refuses io_uring (a container's seccomp profile), a raw
-- run above iodepth 1 cannot be made: its row names no raw run and says
-- why, with the server's figures (checked for itself below), so this part
-- reads the same on either kind of machine.
-- (shared buffers, 16 MB here, are all in use by now: a table read into
-- them and dropped frees about 3.5 MB of them, which the executor's scans
-- take; a step given twice is measured once)
CREATE TABLE iob_pad AS SELECT g, repeat('x', 900) AS pad FROM generate_series(1, 3600) g;
SELECT count(*) AS pad_rows FROM iob_pad;
DROP TABLE iob_pad;
CREATE TEMP TABLE svd AS
SELECT * FROM iobench.server_vs_disk(concurrencies => '{1,4,1}', duration => '1s', file_size => '64MB',
                                     label => 'regress');
SELECT pattern, concurrency = coalesce(c.eic, concurrency) AS concurrency_ok,
       block_size = CASE pattern WHEN 'randread' THEN 8192
                                 ELSE 8192 * coalesce((SELECT setting::int FROM pg_settings
                                                        WHERE name = 'io_combine_limit'), 1) END AS block_size_ok
  FROM svd, LATERAL (SELECT CASE WHEN svd.pattern = 'read'
                                 THEN current_setting('effective_io_concurrency')::int END AS eic) c
 ORDER BY pattern DESC, concurrency;
SELECT s.pattern,
       CASE WHEN s.raw_run_id IS NULL
            THEN s.concurrency > 1 AND s.raw_iops IS NULL AND s.raw_mb_per_s IS NULL
                 AND s.raw_lat_p99_us IS NULL
            ELSE r.engine <> 'postgres' AND r.direct = (s.pattern = 'randread')
                 AND r.cold_reads = (s.pattern = 'read') AND r.rw = s.pattern AND r.block_size = s.block_size
                 AND r.iodepth = greatest(s.concurrency, 1) END AS raw_run_ok,
       v.engine = 'postgres' AND v.rw = s.pattern AND v.block_size = s.block_size
         AND v.effective_io_concurrency = s.concurrency AS server_run_ok,
       s.raw_iops IS NOT DISTINCT FROM r.iops AND s.server_iops = v.iops
         AND s.raw_mb_per_s IS NOT DISTINCT FROM r.mb_per_s
         AND s.server_mb_per_s = v.mb_per_s AND s.raw_lat_p99_us IS NOT DISTINCT FROM r.lat_p99_us
         AND s.server_lat_p99_us = v.lat_p99_us AS figures_ok,
       CASE WHEN s.raw_run_id IS NULL THEN s.ratio IS NULL
            ELSE abs(s.ratio - v.iops / r.iops) < 1e-9 END AS ratio_ok,
       s.server_buffer_hits = sr.buffer_hits AS hits_ok,
       CASE WHEN s.raw_run_id IS NULL
            THEN s.summary LIKE 'PostgreSQL gets % IOPS at effective_io_concurrency % (reads of %); no raw run: iodepth % needs io_uring, which is not available: %; %'
            ELSE s.summary LIKE 'PostgreSQL gets % of this disk''s % IOPS at effective_io_concurrency % (reads of %); %' END AS summary_ok,
       (r.label IS NULL OR r.label LIKE 'regress server_vs_disk: raw%')
         AND v.label LIKE 'regress server_vs_disk: server%' AS labels_ok
  FROM svd s
  LEFT JOIN iobench.runs r ON r.run_id = s.raw_run_id
  JOIN iobench.runs v ON v.run_id = s.server_run_id
  JOIN iobench.run_server_reads sr ON sr.run_id = s.server_run_id
 ORDER BY s.pattern DESC, s.concurrency;
-- the executor's cold scan of the scan relation (64 MB, one row per page):
-- a bitmap heap scan of one page in eight at most (fewer when fewer
-- buffers are free, at least 64), or a sequential scan of all of it; cold:
-- every heap page read from the kernel, the hits only the index's
-- (prewarmed); its rates, the ratios scan / engine and scan / disk in
-- MB/s, and the layer the rule names (within 20 %, from the top).  19 has
-- no buffer free list: its scans read only 0.5 % of shared buffers, too
-- few here, and each row says so instead ("no scan: ...").
SELECT s.pattern,
       n.no_scan OR CASE s.pattern WHEN 'randread' THEN s.scan_blocks BETWEEN 64 AND 8192 / 8
                                   ELSE s.scan_blocks = 8192 END AS pages_ok,
       n.no_scan OR s.scan_read_blocks = s.scan_blocks AS cold,
       n.no_scan OR s.scan_hit_blocks < s.scan_read_blocks / 10 AS read_beats_hit,
       n.no_scan OR s.scan_blocks_per_s > 0
                    AND abs(s.scan_mb_per_s - s.scan_blocks_per_s * 8192 / 1e6) < 1e-6 AS rates_ok,
       n.no_scan OR abs(s.scan_ratio - s.scan_mb_per_s / s.server_mb_per_s) < 1e-9 AS scan_ratio_ok,
       n.no_scan OR CASE WHEN s.raw_run_id IS NULL THEN s.scan_disk_ratio IS NULL
                         ELSE abs(s.scan_disk_ratio - s.scan_mb_per_s / s.raw_mb_per_s) < 1e-9 END AS scan_disk_ratio_ok,
       s.limiting_layer IS NOT DISTINCT FROM
         CASE WHEN s.scan_ratio IS NULL THEN NULL
              WHEN s.scan_ratio < 0.8 THEN 'the executor''s per-block work'
              WHEN s.raw_run_id IS NULL THEN NULL
              WHEN s.ratio < 0.8 AND s.scan_disk_ratio < 0.8 THEN 'the server''s read path'
              ELSE 'the disk' END AS layer_ok,
       n.no_scan OR s.summary LIKE format('%%; a cold %s gets %% of that (%% blocks/s, %s of %% pages read from the kernel%%)%s',
                                          CASE s.pattern WHEN 'randread' THEN 'bitmap heap scan' ELSE 'sequential scan' END,
                                          s.scan_read_blocks,
                                          coalesce(': ' || s.limiting_layer || ' limits', '')) AS summary_says_layer
  FROM svd s,
       LATERAL (SELECT current_setting('server_version_num')::int >= 190000
                       AND s.scan_blocks IS NULL AND s.limiting_layer IS NULL
                       AND s.summary LIKE '%; no scan: % to take from other relations%'
                       AS no_scan) n
 ORDER BY s.pattern DESC, s.concurrency;
-- the scan relation is listed with the engine's, one of each per tablespace
SELECT relation, tablespace FROM iobench.read_targets ORDER BY relation::text;

-- without io_uring (iobench.io_uring = off, as where the kernel refuses
-- it): the raw run at iodepth 1 is made with engine psync, the one at 4
-- is not; that row has the server's run and figures, no raw figure and
-- no ratio, and its summary says why
SET iobench.io_uring = off;
CREATE TEMP TABLE svd_nouring AS
SELECT * FROM iobench.server_vs_disk(concurrencies => '{1,4}', duration => '200ms', file_size => '64MB',
                                     label => 'regress no io_uring');
RESET iobench.io_uring;
SELECT s.pattern, s.concurrency, r.engine AS raw_engine, s.raw_iops IS NOT NULL AS raw_figures,
       s.ratio IS NOT NULL AS has_ratio, v.engine AS server_engine, s.server_iops = v.iops AS server_figures,
       regexp_replace(regexp_replace(s.summary, '^PostgreSQL gets [0-9.]+ ', 'PostgreSQL gets N '),
                      '; (a cold|no scan).*$', '') AS summary
  FROM svd_nouring s
  LEFT JOIN iobench.runs r ON r.run_id = s.raw_run_id
  JOIN iobench.runs v ON v.run_id = s.server_run_id
 WHERE s.pattern = 'randread'
 ORDER BY s.concurrency;

-- each call is stored as a campaign: a row of iobench.tunings with the
-- rows it returned, and its runs in the order taken, each named by what
-- it measured (its label, less the call's)
SELECT t.call, t.status, t.label, t.tablespace, t.finished_at IS NOT NULL AS finished, t.arguments,
       t.result = (SELECT jsonb_agg(to_jsonb(v)) FROM svd v) AS result_is_rows,
       (SELECT array_agg(tr.run_id ORDER BY tr.step) = array_agg(tr.run_id ORDER BY tr.run_id)
          FROM iobench.tuning_runs tr WHERE tr.tuning_id = t.tuning_id) AS steps_in_order,
       (SELECT bool_and(r.label = 'regress ' || tr.measures)
          FROM iobench.tuning_runs tr JOIN iobench.runs r USING (run_id) WHERE tr.tuning_id = t.tuning_id)
         AS measures_ok,
       (SELECT count(*) FROM iobench.tuning_runs tr WHERE tr.tuning_id = t.tuning_id)
         = (SELECT count(raw_run_id) + count(server_run_id) FROM svd) AS run_count_ok
  FROM iobench.tunings t WHERE t.label = 'regress' AND t.call = 'server_vs_disk';
SELECT (SELECT array_agg(tr.run_id ORDER BY tr.run_id) FROM iobench.tuning_runs tr
          JOIN iobench.tunings t USING (tuning_id) WHERE t.label = 'regress' AND t.call = 'server_vs_disk')
       = (SELECT array_agg(u.id ORDER BY u.id) FROM svd v, LATERAL unnest(ARRAY[v.raw_run_id, v.server_run_id]) u(id)
           WHERE u.id IS NOT NULL) AS same_runs;

-- A cancel (statement_timeout) during the call: 57014 like any statement,
-- after the frame kept the call as cancelled with the runs taken before
-- (the first, a raw run of 2 s, at least as far as it got) and the
-- cancelled run's part; its DETAIL names the call
SET statement_timeout = '2500ms';
DO $$
DECLARE
    state text;
    detail text;
BEGIN
    PERFORM * FROM iobench.server_vs_disk(concurrencies => '{1}', duration => '2s', file_size => '64MB',
                                          label => 'regress cancel');
    RAISE NOTICE 'not cancelled';
EXCEPTION WHEN query_canceled THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, detail = PG_EXCEPTION_DETAIL;
    RAISE WARNING 'cancelled: % %', state,
        regexp_replace(regexp_replace(detail, '^The partial run is stored as run \d+ with status "cancelled". ', ''),
                       'kept as tuning \d+', 'kept as tuning N');
END
$$;
RESET statement_timeout;
SELECT t.status, t.result IS NULL AS no_result, t.finished_at IS NOT NULL AS finished,
       (SELECT tr.measures FROM iobench.tuning_runs tr WHERE tr.tuning_id = t.tuning_id AND tr.step = 1) AS first_step,
       (SELECT bool_and(r.label = 'regress cancel ' || tr.measures)
          FROM iobench.tuning_runs tr JOIN iobench.runs r USING (run_id) WHERE tr.tuning_id = t.tuning_id)
         AS labels_ok,
       (SELECT EXISTS (SELECT FROM iobench.run_seconds rs WHERE rs.run_id = tr.run_id)
          FROM iobench.tuning_runs tr WHERE tr.tuning_id = t.tuning_id AND tr.step = 1) AS first_run_kept_whole
  FROM iobench.tunings t WHERE t.label = 'regress cancel';

-- tune_tablespace(): the knee and the cost from the runs it names
CREATE TEMP TABLE tune AS
SELECT * FROM iobench.tune_tablespace('pg_default', concurrencies => '{1,2}', duration => '1s',
                                      file_size => '64MB', label => 'regress');
-- stored: the rows it returned, and every run they name, once
SELECT t.status, t.result = (SELECT jsonb_agg(to_jsonb(x)) FROM tune x) AS result_is_rows,
       (SELECT array_agg(DISTINCT u.id ORDER BY u.id) FROM tune x, LATERAL unnest(x.run_ids) u(id))
       = (SELECT array_agg(tr.run_id ORDER BY tr.run_id) FROM iobench.tuning_runs tr
           WHERE tr.tuning_id = t.tuning_id) AS runs_listed
  FROM iobench.tunings t WHERE t.label = 'regress' AND t.call = 'tune_tablespace';
-- (each row: the value in effect now, a statement only for a change, and
-- when it takes effect; io_combine_limit, 17+, below)
SELECT t.setting, t.in_effect = (SELECT p.reset_val FROM pg_settings p WHERE p.name = t.setting) AS in_effect_ok,
       (t.statement IS NULL) = (t.recommended::numeric = t.in_effect::numeric) AS statement_iff_change,
       CASE WHEN t.statement IS NULL THEN t.applies = 'nothing to apply: already in effect'
            ELSE t.applies LIKE 'at once: a tablespace option%' END AS applies_ok
  FROM tune t WHERE t.setting <> 'io_combine_limit' ORDER BY t.setting;
SELECT bool_or(setting = 'io_combine_limit') IS NOT DISTINCT FROM
       EXISTS (SELECT FROM pg_settings WHERE name = 'io_combine_limit') AS combine_row_iff_17
  FROM tune;
-- effective_io_concurrency: the smallest step within the margin of the
-- best figure (the knee): the executor's bitmap heap scan's pages/s at
-- each step (scan_pages_per_s), or where it could not run (the basis says
-- why) the server's IOPS; the server's best step ran twice (the mean of
-- its two runs), and sets the margin (at least 10 %, else twice their
-- spread), which the basis says; maintenance_io_concurrency: the knee of
-- the server's IOPS.  Each value in effect is measured too, and kept when
-- within the margin.
SELECT t.setting,
       t.recommended::int = CASE WHEN (SELECT (x ->> f.key)::float8 FROM jsonb_array_elements(e.steps) x
                                        WHERE (x ->> 'value')::int = t.in_effect::int)
                                      >= (1 - m.margin) * k.best
                                 THEN t.in_effect::int ELSE k.knee END AS rule_ok,
       t.setting = 'maintenance_io_concurrency'
         OR (f.key = 'scan_pages_per_s') = (e.basis LIKE '%of the best cold bitmap heap scan%')
            AND (f.key = 'figure') = (e.basis LIKE '%the executor''s cold scan could not run%') AS basis_says_layer,
       EXISTS (SELECT FROM jsonb_array_elements(e.steps) x WHERE (x ->> 'value')::int = t.in_effect::int)
         AS in_effect_measured,
       t.setting = 'maintenance_io_concurrency'
         OR s.shown = round((100 * m.margin)::numeric, 1) / 100 AS basis_says_margin
  FROM tune t, tune e,
       LATERAL (SELECT x ->> 'value' AS repeated,
                       abs((r1.iops - r2.iops) / greatest(r1.iops, r2.iops)) AS spread,
                       (regexp_match(e.basis, 'within ([0-9.]+) %'))[1]::numeric / 100 AS shown
                  FROM jsonb_array_elements(e.steps) x
                  JOIN iobench.runs r1 ON r1.run_id = (x ->> 'run_id')::bigint
                  JOIN iobench.runs r2 ON r2.run_id = (x ->> 'repeat_run_id')::bigint) s,
       LATERAL (SELECT least(greatest(0.10, 2 * s.spread), 0.5) AS margin, s.spread) m,
       LATERAL (SELECT CASE WHEN t.setting = 'effective_io_concurrency'
                             AND (SELECT bool_and(x ? 'scan_pages_per_s' AND x ->> 'scan_pages_per_s' IS NOT NULL)
                                    FROM jsonb_array_elements(e.steps) x)
                            THEN 'scan_pages_per_s' ELSE 'figure' END AS key) f,
       LATERAL (SELECT max((y ->> f.key)::float8) AS best,
                       min((y ->> 'value')::int) FILTER (WHERE (y ->> f.key)::float8
                                                         >= (1 - m.margin) * (SELECT max((z ->> f.key)::float8)
                                                                                FROM jsonb_array_elements(e.steps) z)) AS knee
                  FROM jsonb_array_elements(e.steps) y) k
 WHERE t.setting IN ('effective_io_concurrency', 'maintenance_io_concurrency')
   AND e.setting = 'effective_io_concurrency'
 ORDER BY t.setting;
-- every run is named: the steps', then the repeat of the best step
SELECT (SELECT array_agg((x ->> 'run_id')::bigint ORDER BY n) FROM jsonb_array_elements(t.steps) WITH ORDINALITY x(x, n))
         || (SELECT array_agg((x ->> 'repeat_run_id')::bigint) FROM jsonb_array_elements(t.steps) x
              WHERE x ? 'repeat_run_id') = t.run_ids AS steps_ok,
       (SELECT count(*) FROM jsonb_array_elements(t.steps) x WHERE x ? 'repeat_run_id') AS repeated_steps,
       (SELECT bool_and((x ->> 'figure')::float8
                        = CASE WHEN x ? 'repeat_run_id' THEN (r.iops + q.iops) / 2 ELSE r.iops END
                        AND r.effective_io_concurrency = (x ->> 'value')::int
                        AND coalesce(q.effective_io_concurrency, r.effective_io_concurrency) = r.effective_io_concurrency)
          FROM jsonb_array_elements(t.steps) x
          JOIN iobench.runs r ON r.run_id = (x ->> 'run_id')::bigint
          LEFT JOIN iobench.runs q ON q.run_id = (x ->> 'repeat_run_id')::bigint) AS figures_ok
  FROM tune t WHERE t.setting = 'effective_io_concurrency';
-- random_page_cost = seq_page_cost x (random cost / sequential cost per
-- page) x 10 %, at least seq_page_cost: the costs of a page of the
-- executor's scans (a bitmap heap scan at concurrency 1, a sequential
-- scan), or where they could not run of the server's runs
SELECT t.recommended::numeric = round(greatest(1.0, coalesce(
           (SELECT max((x ->> 'pages_per_s')::float8) FILTER (WHERE x ->> 'pattern' = 'read')
                   / max((x ->> 'pages_per_s')::float8) FILTER (WHERE x ->> 'pattern' = 'randread')
              FROM jsonb_array_elements(t.steps) x WHERE x ? 'pages_per_s'),
           q.mb_per_s / r.mb_per_s) * 0.1)::numeric, 2) AS cost_ok,
       t.recommended::numeric >= 1 AS at_least_seq_page_cost,
       r.rw = 'randread' AND r.block_size = 8192 AND r.effective_io_concurrency = 1
         AND rs.read_path IS NOT NULL AS random_run_ok,
       q.rw = 'read' AND q.engine = 'postgres' AS seq_run_ok
  FROM tune t
  JOIN iobench.runs r ON r.run_id = t.run_ids[1]
  JOIN iobench.run_server_reads rs ON rs.run_id = r.run_id
  JOIN iobench.runs q ON q.run_id = t.run_ids[2]
 WHERE t.setting = 'random_page_cost';
-- each statement parses and sets what it says (on the test tablespace,
-- rolled back); one equal to the value in effect has none
BEGIN;
DO $$
DECLARE
    st text;
BEGIN
    FOR st IN SELECT replace(statement, 'pg_default', 'iob_tune_ts') FROM tune
               WHERE statement LIKE 'ALTER TABLESPACE %' LOOP
        EXECUTE st;
    END LOOP;
END
$$;
SELECT bool_and(coalesce((SELECT o.option_value::numeric FROM pg_tablespace ts, pg_options_to_table(ts.spcoptions) o
                           WHERE ts.spcname = 'iob_tune_ts' AND o.option_name = t.setting),
                         t.in_effect::numeric) = t.recommended::numeric) AS options_ok
  FROM tune t WHERE t.setting <> 'io_combine_limit';
ROLLBACK;
-- io_combine_limit (17+): a server setting, applied on reload; none when the
-- knee is the value a new session gets (the default 16 is no change)
SELECT count(*) FILTER (WHERE t.statement ~ '^ALTER SYSTEM SET io_combine_limit = [0-9]+; SELECT pg_catalog.pg_reload_conf\(\);$'
                          AND t.applies LIKE 'on reload: %'
                          AND t.recommended <> t.in_effect
                        OR t.statement IS NULL AND t.applies = 'nothing to apply: already in effect'
                          AND t.recommended = t.in_effect)
       = count(*) AS combine_statement_ok,
       bool_and(t.in_effect = (SELECT p.reset_val FROM pg_settings p WHERE p.name = t.setting)) IS NOT FALSE
         AS combine_in_effect_ok
  FROM tune t WHERE t.setting = 'io_combine_limit';

-- export_runs() / import_runs() carry a server run's read path; an
-- imported one is checked like the other children
CREATE TEMP TABLE sdoc AS
SELECT iobench.export_runs(ARRAY[(SELECT server_run_id FROM svd WHERE pattern = 'read')]) AS d;
SELECT jsonb_typeof(d -> 'runs' -> 0 -> 'server_reads') AS exported,
       (d -> 'runs' -> 0 -> 'server_reads') ? 'run_id' AS has_run_id
  FROM sdoc;
CREATE FUNCTION pg_temp.sdoc(path text[], value jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT CASE WHEN path IS NULL THEN x
                WHEN value IS NULL THEN x #- path
                ELSE jsonb_set(x, path, value) END
      FROM (SELECT jsonb_set(d, '{runs,0,run,run_uuid}', '"00000000-0000-0000-0000-0000000000d1"') AS x
              FROM sdoc) s
$$;
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads}', NULL), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads,buffer_reads}', '-1'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads,shared_buffers}', '0'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,run,effective_io_concurrency}', '-3'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads}',
    (SELECT d -> 'runs' -> 0 -> 'server_reads' || '{"blocks": 100, "buffer_hits": 101}' FROM sdoc)), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads,read_path}', '"mmap"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,server_reads,relation}', 'null'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.sdoc('{runs,0,run,engine}', '"psync"'), 'elsewhere');
SELECT imported FROM iobench.import_runs(pg_temp.sdoc(NULL, NULL), 'elsewhere');
SELECT to_jsonb(a) - 'run_id' = to_jsonb(b) - 'run_id' AS same_read_path
  FROM iobench.run_server_reads a, iobench.run_server_reads b
 WHERE a.run_id = (SELECT server_run_id FROM svd WHERE pattern = 'read')
   AND b.run_id = (SELECT run_id FROM iobench.runs WHERE run_uuid = '00000000-0000-0000-0000-0000000000d1');
DELETE FROM iobench.runs WHERE run_uuid = '00000000-0000-0000-0000-0000000000d1';

-- sweep_io_workers(): superusers only; PostgreSQL 18+ with io_method
-- 'worker' (the temp instance's default there), through dblink
CREATE ROLE iob_tune_user LOGIN;
GRANT iobench_user TO iob_tune_user;
SELECT waits_connstr() || ' user=iob_tune_user' AS tune_conn \gset
-- (a member of iobench_user calls the other two, each in a session of its
-- own as that member, so that no plan cached for a superuser hides a
-- lookup the member may not make: no USAGE on iobench_internal needed)
SELECT * FROM dblink(:'tune_conn',
    $q$SELECT count(*) FROM iobench.server_vs_disk(concurrencies => '{1}', duration => '100ms', file_size => '64MB')$q$) AS t(rows bigint);
SELECT rows >= 3 AS rows FROM dblink(:'tune_conn',
    $q$SELECT count(*) FROM iobench.tune_tablespace('pg_default', concurrencies => '{1}', combine_limits => NULL,
                                                  duration => '100ms', file_size => '64MB')$q$) AS t(rows bigint);
SET ROLE iob_tune_user;
SELECT * FROM iobench.sweep_io_workers();
RESET ROLE;
DROP ROLE iob_tune_user;
SELECT * FROM iobench.sweep_io_workers(io_workers => '{0}');
SELECT * FROM iobench.sweep_io_workers(io_workers => '{1}', tablespace => 'no_such_tablespace');
-- what postgresql.auto.conf had is restored, after an error too (a run
-- that fails: engine postgres does not write)
SELECT EXISTS (SELECT FROM pg_settings WHERE name = 'io_workers') AS has_io_workers \gset
\if :has_io_workers
ALTER SYSTEM SET io_workers = 5;
\endif
SELECT pg_reload_conf();
-- (terse: its DETAIL ends with the id of the call kept, checked below)
\set VERBOSITY terse
SELECT * FROM iobench.sweep_io_workers(io_workers => '{1}', rw => 'randwrite', duration => '1s',
                                       file_size => '64MB', label => 'regress sweep');
\set VERBOSITY default
SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name), '')
       = CASE WHEN :'has_io_workers'::boolean THEN 'io_workers=5' ELSE '' END AS restored_after_error
  FROM pg_file_settings WHERE name IN ('io_workers', 'io_min_workers', 'io_max_workers');
CREATE TEMP TABLE sweep AS
SELECT * FROM iobench.sweep_io_workers(io_workers => '{1,2}', duration => '1s', file_size => '64MB',
                                       label => 'regress sweep');
SELECT s.io_workers_set, s.io_workers_running = s.io_workers_set AS running_ok,
       coalesce(r.io_workers, r.io_max_workers) = s.io_workers_set AND sr.read_path = 'read_stream' AS stored_ok,
       s.iops = r.iops AND s.mb_per_s = r.mb_per_s AND r.engine = 'postgres' AS figures_ok
  FROM sweep s JOIN iobench.runs r USING (run_id) JOIN iobench.run_server_reads sr USING (run_id)
 ORDER BY 1;
-- stored (18+): the failed call kept, cancelled, without a run; the
-- other with its rows and its runs in order, each labelled as its step
SELECT t.status, count(tr.run_id) AS runs,
       coalesce(bool_and(r.label = 'regress sweep ' || tr.measures
                         AND tr.measures = format('sweep_io_workers: %s io workers', r.pool)), true) AS labels_ok,
       CASE t.status
       WHEN 'completed' THEN (SELECT array_agg((e.x ->> 'run_id')::bigint ORDER BY e.i)
                                FROM jsonb_array_elements(t.result) WITH ORDINALITY e(x, i))
                             = array_agg(tr.run_id ORDER BY tr.step)
       ELSE t.result IS NULL END AS result_names_runs
  FROM iobench.tunings t
  LEFT JOIN iobench.tuning_runs tr USING (tuning_id)
  LEFT JOIN LATERAL (SELECT x.label, coalesce(x.io_workers, x.io_max_workers) AS pool
                       FROM iobench.runs x WHERE x.run_id = tr.run_id) r ON true
 WHERE t.call = 'sweep_io_workers' AND t.label = 'regress sweep'
 GROUP BY t.tuning_id, t.status, t.result ORDER BY t.tuning_id;
-- restored at the end
SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name), '')
       = CASE WHEN :'has_io_workers'::boolean THEN 'io_workers=5' ELSE '' END AS restored
  FROM pg_file_settings WHERE name IN ('io_workers', 'io_min_workers', 'io_max_workers');
\if :has_io_workers
ALTER SYSTEM RESET io_workers;
\endif
SELECT pg_reload_conf();

-- Steps that read from memory: another session reads the relation all
-- through the calls (a TID range scan, which keeps its blocks in shared
-- buffers, each in a transaction of its own), so the server's runs find
-- their blocks there and are stored "invalid" (run() warns; its figures
-- vary, hence client_min_messages).  tune_tablespace() refuses to
-- recommend from them; server_vs_disk() gives no ratio for them.
SET client_min_messages = error;
SELECT count(*) AS relation_made FROM iobench.run(engine => 'postgres', tablespace => 'iob_tune_ts',
                                                   file_size => '8MB', duration => '100ms');
-- (on this server's socket and port: an installcheck server need not listen
-- where libpq's defaults point)
SELECT dblink_connect('warm', waits_connstr());
SELECT dblink_send_query('warm', format($q$DO $d$
DECLARE
    deadline timestamptz := clock_timestamp() + interval '120 s';
BEGIN
    WHILE clock_timestamp() < deadline LOOP
        PERFORM count(*) FROM %s WHERE ctid < '(1024,0)'::tid;
        COMMIT;
    END LOOP;
END $d$$q$, (SELECT relation FROM iobench.read_targets WHERE tablespace = 'iob_tune_ts')));
CREATE FUNCTION pg_temp.error_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    msg text;
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    RETURN SQLSTATE || ': ' || regexp_replace(msg, 'run \d+', 'run N');
END
$$;
SELECT pg_temp.error_of($$SELECT * FROM iobench.tune_tablespace('iob_tune_ts', concurrencies => '{1}',
                                        combine_limits => NULL, duration => '2s', file_size => '8MB')$$)
       AS tune_refused;
-- the refused call is kept, cancelled, with its runs: the invalid one among them
SELECT t.status, t.result IS NULL AS no_result,
       (SELECT bool_or(r.status = 'invalid') FROM iobench.tuning_runs tr JOIN iobench.runs r USING (run_id)
         WHERE tr.tuning_id = t.tuning_id) AS invalid_run_kept
  FROM iobench.tunings t WHERE t.call = 'tune_tablespace' AND t.tablespace = 'iob_tune_ts';
CREATE TEMP TABLE svd_warm AS
SELECT * FROM iobench.server_vs_disk('iob_tune_ts', concurrencies => '{1}', duration => '2s',
                                     file_size => '8MB');
SELECT dblink_cancel_query('warm');
SELECT dblink_disconnect('warm');
SET client_min_messages = warning;
SELECT bool_or(v.pattern = 'randread' AND r.status = 'invalid') AS random_step_invalid,
       bool_and(CASE WHEN r.status = 'invalid'
                     THEN v.ratio IS NULL AND v.summary LIKE 'not measured: the server''s run % read more than 1 % of its blocks from memory%'
                     ELSE v.summary NOT LIKE 'not measured%' END) AS invalid_steps_marked
  FROM svd_warm v JOIN iobench.runs r ON r.run_id = v.server_run_id;
SELECT iobench.drop_read_targets('iob_tune_ts');

DROP TABLESPACE iob_tune_ts;
