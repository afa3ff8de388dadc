-- Every bad argument gets a clear error, and nothing is left behind.
\set VERBOSITY default
SET client_min_messages = warning;
SELECT coalesce(max(run_id), 0) AS runs_before FROM iobench.runs \gset

-- patterns, sizes, counts
SELECT run_id FROM iobench.run(rw => 'bogus');
-- (rw NULL is randread, or the WAL writer's pattern with sync_method 'wal')
SELECT run_id FROM iobench.run(rw => 'randread', sync_method => 'wal');
SELECT run_id FROM iobench.run(rw => 'randrw', sync_method => 'wal', duration => '1s');
-- (issue 35) nor any other setting it sets, nor the engine: refused,
-- naming both, never overridden in silence (the server's wal_sync_method
-- is fdatasync here: a sync after each write)
SELECT run_id FROM iobench.run(sync_method => 'wal', engine => 'io_uring', duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', workers => 4, duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', iodepth => 8, duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', block_size => '4kB', duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', file_size => '64MB', duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', files => 3, duration => '200ms');
SELECT run_id FROM iobench.run(sync_method => 'wal', fsync_every => 8, duration => '200ms');
SELECT run_id FROM iobench.run(block_size => '256');
SELECT run_id FROM iobench.run(block_size => '32MB');
SELECT run_id FROM iobench.run(block_size => '1000');
SELECT run_id FROM iobench.run(block_size => 'eight kB');
SELECT run_id FROM iobench.run(block_size => '');
SELECT run_id FROM iobench.run(block_size => 'abc');
SELECT run_id FROM iobench.run(block_size => '99999999999999999999 PB');
SELECT run_id FROM iobench.run(block_size => '-8kB');
SELECT run_id FROM iobench.run(block_size => 'NaN');
SELECT run_id FROM iobench.run(file_size => '');
SELECT run_id FROM iobench.run(workers => 0);
SELECT run_id FROM iobench.run(workers => 100000);
SELECT run_id FROM iobench.run(workers => NULL);
SELECT run_id FROM iobench.run(iodepth => 0);
SELECT run_id FROM iobench.run(iodepth => 1025);
SELECT run_id FROM iobench.run(iodepth => 4, engine => 'psync');
SELECT run_id FROM iobench.run(iodepth => 1024, block_size => '16MB');
-- 1 GB per worker is allowed, but not 8 GB in all
SELECT run_id FROM iobench.run(workers => 8, iodepth => 128, block_size => '8MB');

-- time
SELECT run_id FROM iobench.run(duration => '0s');
SELECT run_id FROM iobench.run(duration => '-1s');
SELECT run_id FROM iobench.run(duration => '1 microsecond');
SELECT run_id FROM iobench.run(duration => '99ms');
SELECT run_id FROM iobench.run(duration => '8 days');
SELECT run_id FROM iobench.run(warmup => '-1s');
-- months and hours whose microseconds overflow 64 bits and would wrap to 1s
SELECT run_id FROM iobench.run(duration => '10000000 months -2075904423 hours -3489.448384 seconds');
SELECT run_id FROM iobench.run(duration => '100000000 years');

-- files
SELECT run_id FROM iobench.run(file_size => '4kB');
SELECT run_id FROM iobench.run(file_size => '1000000');
SELECT run_id FROM iobench.run(files => 0);
SELECT run_id FROM iobench.run(files => 5000);

-- mixes and syncs
SELECT run_id FROM iobench.run(read_pct => 50);
SELECT run_id FROM iobench.run(rw => 'randrw', read_pct => 101);
SELECT run_id FROM iobench.run(fsync_every => -1);
SELECT run_id FROM iobench.run(fsync_every => 1);
SELECT run_id FROM iobench.run(rw => 'write', sync_method => 'osync');
SELECT run_id FROM iobench.run(sync_method => 'open_datasync');
SELECT run_id FROM iobench.run(rw => 'write', sync_method => 'open_sync', fsync_every => 1);
SELECT run_id FROM iobench.run(engine => 'spdk');
-- tablespace groups
SELECT run_id FROM iobench.run(tablespaces => ARRAY[]::name[]);
SELECT run_id FROM iobench.run(tablespaces => ARRAY[['pg_default'], ['pg_default']]::name[], files => 2);
SELECT run_id FROM iobench.run(tablespaces => ARRAY['pg_default', NULL]::name[]);
SELECT run_id FROM iobench.run(tablespaces => ARRAY['pg_default', 'pg_default']::name[], files => 2);
SELECT run_id FROM iobench.run(tablespaces => ARRAY['pg_default', 'no_such_tablespace']::name[], files => 2);
SELECT run_id FROM iobench.run(tablespaces => ARRAY['pg_default', 'pg_global']::name[], files => 2);
SELECT run_id FROM iobench.run(tablespaces => ARRAY['a','b','c','d','e','f','g','h','i']::name[]);
-- steady state
SELECT run_id FROM iobench.run(steady_state => 'bw');
SELECT run_id FROM iobench.run(steady_state => 'iops', steady_band => 0);
SELECT run_id FROM iobench.run(steady_state => 'iops', steady_band => 100.5);
SELECT run_id FROM iobench.run(steady_band => -1);
SELECT run_id FROM iobench.run(steady_state => 'iops', steady_band => NULL);
SELECT run_id FROM iobench.run(steady_state => 'latency', steady_window => '1s');
SELECT run_id FROM iobench.run(steady_state => 'latency', steady_window => '2.5s');
SELECT run_id FROM iobench.run(steady_state => 'iops', steady_window => '20s', duration => '10s');
SELECT run_id FROM iobench.run(rate_iops => -5);
SELECT run_id FROM iobench.run(rate_iops => 1, workers => 2);

-- the settings pgiosim() is built from
SELECT run_id FROM iobench.run(rewrite_pct => 101);
SELECT run_id FROM iobench.run(rewrite_pct => NULL);
SELECT run_id FROM iobench.run(rw => 'randwrite', rewrite_pct => 10);
SELECT run_id FROM iobench.run(rw => 'randrw', read_pct => 0, rewrite_pct => 10);
SELECT run_id FROM iobench.run(cold_reads => NULL);
SELECT run_id FROM iobench.run(cold_reads => true);
SELECT run_id FROM iobench.run(stall_threshold => '0s');
SELECT run_id FROM iobench.run(stall_threshold => '2 hours');
SELECT run_id FROM iobench.run(progress_interval => '500ms');
SELECT run_id FROM iobench.run(progress_interval => '1.5s');
SELECT run_id FROM iobench.run(progress_interval => '2 hours');
SELECT run_id FROM iobench.run(progress_interval => NULL);

-- tablespaces
SELECT run_id FROM iobench.run(tablespace => 'no_such_tablespace');
SELECT run_id FROM iobench.run(tablespace => 'pg_global');
SELECT run_id FROM iobench.run(tablespace => NULL);

-- (a read-only transaction runs and stores nothing: test run_readonly)

-- the file system cannot hold the files (sizes differ between machines)
\set VERBOSITY terse
SELECT run_id FROM iobench.run(file_size => '512TB', files => 2);

-- more workers than background worker slots (max_worker_processes = 32):
-- held to what it leaves after the 2 workers started with the server, one
-- slot kept free and the run's recorder (28), refused before anything starts
SET iobench.max_workers_per_run = 60;
SET iobench.max_workers_total = 60;
SELECT run_id FROM iobench.run(workers => 60, duration => '1s', file_size => '1MB');
RESET iobench.max_workers_per_run;
RESET iobench.max_workers_total;

-- by default half of max_worker_processes (32) is for iobench
SELECT run_id FROM iobench.run(workers => 17);
-- the cluster-wide caps, here on one run (the counters are in shared memory)
SET iobench.max_workers_total = 2;
SELECT run_id FROM iobench.run(workers => 3);
RESET iobench.max_workers_total;
SET iobench.max_buffer_memory_total = '1MB';
SELECT run_id FROM iobench.run(workers => 2, iodepth => 64, block_size => '64kB', engine => 'io_uring');
RESET iobench.max_buffer_memory_total;
\set VERBOSITY default

-- nothing was stored, and nothing is left behind
SELECT count(*) AS stored_runs FROM iobench.runs WHERE run_id > :runs_before;
SELECT leftover_files(), running_workers();

-- the server is still fine: a normal run works after all these errors (a
-- run's 200 ms start when its workers are told to go: on a loaded machine
-- they may complete no I/O in them, so up to five tries, each completed)
CREATE TEMP TABLE normal (LIKE iobench.runs);
DO $$
BEGIN
    FOR i IN 1 .. 5 LOOP
        INSERT INTO normal
        SELECT * FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync');
        EXIT WHEN (SELECT bool_or(ops > 0) FROM normal);
    END LOOP;
END
$$;
SELECT string_agg(DISTINCT status, ', ') AS status, bool_or(ops > 0) AS has_ops FROM normal;
SELECT leftover_files(), running_workers();

-- the free-space error names the tablespace and its location, not the
-- internal path of its temporary directory, and sizes as typed (512 TB)
CREATE FUNCTION pg_temp.space_error(ts name) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    msg text;
    detail text;
BEGIN
    PERFORM iobench.run(tablespace => ts, file_size => '512TB', files => 2);
    RETURN 'no error';
EXCEPTION WHEN disk_full THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    -- the margin and the free space depend on the machine
    RETURN msg || E'\n' || regexp_replace(detail, ' and .* are kept free as a safety margin, but only .* are available',
                                          ' and ... are kept free as a safety margin, but only ... are available');
END
$$;
\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
CREATE TABLESPACE iob_err_ts LOCATION :'ts_dir';
SELECT pg_temp.space_error('pg_default') =
       E'not enough free space in tablespace "pg_default" for the benchmark files\n'
       'The files need 1024 TB (2 files of 512 TB) and ... are kept free as a safety margin, '
       'but only ... are available at the data directory, ' || current_setting('data_directory') || '.'
       AS names_data_directory;
SELECT replace(pg_temp.space_error('iob_err_ts'), :'ts_dir', '<testtablespace>') AS error;
DROP TABLESPACE iob_err_ts;

-- A label is bounded, so that every stored run exports and imports
SELECT iobench.run(label => repeat('é', 1025), duration => '1s');
SELECT iobench.suite('oltp', ARRAY['pg_default'], label => repeat('x', 1025));
