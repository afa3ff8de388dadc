-- Importing fio's results (--output-format=json or json+) as runs, so a
-- disk measured with fio on a machine without PostgreSQL sits beside
-- iobench's runs.

-- A size as fio writes it in job options ("8k", "4K", "1m", "1g", "512",
-- "64KiB"): fio's k, m, g and t are powers of 1024 (kb_base=1024).  NULL
-- for what is not a plain size (a percentage, a range, a list).
CREATE OR REPLACE FUNCTION iobench.fio_size(size text)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN m IS NULL THEN NULL
                ELSE m[1]::numeric * 1024::numeric ^ CASE WHEN m[2] = '' THEN 0 ELSE strpos('kmgtp', lower(m[2])) END
           END::bigint
      FROM (SELECT regexp_match(btrim(size), '^([0-9]+)([kKmMgGtTpP]?)(i?[bB])?$') AS m) AS x
$$;
COMMENT ON FUNCTION iobench.fio_size(text) IS 'a size in fio''s notation (8k, 1m: powers of 1024) in bytes';

-- The latency block of one direction of a fio job ("read", "write" or
-- "fsync"): completion latency (clat_ns), or lat_ns when fio computed
-- percentiles of it (lat_percentiles); syncs have lat_ns only.
CREATE OR REPLACE FUNCTION iobench.fio_latency_section(job jsonb, op text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' -> 'lat_ns'
                WHEN job -> op -> 'lat_ns' ? 'percentile' THEN job -> op -> 'lat_ns'
                ELSE job -> op -> 'clat_ns' END
$$;
COMMENT ON FUNCTION iobench.fio_latency_section(jsonb, text) IS 'the latency block of one direction of a fio job';

-- The iobench.runs columns of one direction of a fio job, as a JSON object
-- keyed by column ("read_ops", "read_lat_p99_us", ...; "fsync_" for the
-- sync section); empty when the direction did no I/O.  fio's ns become µs.
CREATE OR REPLACE FUNCTION iobench.fio_figures(job jsonb, op text, runtime_s double precision)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH d AS (
        SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' ELSE job -> op END AS sec,
               iobench.fio_latency_section(job, op) AS lat
    )
    SELECT CASE WHEN coalesce((d.sec ->> 'total_ios')::bigint, 0) = 0 THEN '{}'::jsonb
           ELSE jsonb_strip_nulls(jsonb_build_object(
               op || '_ops', (d.sec ->> 'total_ios')::bigint,
               op || '_bytes', CASE WHEN op <> 'fsync' THEN (d.sec ->> 'io_bytes')::bigint END,
               op || '_iops', CASE WHEN op <> 'fsync' THEN (d.sec ->> 'iops')::double precision
                                   ELSE (d.sec ->> 'total_ios')::double precision / nullif(runtime_s, 0) END,
               op || '_mb_per_s', CASE WHEN op <> 'fsync' THEN (d.sec ->> 'bw_bytes')::double precision / 1e6 END,
               op || '_lat_avg_us', (d.lat ->> 'mean')::double precision / 1000,
               op || '_lat_p50_us', (d.lat -> 'percentile' ->> '50.000000')::double precision / 1000,
               op || '_lat_p90_us', (d.lat -> 'percentile' ->> '90.000000')::double precision / 1000,
               op || '_lat_p99_us', (d.lat -> 'percentile' ->> '99.000000')::double precision / 1000,
               op || '_lat_p999_us', (d.lat -> 'percentile' ->> '99.900000')::double precision / 1000,
               op || '_lat_max_us', (d.lat ->> 'max')::double precision / 1000))
           END
      FROM d
$$;
COMMENT ON FUNCTION iobench.fio_figures(jsonb, text, double precision) IS 'the iobench.runs columns of one direction of a fio job';

-- The settings and summary of a fio job as iobench.runs columns (a JSON
-- object keyed by column): job options over the global options, fio's
-- defaults where a job leaves one out.  Raises for a job that failed or
-- uses a pattern iobench does not store.
CREATE OR REPLACE FUNCTION iobench.fio_settings(doc jsonb, job jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o jsonb;
    rw text;
    run_s double precision;
    fin timestamptz;
BEGIN
    -- job options over global options
    o := coalesce(doc -> 'global options', '{}') || coalesce(job -> 'job options', '{}');
    IF coalesce((job ->> 'error')::integer, 0) <> 0 THEN
        RAISE EXCEPTION 'fio job "%" ended with error %', job ->> 'jobname', job ->> 'error'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only jobs that ran to their end are imported.';
    END IF;
    rw := split_part(coalesce(o ->> 'rw', o ->> 'readwrite', 'read'), ':', 1);
    rw := CASE rw WHEN 'rw' THEN 'readwrite' WHEN 'randread' THEN 'randread'
                  WHEN 'randwrite' THEN 'randwrite' WHEN 'randrw' THEN 'randrw'
                  WHEN 'read' THEN 'read' WHEN 'write' THEN 'write'
                  WHEN 'readwrite' THEN 'readwrite' END;
    IF rw IS NULL THEN
        RAISE EXCEPTION 'fio job "%" uses rw=%, which iobench does not store', job ->> 'jobname', o ->> 'rw'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'iobench stores randread, randwrite, randrw, read, write and readwrite (rw).';
    END IF;
    run_s := coalesce((job ->> 'job_runtime')::double precision, 0) / 1000;
    fin := to_timestamp(coalesce((doc ->> 'timestamp_ms')::double precision / 1000,
                                 (doc ->> 'timestamp')::double precision));
    RETURN jsonb_build_object(
            'status', 'completed',
            'started_at', fin - make_interval(secs => coalesce((job ->> 'elapsed')::double precision, run_s)),
            'finished_at', fin,
            'tablespace', left(coalesce(o ->> 'directory', o ->> 'filename', ''), 63),
            'device', doc -> 'disk_util' -> 0 ->> 'name',
            'host', doc ->> 'hostname',
            'imported_at', now(),
            'tool', doc ->> 'fio version',
            'rw', rw,
            'block_size', coalesce(iobench.fio_size(split_part(split_part(o ->> 'bs', ',', 1), '-', 1)), 4096),
            'workers', CASE WHEN o ? 'group_reporting' THEN coalesce((o ->> 'numjobs')::integer, 1) ELSE 1 END,
            'iodepth', coalesce((o ->> 'iodepth')::integer, 1),
            'duration', make_interval(secs => run_s),
            'warmup', CASE WHEN o ->> 'ramp_time' ~ '^[0-9]+$' THEN make_interval(secs => (o ->> 'ramp_time')::double precision)
                           ELSE coalesce((o ->> 'ramp_time')::interval, '0s') END,
            'file_size', coalesce(iobench.fio_size(o ->> 'size'), iobench.fio_size(o ->> 'filesize'), 0),
            'files', coalesce((o ->> 'nrfiles')::integer, 1),
            'read_pct', CASE WHEN rw IN ('randrw', 'readwrite')
                             THEN coalesce((o ->> 'rwmixread')::integer, 100 - (o ->> 'rwmixwrite')::integer, 50) END,
            'fsync_every', coalesce((o ->> 'fsync')::integer, (o ->> 'fdatasync')::integer, 0),
            'sync_method', CASE WHEN o ? 'fdatasync' AND NOT o ? 'fsync' THEN 'fdatasync' ELSE 'fsync' END,
            'direct', coalesce(o ->> 'direct', '0') = '1' OR coalesce(o ->> 'buffered', '1') = '0',
            'engine', coalesce(o ->> 'ioengine', 'psync'),
            'rate_iops', coalesce(iobench.fio_size(split_part(o ->> 'rate_iops', ',', 1)), 0),
            'seed', coalesce((o ->> 'randseed')::numeric, 0),
            'measured_s', run_s,
            'cpu_user_pct', job -> 'usr_cpu',
            'cpu_sys_pct', job -> 'sys_cpu');
END
$$;
COMMENT ON FUNCTION iobench.fio_settings(jsonb, jsonb) IS 'the settings and summary of a fio job as iobench.runs columns';

-- Store each job of a fio JSON result as a run.  Settings come from the
-- job options (fio's defaults where a job leaves one out), figures from
-- the read, write and sync sections: fio's own percentiles of completion
-- latency (clat, or lat when fio was told lat_percentiles), and with
-- json+ its histogram bins, moved into iobench's buckets so they merge
-- with iobench's runs.  fio has no per-second series in its JSON.  A job
-- with group_reporting stands for numjobs workers, one without for one.
-- The run's run_uuid is derived from the result, so importing it again
-- stores nothing.  tablespace holds the job's directory or filename (fio
-- has no tablespace), device the first disk of disk_util.
CREATE OR REPLACE FUNCTION iobench.import_fio(doc jsonb, server text DEFAULT NULL, label text DEFAULT NULL)
RETURNS SETOF iobench.runs
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    j record;
    id bigint;
    uid uuid;
    run_s double precision;
    k text;
BEGIN
    IF import_fio.doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF jsonb_typeof(import_fio.doc) <> 'object' OR NOT import_fio.doc ? 'fio version'
       OR jsonb_typeof(import_fio.doc -> 'jobs') IS DISTINCT FROM 'array'
       OR jsonb_array_length(import_fio.doc -> 'jobs') = 0 THEN
        RAISE EXCEPTION 'argument "doc" is not a JSON result of fio'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A result of fio --output-format=json or json+ is an object with "fio version" and a non-empty array "jobs".',
                  HINT = 'A document of iobench.export_runs() is imported with iobench.import_runs().';
    END IF;
    IF import_fio.server = '' THEN
        RAISE EXCEPTION 'argument "server" must not be empty'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    FOR j IN SELECT x.value AS v, x.n FROM jsonb_array_elements(import_fio.doc -> 'jobs') WITH ORDINALITY AS x(value, n) LOOP
        uid := md5(concat_ws('/', import_fio.doc ->> 'fio version', import_fio.doc ->> 'timestamp_ms',
                             j.n, j.v::text))::uuid;
        SELECT r.run_id INTO id FROM iobench.runs r WHERE r.run_uuid = uid;
        IF FOUND THEN
            RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
            CONTINUE;
        END IF;

        run_s := coalesce((j.v ->> 'job_runtime')::double precision, 0) / 1000;
        id := iobench.insert_run(iobench.fio_settings(import_fio.doc, j.v)
            || jsonb_build_object('run_uuid', uid, 'server', import_fio.server,
                                  'label', coalesce(import_fio.label, j.v ->> 'jobname'))
            || iobench.fio_figures(j.v, 'read', run_s)
            || iobench.fio_figures(j.v, 'write', run_s)
            || iobench.fio_figures(j.v, 'fsync', run_s));

        -- per direction: histogram bins (json+), moved into iobench's buckets
        FOREACH k IN ARRAY ARRAY['read', 'write', 'fsync'] LOOP
            INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
            SELECT id, k, b.lower_us, b.upper_us, sum(e.value::bigint)
              FROM jsonb_each_text(coalesce(iobench.fio_latency_section(j.v, k) -> 'bins', '{}')) AS e(key, value),
                   LATERAL iobench.latency_bucket(e.key::bigint) AS b
             GROUP BY b.lower_us, b.upper_us;
        END LOOP;

        -- data I/O as a whole: reads and writes; fio's percentiles when only
        -- one direction ran, otherwise from the merged histogram (json+)
        UPDATE iobench.runs r SET
            ops = coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0),
            bytes = coalesce(r.read_bytes, 0) + coalesce(r.write_bytes, 0),
            iops = coalesce(r.read_iops, 0) + coalesce(r.write_iops, 0),
            mb_per_s = coalesce(r.read_mb_per_s, 0) + coalesce(r.write_mb_per_s, 0),
            lat_avg_us = (coalesce(r.read_lat_avg_us * r.read_ops, 0) + coalesce(r.write_lat_avg_us * r.write_ops, 0))
                         / nullif(coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0), 0),
            lat_max_us = greatest(r.read_lat_max_us, r.write_lat_max_us),
            lat_p50_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p50_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p50_us WHEN m.ops > 0 THEN m.lat_p50_us END,
            lat_p90_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p90_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p90_us WHEN m.ops > 0 THEN m.lat_p90_us END,
            lat_p99_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p99_us
                              WHEN r.read_ops IS NULL THEN r.write_lat_p99_us WHEN m.ops > 0 THEN m.lat_p99_us END,
            lat_p999_us = CASE WHEN r.write_ops IS NULL THEN r.read_lat_p999_us
                               WHEN r.read_ops IS NULL THEN r.write_lat_p999_us WHEN m.ops > 0 THEN m.lat_p999_us END
          FROM iobench.merged_latency(ARRAY[id], 'data') AS m
         WHERE r.run_id = id;
        RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench.import_fio(jsonb, text, text) IS 'store each job of a fio JSON result (json or json+) as a run';
