-- The io_uring engine: queue depth, every access pattern, fsync ordering,
-- rate limiting, the fallback to psync, and iodepth checks.
--
-- expected/uring_1.out is the output where the kernel refuses io_uring
-- (a container's seccomp profile, kernel.io_uring_disabled); it is made with
-- tools/without_io_uring.c, which runs the suite under such a refusal.
SET client_min_messages = warning;

-- Every access pattern at iodepth 8 completes with sane figures.
CREATE TEMP TABLE uring_runs AS
SELECT * FROM public.with_io($$
SELECT r.*
  FROM unnest(ARRAY['randread', 'randwrite', 'randrw', 'read', 'write', 'readwrite']) AS p(rw),
       LATERAL iobench.run(rw => p.rw, iodepth => 8, engine => 'io_uring',
                           duration => '500ms', file_size => '8MB',
                           files => 2, workers => 2,
                           label => 'uring ' || p.rw) AS r$$);

SELECT rw, status, engine, iodepth,
       iops > 0 AS has_iops,
       read_ops > 0 AS reads,
       write_ops > 0 AS writes,
       fsync_ops = 0 AS no_syncs,
       ops = read_ops + write_ops AS ops_add_up,
       bytes = ops * block_size AS bytes_add_up,
       lat_p50_us <= lat_p90_us AND lat_p90_us <= lat_p99_us
         AND lat_p99_us <= lat_p999_us AND lat_p999_us <= lat_max_us AS percentiles_ordered,
       lat_avg_us > 0 AND lat_avg_us <= lat_max_us AS avg_sane,
       measured_s = 0.5 AS measured_whole_period,
       cpu_user_pct >= 0 AND cpu_sys_pct > 0 AS cpu_measured
  FROM uring_runs
 ORDER BY rw;

-- "auto" picks io_uring where the kernel allows it (as on the test machines)
SELECT engine, iodepth, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(iodepth => 4, duration => '200ms', file_size => '8MB')$$);

-- Fsyncs behind writes in flight: every write counted, one sync per 4
-- writes to a file, and the syncs timed as their own op kind.  When the
-- period ends, each worker's file may owe a sync for up to 3 writes since
-- its last one, and each worker's queue (iodepth) may hold syncs not yet
-- done whose writes are (io_uring runs fsyncs in kernel threads, slow on a
-- loaded machine), so the count may fall short by files + iodepth syncs per
-- worker; a sync in flight at the start may add one per worker and file.
-- (With fsync_every 2 or 8 the count would be off by hundreds.)
SELECT rw, engine, fsync_every,
       fsync_ops > 0 AS syncs,
       fsync_ops BETWEEN write_ops / 4 - workers * (files + iodepth)
                     AND write_ops / 4 + workers * files AS one_sync_per_4_writes,
       fsync_lat_p99_us > 0 AS sync_latency
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randrw', fsync_every => 4, iodepth => 8,
                   engine => 'io_uring', workers => 2, files => 2,
                   duration => '500ms', file_size => '8MB')$$);

-- fdatasync after every write, buffered I/O (no O_DIRECT), one file
SELECT rw, engine, sync_method, direct,
       fsync_ops > 0 AS syncs,
       abs(fsync_ops - write_ops) <= 8 AS one_sync_per_write
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'write', fsync_every => 1, sync_method => 'fdatasync',
                   direct => false, iodepth => 8, engine => 'io_uring',
                   duration => '500ms', file_size => '8MB')$$);

-- rate_iops holds its rate with I/Os in flight (200 IOPS, wide margin)
SELECT engine, rate_iops, iops BETWEEN 150 AND 210 AS rate_held
  FROM public.with_rate($$SELECT * FROM iobench.run(rate_iops => 200, iodepth => 8, engine => 'io_uring',
                   duration => '1s', file_size => '8MB')$$);

-- The largest queue depth
SELECT engine, iodepth, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(iodepth => 1024, block_size => '4kB', engine => 'io_uring',
                   duration => '200ms', file_size => '8MB')$$);

-- Forced fallback: "auto" runs on psync and says why.
SET client_min_messages = notice;
SET iobench.io_uring = off;
SELECT engine, iodepth
  FROM iobench.run(duration => '200ms', file_size => '8MB');
-- and measures on it (again, up to five times, if the disk completed nothing)
SELECT engine, ops > 0 AS has_ops
  FROM public.with_io_quiet($$SELECT * FROM iobench.run(duration => '200ms', file_size => '8MB')$$);
-- asking for io_uring explicitly is an error, not a silent fallback
SELECT run_id FROM iobench.run(engine => 'io_uring', duration => '200ms', file_size => '8MB');
-- a queue depth psync cannot give is an error too
SELECT run_id FROM iobench.run(iodepth => 8, duration => '200ms', file_size => '8MB');
RESET iobench.io_uring;

-- Bad iodepth values
SELECT run_id FROM iobench.run(iodepth => 0, engine => 'io_uring');
SELECT run_id FROM iobench.run(iodepth => -1, engine => 'io_uring');
SELECT run_id FROM iobench.run(iodepth => 1025, engine => 'io_uring');
SELECT run_id FROM iobench.run(iodepth => NULL, engine => 'io_uring');
SELECT run_id FROM iobench.run(iodepth => 8, engine => 'psync');
RESET client_min_messages;

SELECT leftover_files(), running_workers();
