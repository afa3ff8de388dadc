-- Runs across servers: export and import (iobench's own documents and fio's
-- JSON), merged latency histograms, and the fleet comparison.
--
-- A run is identified everywhere by runs.run_uuid; a copy keeps it, with
-- the run's origin (host, system_identifier, pg_version, device, its
-- run_id there as origin_run_id) and the name it was gathered under
-- (server).  Importing a run that is already stored changes nothing, so
-- gathering twice stores once.

-- A document of iobench runs (version 1) around the runs given, each
-- {"run": ..., "seconds": ..., ...}, as import_runs() reads it.  Keys
-- added since (0.2: "disk_seconds", "tablespaces") keep the version: a
-- reader ignores the keys it does not know and stores no rows for the
-- ones a document lacks.
CREATE OR REPLACE FUNCTION iobench_internal.runs_document(runs jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'format', 'iobench runs',
        'version', 1,
        'exported_at', now(),
        'exported_by', (SELECT 'iobench ' || e.extversion FROM pg_extension e
                         WHERE e.extname = 'iobench'),
        'runs', runs_document.runs)
$$;
COMMENT ON FUNCTION iobench_internal.runs_document(jsonb) IS 'a document of iobench runs for import_runs() around the runs given';

-- A run's row that was not stored (a run on a hot standby or in a
-- read-only transaction returns it with run_id NULL) as a document for
-- iobench.import_runs() on the primary: the row alone, without seconds,
-- histogram or waits, which such a run does not keep.
CREATE OR REPLACE FUNCTION iobench_internal.export_run_row(r iobench.runs)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF export_run_row.r IS NULL OR (export_run_row.r).run_uuid IS NULL THEN
        RAISE EXCEPTION 'argument "r" must be a row of iobench.run() with a run_uuid'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN jsonb_build_array(jsonb_build_object('run', to_jsonb(export_run_row.r)));
END
$$;
COMMENT ON FUNCTION iobench_internal.export_run_row(iobench.runs) IS 'the body of iobench.export_run_row(): the checked row as the runs of a document';

-- iobench.export_run_row(): the API; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.export_run_row(r iobench.runs)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.export_run_row(iobench.runs)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.runs_document(iobench_internal.export_run_row(export_run_row.r));
END;
COMMENT ON FUNCTION iobench.export_run_row(iobench.runs) IS 'a row iobench.run() returned without storing it, as a document for iobench.import_runs()';

-- Runs with their seconds, latency histograms, stalls, waits, the block
-- device's seconds and the tablespaces of a group as one self-contained
-- JSON document, for iobench.import_runs() on another server.  Generated
-- columns are left out (the importing server computes them).  run_ids
-- NULL: every run (since "since", when given).
CREATE OR REPLACE FUNCTION iobench_internal.export_runs(run_ids bigint[] DEFAULT NULL,
                                               since timestamptz DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'run', to_jsonb(r),
                       'seconds', coalesce((
                           SELECT jsonb_agg(to_jsonb(s) - 'run_id' ORDER BY s.second, s.op)
                             FROM iobench.run_seconds s WHERE s.run_id = r.run_id), '[]'),
                       'latency', coalesce((
                           SELECT jsonb_agg(to_jsonb(l) - 'run_id' ORDER BY l.op, l.lower_us)
                             FROM iobench.run_latency l WHERE l.run_id = r.run_id), '[]'),
                       'stalls', coalesce((
                           SELECT jsonb_agg(to_jsonb(t) - 'run_id' - 'total_us' ORDER BY t.at_s, t.worker)
                             FROM iobench.run_stalls t WHERE t.run_id = r.run_id), '[]'),
                       'waits', coalesce((
                           SELECT jsonb_agg(to_jsonb(w) - 'run_id' ORDER BY w.wait_type)
                             FROM iobench.run_waits w WHERE w.run_id = r.run_id), '[]'),
                       'wait_sampling', (
                           SELECT to_jsonb(ws) - 'run_id'
                             FROM iobench.run_wait_sampling ws WHERE ws.run_id = r.run_id),
                       -- without iostat's figures, which the generated columns compute
                       'disk_seconds', coalesce((
                           SELECT jsonb_agg(to_jsonb(d) - ('{run_id}'::text[] || ARRAY(
                                                SELECT a.attname::text FROM pg_attribute a
                                                 WHERE a.attrelid = 'iobench.run_disk_seconds'::regclass
                                                   AND a.attgenerated <> ''))
                                            ORDER BY d.device, d.second)
                             FROM iobench.run_disk_seconds d WHERE d.run_id = r.run_id), '[]'),
                       'tablespaces', coalesce((
                           SELECT jsonb_agg(to_jsonb(g) - 'run_id' ORDER BY g.position)
                             FROM iobench.run_tablespaces g WHERE g.run_id = r.run_id), '[]'),
                       -- new in 0.3: the server's read path of a run of engine postgres
                       'server_reads', (
                           SELECT to_jsonb(sr) - 'run_id'
                             FROM iobench.run_server_reads sr WHERE sr.run_id = r.run_id))
                   ORDER BY r.run_id)
              FROM iobench.runs r
             WHERE (export_runs.run_ids IS NULL OR r.run_id = ANY (export_runs.run_ids))
               AND (export_runs.since IS NULL OR r.started_at >= export_runs.since)), '[]');
END
$$;
COMMENT ON FUNCTION iobench_internal.export_runs(bigint[], timestamptz) IS 'the body of iobench.export_runs(): the runs of the document, after the run ids are checked';

