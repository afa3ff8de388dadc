-- Presets built on run(): pgiosim() (C, src/run/pgiosim.c: one run with
-- pgiosim's settings) and suite(), a campaign (src/campaigns/campaign.h)
-- whose runs are taken by suite_body() below, its arguments and tests
-- checked by suite_plan() (src/campaigns/suite.c); and the side-by-side
-- comparison of suites and runs.

-- pgiosim's workload done right: random 8 kB buffered reads from a cold
-- cache over "files" files, write_pct % of them followed by a rewrite of the
-- same block and (fsync on) an fsync; stalls counted and listed.  workers
-- NULL: pgiosim's 10, or as many as a run may have here when fewer (a
-- NOTICE says so).
CREATE OR REPLACE FUNCTION iobench.pgiosim(
    tablespace        name     DEFAULT 'pg_default',
    files             integer  DEFAULT 4,
    workers           integer  DEFAULT NULL,
    write_pct         integer  DEFAULT 10,
    fsync             boolean  DEFAULT true,
    stall_threshold   interval DEFAULT '1s',
    duration          interval DEFAULT '60s',
    file_size         text     DEFAULT '1GB',
    warmup            interval DEFAULT '0s',
    sync_method       text     DEFAULT 'fsync',
    progress_interval interval DEFAULT '10s',
    seed              bigint   DEFAULT NULL,
    label             text     DEFAULT 'pgiosim')
RETURNS iobench.runs
AS 'MODULE_PATHNAME', 'iobench_pgiosim'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.pgiosim IS 'pgiosim-style burn-in: random 8 kB cold reads, a share rewritten and fsync''d, write stalls listed';

-- Mean and standard deviation over the repeats of each (suite, test,
-- tablespace); figures of completed runs only.  Rounded for reading: the
-- exact figures are in iobench.runs.  The latencies are the commit's (the
-- write plus its sync, runs.commit_*) for a test that commits, as the WAL
-- test does, else the data I/O's; the sync's p99 alone is fsync_p99_us and
-- the write's is in runs.write_lat_p99_us.  The note says which.
CREATE OR REPLACE VIEW iobench.suite_results AS
SELECT sr.suite_id,
       s.name AS suite,
       sr.test_no,
       sr.test,
       array_position(s.tablespaces, sr.tablespace) AS tablespace_no,
       sr.tablespace,
       count(r.run_id)::integer AS runs,
       max(r.workers) AS workers,
       max(r.iodepth) AS iodepth,
       max(r.engine) AS engine,
       round(avg(r.iops)::numeric, 1) AS iops,
       round(stddev_samp(r.iops)::numeric, 1) AS iops_stddev,
       round(avg(r.mb_per_s)::numeric, 2) AS mb_per_s,
       round(stddev_samp(r.mb_per_s)::numeric, 2) AS mb_per_s_stddev,
       round(avg(coalesce(r.commit_lat_avg_us, r.lat_avg_us))::numeric, 1) AS lat_avg_us,
       round(avg(coalesce(r.commit_lat_p99_us, r.lat_p99_us))::numeric, 1) AS lat_p99_us,
       round(stddev_samp(coalesce(r.commit_lat_p99_us, r.lat_p99_us))::numeric, 1) AS lat_p99_stddev,
       round(avg(r.fsync_lat_p99_us)::numeric, 1) AS fsync_p99_us,
       nullif(concat_ws('; ', string_agg(DISTINCT sr.note, '; '),
                        CASE WHEN bool_or(r.commit_lat_p99_us IS NOT NULL)
                             THEN 'latencies per commit (a write and its sync)' END), '') AS note,
       round(avg(r.mib_per_s)::numeric, 2) AS mib_per_s,
       round(stddev_samp(r.mib_per_s)::numeric, 2) AS mib_per_s_stddev
  FROM iobench.suite_runs sr
  JOIN iobench.suites s USING (suite_id)
  LEFT JOIN iobench.runs r ON r.run_id = sr.run_id AND r.status IN ('completed', 'incomplete')
 GROUP BY sr.suite_id, s.name, sr.test_no, sr.test, s.tablespaces, sr.tablespace;
