-- The server's read path against the raw disk, and tuning from it (engine
-- 'postgres', new in 0.3): server_vs_disk() puts raw runs, server runs and
-- the executor's cold scans side by side, tune_tablespace() recommends a
-- tablespace's I/O settings from measured steps, sweep_io_workers()
-- measures the server path over io worker pool sizes (18+).  Everything
-- runs as the caller, through iobench.run() (the scans as the extension's
-- owner, in scan_step(), on iobench's own relation); nothing here changes
-- a setting but sweep_io_workers(), which restores it.  Each call is a
-- campaign (iobench_internal.campaign(), campaign.c): a row of
-- iobench.tunings with the rows it returned, its runs in tuning_runs, and
-- after a cancel the call kept with the runs taken before.

-- Check the arguments every call here shares, before any run: the
-- tablespace exists and sets no effective_io_concurrency of its own (the
-- steps measured would not apply: the server's read path takes the
-- tablespace's value over the one a run asks for), duration, file_size and
-- workers are in range.  Returns the tablespace's oid.
CREATE OR REPLACE FUNCTION iobench_internal.server_tuning_check(
    tablespace name, duration interval, file_size text, workers integer)
RETURNS oid
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    spc oid;
    own text;
    bytes bigint;
BEGIN
    IF server_tuning_check.tablespace IS NULL THEN
        RAISE EXCEPTION 'argument "tablespace" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT t.oid, o.option_value INTO spc, own
      FROM pg_catalog.pg_tablespace t
      LEFT JOIN LATERAL pg_catalog.pg_options_to_table(t.spcoptions) o
        ON o.option_name OPERATOR(pg_catalog.=) 'effective_io_concurrency'
     WHERE t.spcname OPERATOR(pg_catalog.=) server_tuning_check.tablespace;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tablespace "%" does not exist', server_tuning_check.tablespace
            USING ERRCODE = 'undefined_object';
    END IF;
    IF own IS NOT NULL THEN
        RAISE EXCEPTION 'tablespace "%" sets effective_io_concurrency = %, which the server''s read path uses instead of the values to measure',
                        server_tuning_check.tablespace, own
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'The calls that measure the server over effective_io_concurrency steps never change a setting.',
                  HINT = format('ALTER TABLESPACE %I RESET (effective_io_concurrency) for the measurement, and set it again afterwards.',
                                server_tuning_check.tablespace);
    END IF;
    IF server_tuning_check.duration IS NULL
       OR server_tuning_check.duration OPERATOR(pg_catalog.<=) '0'::interval
       OR server_tuning_check.duration OPERATOR(pg_catalog.>) '@IOB_MAX_DURATION_S@ seconds'::interval THEN
        RAISE EXCEPTION 'argument "duration" must be positive and at most % seconds, not %',
                        @IOB_MAX_DURATION_S@, coalesce(server_tuning_check.duration::text, 'null')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    BEGIN
        bytes := pg_catalog.pg_size_bytes(server_tuning_check.file_size);
    EXCEPTION WHEN invalid_parameter_value OR numeric_value_out_of_range THEN
        bytes := NULL;
    END;
    -- the runs of engine 'postgres' read a relation of file_size bytes: at
    -- most 4294967295 blocks (MaxBlockNumber + 1), 32 TB less one block
    IF bytes IS NULL OR bytes OPERATOR(pg_catalog.<) pg_catalog.current_setting('block_size')::bigint
       OR bytes OPERATOR(pg_catalog.>) (4294967295 OPERATOR(pg_catalog.*) pg_catalog.current_setting('block_size')::bigint) THEN
        RAISE EXCEPTION 'argument "file_size" must be a size between % and % bytes, not %',
                        pg_catalog.pg_size_pretty(pg_catalog.current_setting('block_size')::bigint),
                        4294967295 OPERATOR(pg_catalog.*) pg_catalog.current_setting('block_size')::bigint,
                        coalesce(pg_catalog.quote_literal(server_tuning_check.file_size), 'null')
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The runs of engine "postgres" read a relation of file_size bytes, and a relation holds at most 4294967295 blocks.';
    END IF;
    IF server_tuning_check.workers IS NULL
       OR server_tuning_check.workers NOT BETWEEN 1 AND @IOB_MAX_WORKERS_PER_RUN@ THEN
        RAISE EXCEPTION 'argument "workers" must be between 1 and %, not %',
                        @IOB_MAX_WORKERS_PER_RUN@, coalesce(server_tuning_check.workers::text, 'null')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN spc;
END
$$;
COMMENT ON FUNCTION iobench_internal.server_tuning_check(name, interval, text, integer) IS 'check the arguments server_vs_disk(), tune_tablespace() and sweep_io_workers() share; returns the tablespace''s oid';

-- Check a list of steps given as argument "arg": not null, not empty, no
-- nulls, each between lo and hi.  Returns them sorted without duplicates
-- when "sorted", else as given.
CREATE OR REPLACE FUNCTION iobench_internal.server_tuning_steps(
    arg text, steps integer[], lo integer, hi integer, sorted boolean)
RETURNS integer[]
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad integer;
BEGIN
    IF server_tuning_steps.steps IS NULL OR pg_catalog.cardinality(server_tuning_steps.steps) OPERATOR(pg_catalog.=) 0 THEN
        RAISE EXCEPTION 'argument "%" must list at least one value', server_tuning_steps.arg
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF pg_catalog.array_position(server_tuning_steps.steps, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "%" must not contain nulls', server_tuning_steps.arg
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.v INTO bad FROM pg_catalog.unnest(server_tuning_steps.steps) u(v)
     WHERE u.v NOT BETWEEN server_tuning_steps.lo AND server_tuning_steps.hi LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% is out of range for argument "%"', bad, server_tuning_steps.arg
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Valid values are between %s and %s.', server_tuning_steps.lo, server_tuning_steps.hi);
    END IF;
    IF server_tuning_steps.sorted THEN
        RETURN ARRAY(SELECT DISTINCT u.v FROM pg_catalog.unnest(server_tuning_steps.steps) u(v) ORDER BY u.v);
    END IF;
    RETURN server_tuning_steps.steps;
END
$$;
COMMENT ON FUNCTION iobench_internal.server_tuning_steps(text, integer[], integer, integer, boolean) IS 'check a list of setting values to measure (server_vs_disk(), tune_tablespace(), sweep_io_workers())';

-- The largest effective_io_concurrency a run may ask for, which is also an
-- iodepth the raw engine takes.
CREATE OR REPLACE FUNCTION iobench_internal.max_io_concurrency()
RETURNS integer
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT LEAST(s.max_val::integer, @IOB_MAX_IODEPTH@)
      FROM pg_catalog.pg_settings s
     WHERE s.name OPERATOR(pg_catalog.=) 'effective_io_concurrency'
$$;
COMMENT ON FUNCTION iobench_internal.max_io_concurrency() IS 'the largest effective_io_concurrency a run of engine postgres may ask for';

-- Raw disk against the server's read path, pattern by pattern: 8 kB random
-- reads at each of "concurrencies" (the raw engine at that iodepth, the
-- server at that effective_io_concurrency; a value given twice is
-- measured once, in the order given), and sequential reads in blocks of
-- the server's io_combine_limit (8 kB before 17) at the server's
-- effective_io_concurrency (the raw engine at that iodepth, at least 1).
-- Like with like, both sides read cold, with the same caching: the random
-- raw runs with direct I/O (a cold buffered random read is a device read
-- of the same block, as the server's are: each block dropped once read);
-- the sequential raw run buffered, with the kernel's read-ahead, its file
-- dropped from the page cache before and each block once read
-- (cold_reads), as the server's sequential reads are.  ratio = server /
-- raw (IOPS; MB/s is the same ratio, the block sizes being equal).  The
-- scan columns are filled by server_vs_disk_layers().
-- The runs of a call in the campaign frame (campaign.c), as the caller:
-- "plan" holds the checked arguments (tablespace, concurrencies,
-- duration, file_size, workers, label).  Returns {"steps": [a row of
-- iobench.tuning_runs per run], "rows": [a server_vs_disk_row per
-- pattern, its scan columns empty]}, or after a run's error (a cancel
-- above all) the steps before it, "failed_step" and "error".
CREATE OR REPLACE FUNCTION iobench_internal.server_vs_disk_runs(tuning_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    spc_name name := plan OPERATOR(pg_catalog.->>) 'tablespace';
    run_duration interval := (plan OPERATOR(pg_catalog.->>) 'duration')::interval;
    run_file_size text := plan OPERATOR(pg_catalog.->>) 'file_size';
    run_workers integer := (plan OPERATOR(pg_catalog.->>) 'workers')::integer;
    tag text := coalesce((plan OPERATOR(pg_catalog.->>) 'label') OPERATOR(pg_catalog.||) ' ', '');
    steps integer[];
    c integer;
    blk integer := pg_catalog.current_setting('block_size')::integer;
    seq_blocks integer := coalesce((SELECT s.setting::integer FROM pg_catalog.pg_settings s
                                     WHERE s.name OPERATOR(pg_catalog.=) 'io_combine_limit'), 1);
    seq_c integer := pg_catalog.current_setting('effective_io_concurrency')::integer;
    pat text;
    side text;
    r iobench.runs;
    raw iobench.runs;
    srv iobench.runs;
    raw_missing text;
    measures text;
    taken jsonb := '[]';        -- the rows of iobench.tuning_runs
    out_rows jsonb := '[]';
    out_row iobench.server_vs_disk_row;  -- the row returned, per step
    err_state text;
    err_message text;
    err_detail text;
    err_hint text;
BEGIN
    -- a step given twice is measured once, in the order first given
    steps := ARRAY(SELECT u.v::integer
                     FROM pg_catalog.jsonb_array_elements_text(plan OPERATOR(pg_catalog.->) 'concurrencies')
                          WITH ORDINALITY u(v, n)
                    GROUP BY u.v ORDER BY pg_catalog.min(u.n));
    -- the random steps, then one sequential step at the server's concurrency
    FOR i IN 1 .. pg_catalog.cardinality(steps) OPERATOR(pg_catalog.+) 1 LOOP
        IF i OPERATOR(pg_catalog.<=) pg_catalog.cardinality(steps) THEN
            pat := 'randread';
            c := steps[i];
            out_row.block_size := blk;
        ELSE
            pat := 'read';
            c := seq_c;
            out_row.block_size := blk OPERATOR(pg_catalog.*) seq_blocks;
        END IF;
        -- The raw run, then the server's.  Where the raw engine cannot
        -- make its run (iodepth above 1 without io_uring, which a
        -- container's seccomp profile or kernel.io_uring_disabled refuses;
        -- a file system without direct I/O), the row keeps the server's
        -- figures and says why the raw ones are missing: nothing is
        -- measured in their place.
        raw := NULL;
        raw_missing := NULL;
        FOREACH side IN ARRAY ARRAY['raw', 'server'] LOOP
            measures := CASE side
                        WHEN 'raw' THEN format('server_vs_disk: raw %s at iodepth %s', pat, GREATEST(c, 1))
                        ELSE format('server_vs_disk: server %s at effective_io_concurrency %s', pat, c) END;
            BEGIN
                r := iobench.run(tablespace => spc_name, rw => pat, block_size => out_row.block_size::text,
                                 workers => run_workers, duration => run_duration, file_size => run_file_size,
                                 iodepth => CASE side WHEN 'raw' THEN GREATEST(c, 1) ELSE 1 END,
                                 direct => side OPERATOR(pg_catalog.<>) 'raw' OR pat OPERATOR(pg_catalog.=) 'randread',
                                 cold_reads => side OPERATOR(pg_catalog.=) 'raw' AND pat OPERATOR(pg_catalog.=) 'read',
                                 engine => CASE side WHEN 'raw' THEN 'auto' ELSE 'postgres' END,
                                 effective_io_concurrency => CASE side WHEN 'server' THEN c END,
                                 label => tag OPERATOR(pg_catalog.||) measures);
            EXCEPTION WHEN OTHERS OR query_canceled THEN
                GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_message = MESSAGE_TEXT,
                                        err_detail = PG_EXCEPTION_DETAIL, err_hint = PG_EXCEPTION_HINT;
                IF side OPERATOR(pg_catalog.=) 'raw' AND err_state OPERATOR(pg_catalog.=) '0A000' THEN
                    raw_missing := err_message;     -- feature_not_supported
                    CONTINUE;
                END IF;
                RETURN pg_catalog.jsonb_build_object(
                    'steps', taken,
                    'failed_step', pg_catalog.jsonb_build_object('step', pg_catalog.jsonb_array_length(taken) OPERATOR(pg_catalog.+) 1,
                                                                 'measures', measures),
                    'error', pg_catalog.jsonb_build_object('sqlstate', err_state, 'message', err_message,
                                                           'detail', err_detail, 'hint', err_hint));
            END;
            taken := taken OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
                         'step', pg_catalog.jsonb_array_length(taken) OPERATOR(pg_catalog.+) 1,
                         'run_id', r.run_id, 'measures', measures);
            IF side OPERATOR(pg_catalog.=) 'raw' THEN
                raw := r;
            ELSE
                srv := r;
            END IF;
        END LOOP;
        out_row.pattern := pat;
        out_row.concurrency := c;
        out_row.raw_run_id := raw.run_id;
        out_row.server_run_id := srv.run_id;
        out_row.raw_iops := raw.iops;
        out_row.server_iops := srv.iops;
        out_row.raw_mb_per_s := raw.mb_per_s;
        out_row.server_mb_per_s := srv.mb_per_s;
        out_row.raw_lat_p99_us := raw.lat_p99_us;
        out_row.server_lat_p99_us := srv.lat_p99_us;
        out_row.ratio := srv.iops OPERATOR(pg_catalog./) NULLIF(raw.iops, 0);
        SELECT s.buffer_hits INTO out_row.server_buffer_hits
          FROM iobench.run_server_reads s WHERE s.run_id OPERATOR(pg_catalog.=) srv.run_id;
        IF srv.status OPERATOR(pg_catalog.=) 'invalid' THEN
            -- a server run that read from memory (status "invalid", run()
            -- warned why) is no measure of the disk: no ratio, and the
            -- summary says so
            out_row.ratio := NULL;
            out_row.summary := format('not measured: the server''s run %s at effective_io_concurrency %s (reads of %s) read more than 1 %% of its blocks from memory, not from the disk (status "invalid"); no ratio',
                              srv.run_id, c, pg_catalog.pg_size_pretty(out_row.block_size::bigint));
        ELSE
            -- "PostgreSQL gets 0.62 of this disk's random-read IOPS at
            -- ...", or without a raw run "PostgreSQL gets 5120 random-read
            -- IOPS at ...; no raw run: <why>"
            out_row.summary := format('PostgreSQL gets %s %s IOPS at effective_io_concurrency %s (reads of %s)%s',
                              CASE WHEN raw_missing IS NULL
                                   THEN coalesce(pg_catalog.round(out_row.ratio::numeric, 2)::text, 'an unknown share')
                                        OPERATOR(pg_catalog.||) ' of this disk''s'
                                   ELSE coalesce(pg_catalog.round(srv.iops::numeric)::text, 'unknown') END,
                              CASE pat WHEN 'randread' THEN 'random-read'
                                       ELSE 'sequential-read' END,
                              c, pg_catalog.pg_size_pretty(out_row.block_size::bigint),
                              coalesce('; no raw run: ' OPERATOR(pg_catalog.||) raw_missing, ''));
        END IF;
        out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(out_row);
    END LOOP;
    RETURN pg_catalog.jsonb_build_object('steps', taken, 'rows', out_rows);
END
$$;
COMMENT ON FUNCTION iobench_internal.server_vs_disk_runs(bigint, jsonb) IS 'the raw and server runs of server_vs_disk(), taken as the caller within the campaign frame';

-- One cold scan by the executor of the tablespace's scan relation
-- (src/engine/engine_postgres_scan.c): made or extended to file_size
-- (a size in text, read here, so that nothing folds it before the API's
-- checks), made cold (its buffers dropped onto the free list, its pages
-- dropped from the page cache), its index read into shared buffers, then
-- EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) of a bitmap heap
-- scan of one page in eight (random) or of a sequential scan (read) at
-- effective_io_concurrency "concurrency", as the extension's owner.  It
-- reads no more buffers than are free plus its part of the call's
-- allowance, 0.5 % of shared buffers over the call's "steps" (the most
-- other relations' pages a call evicts; 19, without a free list, reads
-- only the allowance); when that is too few, it runs nothing and
-- not_measured says why.
CREATE OR REPLACE FUNCTION iobench_internal.scan_step(
    tablespace oid, pattern text, concurrency integer, file_size text, steps integer,
    max_blocks bigint,
    OUT relation pg_catalog.regclass, OUT relation_blocks bigint, OUT selected_blocks bigint,
    OUT free_buffers bigint, OUT plan jsonb, OUT not_measured text)
RETURNS record
AS 'MODULE_PATHNAME', 'iobench_scan_step'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench_internal.scan_step(oid, text, integer, text, integer, bigint) IS 'one cold scan of the scan relation by the executor, its plan with buffer counts (server_vs_disk())';

-- The scans of a call: scan_step() for each of "requests" ([{"pattern",
-- "concurrency", "max_blocks"}], in order), each in a subtransaction of
-- its own.  Returns {"scans": [scan_step()'s columns per step]}; a step's
-- error (a cancel above all) ends the list and is returned as "error":
-- {sqlstate, message, detail, hint}, not raised, so that the campaign
-- frame keeps the call's runs.
CREATE OR REPLACE FUNCTION iobench_internal.scan_steps(
    tablespace oid, requests jsonb, file_size text, steps integer)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'iobench_scan_steps'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench_internal.scan_steps(oid, jsonb, text, integer) IS 'the executor''s cold scans of a call, in order, a step''s error returned rather than raised';

-- The figures of a scan from its plan (scan_step()'s "plan"): the heap
-- pages it visited (a bitmap heap scan's exact and lossy heap blocks, a
-- sequential scan's blocks), its execution time, the blocks the statement
-- read from the kernel and found in shared buffers; not_measured says why
-- there are none (no plan, or the planner chose another scan).
CREATE OR REPLACE FUNCTION iobench_internal.scan_plan_figures(
    pattern text, plan jsonb,
    OUT blocks bigint, OUT seconds double precision, OUT read_blocks bigint, OUT hit_blocks bigint,
    OUT not_measured text)
RETURNS record
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT CASE WHEN n.node IS NOT NULL THEN
               CASE scan_plan_figures.pattern
               WHEN 'randread' THEN coalesce((n.node OPERATOR(pg_catalog.->>) 'Exact Heap Blocks')::bigint, 0)
                                    OPERATOR(pg_catalog.+) coalesce((n.node OPERATOR(pg_catalog.->>) 'Lossy Heap Blocks')::bigint, 0)
               ELSE (n.node OPERATOR(pg_catalog.->>) 'Shared Read Blocks')::bigint
                    OPERATOR(pg_catalog.+) (n.node OPERATOR(pg_catalog.->>) 'Shared Hit Blocks')::bigint END END,
           CASE WHEN n.node IS NOT NULL THEN
               (n.p OPERATOR(pg_catalog.->>) 'Execution Time')::double precision OPERATOR(pg_catalog./) 1000 END,
           CASE WHEN n.node IS NOT NULL THEN
               (n.p OPERATOR(pg_catalog.->) 'Plan' OPERATOR(pg_catalog.->>) 'Shared Read Blocks')::bigint END,
           CASE WHEN n.node IS NOT NULL THEN
               (n.p OPERATOR(pg_catalog.->) 'Plan' OPERATOR(pg_catalog.->>) 'Shared Hit Blocks')::bigint END,
           CASE WHEN scan_plan_figures.plan IS NULL THEN 'no plan'
                WHEN n.node IS NULL THEN pg_catalog.format('the planner chose no %s',
                    CASE scan_plan_figures.pattern WHEN 'randread' THEN 'bitmap heap scan' ELSE 'sequential scan' END) END
      FROM (SELECT m.p,
                   pg_catalog.jsonb_path_query_first(m.p, 'strict $.**?(@."Node Type" == $t)',
                       pg_catalog.jsonb_build_object('t', CASE scan_plan_figures.pattern WHEN 'randread' THEN 'Bitmap Heap Scan'
                                                                                        ELSE 'Seq Scan' END)) AS node
              FROM (SELECT scan_plan_figures.plan OPERATOR(pg_catalog.->) 0 AS p) m) n;
END;
COMMENT ON FUNCTION iobench_internal.scan_plan_figures(text, jsonb) IS 'the figures of a scan of scan_step() from its plan: pages visited, seconds, blocks read and hit';

-- A row of server_vs_disk() completed with its scan (scan_step()'s
-- columns): the scan's figures, the ratios scan / engine (scan_ratio) and
-- scan / disk (scan_disk_ratio), in MB/s (the engine's sequential reads
-- are of io_combine_limit blocks, the scan's of one), and the layer that
-- limits.  The rule, each layer against the one below it, within 20 %
-- (what repeated runs of one disk differ by here is well under that):
--   scan under 0.8 of the engine -> "the executor's per-block work";
--   else engine and scan both under 0.8 of the disk -> "the server's read
--     path" (a scan that gets 0.8 of the disk is not held down by the
--     engine's shortfall: at concurrency 1 the bitmap heap scan's
--     prefetching can beat the engine);
--   else -> "the disk".
-- No layer is named when the server's run read from memory, when there is
-- no raw run and the scan keeps up with the engine, or without a scan.
CREATE OR REPLACE FUNCTION iobench_internal.server_vs_disk_layers(
    r iobench.server_vs_disk_row, selected_blocks bigint, not_measured text,
    scan_blocks bigint, scan_seconds double precision, scan_read_blocks bigint, scan_hit_blocks bigint,
    scan_not_measured text)
RETURNS iobench.server_vs_disk_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    blk integer := pg_catalog.current_setting('block_size')::integer;
    why text := coalesce(server_vs_disk_layers.not_measured, server_vs_disk_layers.scan_not_measured);
    kind text := CASE r.pattern WHEN 'randread' THEN 'bitmap heap scan' ELSE 'sequential scan' END;
BEGIN
    IF why IS NULL THEN
        r.scan_read_blocks := server_vs_disk_layers.scan_read_blocks;
        r.scan_hit_blocks := server_vs_disk_layers.scan_hit_blocks;
        r.scan_blocks := server_vs_disk_layers.scan_blocks;
        IF server_vs_disk_layers.scan_seconds OPERATOR(pg_catalog.>) 0 THEN
            r.scan_blocks_per_s := r.scan_blocks OPERATOR(pg_catalog./) server_vs_disk_layers.scan_seconds;
            r.scan_mb_per_s := r.scan_blocks_per_s OPERATOR(pg_catalog.*) blk OPERATOR(pg_catalog./) 1e6;
        END IF;
        r.scan_ratio := r.scan_mb_per_s OPERATOR(pg_catalog./) NULLIF(r.server_mb_per_s, 0);
        r.scan_disk_ratio := r.scan_mb_per_s OPERATOR(pg_catalog./) NULLIF(r.raw_mb_per_s, 0);
    END IF;
    IF r.summary OPERATOR(pg_catalog.~~) 'not measured:%' THEN
        -- the server's run read from memory: no verdict
        r.scan_disk_ratio := NULL;
        r.scan_ratio := NULL;
    ELSIF r.scan_ratio OPERATOR(pg_catalog.<) 0.8 THEN
        r.limiting_layer := 'the executor''s per-block work';
    ELSIF r.scan_ratio IS NOT NULL AND r.ratio OPERATOR(pg_catalog.<) 0.8
          AND r.scan_disk_ratio OPERATOR(pg_catalog.<) 0.8 THEN
        r.limiting_layer := 'the server''s read path';
    ELSIF r.scan_ratio IS NOT NULL AND r.ratio IS NOT NULL THEN
        r.limiting_layer := 'the disk';
    END IF;
    r.summary := r.summary OPERATOR(pg_catalog.||)
        CASE WHEN why IS NOT NULL
             THEN format('; no scan: %s', why)
             ELSE format('; a cold %s gets %s of that (%s blocks/s, %s of %s pages read from the kernel%s)%s',
                         kind,
                         coalesce(pg_catalog.round(r.scan_ratio::numeric, 2)::text, 'an unknown share'),
                         coalesce(pg_catalog.round(r.scan_blocks_per_s::numeric)::text, 'unknown'),
                         r.scan_read_blocks, server_vs_disk_layers.selected_blocks,
                         CASE r.pattern WHEN 'randread' THEN ', its index in shared buffers' ELSE '' END,
                         coalesce(': ' OPERATOR(pg_catalog.||) r.limiting_layer OPERATOR(pg_catalog.||) ' limits', '')) END;
    RETURN r;
END
$$;
COMMENT ON FUNCTION iobench_internal.server_vs_disk_layers(iobench.server_vs_disk_row, bigint, text, bigint, double precision, bigint, bigint, text) IS 'a row of server_vs_disk() completed with its scan: figures, ratios and the limiting layer';

-- The rows a tuning call returned (iobench.tunings.result), read as the
-- owner (a caller granted the call need not read the table) by a volatile
-- function, so that they are seen from the statement that stored them.
CREATE OR REPLACE FUNCTION iobench_internal.tuning_result(tuning_id bigint)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT t.result FROM iobench.tunings t
     WHERE t.tuning_id OPERATOR(pg_catalog.=) tuning_result.tuning_id;
END;
COMMENT ON FUNCTION iobench_internal.tuning_result(bigint) IS 'the rows a tuning call returned, as stored';

-- server_vs_disk()'s body in the campaign frame, as the caller: its runs
-- (server_vs_disk_runs()), then, when every run was taken, the executor's
-- cold scan of each row (scan_steps(), each reading at most the pages the
-- server's run read in "duration", else the disk's: the scan of a slow
-- disk lasts as long), each row completed by server_vs_disk_layers().  A
-- run's or a scan's error (a cancel above all) is returned for the frame,
-- which keeps the runs taken.  The rows become the call's "result".
CREATE OR REPLACE FUNCTION iobench_internal.server_vs_disk_body(tuning_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH m AS MATERIALIZED (
        SELECT iobench_internal.server_vs_disk_runs(server_vs_disk_body.tuning_id, server_vs_disk_body.plan) AS v),
    b AS MATERIALIZED (
        SELECT pg_catalog.jsonb_populate_record(NULL::iobench.server_vs_disk_row, e.x) AS r, e.i
          FROM m CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(m.v OPERATOR(pg_catalog.->) 'rows')
               WITH ORDINALITY e(x, i)
         WHERE NOT (m.v OPERATOR(pg_catalog.?) 'error')),
    s AS MATERIALIZED (
        SELECT iobench_internal.scan_steps(
                   (server_vs_disk_body.plan OPERATOR(pg_catalog.->>) 'spc')::oid,
                   coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'pattern', (b.r).pattern, 'concurrency', (b.r).concurrency,
                       'max_blocks', coalesce(pg_catalog.ceil(coalesce((b.r).server_mb_per_s, (b.r).raw_mb_per_s) OPERATOR(pg_catalog.*) 1e6
                                                  OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::integer
                                                  OPERATOR(pg_catalog.*) pg_catalog.date_part('epoch',
                                                      (server_vs_disk_body.plan OPERATOR(pg_catalog.->>) 'duration')::interval))::bigint,
                                              9223372036854775807)) ORDER BY b.i), '[]'),
                   server_vs_disk_body.plan OPERATOR(pg_catalog.->>) 'file_size',
                   pg_catalog.count(*)::integer) AS v
          FROM b HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 0)
    SELECT CASE WHEN m.v OPERATOR(pg_catalog.?) 'error' THEN m.v
                WHEN s.v OPERATOR(pg_catalog.?) 'error'
                THEN pg_catalog.jsonb_build_object('steps', m.v OPERATOR(pg_catalog.->) 'steps',
                                                   'error', s.v OPERATOR(pg_catalog.->) 'error')
                ELSE pg_catalog.jsonb_build_object(
                         'steps', m.v OPERATOR(pg_catalog.->) 'steps', 'status', 'completed',
                         'campaign', pg_catalog.jsonb_build_object('result', (
                             SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(l.*) ORDER BY b.i), '[]')
                               FROM b
                               JOIN pg_catalog.jsonb_array_elements(s.v OPERATOR(pg_catalog.->) 'scans') WITH ORDINALITY x(o, i)
                                 ON x.i OPERATOR(pg_catalog.=) b.i
                              CROSS JOIN LATERAL iobench_internal.scan_plan_figures(
                                        (b.r).pattern, NULLIF(x.o OPERATOR(pg_catalog.->) 'plan', 'null'::jsonb)) f
                              CROSS JOIN LATERAL iobench_internal.server_vs_disk_layers(
                                        b.r, (x.o OPERATOR(pg_catalog.->>) 'selected_blocks')::bigint,
                                        x.o OPERATOR(pg_catalog.->>) 'not_measured',
                                        f.blocks, f.seconds, f.read_blocks, f.hit_blocks,
                                        CASE WHEN x.o OPERATOR(pg_catalog.->>) 'not_measured' IS NULL
                                             THEN f.not_measured END) l))) END
      FROM m LEFT JOIN s ON true;
END;
COMMENT ON FUNCTION iobench_internal.server_vs_disk_body(bigint, jsonb) IS 'server_vs_disk() in the campaign frame: its runs, then the executor''s scans and the layers, as the caller';

-- server_vs_disk(): the arguments checked (every check before any run),
-- then the call in the campaign frame, stored as a row of iobench.tunings
-- with its runs; returns the rows it stored.  Bound when created (no role
-- but the owner has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.server_vs_disk(
    tablespace    name      DEFAULT 'pg_default',
    concurrencies integer[] DEFAULT '{1,16,128}',
    duration      interval  DEFAULT '5s',
    file_size     text      DEFAULT '1GB',
    workers       integer   DEFAULT 1,
    label         text      DEFAULT NULL)
RETURNS SETOF iobench.server_vs_disk_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.server_vs_disk(name, integer[], interval, text, integer, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH p AS MATERIALIZED (
        SELECT pg_catalog.jsonb_build_object(
                   'spc', iobench_internal.server_tuning_check(server_vs_disk.tablespace, server_vs_disk.duration,
                                                               server_vs_disk.file_size, server_vs_disk.workers),
                   'tablespace', server_vs_disk.tablespace,
                   'concurrencies', iobench_internal.server_tuning_steps('concurrencies', server_vs_disk.concurrencies,
                                                                         1, iobench_internal.max_io_concurrency(), false),
                   'duration', pg_catalog.date_part('epoch', server_vs_disk.duration), 'file_size', server_vs_disk.file_size,
                   'workers', server_vs_disk.workers, 'label', server_vs_disk.label) AS plan)
    SELECT r.*
      FROM p CROSS JOIN LATERAL pg_catalog.jsonb_populate_recordset(NULL::iobench.server_vs_disk_row,
               iobench_internal.tuning_result(iobench_internal.campaign('server_vs_disk',
                   pg_catalog.jsonb_build_object('call', 'server_vs_disk', 'label', server_vs_disk.label,
                                                 'tablespace', server_vs_disk.tablespace,
                                                 'arguments', p.plan OPERATOR(pg_catalog.-) '{spc,tablespace,label}'::pg_catalog.text[]),
                   p.plan, 'iobench_internal.server_vs_disk_body(bigint, jsonb)'::pg_catalog.regprocedure))) r;
END;
COMMENT ON FUNCTION iobench.server_vs_disk(name, integer[], interval, text, integer, text) IS 'raw disk, the server''s read path and the executor''s cold scan, pattern by pattern: a raw run, a server run and a scan each, their ratios and the layer that limits';

-- Recommend a tablespace's I/O settings from measurements of the server's
-- read path, all cold (every buffer evicted, every block dropped from the
-- page cache); it never changes a setting.
--   effective_io_concurrency: 8 kB random reads at each step of
--     "concurrencies" (ascending; stops once two steps running gain under
--     5 % over the best before them).  The best step is measured a second
--     time: the two runs' spread sets the margin, at least 10 %, else twice
--     the spread (a throttle's overshoot, 426 against a cap of 400, or any
--     noise within it is no gain).  The knee: the smallest step within the
--     margin of the best IOPS (the repeated step counts with the mean of its
--     two runs).  The value in effect is measured too (a step of its own
--     when no step is it), and kept when it is within the margin: a change
--     is recommended only for a gain above the noise.  The same disk gives
--     the same recommendation call after call.
--   maintenance_io_concurrency: the same knee (steps past it gain less
--     than the noise; maintenance takes the deepest queue that still gains),
--     or the value in effect within the margin.
--   io_combine_limit (17+; a server setting): sequential reads at each step
--     of "combine_limits" at the recommended concurrency; the knee of MB/s,
--     or the value in effect, found the same way.
--   random_page_cost = seq_page_cost x (cold random cost / cold sequential
--     cost per page) x cache_miss_pct / 100, never below seq_page_cost: a
--     random read at concurrency 1 (a plain index scan's) against
--     sequential reads per page through the read stream.
-- Each row has the value in effect now ("in_effect": the tablespace's option,
-- else what a new session gets), and when the recommendation differs, the
-- statement that applies it and when it takes effect ("applies"); a
-- recommendation equal to the value in effect has no statement.
-- The runs of a call in the campaign frame (campaign.c), as the caller:
-- "plan" holds the checked arguments.  Returns {"steps": [a row of
-- iobench.tuning_runs per run], "rows": [a tune_tablespace_row per
-- setting, from the server's read path, without statement]}, or after a
-- run's error (a cancel above all) the steps before it, "failed_step" and
-- "error"; a step stored "invalid" is an error too.
CREATE OR REPLACE FUNCTION iobench_internal.tune_tablespace_runs(tuning_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    spc_name name := plan OPERATOR(pg_catalog.->>) 'tablespace';
    run_duration interval := (plan OPERATOR(pg_catalog.->>) 'duration')::interval;
    run_file_size text := plan OPERATOR(pg_catalog.->>) 'file_size';
    run_workers integer := (plan OPERATOR(pg_catalog.->>) 'workers')::integer;
    cache_miss_pct double precision := (plan OPERATOR(pg_catalog.->>) 'cache_miss_pct')::double precision;
    measures text;
    taken jsonb := '[]';        -- the rows of iobench.tuning_runs
    out_rows jsonb := '[]';
    err_state text;
    err_message text;
    err_detail text;
    err_hint text;
    measured bigint[] := '{}';  -- every step's run, checked for "invalid" once
    bad iobench.runs;           -- the first step stored "invalid"
    bad_reads iobench.run_server_reads;
    blk integer := pg_catalog.current_setting('block_size')::integer;
    combine_now integer;        -- this session's io_combine_limit
    combine_in_effect integer;  -- what a new session gets
    -- the smallest step whose figure is within the margin ($2) of the best
    knee_sql text := 'SELECT (e.v OPERATOR(pg_catalog.->>) ''value'')::integer FROM pg_catalog.jsonb_array_elements($1) e(v) WHERE (e.v OPERATOR(pg_catalog.->>) ''figure'')::double precision OPERATOR(pg_catalog.>=) ((1 OPERATOR(pg_catalog.-) $2) OPERATOR(pg_catalog.*) (SELECT pg_catalog.max((x.v OPERATOR(pg_catalog.->>) ''figure'')::double precision) FROM pg_catalog.jsonb_array_elements($1) x(v))) ORDER BY 1 LIMIT 1';
    -- the best step: its value and figure
    best_sql text := 'SELECT (e.v OPERATOR(pg_catalog.->>) ''value'')::integer, (e.v OPERATOR(pg_catalog.->>) ''figure'')::double precision FROM pg_catalog.jsonb_array_elements($1) e(v) ORDER BY 2 DESC, 1 LIMIT 1';
    -- is step $2 within the margin ($3) of the best figure?
    kept_sql text := 'SELECT (e.v OPERATOR(pg_catalog.->>) ''figure'')::double precision OPERATOR(pg_catalog.>=) ((1 OPERATOR(pg_catalog.-) $3) OPERATOR(pg_catalog.*) (SELECT pg_catalog.max((x.v OPERATOR(pg_catalog.->>) ''figure'')::double precision) FROM pg_catalog.jsonb_array_elements($1) x(v))) FROM pg_catalog.jsonb_array_elements($1) e(v) WHERE (e.v OPERATOR(pg_catalog.->>) ''value'')::integer OPERATOR(pg_catalog.=) $2';
    -- the steps with the repeated one's second run: its figure the mean
    repeat_sql text := 'SELECT pg_catalog.jsonb_agg(CASE WHEN (e.v OPERATOR(pg_catalog.->>) ''value'')::integer OPERATOR(pg_catalog.=) $2 THEN e.v OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(''figure'', ((e.v OPERATOR(pg_catalog.->>) ''figure'')::double precision OPERATOR(pg_catalog.+) $4) OPERATOR(pg_catalog./) 2, ''repeat_run_id'', $3, ''repeat_figure'', $4) ELSE e.v END ORDER BY e.i) FROM pg_catalog.jsonb_array_elements($1) WITH ORDINALITY e(v, i)';
    conc integer[];
    comb integer[];
    phase text;
    vals integer[];             -- the values of a phase's steps
    sequential boolean;         -- the step reads sequentially
    figure double precision;    -- a step's IOPS (random) or MB/s (sequential)
    step jsonb;
    c integer;
    r iobench.runs;
    best double precision := 0;
    flat integer := 0;
    eic_steps jsonb := '[]';
    eic_runs bigint[] := '{}';
    comb_steps jsonb := '[]';
    comb_runs bigint[] := '{}';
    top integer;
    top_figure double precision;
    eic_spread double precision;
    eic_margin double precision;
    comb_spread double precision;
    comb_margin double precision;
    eic integer;
    maint integer;
    comb_rec integer;
    knee integer;
    keep_eic boolean;
    keep_maint boolean;
    keep_comb boolean;
    comb_knee integer;
    rnd iobench.runs;
    seq iobench.runs;
    seq_cost double precision;
    cost_ratio double precision;
    rpc numeric;
    opts text[];
    now_eic text;
    now_maint text;
    now_rpc text;
    tag text := coalesce((plan OPERATOR(pg_catalog.->>) 'label') OPERATOR(pg_catalog.||) ' ', '');
    out_row iobench.tune_tablespace_row;  -- the row returned, per setting
BEGIN
    conc := ARRAY(SELECT u.v::integer FROM pg_catalog.jsonb_array_elements_text(plan OPERATOR(pg_catalog.->) 'concurrencies') u(v));
    comb := CASE WHEN pg_catalog.jsonb_typeof(plan OPERATOR(pg_catalog.->) 'combine_limits') OPERATOR(pg_catalog.=) 'array'
                 THEN ARRAY(SELECT u.v::integer FROM pg_catalog.jsonb_array_elements_text(plan OPERATOR(pg_catalog.->) 'combine_limits') u(v)) END;
    combine_now := (SELECT s.setting::integer FROM pg_catalog.pg_settings s
                     WHERE s.name OPERATOR(pg_catalog.=) 'io_combine_limit');
    combine_in_effect := (SELECT s.reset_val::integer FROM pg_catalog.pg_settings s
                           WHERE s.name OPERATOR(pg_catalog.=) 'io_combine_limit');
    -- the tablespace's options now; without one, what a new session gets
    opts := (SELECT t.spcoptions FROM pg_catalog.pg_tablespace t
              WHERE t.spcname OPERATOR(pg_catalog.=) spc_name);
    SELECT coalesce(pg_catalog.max(o.option_value) FILTER (WHERE o.option_name OPERATOR(pg_catalog.=) 'effective_io_concurrency'),
                    (SELECT s.reset_val FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) 'effective_io_concurrency')),
           coalesce(pg_catalog.max(o.option_value) FILTER (WHERE o.option_name OPERATOR(pg_catalog.=) 'maintenance_io_concurrency'),
                    (SELECT s.reset_val FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) 'maintenance_io_concurrency')),
           coalesce(pg_catalog.max(o.option_value) FILTER (WHERE o.option_name OPERATOR(pg_catalog.=) 'random_page_cost'),
                    (SELECT s.reset_val FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) 'random_page_cost')),
           coalesce(pg_catalog.max(o.option_value) FILTER (WHERE o.option_name OPERATOR(pg_catalog.=) 'seq_page_cost'),
                    (SELECT s.reset_val FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) 'seq_page_cost'))::double precision
      INTO now_eic, now_maint, now_rpc, seq_cost
      FROM pg_catalog.pg_options_to_table(coalesce(opts, '{}')) o;

    -- The steps, phase by phase, each phase's values decided from the
    -- steps before it; every run goes through the one call below.
    --   eic:            8 kB random reads at each of "concurrencies",
    --                   until two steps running gain under 5 % over the best
    --   eic_in_effect:  the values in effect (effective_io_concurrency,
    --                   maintenance_io_concurrency) when no step was them:
    --                   one within the margin of the best is kept, no change
    --   eic_repeat:     the best step once more: the spread of its two
    --                   runs sets the margin
    --   comb, comb_in_effect, comb_repeat: the same for io_combine_limit,
    --                   sequential reads at the recommended concurrency
    --   rpc_random, rpc_seq: for random_page_cost, a random read at
    --                   concurrency 1 (unless the eic phase measured it) and
    --                   a sequential read through the read stream (the
    --                   server's io_combine_limit, the recommended concurrency)
    FOREACH phase IN ARRAY ARRAY['eic', 'eic_in_effect', 'eic_repeat', 'comb', 'comb_in_effect',
                                 'comb_repeat', 'rpc_random', 'rpc_seq'] LOOP
        IF phase OPERATOR(pg_catalog.=) 'eic' THEN
            vals := conc;
        ELSIF phase OPERATOR(pg_catalog.=) 'eic_in_effect' THEN
            vals := ARRAY(SELECT DISTINCT v.v FROM pg_catalog.unnest(ARRAY[now_eic::integer, now_maint::integer]) v(v)
                           WHERE NOT EXISTS (SELECT FROM pg_catalog.jsonb_array_elements(eic_steps) e(s)
                                              WHERE (e.s OPERATOR(pg_catalog.->>) 'value')::integer OPERATOR(pg_catalog.=) v.v)
                           ORDER BY 1);
        ELSIF phase OPERATOR(pg_catalog.=) 'eic_repeat' THEN
            EXECUTE best_sql INTO top, top_figure USING eic_steps;
            vals := ARRAY[top];
        ELSIF phase OPERATOR(pg_catalog.=) 'comb' THEN
            vals := coalesce(comb, '{}');
        ELSIF phase OPERATOR(pg_catalog.=) 'comb_in_effect' THEN
            vals := CASE WHEN comb IS NOT NULL
                          AND NOT EXISTS (SELECT FROM pg_catalog.jsonb_array_elements(comb_steps) e(s)
                                           WHERE (e.s OPERATOR(pg_catalog.->>) 'value')::integer OPERATOR(pg_catalog.=) combine_in_effect)
                         THEN ARRAY[combine_in_effect] ELSE '{}' END;
        ELSIF phase OPERATOR(pg_catalog.=) 'comb_repeat' THEN
            vals := '{}';
            IF comb IS NOT NULL THEN
                EXECUTE best_sql INTO top, top_figure USING comb_steps;
                vals := ARRAY[top];
            END IF;
        ELSIF phase OPERATOR(pg_catalog.=) 'rpc_random' THEN
            vals := CASE WHEN rnd.run_id IS NULL THEN ARRAY[1] ELSE '{}' END;
        ELSE
            vals := ARRAY[eic];
        END IF;
        best := 0;
        flat := 0;
        FOREACH c IN ARRAY vals LOOP
            -- the step's run: 8 kB random reads at effective_io_concurrency c,
            -- or sequential reads at the recommended concurrency (in blocks of
            -- the largest io_combine_limit step, at io_combine_limit c; for
            -- random_page_cost, of this session's io_combine_limit)
            sequential := phase OPERATOR(pg_catalog.~~) 'comb%' OR phase OPERATOR(pg_catalog.=) 'rpc_seq';
            measures := CASE phase
                        WHEN 'eic' THEN format('tune_tablespace: randread at effective_io_concurrency %s', c)
                        WHEN 'eic_in_effect' THEN format('tune_tablespace: randread at effective_io_concurrency %s, in effect', c)
                        WHEN 'eic_repeat' THEN format('tune_tablespace: randread at effective_io_concurrency %s, repeated', c)
                        WHEN 'comb' THEN format('tune_tablespace: read at io_combine_limit %s', c)
                        WHEN 'comb_in_effect' THEN format('tune_tablespace: read at io_combine_limit %s, in effect', c)
                        WHEN 'comb_repeat' THEN format('tune_tablespace: read at io_combine_limit %s, repeated', c)
                        WHEN 'rpc_random' THEN 'tune_tablespace: randread for random_page_cost'
                        ELSE 'tune_tablespace: read for random_page_cost' END;
            BEGIN
                r := iobench.run(tablespace => spc_name, rw => CASE WHEN sequential THEN 'read' ELSE 'randread' END,
                                 block_size => (blk OPERATOR(pg_catalog.*)
                                                CASE WHEN phase OPERATOR(pg_catalog.=) 'rpc_seq' THEN coalesce(combine_now, 1)
                                                     WHEN sequential THEN comb[pg_catalog.cardinality(comb)]
                                                     ELSE 1 END)::text,
                                 workers => run_workers, duration => run_duration, file_size => run_file_size,
                                 engine => 'postgres',
                                 effective_io_concurrency => CASE WHEN phase OPERATOR(pg_catalog.~~) 'comb%' THEN eic ELSE c END,
                                 io_combine_limit => CASE WHEN phase OPERATOR(pg_catalog.~~) 'comb%' THEN c END,
                                 label => tag OPERATOR(pg_catalog.||) measures);
            EXCEPTION WHEN OTHERS OR query_canceled THEN
                GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_message = MESSAGE_TEXT,
                                        err_detail = PG_EXCEPTION_DETAIL, err_hint = PG_EXCEPTION_HINT;
                RETURN pg_catalog.jsonb_build_object(
                    'steps', taken,
                    'failed_step', pg_catalog.jsonb_build_object('step', pg_catalog.jsonb_array_length(taken) OPERATOR(pg_catalog.+) 1,
                                                                 'measures', measures),
                    'error', pg_catalog.jsonb_build_object('sqlstate', err_state, 'message', err_message,
                                                           'detail', err_detail, 'hint', err_hint));
            END;
            taken := taken OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
                         'step', pg_catalog.jsonb_array_length(taken) OPERATOR(pg_catalog.+) 1,
                         'run_id', r.run_id, 'measures', measures);
            measured := measured OPERATOR(pg_catalog.||) r.run_id;

            -- what the step decides
            IF phase OPERATOR(pg_catalog.=) ANY (ARRAY['eic', 'eic_in_effect', 'comb', 'comb_in_effect']) THEN
                figure := CASE WHEN sequential THEN coalesce(r.mb_per_s, 0) ELSE coalesce(r.iops, 0) END;
                step := pg_catalog.jsonb_build_object('value', c, 'run_id', r.run_id, 'figure', figure)
                        OPERATOR(pg_catalog.||)
                        CASE WHEN sequential THEN pg_catalog.jsonb_build_object('mb_per_s', r.mb_per_s)
                             ELSE pg_catalog.jsonb_build_object('iops', r.iops) END
                        OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('lat_p99_us', r.lat_p99_us)
                        OPERATOR(pg_catalog.||)
                        CASE WHEN phase OPERATOR(pg_catalog.~~) '%in_effect'
                             THEN pg_catalog.jsonb_build_object('in_effect', true) ELSE '{}' END;
                IF sequential THEN
                    comb_runs := comb_runs OPERATOR(pg_catalog.||) r.run_id;
                    comb_steps := comb_steps OPERATOR(pg_catalog.||) step;
                ELSE
                    eic_runs := eic_runs OPERATOR(pg_catalog.||) r.run_id;
                    eic_steps := eic_steps OPERATOR(pg_catalog.||) step;
                END IF;
                IF phase OPERATOR(pg_catalog.=) 'eic' AND c OPERATOR(pg_catalog.=) 1 THEN
                    rnd := r;           -- a plain index scan's: the cost of a random read
                END IF;
                IF phase OPERATOR(pg_catalog.=) ANY (ARRAY['eic', 'comb']) THEN
                    IF figure OPERATOR(pg_catalog.>) (best OPERATOR(pg_catalog.*) 1.05) THEN
                        flat := 0;
                    ELSE
                        flat := flat OPERATOR(pg_catalog.+) 1;
                    END IF;
                    best := GREATEST(best, figure);
                    EXIT WHEN flat OPERATOR(pg_catalog.>=) 2;
                END IF;
            ELSIF phase OPERATOR(pg_catalog.=) 'eic_repeat' THEN
                eic_runs := eic_runs OPERATOR(pg_catalog.||) r.run_id;
                eic_spread := abs(top_figure OPERATOR(pg_catalog.-) coalesce(r.iops, 0))
                              OPERATOR(pg_catalog./) NULLIF(GREATEST(top_figure, coalesce(r.iops, 0)), 0);
                eic_margin := LEAST(GREATEST(0.10, 2 OPERATOR(pg_catalog.*) coalesce(eic_spread, 0)), 0.5);
                EXECUTE repeat_sql INTO eic_steps USING eic_steps, top, r.run_id, coalesce(r.iops, 0);
                EXECUTE knee_sql INTO knee USING eic_steps, eic_margin;
                EXECUTE kept_sql INTO keep_eic USING eic_steps, now_eic::integer, eic_margin;
                EXECUTE kept_sql INTO keep_maint USING eic_steps, now_maint::integer, eic_margin;
                eic := CASE WHEN keep_eic THEN now_eic::integer ELSE knee END;
                maint := CASE WHEN keep_maint THEN now_maint::integer ELSE knee END;
            ELSIF phase OPERATOR(pg_catalog.=) 'comb_repeat' THEN
                comb_runs := comb_runs OPERATOR(pg_catalog.||) r.run_id;
                comb_spread := abs(top_figure OPERATOR(pg_catalog.-) coalesce(r.mb_per_s, 0))
                               OPERATOR(pg_catalog./) NULLIF(GREATEST(top_figure, coalesce(r.mb_per_s, 0)), 0);
                comb_margin := LEAST(GREATEST(0.10, 2 OPERATOR(pg_catalog.*) coalesce(comb_spread, 0)), 0.5);
                EXECUTE repeat_sql INTO comb_steps USING comb_steps, top, r.run_id, coalesce(r.mb_per_s, 0);
                EXECUTE knee_sql INTO comb_rec USING comb_steps, comb_margin;
                EXECUTE kept_sql INTO keep_comb USING comb_steps, combine_in_effect, comb_margin;
                IF keep_comb AND comb_rec OPERATOR(pg_catalog.<>) combine_in_effect THEN
                    comb_knee := comb_rec;
                    comb_rec := combine_in_effect;
                ELSE
                    keep_comb := false;
                END IF;
            ELSIF phase OPERATOR(pg_catalog.=) 'rpc_random' THEN
                rnd := r;
            ELSE
                seq := r;
            END IF;
        END LOOP;
    END LOOP;

    -- pages per second sequentially / pages per second at random (8 kB each)
    cost_ratio := seq.mb_per_s OPERATOR(pg_catalog./) NULLIF(rnd.mb_per_s, 0);
    rpc := pg_catalog.round(GREATEST(seq_cost,
               seq_cost OPERATOR(pg_catalog.*) cost_ratio OPERATOR(pg_catalog.*)
               cache_miss_pct OPERATOR(pg_catalog./) 100)::numeric, 2);

    -- Refuse a step stored "invalid": it read more than 1 % of its blocks
    -- from memory (shared buffers or the page cache), so its figures are
    -- memory's, not the disk's, and nothing may be recommended from them.
    -- Checked here, once, for every step.  The error is returned like a
    -- run's: the frame keeps the call as cancelled with its runs, so the
    -- step can be read; each run's WARNING, printed before, says what it
    -- found.
    SELECT x.* INTO bad FROM iobench.runs x
     WHERE x.run_id OPERATOR(pg_catalog.=) ANY (measured)
       AND x.status OPERATOR(pg_catalog.=) 'invalid'
     ORDER BY x.run_id LIMIT 1;
    IF FOUND THEN
        SELECT * INTO bad_reads FROM iobench.run_server_reads x
         WHERE x.run_id OPERATOR(pg_catalog.=) bad.run_id;
        RETURN pg_catalog.jsonb_build_object(
            'steps', taken,
            'error', pg_catalog.jsonb_build_object(
                'sqlstate', '55000',
                'message', pg_catalog.format('tune_tablespace() cannot recommend from run %s, which read more than 1 %% of its blocks from memory, not from the disk', bad.run_id),
                'detail', pg_catalog.format('The step "%s" found %s of its blocks in shared buffers and read %s (status "invalid"); its figures are memory''s.',
                                            bad.label, bad_reads.buffer_hits, bad_reads.buffer_reads),
                'hint', 'Call it again when no other session reads the relation of engine postgres in this tablespace (iobench.read_targets), or with a larger file_size.'));
    END IF;

    out_row.setting := 'effective_io_concurrency';
    out_row.recommended := eic::text;
    out_row.in_effect := now_eic;
    out_row.basis := format('%s within %s %% of the best cold 8 kB random-read IOPS (%s); the margin: at least 10 %%, else twice the spread of two runs at the best step (%s %%)',
                    CASE WHEN keep_eic AND eic OPERATOR(pg_catalog.<>) knee
                         THEN format('the value in effect (the knee is %s), kept: it is', knee)
                         ELSE 'the smallest step (the knee)' END,
                    pg_catalog.round((100 OPERATOR(pg_catalog.*) eic_margin)::numeric, 1),
                    (SELECT pg_catalog.round(pg_catalog.max((e.v OPERATOR(pg_catalog.->>) 'figure')::numeric), 0)
                       FROM pg_catalog.jsonb_array_elements(eic_steps) e(v)),
                    pg_catalog.round((100 OPERATOR(pg_catalog.*) coalesce(eic_spread, 0))::numeric, 1));
    out_row.run_ids := eic_runs;
    out_row.steps := eic_steps;
    out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(out_row);

    out_row.setting := 'maintenance_io_concurrency';
    out_row.recommended := maint::text;
    out_row.in_effect := now_maint;
    out_row.basis := CASE WHEN keep_maint AND maint OPERATOR(pg_catalog.<>) knee
                  THEN 'the value in effect, kept: it is within the margin of the server''s read path''s best cold 8 kB random-read IOPS'
                  ELSE 'the knee of the server''s read path over the effective_io_concurrency steps (maintenance reads through it without a query''s work per row): deeper steps gained less than the margin' END;
    out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(out_row);

    IF comb IS NOT NULL THEN
        out_row.setting := 'io_combine_limit';
        out_row.recommended := comb_rec::text;
        out_row.in_effect := combine_in_effect::text;
        out_row.basis := format('%s within %s %% of the best cold sequential MB/s at effective_io_concurrency %s; the margin: at least 10 %%, else twice the spread of two runs at the best step (%s %%); a server setting, not a tablespace option',
                        CASE WHEN keep_comb THEN format('the value in effect (the knee is %s), kept: it is', comb_knee)
                             ELSE 'the smallest step (the knee)' END,
                        pg_catalog.round((100 OPERATOR(pg_catalog.*) comb_margin)::numeric, 1), eic,
                        pg_catalog.round((100 OPERATOR(pg_catalog.*) coalesce(comb_spread, 0))::numeric, 1));
        out_row.run_ids := comb_runs;
        out_row.steps := comb_steps;
        out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(out_row);
    END IF;

    out_row.setting := 'random_page_cost';
    out_row.recommended := rpc::text;
    out_row.in_effect := now_rpc;
    out_row.basis := format('seq_page_cost %s x (cold random read %s us / cold sequential read %s us per page = %s) x %s %% of random reads missing the cache, at least seq_page_cost',
                    seq_cost,
                    pg_catalog.round((1e6 OPERATOR(pg_catalog./) NULLIF(rnd.iops, 0))::numeric, 1),
                    pg_catalog.round((1e6 OPERATOR(pg_catalog./) NULLIF(seq.iops OPERATOR(pg_catalog.*) seq.block_size OPERATOR(pg_catalog./) blk, 0))::numeric, 1),
                    pg_catalog.round(cost_ratio::numeric, 2), cache_miss_pct);
    out_row.run_ids := ARRAY[rnd.run_id, seq.run_id];
    out_row.steps := jsonb_build_array(
                 jsonb_build_object('pattern', 'randread', 'run_id', rnd.run_id, 'block_size', rnd.block_size,
                                    'effective_io_concurrency', 1, 'iops', rnd.iops, 'mb_per_s', rnd.mb_per_s),
                 jsonb_build_object('pattern', 'read', 'run_id', seq.run_id, 'block_size', seq.block_size,
                                    'effective_io_concurrency', eic, 'iops', seq.iops, 'mb_per_s', seq.mb_per_s));
    out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(out_row);
    RETURN pg_catalog.jsonb_build_object('steps', taken, 'rows', out_rows);
END
$$;
COMMENT ON FUNCTION iobench_internal.tune_tablespace_runs(bigint, jsonb) IS 'the runs of tune_tablespace() and the rows of the server''s read path, taken as the caller within the campaign frame';

-- The io_combine_limit steps of tune_tablespace(): "steps", or by
-- default the powers of 2 up to the largest a run may ask for
-- (io_max_combine_limit on 18+), sorted; checked like server_tuning_steps()
-- does (which this cannot call: it runs bound in the API's body, where
-- no caller has USAGE on iobench_internal).  NULL before 17, where giving
-- steps is an error.
CREATE OR REPLACE FUNCTION iobench_internal.combine_steps(steps integer[])
RETURNS integer[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    maximum integer := coalesce((SELECT s.setting::integer FROM pg_catalog.pg_settings s
                                  WHERE s.name OPERATOR(pg_catalog.=) 'io_max_combine_limit'),
                                (SELECT s.max_val::integer FROM pg_catalog.pg_settings s
                                  WHERE s.name OPERATOR(pg_catalog.=) 'io_combine_limit'));
    bad integer;
BEGIN
    IF maximum IS NULL THEN
        IF combine_steps.steps IS NOT NULL THEN
            RAISE EXCEPTION 'argument "combine_limits" needs PostgreSQL 17 or later'
                USING ERRCODE = 'feature_not_supported',
                      DETAIL = 'This server reads one block at a time; it has no read streams that combine reads.';
        END IF;
        RETURN NULL;
    END IF;
    IF combine_steps.steps IS NULL THEN
        RETURN ARRAY(SELECT 1 OPERATOR(pg_catalog.<<) g FROM pg_catalog.generate_series(0, 10) g
                      WHERE 1 OPERATOR(pg_catalog.<<) g OPERATOR(pg_catalog.<=) maximum);
    END IF;
    IF pg_catalog.cardinality(combine_steps.steps) OPERATOR(pg_catalog.=) 0 THEN
        RAISE EXCEPTION 'argument "combine_limits" must list at least one value'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Leave it out (NULL) for the powers of 2 up to the largest io_combine_limit.';
    END IF;
    IF pg_catalog.array_position(combine_steps.steps, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "combine_limits" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.v INTO bad FROM pg_catalog.unnest(combine_steps.steps) u(v)
     WHERE u.v NOT BETWEEN 1 AND maximum LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% is out of range for argument "combine_limits"', bad
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Valid values are between 1 and %s blocks of %s bytes.', maximum,
                                  pg_catalog.current_setting('block_size'));
    END IF;
    RETURN ARRAY(SELECT DISTINCT u.v FROM pg_catalog.unnest(combine_steps.steps) u(v) ORDER BY u.v);
END
$$;
COMMENT ON FUNCTION iobench_internal.combine_steps(integer[]) IS 'the io_combine_limit steps of tune_tablespace(), checked';

-- The share of random reads assumed to miss the cache, checked
CREATE OR REPLACE FUNCTION iobench_internal.check_cache_miss_pct(pct double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF check_cache_miss_pct.pct IS NULL
       OR NOT (check_cache_miss_pct.pct OPERATOR(pg_catalog.>) 0
               AND check_cache_miss_pct.pct OPERATOR(pg_catalog.<=) 100) THEN
        RAISE EXCEPTION 'argument "cache_miss_pct" must be above 0 and at most 100, not %',
                        coalesce(check_cache_miss_pct.pct::text, 'null')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN check_cache_miss_pct.pct;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_cache_miss_pct(double precision) IS 'check argument cache_miss_pct of tune_tablespace()';

-- tune_tablespace()'s query layer: the executor's cold bitmap heap scan
-- (scan_step()) at each effective_io_concurrency the server's read path
-- was measured at (the steps of the body's "effective_io_concurrency"
-- row) and at 1, and a sequential scan at the concurrency of its
-- random_page_cost row, each reading about what the server's run read in
-- "duration".  Returns {"scans": [one object per scan: its pattern,
-- concurrency, pages, seconds, pages per second, blocks read and hit, and
-- not_measured]}, and "error" when a scan ended in one (scan_steps()).
CREATE OR REPLACE FUNCTION iobench_internal.tune_scans(
    spc oid, eic_steps jsonb, rpc_steps jsonb, file_size text, duration interval)
RETURNS jsonb
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH q AS MATERIALIZED (
        SELECT y.pattern, y.value, y.pages, pg_catalog.row_number() OVER (ORDER BY y.ord) AS i
          FROM (SELECT 'randread'::text AS pattern, x.value, pg_catalog.max(x.pages) AS pages,
                       pg_catalog.min(x.ord) AS ord
                  FROM (SELECT (e.s OPERATOR(pg_catalog.->>) 'value')::integer AS value,
                               (e.s OPERATOR(pg_catalog.->>) 'iops')::double precision AS pages, e.i AS ord
                          FROM pg_catalog.jsonb_array_elements(tune_scans.eic_steps) WITH ORDINALITY e(s, i)
                        UNION ALL
                        SELECT 1, (r.s OPERATOR(pg_catalog.->>) 'iops')::double precision, 0
                          FROM pg_catalog.jsonb_array_elements(tune_scans.rpc_steps) r(s)
                         WHERE (r.s OPERATOR(pg_catalog.->>) 'pattern') OPERATOR(pg_catalog.=) 'randread') x
                 GROUP BY x.value
                UNION ALL
                SELECT 'read'::text, (r.s OPERATOR(pg_catalog.->>) 'effective_io_concurrency')::integer,
                       (r.s OPERATOR(pg_catalog.->>) 'mb_per_s')::double precision OPERATOR(pg_catalog.*) 1e6
                       OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::integer,
                       9223372036854775807
                  FROM pg_catalog.jsonb_array_elements(tune_scans.rpc_steps) r(s)
                 WHERE (r.s OPERATOR(pg_catalog.->>) 'pattern') OPERATOR(pg_catalog.=) 'read') y),
    s AS MATERIALIZED (
        SELECT iobench_internal.scan_steps(
                   tune_scans.spc,
                   (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                               'pattern', q.pattern, 'concurrency', q.value,
                               'max_blocks', coalesce(pg_catalog.ceil(q.pages OPERATOR(pg_catalog.*)
                                                          pg_catalog.date_part('epoch', tune_scans.duration))::bigint,
                                                      9223372036854775807)) ORDER BY q.i), '[]')
                      FROM q),
                   tune_scans.file_size,
                   (SELECT pg_catalog.count(DISTINCT (e.s OPERATOR(pg_catalog.->>) 'value'))::integer OPERATOR(pg_catalog.+) 2
                      FROM pg_catalog.jsonb_array_elements(tune_scans.eic_steps) e(s))) AS v)
    SELECT pg_catalog.jsonb_build_object('scans', (
               SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                          'pattern', q.pattern, 'value', q.value, 'pages', f.blocks, 'seconds', f.seconds,
                          'pages_per_s', f.blocks OPERATOR(pg_catalog./) NULLIF(f.seconds, 0),
                          'read_blocks', f.read_blocks, 'hit_blocks', f.hit_blocks,
                          'not_measured', coalesce(x.o OPERATOR(pg_catalog.->>) 'not_measured', f.not_measured))
                          ORDER BY q.i), '[]')
                 FROM q
                 JOIN pg_catalog.jsonb_array_elements(s.v OPERATOR(pg_catalog.->) 'scans') WITH ORDINALITY x(o, i)
                   ON x.i OPERATOR(pg_catalog.=) q.i
                CROSS JOIN LATERAL iobench_internal.scan_plan_figures(
                          q.pattern, NULLIF(x.o OPERATOR(pg_catalog.->) 'plan', 'null'::jsonb)) f))
           OPERATOR(pg_catalog.||)
           CASE WHEN s.v OPERATOR(pg_catalog.?) 'error'
                THEN pg_catalog.jsonb_build_object('error', s.v OPERATOR(pg_catalog.->) 'error')
                ELSE '{}'::jsonb END
      FROM s;
