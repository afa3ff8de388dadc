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

-- A number of a fio document (a JSON number, or a string holding one, as
-- fio writes job options): NULL when the key is missing or null; raises,
-- naming the document's field and the valid range, for anything else than
-- a finite number from min_value to max_value (a whole one when whole).
CREATE OR REPLACE FUNCTION iobench_internal.fio_number(value jsonb, field text, min_value numeric, max_value numeric,
                                              whole boolean DEFAULT true)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t text := fio_number.value #>> '{}';
    v numeric;
BEGIN
    IF fio_number.value IS NULL OR jsonb_typeof(fio_number.value) = 'null' THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(fio_number.value) IN ('number', 'string')
       AND t ~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$' THEN
        v := t::numeric;
    END IF;
    IF v IS NULL OR v < fio_number.min_value OR v > fio_number.max_value
       OR (fio_number.whole AND v <> trunc(v)) THEN
        RAISE EXCEPTION 'field % of argument "doc" is %, but must be a % from % to %',
                        fio_number.field, fio_number.value::text,
                        CASE WHEN fio_number.whole THEN 'whole number' ELSE 'number' END,
                        fio_number.min_value, fio_number.max_value
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN v;
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_number(jsonb, text, numeric, numeric, boolean) IS 'a number of a fio document, checked against its valid range, naming the field';

-- A size of a fio job option in fio's notation (iobench.fio_size()) in
-- bytes, from min_value to max_value; NULL when the option is missing or
-- not a plain size (a percentage, a range).  Raises naming the field for a
-- size out of range.
CREATE OR REPLACE FUNCTION iobench_internal.fio_size_option(size text, field text, min_value numeric, max_value numeric)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    m text[] := regexp_match(btrim(fio_size_option.size), '^([0-9]{1,30})([kKmMgGtTpP]?)(i?[bB])?$');
    v numeric;
BEGIN
    IF m IS NULL THEN
        RETURN NULL;
    END IF;
    v := m[1]::numeric * 1024::numeric ^ CASE WHEN m[2] = '' THEN 0 ELSE strpos('kmgtp', lower(m[2])) END;
    IF v < fio_size_option.min_value OR v > fio_size_option.max_value THEN
        RAISE EXCEPTION 'field % of argument "doc" is "%", but must be a size from % to % bytes',
                        fio_size_option.field, fio_size_option.size,
                        fio_size_option.min_value, fio_size_option.max_value
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN v::bigint;
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_size_option(text, text, numeric, numeric) IS 'a size of a fio job option in bytes, checked against its valid range, naming the field';

