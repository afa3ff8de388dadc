
------------------------------------------------------------------------
-- Wait statistics
--
-- Raw rows (iobench.wait_raw) come from three samplers: the always-on
-- collector (iobench.waits_raw(), needs shared_preload_libraries), a window
-- sampled from the calling backend (iobench.sample_waits_raw()) and a
-- benchmark run (iobench.run_waits).  iobench.wait_table_all() is the one
-- definition of the columns, the benign filter and the 95 % cut; every
-- table people read is built from it.
------------------------------------------------------------------------

-- The server's description of each wait event, as "type:event" (PostgreSQL
-- 17 and later have the pg_wait_events view; before, no rows).
CREATE OR REPLACE FUNCTION iobench_internal.wait_event_descriptions()
RETURNS SETOF iobench.wait_event_descriptions_row
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_wait_events') IS NOT NULL THEN
        RETURN QUERY EXECUTE
            'SELECT e.type OPERATOR(pg_catalog.||) '':'' OPERATOR(pg_catalog.||) e.name, e.description
               FROM pg_catalog.pg_wait_events e';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.wait_event_descriptions() IS 'the body of iobench.wait_event_descriptions(), which checks the grant first';

-- iobench.wait_event_descriptions(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.wait_event_descriptions()
RETURNS SETOF iobench.wait_event_descriptions_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_event_descriptions()'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_event_descriptions();
END;
COMMENT ON FUNCTION iobench.wait_event_descriptions IS 'the server''s description of each wait event (pg_wait_events, PostgreSQL 17+; no rows before)';

-- The one definition of the wait table, on raw rows: rows of one name (of
-- every backend type) are summed; Signal_S is unknown (NULL) if any part of it is, and is capped at
-- Wait_S (run_delay is credited when a process gets back on a CPU, so one
-- sample can carry more than its own interval; the cap keeps
-- Resource_S + Signal_S = Wait_S with Resource_S >= 0); Percentage is of
-- the non-benign rows; in_top_95 keeps the rows while the running total
-- before them is under 95 %, so the row that crosses 95 % is kept.
--
-- Counts and averages (doc/iobench.md, "WaitCount and AvgWait_S"): a
-- sampled count is a lower bound (waits shorter than a tick slip between
-- ticks, and back-to-back waits of one process look like one), so:
-- - where something counted every wait (exact_count, at least the sampled
--   count), WaitCount is that count and AvgWait_S is exact_wait_s over it
--   (or, untimed, the sampled time over it), split into AvgRes_S and
--   AvgSig_S as the sampled time splits;
-- - otherwise WaitCount is the sampled count (count_exact false), and the
--   averages are left NULL unless the waits are long enough to be counted
--   one by one: an average of at least 10 sampling periods, in a class
--   whose waits are not sub-tick by nature (not IO or LWLock).
--
-- sample_period_s is the sampling period of the raw rows (NULL: unknown;
-- then only the class rule holds back an average).
--
-- Rows of the server's I/O workers that a run of engine 'postgres' keeps
-- apart (wait type followed by ' (io worker)', src/run/wait_run.c) wait for
-- the same reads as the run's own workers: they are outside the
-- Percentage base and have no Percentage, and are kept for the tables
-- people read (in_top_95) unless benign; benign and description are those
-- of the wait type without the label.
CREATE OR REPLACE FUNCTION iobench.wait_table_all(raw iobench.wait_raw[],
                                                  sample_period_s double precision)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_table_all(iobench.wait_raw[], double precision)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH grouped AS (
        SELECT u.wait_type,
               sum(u.wait_s) AS wait_s,
               CASE WHEN count(u.signal_s) = count(*) THEN sum(u.signal_s) END AS signal_s,
               sum(u.wait_count)::bigint AS wait_count,
               sum(u.exact_count)::bigint AS exact_count,
               CASE WHEN count(u.exact_wait_s) = count(u.exact_count)
                    THEN sum(u.exact_wait_s) END AS exact_wait_s,
               array_agg(DISTINCT u.backend_type ORDER BY u.backend_type)
                   FILTER (WHERE u.backend_type IS NOT NULL) AS backend_types,
               wait_table_all.sample_period_s AS period_s
        FROM unnest(raw) AS u
        WHERE u.wait_type IS NOT NULL
        GROUP BY u.wait_type
    ), counted AS (
        SELECT g.*,
               coalesce(g.exact_count >= g.wait_count, false) AS count_exact
        FROM grouped g
    ), averaged AS (
        SELECT c.*,
               CASE WHEN c.count_exact THEN
                        coalesce(c.exact_wait_s, c.wait_s) / nullif(c.exact_count, 0)
                    WHEN split_part(c.wait_type, ':', 1) NOT IN ('IO', 'LWLock')
                         AND c.wait_s >= 10 * coalesce(c.period_s, 0) * c.wait_count THEN
                        c.wait_s / nullif(c.wait_count, 0)
               END AS avg_wait
        FROM counted c
    ), labelled AS (
        SELECT a.*,
               a.wait_type LIKE '% (io worker)' AS apart
        FROM averaged a
    ), based AS (
        SELECT l.*,
               CASE WHEN l.apart THEN left(l.wait_type, -length(' (io worker)'))
                    ELSE l.wait_type END AS base_type
        FROM labelled l
    ), flagged AS (
        SELECT a.*,
               CASE WHEN a.signal_s IS NOT NULL THEN least(a.signal_s, a.wait_s) END AS sig,
               EXISTS (SELECT 1 FROM iobench.benign_waits b
                       WHERE b.wait_type = a.base_type) AS benign
        FROM based a
    ), pct AS (
        SELECT f.*,
               CASE WHEN NOT f.benign AND NOT f.apart THEN
                   100.0 * f.wait_s / nullif(sum(f.wait_s) FILTER (WHERE NOT f.benign AND NOT f.apart) OVER (), 0)
               END AS percentage
        FROM flagged f
    ), running AS (
        SELECT p.*,
               coalesce(sum(p.percentage) OVER (ORDER BY p.wait_s DESC, p.wait_type
                                                ROWS UNBOUNDED PRECEDING), 0)
                 - coalesce(p.percentage, 0) AS before
        FROM pct p
    )
    SELECT r.wait_type,
           r.wait_s,
           r.wait_s - r.sig,
           r.sig,
           CASE WHEN r.count_exact THEN r.exact_count ELSE r.wait_count END,
           r.percentage,
           r.avg_wait,
           r.avg_wait * (r.wait_s - r.sig) / nullif(r.wait_s, 0),
           r.avg_wait * r.sig / nullif(r.wait_s, 0),
           r.exact_count,
           r.exact_wait_s,
           r.benign,
           NOT r.benign AND (r.apart OR (r.percentage IS NOT NULL AND r.before < 95)),
           r.wait_count,
           r.count_exact,
           d.description,
           r.backend_types
    FROM running r
    LEFT JOIN iobench.wait_event_descriptions() AS d ON d.wait_type = r.base_type
    ORDER BY r.wait_s DESC, r.wait_type;
END;
COMMENT ON FUNCTION iobench.wait_table_all(iobench.wait_raw[], double precision) IS 'all rows of a wait table sampled every sample_period_s seconds, unrounded, with the benign and 95 % flags';

CREATE OR REPLACE FUNCTION iobench.wait_table_all(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_table_all(iobench.wait_raw[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(raw, NULL::double precision);
END;
COMMENT ON FUNCTION iobench.wait_table_all(iobench.wait_raw[]) IS 'all rows of a wait table, unrounded, with the benign and 95 % flags (sampling period unknown)';

-- One row of the table people read, from a row of wait_table_all(): Paul
-- Randal's columns, rounded.
CREATE OR REPLACE FUNCTION iobench_internal.wait_table_rounded(t iobench.wait_stats_row)
RETURNS iobench.wait_table_row
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ROW(t.wait_type,
               t.wait_s::numeric(16, 2),
               t.resource_s::numeric(16, 2),
               t.signal_s::numeric(16, 2),
               t.wait_count,
               t.percentage::numeric(5, 2),
               t.avg_wait_s::numeric(16, 4),
               t.avg_res_s::numeric(16, 4),
               t.avg_sig_s::numeric(16, 4))::iobench.wait_table_row
$$;
COMMENT ON FUNCTION iobench_internal.wait_table_rounded IS 'a row of a wait table in SQL Server''s format (Paul Randal''s columns, rounded) from a row of wait_table_all()';

-- The table people read, from the rows of a wait_table_all(): Paul
-- Randal's columns, benign rows left out, cut after the row that takes the
-- running total past 95 %.  Every wait table in that format (wait_table,
-- wait_stats_diff, sample_waits) is this over the matching *_all rows.
CREATE OR REPLACE FUNCTION iobench_internal.wait_table_top(all_rows iobench.wait_stats_row[])
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT r.*
    FROM unnest(all_rows) AS t,
         iobench_internal.wait_table_rounded(t) AS r
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type;
END;
COMMENT ON FUNCTION iobench_internal.wait_table_top IS 'the wait table in SQL Server''s format (Paul Randal''s columns, top 95 %) from the rows of wait_table_all()';

-- The table people read, from raw rows.
CREATE OR REPLACE FUNCTION iobench.wait_table(raw iobench.wait_raw[],
                                              sample_period_s double precision)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_table(iobench.wait_raw[], double precision)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.wait_table_all(raw, sample_period_s) AS t));
END;
COMMENT ON FUNCTION iobench.wait_table(iobench.wait_raw[], double precision) IS 'the wait table in SQL Server''s format (Paul Randal''s columns) from raw rows sampled every sample_period_s seconds';

CREATE OR REPLACE FUNCTION iobench.wait_table(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_table(iobench.wait_raw[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table(raw, NULL::double precision);
END;
COMMENT ON FUNCTION iobench.wait_table(iobench.wait_raw[]) IS 'the wait table in SQL Server''s format (Paul Randal''s columns) from raw rows (sampling period unknown)';

-- The waits of each backend type: a row per backend type and wait type,
-- the time split as in wait_table_all(), Percentage of all non-benign wait
-- time, with the server's description.  Counts are the sampled entries.
CREATE OR REPLACE FUNCTION iobench.wait_table_by_backend(raw iobench.wait_raw[])
RETURNS SETOF iobench.wait_backend_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_table_by_backend(iobench.wait_raw[])'::pg_catalog.text::pg_catalog.regprocedure);
    WITH grouped AS (
        SELECT u.backend_type,
               u.wait_type,
               sum(u.wait_s) AS wait_s,
               CASE WHEN count(u.signal_s) = count(*) THEN sum(u.signal_s) END AS signal_s,
               sum(u.wait_count)::bigint AS wait_count
        FROM unnest(raw) AS u
        WHERE u.wait_type IS NOT NULL
        GROUP BY u.backend_type, u.wait_type
    ), flagged AS (
        SELECT g.*,
               CASE WHEN g.signal_s IS NOT NULL THEN least(g.signal_s, g.wait_s) END AS sig,
               EXISTS (SELECT 1 FROM iobench.benign_waits b
                       WHERE b.wait_type = g.wait_type) AS benign
        FROM grouped g
    )
    SELECT f.backend_type,
           f.wait_type,
           f.wait_s,
           f.wait_s - f.sig,
           f.sig,
           f.wait_count,
           CASE WHEN NOT f.benign THEN
               100.0 * f.wait_s / nullif(sum(f.wait_s) FILTER (WHERE NOT f.benign) OVER (), 0)
           END,
           f.benign,
           d.description
    FROM flagged f
    LEFT JOIN iobench.wait_event_descriptions() AS d ON d.wait_type = f.wait_type
    ORDER BY f.wait_s DESC, f.wait_type, f.backend_type;
END;
COMMENT ON FUNCTION iobench.wait_table_by_backend(iobench.wait_raw[]) IS 'the waits of a wait table per backend type, with the benign flag and the server''s description';

-- Always on (needs shared_preload_libraries = 'iobench')

CREATE OR REPLACE FUNCTION iobench.waits_raw()
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_waits_raw'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION iobench.waits_raw IS 'the wait collector''s raw totals since the last reset';

CREATE OR REPLACE FUNCTION iobench.reset_waits()
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_reset_waits'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.reset_waits IS 'clear the wait collector''s totals';

CREATE OR REPLACE FUNCTION iobench.wait_collector_status(
    OUT pid              integer,
    OUT period_ms        integer,
    OUT started_at       timestamptz,
    OUT reset_at         timestamptz,
    OUT ticks            bigint,
    OUT missed_ticks     bigint,
    OUT tick_pct         double precision,
    OUT sampled_s        double precision,
    OUT wait_types       integer,
    OUT max_wait_types   integer,
    OUT overflow_samples bigint,
    OUT schedstat        boolean)
AS 'MODULE_PATHNAME', 'iobench_wait_collector_status'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION iobench.wait_collector_status IS 'the wait collector''s pid, period, ticks taken and missed, and use of its bounded table';

CREATE OR REPLACE VIEW iobench.wait_stats AS
    SELECT * FROM iobench.wait_table(ARRAY(SELECT r FROM iobench.waits_raw() AS r),
                                      (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision)
    ORDER BY "Wait_S" DESC, "WaitType";
COMMENT ON VIEW iobench.wait_stats IS 'wait statistics of the instance since the last reset, in SQL Server''s format';

CREATE OR REPLACE VIEW iobench.wait_stats_all AS
    SELECT * FROM iobench.wait_table_all(ARRAY(SELECT r FROM iobench.waits_raw() AS r),
                                          (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision)
    ORDER BY wait_s DESC, wait_type;
COMMENT ON VIEW iobench.wait_stats_all IS 'every wait type since the last reset, unrounded, with benign and 95 % flags';

-- (rounded for reading, as the wait tables are: seconds and percentages
-- to two decimals; wait_table_by_backend() keeps the exact figures)
CREATE OR REPLACE VIEW iobench.wait_stats_by_backend AS
    SELECT b.backend_type, b.wait_type,
           round(b.wait_s::numeric, 2)::double precision AS wait_s,
           round(b.resource_s::numeric, 2)::double precision AS resource_s,
           round(b.signal_s::numeric, 2)::double precision AS signal_s,
           b.wait_count,
           round(b.percentage::numeric, 2)::double precision AS percentage,
           b.benign, b.description
      FROM iobench.wait_table_by_backend(ARRAY(SELECT r FROM iobench.waits_raw() AS r)) AS b
    ORDER BY b.wait_s DESC, b.wait_type, b.backend_type;
COMMENT ON VIEW iobench.wait_stats_by_backend IS 'wait statistics of the instance since the last reset, per backend type';

CREATE OR REPLACE VIEW iobench.wait_collector AS
    SELECT * FROM iobench.wait_collector_status();
COMMENT ON VIEW iobench.wait_collector IS 'the wait collector worker: period, ticks taken and missed, table use';

CREATE OR REPLACE FUNCTION iobench_internal.snapshot_waits(snapshot_name text)
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    before_reset timestamptz;
    after_reset  timestamptz;
    sampled      double precision;
    taken        timestamptz := clock_timestamp();
    keep         integer;
BEGIN
    IF snapshot_name IS NULL THEN
        RAISE EXCEPTION 'argument "snapshot_name" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    -- a name to read and type, and one the table's index can hold
    IF length(snapshot_name) NOT BETWEEN 1 AND 255 THEN
        RAISE EXCEPTION 'argument "snapshot_name" must be 1 to 255 characters long, not %', length(snapshot_name)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF EXISTS (SELECT 1 FROM iobench.wait_snapshots s
               WHERE s.snapshot_name = snapshot_waits.snapshot_name) THEN
        RAISE EXCEPTION 'wait snapshot "%" already exists', snapshot_name
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Choose another name, or delete the old snapshot from iobench.wait_snapshots.';
    END IF;

    SELECT c.reset_at, c.sampled_s INTO before_reset, sampled
    FROM iobench.wait_collector_status() AS c;
    INSERT INTO iobench.wait_snapshots VALUES (snapshot_name, taken, before_reset, sampled);
    INSERT INTO iobench.wait_snapshot_rows
        SELECT snapshot_name, r.wait_type, sum(r.wait_s),
               CASE WHEN count(r.signal_s) = count(*) THEN sum(r.signal_s) END,
               sum(r.wait_count)
        FROM iobench.waits_raw() AS r
        GROUP BY r.wait_type;
    SELECT c.reset_at INTO after_reset FROM iobench.wait_collector_status() AS c;
    IF after_reset <> before_reset THEN
        RAISE EXCEPTION 'the wait statistics were reset while snapshot "%" was taken', snapshot_name
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Take the snapshot again.';
    END IF;
    -- retention: keep the newest iobench.wait_snapshots_keep (0 keeps all)
    keep := coalesce(pg_catalog.current_setting('iobench.wait_snapshots_keep', true)::integer, 100);
    IF keep > 0 THEN
        DELETE FROM iobench.wait_snapshots s
         WHERE s.snapshot_name IN (SELECT o.snapshot_name FROM iobench.wait_snapshots o
                                    ORDER BY o.taken_at DESC, o.snapshot_name DESC
                                   OFFSET keep);
    END IF;
    RETURN taken;
END
$$;
COMMENT ON FUNCTION iobench_internal.snapshot_waits(text) IS 'the body of iobench.snapshot_waits(), which checks the grant first';

-- iobench.snapshot_waits(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.snapshot_waits(snapshot_name text)
RETURNS timestamptz
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.snapshot_waits(text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.snapshot_waits(snapshot_waits.snapshot_name);
END;
COMMENT ON FUNCTION iobench.snapshot_waits IS 'store the wait collector''s current totals under a name; the oldest beyond iobench.wait_snapshots_keep are removed';

-- Raw rows of the interval between two snapshots, or since one (to_snapshot NULL)
CREATE OR REPLACE FUNCTION iobench_internal.wait_snapshot_diff_raw(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_raw
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f iobench.wait_snapshots;
    t iobench.wait_snapshots;
    current_reset timestamptz;
BEGIN
    IF from_snapshot IS NULL THEN
        RAISE EXCEPTION 'argument "from_snapshot" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO f FROM iobench.wait_snapshots s WHERE s.snapshot_name = from_snapshot;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'wait snapshot "%" does not exist', from_snapshot
            USING ERRCODE = 'undefined_object';
    END IF;

    IF to_snapshot IS NULL THEN
        SELECT c.reset_at INTO current_reset FROM iobench.wait_collector_status() AS c;
        IF current_reset <> f.reset_at THEN
            RAISE EXCEPTION 'the wait statistics were reset after snapshot "%" was taken', from_snapshot
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Take a new snapshot to diff from.';
        END IF;
        RETURN QUERY
            SELECT n.wait_type,
                   n.wait_s - coalesce(o.wait_s, 0),
                   CASE WHEN n.signal_s IS NULL OR (o.wait_type IS NOT NULL AND o.signal_s IS NULL)
                        THEN NULL ELSE n.signal_s - coalesce(o.signal_s, 0) END,
                   n.wait_count - coalesce(o.wait_count, 0),
                   NULL::bigint, NULL::double precision, NULL::text
            FROM (SELECT r.wait_type, sum(r.wait_s) AS wait_s,
                         CASE WHEN count(r.signal_s) = count(*) THEN sum(r.signal_s) END AS signal_s,
                         sum(r.wait_count)::bigint AS wait_count
                  FROM iobench.waits_raw() AS r GROUP BY r.wait_type) AS n
            LEFT JOIN iobench.wait_snapshot_rows o
                   ON o.snapshot_name = from_snapshot AND o.wait_type = n.wait_type
            WHERE n.wait_s > coalesce(o.wait_s, 0) OR n.wait_count > coalesce(o.wait_count, 0);
        RETURN;
    END IF;

    SELECT * INTO t FROM iobench.wait_snapshots s WHERE s.snapshot_name = to_snapshot;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'wait snapshot "%" does not exist', to_snapshot
            USING ERRCODE = 'undefined_object';
    END IF;
    IF t.taken_at < f.taken_at THEN
        RAISE EXCEPTION 'wait snapshot "%" was taken before "%"', to_snapshot, from_snapshot
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Pass the earlier snapshot first.';
    END IF;
    IF t.reset_at <> f.reset_at THEN
        RAISE EXCEPTION 'the wait statistics were reset between snapshots "%" and "%"', from_snapshot, to_snapshot
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN QUERY
        SELECT n.wait_type,
               n.wait_s - coalesce(o.wait_s, 0),
               CASE WHEN n.signal_s IS NULL OR (o.wait_type IS NOT NULL AND o.signal_s IS NULL)
                    THEN NULL ELSE n.signal_s - coalesce(o.signal_s, 0) END,
               n.wait_count - coalesce(o.wait_count, 0),
               NULL::bigint, NULL::double precision, NULL::text
        FROM iobench.wait_snapshot_rows n
        LEFT JOIN iobench.wait_snapshot_rows o
               ON o.snapshot_name = from_snapshot AND o.wait_type = n.wait_type
        WHERE n.snapshot_name = to_snapshot
          AND (n.wait_s > coalesce(o.wait_s, 0) OR n.wait_count > coalesce(o.wait_count, 0));
END
$$;
COMMENT ON FUNCTION iobench_internal.wait_snapshot_diff_raw IS 'the body of iobench.wait_snapshot_diff_raw(), which checks the grant first';

-- iobench.wait_snapshot_diff_raw(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.wait_snapshot_diff_raw(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_raw
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_snapshot_diff_raw(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_snapshot_diff_raw(wait_snapshot_diff_raw.from_snapshot, wait_snapshot_diff_raw.to_snapshot);
END;
COMMENT ON FUNCTION iobench.wait_snapshot_diff_raw IS 'raw wait statistics between two snapshots, or since one';

CREATE OR REPLACE FUNCTION iobench.wait_stats_diff_all(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_stats_diff_all(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.wait_snapshot_diff_raw(from_snapshot, to_snapshot) AS r),
        (SELECT c.period_ms / 1000.0 FROM iobench.wait_collector_status() AS c)::double precision);
END;
COMMENT ON FUNCTION iobench.wait_stats_diff_all IS 'every wait type of the interval between two snapshots, or since one, with flags';

CREATE OR REPLACE FUNCTION iobench.wait_stats_diff(from_snapshot text, to_snapshot text DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.wait_stats_diff(text, text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.wait_stats_diff_all(from_snapshot, to_snapshot) AS t));
END;
COMMENT ON FUNCTION iobench.wait_stats_diff IS 'the wait table of the interval between two snapshots, or since one';

-- A window sampled from the calling backend (no preloading needed)

CREATE OR REPLACE FUNCTION iobench.sample_waits_raw(
    duration      interval,
    sample_period interval  DEFAULT NULL,   -- NULL: iobench.sample_period
    pids          integer[] DEFAULT NULL)   -- NULL: every process
RETURNS SETOF iobench.wait_raw
AS 'MODULE_PATHNAME', 'iobench_sample_waits_raw'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.sample_waits_raw IS 'sample wait events from this backend for a window; raw rows';

CREATE OR REPLACE FUNCTION iobench.sample_waits_all(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits_all(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r),
        coalesce(extract(epoch FROM sample_period)::double precision,
                 extract(epoch FROM current_setting('iobench.sample_period')::interval)::double precision));
END;
COMMENT ON FUNCTION iobench.sample_waits_all IS 'sample wait events for a window and return every wait type with flags';

CREATE OR REPLACE FUNCTION iobench.sample_waits(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_table_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench_internal.wait_table_top(ARRAY(
        SELECT t FROM iobench.sample_waits_all(duration, sample_period, pids) AS t));
END;
COMMENT ON FUNCTION iobench.sample_waits IS 'sample wait events for a window and return the wait table in SQL Server''s format';

CREATE OR REPLACE FUNCTION iobench.sample_waits_by_backend(
    duration      interval,
    sample_period interval  DEFAULT NULL,
    pids          integer[] DEFAULT NULL)
RETURNS SETOF iobench.wait_backend_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.sample_waits_by_backend(interval, interval, integer[])'::pg_catalog.text::pg_catalog.regprocedure);
    -- rounded for reading, as wait_stats_by_backend is
    SELECT b.backend_type, b.wait_type,
           round(b.wait_s::numeric, 2)::double precision AS wait_s,
           round(b.resource_s::numeric, 2)::double precision AS resource_s,
           round(b.signal_s::numeric, 2)::double precision AS signal_s,
           b.wait_count,
           round(b.percentage::numeric, 2)::double precision AS percentage,
           b.benign, b.description
      FROM iobench.wait_table_by_backend(ARRAY(
        SELECT r FROM iobench.sample_waits_raw(duration, sample_period, pids) AS r)) AS b
     ORDER BY b.wait_s DESC, b.wait_type, b.backend_type;
END;
COMMENT ON FUNCTION iobench.sample_waits_by_backend IS 'sample wait events for a window and return them per backend type';

CREATE OR REPLACE FUNCTION iobench.run_wait_stats_all(run_id bigint)
RETURNS SETOF iobench.wait_stats_row
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.run_wait_stats_all(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT * FROM iobench.wait_table_all(ARRAY(
        SELECT ROW(w.wait_type, w.wait_s, w.signal_s, w.wait_count,
                   w.exact_count, w.exact_wait_s,
                   -- the server's I/O workers' rows (src/run/wait_run.c)
                   CASE WHEN w.wait_type LIKE '% (io worker)' THEN 'io worker' END
                  )::iobench.wait_raw
        FROM iobench.run_waits w
        WHERE w.run_id = run_wait_stats_all.run_id),
        (SELECT s.period_ms / 1000.0 FROM iobench.run_wait_sampling s
         WHERE s.run_id = run_wait_stats_all.run_id));
END;
COMMENT ON FUNCTION iobench.run_wait_stats_all IS 'every wait type of one run, unrounded, with flags';

CREATE OR REPLACE FUNCTION iobench.run_wait_stats(run_id bigint)
RETURNS TABLE (
    "WaitType"    text,
    "Wait_S"      numeric(16, 2),
    "Resource_S"  numeric(16, 2),
    "Signal_S"    numeric(16, 2),
    "WaitCount"   bigint,
    "Percentage"  numeric(5, 2),
    "AvgWait_S"   numeric(16, 4),
    "AvgRes_S"    numeric(16, 4),
    "AvgSig_S"    numeric(16, 4),
    "ExactCount"  bigint,
    "ExactWait_S" numeric(16, 2))
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.run_wait_stats(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT r.*, t.exact_count, t.exact_wait_s::numeric(16, 2)
    FROM iobench.run_wait_stats_all(run_wait_stats.run_id) AS t,
         iobench_internal.wait_table_rounded(t) AS r
    WHERE t.in_top_95
    ORDER BY t.wait_s DESC, t.wait_type;
END;
COMMENT ON FUNCTION iobench.run_wait_stats IS 'the wait table of one run, with the workers'' exact I/O figures beside the sampled ones';

-- Privileges: readers are pg_monitor; reset, snapshots and
