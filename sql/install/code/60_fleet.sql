-- Running on many servers from one session: a workload (fleet_run) or a
-- suite (fleet_suite) on a list of foreign servers, all at once or one
-- after another, through contrib dblink; each run is stored on its own
-- server and gathered here with export_runs() / import_runs().  A call
-- is a campaign (15_campaign.sql): its row of iobench.fleets and its
-- rows of fleet_runs are stored by the frame.
--
-- Servers are named as foreign servers (CREATE SERVER ... FOREIGN DATA
-- WRAPPER postgres_fdw or dblink_fdw), so passwords stay in the user
-- mappings.  Everything runs as the caller: dblink connects with the
-- caller's user mapping, and the remote server checks the remote role's
-- own rights; nothing here widens them.

-- Check the servers of a fleet call before anything is sent: each is a
-- foreign server the caller may use and has a user mapping for.  Returns
-- the schema of dblink, through which the calls go.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_check(servers text[])
RETURNS name
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s text;
    dbl name;
BEGIN
    IF fleet_check.servers IS NULL OR cardinality(fleet_check.servers) = 0 THEN
        RAISE EXCEPTION 'argument "servers" must name at least one foreign server'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(fleet_check.servers, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "servers" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.s INTO s FROM unnest(fleet_check.servers) u(s) GROUP BY u.s HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'server "%" is named more than once in argument "servers"', s
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT n.nspname INTO dbl
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'dblink';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'extension "dblink" is not installed'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Runs on other servers go through dblink: CREATE EXTENSION dblink.';
    END IF;
    -- storing here: checked before anything is sent
    IF NOT iobench_internal.holds_grant('iobench.import_runs(jsonb, text)'::regprocedure) THEN
        RAISE EXCEPTION 'permission denied to store the runs of a fleet call'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'The owner of iobench grants EXECUTE on iobench.import_runs(jsonb, text) with fleet_run() and fleet_suite().';
    END IF;
    FOREACH s IN ARRAY fleet_check.servers LOOP
        IF NOT EXISTS (SELECT FROM pg_foreign_server f WHERE f.srvname = s) THEN
            RAISE EXCEPTION 'foreign server "%" does not exist', s
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Servers are named as foreign servers: CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...).';
        END IF;
        IF NOT has_server_privilege(s, 'USAGE') THEN
            RAISE EXCEPTION 'permission denied for foreign server %', s
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT EXISTS (SELECT FROM pg_user_mappings m
                        WHERE m.srvname = s AND m.usename IN (current_user, 'public')) THEN
            RAISE EXCEPTION 'user mapping not found for user "%", server "%"', current_user, s
                USING ERRCODE = 'undefined_object',
                      HINT = format('CREATE USER MAPPING FOR %I SERVER %I OPTIONS (user ..., password ...).', current_user, s);
        END IF;
    END LOOP;
    RETURN dbl;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_check(text[]) IS 'check the foreign servers of a fleet call; returns dblink''s schema';

