-- Reading the runs of a fleet call: servers side by side per test, and a
-- table of them as the four-systems comparisons of SQLIO days print it.

-- The stored fleet call fleet_id, for the functions that read one; the
-- errors name their argument "fleet_id".
CREATE OR REPLACE FUNCTION iobench_internal.existing_fleet(fleet_id bigint)
RETURNS iobench.fleets
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
BEGIN
    IF existing_fleet.fleet_id IS NULL THEN
        RAISE EXCEPTION 'argument "fleet_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = existing_fleet.fleet_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'fleet call % does not exist', existing_fleet.fleet_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Stored fleet calls are listed in iobench.fleets.';
    END IF;
    RETURN f;
END
$$;
COMMENT ON FUNCTION iobench_internal.existing_fleet(bigint) IS 'the stored fleet call of that id; an error when there is none';

-- The servers of a fleet call side by side per test, with ratios to a
-- baseline server (the first given when NULL) and to the median server.
-- A concurrent call adds a row "(all servers)" per test: their IOPS and
-- MB/s summed and their percentiles from the merged histograms.  Ratios
-- keep at least two significant digits (as compare()'s, 20_presets.sql).
CREATE OR REPLACE FUNCTION iobench_internal.fleet_compare(fleet_id bigint, baseline text DEFAULT NULL)
RETURNS SETOF iobench.fleet_compare_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
    base text;
BEGIN
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = fleet_compare.fleet_id;
    base := coalesce(fleet_compare.baseline, f.servers[1]);
    IF NOT base = ANY (f.servers) THEN
        RAISE EXCEPTION 'server "%" is not part of fleet call %', base, fleet_compare.fleet_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Fleet call %s ran on %s.', fleet_compare.fleet_id,
                                (SELECT string_agg(format('"%s"', s), ', ') FROM unnest(f.servers) s));
    END IF;
    RETURN QUERY
    WITH fr AS (
        SELECT x.*, r.iops AS r_iops, r.mb_per_s AS r_mb, r.lat_p99_us AS r_p99,
               array_position(f.servers, x.server) AS pos
          FROM iobench.fleet_runs x
          LEFT JOIN iobench.runs r ON r.run_id = x.run_id AND r.status IN ('completed', 'incomplete')
         WHERE x.fleet_id = f.fleet_id
    ), med AS (
        SELECT fr.test_no, percentile_cont(0.5) WITHIN GROUP (ORDER BY fr.r_iops) AS m
          FROM fr WHERE fr.r_iops IS NOT NULL GROUP BY fr.test_no
    ), rows AS (
        SELECT o.test_no, o.test, o.server, o.pos, o.r_iops, o.r_mb, o.r_p99, o.skew_us,
               o.run_id, o.error
          FROM fr o
        UNION ALL
        SELECT o.test_no, min(o.test), '(all servers)', cardinality(f.servers) + 1,
               sum(o.r_iops), sum(o.r_mb),
               (SELECT m.lat_p99_us FROM iobench.merged_latency(array_agg(o.run_id), 'data') m),
               max(o.skew_us), NULL, NULL
          FROM fr o
         WHERE f.concurrent AND o.r_iops IS NOT NULL
         GROUP BY o.test_no
        HAVING count(*) > 1
    )
    SELECT x.test_no, x.test, x.server, base,
           round(x.r_iops::numeric, 1), round((x.r_iops / nullif(b.r_iops, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((x.r_iops / nullif(b.r_iops, 0))::numeric, 0))))::integer)),
           round(x.r_mb::numeric, 2), round((x.r_mb / nullif(b.r_mb, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((x.r_mb / nullif(b.r_mb, 0))::numeric, 0))))::integer)),
           round(x.r_p99::numeric, 1), round((x.r_p99 / nullif(b.r_p99, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((x.r_p99 / nullif(b.r_p99, 0))::numeric, 0))))::integer)),
           CASE WHEN x.run_id IS NOT NULL THEN round((x.r_iops / nullif(med.m, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((x.r_iops / nullif(med.m, 0))::numeric, 0))))::integer)) END,
           round((x.skew_us / 1000)::numeric, 3), x.run_id, x.error
      FROM rows x
      LEFT JOIN fr b ON b.test_no = x.test_no AND b.server = base
      LEFT JOIN med ON med.test_no = x.test_no
     ORDER BY x.test_no, x.pos;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_compare(bigint, text) IS 'the body of iobench.fleet_compare(), which checks the fleet call first';

