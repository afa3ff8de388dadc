-- Size arguments are parsed by pg_size_bytes() itself: iobench takes every
-- size the server's release takes ('8192B' from PostgreSQL 16 on) and
-- refuses what it refuses, with an error context naming the argument.
\set VERBOSITY default
SET client_min_messages = warning;

-- a call's outcome: 'ok', or the error's message and the context line
-- naming the argument (the server's DETAIL and HINT differ by release)
CREATE FUNCTION pg_temp.outcome(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    msg text;
    ctx text;
BEGIN
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
    RETURN msg || coalesce(' | ' || substring(ctx FROM 'argument "[^"]*", a size between [^\n]*'), '');
END
$$;

-- every entry point takes a size exactly when pg_size_bytes() does: a size
-- taken lets the call go on to a later argument out of range
SELECT s AS size,
       (pg_temp.outcome(format('SELECT pg_catalog.pg_size_bytes(%L)', s)) = 'ok')
       = (pg_temp.outcome(format('SELECT iobench.run(block_size => %L, workers => 0)', s))
          LIKE '0 is out of range for argument "workers"') AS run_block_size,
       (pg_temp.outcome(format('SELECT pg_catalog.pg_size_bytes(%L)', s)) = 'ok')
       = (pg_temp.outcome(format('SELECT iobench.run(file_size => %L, files => 0)', s))
          LIKE '0 is out of range for argument "files"') AS run_file_size,
       (pg_temp.outcome(format('SELECT pg_catalog.pg_size_bytes(%L)', s)) = 'ok')
       = (pg_temp.outcome(format('SELECT iobench.pgiosim(file_size => %L, warmup => ''-1s'')', s))
          LIKE '% is out of range for argument "warmup"') AS pgiosim_file_size
  FROM unnest(ARRAY['8192B', '8192 b', '8kB', '8 KB', '8192', '8192 bytes', ' 8192 ', '8k']) AS s
 ORDER BY s;

-- errors of pg_size_bytes() name the argument
SELECT pg_temp.outcome($$SELECT iobench.run(block_size => '8 kiB')$$);
SELECT pg_temp.outcome($$SELECT iobench.run(file_size => '1 microsecond')$$);
SELECT pg_temp.outcome($$SELECT iobench.run(block_size => '99999999999999999999 PB')$$);
SELECT pg_temp.outcome($$SELECT iobench.pgiosim(file_size => 'big')$$);
SELECT pg_temp.outcome($$SELECT iobench.suite('oltp', ARRAY['pg_default'], file_size => '1 GiB')$$);
SELECT pg_temp.outcome($$SELECT iobench.latency_search('pg_default', block_size => 'x')$$);
-- a size out of range names it itself
SELECT pg_temp.outcome($$SELECT iobench.run(block_size => '1.5 MB', file_size => '1MB')$$);
SELECT pg_temp.outcome($$SELECT iobench.run(block_size => '-8kB')$$);