COMMENT ON VIEW iobench.suite_results IS 'per suite, test and tablespace: mean and standard deviation over the repeats';

-- The arguments of suite() checked, its tests read from
-- iobench.suite_tests and each checked as a run on each tablespace (an
-- error names the test), fitted to the engines available: a jsonb plan
-- with "campaign" (the iobench.suites row), "name", "repeat" and "tests",
-- each with its note, whether it is skipped, and per tablespace in order
-- the arguments of run() for its runs.
CREATE OR REPLACE FUNCTION iobench_internal.suite_plan(
    name text, tablespaces name[], repeat integer, duration interval, warmup interval,
    file_size text, direct boolean, engine text, seed bigint, label text, wal_sync_method text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'iobench_suite_plan'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench_internal.suite_plan(text, name[], integer, interval, interval, text, boolean, text, bigint, text, text) IS 'suite()''s arguments checked, each test checked as a run on each tablespace';

-- The runs of a suite (campaign.c calls it as the caller, in the suite's
-- subtransaction): test by test, within a test repeat by repeat, within a
-- repeat tablespace by tablespace, so that drift of the machine during a
-- long suite affects every tablespace alike.  A skipped test gets one row
-- per tablespace and no run.  Returns the rows of iobench.suite_runs; a
-- run that ends in an error (a cancel) ends the suite: the error and the
-- test go back to the frame, which keeps the runs done before and raises
-- it.
CREATE OR REPLACE FUNCTION iobench_internal.suite_body(suite_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    tests jsonb := plan OPERATOR(pg_catalog.->) 'tests';
    spcs jsonb := plan OPERATOR(pg_catalog.->) 'campaign' OPERATOR(pg_catalog.->) 'tablespaces';
    ntests integer := pg_catalog.jsonb_array_length(tests);
    nspcs integer := pg_catalog.jsonb_array_length(spcs);
    repeats integer := (plan OPERATOR(pg_catalog.->>) 'repeat')::integer;
    progress boolean := coalesce(pg_catalog.current_setting('iobench.progress', true)::boolean, true);
    steps jsonb := '[]';
    t jsonb;
    a jsonb;
    step jsonb;
    r iobench.runs;
    err_state text;
    err_message text;
    err_detail text;
    err_hint text;
BEGIN
    FOR ti IN 0 .. ntests OPERATOR(pg_catalog.-) 1 LOOP
        t := tests OPERATOR(pg_catalog.->) ti;
        FOR rn IN 1 .. repeats LOOP
            FOR si IN 0 .. nspcs OPERATOR(pg_catalog.-) 1 LOOP
                step := pg_catalog.jsonb_build_object('test_no', t OPERATOR(pg_catalog.->) 'test_no',
                                                      'test', t OPERATOR(pg_catalog.->) 'test',
                                                      'tablespace', spcs OPERATOR(pg_catalog.->) si,
                                                      'repeat_no', rn,
                                                      'note', t OPERATOR(pg_catalog.->) 'note');
                IF (t OPERATOR(pg_catalog.->>) 'skip')::boolean THEN
                    IF rn OPERATOR(pg_catalog.=) 1 THEN
                        steps := steps OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_array(step);
                    END IF;
                    CONTINUE;
                END IF;
                a := t OPERATOR(pg_catalog.->) 'runs' OPERATOR(pg_catalog.->) si;
                IF progress THEN
                    RAISE NOTICE 'iobench suite % #%: test %/% "%" on "%", repeat %/%',
                        plan OPERATOR(pg_catalog.->>) 'name', suite_body.suite_id, ti OPERATOR(pg_catalog.+) 1,
                        ntests, t OPERATOR(pg_catalog.->>) 'test', spcs OPERATOR(pg_catalog.->>) si, rn, repeats;
                END IF;
                BEGIN
                    r := iobench.run(
                        tablespace => coalesce((a OPERATOR(pg_catalog.->>) 'tablespace')::name, 'pg_default'),
                        tablespaces => CASE WHEN a OPERATOR(pg_catalog.?) 'tablespaces'
                                            THEN ARRAY(SELECT x.n::name FROM pg_catalog.jsonb_array_elements_text(
                                                           a OPERATOR(pg_catalog.->) 'tablespaces') x(n)) END,
                        rw => a OPERATOR(pg_catalog.->>) 'rw',
                        block_size => a OPERATOR(pg_catalog.->>) 'block_size',
                        workers => (a OPERATOR(pg_catalog.->>) 'workers')::integer,
                        iodepth => (a OPERATOR(pg_catalog.->>) 'iodepth')::integer,
                        duration => (a OPERATOR(pg_catalog.->>) 'duration')::interval,
                        warmup => (a OPERATOR(pg_catalog.->>) 'warmup')::interval,
                        file_size => a OPERATOR(pg_catalog.->>) 'file_size',
                        files => (a OPERATOR(pg_catalog.->>) 'files')::integer,
                        read_pct => (a OPERATOR(pg_catalog.->>) 'read_pct')::integer,
                        fsync_every => (a OPERATOR(pg_catalog.->>) 'fsync_every')::integer,
                        sync_method => a OPERATOR(pg_catalog.->>) 'sync_method',
                        direct => (a OPERATOR(pg_catalog.->>) 'direct')::boolean,
                        engine => a OPERATOR(pg_catalog.->>) 'engine',
                        seed => (a OPERATOR(pg_catalog.->>) 'seed')::bigint,
                        label => pg_catalog.format('%s #%s: %s', plan OPERATOR(pg_catalog.->>) 'name',
                                                   suite_body.suite_id, t OPERATOR(pg_catalog.->>) 'test'));
                EXCEPTION WHEN OTHERS OR query_canceled THEN
                    GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_message = MESSAGE_TEXT,
                                            err_detail = PG_EXCEPTION_DETAIL, err_hint = PG_EXCEPTION_HINT;
                    RETURN pg_catalog.jsonb_build_object(
                        'steps', steps, 'failed_step', step,
                        'error', pg_catalog.jsonb_build_object('sqlstate', err_state, 'message', err_message,
                                                               'detail', err_detail, 'hint', err_hint));
                END;
                steps := steps OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_array(
                             step OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('run_id', r.run_id));
            END LOOP;
        END LOOP;
    END LOOP;
    RETURN pg_catalog.jsonb_build_object('steps', steps, 'status', 'completed');
END
$$;
COMMENT ON FUNCTION iobench_internal.suite_body(bigint, jsonb) IS 'the runs of a suite, taken as the caller within the campaign frame';

-- A suite's rows of iobench.suite_results, read as the owner (a caller
-- granted suite() need not read the view) by a volatile function, so
-- that they are seen from the statement that stored them.
CREATE OR REPLACE FUNCTION iobench_internal.suite_rows(suite_id bigint)
RETURNS SETOF iobench.suite_results
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT r.* FROM iobench.suite_results r
     WHERE r.suite_id OPERATOR(pg_catalog.=) suite_rows.suite_id
     ORDER BY r.test_no, r.tablespace_no;
END;
COMMENT ON FUNCTION iobench_internal.suite_rows(bigint) IS 'a suite''s rows of iobench.suite_results, per test and tablespace';

-- Run a named suite on each tablespace; one row per (test, tablespace):
-- the arguments and every test checked, then the runs taken in the
-- campaign frame.  Bound when created (no role but the owner has USAGE on
-- iobench_internal).
CREATE OR REPLACE FUNCTION iobench.suite(
    name         text,
    tablespaces  name[],
    repeat       integer  DEFAULT 1,
    duration     interval DEFAULT '30s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    seed         bigint   DEFAULT NULL,
    label        text     DEFAULT NULL,
    wal_sync_method text  DEFAULT NULL)
RETURNS SETOF iobench.suite_results
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH c AS MATERIALIZED (
        SELECT iobench_internal.campaign('suite', p.plan OPERATOR(pg_catalog.->) 'campaign', p.plan,
                                         'iobench_internal.suite_body(bigint, jsonb)'::pg_catalog.regprocedure) AS id
          FROM iobench_internal.suite_plan(suite.name, suite.tablespaces, suite.repeat, suite.duration,
                   suite.warmup, suite.file_size, suite.direct, suite.engine, suite.seed, suite.label,
                   suite.wal_sync_method) p(plan))
    SELECT r.* FROM c CROSS JOIN LATERAL iobench_internal.suite_rows(c.id) r;
END;
COMMENT ON FUNCTION iobench.suite IS 'run a named suite (iobench.suite_tests) on each tablespace, repeat times, and store it';

-- Every suite's tablespaces side by side with the first one (the
-- baseline): ratios above 1 mean more IOPS or MB/s, or a longer p99.
-- Every ratio here, in compare(), compare_runs() and the fleet's reports is
-- rounded to 2 decimals but keeps at least two significant digits: 49 µs
-- against 99,090 µs is 0.00049, not 0.00.
CREATE OR REPLACE VIEW iobench.suite_comparison AS
SELECT o.suite_id,
       o.suite,
       o.test_no,
       o.test,
       b.tablespace AS base_tablespace,
       o.tablespace,
       b.iops AS base_iops,
       o.iops,
       round((o.iops / nullif(b.iops, 0)), greatest(2, 1 - floor(log(abs(nullif((o.iops / nullif(b.iops, 0)), 0))))::integer)) AS iops_ratio,
       b.mb_per_s AS base_mb_per_s,
       o.mb_per_s,
       round((o.mb_per_s / nullif(b.mb_per_s, 0)), greatest(2, 1 - floor(log(abs(nullif((o.mb_per_s / nullif(b.mb_per_s, 0)), 0))))::integer)) AS mb_per_s_ratio,
       b.lat_p99_us AS base_p99_us,
       o.lat_p99_us AS p99_us,
       round((o.lat_p99_us / nullif(b.lat_p99_us, 0)), greatest(2, 1 - floor(log(abs(nullif((o.lat_p99_us / nullif(b.lat_p99_us, 0)), 0))))::integer)) AS p99_ratio,
       o.tablespace_no,
       o.note
  FROM iobench.suite_results o
  JOIN iobench.suite_results b
    ON b.suite_id = o.suite_id AND b.test_no = o.test_no AND b.tablespace_no = 1;