-- iobench.export_runs(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.export_runs(run_ids bigint[] DEFAULT NULL,
                                               since timestamptz DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.export_runs(bigint[], timestamptz)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.check_run_ids(export_runs.run_ids, false);
    SELECT iobench_internal.runs_document(iobench_internal.export_runs(export_runs.run_ids, export_runs.since));
END;
COMMENT ON FUNCTION iobench.export_runs(bigint[], timestamptz) IS 'runs with their seconds, histograms, stalls, waits, device seconds and group tablespaces as one JSON document, for import_runs()';

-- Insert one iobench.runs row from a JSON object keyed by column name,
-- unless a run with its run_uuid is stored already; returns the new run_id
-- or NULL.  Keys that are no column (a newer version's) are ignored, and a
-- column missing or null in the object gets its default, so documents of
-- other versions import.  Called by the import functions as the owner.
CREATE OR REPLACE FUNCTION iobench_internal.insert_run(r jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cols text;
    vals text;
    id bigint;
BEGIN
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum),
           string_agg('p.' || quote_ident(a.attname), ', ' ORDER BY a.attnum)
      INTO cols, vals
      FROM pg_attribute a
     WHERE a.attrelid = 'iobench.runs'::regclass AND a.attnum > 0 AND NOT a.attisdropped
       AND a.attgenerated = '' AND jsonb_typeof(insert_run.r -> a.attname::text) <> 'null';
    EXECUTE format('INSERT INTO iobench.runs (%s) SELECT %s '
                   'FROM pg_catalog.jsonb_populate_record(NULL::iobench.runs, $1) AS p '
                   'ON CONFLICT ON CONSTRAINT runs_run_uuid_key DO NOTHING RETURNING run_id', cols, vals)
        USING insert_run.r INTO id;
    RETURN id;
END
$$;
COMMENT ON FUNCTION iobench_internal.insert_run(jsonb) IS 'insert a run from a JSON object keyed by column name (the import functions)';

-- The children of an imported run (seconds, histogram, stalls, waits,
-- the device's seconds, the tablespaces of a group, the server's read
-- path of engine postgres) from its entry in an
-- export_runs() document; a key missing from the entry stores no rows.
CREATE OR REPLACE FUNCTION iobench_internal.import_children(run_id bigint, run jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO iobench.run_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us)
    SELECT import_children.run_id, s.second, s.op, s.ops, s.bytes, s.lat_mean_us, s.lat_max_us
      FROM jsonb_populate_recordset(NULL::iobench.run_seconds, coalesce(import_children.run -> 'seconds', '[]')) s;
    INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
    SELECT import_children.run_id, l.op, l.lower_us, l.upper_us, l.count
      FROM jsonb_populate_recordset(NULL::iobench.run_latency, coalesce(import_children.run -> 'latency', '[]')) l;
    INSERT INTO iobench.run_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us)
    SELECT import_children.run_id, t.at_s, t.worker, t.file, t.file_offset, t.write_us, t.sync_us
      FROM jsonb_populate_recordset(NULL::iobench.run_stalls, coalesce(import_children.run -> 'stalls', '[]')) t;
    INSERT INTO iobench.run_waits (run_id, wait_type, wait_s, signal_s, wait_count, exact_count, exact_wait_s)
    SELECT import_children.run_id, w.wait_type, w.wait_s, w.signal_s, w.wait_count, w.exact_count, w.exact_wait_s
      FROM jsonb_populate_recordset(NULL::iobench.run_waits, coalesce(import_children.run -> 'waits', '[]')) w;
    IF jsonb_typeof(import_children.run -> 'wait_sampling') = 'object' THEN
        INSERT INTO iobench.run_wait_sampling (run_id, scope, period_ms, ticks, missed_ticks, sampled_s)
        SELECT import_children.run_id, ws.scope, ws.period_ms, ws.ticks, ws.missed_ticks, ws.sampled_s
          FROM jsonb_populate_record(NULL::iobench.run_wait_sampling, import_children.run -> 'wait_sampling') ws;
    END IF;
    -- new in 0.2: documents of 0.1 have neither
    INSERT INTO iobench.run_disk_seconds (run_id, device, member, second, interval_s,
                                          reads, read_merges, read_sectors, read_ms,
                                          writes, write_merges, write_sectors, write_ms,
                                          in_flight, io_ms, queue_ms,
                                          discards, discard_merges, discard_sectors, discard_ms,
                                          flushes, flush_ms)
    SELECT import_children.run_id, d.device, d.member, d.second, d.interval_s,
           d.reads, d.read_merges, d.read_sectors, d.read_ms,
           d.writes, d.write_merges, d.write_sectors, d.write_ms,
           d.in_flight, d.io_ms, d.queue_ms,
           d.discards, d.discard_merges, d.discard_sectors, d.discard_ms,
           d.flushes, d.flush_ms
      FROM jsonb_populate_recordset(NULL::iobench.run_disk_seconds, coalesce(import_children.run -> 'disk_seconds', '[]')) d;
    INSERT INTO iobench.run_tablespaces (run_id, tablespace, position, device, filesystem, mount_point, files,
        ops, bytes, mb_per_s, mib_per_s, iops,
        lat_avg_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us,
        read_ops, read_bytes, read_mb_per_s, read_mib_per_s, read_iops,
        read_lat_avg_us, read_lat_p50_us, read_lat_p90_us, read_lat_p99_us, read_lat_p999_us, read_lat_max_us,
        write_ops, write_bytes, write_mb_per_s, write_mib_per_s, write_iops,
        write_lat_avg_us, write_lat_p50_us, write_lat_p90_us, write_lat_p99_us, write_lat_p999_us, write_lat_max_us,
        fsync_ops, fsync_iops,
        fsync_lat_avg_us, fsync_lat_p50_us, fsync_lat_p90_us, fsync_lat_p99_us, fsync_lat_p999_us, fsync_lat_max_us)
    SELECT import_children.run_id, g.tablespace, g.position, g.device, g.filesystem, g.mount_point, g.files,
        g.ops, g.bytes, g.mb_per_s, g.mib_per_s, g.iops,
        g.lat_avg_us, g.lat_p50_us, g.lat_p90_us, g.lat_p99_us, g.lat_p999_us, g.lat_max_us,
        g.read_ops, g.read_bytes, g.read_mb_per_s, g.read_mib_per_s, g.read_iops,
        g.read_lat_avg_us, g.read_lat_p50_us, g.read_lat_p90_us, g.read_lat_p99_us, g.read_lat_p999_us, g.read_lat_max_us,
        g.write_ops, g.write_bytes, g.write_mb_per_s, g.write_mib_per_s, g.write_iops,
        g.write_lat_avg_us, g.write_lat_p50_us, g.write_lat_p90_us, g.write_lat_p99_us, g.write_lat_p999_us, g.write_lat_max_us,
        g.fsync_ops, g.fsync_iops,
        g.fsync_lat_avg_us, g.fsync_lat_p50_us, g.fsync_lat_p90_us, g.fsync_lat_p99_us, g.fsync_lat_p999_us, g.fsync_lat_max_us
      FROM jsonb_populate_recordset(NULL::iobench.run_tablespaces, coalesce(import_children.run -> 'tablespaces', '[]')) g;
    -- new in 0.3: documents of 0.1 and 0.2 have none
    IF jsonb_typeof(import_children.run -> 'server_reads') = 'object' THEN
        INSERT INTO iobench.run_server_reads (run_id, read_path, shared_buffers, debug_io_direct,
            relation, relation_bytes, blocks, buffer_hits, buffer_reads, page_cache_dropped)
        SELECT import_children.run_id, sr.read_path, sr.shared_buffers, sr.debug_io_direct,
            sr.relation, sr.relation_bytes, sr.blocks, sr.buffer_hits, sr.buffer_reads, sr.page_cache_dropped
          FROM jsonb_populate_record(NULL::iobench.run_server_reads, import_children.run -> 'server_reads') sr;
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.import_children(bigint, jsonb) IS 'store the children of an imported run';

-- What breaks the rules of a measured run in an imported run stored under
-- run_id (its row and children, before the import commits): every figure
-- finite and not negative (the seed excepted), intervals not negative, every
-- text at most 8192 characters, a run that ends after it starts, data ops
-- the sum of reads and writes, each op's histogram holding as many I/Os as
-- the op's count, and figures that can only be together (new in 0.3): a
-- block size, workers and iodepth of at least 1, a measured time when there
-- was I/O, no rate without I/O, latency percentiles that do not decrease
-- towards the maximum (p50 <= p90 <= p99 <= p99.9 <= max, per op kind),
-- and for iobench's own runs (tool "iobench") bytes = ops x block_size and
-- iops x measured_s = ops, in the run, in each tablespace of a group and
-- in each second.  fio's percentiles are the midpoints of its histogram's
-- buckets, up to 1/128 above the true value: a percentile of another tool
-- may exceed the maximum by 2 %.  One row per problem, first the run's own
-- columns; "field" names the document's key ("run", "seconds", ...) with
-- the row's key and the column, as a reader of the document finds it.
-- Called by the import functions as the owner.
CREATE OR REPLACE FUNCTION iobench_internal.imported_run_problems(run_id bigint)
RETURNS TABLE (field text, problem text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t record;
    checks text;
    texts text;
    row_key text;
BEGIN
    FOR t IN SELECT * FROM (VALUES
            (1, 'iobench.runs'::regclass, 'run'),
            (2, 'iobench.run_seconds'::regclass, 'seconds'),
            (3, 'iobench.run_latency'::regclass, 'latency'),
            (4, 'iobench.run_stalls'::regclass, 'stalls'),
            (5, 'iobench.run_waits'::regclass, 'waits'),
            (6, 'iobench.run_wait_sampling'::regclass, 'wait_sampling'),
            (7, 'iobench.run_disk_seconds'::regclass, 'disk_seconds'),
            (8, 'iobench.run_tablespaces'::regclass, 'tablespaces'),
            (9, 'iobench.run_server_reads'::regclass, 'server_reads')) AS v(n, rel, doc_key)
        ORDER BY v.n
    LOOP
        -- (column, holds the rule, the value as text) for every figure
        SELECT string_agg(format('(%L, %s, x.%I::text)', a.attname,
                   CASE WHEN a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)
                        THEN format('x.%I >= 0', a.attname)
                        WHEN a.atttypid = 'numeric'::regtype
                        THEN format('x.%I BETWEEN 0 AND 18446744073709551615', a.attname)
                        WHEN a.atttypid = 'interval'::regtype
                        THEN format('x.%I >= ''0''::interval AND pg_catalog.date_part(''epoch'', x.%I) < ''infinity''::float8',
                                    a.attname, a.attname)
                        ELSE format('x.%I >= 0 AND x.%I < ''infinity''::float8', a.attname, a.attname)
                   END, a.attname), ', ' ORDER BY a.attnum)
          INTO checks
          FROM pg_attribute a
         WHERE a.attrelid = t.rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
           AND a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype,
                              'float8'::regtype, 'numeric'::regtype, 'interval'::regtype)
           AND a.attname NOT IN ('run_id', 'seed');
        -- the row's key in the document: the primary key's columns but run_id
        -- (a long text cut to 64 characters)
        SELECT coalesce('format(' || quote_literal(' (' || string_agg(a.attname || ' %s', ', ' ORDER BY k.n) || ')')
                        || ', ' || string_agg(format('CASE WHEN pg_catalog.length(x.%I::text) OPERATOR(pg_catalog.>) 64 '
                                                     'THEN pg_catalog.left(x.%I::text, 61) OPERATOR(pg_catalog.||) ''...'' '
                                                     'ELSE x.%I::text END', a.attname, a.attname, a.attname),
                                              ', ' ORDER BY k.n) || ')', '''''')
          INTO row_key
          FROM pg_index i
         CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
         WHERE i.indrelid = t.rel AND i.indisprimary AND a.attname <> 'run_id';
        RETURN QUERY EXECUTE format(
            'SELECT pg_catalog.format(%L, %s, c.col), '
            '       pg_catalog.format(''is %%s, but must be finite and not negative'', c.shown) '
            '  FROM %s x CROSS JOIN LATERAL (VALUES %s) AS c(col, ok, shown) '
            ' WHERE x.run_id = $1 AND NOT c.ok',
            '"' || t.doc_key || '"%s."%s"', row_key, t.rel, checks)
            USING imported_run_problems.run_id;
        -- (column, its length) for every text: a label, a device, a path
        SELECT string_agg(format('(%L, pg_catalog.length(x.%I))', a.attname, a.attname), ', ' ORDER BY a.attnum)
          INTO texts
          FROM pg_attribute a
         WHERE a.attrelid = t.rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
           AND a.atttypid = 'text'::regtype;
        IF texts IS NOT NULL THEN
            RETURN QUERY EXECUTE format(
                'SELECT pg_catalog.format(%L, %s, c.col), '
                '       pg_catalog.format(''is %%s characters long, more than the limit of 8192'', c.len) '
                '  FROM %s x CROSS JOIN LATERAL (VALUES %s) AS c(col, len) '
                ' WHERE x.run_id = $1 AND c.len OPERATOR(pg_catalog.>) 8192',
                '"' || t.doc_key || '"%s."%s"', row_key, t.rel, texts)
                USING imported_run_problems.run_id;
        END IF;
    END LOOP;

    -- a run of engine postgres has its read path, and no other run has one
    RETURN QUERY
    SELECT '"server_reads"', CASE WHEN r.engine = 'postgres'
                                  THEN 'is missing, but the run is of engine "postgres"'
                                  ELSE format('is given, but the run is of engine "%s", not "postgres"', r.engine) END
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id
       AND (r.engine = 'postgres') <> EXISTS (SELECT FROM iobench.run_server_reads sr
                                               WHERE sr.run_id = imported_run_problems.run_id);
    RETURN QUERY
    SELECT '"server_reads"."buffer_hits"', format('is %s, more than the %s "blocks" the run obtained', sr.buffer_hits, sr.blocks)
      FROM iobench.run_server_reads sr
     WHERE sr.run_id = imported_run_problems.run_id AND sr.buffer_hits > sr.blocks;
    -- a run that read more than 1 % of its blocks from shared buffers is
    -- stored "invalid" (engine_postgres_settings.c), never as a measure of the disk
    RETURN QUERY
    SELECT '"run"."status"', format('is "%s", but %s of the run''s %s blocks were hits in shared buffers (more than 1 %%): its status is "invalid"',
                                    r.status, sr.buffer_hits, sr.buffer_hits + sr.buffer_reads)
      FROM iobench.runs r JOIN iobench.run_server_reads sr ON sr.run_id = r.run_id
     WHERE r.run_id = imported_run_problems.run_id AND r.status IN ('completed', 'incomplete')
       AND sr.buffer_hits > 0.01 * (sr.buffer_hits + sr.buffer_reads);
    RETURN QUERY
    SELECT '"run"."finished_at"', format('is %s, before "started_at" %s', r.finished_at, r.started_at)
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id AND r.finished_at < r.started_at;
    RETURN QUERY
    SELECT '"run"."ops"', format('is %s, but the run has %s reads and %s writes', r.ops,
                                 coalesce(r.read_ops, 0), coalesce(r.write_ops, 0))
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id
       AND r.ops <> coalesce(r.read_ops, 0) + coalesce(r.write_ops, 0);
    RETURN QUERY
    SELECT format('"latency" (op %s)', h.op),
           format('holds %s I/Os, but "run"."%s_ops" is %s', h.n, h.op, coalesce(h.ops::text, 'null'))
      FROM (SELECT l.op, sum(l.count) AS n,
                   CASE l.op WHEN 'read' THEN r.read_ops WHEN 'write' THEN r.write_ops ELSE r.fsync_ops END AS ops
              FROM iobench.run_latency l JOIN iobench.runs r ON r.run_id = l.run_id
             WHERE l.run_id = imported_run_problems.run_id
             GROUP BY l.op, r.read_ops, r.write_ops, r.fsync_ops) AS h
     WHERE h.ops IS DISTINCT FROM h.n
     ORDER BY h.op;
    RETURN QUERY
    SELECT format('"latency" (op %s, lower_us %s)', l.op, l.lower_us),
           format('has "upper_us" %s, not above "lower_us"', l.upper_us)
      FROM iobench.run_latency l
     WHERE l.run_id = imported_run_problems.run_id AND NOT l.upper_us > l.lower_us
     ORDER BY l.op, l.lower_us;

    -- figures that can only be together (new in 0.3): what every run has
    RETURN QUERY
    SELECT format('"run"."%s"', c.col), format('is %s, but must be at least 1', c.v)
      FROM iobench.runs r
     CROSS JOIN LATERAL (VALUES (1, 'block_size', r.block_size), (2, 'workers', r.workers),
                                (3, 'iodepth', r.iodepth)) AS c(n, col, v)
     WHERE r.run_id = imported_run_problems.run_id AND c.v < 1
     ORDER BY c.n;
    RETURN QUERY
    SELECT '"run"."measured_s"',
           format('is %s, but the run did %s I/Os, which take time', coalesce(r.measured_s::text, 'null'),
                  coalesce(r.ops, 0) + coalesce(r.fsync_ops, 0))
      FROM iobench.runs r
     WHERE r.run_id = imported_run_problems.run_id
       AND coalesce(r.ops, 0) + coalesce(r.fsync_ops, 0) > 0 AND NOT coalesce(r.measured_s, 0) > 0;
    -- per op kind, in the run's row and in each tablespace of a group
    -- (their columns read by name from the row as JSON)
    RETURN QUERY
    WITH r AS (
        SELECT x.tool = 'iobench' AS own, x.block_size::numeric AS block_size,
               x.measured_s::numeric AS measured_s
          FROM iobench.runs x WHERE x.run_id = imported_run_problems.run_id
    ), rows AS (
        SELECT 0 AS pos, '"run".'::text AS at, to_jsonb(x) AS j
          FROM iobench.runs x WHERE x.run_id = imported_run_problems.run_id
        UNION ALL
        SELECT g.position, format('"tablespaces" (tablespace %s).', g.tablespace), to_jsonb(g)
          FROM iobench.run_tablespaces g WHERE g.run_id = imported_run_problems.run_id
    ), kinds AS (
        SELECT rows.pos, rows.at, rows.j, k.n, k.prefix,
               (rows.j ->> (k.prefix || 'ops'))::numeric AS ops,
               (rows.j ->> (k.prefix || 'bytes'))::numeric AS bytes,
               (rows.j ->> (k.prefix || 'iops'))::numeric AS iops
          FROM rows CROSS JOIN (VALUES (1, 'read_'), (2, 'write_'), (3, 'fsync_'), (4, ''), (5, 'commit_')) AS k(n, prefix)
    ), pct AS (
        SELECT k.pos, k.at, k.n, k.prefix, p.i, p.name,
               (k.j ->> (k.prefix || 'lat_' || p.name || '_us'))::numeric AS v
          FROM kinds k
         CROSS JOIN (VALUES (1, 'p50'), (2, 'p90'), (3, 'p99'), (4, 'p999'), (5, 'max')) AS p(i, name)
    ), problems AS (
        -- each I/O of iobench moves block_size bytes (a sync none, and a
        -- commit's are its write's); of another tool, some bytes
        SELECT k.pos, k.n, 1 AS rule, 0 AS i, 0 AS lo_i,
               format('%s"%sbytes"', k.at, k.prefix) AS field,
               CASE WHEN r.own
                    THEN format('is %s, but %s I/Os ("%sops") of "block_size" %s bytes move %s bytes',
                                coalesce(k.bytes, 0), coalesce(k.ops, 0), k.prefix, r.block_size,
                                coalesce(k.ops, 0) * r.block_size)
                    ELSE format('is %s, but "%sops" is %s', coalesce(k.bytes, 0), k.prefix, coalesce(k.ops, 0))
               END AS problem
          FROM kinds k, r
         WHERE k.prefix NOT IN ('fsync_', 'commit_')
           AND CASE WHEN r.own THEN coalesce(k.bytes, 0) <> coalesce(k.ops, 0) * r.block_size
                    ELSE (coalesce(k.bytes, 0) > 0) <> (coalesce(k.ops, 0) > 0) END
        UNION ALL
        -- a rate needs I/O, and iobench's is ops over the measured time
        SELECT k.pos, k.n, 2, 0, 0, format('%s"%siops"', k.at, k.prefix),
               CASE WHEN coalesce(k.ops, 0) = 0
                    THEN format('is %s, but "%sops" is 0', k.iops, k.prefix)
                    ELSE format('is %s, but %s I/Os ("%sops") in "run"."measured_s" %s s make %s per second',
                                k.iops, k.ops, k.prefix, r.measured_s, round(k.ops / r.measured_s, 3))
               END
          FROM kinds k, r
         WHERE (k.iops > 0 AND coalesce(k.ops, 0) = 0)
            OR (r.own AND k.iops IS NOT NULL AND r.measured_s > 0
                AND abs(k.iops * r.measured_s - coalesce(k.ops, 0)) > 0.5 + 1e-6 * coalesce(k.ops, 0))
        UNION ALL
        -- p50 <= p90 <= p99 <= p99.9 <= max
        SELECT hi.pos, hi.n, 3, hi.i, lo.i, format('%s"%slat_%s_us"', hi.at, hi.prefix, hi.name),
               format('is %s, below "%slat_%s_us" %s, but percentiles do not decrease towards the maximum',
                      hi.v, lo.prefix, lo.name, lo.v)
          FROM pct lo
          JOIN pct hi ON hi.pos = lo.pos AND hi.n = lo.n AND hi.i > lo.i
         CROSS JOIN r
         WHERE lo.v > hi.v * CASE WHEN hi.name = 'max' AND NOT r.own THEN 1.02 ELSE 1 END
    )
    SELECT DISTINCT ON (p.pos, p.n, p.rule, p.i) p.field, p.problem
      FROM problems p
     ORDER BY p.pos, p.n, p.rule, p.i, p.lo_i;
    -- and each second of iobench's own runs
    RETURN QUERY
    SELECT format('"seconds" (second %s, op %s)."bytes"', s.second, s.op),
           format('is %s, but %s I/Os of "run"."block_size" %s bytes move %s bytes', s.bytes, s.ops,
                  r.block_size, CASE WHEN s.op = 'fsync' THEN 0 ELSE s.ops::numeric * r.block_size END)
      FROM iobench.run_seconds s JOIN iobench.runs r ON r.run_id = s.run_id
     WHERE s.run_id = imported_run_problems.run_id AND r.tool = 'iobench'
       AND s.bytes <> CASE WHEN s.op = 'fsync' THEN 0 ELSE s.ops::numeric * r.block_size END
     ORDER BY s.second, s.op;
END
$$;
COMMENT ON FUNCTION iobench_internal.imported_run_problems(bigint) IS 'what breaks the rules of a measured run in an imported run (the import functions)';

-- Raise the first problem iobench_internal.imported_run_problems() finds in the
-- run stored under run_id.
CREATE OR REPLACE FUNCTION iobench_internal.check_imported_run(run_id bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p record;
BEGIN
    SELECT * INTO p FROM iobench_internal.imported_run_problems(check_imported_run.run_id) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% %', p.field, p.problem
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_imported_run(bigint) IS 'raise the first problem of an imported run (the import functions)';

-- The largest document the import functions take: 64 MB (jsonb's own
-- size).  An import holds the document, its runs and their rows in
-- memory at once, several times the document's size; a bound keeps one
-- import from taking a server's memory.  Larger exports are split by
-- run_ids or since, and imported one by one.
CREATE OR REPLACE FUNCTION iobench_internal.check_import_size(doc jsonb)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bytes bigint := pg_column_size(check_import_size.doc || '{}'::jsonb);  -- its size uncompressed
BEGIN
    IF bytes > 64 * 1024 * 1024 THEN
        RAISE EXCEPTION 'argument "doc" is % MB, more than the limit of 64 MB', round(bytes / 1048576.0, 1)
            USING ERRCODE = 'program_limit_exceeded',
                  DETAIL = 'An import holds the whole document in memory, several times over; a document of more than 64 MB is refused.',
                  HINT = 'Export fewer runs per document (export_runs() with run_ids, or since) and import each.';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_import_size(jsonb) IS 'refuse a document larger than the import functions take (64 MB)';

-- The field of a JSON value that nests deeper than "levels" levels below
-- it, as the keys that lead to it ("run"."label"), down the objects (two
-- keys at most) to the value that holds it; NULL when none does.  The import
-- functions refuse a document nested more than 32 levels deep (iobench's
-- nest 6, fio's 7): such a value is no figure, and every reader of it
-- (report(), a client's JSON parser) would walk it level by level.
CREATE OR REPLACE FUNCTION iobench_internal.deep_field(value jsonb, levels integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v jsonb := deep_field.value;
    depth integer := deep_field.levels;
    path text := '';
    k text;
    c jsonb;
BEGIN
    IF v IS NULL OR NOT jsonb_path_exists(v, format('strict $.**{%s}', depth + 1)::jsonpath) THEN
        RETURN NULL;
    END IF;
    -- two keys down at most: the field, not the path to the deep value
    WHILE jsonb_typeof(v) = 'object' AND depth > deep_field.levels - 2 LOOP
        SELECT e.key, e.value INTO k, c
          FROM jsonb_each(v) AS e
         WHERE jsonb_path_exists(e.value, format('strict $.**{%s}', depth)::jsonpath)
         ORDER BY e.key LIMIT 1;
        path := path || CASE WHEN path = '' THEN '' ELSE '.' END || format('"%s"', k);
        v := c;
        depth := depth - 1;
    END LOOP;
    RETURN path;
END
$$;
COMMENT ON FUNCTION iobench_internal.deep_field(jsonb, integer) IS 'the field of a JSON value nested deeper than the levels given (the import functions)';

-- Store the runs of an iobench.export_runs() document.  A run already
-- stored here (same run_uuid), made here or imported, is left as it is
-- (its name included) and returned with imported false.  Every figure of
-- a new run is checked against the rules of a measured run
-- (iobench_internal.imported_run_problems()); a run breaking one is not stored and
-- the error names the run and the field.  "server" names the server the
-- runs come from when the document does not (a run copied on keeps its
-- first name).  A document is at most 64 MB (check_import_size()).  Runs
-- as the owner: callers need EXECUTE only.
CREATE OR REPLACE FUNCTION iobench.import_runs(doc jsonb, server text DEFAULT NULL)
RETURNS TABLE (run_id bigint, run_uuid uuid, imported boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e record;
    rr jsonb;
    id bigint;
    uid uuid;
    name text;
    deep text;
BEGIN
    -- executable by PUBLIC only for this check, which names the grant; of
    -- the caller, not the owner this function runs as
    PERFORM iobench_internal.require_caller_grant('iobench.import_runs(jsonb, text)'::regprocedure);
    IF import_runs.doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    PERFORM iobench_internal.check_import_size(import_runs.doc);
    IF jsonb_typeof(import_runs.doc) <> 'object'
       OR import_runs.doc ->> 'format' IS DISTINCT FROM 'iobench runs'
       OR jsonb_typeof(import_runs.doc -> 'runs') IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'argument "doc" is not a document of iobench.export_runs()'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A document is a JSON object with "format": "iobench runs", "version": 1 and an array "runs".',
                  HINT = 'A result of fio --output-format=json or json+ is imported with iobench.import_fio().';
    END IF;
    IF import_runs.doc ->> 'version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'version % of argument "doc" is not supported', import_runs.doc ->> 'version'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'This version of iobench reads version 1.';
    END IF;
    IF import_runs.server = '' THEN
        RAISE EXCEPTION 'argument "server" must not be empty'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    FOR e IN SELECT x.value AS v, x.n FROM jsonb_array_elements(import_runs.doc -> 'runs') WITH ORDINALITY AS x(value, n) LOOP
        rr := e.v -> 'run';
        BEGIN
            -- the entry is level 2 of the document (doc -> runs -> entry)
            deep := iobench_internal.deep_field(e.v, 30);
            IF deep IS NOT NULL THEN
                RAISE EXCEPTION '% is nested more than 32 levels deep in the document',
                                coalesce('field ' || nullif(deep, ''), 'the entry')
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            uid := (rr ->> 'run_uuid')::uuid;
            IF uid IS NULL THEN
                RAISE EXCEPTION 'it has no run_uuid' USING ERRCODE = 'invalid_parameter_value';
            END IF;
            name := coalesce(rr ->> 'server', import_runs.server, rr ->> 'host');
            SELECT r.run_id INTO id FROM iobench.runs r WHERE r.run_uuid = uid;
            IF FOUND THEN
                -- stored already: left as it is, whoever made it (an import
                -- never changes a run it did not create)
                RETURN QUERY SELECT r.run_id, r.run_uuid, false
                               FROM iobench.runs r WHERE r.run_id = id;
                CONTINUE;
            END IF;
            id := iobench_internal.insert_run((rr - 'run_id') || jsonb_build_object(
                    'origin_run_id', coalesce((rr ->> 'origin_run_id')::bigint, (rr ->> 'run_id')::bigint),
                    'server', name,
                    'imported_at', coalesce(nullif(rr -> 'imported_at', 'null'), to_jsonb(now()))));
            IF id IS NULL THEN
                -- a concurrent import stored it first
                RETURN QUERY SELECT r.run_id, r.run_uuid, false
                               FROM iobench.runs r WHERE r.run_uuid = uid;
                CONTINUE;
            END IF;
            PERFORM iobench_internal.import_children(id, e.v);
            PERFORM iobench_internal.check_imported_run(id);
        EXCEPTION
            WHEN invalid_parameter_value OR not_null_violation OR check_violation
                 OR unique_violation OR invalid_text_representation OR datatype_mismatch
                 OR invalid_datetime_format OR datetime_field_overflow
                 OR numeric_value_out_of_range OR string_data_right_truncation
                 OR interval_field_overflow THEN
            RAISE EXCEPTION 'run % of argument "doc" could not be imported', e.n
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('%s (run_uuid %s).', SQLERRM, coalesce(rr ->> 'run_uuid', 'missing'));
        END;
        RETURN QUERY SELECT r.run_id, r.run_uuid, true FROM iobench.runs r WHERE r.run_id = id;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench.import_runs(jsonb, text) IS 'store the runs of an export_runs() document; a run stored already is left as it is';

-- The bucket of iobench's latency histogram (src/results/histogram.h) holding a
-- value in nanoseconds, as the lower and upper bound in microseconds that
-- run_latency stores: every value below 64 ns has its own bucket, above,
-- each power of two is split into 64; 2^41 ns and more go to the top one.
CREATE OR REPLACE FUNCTION iobench.latency_bucket(value_ns bigint,
                                                  OUT lower_us double precision,
                                                  OUT upper_us double precision)
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT greatest(value_ns, 0) AS ns
    ), e AS (
        SELECT v.ns, least(64 - position('1' IN v.ns::bit(64)::text), 41) AS exp
          FROM v
    ), b AS (
        SELECT CASE WHEN e.ns < 64 THEN e.ns
                    WHEN 64 - position('1' IN e.ns::bit(64)::text) > 41
                    THEN (1::bigint << 41) + (63::bigint << 35)
                    ELSE (1::bigint << e.exp) + (((e.ns >> (e.exp - 6)) & 63) << (e.exp - 6))
               END AS lo,
               CASE WHEN e.ns < 64 THEN 1::bigint ELSE 1::bigint << (e.exp - 6) END AS width
          FROM e
    )
    SELECT b.lo / 1000.0::double precision, (b.lo + b.width) / 1000.0::double precision FROM b
$$;
COMMENT ON FUNCTION iobench.latency_bucket(bigint) IS 'the bucket of iobench''s latency histogram holding a value in ns, in µs';

-- Latency percentiles of several runs together, from their summed
-- histograms (the buckets are the same everywhere, so they add up): the
-- figures one histogram holding all their I/Os gives.  op: 'data' (reads
-- and writes, as the unprefixed columns of iobench.runs), 'read', 'write'
-- or 'fsync'.  As in iobench.run(), a percentile is the midpoint of the
-- bucket holding its rank, clamped to the largest maximum of the runs.
CREATE OR REPLACE FUNCTION iobench_internal.merged_latency(run_ids bigint[], op text DEFAULT 'data')
RETURNS SETOF iobench.merged_latency_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ops_of text[];
BEGIN
    ops_of := CASE merged_latency.op WHEN 'data' THEN ARRAY['read', 'write']
                                     WHEN 'read' THEN ARRAY['read']
                                     WHEN 'write' THEN ARRAY['write']
                                     WHEN 'fsync' THEN ARRAY['fsync'] END;
    IF ops_of IS NULL THEN
        RAISE EXCEPTION '"%" is not a valid value for argument "op"', merged_latency.op
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Valid values are "data", "read", "write" and "fsync".';
    END IF;

    RETURN QUERY
    WITH picked AS (
        SELECT DISTINCT u.id FROM unnest(merged_latency.run_ids) u(id)
    ), per_run AS (
        SELECT CASE merged_latency.op WHEN 'data' THEN r.ops WHEN 'read' THEN r.read_ops
                    WHEN 'write' THEN r.write_ops ELSE r.fsync_ops END AS n,
               CASE merged_latency.op WHEN 'data' THEN r.lat_avg_us WHEN 'read' THEN r.read_lat_avg_us
                    WHEN 'write' THEN r.write_lat_avg_us ELSE r.fsync_lat_avg_us END AS avg_us,
               CASE merged_latency.op WHEN 'data' THEN r.lat_max_us WHEN 'read' THEN r.read_lat_max_us
                    WHEN 'write' THEN r.write_lat_max_us ELSE r.fsync_lat_max_us END AS max_us
          FROM iobench.runs r JOIN picked p ON p.id = r.run_id
    ), buckets AS (
        SELECT l.lower_us, l.upper_us, sum(l.count)::bigint AS n
          FROM iobench.run_latency l JOIN picked p ON p.id = l.run_id
         WHERE l.op = ANY (ops_of)
         GROUP BY l.lower_us, l.upper_us
    ), cum AS (
        SELECT b.*, sum(b.n) OVER (ORDER BY b.lower_us) AS seen, sum(b.n) OVER () AS total
          FROM buckets b
    ), top AS (
        SELECT max(pr.max_us) AS max_us,
               sum(pr.avg_us * pr.n) / nullif(sum(pr.n) FILTER (WHERE pr.avg_us IS NOT NULL), 0) AS avg_us
          FROM per_run pr
    ), pct AS (
        SELECT q.p,
               (SELECT least((c.lower_us * 1000 + c.upper_us * 1000 - 1) / 2 / 1000,
                             coalesce((SELECT top.max_us FROM top), 'infinity'))
                  FROM cum c
                 WHERE c.seen >= least(greatest(ceil(q.p / 100 * c.total - 1e-9), 1), c.total)
                 ORDER BY c.lower_us LIMIT 1) AS v
          FROM unnest(ARRAY[50, 90, 99, 99.9]::double precision[]) AS q(p)
    )
    SELECT (SELECT count(*) FROM picked)::integer,
           (SELECT coalesce(sum(b.n), 0)::bigint FROM buckets b),
           (SELECT top.avg_us FROM top),
           (SELECT pct.v FROM pct WHERE pct.p = 50),
           (SELECT pct.v FROM pct WHERE pct.p = 90),
           (SELECT pct.v FROM pct WHERE pct.p = 99),
           (SELECT pct.v FROM pct WHERE pct.p = 99.9),
           (SELECT top.max_us FROM top);
END
$$;
COMMENT ON FUNCTION iobench_internal.merged_latency(bigint[], text) IS 'the body of iobench.merged_latency(), which checks the runs first';

-- iobench.merged_latency(): the API checks first; the body above runs as the caller, bound
-- when created (no role has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.merged_latency(run_ids bigint[], op text DEFAULT 'data')
RETURNS SETOF iobench.merged_latency_row
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.merged_latency(bigint[], text)'::pg_catalog.text::pg_catalog.regprocedure);
    SELECT iobench_internal.check_run_ids(merged_latency.run_ids, true);
    SELECT * FROM iobench_internal.merged_latency(merged_latency.run_ids, merged_latency.op);
END;
COMMENT ON FUNCTION iobench.merged_latency(bigint[], text) IS 'latency percentiles of several runs together, from their summed histograms';

-- Every server's completed runs side by side per I/O pattern, with its
-- ratio to the fleet's median server and its rank from the slowest:
-- "which disk is slowest for 8 KB random reads", "how far is each replica
-- from the median".  A server is the name its runs were gathered under, or
-- the host for runs made here (a run a fleet call made on this very
-- database, through a foreign server that reaches it, under that server's
-- name in iobench.fleet_runs); a pattern is what was asked of the disk
-- (rw, block size, workers x iodepth, read share, sync, direct I/O), so
-- fio's imported runs take part.  Figures are means over a server's runs.
CREATE OR REPLACE VIEW iobench.fleet_comparison AS
WITH per_server AS (
    SELECT coalesce(iobench.run_server(r), r.host, '?') AS server,
           r.rw, r.block_size, r.workers, r.iodepth, r.read_pct, r.fsync_every, r.sync_method, r.direct,
           count(*)::integer AS runs,
           avg(r.iops) AS iops,
           avg(r.mb_per_s) AS mb_per_s,
           avg(r.lat_p99_us) AS lat_p99_us,
           max(r.finished_at) AS last_run
      FROM iobench.runs r
     WHERE r.status IN ('completed', 'incomplete')
     GROUP BY 1, r.rw, r.block_size, r.workers, r.iodepth, r.read_pct, r.fsync_every, r.sync_method, r.direct
), medians AS (
    SELECT p.rw, p.block_size, p.workers, p.iodepth, p.read_pct, p.fsync_every, p.sync_method, p.direct,
           count(*) AS servers,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY p.iops) AS median_iops
      FROM per_server p
     GROUP BY p.rw, p.block_size, p.workers, p.iodepth, p.read_pct, p.fsync_every, p.sync_method, p.direct
), fleet AS (
    SELECT p.*, m.servers, m.median_iops
      FROM per_server p
      JOIN medians m
        ON m.rw = p.rw AND m.block_size = p.block_size AND m.workers = p.workers
       AND m.iodepth = p.iodepth AND m.read_pct IS NOT DISTINCT FROM p.read_pct
       AND m.fsync_every = p.fsync_every AND m.sync_method = p.sync_method AND m.direct = p.direct
)
SELECT f.rw, f.block_size, f.workers, f.iodepth, f.read_pct, f.fsync_every, f.sync_method, f.direct,
       f.server, f.runs,
       round(f.iops::numeric, 1) AS iops,
       round(f.mb_per_s::numeric, 2) AS mb_per_s,
       round(f.lat_p99_us::numeric, 1) AS lat_p99_us,
       f.servers::integer AS servers,
       round(f.median_iops::numeric, 1) AS fleet_median_iops,
       round((f.iops / nullif(f.median_iops, 0))::numeric, greatest(2, 1 - floor(log(abs(nullif((f.iops / nullif(f.median_iops, 0))::numeric, 0))))::integer)) AS ratio_to_median,
       rank() OVER (PARTITION BY f.rw, f.block_size, f.workers, f.iodepth, f.read_pct,
                                 f.fsync_every, f.sync_method, f.direct
                    ORDER BY f.iops NULLS FIRST)::integer AS rank_from_slowest,
       f.last_run
  FROM fleet f;
COMMENT ON VIEW iobench.fleet_comparison IS 'each server''s runs per I/O pattern, with the ratio to the fleet median and the rank from the slowest';