END;
COMMENT ON FUNCTION iobench_internal.tune_scans(oid, jsonb, jsonb, text, interval) IS 'the executor''s cold scans of tune_tablespace(): a bitmap heap scan at each concurrency its runs measured, a sequential scan';

-- tune_tablespace()'s rows with the query layer: effective_io_concurrency
-- from the knee of the bitmap heap scan's pages per second (what a query
-- gets; the margin is the body's, from two runs of the server's read path
-- at its best step), the value in effect kept when within the margin; and
-- random_page_cost from the executor's own costs: a page of a bitmap heap
-- scan at concurrency 1 (a read at a time, as a plain index scan's)
-- against a page of a sequential scan.  maintenance_io_concurrency and
-- io_combine_limit stay the server's read path's (maintenance reads through
-- it without a query's work per row).  Without every scan (a small
-- shared_buffers in use, see scan_step()), the rows stay the read path's
-- and their basis says why.  Last, every row gets the statement that
-- applies its recommendation and when it takes effect (here only:
-- tune_tablespace_runs() leaves both empty).
CREATE OR REPLACE FUNCTION iobench_internal.tune_with_scans(
    tuned iobench.tune_tablespace_row[], scans jsonb, tablespace name, cache_miss_pct double precision)
RETURNS SETOF iobench.tune_tablespace_row
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.tune_tablespace_row;
    out_rows iobench.tune_tablespace_row[] := '{}';
    engine_eic iobench.tune_tablespace_row;
    why text;
    rates jsonb;            -- {"concurrency": pages/s} of the bitmap heap scans
    best double precision;
    spread double precision;
    margin double precision;
    knee integer;
    rec integer;
    keep boolean;
    rnd double precision;   -- pages/s: bitmap heap scan at concurrency 1
    seq double precision;   -- pages/s: sequential scan
    seq_cost double precision;
    rpc numeric;
BEGIN
    SELECT x.* INTO engine_eic FROM pg_catalog.unnest(tune_with_scans.tuned) x
     WHERE x.setting OPERATOR(pg_catalog.=) 'effective_io_concurrency';
    SELECT coalesce(pg_catalog.min(s.v OPERATOR(pg_catalog.->>) 'not_measured'),
                    CASE WHEN pg_catalog.bool_or((s.v OPERATOR(pg_catalog.->>) 'pages_per_s') IS NULL)
                         THEN 'a scan took no measurable time' END),
           pg_catalog.jsonb_object_agg(s.v OPERATOR(pg_catalog.->>) 'value', (s.v OPERATOR(pg_catalog.->>) 'pages_per_s')::double precision)
               FILTER (WHERE (s.v OPERATOR(pg_catalog.->>) 'pattern') OPERATOR(pg_catalog.=) 'randread'),
           pg_catalog.max((s.v OPERATOR(pg_catalog.->>) 'pages_per_s')::double precision)
               FILTER (WHERE (s.v OPERATOR(pg_catalog.->>) 'pattern') OPERATOR(pg_catalog.=) 'read')
      INTO why, rates, seq
      FROM pg_catalog.jsonb_array_elements(coalesce(tune_with_scans.scans, '[]')) s(v);
    IF rates IS NULL OR seq IS NULL THEN
        why := coalesce(why, 'no scan ran');
    END IF;
    IF why IS NOT NULL THEN
        FOREACH r IN ARRAY tune_with_scans.tuned LOOP
            IF r.setting OPERATOR(pg_catalog.=) ANY (ARRAY['effective_io_concurrency', 'random_page_cost']) THEN
                r.basis := r.basis OPERATOR(pg_catalog.||)
                           format('; from the server''s read path alone: the executor''s cold scan could not run (%s)', why);
            END IF;
            out_rows := out_rows OPERATOR(pg_catalog.||) r;
        END LOOP;
    ELSE
        -- the margin of the body: twice the spread of the two runs at the
        -- read path's best step (its figure is their mean), at least 10 %
        SELECT abs(o.first OPERATOR(pg_catalog.-) o.second)
               OPERATOR(pg_catalog./) NULLIF(GREATEST(o.first, o.second), 0)
          INTO spread
          FROM (SELECT 2 OPERATOR(pg_catalog.*) (e.v OPERATOR(pg_catalog.->>) 'figure')::double precision
                       OPERATOR(pg_catalog.-) (e.v OPERATOR(pg_catalog.->>) 'repeat_figure')::double precision AS first,
                       (e.v OPERATOR(pg_catalog.->>) 'repeat_figure')::double precision AS second
                  FROM pg_catalog.jsonb_array_elements(engine_eic.steps) e(v)
                 WHERE e.v OPERATOR(pg_catalog.?) 'repeat_figure') o;
        margin := LEAST(GREATEST(0.10, 2 OPERATOR(pg_catalog.*) coalesce(spread, 0)), 0.5);
        SELECT pg_catalog.max(x.value::double precision) INTO best FROM pg_catalog.jsonb_each_text(rates) x;
        SELECT pg_catalog.min(x.key::integer) INTO knee FROM pg_catalog.jsonb_each_text(rates) x
         WHERE x.value::double precision OPERATOR(pg_catalog.>=) ((1 OPERATOR(pg_catalog.-) margin) OPERATOR(pg_catalog.*) best);
        keep := (rates OPERATOR(pg_catalog.->>) engine_eic.in_effect)::double precision
                OPERATOR(pg_catalog.>=) ((1 OPERATOR(pg_catalog.-) margin) OPERATOR(pg_catalog.*) best);
        rec := CASE WHEN keep THEN engine_eic.in_effect::integer ELSE knee END;
        rnd := (rates OPERATOR(pg_catalog.->>) '1')::double precision;
        seq_cost := (SELECT coalesce(pg_catalog.max(o.option_value),
                                     (SELECT s.reset_val FROM pg_catalog.pg_settings s
                                       WHERE s.name OPERATOR(pg_catalog.=) 'seq_page_cost'))::double precision
                       FROM pg_catalog.pg_tablespace t
                      CROSS JOIN LATERAL pg_catalog.pg_options_to_table(coalesce(t.spcoptions, '{}')) o
                      WHERE t.spcname OPERATOR(pg_catalog.=) tune_with_scans.tablespace
                        AND o.option_name OPERATOR(pg_catalog.=) 'seq_page_cost');
        rpc := pg_catalog.round(GREATEST(seq_cost, seq_cost OPERATOR(pg_catalog.*)
                                         (seq OPERATOR(pg_catalog./) NULLIF(rnd, 0)) OPERATOR(pg_catalog.*)
                                         tune_with_scans.cache_miss_pct OPERATOR(pg_catalog./) 100)::numeric, 2);

        FOREACH r IN ARRAY tune_with_scans.tuned LOOP
            IF r.setting OPERATOR(pg_catalog.=) 'effective_io_concurrency' THEN
                r.recommended := rec::text;
                r.basis := format('%s within %s %% of the best cold bitmap heap scan (%s pages/s), what a query gets; the margin: at least 10 %%, else twice the spread of two runs of the server''s read path at its best step (%s %%); the read path alone: %s',
                                  CASE WHEN keep AND rec OPERATOR(pg_catalog.<>) knee
                                       THEN format('the value in effect (the knee is %s), kept: it is', knee)
                                       ELSE 'the smallest step (the knee)' END,
                                  pg_catalog.round((100 OPERATOR(pg_catalog.*) margin)::numeric, 1),
                                  pg_catalog.round(best::numeric),
                                  pg_catalog.round((100 OPERATOR(pg_catalog.*) coalesce(spread, 0))::numeric, 1),
                                  engine_eic.recommended);
                r.steps := (SELECT pg_catalog.jsonb_agg(e.v OPERATOR(pg_catalog.||)
                                       pg_catalog.jsonb_build_object('scan_pages_per_s',
                                           rates OPERATOR(pg_catalog.->) (e.v OPERATOR(pg_catalog.->>) 'value')) ORDER BY e.i)
                              FROM pg_catalog.jsonb_array_elements(r.steps) WITH ORDINALITY e(v, i));
            ELSIF r.setting OPERATOR(pg_catalog.=) 'random_page_cost' THEN
                r.recommended := rpc::text;
                r.basis := format('seq_page_cost %s x (a page of a cold bitmap heap scan at effective_io_concurrency 1 %s us / of a cold sequential scan %s us = %s) x %s %% of random reads missing the cache, at least seq_page_cost',
                                  seq_cost,
                                  pg_catalog.round((1e6 OPERATOR(pg_catalog./) NULLIF(rnd, 0))::numeric, 1),
                                  pg_catalog.round((1e6 OPERATOR(pg_catalog./) NULLIF(seq, 0))::numeric, 1),
                                  pg_catalog.round((seq OPERATOR(pg_catalog./) NULLIF(rnd, 0))::numeric, 2),
                                  tune_with_scans.cache_miss_pct);
                r.steps := r.steps OPERATOR(pg_catalog.||) (SELECT pg_catalog.jsonb_agg(s.v) FROM pg_catalog.jsonb_array_elements(tune_with_scans.scans) s(v)
                                       WHERE (s.v OPERATOR(pg_catalog.->>) 'pattern') OPERATOR(pg_catalog.=) 'read'
                                          OR (s.v OPERATOR(pg_catalog.->>) 'value') OPERATOR(pg_catalog.=) '1');
            END IF;
            out_rows := out_rows OPERATOR(pg_catalog.||) r;
        END LOOP;
    END IF;

    -- every row: the statement that applies its recommendation, and when
    -- it takes effect; none when there is nothing to apply
    FOREACH r IN ARRAY out_rows LOOP
        IF r.recommended IS NULL THEN
            r.statement := NULL;
            r.applies := 'nothing to apply: not measured';
        ELSIF r.recommended::numeric OPERATOR(pg_catalog.=) r.in_effect::numeric THEN
            r.statement := NULL;
            r.applies := 'nothing to apply: already in effect';
        ELSIF r.setting OPERATOR(pg_catalog.=) 'io_combine_limit' THEN
            r.statement := format('ALTER SYSTEM SET io_combine_limit = %s; SELECT pg_catalog.pg_reload_conf();', r.recommended);
            r.applies := 'on reload: ALTER SYSTEM writes postgresql.auto.conf, pg_reload_conf() makes the server and every session read it (a session or role that SET io_combine_limit keeps its own)';
        ELSE
            r.statement := format('ALTER TABLESPACE %I SET (%s = %s)', tune_with_scans.tablespace, r.setting, r.recommended);
            r.applies := 'at once: a tablespace option, which each new query reads (no reload)';
        END IF;
        RETURN NEXT r;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench_internal.tune_with_scans(iobench.tune_tablespace_row[], jsonb, name, double precision) IS 'tune_tablespace()''s rows with effective_io_concurrency and random_page_cost from the executor''s cold scans';

-- tune_tablespace()'s body in the campaign frame, as the caller: its runs
-- (tune_tablespace_runs()), then, when every run was taken, the
-- executor's scans at the concurrencies they measured (tune_scans()) and
-- the rows from both (tune_with_scans()).  A run's or a scan's error (a
-- cancel above all) is returned for the frame, which keeps the runs
-- taken.  The rows become the call's "result".
CREATE OR REPLACE FUNCTION iobench_internal.tune_tablespace_body(tuning_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH m AS MATERIALIZED (
        SELECT iobench_internal.tune_tablespace_runs(tune_tablespace_body.tuning_id, tune_tablespace_body.plan) AS v),
    t AS MATERIALIZED (
        SELECT ARRAY(SELECT pg_catalog.jsonb_populate_record(NULL::iobench.tune_tablespace_row, e.x)
                       FROM pg_catalog.jsonb_array_elements(m.v OPERATOR(pg_catalog.->) 'rows') WITH ORDINALITY e(x, i)
                      ORDER BY e.i) AS tuned
          FROM m WHERE NOT (m.v OPERATOR(pg_catalog.?) 'error')),
    s AS MATERIALIZED (
        SELECT iobench_internal.tune_scans(
                   (tune_tablespace_body.plan OPERATOR(pg_catalog.->>) 'spc')::oid,
                   (SELECT x.steps FROM pg_catalog.unnest(t.tuned) x
                     WHERE x.setting OPERATOR(pg_catalog.=) 'effective_io_concurrency'),
                   (SELECT x.steps FROM pg_catalog.unnest(t.tuned) x
                     WHERE x.setting OPERATOR(pg_catalog.=) 'random_page_cost'),
                   tune_tablespace_body.plan OPERATOR(pg_catalog.->>) 'file_size',
                   (tune_tablespace_body.plan OPERATOR(pg_catalog.->>) 'duration')::interval) AS v
          FROM t)
    SELECT CASE WHEN m.v OPERATOR(pg_catalog.?) 'error' THEN m.v
                WHEN s.v OPERATOR(pg_catalog.?) 'error'
                THEN pg_catalog.jsonb_build_object('steps', m.v OPERATOR(pg_catalog.->) 'steps',
                                                   'error', s.v OPERATOR(pg_catalog.->) 'error')
                ELSE pg_catalog.jsonb_build_object(
                         'steps', m.v OPERATOR(pg_catalog.->) 'steps', 'status', 'completed',
                         'campaign', pg_catalog.jsonb_build_object('result', (
                             SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(w.*)), '[]')
                               FROM t CROSS JOIN LATERAL iobench_internal.tune_with_scans(
                                        t.tuned, s.v OPERATOR(pg_catalog.->) 'scans',
                                        (tune_tablespace_body.plan OPERATOR(pg_catalog.->>) 'tablespace')::name,
                                        (tune_tablespace_body.plan OPERATOR(pg_catalog.->>) 'cache_miss_pct')::double precision) w))) END
      FROM m LEFT JOIN s ON true;