-- The iobench.run() arguments of a workload as named notation for the
-- remote call: every key must be an argument of run() (start_at is the
-- fleet's own), every value a JSON scalar.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_arguments(settings jsonb)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    k text;
    args text[];
BEGIN
    IF fleet_arguments.settings IS NULL OR jsonb_typeof(fleet_arguments.settings) <> 'object' THEN
        RAISE EXCEPTION 'argument "settings" must be a JSON object of iobench.run() arguments'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For example {"rw": "randread", "block_size": "8kB", "duration": "10s"}.';
    END IF;
    SELECT p.proargnames INTO args FROM pg_proc p
     WHERE p.oid = 'iobench.run'::regproc;
    SELECT e.key INTO k FROM jsonb_each(fleet_arguments.settings) e
     WHERE NOT e.key = ANY (args) OR e.key = 'start_at' OR jsonb_typeof(e.value) IN ('object', 'array')
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" is not a valid key of argument "settings"', k
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Keys are arguments of iobench.run() other than start_at, values JSON strings, numbers, booleans or null.',
                  HINT = format('Valid keys are %s.', (SELECT string_agg(a, ', ') FROM unnest(args) a WHERE a <> 'start_at'));
    END IF;
    RETURN coalesce((SELECT string_agg(format('%I => %L', e.key, e.value #>> '{}'), ', ' ORDER BY e.key)
                       FROM jsonb_each(fleet_arguments.settings) e), '');
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_arguments(jsonb) IS 'the run() arguments of a fleet workload as named notation, checked';

-- The body of a fleet call, run by the campaign frame (15_campaign.sql)
-- as the caller: each test of the plan's "tests" (a JSON array of
-- {test_no, test, settings}) on every server of "servers", concurrently
-- (all servers start their workers at one start_at, start_delay after the
-- test is sent) or one server after another; the runs are gathered here.
-- Returns the steps (the rows of iobench.fleet_runs) for the frame to
-- store.  A server that cannot be reached or fails a test gives a row with
-- its error.  A cancel while waiting cancels the runs on every server;
-- their partial runs are gathered and the cancel is returned as the
-- step's error, which the frame raises after keeping the call, cancelled.
-- One function of some 200 lines, with a reason: the per-server state
-- (connections, pending queries, results) lives in arrays that PL/pgSQL
-- cannot share between functions, and a cancel must be caught where the
-- loop waits; connecting, gathering and cancelling are helpers.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_body(fleet_id bigint, plan jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p_servers text[] := ARRAY(SELECT x.s FROM jsonb_array_elements_text(fleet_body.plan -> 'servers')
                                         WITH ORDINALITY AS x(s, o) ORDER BY x.o);
    p_tests jsonb := fleet_body.plan -> 'tests';
    p_concurrent boolean := (fleet_body.plan ->> 'concurrent')::boolean;
    p_start_delay interval := (fleet_body.plan ->> 'start_delay')::interval;
    dbl name := iobench_internal.fleet_check(p_servers);
    n integer := cardinality(p_servers);
    conn text[];
    connected boolean[];
    pid integer[];
    pending boolean[];
    rid bigint[];
    rdoc jsonb[];               -- a run a server returned without storing it (a hot standby)
    go timestamptz[];
    err text[];
    rerr text[];                -- the error of a run stored all the same
    state text[];
    sent timestamptz[];
    rows jsonb := '[]';
    t record;
    batch integer[];
    b integer;
    i integer;
    busy integer;
    q text;
    v text;
    local_id bigint;
    got_doc jsonb;
    t_start timestamptz;
    first_go timestamptz;
    next_note timestamptz;
    cancel_at timestamptz;
    cancelled boolean := false;
    cancel_msg text;
    ntests integer := jsonb_array_length(p_tests);
    code text;
    msg text;
    ctxt text;
    det text;
BEGIN
    FOR i IN 1 .. n LOOP
        conn[i] := format('iobench_fleet_%s', i);
        connected[i] := false;
    END LOOP;

    BEGIN
    <<tests>>
    FOR t IN SELECT (x.value ->> 'test_no')::integer AS no, x.value ->> 'test' AS name,
                    iobench_internal.fleet_arguments(x.value -> 'settings') AS args
               FROM jsonb_array_elements(p_tests) x ORDER BY 1 LOOP
        EXIT tests WHEN cancelled;
        -- concurrent: one batch of every server; otherwise one batch per server
        FOR b IN 1 .. CASE WHEN p_concurrent THEN 1 ELSE n END LOOP
            EXIT WHEN cancelled;
            batch := CASE WHEN p_concurrent THEN (SELECT array_agg(g) FROM generate_series(1, n) g)
                          ELSE ARRAY[b] END;
            -- connect (again, after a failure), then send with one start time
            FOREACH i IN ARRAY batch LOOP
                rid[i] := NULL; rdoc[i] := NULL; go[i] := NULL; err[i] := NULL; rerr[i] := NULL; pending[i] := false;
                BEGIN
                    IF NOT connected[i] THEN
                        pid[i] := iobench_internal.fleet_connect(dbl, conn[i], p_servers[i]);
                        connected[i] := true;
                    END IF;
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE, det = PG_EXCEPTION_DETAIL;
                    -- dblink puts libpq's reason ("connection refused") in the DETAIL
                    err[i] := concat_ws(': ', msg, nullif(btrim(det, E' \n'), ''));
                    PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                    connected[i] := false;
                    rows := rows || jsonb_build_object('server', p_servers[i], 'test_no', t.no,
                                                       'test', t.name, 'error', err[i], 'sqlstate', code);
                END;
            END LOOP;
            t_start := CASE WHEN p_concurrent THEN clock_timestamp() + p_start_delay END;
            FOREACH i IN ARRAY batch LOOP
                CONTINUE WHEN NOT connected[i];
                BEGIN
                    -- a run not stored there (a hot standby) comes back as a document
                    q := format('SELECT r.run_id, r.status, r.go_at, '
                                'CASE WHEN r.run_id IS NULL THEN iobench.export_run_row(r) END '
                                'FROM iobench.run(%s) AS r',
                                concat_ws(', ', nullif(t.args, ''),
                                          CASE WHEN t_start IS NOT NULL THEN format('start_at => %L', t_start) END));
                    EXECUTE format('SELECT %I.dblink_send_query($1, $2)', dbl) USING conn[i], q INTO busy;
                    IF busy <> 1 THEN
                        EXECUTE format('SELECT %I.dblink_error_message($1)', dbl) USING conn[i] INTO v;
                        RAISE EXCEPTION '%', v USING ERRCODE = 'connection_failure';
                    END IF;
                    pending[i] := true;
                    sent[i] := clock_timestamp();
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE;
                    err[i] := msg;
                    PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                    connected[i] := false;
                    rows := rows || jsonb_build_object('server', p_servers[i], 'test_no', t.no,
                                                       'test', t.name, 'start_at', t_start,
                                                       'error', err[i], 'sqlstate', code);
                END;
            END LOOP;

            -- wait for the batch, a progress NOTICE a second, cancel passed on;
            -- each pass is one block, so that a cancel is caught wherever in
            -- the pass it arrives, the tests of the loop included
            next_note := clock_timestamp() + '1s';
            <<wait>>
            LOOP
                BEGIN
                    EXIT wait WHEN NOT EXISTS (SELECT FROM unnest(batch) x(k) WHERE pending[x.k]);
                    FOREACH i IN ARRAY batch LOOP
                        CONTINUE WHEN NOT pending[i];
                        BEGIN
                            EXECUTE format('SELECT %I.dblink_is_busy($1)', dbl) USING conn[i] INTO busy;
                            IF busy = 0 THEN
                                EXECUTE format('SELECT t.run_id, t.go_at, t.doc FROM %I.dblink_get_result($1) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO local_id, first_go, got_doc;
                                EXECUTE format('SELECT count(*) FROM %I.dblink_get_result($1) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO busy;
                                rid[i] := local_id;
                                rdoc[i] := CASE WHEN local_id IS NULL THEN got_doc END;
                                go[i] := first_go;
                                pending[i] := false;
                            ELSIF cancel_at IS NOT NULL AND clock_timestamp() > cancel_at + '10s' THEN
                                RAISE EXCEPTION 'the server did not stop within 10 s of the cancel' USING ERRCODE = 'connection_exception';
                            END IF;
                        EXCEPTION WHEN OTHERS OR query_canceled THEN
                            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE,
                                                    ctxt = PG_EXCEPTION_CONTEXT, det = PG_EXCEPTION_DETAIL;
                            IF code = '57014' AND strpos(ctxt, 'on dblink connection named') = 0 THEN
                                -- our own cancel, not the server's error: cancel them all
                                IF cancel_at IS NULL THEN
                                    cancel_at := clock_timestamp();
                                    cancelled := true;
                                    cancel_msg := msg;
                                    PERFORM iobench_internal.fleet_cancel(dbl, conn, p_servers, pid, pending);
                                END IF;
                                CONTINUE;
                            END IF;
                            err[i] := msg;
                            pending[i] := false;
                            -- a run that ended in an error (a cancel, a failed worker) is
                            -- stored there all the same, and the DETAIL names it: gather it
                            rid[i] := substring(det FROM 'The partial run is stored as run ([0-9]+) ')::bigint;
                            IF rid[i] IS NOT NULL THEN
                                rerr[i] := CASE WHEN NOT (cancel_at IS NOT NULL AND code = '57014') THEN msg END;
                                -- the end of the failed query, before the connection serves again
                                EXECUTE format('SELECT count(*) FROM %I.dblink_get_result($1, false) AS t(run_id bigint, status text, go_at timestamptz, doc jsonb)', dbl)
                                    USING conn[i] INTO busy;
                                CONTINUE;
                            END IF;
                            PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
                            connected[i] := false;
                            rows := rows || jsonb_build_object('server', p_servers[i], 'test_no', t.no,
                                                               'test', t.name, 'start_at', t_start,
                                                               'error', err[i], 'sqlstate', code);
                        END;
                    END LOOP;
                    EXIT wait WHEN NOT EXISTS (SELECT FROM unnest(batch) x(k) WHERE pending[x.k]);
                    IF clock_timestamp() >= next_note THEN
                        next_note := next_note + '1s';
                        RAISE NOTICE '%', format('fleet test %s of %s "%s": %s', t.no, ntests, t.name,
                            (SELECT string_agg(format('%s %s', p_servers[x.k],
                                CASE WHEN err[x.k] IS NOT NULL THEN 'failed'
                                     WHEN NOT pending[x.k] THEN 'done'
                                     WHEN cancel_at IS NOT NULL THEN 'cancelling'
                                     WHEN t_start IS NOT NULL AND clock_timestamp() < t_start THEN 'preparing'
                                     ELSE format('running %s s', round(extract(epoch FROM clock_timestamp()
                                                 - coalesce(t_start, sent[x.k]))::numeric, 1)) END), ', ')
                               FROM unnest(batch) x(k)));
                    END IF;
                    PERFORM pg_sleep(0.05);  -- polls only; the start is each server's own
                EXCEPTION WHEN query_canceled THEN
                    IF cancel_at IS NULL THEN
                        GET STACKED DIAGNOSTICS cancel_msg = MESSAGE_TEXT;
                        cancel_at := clock_timestamp();
                        cancelled := true;
                        PERFORM iobench_internal.fleet_cancel(dbl, conn, p_servers, pid, pending);
                    END IF;
                END;
            END LOOP wait;

            -- gather the runs of the batch and record their start skew
            first_go := NULL;
            SELECT min(go[x.k]) INTO first_go FROM unnest(batch) x(k)
             WHERE rid[x.k] IS NOT NULL OR rdoc[x.k] IS NOT NULL;
            FOREACH i IN ARRAY batch LOOP
                -- a server that failed has its row already; one that answered
                -- with no run at all gets one too: none is dropped silently
                IF rid[i] IS NULL AND rdoc[i] IS NULL THEN
                    IF err[i] IS NULL THEN
                        rows := rows || jsonb_build_object('server', p_servers[i], 'test_no', t.no,
                            'test', t.name, 'start_at', t_start, 'go_at', go[i],
                            'error', 'the server returned no run', 'sqlstate', '22023');
                    END IF;
                    CONTINUE;
                END IF;
                BEGIN
                    rows := rows || (CASE WHEN rid[i] IS NULL
                                          THEN iobench_internal.fleet_import(rdoc[i], NULL, p_servers[i])
                                          ELSE iobench_internal.fleet_gather(dbl, conn[i], rid[i], p_servers[i]) END
                        || jsonb_strip_nulls(jsonb_build_object(
                               'test_no', t.no, 'test', t.name, 'start_at', t_start, 'go_at', go[i],
                               'skew_us', extract(epoch FROM go[i] - first_go) * 1e6,
                               'error', rerr[i])));
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, code = RETURNED_SQLSTATE;
                    err[i] := msg;
                    rows := rows || jsonb_build_object('server', p_servers[i], 'test_no', t.no,
                        'test', t.name, 'remote_run_id', rid[i], 'start_at', t_start, 'go_at', go[i],
                        'error', format('could not gather run %s: %s', coalesce(rid[i]::text, '(not stored there)'), err[i]),
                        'sqlstate', code);
                END;
            END LOOP;
        END LOOP;
    END LOOP;
    EXCEPTION WHEN query_canceled THEN
        -- cancelled outside the wait (connecting, sending, gathering): stop
        -- every server still running (once), then give up
        IF cancel_at IS NULL THEN
            PERFORM iobench_internal.fleet_cancel(dbl, conn, p_servers, pid, pending);
        END IF;
        FOR i IN 1 .. n LOOP
            PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
        END LOOP;
        RAISE;
    END;

    FOR i IN 1 .. n LOOP
        PERFORM iobench_internal.fleet_drop(dbl, conn[i]);
    END LOOP;
    -- a cancel fails the call with 57014, as any statement's, once the frame
    -- has kept it with the partial runs gathered
    RETURN jsonb_build_object(
        'steps', rows,
        'status', CASE WHEN cancelled THEN 'cancelled' ELSE 'completed' END,
        'error', CASE WHEN cancelled THEN jsonb_build_object(
            'sqlstate', '57014', 'message', cancel_msg,
            'detail', 'The runs on every server were cancelled; their partial runs were gathered with status "cancelled" and the tests not begun were skipped.') END);
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_body(bigint, jsonb) IS 'the runs of a fleet call on its servers, taken and gathered as the caller within the campaign frame';

-- A fleet call's rows (iobench.fleet_result), read as the owner (a caller
-- making fleet calls need not read iobench.runs) by a volatile function,
-- so that they are seen from the statement that stored them.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_rows(fleet_id bigint)
RETURNS SETOF iobench.fleet_result
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT fr.fleet_id, fr.server, fr.test_no, fr.test,
           COALESCE(r.status, 'failed'), fr.run_id, fr.remote_run_id,
           pg_catalog.round(r.iops::pg_catalog.numeric, 1), pg_catalog.round(r.mb_per_s::pg_catalog.numeric, 2),
           pg_catalog.round(r.lat_p99_us::pg_catalog.numeric, 1),
           fr.start_at, fr.go_at, pg_catalog.round((fr.skew_us OPERATOR(pg_catalog./) 1000)::pg_catalog.numeric, 3),
           fr.error
      FROM iobench.fleet_runs fr
      JOIN iobench.fleets f ON f.fleet_id OPERATOR(pg_catalog.=) fr.fleet_id
      LEFT JOIN iobench.runs r ON r.run_id OPERATOR(pg_catalog.=) fr.run_id
     WHERE fr.fleet_id OPERATOR(pg_catalog.=) fleet_rows.fleet_id
     ORDER BY fr.test_no, pg_catalog.array_position(f.servers, fr.server);
END;
COMMENT ON FUNCTION iobench_internal.fleet_rows(bigint) IS 'a fleet call''s rows, per test and server';

-- The engine of fleet_run() and fleet_suite(): the arguments and the
-- servers checked, then the call made in the campaign frame (its row and
-- steps stored, a cancel raised as 57014 after the call is kept) with
-- fleet_body(); one row per test and server.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_execute(suite text, tests jsonb, servers text[],
                                                 concurrent boolean, start_delay interval,
                                                 label text, settings jsonb)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    fid bigint;
BEGIN
    IF fleet_execute.concurrent IS NULL THEN
        RAISE EXCEPTION 'argument "concurrent" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF fleet_execute.concurrent AND (fleet_execute.start_delay IS NULL
       OR fleet_execute.start_delay < '0s' OR fleet_execute.start_delay > '1h') THEN
        RAISE EXCEPTION '"%" is out of range for argument "start_delay"', fleet_execute.start_delay
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Valid values are between 0 seconds and 1 hour.';
    END IF;
    PERFORM iobench_internal.fleet_check(fleet_execute.servers);
    fid := iobench_internal.campaign(
        CASE WHEN fleet_execute.suite IS NULL THEN 'fleet_run' ELSE 'fleet_suite' END,
        jsonb_build_object(
            'suite', fleet_execute.suite, 'settings', fleet_execute.settings,
            'servers', to_jsonb(fleet_execute.servers), 'concurrent', fleet_execute.concurrent,
            'start_delay', CASE WHEN fleet_execute.concurrent THEN fleet_execute.start_delay END,
            'label', fleet_execute.label),
        jsonb_build_object(
            'tests', fleet_execute.tests, 'servers', to_jsonb(fleet_execute.servers),
            'concurrent', fleet_execute.concurrent, 'start_delay', fleet_execute.start_delay),
        'iobench_internal.fleet_body(bigint, jsonb)'::regprocedure);
    RETURN QUERY SELECT * FROM iobench_internal.fleet_rows(fid);
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb) IS 'run tests on many servers in the campaign frame and return the gathered runs (the engine of fleet_run() and fleet_suite())';

-- Open a fleet call's dblink connection to a foreign server (closing a
-- connection of that name left by an earlier call), pin its search_path
-- and check that iobench is installed there.  Returns the pid of the
-- session there, to cancel it by.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_connect(dbl name, conn text, server text)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v text;
BEGIN
    PERFORM iobench_internal.fleet_drop(fleet_connect.dbl, fleet_connect.conn);
    EXECUTE format('SELECT %I.dblink_connect($1, $2)', fleet_connect.dbl)
        USING fleet_connect.conn, fleet_connect.server;
    EXECUTE format('SELECT %I.dblink_exec($1, $2)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SET search_path = pg_catalog, pg_temp';
    EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SELECT extversion FROM pg_catalog.pg_extension WHERE extname = ''iobench''' INTO v;
    IF v IS NULL THEN
        RAISE EXCEPTION 'extension "iobench" is not installed there' USING ERRCODE = 'undefined_object';
    END IF;
    EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_connect.dbl)
        USING fleet_connect.conn, 'SELECT pg_catalog.pg_backend_pid()' INTO v;
    RETURN v::integer;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_connect(name, text, text) IS 'open a fleet call''s dblink connection to a foreign server';

-- Store the run a server of a fleet call answered with, under its name:
-- a document of export_runs() for its run remote_run_id, or, from a server
-- that could not store the run (a hot standby: remote_run_id NULL), of
-- export_run_row().  Returns the fleet row's part that the run gives:
-- server, run_id (here), remote_run_id and its headline figures.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_import(doc jsonb, remote_run_id bigint, server text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    run jsonb;
    local_id bigint;
    fresh boolean;
BEGIN
    -- the server's answer is untrusted: one run, the one asked for
    run := fleet_import.doc -> 'runs' -> 0 -> 'run';
    IF jsonb_typeof(fleet_import.doc -> 'runs') IS DISTINCT FROM 'array' OR jsonb_array_length(fleet_import.doc -> 'runs') <> 1
       OR (run ->> 'run_id') IS DISTINCT FROM fleet_import.remote_run_id::text THEN
        RAISE EXCEPTION 'the server answered with a document that does not hold its run % alone', fleet_import.remote_run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT m.run_id, m.imported INTO local_id, fresh FROM iobench.import_runs(fleet_import.doc, fleet_import.server) m;
    -- a run stored already must be that server's own run, gathered before,
    -- or the run itself when the server is this database (a loopback):
    -- never another run its run_uuid names
    IF NOT fresh AND NOT EXISTS (
            SELECT FROM iobench.runs r
             WHERE r.run_id = local_id
               AND ((r.server = fleet_import.server AND r.origin_run_id = fleet_import.remote_run_id)
                    OR (r.imported_at IS NULL AND r.run_id = fleet_import.remote_run_id
                        AND r.system_identifier = (SELECT c.system_identifier::numeric
                                                          + CASE WHEN c.system_identifier < 0 THEN 18446744073709551616 ELSE 0 END
                                                     FROM pg_control_system() c)))) THEN
        RAISE EXCEPTION 'the server answered with run_uuid % of a run that is not its run %',
                        run ->> 'run_uuid', fleet_import.remote_run_id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A server of a fleet can add its own runs here, never name another run.';
    END IF;
    RETURN jsonb_build_object('server', fleet_import.server, 'run_id', local_id,
                              'remote_run_id', fleet_import.remote_run_id, 'go_at', run -> 'go_at',
                              'status', run -> 'status', 'iops', run -> 'iops',
                              'mb_per_s', run -> 'mb_per_s', 'lat_p99_us', run -> 'lat_p99_us');
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_import(jsonb, bigint, text) IS 'store the run a server of a fleet call answered with';

-- Gather one run from a server of a fleet call: export it there, import
-- it here under the server's name (iobench_internal.fleet_import()).
CREATE OR REPLACE FUNCTION iobench_internal.fleet_gather(dbl name, conn text, remote_run_id bigint, server text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    doc jsonb;
BEGIN
    EXECUTE format('SELECT t.doc FROM %I.dblink($1, $2) AS t(doc jsonb)', fleet_gather.dbl)
        USING fleet_gather.conn,
              format('SELECT iobench.export_runs(ARRAY[%s]::bigint[])', fleet_gather.remote_run_id) INTO doc;
    RETURN iobench_internal.fleet_import(doc, fleet_gather.remote_run_id, fleet_gather.server);
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_gather(name, text, bigint, text) IS 'gather one run of a fleet call from its server';

-- Close a dblink connection of a fleet call if it is open.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_drop(dbl name, conn text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF fleet_drop.conn = ANY (coalesce(iobench_internal.dblink_connections(fleet_drop.dbl), '{}')) THEN
        EXECUTE format('SELECT %I.dblink_disconnect($1)', fleet_drop.dbl) USING fleet_drop.conn;
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_drop(name, text) IS 'close a dblink connection of a fleet call if it is open';

-- Cancel the statements running on the dblink connections of a fleet call
-- that are pending: conn, servers, pid and pending are fleet_execute()'s
-- arrays, one element per server.  The cancel goes through a
-- second connection to the server as pg_cancel_backend(pid), which sends
-- one SIGINT: a protocol cancel request (dblink_cancel_query(), like
-- psql's Ctrl-C) arrives as two, since the postmaster signals the backend
-- and its process group, and the second can land while run() is handing
-- its partial run over to be stored.  Where that connection fails,
-- dblink_cancel_query() is the fallback.
CREATE OR REPLACE FUNCTION iobench_internal.fleet_cancel(dbl name, conn text[], servers text[],
                                                pid integer[], pending boolean[])
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c record;
    v text;
BEGIN
    FOR c IN SELECT x.conn, x.server, x.pid
               FROM unnest(fleet_cancel.conn, fleet_cancel.servers, fleet_cancel.pid,
                           fleet_cancel.pending) AS x(conn, server, pid, pending)
              WHERE x.pending
    LOOP
        BEGIN
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
            EXECUTE format('SELECT %I.dblink_connect($1, $2)', fleet_cancel.dbl)
                USING 'iobench_fleet_cancel', c.server;
            EXECUTE format('SELECT t.v FROM %I.dblink($1, $2) AS t(v text)', fleet_cancel.dbl)
                USING 'iobench_fleet_cancel', format('SELECT pg_catalog.pg_cancel_backend(%s)', c.pid) INTO v;
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
        EXCEPTION WHEN OTHERS OR query_canceled THEN
            PERFORM iobench_internal.fleet_drop(fleet_cancel.dbl, 'iobench_fleet_cancel');
            EXECUTE format('SELECT %I.dblink_cancel_query($1)', fleet_cancel.dbl) USING c.conn INTO v;
        END;
    END LOOP;
END
$$;
COMMENT ON FUNCTION iobench_internal.fleet_cancel(name, text[], text[], integer[], boolean[]) IS 'cancel the statements pending on the dblink connections of a fleet call';

-- The names of this session's open dblink connections.
CREATE OR REPLACE FUNCTION iobench_internal.dblink_connections(dbl name)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    names text[];
BEGIN
    EXECUTE format('SELECT %I.dblink_get_connections()', dblink_connections.dbl) INTO names;
    RETURN names;
END
$$;
COMMENT ON FUNCTION iobench_internal.dblink_connections(name) IS 'the names of this session''s open dblink connections';

-- One workload on many servers; settings are iobench.run()'s arguments
-- as a JSON object.  One row per server.
CREATE OR REPLACE FUNCTION iobench.fleet_run(
    servers      text[],
    settings     jsonb    DEFAULT '{}',
    concurrent   boolean  DEFAULT true,
    start_delay  interval DEFAULT '5s',
    label        text     DEFAULT NULL)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s jsonb := coalesce(fleet_run.settings, 'null'::jsonb);
BEGIN
    -- the fleet's steps are internal functions, called as the caller
    IF NOT has_schema_privilege('iobench_internal', 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to make fleet calls'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'The steps of a fleet call are functions of schema iobench_internal, called as the caller.',
                  HINT = format('The owner of iobench grants USAGE on schema iobench_internal with EXECUTE on fleet_run() and fleet_suite(): GRANT USAGE ON SCHEMA iobench_internal TO %s;',
                                quote_ident(CURRENT_USER));
    END IF;
    -- executable by PUBLIC only for this check, which names the grant
    PERFORM iobench_internal.require_grant('iobench.fleet_run(text[], jsonb, boolean, interval, text)'::regprocedure);
    PERFORM iobench_internal.fleet_arguments(s);
    IF fleet_run.label IS NOT NULL THEN
        s := s || jsonb_build_object('label', fleet_run.label);
    END IF;
    RETURN QUERY SELECT * FROM iobench_internal.fleet_execute(NULL, jsonb_build_array(jsonb_build_object(
        'test_no', 1, 'test', coalesce(s ->> 'label', s ->> 'rw', 'randread'), 'settings', s)),
        fleet_run.servers, fleet_run.concurrent, fleet_run.start_delay, fleet_run.label, s);
END
$$;
COMMENT ON FUNCTION iobench.fleet_run(text[], jsonb, boolean, interval, text) IS 'run one workload on many servers, all at once or one after another, and gather the runs';

-- A named suite (iobench.suite_tests, as defined here) on many servers,
-- test by test: with concurrent, every server runs each test at once.
-- One row per server and test.  With engine psync the tests that need
-- io_uring (a queue deeper than 1) are left out, as suite() skips them.
CREATE OR REPLACE FUNCTION iobench.fleet_suite(
    name         text,
    servers      text[],
    tablespace   name     DEFAULT 'pg_default',
    duration     interval DEFAULT '30s',
    warmup       interval DEFAULT '0s',
    file_size    text     DEFAULT '1GB',
    direct       boolean  DEFAULT true,
    engine       text     DEFAULT 'auto',
    seed         bigint   DEFAULT NULL,
    concurrent   boolean  DEFAULT true,
    start_delay  interval DEFAULT '5s',
    label        text     DEFAULT NULL)
RETURNS SETOF iobench.fleet_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    common jsonb;
    tests jsonb;
BEGIN
    -- the fleet's steps are internal functions, called as the caller
    IF NOT has_schema_privilege('iobench_internal', 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to make fleet calls'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'The steps of a fleet call are functions of schema iobench_internal, called as the caller.',
                  HINT = format('The owner of iobench grants USAGE on schema iobench_internal with EXECUTE on fleet_run() and fleet_suite(): GRANT USAGE ON SCHEMA iobench_internal TO %s;',
                                quote_ident(CURRENT_USER));
    END IF;
    -- executable by PUBLIC only for this check, which names the grant
    PERFORM iobench_internal.require_grant('iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint, boolean, interval, text)'::regprocedure);
    IF NOT EXISTS (SELECT FROM iobench.suite_tests t WHERE t.suite = fleet_suite.name) THEN
        RAISE EXCEPTION 'suite "%" does not exist', fleet_suite.name
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Suites are %s.', (SELECT string_agg(DISTINCT format('"%s"', t.suite), ', ')
                                                    FROM iobench.suite_tests t));
    END IF;
    common := jsonb_strip_nulls(jsonb_build_object(
        'tablespace', fleet_suite.tablespace, 'duration', fleet_suite.duration,
        'warmup', fleet_suite.warmup, 'file_size', fleet_suite.file_size,
        'direct', fleet_suite.direct, 'engine', fleet_suite.engine, 'seed', fleet_suite.seed));
    -- the WAL test (sync_method 'wal') takes the WAL writer's settings, as
    -- suite() runs it: run() refuses a size, count, engine or direct that
    -- they would replace, so only its pattern and the common times go
    SELECT jsonb_agg(jsonb_build_object(
               'test_no', t.test_no, 'test', t.test,
               'settings', CASE WHEN t.sync_method = 'wal'
                   THEN (common - ARRAY['file_size', 'direct', 'engine']) || jsonb_build_object(
                       'rw', t.rw, 'sync_method', t.sync_method,
                       'label', concat_ws(': ', coalesce(fleet_suite.label, fleet_suite.name), t.test))
                   ELSE common || jsonb_build_object(
                       'rw', t.rw, 'block_size', t.block_size, 'workers', t.workers,
                       'iodepth', t.iodepth, 'files', t.files, 'fsync_every', t.fsync_every,
                       'sync_method', t.sync_method,
                       'label', concat_ws(': ', coalesce(fleet_suite.label, fleet_suite.name), t.test))
                   END)
           ORDER BY t.test_no)
      INTO tests
      FROM iobench.suite_tests t
     WHERE t.suite = fleet_suite.name
       AND NOT (t.needs_uring AND fleet_suite.engine = 'psync');
    RETURN QUERY SELECT * FROM iobench_internal.fleet_execute(fleet_suite.name, tests, fleet_suite.servers,
        fleet_suite.concurrent, fleet_suite.start_delay, fleet_suite.label, common);
END
$$;
COMMENT ON FUNCTION iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint, boolean, interval, text) IS 'run a named suite on many servers, test by test, and gather the runs';