COMMENT ON VIEW iobench.suite_comparison IS 'each suite''s tablespaces side by side per test, with ratios to the first tablespace';

-- One suite's tablespaces side by side per test, against a chosen baseline
-- (the suite's first tablespace when NULL).  The baseline's own rows have
-- ratio 1.
CREATE OR REPLACE FUNCTION iobench_internal.compare(suite_id bigint, baseline name DEFAULT NULL)
RETURNS SETOF iobench.compare_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    spcs name[];
    base name;
BEGIN
    IF compare.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT s.tablespaces INTO spcs FROM iobench.suites s WHERE s.suite_id = compare.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', compare.suite_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Stored suites are listed in iobench.suites.';
    END IF;
    base := coalesce(compare.baseline, spcs[1]);
    IF NOT base = ANY (spcs) THEN
        RAISE EXCEPTION 'tablespace "%" is not part of suite %', base, compare.suite_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Suite %s ran on %s.', compare.suite_id,
                                (SELECT string_agg(format('"%s"', t), ', ') FROM unnest(spcs) t));
    END IF;
    RETURN QUERY
    SELECT o.test_no, o.test, b.tablespace, o.tablespace,
           b.iops, o.iops, round((o.iops / nullif(b.iops, 0)), greatest(2, 1 - floor(log(abs(nullif((o.iops / nullif(b.iops, 0)), 0))))::integer)),
           b.mb_per_s, o.mb_per_s, round((o.mb_per_s / nullif(b.mb_per_s, 0)), greatest(2, 1 - floor(log(abs(nullif((o.mb_per_s / nullif(b.mb_per_s, 0)), 0))))::integer)),
           b.lat_p99_us, o.lat_p99_us, round((o.lat_p99_us / nullif(b.lat_p99_us, 0)), greatest(2, 1 - floor(log(abs(nullif((o.lat_p99_us / nullif(b.lat_p99_us, 0)), 0))))::integer)),
           o.note
      FROM iobench.suite_results o
      JOIN iobench.suite_results b
        ON b.suite_id = o.suite_id AND b.test_no = o.test_no AND b.tablespace = base
     WHERE o.suite_id = compare.suite_id
     ORDER BY o.test_no, o.tablespace_no;