END;
COMMENT ON FUNCTION iobench_internal.tune_tablespace_body(bigint, jsonb) IS 'tune_tablespace() in the campaign frame: its runs, then the executor''s scans and the rows from both, as the caller';

-- tune_tablespace(): the arguments checked (every check before any run),
-- then the call in the campaign frame, stored as a row of iobench.tunings
-- with its runs; returns the rows it stored.  Bound when created (no role
-- but the owner has USAGE on iobench_internal).
CREATE OR REPLACE FUNCTION iobench.tune_tablespace(
    tablespace     name,
    concurrencies  integer[] DEFAULT '{1,2,4,8,16,32,64,128,256}',
    combine_limits integer[] DEFAULT NULL,
    cache_miss_pct double precision DEFAULT 10,
    duration       interval  DEFAULT '5s',
    file_size      text      DEFAULT '1GB',
    workers        integer   DEFAULT 1,
    label          text      DEFAULT NULL)
RETURNS SETOF iobench.tune_tablespace_row
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT iobench_internal.require_grant('iobench.tune_tablespace(name, integer[], integer[], double precision, interval, text, integer, text)'::pg_catalog.text::pg_catalog.regprocedure);
    WITH p AS MATERIALIZED (
        SELECT pg_catalog.jsonb_build_object(
                   'spc', iobench_internal.server_tuning_check(tune_tablespace.tablespace, tune_tablespace.duration,
                                                               tune_tablespace.file_size, tune_tablespace.workers),
                   'tablespace', tune_tablespace.tablespace,
                   'concurrencies', iobench_internal.server_tuning_steps('concurrencies', tune_tablespace.concurrencies,
                                                                         1, iobench_internal.max_io_concurrency(), true),
                   'combine_limits', iobench_internal.combine_steps(tune_tablespace.combine_limits),
                   'cache_miss_pct', iobench_internal.check_cache_miss_pct(tune_tablespace.cache_miss_pct),
                   'duration', pg_catalog.date_part('epoch', tune_tablespace.duration), 'file_size', tune_tablespace.file_size,
                   'workers', tune_tablespace.workers, 'label', tune_tablespace.label) AS plan)
    SELECT r.*
      FROM p CROSS JOIN LATERAL pg_catalog.jsonb_populate_recordset(NULL::iobench.tune_tablespace_row,
               iobench_internal.tuning_result(iobench_internal.campaign('tune_tablespace',
                   pg_catalog.jsonb_build_object('call', 'tune_tablespace', 'label', tune_tablespace.label,
                                                 'tablespace', tune_tablespace.tablespace,
                                                 'arguments', p.plan OPERATOR(pg_catalog.-) '{spc,tablespace,label}'::pg_catalog.text[]),
                   p.plan, 'iobench_internal.tune_tablespace_body(bigint, jsonb)'::pg_catalog.regprocedure))) r;
