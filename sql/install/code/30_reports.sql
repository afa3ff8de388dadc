-- Reading stored results: stall hunting, formatting helpers, the text report
-- for psql and a fio-shaped JSON export.

-- The name a run goes by beside others: the name it was gathered or
-- imported under, or, for a run a fleet call made on this very database
-- (through a foreign server that reaches it: a loopback), that server's
-- name in iobench.fleet_runs, which the call recorded without changing
-- the run; NULL for a run made here otherwise.
CREATE OR REPLACE FUNCTION iobench.run_server(r iobench.runs)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(r.server,
                    (SELECT fr.server FROM iobench.fleet_runs fr
                      WHERE fr.run_id = r.run_id ORDER BY fr.fleet_id, fr.server LIMIT 1))
$$;
COMMENT ON FUNCTION iobench.run_server(iobench.runs) IS 'the name a run goes by: gathered or imported under, or its loopback fleet server';

-- Seconds of a run in which data-I/O throughput fell under min_fraction of
-- the run's median second, or the longest I/O completed (any kind, syncs
-- included) took longer than max_latency.  Seconds in which nothing
-- completed count as throughput 0.  A final second shorter than half a
-- second is judged on latency only.  NULL turns a criterion off.
CREATE OR REPLACE FUNCTION iobench_internal.stalls(
    run_id        bigint,
    min_fraction  double precision DEFAULT 0.5,
    max_latency   interval DEFAULT '1s')
RETURNS SETOF iobench.stalls_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    measured double precision;
    max_us double precision := extract(epoch FROM stalls.max_latency) * 1e6;
BEGIN
    IF stalls.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF stalls.min_fraction < 0 OR stalls.min_fraction > 1 THEN
        RAISE EXCEPTION '% is out of range for argument "min_fraction"', stalls.min_fraction
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are between 0 and 1.';
    END IF;
    IF max_us <= 0 THEN
        RAISE EXCEPTION '"%" is out of range for argument "max_latency"', stalls.max_latency
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are greater than 0 seconds.';
    END IF;
    SELECT x.measured_s INTO measured FROM iobench.runs x WHERE x.run_id = stalls.run_id;

    RETURN QUERY
    WITH secs AS (
        SELECT g AS sec, least(1.0, measured - g) AS len
          FROM generate_series(0, greatest(ceil(coalesce(measured, 0))::integer - 1, -1)) AS g
    ), per AS (
        SELECT s.sec, s.len,
               coalesce(sum(rs.ops) FILTER (WHERE rs.op <> 'fsync'), 0) / s.len AS rate,
               max(rs.lat_max_us) AS max_lat,
               (array_agg(rs.op ORDER BY rs.lat_max_us DESC NULLS LAST))[1] AS max_op
          FROM secs s
          LEFT JOIN iobench.run_seconds rs ON rs.run_id = stalls.run_id AND rs.second = s.sec
         GROUP BY s.sec, s.len
    ), med AS (
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY p.rate) AS m
          FROM per p
         WHERE p.len >= 0.5 OR NOT EXISTS (SELECT FROM per q WHERE q.len >= 0.5)
    ), judged AS (
        SELECT p.*, med.m,
               (p.len >= 0.5 AND p.rate < stalls.min_fraction * med.m) AS slow,
               (p.max_lat > max_us) AS late
          FROM per p, med
    )
    SELECT j.sec, round(j.rate::numeric, 1), round(j.m::numeric, 1),
           round((j.rate / nullif(j.m, 0))::numeric, 3),
           round(j.max_lat::numeric, 1), j.max_op,
           concat_ws(', ',
                     CASE WHEN j.slow AND j.rate = 0 THEN 'no I/O completed'
                          WHEN j.slow THEN 'throughput' END,
                     CASE WHEN j.late THEN 'latency' END)
      FROM judged j
     WHERE coalesce(j.slow, false) OR coalesce(j.late, false)
     ORDER BY j.sec;
END
$$;
COMMENT ON FUNCTION iobench_internal.stalls(bigint, double precision, interval) IS 'the body of iobench.stalls(), which checks the grant and the run first';