-- The latency block of one direction of a fio job ("read", "write" or
-- "fsync"): completion latency (clat_ns), or lat_ns when fio computed
-- percentiles of it (lat_percentiles); syncs have lat_ns only.
CREATE OR REPLACE FUNCTION iobench_internal.fio_latency_section(job jsonb, op text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' -> 'lat_ns'
                WHEN job -> op -> 'lat_ns' ? 'percentile' THEN job -> op -> 'lat_ns'
                ELSE job -> op -> 'clat_ns' END
$$;
COMMENT ON FUNCTION iobench_internal.fio_latency_section(jsonb, text) IS 'the latency block of one direction of a fio job';

-- The iobench.runs columns of one direction of a fio job, as a JSON object
-- keyed by column ("read_ops", "read_lat_p99_us", ...; "fsync_" for the
-- sync section); empty when the direction did no I/O.  fio's ns become µs.
CREATE OR REPLACE FUNCTION iobench_internal.fio_figures(job jsonb, op text, runtime_s double precision)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH d AS (
        SELECT CASE WHEN op = 'fsync' THEN job -> 'sync' ELSE job -> op END AS sec,
               CASE WHEN op = 'fsync' THEN 'sync' ELSE op END AS key,
               iobench_internal.fio_latency_section(job, op) AS lat,
               CASE WHEN op = 'fsync' OR job -> op -> 'lat_ns' ? 'percentile' THEN 'lat_ns' ELSE 'clat_ns' END AS lat_key
    )
    SELECT CASE WHEN coalesce(iobench_internal.fio_number(d.sec -> 'total_ios', format('"%s"."total_ios"', d.key), 0, 9223372036854775807), 0) = 0
                THEN '{}'::jsonb
           ELSE jsonb_strip_nulls(jsonb_build_object(
               op || '_ops', iobench_internal.fio_number(d.sec -> 'total_ios', format('"%s"."total_ios"', d.key), 0, 9223372036854775807)::bigint,
               op || '_bytes', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'io_bytes', format('"%s"."io_bytes"', d.key), 0, 9223372036854775807)::bigint END,
               op || '_iops', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'iops', format('"%s"."iops"', d.key), 0, 1e15, false)::double precision
                                   ELSE (d.sec ->> 'total_ios')::double precision / nullif(runtime_s, 0) END,
               op || '_mb_per_s', CASE WHEN op <> 'fsync' THEN iobench_internal.fio_number(d.sec -> 'bw_bytes', format('"%s"."bw_bytes"', d.key), 0, 1e18, false)::double precision / 1e6 END,
               op || '_lat_avg_us', iobench_internal.fio_number(d.lat -> 'mean', format('"%s"."%s"."mean"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p50_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '50.000000', format('"%s"."%s"."percentile"."50.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p90_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '90.000000', format('"%s"."%s"."percentile"."90.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p99_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '99.000000', format('"%s"."%s"."percentile"."99.000000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_p999_us', iobench_internal.fio_number(d.lat -> 'percentile' -> '99.900000', format('"%s"."%s"."percentile"."99.900000"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000,
               op || '_lat_max_us', iobench_internal.fio_number(d.lat -> 'max', format('"%s"."%s"."max"', d.key, d.lat_key), 0, 1e18, false)::double precision / 1000))
           END
      FROM d
$$;
COMMENT ON FUNCTION iobench_internal.fio_figures(jsonb, text, double precision) IS 'the iobench.runs columns of one direction of a fio job';

-- The settings and summary of a fio job as iobench.runs columns (a JSON
-- object keyed by column): job options over the global options, fio's
-- defaults where a job leaves one out.  Raises for a job that failed or
-- uses a pattern iobench does not store.
CREATE OR REPLACE FUNCTION iobench_internal.fio_settings(doc jsonb, job jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o jsonb;
    rw text;
    run_s double precision;
    fin timestamptz;
    warm interval;
BEGIN
    -- job options over global options
    o := coalesce(doc -> 'global options', '{}') || coalesce(job -> 'job options', '{}');
    IF coalesce(iobench_internal.fio_number(job -> 'error', '"error"', -2147483648, 2147483647), 0) <> 0 THEN
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
    -- fio's times: job_runtime in ms, elapsed in s, the end as a Unix time
    -- (within ten days of run time and a time before the year 10000)
    run_s := coalesce(iobench_internal.fio_number(job -> 'job_runtime', '"job_runtime"', 0, 864000000, false), 0) / 1000;
    fin := to_timestamp(coalesce(iobench_internal.fio_number(doc -> 'timestamp_ms', '"timestamp_ms"', 0, 253402300799000, false) / 1000,
                                 iobench_internal.fio_number(doc -> 'timestamp', '"timestamp"', 0, 253402300799, false)));
    IF fin IS NULL THEN
        RAISE EXCEPTION 'argument "doc" has neither "timestamp_ms" nor "timestamp"'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'fio writes the time its result was made as "timestamp" (Unix seconds) and "timestamp_ms"; a run needs it.';
    END IF;
    -- ramp_time: seconds, or a time with fio's units (10s, 500ms, 2m)
    IF o ->> 'ramp_time' ~ '^\s*[0-9]{1,9}\s*$' THEN
        warm := make_interval(secs => (o ->> 'ramp_time')::double precision);
    ELSIF o ->> 'ramp_time' IS NOT NULL THEN
        BEGIN
            warm := (o ->> 'ramp_time')::interval;
        EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR interval_field_overflow
                       OR invalid_parameter_value OR numeric_value_out_of_range THEN
            warm := NULL;
        END;
        IF warm IS NULL OR warm < '0s' OR warm > '10 days' THEN
            RAISE EXCEPTION 'field "job options"."ramp_time" of argument "doc" is "%", but must be a time from 0 to 10 days', o ->> 'ramp_time'
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'fio writes ramp_time as seconds ("10") or with a unit ("10s", "500ms", "2m").';
        END IF;
    END IF;
    RETURN jsonb_build_object(
            'status', 'completed',
            'started_at', fin - make_interval(secs => coalesce(iobench_internal.fio_number(job -> 'elapsed', '"elapsed"', 0, 864000, false)::double precision, run_s)),
            'finished_at', fin,
            'tablespace', left(coalesce(o ->> 'directory', o ->> 'filename', ''), 63),
            'device', doc -> 'disk_util' -> 0 ->> 'name',
            'host', doc ->> 'hostname',
            'imported_at', now(),
            'tool', doc ->> 'fio version',
            'rw', rw,
            'block_size', coalesce(iobench_internal.fio_size_option(split_part(split_part(o ->> 'bs', ',', 1), '-', 1),
                                                           '"job options"."bs"', 1, 2147483647), 4096),
            'workers', CASE WHEN o ? 'group_reporting'
                            THEN coalesce(iobench_internal.fio_number(o -> 'numjobs', '"job options"."numjobs"', 1, 2147483647), 1)
                            ELSE 1 END,
            'iodepth', coalesce(iobench_internal.fio_number(o -> 'iodepth', '"job options"."iodepth"', 1, 2147483647), 1),
            'duration', make_interval(secs => run_s),
            'warmup', coalesce(warm, '0s'),
            'file_size', coalesce(iobench_internal.fio_size_option(o ->> 'size', '"job options"."size"', 0, 9223372036854775807),
                                  iobench_internal.fio_size_option(o ->> 'filesize', '"job options"."filesize"', 0, 9223372036854775807), 0),
            'files', coalesce(iobench_internal.fio_number(o -> 'nrfiles', '"job options"."nrfiles"', 1, 2147483647), 1),
            'read_pct', CASE WHEN rw IN ('randrw', 'readwrite')
                             THEN coalesce(iobench_internal.fio_number(o -> 'rwmixread', '"job options"."rwmixread"', 0, 100),
                                           100 - iobench_internal.fio_number(o -> 'rwmixwrite', '"job options"."rwmixwrite"', 0, 100), 50) END,
            'fsync_every', coalesce(iobench_internal.fio_number(o -> 'fsync', '"job options"."fsync"', 0, 2147483647),
                                    iobench_internal.fio_number(o -> 'fdatasync', '"job options"."fdatasync"', 0, 2147483647), 0),
            'sync_method', CASE WHEN o ? 'fdatasync' AND NOT o ? 'fsync' THEN 'fdatasync' ELSE 'fsync' END,
            'direct', coalesce(o ->> 'direct', '0') = '1' OR coalesce(o ->> 'buffered', '1') = '0',
            'engine', coalesce(o ->> 'ioengine', 'psync'),
            'rate_iops', coalesce(iobench_internal.fio_size_option(split_part(o ->> 'rate_iops', ',', 1),
                                                          '"job options"."rate_iops"', 0, 2147483647), 0),
            -- fio's seed is unsigned 64-bit, iobench's signed: the same bits
            'seed', (SELECT CASE WHEN s.x > 9223372036854775807 THEN s.x - 18446744073709551616 ELSE s.x END
                       FROM (SELECT coalesce(iobench_internal.fio_number(o -> 'randseed', '"job options"."randseed"', 0,
                                                                18446744073709551615), 0) AS x) AS s),
            'measured_s', run_s,
            'cpu_user_pct', iobench_internal.fio_number(job -> 'usr_cpu', '"usr_cpu"', 0, 1e9, false),
            'cpu_sys_pct', iobench_internal.fio_number(job -> 'sys_cpu', '"sys_cpu"', 0, 1e9, false));
END
$$;
COMMENT ON FUNCTION iobench_internal.fio_settings(jsonb, jsonb) IS 'the settings and summary of a fio job as iobench.runs columns';

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
    bin_key text;
    lat_key text;
    deep text;
BEGIN
    -- executable by PUBLIC only for this check, which names the grant; of
    -- the caller, not the owner this function runs as
    PERFORM iobench_internal.require_caller_grant('iobench.import_fio(jsonb, text, text)'::regprocedure);
    IF import_fio.doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    PERFORM iobench_internal.check_import_size(import_fio.doc);
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
    -- nested at most 32 levels (iobench_internal.deep_field()); the jobs
    -- each below
    deep := iobench_internal.deep_field(import_fio.doc - 'jobs', 32);
    IF deep IS NOT NULL THEN
        RAISE EXCEPTION 'field % of argument "doc" is nested more than 32 levels deep', deep
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

        BEGIN
        -- a job is level 2 of the document (doc -> jobs -> job)
        deep := iobench_internal.deep_field(j.v, 30);
        IF deep IS NOT NULL THEN
            RAISE EXCEPTION '% is nested more than 32 levels deep in the document',
                            coalesce('field ' || nullif(deep, ''), 'the job')
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        run_s := coalesce(iobench_internal.fio_number(j.v -> 'job_runtime', '"job_runtime"', 0, 864000000, false), 0) / 1000;
        id := iobench_internal.insert_run(iobench_internal.fio_settings(import_fio.doc, j.v)
            || jsonb_build_object('run_uuid', uid, 'server', import_fio.server,
                                  'label', coalesce(import_fio.label, j.v ->> 'jobname'))
            || iobench_internal.fio_figures(j.v, 'read', run_s)
            || iobench_internal.fio_figures(j.v, 'write', run_s)
            || iobench_internal.fio_figures(j.v, 'fsync', run_s));

        -- per direction: histogram bins (json+), moved into iobench's buckets
        FOREACH k IN ARRAY ARRAY['read', 'write', 'fsync'] LOOP
            bin_key := CASE k WHEN 'fsync' THEN 'sync' ELSE k END;
            lat_key := CASE WHEN k = 'fsync' OR j.v -> k -> 'lat_ns' ? 'percentile' THEN 'lat_ns' ELSE 'clat_ns' END;
            INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
            SELECT id, k, b.lower_us, b.upper_us,
                   sum(iobench_internal.fio_number(e.value, format('"%s"."%s"."bins"."%s"', bin_key, lat_key, e.key), 0, 9223372036854775807))
              FROM jsonb_each(coalesce(iobench_internal.fio_latency_section(j.v, k) -> 'bins', '{}')) AS e(key, value),
                   LATERAL iobench.latency_bucket(iobench_internal.fio_number(to_jsonb(e.key), format('"%s"."%s"."bins" (a key)', bin_key, lat_key),
                                                                     0, 9223372036854775807)::bigint) AS b
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
        PERFORM iobench_internal.check_imported_run(id);
        EXCEPTION
            WHEN invalid_parameter_value OR not_null_violation OR check_violation
                 OR invalid_text_representation OR datatype_mismatch
                 OR invalid_datetime_format OR datetime_field_overflow
                 OR numeric_value_out_of_range OR string_data_right_truncation
                 OR interval_field_overflow THEN
            RAISE EXCEPTION 'job % of argument "doc" could not be imported', j.n
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('%s (job "%s").', SQLERRM, coalesce(j.v ->> 'jobname', 'without a name'));
        END;
        RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench.import_fio(jsonb, text, text) IS 'store each job of a fio JSON result (json or json+) as a run';