END;
COMMENT ON FUNCTION iobench.tune_tablespace(name, integer[], integer[], double precision, interval, text, integer, text) IS 'recommend a tablespace''s effective_io_concurrency, maintenance_io_concurrency and random_page_cost (and io_combine_limit) from cold measurements of the server''s read path; changes nothing';

-- A value for a libpq connection string: in single quotes, with
-- backslashes and single quotes escaped by a backslash (chr 92 and 39).
CREATE OR REPLACE FUNCTION iobench_internal.conninfo_value(v text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.chr(39) OPERATOR(pg_catalog.||)
           pg_catalog.replace(pg_catalog.replace(conninfo_value.v, pg_catalog.chr(92), pg_catalog.repeat(pg_catalog.chr(92), 2)),
                              pg_catalog.chr(39), pg_catalog.chr(92) OPERATOR(pg_catalog.||) pg_catalog.chr(39))
           OPERATOR(pg_catalog.||) pg_catalog.chr(39)
$$;
COMMENT ON FUNCTION iobench_internal.conninfo_value(text) IS 'a value quoted for a libpq connection string';

-- Set the io worker pool of this server to "n" (io_workers on 18,
-- io_min_workers and io_max_workers on 19) or, with n NULL, back to
-- "restore" (the values postgresql.auto.conf had, NULL: none): ALTER
-- SYSTEM over the dblink connection "conn" (it cannot run in a transaction
-- block), then a reload.
CREATE OR REPLACE FUNCTION iobench_internal.set_io_workers(dbl name, conn text, names text[],
                                                           n integer, restore text[])
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    FOR i IN 1 .. pg_catalog.cardinality(set_io_workers.names) LOOP
        EXECUTE format('SELECT %I.dblink_exec($1, $2)', set_io_workers.dbl)
          USING set_io_workers.conn,
                CASE WHEN set_io_workers.n IS NOT NULL
                     THEN format('ALTER SYSTEM SET %I = %s', set_io_workers.names[i], set_io_workers.n)
                     WHEN set_io_workers.restore[i] IS NOT NULL
                     THEN format('ALTER SYSTEM SET %I = %L', set_io_workers.names[i], set_io_workers.restore[i])
                     ELSE format('ALTER SYSTEM RESET %I', set_io_workers.names[i]) END;
    END LOOP;
    PERFORM pg_catalog.pg_reload_conf();
END
$$;
COMMENT ON FUNCTION iobench_internal.set_io_workers(name, text, text[], integer, text[]) IS 'set or restore the io worker pool through ALTER SYSTEM over dblink (sweep_io_workers())';

-- Open the dblink connection "conn" of sweep_io_workers() to this server
-- (closing one of that name first), saying why when it cannot.
CREATE OR REPLACE FUNCTION iobench_internal.sweep_connect(dbl name, conn text, connstr text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    msg text;
    detail text;
BEGIN
    IF sweep_connect.conn OPERATOR(pg_catalog.=) ANY (coalesce(iobench_internal.dblink_connections(sweep_connect.dbl), '{}')) THEN
        EXECUTE format('SELECT %I.dblink_disconnect($1)', sweep_connect.dbl) USING sweep_connect.conn;
    END IF;
    BEGIN
        EXECUTE format('SELECT %I.dblink_connect($1, $2)', sweep_connect.dbl)
          USING sweep_connect.conn, sweep_connect.connstr;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
        RAISE EXCEPTION 'cannot connect to this server through dblink: %', msg
            USING ERRCODE = 'sqlclient_unable_to_establish_sqlconnection',
                  DETAIL = pg_catalog.btrim(coalesce(detail, '') OPERATOR(pg_catalog.||) ' '
                           OPERATOR(pg_catalog.||) format('ALTER SYSTEM cannot run in the transaction of this call; it goes through a connection to %s.', sweep_connect.connstr)),
                  HINT = 'The call connects to this server over its socket as the current user: pg_hba.conf must let it in without a password (peer or trust for local connections), or a password file must hold it.';
    END;
END
$$;
COMMENT ON FUNCTION iobench_internal.sweep_connect(name, text, text) IS 'open the loopback dblink connection of sweep_io_workers()';

-- The runs of sweep_io_workers() in the campaign frame (campaign.c), as
-- the caller (a superuser): "plan" holds the checked arguments, the
-- settings to set ("names"), the schema of dblink ("dbl") and the
-- loopback connection string ("connstr").  For each pool size, the
-- setting goes through ALTER SYSTEM over the loopback connection and a
-- reload, the call waits until the server runs that many io workers (30 s
-- at most), and one run of engine 'postgres' is taken over the same
-- connection (that backend takes the reload before its next statement,
-- this one only after the call: the settings stored with the run are the
-- ones it ran with; the run commits there).  The settings
-- postgresql.auto.conf had are restored at the end, and after an error
-- (a cancel above all), which is returned for the frame with the steps
-- taken before it.  Returns {"steps", "campaign": {"result": [a row per
-- pool size]}}.
CREATE OR REPLACE FUNCTION iobench_internal.sweep_io_workers_body(tuning_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    names text[] := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(plan OPERATOR(pg_catalog.->) 'names'));
    dbl name := plan OPERATOR(pg_catalog.->>) 'dbl';
    connstr text := plan OPERATOR(pg_catalog.->>) 'connstr';
    conn text := 'iobench_sweep_io_workers';
    tag text := coalesce((plan OPERATOR(pg_catalog.->>) 'label') OPERATOR(pg_catalog.||) ' ', '');
    restore text[];
    n integer;
    running integer;
    waited integer;
    new_run_id bigint;
    r iobench.runs;
    measures text;
    taken jsonb := '[]';        -- the rows of iobench.tuning_runs
    out_rows jsonb := '[]';
    err_state text;
    err_message text;
    err_detail text;
    err_hint text;
BEGIN
    -- what postgresql.auto.conf sets now, restored at the end
    restore := ARRAY(SELECT (SELECT f.setting FROM pg_catalog.pg_file_settings f
                              WHERE f.name OPERATOR(pg_catalog.=) u.name
                                AND f.sourcefile OPERATOR(pg_catalog.~~) '%postgresql.auto.conf'
                              ORDER BY f.seqno DESC LIMIT 1)
                       FROM pg_catalog.unnest(names) WITH ORDINALITY u(name, i) ORDER BY u.i);
    PERFORM iobench_internal.sweep_connect(dbl, conn, connstr);

    BEGIN
        FOR n IN SELECT u.v::integer FROM pg_catalog.jsonb_array_elements_text(plan OPERATOR(pg_catalog.->) 'io_workers') u(v) LOOP
            measures := format('sweep_io_workers: %s io workers', n);
            PERFORM iobench_internal.set_io_workers(dbl, conn, names, n, NULL);
            waited := 0;
            LOOP
                PERFORM pg_catalog.pg_stat_clear_snapshot();
                SELECT pg_catalog.count(*) INTO running FROM pg_catalog.pg_stat_activity a
                 WHERE a.backend_type OPERATOR(pg_catalog.=) 'io worker';
                EXIT WHEN running OPERATOR(pg_catalog.=) n;
                IF waited OPERATOR(pg_catalog.>=) 300 THEN
                    RAISE EXCEPTION 'the server runs % io workers, not %, 30 s after the reload', running, n
                        USING ERRCODE = 'object_not_in_prerequisite_state',
                              HINT = 'See the server log for a setting the reload refused.';
                END IF;
                PERFORM pg_catalog.pg_sleep(0.1);
                waited := waited OPERATOR(pg_catalog.+) 1;
            END LOOP;
            EXECUTE format('SELECT t.run_id FROM %I.dblink($1, $2) AS t(run_id bigint)', dbl)
              INTO new_run_id
              USING conn,
                    format('SELECT r.run_id FROM iobench.run(tablespace => %L, rw => %L, block_size => %L, '
                           'workers => %s, duration => %L, file_size => %L, engine => ''postgres'', '
                           'effective_io_concurrency => %s, label => %L) AS r',
                           plan OPERATOR(pg_catalog.->>) 'tablespace', plan OPERATOR(pg_catalog.->>) 'rw',
                           plan OPERATOR(pg_catalog.->>) 'block_size', plan OPERATOR(pg_catalog.->>) 'workers',
                           plan OPERATOR(pg_catalog.->>) 'duration', plan OPERATOR(pg_catalog.->>) 'file_size',
                           coalesce(plan OPERATOR(pg_catalog.->>) 'effective_io_concurrency', 'NULL'),
                           tag OPERATOR(pg_catalog.||) measures);
            SELECT * INTO r FROM iobench.runs x WHERE x.run_id OPERATOR(pg_catalog.=) new_run_id;
            taken := taken OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
                         'step', pg_catalog.jsonb_array_length(taken) OPERATOR(pg_catalog.+) 1,
                         'run_id', r.run_id, 'measures', measures);
            out_rows := out_rows OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
                            'io_workers_set', n, 'io_workers_running', running, 'run_id', r.run_id,
                            'iops', r.iops, 'mb_per_s', r.mb_per_s, 'lat_p99_us', r.lat_p99_us);
        END LOOP;
    EXCEPTION WHEN OTHERS OR query_canceled THEN
        GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_message = MESSAGE_TEXT,
                                err_detail = PG_EXCEPTION_DETAIL, err_hint = PG_EXCEPTION_HINT;
        -- a run may be under way on the connection: cancel it, and restore
        -- over a new connection
        BEGIN
            EXECUTE format('SELECT %I.dblink_cancel_query($1)', dbl) USING conn;
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
        PERFORM iobench_internal.sweep_connect(dbl, conn, connstr);
        PERFORM iobench_internal.set_io_workers(dbl, conn, names, NULL, restore);
        EXECUTE format('SELECT %I.dblink_disconnect($1)', dbl) USING conn;
        RETURN pg_catalog.jsonb_build_object(
            'steps', taken,
            'error', pg_catalog.jsonb_build_object('sqlstate', err_state, 'message', err_message,
                                                   'detail', err_detail, 'hint', err_hint));
    END;
    PERFORM iobench_internal.set_io_workers(dbl, conn, names, NULL, restore);
    EXECUTE format('SELECT %I.dblink_disconnect($1)', dbl) USING conn;
    RETURN pg_catalog.jsonb_build_object('steps', taken, 'status', 'completed',
                                         'campaign', pg_catalog.jsonb_build_object('result', out_rows));
