-- pgiosim(): random 8 kB buffered reads, write_pct % of them rewritten and
-- fsync'd; the counts prove that rewrites follow reads and syncs follow writes.
SET client_min_messages = warning;

-- defaults of the workload, a short run with a rewrite after 20 % of reads
CREATE TEMP TABLE p AS
SELECT * FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 2, workers => 2, write_pct => 20,
                              duration => '500ms', file_size => '2MB', seed => 7)$$);
SELECT status, label, rw, block_size, iodepth, direct, engine, files, workers,
       rewrite_pct, fsync_every, sync_method, read_pct,
       stall_threshold = interval '1s' AS default_threshold,
       read_ops > 0 AS reads,
       -- a rewrite only ever follows a read: about 20 % of the reads
       write_ops <= read_ops AS writes_not_above_reads,
       -- (within 4 standard deviations of a binomial count, whatever the speed)
       abs(write_ops - 0.2 * read_ops) <= 4 * sqrt(0.16 * read_ops) + workers AS write_share_ok,
       -- an fsync only ever follows a write: one per write (a worker's last
       -- write may have its fsync cut off by the end of the period)
       write_ops - fsync_ops BETWEEN 0 AND workers AS one_fsync_per_write,
       bytes = ops * 8192 AS whole_blocks,
       -- however many writes + fsyncs took over 1 s (fewer than 64 per
       -- worker in half a second), each is counted and listed
       stall_count = (SELECT count(*) FROM iobench.run_stalls t WHERE t.run_id = p.run_id)
         AND (SELECT coalesce(bool_and(t.total_us > 1e6), true)
                FROM iobench.run_stalls t WHERE t.run_id = p.run_id) AS stalls_counted_and_listed
  FROM p;

-- fsync off: rewrites, but no syncs; no rewrites: reads only
SELECT fsync_every, write_ops > 0 AS rewrites, fsync_ops AS syncs
  FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 1, workers => 1, fsync => false,
                       duration => '300ms', file_size => '1MB')$$);
SELECT rewrite_pct, fsync_every, write_ops AS writes, fsync_ops AS syncs, read_ops > 0 AS reads
  FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 1, workers => 1, write_pct => 0,
                       duration => '300ms', file_size => '1MB')$$);

-- with a 1 µs threshold every write + fsync is a stall: all counted, the
-- longest 64 per worker listed, each a write followed by its sync (how the
-- stalls split between the two workers depends on timing: a worker with
-- fewer than 64 lists them all)
CREATE TEMP TABLE s AS
SELECT * FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 2, workers => 2, write_pct => 50,
                              stall_threshold => '1 microsecond',
                              duration => '300ms', file_size => '1MB',
                              sync_method => 'fdatasync')$$);
SELECT sync_method,
       stall_count = fsync_ops AS every_pair_a_stall,
       (SELECT coalesce(sum(per_worker), 0) BETWEEN least(s.stall_count, 64) AND least(s.stall_count, 2 * 64)
               AND coalesce(bool_and(per_worker <= 64), true)
          FROM (SELECT count(*) AS per_worker FROM iobench.run_stalls t
                 WHERE t.run_id = s.run_id GROUP BY t.worker) w) AS listed,
       (SELECT bool_and(t.write_us > 0 AND t.sync_us > 0 AND t.total_us = t.write_us + t.sync_us
                        AND t.at_s >= 0 AND t.at_s < 0.3 AND t.worker IN (0, 1)
                        AND t.file IN (0, 1) AND t.file_offset % 8192 = 0)
          FROM iobench.run_stalls t WHERE t.run_id = s.run_id) AS events_sane,
       -- the longest stalls are the ones kept
       (SELECT max(t.total_us) FROM iobench.run_stalls t WHERE t.run_id = s.run_id)
         >= fsync_lat_max_us AS longest_kept
  FROM s;

-- a high threshold: no stalls
SELECT stall_count, (SELECT count(*) FROM iobench.run_stalls t WHERE t.run_id = q.run_id) AS listed
  FROM iobench.pgiosim(files => 1, workers => 1, stall_threshold => '1 hour',
                       duration => '200ms', file_size => '1MB') AS q;

-- iobench.run() does not track stalls
SELECT stall_threshold IS NULL AS no_threshold, stall_count IS NULL AS no_count
  FROM iobench.run(duration => '100ms', file_size => '1MB', engine => 'psync');

-- pgiosim() is run() with pgiosim's settings: the same seed issues the same
-- I/O, and every setting is stored alike
CREATE TEMP TABLE pr AS
SELECT 'pgiosim' AS via, * FROM public.with_io($$SELECT * FROM iobench.pgiosim(files => 2, workers => 2, write_pct => 30,
                                               duration => '300ms', file_size => '1MB',
                                               seed => 11)$$)
UNION ALL
SELECT 'run', * FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randread', block_size => '8kB', files => 2,
                                 workers => 2, duration => '300ms', file_size => '1MB',
                                 rewrite_pct => 30, fsync_every => 1, direct => false,
                                 cold_reads => true, engine => 'psync',
                                 stall_threshold => '1s', progress_interval => '10s',
                                 seed => 11)$$);
SELECT via, rw, block_size, iodepth, direct, cold_reads, engine, rewrite_pct,
       fsync_every, stall_threshold,
       stall_count = (SELECT count(*) FROM iobench.run_stalls t WHERE t.run_id = pr.run_id)
         AS stalls_counted_and_listed,
       write_ops > 0 AS rewrites, fsync_ops > 0 AS syncs
  FROM pr ORDER BY via;
SELECT count(DISTINCT offset_digest) = 1 AS same_io FROM pr;
-- run() leaves the page cache alone unless asked
SELECT cold_reads FROM iobench.run(duration => '100ms', file_size => '1MB', engine => 'psync');

-- every argument is checked
\set VERBOSITY default
SELECT run_id FROM iobench.pgiosim(tablespace => 'no_such_tablespace');
SELECT run_id FROM iobench.pgiosim(tablespace => 'pg_global');
SELECT run_id FROM iobench.pgiosim(files => 0);
SELECT run_id FROM iobench.pgiosim(workers => 0);
-- workers NULL: pgiosim's 10 where the caps allow them, without a NOTICE
SELECT workers FROM iobench.pgiosim(workers => NULL, files => 1, duration => '200ms', file_size => '1MB');
SELECT run_id FROM iobench.pgiosim(write_pct => 101);
SELECT run_id FROM iobench.pgiosim(write_pct => -1);
SELECT run_id FROM iobench.pgiosim(fsync => NULL);
SELECT run_id FROM iobench.pgiosim(stall_threshold => '0s');
SELECT run_id FROM iobench.pgiosim(stall_threshold => '2 hours');
SELECT run_id FROM iobench.pgiosim(duration => '0s');
SELECT run_id FROM iobench.pgiosim(file_size => '4kB');
SELECT run_id FROM iobench.pgiosim(file_size => '12kB');
SELECT run_id FROM iobench.pgiosim(warmup => '-1s');
SELECT run_id FROM iobench.pgiosim(sync_method => 'osync');
SELECT run_id FROM iobench.pgiosim(progress_interval => '500ms');
SELECT run_id FROM iobench.pgiosim(progress_interval => '2 hours');

SELECT leftover_files(), running_workers();