-- iobench.stalls(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.stalls(
    run_id        bigint,
    min_fraction  double precision DEFAULT 0.5,
    max_latency   interval DEFAULT '1s')
RETURNS SETOF iobench.stalls_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.stalls(bigint, double precision, interval)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(stalls.run_id);
    SELECT * FROM iobench_internal.stalls(stalls.run_id, stalls.min_fraction, stalls.max_latency);
END;
COMMENT ON FUNCTION iobench.stalls(bigint, double precision, interval) IS 'seconds of a run where throughput collapsed or latency spiked';

-- A latency in microseconds for reading: three significant digits, in µs,
-- ms or s.
CREATE OR REPLACE FUNCTION iobench.format_us(us double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN us IS NULL THEN '-'
        WHEN us = 0 THEN '0 µs'
        -- NaN and the infinities have no magnitude to round to
        WHEN us IN ('NaN', 'Infinity', '-Infinity') THEN us::text
        WHEN us < 1000 THEN
            round(us::numeric, greatest(0, 2 - floor(log(abs(us)))::integer)) || ' µs'
        WHEN us < 1000000 THEN
            round((us / 1000)::numeric, greatest(0, 2 - floor(log(us / 1000))::integer)) || ' ms'
        ELSE
            round((us / 1000000)::numeric, greatest(0, 2 - floor(log(us / 1000000))::integer)) || ' s'
    END
$$;
COMMENT ON FUNCTION iobench.format_us(double precision) IS 'a latency in microseconds as text with a unit (µs, ms, s)';

-- A size in bytes for reading: exact kB, MB or GB when it is a whole
-- number of them (8 kB, 1 MB), else as pg_size_pretty() has it.
CREATE OR REPLACE FUNCTION iobench.format_bytes(bytes bigint)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN bytes IS NULL THEN '-'
        WHEN bytes > 0 AND bytes % 1073741824 = 0 THEN (bytes / 1073741824) || ' GB'
        WHEN bytes > 0 AND bytes % 1048576 = 0 THEN (bytes / 1048576) || ' MB'
        WHEN bytes > 0 AND bytes % 1024 = 0 THEN (bytes / 1024) || ' kB'
        ELSE pg_size_pretty(bytes)
    END
$$;
COMMENT ON FUNCTION iobench.format_bytes(bigint) IS 'a size in bytes as text with a unit (kB, MB, GB are 1024-based, as PostgreSQL''s)';

-- A throughput in bytes per second for reading, binary first and decimal
-- beside it, as fio prints it: 66.6 MiB/s (69.8 MB/s); GiB/s (GB/s) from
-- 1 GiB/s up.
CREATE OR REPLACE FUNCTION iobench.format_rate(bytes_per_s double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN bytes_per_s IS NULL THEN '-'
        WHEN bytes_per_s >= 1073741824 THEN
            round((bytes_per_s / 1073741824)::numeric, 2) || ' GiB/s ('
            || round((bytes_per_s / 1e9)::numeric, 2) || ' GB/s)'
        ELSE
            round((bytes_per_s / 1048576)::numeric, 1) || ' MiB/s ('
            || round((bytes_per_s / 1e6)::numeric, 1) || ' MB/s)'
    END
$$;
COMMENT ON FUNCTION iobench.format_rate(double precision) IS 'a throughput in bytes per second as text: MiB/s with MB/s beside it';

-- A sparkline of the values, one character each, scaled from 0 to the
-- largest finite value; 0 is a blank, so a second without I/O shows as a
-- gap; NaN is a blank too and Infinity a full block.
CREATE OR REPLACE FUNCTION iobench.sparkline(vals double precision[])
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT string_agg(
               CASE WHEN v IS NULL OR v = 'NaN' OR v <= 0 THEN ' '
                    WHEN v = 'Infinity' THEN '█'
                    WHEN m IS NULL OR m <= 0 THEN ' '
                    ELSE substr('▁▂▃▄▅▆▇█', least(8, 1 + floor(v / m * 8)::integer), 1)
               END, '' ORDER BY n)
      FROM unnest(vals) WITH ORDINALITY AS u(v, n),
           -- the scale: the largest finite value (NaN sorts above Infinity)
           (SELECT max(x) FILTER (WHERE x < 'Infinity') AS m FROM unnest(vals) AS x) AS mx
$$;
COMMENT ON FUNCTION iobench.sparkline(double precision[]) IS 'values as a line of ▁▂▃▄▅▆▇█ scaled from 0 to the largest';

-- A bar of width/8 character cells for a share (0..1) of the width,
-- drawn with eighth blocks.
CREATE OR REPLACE FUNCTION iobench.bar(share double precision, width integer DEFAULT 40)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT repeat('█', (e / 8)::integer)
           || CASE WHEN e % 8 > 0 THEN substr('▏▎▍▌▋▊▉', (e % 8)::integer, 1) ELSE '' END
      FROM (SELECT round(greatest(least(coalesce(share, 0), 1), 0) * width * 8)::bigint AS e) AS x
$$;
COMMENT ON FUNCTION iobench.bar(double precision, integer) IS 'a horizontal bar of block characters for a share between 0 and 1';

-- A run in a dozen columns a DBA reads first, rounded and with units:
--   SELECT * FROM iobench.summary(iobench.run(duration => '10s'));
-- The full row stays in iobench.runs; the view iobench.run_summary has every
-- stored run this way.  NULL (no run) gives no row.
CREATE OR REPLACE FUNCTION iobench.summary(r iobench.runs)
RETURNS TABLE (
    run_id     bigint,
    status     text,
    tablespace name,
    storage    text,
    workload   text,
    seconds    numeric,
    iops       numeric,
    throughput text,
    lat_avg    text,
    lat_p50    text,
    lat_p99    text,
    lat_max    text,
    fsync_p99  text)
LANGUAGE sql STABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT r.run_id, r.status, r.tablespace,
           concat_ws(', ', coalesce(r.device, '?'),
                     coalesce(r.filesystem, '?') || ' on ' || coalesce(r.mount_point, '?')),
           format('%s %s, %s worker%s x QD%s, %s, %s, %s file%s x %s',
                  r.rw, iobench.format_bytes(r.block_size), r.workers,
                  CASE WHEN r.workers > 1 THEN 's' ELSE '' END, r.iodepth, r.engine,
                  CASE WHEN r.direct THEN 'direct' ELSE 'buffered' END,
                  r.files, CASE WHEN r.files > 1 THEN 's' ELSE '' END,
                  iobench.format_bytes(r.file_size))
           || CASE WHEN r.read_pct IS NOT NULL THEN format(', %s %% reads', r.read_pct) ELSE '' END
           || CASE WHEN r.fsync_every > 0 THEN format(', %s every %s', r.sync_method, r.fsync_every)
                   ELSE '' END,
           round(r.measured_s::numeric, 1),
           round(r.iops::numeric),
           iobench.format_rate(r.bytes / nullif(r.measured_s, 0)),
           iobench.format_us(r.lat_avg_us),
           iobench.format_us(r.lat_p50_us),
           iobench.format_us(r.lat_p99_us),
           iobench.format_us(r.lat_max_us),
           iobench.format_us(r.fsync_lat_p99_us)
$$;
COMMENT ON FUNCTION iobench.summary(iobench.runs) IS 'a run in a dozen rounded columns with units, for reading';

-- run_id, status and tablespace come from the table itself, so that a
-- condition on them reaches its index (WHERE run_id = 42 computes one
-- summary, not one per stored run: summary() is not inlined).
CREATE OR REPLACE VIEW iobench.run_summary AS
SELECT r.run_id, r.status, r.tablespace, s.storage, s.workload, s.seconds, s.iops, s.throughput,
       s.lat_avg, s.lat_p50, s.lat_p99, s.lat_max, s.fsync_p99
  FROM iobench.runs r, LATERAL iobench.summary(r) s;
COMMENT ON VIEW iobench.run_summary IS 'every stored run in a dozen rounded columns with units, for reading';

-- The latency histogram of a run and op kind, grouped into 1-2-5 ranges
-- (10-20 µs, 20-50 µs, 50-100 µs ...) from the first non-empty range to the
-- last; each stored bucket goes to the range holding its midpoint.
CREATE OR REPLACE FUNCTION iobench.latency_ranges(run_id bigint, op text)
RETURNS TABLE (lower_us double precision, upper_us double precision, count bigint, share double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.latency_ranges(bigint, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH edges AS (
        SELECT m * 10::double precision ^ e AS lo,
               lead(m * 10::double precision ^ e) OVER (ORDER BY e, m) AS hi
          FROM generate_series(-2, 9) AS e, unnest(ARRAY[1, 2, 5]) AS m
    ), filled AS (
        SELECT e.lo, e.hi, coalesce(sum(l.count), 0)::bigint AS n
          FROM edges e
          LEFT JOIN iobench.run_latency l
            ON l.run_id = latency_ranges.run_id AND l.op = latency_ranges.op
           AND (l.lower_us + l.upper_us) / 2 >= e.lo AND (l.lower_us + l.upper_us) / 2 < e.hi
         WHERE e.hi IS NOT NULL
         GROUP BY e.lo, e.hi
    ), bounds AS (
        SELECT min(lo) AS first_lo, max(lo) AS last_lo, sum(n) AS total
          FROM filled WHERE n > 0
    )
    SELECT f.lo, f.hi, f.n, f.n::double precision / b.total
      FROM filled f, bounds b
     WHERE f.lo BETWEEN b.first_lo AND b.last_lo
     ORDER BY f.lo;
END;
COMMENT ON FUNCTION iobench.latency_ranges(bigint, text) IS 'a run''s latency histogram for one op kind, in 1-2-5 ranges';

-- What the block device saw during a run (iobench.run_disk_seconds): per
-- device, the average over the measured period (second NULL; rates from
-- the summed counters over the summed intervals, as iostat computes an
-- interval) and the busiest second (highest %util, then most I/Os).
CREATE OR REPLACE FUNCTION iobench_internal.disk_stats(run_id bigint)
RETURNS SETOF iobench.disk_stats_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    -- rounded for reading as iostat prints them, two decimals; the exact
    -- figures are in iobench.run_disk_seconds
    SELECT s.device, s.member, s.kind, s.second,
           round(s.r_s::numeric, 2)::double precision, round(s.w_s::numeric, 2)::double precision,
           round(s.rmb_s::numeric, 2)::double precision, round(s.wmb_s::numeric, 2)::double precision,
           round(s.areq_kb::numeric, 2)::double precision, round(s.aqu_sz::numeric, 2)::double precision,
           round(s.r_await_ms::numeric, 2)::double precision, round(s.w_await_ms::numeric, 2)::double precision,
           round(s.util_pct::numeric, 2)::double precision, round(s.d_s::numeric, 2)::double precision,
           round(s.f_s::numeric, 2)::double precision
      FROM (
    SELECT d.device, d.member, 'average' AS kind, NULL::integer AS second,
           sum(d.reads) / sum(d.interval_s),
           sum(d.writes) / sum(d.interval_s),
           sum(d.read_sectors) * 512 / 1e6 / sum(d.interval_s),
           sum(d.write_sectors) * 512 / 1e6 / sum(d.interval_s),
           (sum(d.read_sectors) + sum(d.write_sectors) + coalesce(sum(d.discard_sectors), 0)) / 2.0
               / nullif(sum(d.reads) + sum(d.writes) + coalesce(sum(d.discards), 0), 0),
           sum(d.queue_ms) / 1000.0 / sum(d.interval_s),
           sum(d.read_ms)::double precision / nullif(sum(d.reads), 0),
           sum(d.write_ms)::double precision / nullif(sum(d.writes), 0),
           least(sum(d.io_ms) / 10.0 / sum(d.interval_s), 100),
           sum(d.discards) / sum(d.interval_s) AS d_s,
           sum(d.flushes) / sum(d.interval_s) AS f_s
      FROM iobench.run_disk_seconds d
     WHERE d.run_id = disk_stats.run_id
     GROUP BY d.device, d.member
    UNION ALL
    SELECT * FROM (
        SELECT DISTINCT ON (d.device) d.device, d.member, 'busiest', d.second,
               d.r_s, d.w_s, d.rmb_s, d.wmb_s, d.areq_kb, d.aqu_sz, d.r_await_ms, d.w_await_ms,
               d.util_pct, d.d_s, d.f_s
          FROM iobench.run_disk_seconds d
         WHERE d.run_id = disk_stats.run_id
         ORDER BY d.device, d.util_pct DESC, d.reads + d.writes DESC, d.second) AS b
    ) AS s(device, member, kind, second, r_s, w_s, rmb_s, wmb_s, areq_kb, aqu_sz,
           r_await_ms, w_await_ms, util_pct, d_s, f_s)
    ORDER BY 2, 1, 3;
END
$$;
COMMENT ON FUNCTION iobench_internal.disk_stats(bigint) IS 'the body of iobench.disk_stats(), which checks the run first';

-- iobench.disk_stats(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.disk_stats(run_id bigint)
RETURNS SETOF iobench.disk_stats_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.disk_stats(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(disk_stats.run_id);
    SELECT * FROM iobench_internal.disk_stats(disk_stats.run_id);
END;
COMMENT ON FUNCTION iobench.disk_stats(bigint) IS 'the block device''s iostat figures during a run: average and busiest second per device';

-- A text report of one run that reads well in psql (\pset format unaligned
-- or \t to drop the header): settings, summary with percentiles per op
-- kind, latency histograms drawn with bars, a per-second IOPS sparkline,
-- stalls, and the run's top waits when they were recorded.
CREATE OR REPLACE FUNCTION iobench_internal.report(run_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
    k record;
    line text;
    vals double precision[];
    n integer;
    i integer;
    nstall integer := 0;
    w record;
    has_waits boolean := false;
    missed bigint;              -- engine postgres: page-cache hits
    fmt constant text := '  %-8s %10s %10s %9s %9s %9s %9s %9s %9s %9s %9s';
BEGIN
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = report.run_id;

    -- what ran, where
    RETURN NEXT format('iobench run %s: %s%s', r.run_id, r.status,
                       CASE WHEN r.label IS NOT NULL THEN format(', "%s"', r.label) ELSE '' END);
    IF r.engine = 'postgres' THEN
        RETURN NEXT format('  %s, %s blocks, %s worker%s through the server''s read path (engine postgres) at effective_io_concurrency %s, a relation of %s',
                           r.rw, iobench.format_bytes(r.block_size), r.workers,
                           CASE WHEN r.workers > 1 THEN 's' ELSE '' END,
                           coalesce(r.effective_io_concurrency::text, '?'),
                           iobench.format_bytes(r.file_size));
    ELSE
    RETURN NEXT format('  %s%s, %s blocks, %s worker%s x iodepth %s (%s), %s I/O, %s file%s of %s',
                       r.rw,
                       CASE WHEN r.read_pct IS NOT NULL THEN format(' (%s %% reads)', r.read_pct) ELSE '' END,
                       iobench.format_bytes(r.block_size), r.workers,
                       CASE WHEN r.workers > 1 THEN 's' ELSE '' END,
                       r.iodepth, r.engine,
                       CASE WHEN r.direct THEN 'direct' ELSE 'buffered' END,
                       r.files, CASE WHEN r.files > 1 THEN 's' ELSE '' END,
                       iobench.format_bytes(r.file_size));
    END IF;
    IF r.fsync_every > 0 OR r.rewrite_pct > 0 OR r.sync_method IN ('open_datasync', 'open_sync') THEN
        RETURN NEXT '  ' || concat_ws(', ',
            CASE WHEN r.rewrite_pct > 0 THEN format('%s %% of reads rewritten', r.rewrite_pct) END,
            CASE r.sync_method WHEN 'open_datasync' THEN 'every write synchronous (open_datasync: O_DSYNC)'
                               WHEN 'open_sync' THEN 'every write synchronous (open_sync: O_SYNC)' END,
            CASE WHEN r.fsync_every = 1 THEN format('%s after every write', r.sync_method)
                 WHEN r.fsync_every > 1 THEN format('%s after every %s writes to a file',
                                                    r.sync_method, r.fsync_every) END);
    END IF;
    RETURN NEXT format('  tablespace "%s": %s, %s on %s; host %s, PostgreSQL %s',
                       r.tablespace, coalesce(r.device, '?'), coalesce(r.filesystem, '?'),
                       coalesce(r.mount_point, '?'), coalesce(r.host, '?'), coalesce(r.pg_version, '-'));
    -- the server's I/O settings that it has (none recorded before 0.2)
    SELECT string_agg(s.name || '=' || s.value, ', ' ORDER BY s.n) INTO line
      FROM (VALUES (1, 'io_method', r.io_method),
                   (2, 'io_workers', r.io_workers::text),
                   (3, 'io_min_workers', r.io_min_workers::text),
                   (4, 'io_max_workers', r.io_max_workers::text),
                   (5, 'io_combine_limit', r.io_combine_limit),
                   (6, 'effective_io_concurrency', r.effective_io_concurrency::text),
                   (7, 'maintenance_io_concurrency', r.maintenance_io_concurrency::text),
                   (8, 'wal_sync_method', r.wal_sync_method),
                   (9, 'full_page_writes',
                    CASE r.full_page_writes WHEN true THEN 'on' WHEN false THEN 'off' END))
           AS s(n, name, value)
     WHERE s.value IS NOT NULL;
    IF line IS NOT NULL THEN
        RETURN NEXT '  I/O settings: ' || line;
    END IF;
    -- engine postgres: the server's read path, and whether every block
    -- came from the disk (shared-buffer hits, the server's reads, what the
    -- device read over the measured period)
    FOR w IN SELECT s.*,
                    (SELECT (sum(d.read_sectors) * 512)::bigint
                       FROM iobench.run_disk_seconds d
                      WHERE d.run_id = s.run_id AND NOT d.member) AS device_bytes
               FROM iobench.run_server_reads s WHERE s.run_id = r.run_id LOOP
        RETURN NEXT format('  server read path: %s through shared buffers (%s), relation %s (%s), %s',
                           CASE w.read_path WHEN 'read_stream' THEN 'a read stream'
                                ELSE 'ReadBuffer with PrefetchBuffer' END,
                           iobench.format_bytes(w.shared_buffers), w.relation,
                           iobench.format_bytes(w.relation_bytes),
                           CASE WHEN w.page_cache_dropped THEN 'each block dropped from the page cache once read'
                                ELSE format('direct I/O (debug_io_direct = %s)', w.debug_io_direct) END);
        RETURN NEXT format('  blocks obtained %s: %s found in shared buffers, %s read by the server%s',
                           w.blocks, w.buffer_hits, w.buffer_reads,
                           CASE WHEN w.device_bytes IS NOT NULL
                                THEN format('; the device read %s in the measured period',
                                            iobench.format_bytes(w.device_bytes))
                                ELSE '' END);
        -- "invalid": more than 1 % of the blocks were hits in shared
        -- buffers, or in the page cache (read by the server, not by the
        -- device, where its count is known), as the run found (C,
        -- engine_postgres_settings.c)
        IF r.status = 'invalid' THEN
            missed := CASE WHEN w.device_bytes IS NOT NULL
                      THEN greatest(w.buffer_reads - w.device_bytes / current_setting('block_size')::bigint, 0) END;
            RETURN NEXT format('  INVALID: %s %% of the blocks were not read from the disk (%s hits in shared buffers, %s in the page cache): these figures are memory''s, not the disk''s',
                               round(100.0 * (w.buffer_hits + coalesce(missed, 0))
                                     / nullif(w.buffer_hits + w.buffer_reads, 0), 1),
                               w.buffer_hits, coalesce(missed::text, 'unknown'));
        END IF;
    END LOOP;
    IF r.imported_at IS NOT NULL THEN
        RETURN NEXT format('  server "%s": its run %s there, imported %s%s',
                           coalesce(r.server, r.host, '?'), coalesce(r.origin_run_id::text, '?'),
                           to_char(r.imported_at, 'YYYY-MM-DD HH24:MI:SS TZ'),
                           CASE WHEN r.tool <> 'iobench' THEN format(', measured by %s', r.tool) ELSE '' END);
    ELSIF iobench.run_server(r) IS NOT NULL THEN
        RETURN NEXT format('  server "%s" (gathered from this server)', iobench.run_server(r));
    END IF;
    IF r.start_at IS NOT NULL THEN
        RETURN NEXT format('  common start %s, workers started %s ms after it',
                           to_char(r.start_at, 'YYYY-MM-DD HH24:MI:SS.MS TZ'),
                           coalesce(round((extract(epoch FROM r.go_at - r.start_at) * 1000)::numeric, 3)::text, '?'));
    END IF;
    IF r.steady_state IS NOT NULL THEN
        RETURN NEXT format('  steady state (%s within %s %% of the mean over %s s): %s',
                           r.steady_state, r.steady_band, extract(epoch FROM r.steady_window)::integer,
                           CASE WHEN r.steady_reached
                                THEN format('reached at %s s, where the run ended', r.steady_at_s)
                                ELSE 'not reached' END);
    END IF;
    RETURN NEXT format('  started %s, measured %s s after %s s of warm-up, seed %s',
                       to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS TZ'),
                       round(r.measured_s::numeric, 1),
                       round(extract(epoch FROM r.warmup), 1), r.seed);

    -- summary and percentiles
    RETURN NEXT '';
    RETURN NEXT 'Summary';
    RETURN NEXT format(fmt, 'op', 'ops', 'IOPS', 'MiB/s', 'MB/s', 'avg', 'p50', 'p90', 'p99', 'p99.9', 'max');
    FOR k IN
        SELECT * FROM (VALUES
            (1, 'read',  r.read_ops,  r.read_iops,  coalesce(r.read_mib_per_s, r.read_mb_per_s * 1e6 / 1048576), r.read_mb_per_s, r.read_lat_avg_us,
             r.read_lat_p50_us, r.read_lat_p90_us, r.read_lat_p99_us, r.read_lat_p999_us, r.read_lat_max_us),
            (2, 'write', r.write_ops, r.write_iops, coalesce(r.write_mib_per_s, r.write_mb_per_s * 1e6 / 1048576), r.write_mb_per_s, r.write_lat_avg_us,
             r.write_lat_p50_us, r.write_lat_p90_us, r.write_lat_p99_us, r.write_lat_p999_us, r.write_lat_max_us),
            (3, 'fsync', r.fsync_ops, r.fsync_iops, NULL, NULL, r.fsync_lat_avg_us,
             r.fsync_lat_p50_us, r.fsync_lat_p90_us, r.fsync_lat_p99_us, r.fsync_lat_p999_us, r.fsync_lat_max_us),
            (4, 'all data', r.ops, r.iops, coalesce(r.mib_per_s, r.mb_per_s * 1e6 / 1048576), r.mb_per_s, r.lat_avg_us,
             r.lat_p50_us, r.lat_p90_us, r.lat_p99_us, r.lat_p999_us, r.lat_max_us),
            -- a commit: the write and its sync (runs.commit_*)
            (5, 'commit', r.commit_ops, r.commit_iops, NULL, NULL, r.commit_lat_avg_us,
             r.commit_lat_p50_us, r.commit_lat_p90_us, r.commit_lat_p99_us, r.commit_lat_p999_us,
             r.commit_lat_max_us))
            AS t(n, op, ops, iops, mibps, mbps, avg, p50, p90, p99, p999, mx)
         WHERE coalesce(t.ops, 0) > 0 ORDER BY t.n
    LOOP
        RETURN NEXT format(fmt, k.op, k.ops, round(k.iops::numeric, 1),
                           coalesce(round(k.mibps::numeric, 2)::text, ''),
                           coalesce(round(k.mbps::numeric, 2)::text, ''),
                           iobench.format_us(k.avg), iobench.format_us(k.p50),
                           iobench.format_us(k.p90), iobench.format_us(k.p99),
                           iobench.format_us(k.p999), iobench.format_us(k.mx));
    END LOOP;
    RETURN NEXT format('  CPU of the workers: user %s %%, system %s %% of one CPU',
                       coalesce(round(r.cpu_user_pct::numeric, 1)::text, '-'),
                       coalesce(round(r.cpu_sys_pct::numeric, 1)::text, '-'));

    -- a tablespace group: each tablespace's share
    IF r.tablespaces IS NOT NULL THEN
        RETURN NEXT '';
        RETURN NEXT format('Tablespace group (%s): files spread one by one, every worker on all of them',
                           array_to_string(r.tablespaces, ', '));
        RETURN NEXT format('  %-16s %-12s %5s %10s %9s %9s %9s %9s %9s',
                           'tablespace', 'device', 'files', 'IOPS', 'MB/s', 'avg', 'p50', 'p99', 'p99.9');
        FOR w IN SELECT * FROM iobench.run_tablespaces t WHERE t.run_id = r.run_id ORDER BY t.position LOOP
            RETURN NEXT format('  %-16s %-12s %5s %10s %9s %9s %9s %9s %9s',
                               w.tablespace, coalesce(w.device, '?'), w.files,
                               round(coalesce(w.iops, 0)::numeric, 1),
                               coalesce(round(w.mb_per_s::numeric, 2)::text, ''),
                               iobench.format_us(w.lat_avg_us), iobench.format_us(w.lat_p50_us),
                               iobench.format_us(w.lat_p99_us), iobench.format_us(w.lat_p999_us));
        END LOOP;
    END IF;

    -- what the block device saw (iostat's columns)
    RETURN NEXT '';
    IF r.disk IS NULL THEN
        RETURN NEXT 'Device: not sampled (no block device under the tablespace)';
    ELSE
        RETURN NEXT format('Device %s (/proc/diskstats, MB = 10^6 bytes)', r.disk);
        RETURN NEXT format('  %-20s %9s %9s %8s %8s %8s %8s %8s %8s %7s %7s %7s',
                           'device', 'r/s', 'w/s', 'rMB/s', 'wMB/s', 'areq-kB', 'aqu-sz',
                           'r_await', 'w_await', '%util', 'd/s', 'f/s');
        FOR w IN SELECT * FROM iobench.disk_stats(r.run_id) LOOP
            RETURN NEXT format('  %-20s %9s %9s %8s %8s %8s %8s %8s %8s %7s %7s %7s',
                               w.device || CASE WHEN w.member THEN ' (member)' ELSE '' END
                                   || CASE WHEN w.kind = 'busiest' THEN format(' busiest s %s', w.second) ELSE ' avg' END,
                               round(w.r_s::numeric, 1), round(w.w_s::numeric, 1),
                               round(w.rmb_s::numeric, 2), round(w.wmb_s::numeric, 2),
                               coalesce(round(w.areq_kb::numeric, 1)::text, '-'),
                               round(w.aqu_sz::numeric, 2),
                               coalesce(round(w.r_await_ms::numeric, 2)::text, '-'),
                               coalesce(round(w.w_await_ms::numeric, 2)::text, '-'),
                               round(w.util_pct::numeric, 1),
                               coalesce(round(w.d_s::numeric, 1)::text, '-'),
                               coalesce(round(w.f_s::numeric, 1)::text, '-'));
        END LOOP;
        RETURN NEXT format('  iobench itself: %s reads/s, %s writes/s, %s syncs/s',
                           round(coalesce(r.read_iops, 0)::numeric, 1),
                           round(coalesce(r.write_iops, 0)::numeric, 1),
                           round(coalesce(r.fsync_iops, 0)::numeric, 1));
        -- other load: the device read or wrote clearly more than the run
        -- did.  The margin, 25 % of the run's own bytes plus 1 MB/s, takes
        -- read-ahead, the filesystem's metadata, the seconds lost at the
        -- period's edges and the recorder's own commits; writes also get
        -- 16 kB per sync, the journal commit a filesystem may write for it.
        FOR w IN
            SELECT x.what, x.did, x.dev, x.own
              FROM (SELECT sum(d.rd) AS rd, sum(d.wr) AS wr
                      FROM (SELECT sum(s.read_sectors) * 512 / sum(s.interval_s) AS rd,
                                   sum(s.write_sectors) * 512 / sum(s.interval_s) AS wr
                              FROM iobench.run_disk_seconds s
                             WHERE s.run_id = r.run_id AND NOT s.member
                             GROUP BY s.device) d) t,
                   LATERAL (VALUES
                       (1, 'read', 'read', t.rd, coalesce(r.read_bytes, 0) / r.measured_s, 0.0),
                       (2, 'wrote', 'write', t.wr, coalesce(r.write_bytes, 0) / r.measured_s,
                        16384 * coalesce(r.fsync_iops, 0))) AS x(n, did, what, dev, own, allowance)
             WHERE r.measured_s > 0 AND x.dev > 1.25 * x.own + 1e6 + x.allowance
             ORDER BY x.n
        LOOP
            RETURN NEXT format('  OTHER LOAD: the device %s %s MB/s, %s: another process used it during the run, so these figures are not the disk''s alone',
                               w.did, round((w.dev / 1e6)::numeric, 1),
                               CASE WHEN w.own > 0
                                    THEN format('%sx iobench''s own %s MB/s',
                                                round((w.dev / w.own)::numeric, 2),
                                                round((w.own / 1e6)::numeric, 1))
                                    ELSE format('while iobench did not %s', w.what) END);
        END LOOP;
    END IF;

    -- latency histograms
    FOR k IN SELECT DISTINCT l.op, CASE l.op WHEN 'read' THEN 1 WHEN 'write' THEN 2 ELSE 3 END AS n
               FROM iobench.run_latency l WHERE l.run_id = r.run_id ORDER BY 2
    LOOP
        RETURN NEXT '';
        RETURN NEXT format('Latency histogram: %s (%s ops)', k.op,
                           (SELECT sum(l.count) FROM iobench.run_latency l
                             WHERE l.run_id = r.run_id AND l.op = k.op));
        FOR w IN SELECT h.*, max(h.share) OVER () AS top
                   FROM iobench.latency_ranges(r.run_id, k.op) h ORDER BY h.lower_us
        LOOP
            RETURN NEXT format('  %9s - %-9s %-40s %5s %%  %s',
                               iobench.format_us(w.lower_us), iobench.format_us(w.upper_us),
                               iobench.bar(w.share / nullif(w.top, 0)),
                               to_char(100 * w.share, 'FM990.0'), w.count);
        END LOOP;
    END LOOP;

    -- IOPS per second
    SELECT array_agg(coalesce(s.iops, 0) ORDER BY g), count(*)
      INTO vals, n
      FROM generate_series(0, greatest(ceil(coalesce(r.measured_s, 0))::integer - 1, -1)) AS g
      LEFT JOIN (SELECT x.second, sum(x.ops) / least(1.0, r.measured_s - x.second) AS iops
                   FROM iobench.run_seconds x
                  WHERE x.run_id = r.run_id AND x.op <> 'fsync'
                  GROUP BY x.second) s ON s.second = g;
    IF n > 0 AND NOT EXISTS (SELECT FROM iobench.run_seconds x WHERE x.run_id = r.run_id) THEN
        -- nothing to draw: an imported fio result (fio's JSON has no
        -- per-second series) or a run whose seconds were not stored
        RETURN NEXT '';
        RETURN NEXT CASE WHEN r.tool <> 'iobench'
                         THEN format('IOPS per second: none (an imported %s result has no per-second series)', r.tool)
                         ELSE 'IOPS per second: none stored for this run' END;
    ELSIF n > 0 THEN
        RETURN NEXT '';
        RETURN NEXT format('IOPS per second (data I/O): min %s, median %s, max %s',
                           round(min(v)::numeric), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY v)::numeric),
                           round(max(v)::numeric))
          FROM unnest(vals) v;
        i := 1;
        WHILE i <= n LOOP
            RETURN NEXT format('  %6s |%s|', (i - 1) || ' s', iobench.sparkline(vals[i:i + 59]));
            i := i + 60;
        END LOOP;
    END IF;

    -- stalls: slow seconds, then stall events
    RETURN NEXT '';
    RETURN NEXT 'Stalls (seconds under 50 % of the median IOPS, or with an I/O over 1 s)';
    FOR w IN SELECT * FROM iobench.stalls(r.run_id) LOOP
        IF nstall = 0 THEN
            RETURN NEXT format('  %6s %10s %9s %12s %-5s  %s', 'second', 'IOPS', 'of median', 'max latency', 'op', 'reason');
        END IF;
        nstall := nstall + 1;
        RETURN NEXT format('  %6s %10s %8s%% %12s %-5s  %s', w.second, w.iops,
                           coalesce(round(100 * w.fraction)::text, '-'),
                           iobench.format_us(w.max_latency_us::double precision),
                           coalesce(w.max_latency_op, '-'), w.reason);
    END LOOP;
    IF nstall = 0 THEN
        RETURN NEXT '  none';
    END IF;
    IF r.stall_threshold IS NOT NULL THEN
        RETURN NEXT '';
        RETURN NEXT format('Write stalls (write + sync over %s): %s',
                           iobench.format_us(extract(epoch FROM r.stall_threshold)::float8 * 1e6),
                           coalesce(r.stall_count, 0));
        FOR w IN SELECT * FROM iobench.run_stalls s WHERE s.run_id = r.run_id
                  ORDER BY s.total_us DESC, s.at_s LIMIT 10
        LOOP
            RETURN NEXT format('  at %8s s  worker %-3s file %-3s offset %-12s write %-9s sync %-9s total %s',
                               round(w.at_s::numeric, 3), w.worker, w.file, w.file_offset,
                               iobench.format_us(w.write_us), iobench.format_us(w.sync_us),
                               iobench.format_us(w.total_us));
        END LOOP;
        IF coalesce(r.stall_count, 0) > 10 THEN
            RETURN NEXT format('  (the 10 longest shown; iobench.run_stalls keeps up to 64 per worker)');
        END IF;
    END IF;

    -- top waits (none when the run's waits were not recorded)
    FOR w IN SELECT x."WaitType" AS t, x."Wait_S" AS s, x."Signal_S" AS sig,
                    x."WaitCount" AS c, x."Percentage" AS p
               FROM iobench.run_wait_stats(r.run_id) x LIMIT 10
    LOOP
        IF NOT has_waits THEN
            RETURN NEXT '';
            RETURN NEXT 'Top waits';
            RETURN NEXT format('  %-28s %10s %10s %10s %10s', 'WaitType', 'Wait_S', 'Signal_S', 'WaitCount', 'Percentage');
            has_waits := true;
        END IF;
        RETURN NEXT format('  %-28s %10s %10s %10s %10s', w.t, w.s, coalesce(w.sig::text, '-'), w.c, w.p);
    END LOOP;
    RETURN;
END
$$;
COMMENT ON FUNCTION iobench_internal.report(bigint) IS 'the body of iobench.report(), which checks the grant and the run first';

-- iobench.report(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.report(run_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.report(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(report.run_id);
    SELECT * FROM iobench_internal.report(report.run_id);
END;
COMMENT ON FUNCTION iobench.report(bigint) IS 'a text report of one run: summary, percentiles, histograms, sparkline, stalls, waits';

-- One op kind of a run as fio's JSON has it: a latency block ({min, max,
-- mean, stddev, N, percentile, bins}) from the stored histogram, in ns.
CREATE OR REPLACE FUNCTION iobench.fio_latency(run_id bigint, op text, mean_us double precision,
                                    max_us double precision, with_percentiles boolean)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.fio_latency(bigint, text, double precision, double precision, boolean)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH b AS (
        SELECT round((l.lower_us * 1000 + l.upper_us * 1000 - 1) / 2)::bigint AS ns, l.count,
               l.lower_us,
               sum(l.count) OVER (ORDER BY l.lower_us) AS cum,
               sum(l.count) OVER () AS total
          FROM iobench.run_latency l
         WHERE l.run_id = fio_latency.run_id AND l.op = fio_latency.op
    ), stats AS (
        SELECT coalesce(max(total), 0) AS n,
               min(ns) AS min_ns,
               sqrt(greatest(sum(count * (ns - mean_us * 1000) ^ 2) / nullif(max(total), 0), 0)) AS sd
          FROM b
    ), pct AS (
        SELECT jsonb_object_agg(to_char(p, 'FM990.000000'),
                                (SELECT least(b.ns, round(max_us * 1000)::bigint) FROM b
                                  WHERE b.cum >= ceil(p / 100 * b.total) ORDER BY b.lower_us LIMIT 1)) AS j
          FROM unnest(ARRAY[1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]::numeric[]) AS p
    )
    SELECT jsonb_build_object(
               'min', coalesce(stats.min_ns, 0),
               'max', coalesce(round(max_us * 1000)::bigint, 0),
               'mean', coalesce(mean_us * 1000, 0),
               'stddev', coalesce(stats.sd, 0),
               'N', stats.n)
           || CASE WHEN with_percentiles AND stats.n > 0 THEN
                  jsonb_build_object('percentile', pct.j,
                                     'bins', (SELECT jsonb_object_agg(b.ns::text, b.count) FROM b))
              ELSE '{}' END
      FROM stats, pct;
END;
COMMENT ON FUNCTION iobench.fio_latency(bigint, text, double precision, double precision, boolean) IS 'a latency block of fio''s JSON output (ns) for one op kind of a run';

-- One direction (read or write) of a run as fio's JSON has it.
CREATE OR REPLACE FUNCTION iobench.fio_direction(r iobench.runs, op text)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.fio_direction(iobench.runs, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH v AS (
        SELECT CASE op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops END AS ops,
               CASE op WHEN 'read' THEN r.read_bytes WHEN 'write' THEN r.write_bytes END AS bytes,
               CASE op WHEN 'read' THEN r.read_lat_avg_us WHEN 'write' THEN r.write_lat_avg_us END AS mean_us,
               CASE op WHEN 'read' THEN r.read_lat_max_us WHEN 'write' THEN r.write_lat_max_us END AS max_us,
               nullif(r.measured_s, 0) AS secs
    ), per_second AS (
        SELECT s.ops, s.bytes
          FROM iobench.run_seconds s
         WHERE s.run_id = r.run_id AND s.op = fio_direction.op
           AND s.second + 1 <= r.measured_s
    ), samples AS (
        SELECT count(*) AS n,
               min(bytes / 1024) AS bw_min, max(bytes / 1024) AS bw_max,
               avg(bytes / 1024.0)::float8 AS bw_mean, stddev_pop(bytes / 1024.0)::float8 AS bw_dev,
               min(ops) AS iops_min, max(ops) AS iops_max,
               avg(ops)::float8 AS iops_mean, stddev_pop(ops)::float8 AS iops_dev
          FROM per_second
    )
    SELECT jsonb_build_object(
               'io_bytes', coalesce(v.bytes, 0),
               'io_kbytes', coalesce(v.bytes, 0) / 1024,
               'bw_bytes', coalesce(round(v.bytes / v.secs)::bigint, 0),
               'bw', coalesce(round(v.bytes / 1024.0 / v.secs)::bigint, 0),
               'iops', coalesce(v.ops / v.secs, 0),
               'runtime', coalesce(round(r.measured_s * 1000)::bigint, 0),
               'total_ios', coalesce(v.ops, 0),
               'short_ios', 0,
               'drop_ios', 0,
               'slat_ns', jsonb_build_object('min', 0, 'max', 0, 'mean', 0.0, 'stddev', 0.0, 'N', 0),
               'clat_ns', iobench.fio_latency(r.run_id, op, v.mean_us, v.max_us, true),
               'lat_ns', iobench.fio_latency(r.run_id, op, v.mean_us, v.max_us, false),
               'bw_min', coalesce(samples.bw_min, 0),
               'bw_max', coalesce(samples.bw_max, 0),
               'bw_agg', CASE WHEN coalesce(v.ops, 0) > 0 THEN 100.0 ELSE 0.0 END,
               'bw_mean', coalesce(samples.bw_mean, 0),
               'bw_dev', coalesce(samples.bw_dev, 0),
               'bw_samples', samples.n,
               'iops_min', coalesce(samples.iops_min, 0),
               'iops_max', coalesce(samples.iops_max, 0),
               'iops_mean', coalesce(samples.iops_mean, 0),
               'iops_stddev', coalesce(samples.iops_dev, 0),
               'iops_samples', samples.n)
      FROM v, samples;
END;
COMMENT ON FUNCTION iobench.fio_direction(iobench.runs, text) IS 'the read or write section of fio''s JSON output for a run';

-- A run as fio's JSON output (fio 3.33, --output-format=json+): one job
-- standing for all workers (as fio's group_reporting), read/write/trim/sync
-- sections with bytes, bw (KiB/s), iops, runtime (ms), latencies in ns with
-- percentiles and histogram bins, so fio tooling (fio_jsonplus_clat2csv,
-- fio-plot, ...) reads iobench results.  iobench's own figures are under
-- the extra key "iobench".
CREATE OR REPLACE FUNCTION iobench_internal.run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
    lat_buckets jsonb;
BEGIN
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = run_json.run_id;

    -- fio's coarse latency distribution of data I/O: % of I/Os per range
    WITH ranges(unit, key, lo, hi) AS (
        SELECT u.unit, u.key, u.lo, u.hi
          FROM (VALUES
            ('latency_ns', '2', 0, 2), ('latency_ns', '4', 2, 4), ('latency_ns', '10', 4, 10),
            ('latency_ns', '20', 10, 20), ('latency_ns', '50', 20, 50), ('latency_ns', '100', 50, 100),
            ('latency_ns', '250', 100, 250), ('latency_ns', '500', 250, 500),
            ('latency_ns', '750', 500, 750), ('latency_ns', '1000', 750, 1000),
            ('latency_us', '2', 1e3, 2e3), ('latency_us', '4', 2e3, 4e3), ('latency_us', '10', 4e3, 1e4),
            ('latency_us', '20', 1e4, 2e4), ('latency_us', '50', 2e4, 5e4), ('latency_us', '100', 5e4, 1e5),
            ('latency_us', '250', 1e5, 2.5e5), ('latency_us', '500', 2.5e5, 5e5),
            ('latency_us', '750', 5e5, 7.5e5), ('latency_us', '1000', 7.5e5, 1e6),
            ('latency_ms', '2', 1e6, 2e6), ('latency_ms', '4', 2e6, 4e6), ('latency_ms', '10', 4e6, 1e7),
            ('latency_ms', '20', 1e7, 2e7), ('latency_ms', '50', 2e7, 5e7), ('latency_ms', '100', 5e7, 1e8),
            ('latency_ms', '250', 1e8, 2.5e8), ('latency_ms', '500', 2.5e8, 5e8),
            ('latency_ms', '750', 5e8, 7.5e8), ('latency_ms', '1000', 7.5e8, 1e9),
            ('latency_ms', '2000', 1e9, 2e9), ('latency_ms', '>=2000', 2e9, 'infinity'))
            AS u(unit, key, lo, hi)
    ), data AS (
        SELECT (l.lower_us + l.upper_us) * 500 AS ns, l.count
          FROM iobench.run_latency l
         WHERE l.run_id = r.run_id AND l.op IN ('read', 'write')
    ), shares AS (
        SELECT g.unit, g.key,
               coalesce(100.0 * sum(d.count) / nullif((SELECT sum(count) FROM data), 0), 0) AS pct
          FROM ranges g
          LEFT JOIN data d ON d.ns >= g.lo AND d.ns < g.hi
         GROUP BY g.unit, g.key
    )
    SELECT jsonb_object_agg(unit, j) INTO lat_buckets
      FROM (SELECT unit, jsonb_object_agg(key, round(pct, 6)) AS j FROM shares GROUP BY unit) AS x;

    RETURN jsonb_build_object(
        'fio version', 'iobench-0.1',
        'timestamp', floor(extract(epoch FROM r.started_at))::bigint,
        'timestamp_ms', floor(extract(epoch FROM r.started_at) * 1000)::bigint,
        'time', to_char(r.started_at, 'Dy Mon DD HH24:MI:SS YYYY'),
        'jobs', jsonb_build_array(
            jsonb_build_object(
                'jobname', coalesce(r.label, 'iobench run ' || r.run_id),
                'groupid', 0,
                'error', 0,
                'eta', 0,
                'elapsed', ceil(r.measured_s + extract(epoch FROM r.warmup))::bigint,
                'job options', jsonb_strip_nulls(jsonb_build_object(
                    'name', coalesce(r.label, 'iobench run ' || r.run_id),
                    'rw', r.rw,
                    'bs', r.block_size::text,
                    'numjobs', r.workers::text,
                    'iodepth', r.iodepth::text,
                    'ioengine', r.engine,
                    'direct', CASE WHEN r.direct THEN '1' ELSE '0' END,
                    'size', r.file_size::text,
                    'nrfiles', r.files::text,
                    'runtime', round(extract(epoch FROM r.duration))::text,
                    'ramp_time', round(extract(epoch FROM r.warmup))::text,
                    'time_based', '1',
                    'rwmixread', r.read_pct::text,
                    'fsync', CASE WHEN r.fsync_every > 0 AND r.sync_method = 'fsync' THEN r.fsync_every::text END,
                    'fdatasync', CASE WHEN r.fsync_every > 0 AND r.sync_method = 'fdatasync' THEN r.fsync_every::text END,
                    'sync', CASE r.sync_method WHEN 'open_datasync' THEN 'dsync' WHEN 'open_sync' THEN 'sync' END,
                    'rate_iops', CASE WHEN r.rate_iops > 0 THEN r.rate_iops::text END,
                    'randseed', r.seed::text,
                    'group_reporting', '1')),
                'read', iobench.fio_direction(r, 'read'),
                'write', iobench.fio_direction(r, 'write'),
                'trim', iobench.fio_direction(r, 'trim'),
                'sync', jsonb_build_object(
                    'total_ios', coalesce(r.fsync_ops, 0),
                    'lat_ns', iobench.fio_latency(r.run_id, 'fsync', r.fsync_lat_avg_us,
                                                  r.fsync_lat_max_us, true)),
                'job_runtime', coalesce(round(r.measured_s * 1000)::bigint, 0),
                'usr_cpu', coalesce(r.cpu_user_pct, 0),
                'sys_cpu', coalesce(r.cpu_sys_pct, 0),
                'ctx', 0,
                'majf', 0,
                'minf', 0,
                'latency_ns', lat_buckets -> 'latency_ns',
                'latency_us', lat_buckets -> 'latency_us',
                'latency_ms', lat_buckets -> 'latency_ms',
                'latency_depth', r.iodepth,
                'latency_target', 0,
                'latency_percentile', 100.0,
                'latency_window', 0,
                'iobench', jsonb_build_object(
                    'run_id', r.run_id, 'status', r.status, 'tablespace', r.tablespace,
                    'device', r.device, 'filesystem', r.filesystem, 'host', r.host,
                    'pg_version', r.pg_version, 'stall_count', r.stall_count))
            -- fio's steadystate, for runs that looked for it
            || CASE WHEN r.steady_state IS NOT NULL THEN jsonb_build_object('steadystate',
                   jsonb_build_object(
                       'ss', format('%s:%s%%', CASE r.steady_state WHEN 'latency' THEN 'lat' ELSE 'iops' END,
                                    to_char(r.steady_band, 'FM990.000000')),
                       'duration', extract(epoch FROM r.steady_window)::bigint,
                       'attained', CASE WHEN r.steady_reached THEN 1 ELSE 0 END))
               ELSE '{}'::jsonb END),
        'disk_util', coalesce((
            -- fio's disk_util: each device with its counters over the
            -- measured period (ticks and in_queue in ms); a device with
            -- members (dm, md) also has fio's aggr_* sums over them
            SELECT jsonb_agg(jsonb_build_object(
                       'name', d.device,
                       'read_ios', d.reads, 'write_ios', d.writes,
                       'read_merges', d.read_merges, 'write_merges', d.write_merges,
                       'read_ticks', d.read_ms, 'write_ticks', d.write_ms,
                       'in_queue', d.queue_ms,
                       'util', round(least(d.io_ms / 10.0 / d.secs, 100)::numeric, 6))
                   || coalesce((
                       SELECT jsonb_build_object(
                                  'aggr_read_ios', sum(m.reads), 'aggr_write_ios', sum(m.writes),
                                  'aggr_read_merges', sum(m.read_merges),
                                  'aggr_write_merge', sum(m.write_merges),
                                  'aggr_read_ticks', sum(m.read_ms), 'aggr_write_ticks', sum(m.write_ms),
                                  'aggr_in_queue', sum(m.queue_ms),
                                  -- fio: the busiest member's utilisation
                                  'aggr_util', round(least(max(m.io_ms) / 10.0 / d.secs, 100)::numeric, 6))
                         FROM (SELECT y.device, sum(y.reads) AS reads, sum(y.writes) AS writes,
                                      sum(y.read_merges) AS read_merges,
                                      sum(y.write_merges) AS write_merges,
                                      sum(y.read_ms) AS read_ms, sum(y.write_ms) AS write_ms,
                                      sum(y.queue_ms) AS queue_ms, sum(y.io_ms) AS io_ms
                                 FROM iobench.run_disk_seconds y
                                WHERE y.run_id = r.run_id AND y.member
                                GROUP BY y.device) AS m
                       HAVING count(*) > 0), '{}')
                   ORDER BY d.device)
              FROM (SELECT x.device, sum(x.reads) AS reads, sum(x.writes) AS writes,
                           sum(x.read_merges) AS read_merges, sum(x.write_merges) AS write_merges,
                           sum(x.read_ms) AS read_ms, sum(x.write_ms) AS write_ms,
                           sum(x.queue_ms) AS queue_ms, sum(x.io_ms) AS io_ms,
                           sum(x.interval_s) AS secs
                      FROM iobench.run_disk_seconds x
                     WHERE x.run_id = r.run_id AND NOT x.member
                     GROUP BY x.device) AS d), '[]'::jsonb));
END
$$;
COMMENT ON FUNCTION iobench_internal.run_json(bigint) IS 'the body of iobench.run_json(), which checks the grant and the run first';

-- iobench.run_json(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.run_json(run_id bigint)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.run_json(bigint)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.existing_run(run_json.run_id);
    SELECT iobench_internal.run_json(run_json.run_id);
END;
COMMENT ON FUNCTION iobench.run_json(bigint) IS 'a run as fio''s JSON output (json+), for fio tooling';