END
$$;
COMMENT ON FUNCTION iobench_internal.sweep_io_workers_body(bigint, jsonb) IS 'the runs of sweep_io_workers(), each at one io worker pool size set over a loopback dblink connection, within the campaign frame';

-- The server's read path at each io worker pool size of "io_workers"
-- (io_method 'worker', PostgreSQL 18+; superuser only): for each value,
-- io_workers (19: io_min_workers and io_max_workers) is set with ALTER
-- SYSTEM over a dblink connection to this server and a reload, the call
-- waits until the server runs that many io workers (30 s at most), and
-- one run of engine 'postgres' measures; the settings postgresql.auto.conf
-- had are restored at the end and on error or cancel.  The call is stored
-- as a row of iobench.tunings with its runs (sweep_io_workers_body()).
CREATE OR REPLACE FUNCTION iobench.sweep_io_workers(
    tablespace   name      DEFAULT 'pg_default',
    io_workers   integer[] DEFAULT '{1,2,4,8,16}',
    rw           text      DEFAULT 'randread',
    block_size   text      DEFAULT '8kB',
    effective_io_concurrency integer DEFAULT NULL,
    duration     interval  DEFAULT '5s',
    file_size    text      DEFAULT '1GB',
    workers      integer   DEFAULT 1,
    label        text      DEFAULT NULL)
