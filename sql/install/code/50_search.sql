-- The load a disk carries within a latency target: a campaign
-- (src/campaigns/campaign.h) whose steps are taken by search_body() below,
-- its arguments checked and its steps planned by search_plan()
-- (src/campaigns/search.c).

-- A latency percentile of a run's data I/O (op NULL: reads and writes) or
-- of one op kind, from its stored histogram, as the runs' own percentiles
-- are computed: the middle of the bucket holding the value, at most the
-- largest latency.
CREATE OR REPLACE FUNCTION iobench_internal.latency_percentile(run_id bigint, percentile double precision,
                                                      op text DEFAULT NULL)
RETURNS double precision
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v double precision;
BEGIN
    IF latency_percentile.percentile IS NULL
       OR NOT (latency_percentile.percentile > 0 AND latency_percentile.percentile <= 100) THEN
        RAISE EXCEPTION 'argument "percentile" must be greater than 0 and at most 100, not %',
                        coalesce(latency_percentile.percentile::text, 'null')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF latency_percentile.op IS NOT NULL AND latency_percentile.op NOT IN ('read', 'write', 'fsync') THEN
        RAISE EXCEPTION '"%" is not a valid value for argument "op"', latency_percentile.op
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Valid values are "read", "write", "fsync", and NULL for data I/O (reads and writes).';
    END IF;
    WITH b AS (
        SELECT l.lower_us, l.upper_us, sum(l.count) AS count
          FROM iobench.run_latency l
         WHERE l.run_id = latency_percentile.run_id
           AND CASE WHEN latency_percentile.op IS NULL THEN l.op IN ('read', 'write')
                    ELSE l.op = latency_percentile.op END
         GROUP BY l.lower_us, l.upper_us
    ), c AS (
        SELECT b.*, sum(b.count) OVER (ORDER BY b.lower_us) AS cum, sum(b.count) OVER () AS total
          FROM b
    )
    SELECT least((c.lower_us + c.upper_us - 0.001) / 2,
                 (SELECT CASE latency_percentile.op WHEN 'read' THEN r.read_lat_max_us
                                                    WHEN 'write' THEN r.write_lat_max_us
                                                    WHEN 'fsync' THEN r.fsync_lat_max_us
                                                    ELSE r.lat_max_us END
                    FROM iobench.runs r WHERE r.run_id = latency_percentile.run_id))
      INTO v
      FROM c
     WHERE c.cum >= greatest(ceil(latency_percentile.percentile / 100 * c.total - 1e-9), 1)
     ORDER BY c.lower_us
     LIMIT 1;
    RETURN v;
END
$$;
COMMENT ON FUNCTION iobench_internal.latency_percentile(bigint, double precision, text) IS 'the body of iobench.latency_percentile(), which checks the run first';