-- iobench.fleet_compare(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.fleet_compare(fleet_id bigint, baseline text DEFAULT NULL)
RETURNS SETOF iobench.fleet_compare_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.fleet_compare(bigint, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_fleet(fleet_compare.fleet_id);
    SELECT * FROM iobench_internal.fleet_compare(fleet_compare.fleet_id, fleet_compare.baseline);
END;
COMMENT ON FUNCTION iobench.fleet_compare(bigint, text) IS 'the servers of a fleet call side by side per test, with ratios to a baseline server and to the median';

-- A fleet call as one table for reading: a row per test, and per server
-- its IOPS and MB/s (or its error), as seed comparisons of four systems
-- print them.  Servers in the order given.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_report(fleet_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.fleets;
    t record;
    line text;
    s text;
    cell text;
    w integer;
    tw integer;
BEGIN
    SELECT * INTO f FROM iobench.fleets x WHERE x.fleet_id = fleet_report.fleet_id;
    SELECT greatest(max(length(x.test)), 4) INTO tw FROM iobench.fleet_runs x WHERE x.fleet_id = f.fleet_id;
    w := greatest(19, (SELECT max(length(u.n)) FROM unnest(f.servers) u(n)));
    RETURN NEXT format('fleet call %s: %s on %s server%s, %s%s', f.fleet_id,
                       coalesce(format('suite "%s"', f.suite), 'one workload'), cardinality(f.servers),
                       CASE WHEN cardinality(f.servers) > 1 THEN 's' ELSE '' END,
                       CASE WHEN f.concurrent THEN 'all at once' ELSE 'one after another' END,
                       CASE WHEN f.status <> 'completed' THEN ', ' || f.status ELSE '' END);
    line := rpad('test', tw);
    FOREACH s IN ARRAY f.servers LOOP
        line := line || ' | ' || lpad(s, w);
    END LOOP;
    RETURN NEXT line;
    line := rpad('', tw);
    FOREACH s IN ARRAY f.servers LOOP
        line := line || ' | ' || lpad(lpad('IOPS', 9) || ' ' || lpad('MB/s', 8), w);
    END LOOP;
    RETURN NEXT line;
    RETURN NEXT repeat('-', tw) || repeat('-+-' || repeat('-', w), cardinality(f.servers));
    FOR t IN SELECT DISTINCT x.test_no, x.test FROM iobench.fleet_runs x
              WHERE x.fleet_id = f.fleet_id ORDER BY x.test_no LOOP
        line := rpad(t.test, tw);
        FOREACH s IN ARRAY f.servers LOOP
            SELECT CASE WHEN r.run_id IS NOT NULL AND r.status <> 'completed' THEN r.status
                        WHEN x.error IS NOT NULL THEN 'failed'
                        WHEN r.run_id IS NULL THEN '-'
                        ELSE format('%s %s', lpad(round(r.iops::numeric)::text, 9),
                                    lpad(round(r.mb_per_s::numeric, 1)::text, 8)) END
              INTO cell
              FROM iobench.fleet_runs x LEFT JOIN iobench.runs r ON r.run_id = x.run_id
             WHERE x.fleet_id = f.fleet_id AND x.test_no = t.test_no AND x.server = s;
            line := line || ' | ' || lpad(coalesce(cell, '-'), w);
        END LOOP;
        RETURN NEXT line;
    END LOOP;
    FOR t IN SELECT x.server, x.test, x.error FROM iobench.fleet_runs x
              WHERE x.fleet_id = f.fleet_id AND x.error IS NOT NULL
              ORDER BY x.test_no, array_position(f.servers, x.server) LOOP
        RETURN NEXT format('%s, %s: %s', t.server, t.test, t.error);
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_report(bigint) IS 'the body of iobench.fleet_report(), which checks the fleet call first';

-- iobench.fleet_report(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.fleet_report(fleet_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.fleet_report(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_fleet(fleet_report.fleet_id);
    SELECT * FROM iobench_internal.fleet_report(fleet_report.fleet_id);
END;
COMMENT ON FUNCTION iobench.fleet_report(bigint) IS 'a fleet call as one table: per test, each server''s IOPS and MB/s';
