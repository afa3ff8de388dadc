-- Installs the extension and the helpers the other tests share.
CREATE EXTENSION iobench;
SELECT extname, extversion FROM pg_extension WHERE extname = 'iobench';

-- Benchmark files left in pg_default's temporary-file directory
CREATE FUNCTION public.leftover_files() RETURNS bigint
LANGUAGE sql AS $$
    SELECT count(*) FROM pg_ls_tmpdir() WHERE name LIKE 'pgsql_tmp%.iobench%'
$$;

-- iobench workers still running, after waiting up to 5 s for them to go
CREATE FUNCTION public.running_workers() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    FOR i IN 1..50 LOOP
        SELECT count(*) INTO n FROM pg_stat_activity
         WHERE backend_type = 'iobench worker';
        EXIT WHEN n = 0;
        PERFORM pg_sleep(0.1);
    END LOOP;
    RETURN n;
END
$$;

-- Runs whose checks need I/O in them.  A shared machine's disk can stall
-- for longer than a test's short run (a device completing nothing for
-- 300 ms has been seen), so public.with_io() runs a query of iobench.runs
-- rows again, up to five times, until every row did each kind of I/O it
-- was asked for (public.did_io(): a run of engine postgres stored
-- "invalid" did its I/O too), and removes the runs of the tries
-- without.  A run that never does its I/O still fails its test.
CREATE FUNCTION public.did_io(r iobench.runs) RETURNS boolean
LANGUAGE sql AS $$
    SELECT r.status IN ('completed', 'invalid') AND r.ops > 0
       AND (r.rw NOT IN ('randrw', 'readwrite') OR (r.read_ops > 0 AND r.write_ops > 0))
       AND (r.rewrite_pct = 0 OR r.write_ops > 0)
       AND (r.fsync_every = 0 OR r.write_ops = 0 OR r.fsync_ops > 0)
$$;

-- The runs of failed tries go, whoever ran them (a definer's function)
CREATE FUNCTION public.forget_runs(ids bigint[]) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    DELETE FROM iobench.runs WHERE run_id = ANY (ids)
$$;

CREATE FUNCTION public.with_io(query text) RETURNS SETOF iobench.runs
LANGUAGE plpgsql AS $$
DECLARE
    r iobench.runs;
    got iobench.runs[];
    stored bigint[];
BEGIN
    FOR i IN 1 .. 5 LOOP
        got := ARRAY[]::iobench.runs[];
        FOR r IN EXECUTE query LOOP
            got := got || r;
        END LOOP;
        EXIT WHEN i = 5 OR (SELECT bool_and(public.did_io(x)) FROM unnest(got) x);
        -- (runs in a read-only transaction have no run_id: nothing to remove)
        stored := ARRAY(SELECT x.run_id FROM unnest(got) x WHERE x.run_id IS NOT NULL);
        IF stored <> '{}' THEN
            PERFORM public.forget_runs(stored);
        END IF;
    END LOOP;
    RETURN QUERY SELECT * FROM unnest(got);
END
$$;

-- A run of rate_iops, again (up to three times) while it fell short of the
-- rate by more than a quarter: a disk stall near the end of a short run
-- leaves the limiter no time to catch up.  A run over its rate is never
-- run again: nothing but a broken limiter makes one.
CREATE FUNCTION public.with_rate(query text) RETURNS SETOF iobench.runs
LANGUAGE plpgsql AS $$
DECLARE
    r iobench.runs;
BEGIN
    FOR i IN 1 .. 3 LOOP
        EXECUTE query INTO STRICT r;
        EXIT WHEN i = 3 OR r.iops >= 0.75 * r.rate_iops;
        IF r.run_id IS NOT NULL THEN
            PERFORM public.forget_runs(ARRAY[r.run_id]);
        END IF;
    END LOOP;
    RETURN NEXT r;
END
$$;

-- with_io() for runs that send a NOTICE each (not stored, or a fallback):
-- the tries' NOTICEs are not shown, so a test shows the NOTICE with a run
-- of its own that checks no I/O figure
CREATE FUNCTION public.with_io_quiet(query text) RETURNS SETOF iobench.runs
LANGUAGE sql SET client_min_messages = warning AS $$
    SELECT * FROM public.with_io(query)
$$;

-- For the wait tests: sessions that block on a lock through dblink
CREATE EXTENSION dblink;
CREATE TABLE public.waits_target (i int);

-- How a dblink session reaches this instance
CREATE FUNCTION public.waits_connstr() RETURNS text
LANGUAGE sql AS $$
    SELECT format('dbname=%s host=%s port=%s', current_database(),
                  split_part(current_setting('unix_socket_directories'), ',', 1),
                  current_setting('port'))
$$;

-- Collect a dblink query's result and the empty one that frees the connection
CREATE FUNCTION public.waits_finish(conn text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    more bigint;
BEGIN
    SELECT count(*) INTO n FROM dblink_get_result(conn) AS t(x text);
    SELECT count(*) INTO more FROM dblink_get_result(conn) AS t(x text);
    RETURN n + more;
END
$$;

-- the objects of the extension
-- Types the server makes by itself (the row types of tables and views, array
-- types) are left out: PostgreSQL 17 and later record them as members too.
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS object
  FROM pg_depend d
 WHERE d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
   AND d.deptype = 'e'
   AND NOT EXISTS (SELECT 1
                     FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
                    WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
                      AND (t.typcategory = 'A' OR c.relkind IN ('r', 'v', 'm', 'p', 'f')))
 ORDER BY 1;

-- For the fleet tests: two foreign servers that reach this instance (as
-- other servers would), and one where nothing listens
DO $$
BEGIN
    EXECUTE format('CREATE SERVER iob_loop_a FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host %L, port %L, dbname %L)',
                   split_part(current_setting('unix_socket_directories'), ',', 1),
                   current_setting('port'), current_database());
    EXECUTE format('CREATE SERVER iob_loop_b FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host %L, port %L, dbname %L)',
                   split_part(current_setting('unix_socket_directories'), ',', 1),
                   current_setting('port'), current_database());
    EXECUTE format('CREATE SERVER iob_nowhere FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host %L, port %L, dbname %L)',
                   split_part(current_setting('unix_socket_directories'), ',', 1),
                   '1', current_database());
END
$$;
CREATE USER MAPPING FOR CURRENT_USER SERVER iob_loop_a;
CREATE USER MAPPING FOR CURRENT_USER SERVER iob_loop_b;
CREATE USER MAPPING FOR CURRENT_USER SERVER iob_nowhere;