RETURNS TABLE (
    io_workers_set integer,
    io_workers_running integer,
    run_id      bigint,
    iops        double precision,
    mb_per_s    double precision,
    lat_p99_us  double precision)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    names text[];
    steps integer[];
    lo integer;
    hi integer;
    dbl name;
    sock text;
    plan jsonb;
BEGIN
    IF NOT (SELECT a.rolsuper FROM pg_catalog.pg_roles a
             WHERE a.rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
        RAISE EXCEPTION 'permission denied to sweep io_workers'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'It changes server settings with ALTER SYSTEM: only superusers may call it.',
                  HINT = pg_catalog.format('Call it as a superuser: no grant to role "%s" (iobench_user or EXECUTE on it) is enough.',
                                           CURRENT_USER);
    END IF;
    names := ARRAY(SELECT s.name FROM pg_catalog.pg_settings s
                    WHERE s.name OPERATOR(pg_catalog.=) ANY ('{io_workers,io_min_workers,io_max_workers}')
                      AND NOT (s.name OPERATOR(pg_catalog.=) 'io_workers'
                               AND EXISTS (SELECT FROM pg_catalog.pg_settings m
                                            WHERE m.name OPERATOR(pg_catalog.=) 'io_min_workers'))
                    ORDER BY s.name DESC);
    IF pg_catalog.cardinality(names) OPERATOR(pg_catalog.=) 0 THEN
        RAISE EXCEPTION 'sweep_io_workers() needs PostgreSQL 18 or later'
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'This server has no io workers: asynchronous I/O and its io_method came in PostgreSQL 18.';
    END IF;
    IF pg_catalog.current_setting('io_method') OPERATOR(pg_catalog.<>) 'worker' THEN
        RAISE EXCEPTION 'sweep_io_workers() needs io_method ''worker'', not ''%''',
                        pg_catalog.current_setting('io_method')
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Only io_method ''worker'' reads through io workers.',
                  HINT = 'io_method takes a restart: ALTER SYSTEM SET io_method = ''worker'' and restart the server, or compare methods with one cluster per method.';
    END IF;
    PERFORM iobench_internal.server_tuning_check(sweep_io_workers.tablespace, sweep_io_workers.duration,
                                                 sweep_io_workers.file_size, sweep_io_workers.workers);
    SELECT GREATEST(pg_catalog.max(s.min_val::integer), 1), pg_catalog.min(s.max_val::integer)
      INTO lo, hi
      FROM pg_catalog.pg_settings s WHERE s.name OPERATOR(pg_catalog.=) ANY (names);
    steps := iobench_internal.server_tuning_steps('io_workers', sweep_io_workers.io_workers, lo, hi, false);
    SELECT ns.nspname INTO dbl
      FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace ns ON ns.oid OPERATOR(pg_catalog.=) e.extnamespace
     WHERE e.extname OPERATOR(pg_catalog.=) 'dblink';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'extension "dblink" is not installed'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'ALTER SYSTEM cannot run inside the transaction of this call: it goes through a dblink connection to this server.',
                  HINT = 'CREATE EXTENSION dblink.';
    END IF;
    -- a loopback connection: this database, as this user, over the first
    -- Unix socket (or localhost when there is none)
    sock := pg_catalog.btrim(pg_catalog.split_part(pg_catalog.current_setting('unix_socket_directories'), ',', 1));
    plan := pg_catalog.jsonb_build_object(
                'tablespace', sweep_io_workers.tablespace, 'io_workers', steps, 'rw', sweep_io_workers.rw,
                'block_size', sweep_io_workers.block_size,
                'effective_io_concurrency', sweep_io_workers.effective_io_concurrency,
                'duration', pg_catalog.date_part('epoch', sweep_io_workers.duration), 'file_size', sweep_io_workers.file_size,
                'workers', sweep_io_workers.workers, 'label', sweep_io_workers.label,
                'names', names, 'dbl', dbl,
                'connstr', format('host=%s port=%s dbname=%s user=%s',
                      iobench_internal.conninfo_value(CASE WHEN sock OPERATOR(pg_catalog.=) '' THEN 'localhost' ELSE sock END),
                      pg_catalog.current_setting('port'),
                      iobench_internal.conninfo_value(pg_catalog.current_database()),
                      iobench_internal.conninfo_value(CURRENT_USER)));
    RETURN QUERY
    SELECT x.io_workers_set, x.io_workers_running, x.run_id, x.iops, x.mb_per_s, x.lat_p99_us
      FROM pg_catalog.jsonb_to_recordset(iobench_internal.tuning_result(iobench_internal.campaign('sweep_io_workers',
               pg_catalog.jsonb_build_object('call', 'sweep_io_workers', 'label', sweep_io_workers.label,
                                             'tablespace', sweep_io_workers.tablespace,
                                             'arguments', plan OPERATOR(pg_catalog.-) '{tablespace,label,names,dbl,connstr}'::pg_catalog.text[]),
               plan, 'iobench_internal.sweep_io_workers_body(bigint, jsonb)'::pg_catalog.regprocedure)))
           AS x(io_workers_set integer, io_workers_running integer, run_id bigint, iops double precision,
                mb_per_s double precision, lat_p99_us double precision);
END
$$;
COMMENT ON FUNCTION iobench.sweep_io_workers(name, integer[], text, text, integer, interval, text, integer, text) IS 'the server''s read path at each io worker pool size (io_method worker, 18+, superuser): set through ALTER SYSTEM over dblink, restored at the end';
