-- The load a disk carries within a latency target (C, src/campaigns/search.c).

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

-- Raise the load step by step until the latency target is exceeded.
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
AS 'MODULE_PATHNAME', 'iobench_latency_search'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.latency_search IS 'raise queue depth and workers step by step until a latency percentile target is exceeded; the best step within it';
