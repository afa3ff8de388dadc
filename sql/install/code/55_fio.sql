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
    o jsonb;
    rw text;
    id bigint;
    uid uuid;
    run_s double precision;
    fin timestamptz;
    k text;
    sec jsonb;
    lat jsonb;
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
        -- job options over global options
        o := coalesce(import_fio.doc -> 'global options', '{}') || coalesce(j.v -> 'job options', '{}');
        IF coalesce((j.v ->> 'error')::integer, 0) <> 0 THEN
            RAISE EXCEPTION 'fio job "%" ended with error %', j.v ->> 'jobname', j.v ->> 'error'
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'Only jobs that ran to their end are imported.';
        END IF;
        rw := split_part(coalesce(o ->> 'rw', o ->> 'readwrite', 'read'), ':', 1);
        rw := CASE rw WHEN 'rw' THEN 'readwrite' WHEN 'randread' THEN 'randread'
                      WHEN 'randwrite' THEN 'randwrite' WHEN 'randrw' THEN 'randrw'
                      WHEN 'read' THEN 'read' WHEN 'write' THEN 'write'
                      WHEN 'readwrite' THEN 'readwrite' END;
        IF rw IS NULL THEN
            RAISE EXCEPTION 'fio job "%" uses rw=%, which iobench does not store', j.v ->> 'jobname', o ->> 'rw'
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'iobench stores randread, randwrite, randrw, read, write and readwrite (rw).';
        END IF;
        uid := md5(concat_ws('/', import_fio.doc ->> 'fio version', import_fio.doc ->> 'timestamp_ms',
                             j.n, j.v::text))::uuid;
        SELECT r.run_id INTO id FROM iobench.runs r WHERE r.run_uuid = uid;
        IF FOUND THEN
            RETURN QUERY SELECT * FROM iobench.runs r WHERE r.run_id = id;
            CONTINUE;
        END IF;

        run_s := coalesce((j.v ->> 'job_runtime')::double precision, 0) / 1000;
        fin := to_timestamp(coalesce((import_fio.doc ->> 'timestamp_ms')::double precision / 1000,
                                     (import_fio.doc ->> 'timestamp')::double precision));
        id := iobench.insert_run(jsonb_build_object(
            'run_uuid', uid,
            'status', 'completed',
            'label', coalesce(import_fio.label, j.v ->> 'jobname'),
            'started_at', fin - make_interval(secs => coalesce((j.v ->> 'elapsed')::double precision, run_s)),
            'finished_at', fin,
            'tablespace', left(coalesce(o ->> 'directory', o ->> 'filename', ''), 63),
            'device', import_fio.doc -> 'disk_util' -> 0 ->> 'name',
            'host', import_fio.doc ->> 'hostname',
            'server', import_fio.server,
            'imported_at', now(),
            'tool', import_fio.doc ->> 'fio version',
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
            'cpu_user_pct', j.v -> 'usr_cpu',
            'cpu_sys_pct', j.v -> 'sys_cpu'));

        -- per direction: figures, fio's percentiles, histogram bins
        FOREACH k IN ARRAY ARRAY['read', 'write', 'fsync'] LOOP
            sec := CASE k WHEN 'fsync' THEN j.v -> 'sync' ELSE j.v -> k END;
            lat := CASE WHEN k = 'fsync' THEN sec -> 'lat_ns'
                        WHEN sec -> 'lat_ns' ? 'percentile' THEN sec -> 'lat_ns'
                        ELSE sec -> 'clat_ns' END;
            CONTINUE WHEN coalesce((sec ->> 'total_ios')::bigint, 0) = 0;
            UPDATE iobench.runs r SET
                read_ops = CASE k WHEN 'read' THEN (sec ->> 'total_ios')::bigint ELSE r.read_ops END,
                read_bytes = CASE k WHEN 'read' THEN (sec ->> 'io_bytes')::bigint ELSE r.read_bytes END,
                read_iops = CASE k WHEN 'read' THEN (sec ->> 'iops')::double precision ELSE r.read_iops END,
                read_mb_per_s = CASE k WHEN 'read' THEN (sec ->> 'bw_bytes')::double precision / 1e6 ELSE r.read_mb_per_s END,
                read_lat_avg_us = CASE k WHEN 'read' THEN (lat ->> 'mean')::double precision / 1000 ELSE r.read_lat_avg_us END,
                read_lat_p50_us = CASE k WHEN 'read' THEN (lat -> 'percentile' ->> '50.000000')::double precision / 1000 ELSE r.read_lat_p50_us END,
                read_lat_p90_us = CASE k WHEN 'read' THEN (lat -> 'percentile' ->> '90.000000')::double precision / 1000 ELSE r.read_lat_p90_us END,
                read_lat_p99_us = CASE k WHEN 'read' THEN (lat -> 'percentile' ->> '99.000000')::double precision / 1000 ELSE r.read_lat_p99_us END,
                read_lat_p999_us = CASE k WHEN 'read' THEN (lat -> 'percentile' ->> '99.900000')::double precision / 1000 ELSE r.read_lat_p999_us END,
                read_lat_max_us = CASE k WHEN 'read' THEN (lat ->> 'max')::double precision / 1000 ELSE r.read_lat_max_us END,
                write_ops = CASE k WHEN 'write' THEN (sec ->> 'total_ios')::bigint ELSE r.write_ops END,
                write_bytes = CASE k WHEN 'write' THEN (sec ->> 'io_bytes')::bigint ELSE r.write_bytes END,
                write_iops = CASE k WHEN 'write' THEN (sec ->> 'iops')::double precision ELSE r.write_iops END,
                write_mb_per_s = CASE k WHEN 'write' THEN (sec ->> 'bw_bytes')::double precision / 1e6 ELSE r.write_mb_per_s END,
                write_lat_avg_us = CASE k WHEN 'write' THEN (lat ->> 'mean')::double precision / 1000 ELSE r.write_lat_avg_us END,
                write_lat_p50_us = CASE k WHEN 'write' THEN (lat -> 'percentile' ->> '50.000000')::double precision / 1000 ELSE r.write_lat_p50_us END,
                write_lat_p90_us = CASE k WHEN 'write' THEN (lat -> 'percentile' ->> '90.000000')::double precision / 1000 ELSE r.write_lat_p90_us END,
                write_lat_p99_us = CASE k WHEN 'write' THEN (lat -> 'percentile' ->> '99.000000')::double precision / 1000 ELSE r.write_lat_p99_us END,
                write_lat_p999_us = CASE k WHEN 'write' THEN (lat -> 'percentile' ->> '99.900000')::double precision / 1000 ELSE r.write_lat_p999_us END,
                write_lat_max_us = CASE k WHEN 'write' THEN (lat ->> 'max')::double precision / 1000 ELSE r.write_lat_max_us END,
                fsync_ops = CASE k WHEN 'fsync' THEN (sec ->> 'total_ios')::bigint ELSE r.fsync_ops END,
                fsync_iops = CASE k WHEN 'fsync' THEN (sec ->> 'total_ios')::double precision / nullif(run_s, 0) ELSE r.fsync_iops END,
                fsync_lat_avg_us = CASE k WHEN 'fsync' THEN (lat ->> 'mean')::double precision / 1000 ELSE r.fsync_lat_avg_us END,
                fsync_lat_p50_us = CASE k WHEN 'fsync' THEN (lat -> 'percentile' ->> '50.000000')::double precision / 1000 ELSE r.fsync_lat_p50_us END,
                fsync_lat_p90_us = CASE k WHEN 'fsync' THEN (lat -> 'percentile' ->> '90.000000')::double precision / 1000 ELSE r.fsync_lat_p90_us END,
                fsync_lat_p99_us = CASE k WHEN 'fsync' THEN (lat -> 'percentile' ->> '99.000000')::double precision / 1000 ELSE r.fsync_lat_p99_us END,
                fsync_lat_p999_us = CASE k WHEN 'fsync' THEN (lat -> 'percentile' ->> '99.900000')::double precision / 1000 ELSE r.fsync_lat_p999_us END,
                fsync_lat_max_us = CASE k WHEN 'fsync' THEN (lat ->> 'max')::double precision / 1000 ELSE r.fsync_lat_max_us END
             WHERE r.run_id = id;
            -- json+ bins: {"<ns>": count}, moved into iobench's buckets
            INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
            SELECT id, k, b.lower_us, b.upper_us, sum(e.value::bigint)
              FROM jsonb_each_text(coalesce(lat -> 'bins', '{}')) AS e(key, value),
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