END
$$;
COMMENT ON FUNCTION iobench_internal.compare(bigint, name) IS 'the body of iobench.compare(), which checks the grant first';

-- iobench.compare(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.compare(suite_id bigint, baseline name DEFAULT NULL)
RETURNS SETOF iobench.compare_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.compare(bigint, name)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.compare(compare.suite_id, compare.baseline);
END;
COMMENT ON FUNCTION iobench.compare(bigint, name) IS 'one suite''s tablespaces side by side per test, with ratios to a baseline tablespace';

-- Any runs side by side, in the order given, against a baseline run (the
-- first when NULL).  server names where each ran: the name it was gathered
-- or imported under, or the host for runs made here.  The p99 of a run
-- that commits (runs.commit_*: a write and its sync) is the commit's.  A run of engine
-- postgres shows the io_method and effective_io_concurrency it read with,
-- so runs under different methods compare.
CREATE OR REPLACE FUNCTION iobench_internal.compare_runs(run_ids bigint[], baseline bigint DEFAULT NULL)
RETURNS SETOF iobench.compare_runs_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    base bigint;
BEGIN
    base := coalesce(compare_runs.baseline, compare_runs.run_ids[1]);
    IF NOT base = ANY (compare_runs.run_ids) THEN
        RAISE EXCEPTION 'baseline run % is not one of the runs compared', base
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    SELECT o.run_id, coalesce(iobench.run_server(o), o.host), o.label, o.tablespace, o.rw, o.block_size, o.workers, o.iodepth,
           o.engine, CASE WHEN o.engine = 'postgres' THEN o.io_method END,
           CASE WHEN o.engine = 'postgres' THEN o.effective_io_concurrency END, b.run_id,
           round(b.iops::numeric, 1), round(o.iops::numeric, 1),
           round((o.iops / nullif(b.iops, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((o.iops / nullif(b.iops, 0))::numeric, 0))))::integer)),
           round(b.mb_per_s::numeric, 2), round(o.mb_per_s::numeric, 2),
           round((o.mb_per_s / nullif(b.mb_per_s, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((o.mb_per_s / nullif(b.mb_per_s, 0))::numeric, 0))))::integer)),
           round(bp.p99::numeric, 1), round(op.p99::numeric, 1),
           round((op.p99 / nullif(bp.p99, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((op.p99 / nullif(bp.p99, 0))::numeric, 0))))::integer))
      FROM unnest(compare_runs.run_ids) WITH ORDINALITY AS u(id, n)
      JOIN iobench.runs o ON o.run_id = u.id
      JOIN iobench.runs b ON b.run_id = base,
           LATERAL (SELECT coalesce(o.commit_lat_p99_us, o.lat_p99_us) AS p99) op,
           LATERAL (SELECT coalesce(b.commit_lat_p99_us, b.lat_p99_us) AS p99) bp
     ORDER BY u.n;
END
$$;
COMMENT ON FUNCTION iobench_internal.compare_runs(bigint[], bigint) IS 'the body of iobench.compare_runs(), which checks the grant and the runs first';

-- iobench.compare_runs(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.compare_runs(run_ids bigint[], baseline bigint DEFAULT NULL)
RETURNS SETOF iobench.compare_runs_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.compare_runs(bigint[], bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.check_run_ids(compare_runs.run_ids, true);
    SELECT * FROM iobench_internal.compare_runs(compare_runs.run_ids, compare_runs.baseline);
END;
COMMENT ON FUNCTION iobench.compare_runs(bigint[], bigint) IS 'any runs side by side, with ratios to a baseline run';