-- iobench.latency_percentile(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.latency_percentile(run_id bigint, percentile double precision,
                                                      op text DEFAULT NULL)
RETURNS double precision
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.latency_percentile(bigint, double precision, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(latency_percentile.run_id);
    SELECT iobench_internal.latency_percentile(latency_percentile.run_id, latency_percentile.percentile, latency_percentile.op);
END;
COMMENT ON FUNCTION iobench.latency_percentile(bigint, double precision, text) IS 'a latency percentile (µs) of a run, from its stored histogram';

-- Each step of each search, the best one marked.
CREATE OR REPLACE VIEW iobench.search_results AS
SELECT t.search_id, t.step, t.run_id, t.workers, t.iodepth,
       t.workers * t.iodepth AS outstanding,
       round(t.iops::numeric, 1) AS iops,
       round(t.latency_us::numeric, 1) AS latency_us,
       s.latency_target,
       s.latency_percentile,
       t.met_target,
       coalesce(t.step = s.best_step, false) AS best
  FROM iobench.search_steps t
  JOIN iobench.searches s USING (search_id);
COMMENT ON VIEW iobench.search_results IS 'the steps of each latency-target search, the best one marked';

-- The arguments of latency_search() checked (as run() checks its own, the
-- heaviest step checked as a run) and its steps planned: a jsonb plan with
-- "campaign" (the iobench.searches row), "run" (the arguments of run()
-- every step shares), "steps" (workers and iodepth of each), "target_us"
-- and "percentile" (null: the mean latency).
CREATE OR REPLACE FUNCTION iobench_internal.search_plan(
    tablespace name, latency_target interval, latency_percentile double precision, rw text,
    block_size text, max_iodepth integer, max_workers integer, step_duration interval,
    warmup interval, file_size text, files integer, direct boolean, engine text, seed bigint,
    label text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'iobench_search_plan'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench_internal.search_plan(name, interval, double precision, text, text, integer, integer, interval, interval, text, integer, boolean, text, bigint, text) IS 'latency_search()''s arguments checked and its steps planned';

-- The steps of a latency search (campaign.c calls it as the caller, in
-- the search's subtransaction): a run per planned step, each read for its
-- latency (the plan's percentile of its data I/O, or its mean); it stops
-- after the first step over the target, or a run that did not run to its
-- end.  Returns the steps for iobench.search_steps and the best step:
-- the most IOPS within the target, the lightest load within 1 % of it
-- (past saturation more load only adds latency).  A step that ends in an
-- error (a cancel) ends the search: the error and the step go back to the
-- frame, which keeps the steps done before and raises it.
CREATE OR REPLACE FUNCTION iobench_internal.search_body(search_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a jsonb := plan OPERATOR(pg_catalog.->) 'run';
    target_us double precision := (plan OPERATOR(pg_catalog.->>) 'target_us')::double precision;
    pct double precision := (plan OPERATOR(pg_catalog.->>) 'percentile')::double precision;
    steps jsonb := '[]';
    best integer;
    step jsonb;
    r iobench.runs;
    lat double precision;
    met boolean;
    ran_to_end boolean := true;
    i integer := 0;
    err_state text;
    err_message text;
    err_detail text;
    err_hint text;
BEGIN
    FOR step IN SELECT s.v FROM pg_catalog.jsonb_array_elements(plan OPERATOR(pg_catalog.->) 'steps') s(v) LOOP
        i := i OPERATOR(pg_catalog.+) 1;
        BEGIN
            r := iobench.run(tablespace => (a OPERATOR(pg_catalog.->>) 'tablespace')::name,
                             rw => a OPERATOR(pg_catalog.->>) 'rw',
                             block_size => a OPERATOR(pg_catalog.->>) 'block_size',
                             workers => (step OPERATOR(pg_catalog.->>) 'workers')::integer,
                             iodepth => (step OPERATOR(pg_catalog.->>) 'iodepth')::integer,
                             duration => (a OPERATOR(pg_catalog.->>) 'duration')::interval,
                             warmup => (a OPERATOR(pg_catalog.->>) 'warmup')::interval,
                             file_size => a OPERATOR(pg_catalog.->>) 'file_size',
                             files => (a OPERATOR(pg_catalog.->>) 'files')::integer,
                             direct => (a OPERATOR(pg_catalog.->>) 'direct')::boolean,
                             engine => a OPERATOR(pg_catalog.->>) 'engine',
                             seed => (a OPERATOR(pg_catalog.->>) 'seed')::bigint,
                             label => pg_catalog.format('latency search #%s: %s x QD%s', search_body.search_id,
                                                        step OPERATOR(pg_catalog.->>) 'workers',
                                                        step OPERATOR(pg_catalog.->>) 'iodepth'));
        EXCEPTION WHEN OTHERS OR query_canceled THEN
            GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_message = MESSAGE_TEXT,
                                    err_detail = PG_EXCEPTION_DETAIL, err_hint = PG_EXCEPTION_HINT;
            RETURN pg_catalog.jsonb_build_object(
                'steps', steps,
                'failed_step', step OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('step', i, 'met_target', false),
                'error', pg_catalog.jsonb_build_object('sqlstate', err_state, 'message', err_message,
                                                       'detail', err_detail, 'hint', err_hint));
        END;
        lat := CASE WHEN pct IS NULL THEN r.lat_avg_us
                    ELSE iobench.latency_percentile(r.run_id, pct) END;
        met := coalesce(r.status OPERATOR(pg_catalog.=) ANY ('{completed,incomplete}')
                        AND r.ops OPERATOR(pg_catalog.>) 0 AND lat OPERATOR(pg_catalog.<=) target_us, false);
        steps := steps OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
                     'step', i, 'run_id', r.run_id, 'workers', r.workers, 'iodepth', r.iodepth,
                     'iops', r.iops, 'latency_us', lat, 'met_target', met);
        ran_to_end := r.status OPERATOR(pg_catalog.=) ANY ('{completed,incomplete,invalid}');
        EXIT WHEN NOT ran_to_end OR NOT met;
    END LOOP;

    -- the best step: the lightest load within 1 % of the most IOPS in the target
    SELECT pg_catalog.min((s.v OPERATOR(pg_catalog.->>) 'step')::integer) INTO best
      FROM pg_catalog.jsonb_array_elements(steps) s(v)
     WHERE (s.v OPERATOR(pg_catalog.->>) 'met_target')::boolean
       AND (s.v OPERATOR(pg_catalog.->>) 'iops')::double precision OPERATOR(pg_catalog.>=)
           (0.99 OPERATOR(pg_catalog.*) (SELECT pg_catalog.max((m.v OPERATOR(pg_catalog.->>) 'iops')::double precision)
                                           FROM pg_catalog.jsonb_array_elements(steps) m(v)
                                          WHERE (m.v OPERATOR(pg_catalog.->>) 'met_target')::boolean));
    IF ran_to_end AND best IS NULL THEN
        lat := (steps OPERATOR(pg_catalog.->) 0 OPERATOR(pg_catalog.->>) 'latency_us')::double precision;
        IF lat IS NULL THEN
            RAISE NOTICE 'iobench: no step of the latency search met its target'
                USING DETAIL = pg_catalog.format('Search %s stopped after its first step (one worker, queue depth 1), which measured no latency: best_step is null.',
                                                 search_body.search_id),
                      HINT = pg_catalog.format('Try a higher latency_target%s, or look at the step''s run with iobench.report().',
                                               CASE WHEN pct IS NULL THEN '' ELSE ' or a lower latency_percentile' END);
        ELSE
            RAISE NOTICE 'iobench: no step of the latency search met its target'
                USING DETAIL = pg_catalog.format('Search %s stopped after its first step (one worker, queue depth 1), whose %s of %s µs is over the target of %s µs; more load only adds latency, so best_step is null.',
                                                 search_body.search_id,
                                                 CASE WHEN pct IS NULL THEN 'mean latency'
                                                      ELSE pg_catalog.format('p%s latency', pct) END,
                                                 pg_catalog.to_char(lat, 'FM999999999990.0'),
                                                 pg_catalog.to_char(target_us, 'FM999999999990.0')),
                      HINT = pg_catalog.format('Try a higher latency_target%s, or look at the step''s run with iobench.report().',
                                               CASE WHEN pct IS NULL THEN '' ELSE ' or a lower latency_percentile' END);
        END IF;
    END IF;
    RETURN pg_catalog.jsonb_build_object('steps', steps, 'campaign', pg_catalog.jsonb_build_object('best_step', best),
                                         'status', CASE WHEN ran_to_end THEN 'completed' ELSE 'cancelled' END);
END
$$;
COMMENT ON FUNCTION iobench_internal.search_body(bigint, jsonb) IS 'the steps of a latency search, taken as the caller within the campaign frame';

-- A search's rows of iobench.search_results, in step order, read as the
-- owner (a caller granted latency_search() need not read the view) by a
-- volatile function, so that they are seen from the statement that stored
-- them.
CREATE OR REPLACE FUNCTION iobench_internal.search_rows(search_id bigint)
RETURNS SETOF iobench.search_results
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT r.* FROM iobench.search_results r
     WHERE r.search_id OPERATOR(pg_catalog.=) search_rows.search_id
     ORDER BY r.step;
END;
COMMENT ON FUNCTION iobench_internal.search_rows(bigint) IS 'a latency search''s rows of iobench.search_results, in step order';

-- Raise the load step by step until the latency target is exceeded: the
-- arguments checked and the steps planned, then the steps taken in the
-- campaign frame; one row per step taken.  Bound when created (no role
-- but the owner has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.latency_search(
    tablespace         name             DEFAULT 'pg_default',
    latency_target     interval         DEFAULT '1ms',
    latency_percentile double precision DEFAULT 99,
    rw                 text             DEFAULT 'randread',
    block_size         text             DEFAULT '8kB',
    max_iodepth        integer          DEFAULT 256,
    max_workers        integer          DEFAULT 1,
    step_duration      interval         DEFAULT '10s',
    warmup             interval         DEFAULT '0s',
    file_size          text             DEFAULT '1GB',
    files              integer          DEFAULT 1,
    direct             boolean          DEFAULT true,
    engine             text             DEFAULT 'auto',
    seed               bigint           DEFAULT NULL,
    label              text             DEFAULT NULL)
RETURNS SETOF iobench.search_results
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.latency_search(name, interval, double precision, text, text, integer, integer, interval, interval, text, integer, boolean, text, bigint, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH c AS MATERIALIZED (
        SELECT iobench_internal.campaign('search', p.plan OPERATOR(pg_catalog.->) 'campaign', p.plan,
                                         'iobench_internal.search_body(bigint, jsonb)'::pg_catalog.regprocedure) AS id
          FROM iobench_internal.search_plan(latency_search.tablespace, latency_search.latency_target,
                   latency_search.latency_percentile, latency_search.rw, latency_search.block_size,
                   latency_search.max_iodepth, latency_search.max_workers, latency_search.step_duration,
                   latency_search.warmup, latency_search.file_size, latency_search.files,
                   latency_search.direct, latency_search.engine, latency_search.seed,
                   latency_search.label) p(plan))
    SELECT r.* FROM c CROSS JOIN LATERAL iobench_internal.search_rows(c.id) r;
END;
COMMENT ON FUNCTION iobench.latency_search IS 'raise queue depth and workers step by step until a latency percentile target is exceeded; the best step within it';
