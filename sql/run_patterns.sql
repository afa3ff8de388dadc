-- Every access pattern completes with sane, self-consistent figures.
SET client_min_messages = warning;

CREATE TEMP TABLE pattern_runs AS
SELECT * FROM public.with_io($$
SELECT r.*
  FROM unnest(ARRAY['randread', 'randwrite', 'randrw', 'read', 'write', 'readwrite']) AS p(rw),
       LATERAL iobench.run(rw => p.rw, duration => '500ms', file_size => '8MB',
                           files => 2, workers => 2, engine => 'psync',
                           label => 'pattern ' || p.rw) AS r$$);

SELECT rw, status, label,
       iops > 0 AS has_iops,
       mb_per_s > 0 AS has_mbps,
       read_ops > 0 AS reads,
       write_ops > 0 AS writes,
       fsync_ops = 0 AS no_syncs,
       ops = read_ops + write_ops AS ops_add_up,
       bytes = ops * block_size AS bytes_add_up,
       read_bytes = read_ops * block_size AS read_bytes_add_up,
       lat_p50_us <= lat_p90_us AND lat_p90_us <= lat_p99_us
         AND lat_p99_us <= lat_p999_us AND lat_p999_us <= lat_max_us AS percentiles_ordered,
       lat_avg_us > 0 AND lat_avg_us <= lat_max_us AS avg_sane,
       measured_s = 0.5 AS measured_whole_period,
       cpu_user_pct >= 0 AND cpu_sys_pct > 0 AS cpu_measured,
       engine
  FROM pattern_runs
 ORDER BY rw;

-- the storage is always described, also in a chroot or container whose
-- root is not a mount point (statfs() and the device numbers then): device
-- and file system named, and a mount point above the data directory
SELECT DISTINCT coalesce(device, '') <> '' AS device_known,
       coalesce(filesystem, '') <> '' AS fs_known,
       (current_setting('data_directory') || '/') LIKE
           (rtrim(mount_point, '/') || '/%') AS mount_point_above_files,
       mib_per_s BETWEEN mb_per_s * 0.953 AND mb_per_s * 0.954 AS mib_is_binary
  FROM pattern_runs;

-- mixed patterns honour read_pct (70 % reads: each op a read with a chance
-- of 0.7, so the count of reads within four standard deviations of 0.7 x
-- ops, however few ops a slow disk gave)
SELECT rw, read_pct,
       abs(read_ops - 0.7 * ops) <= 4 * sqrt(0.21 * ops) + 1 AS read_share_ok
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randrw', read_pct => 70, duration => '500ms',
                   file_size => '8MB', engine => 'psync')$$);

-- fsync_every counts writes only: one sync per 4 writes to a file
SELECT rw, fsync_every,
       fsync_ops > 0 AS syncs,
       abs(fsync_ops - write_ops / 4) <= workers * files + 1 AS one_sync_per_4_writes,
       fsync_lat_p99_us > 0 AS sync_latency
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'randrw', fsync_every => 4, workers => 2, files => 2,
                   duration => '500ms', file_size => '8MB', engine => 'psync')$$);

-- fdatasync, buffered I/O and a warm-up period
SELECT sync_method, direct, warmup, measured_s, fsync_ops > 0 AS syncs, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'write', fsync_every => 8, sync_method => 'fdatasync',
                   direct => false, warmup => '200ms', duration => '500ms',
                   file_size => '8MB', engine => 'psync')$$);

-- open_datasync: every write synchronous (O_DSYNC), no sync calls
SELECT sync_method, direct, fsync_every, fsync_ops, write_ops > 0 AS wrote
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'write', sync_method => 'open_datasync', duration => '300ms',
                   file_size => '8MB', engine => 'psync')$$);

-- steady state: IOPS within 100 % of the mean over 2 s is reached as soon
-- as two seconds have I/O, and ends the run there; a band of a millionth
-- of a per cent over 3 s is not reached, and the run lasts its duration
SELECT status, steady_state, steady_band, steady_window, steady_reached,
       steady_at_s >= 2 AND measured_s >= steady_at_s AND measured_s < steady_at_s + 1.5
         AS ended_when_steady
  FROM iobench.run(steady_state => 'iops', steady_band => 100, steady_window => '2s',
                   duration => '20s', rate_iops => 200, file_size => '8MB', engine => 'psync');
-- (and a NOTICE says so, and what to try)
SET client_min_messages = notice;
SELECT status, steady_state, steady_reached, steady_at_s, measured_s = 3 AS full_duration
  FROM iobench.run(steady_state => 'latency', steady_band => 0.000001, steady_window => '3s',
                   duration => '3s', file_size => '8MB', engine => 'psync');
SET client_min_messages = warning;

-- sync_method 'wal': as this server writes its WAL (the oltp suite's WAL
-- test, and what fleet_suite() asks of each server)
SELECT rw, block_size, files, file_size = pg_size_bytes(current_setting('wal_segment_size')) AS segment,
       sync_method = current_setting('wal_sync_method') AS servers_method, fsync_every, direct
  FROM iobench.run(sync_method => 'wal', duration => '300ms', engine => 'psync');

-- large blocks, sequential
SELECT block_size, bytes = ops * 1048576 AS whole_blocks, ops > 0 AS has_ops
  FROM public.with_io($$SELECT * FROM iobench.run(rw => 'read', block_size => '1MB', file_size => '16MB',
                   duration => '500ms', engine => 'psync')$$);

-- rate_iops holds its rate (200 IOPS over 2 workers, wide margin)
SELECT rate_iops, iops BETWEEN 150 AND 210 AS rate_held
  FROM public.with_rate($$SELECT * FROM iobench.run(rate_iops => 200, workers => 2, duration => '1s',
                   file_size => '8MB', engine => 'psync')$$);

-- the same seed gives the same offsets; another seed other offsets; the
-- digest is of the first 64 ops of each worker's generator, also when a
-- worker issues fewer (d: 10 IOPS, one or two ops per worker)
SELECT a.offset_digest = b.offset_digest AS same_seed_same_offsets,
       a.offset_digest <> c.offset_digest AS other_seed_other_offsets,
       a.offset_digest = d.offset_digest AND d.ops < 64 AS few_ops_same_digest,
       a.seed
  FROM iobench.run(seed => 42, workers => 2, files => 3, duration => '200ms', file_size => '8MB', engine => 'psync') AS a,
       iobench.run(seed => 42, workers => 2, files => 3, duration => '200ms', file_size => '8MB', engine => 'psync') AS b,
       iobench.run(seed => 43, workers => 2, files => 3, duration => '200ms', file_size => '8MB', engine => 'psync') AS c,
       iobench.run(seed => 42, workers => 2, files => 3, duration => '200ms', file_size => '8MB', engine => 'psync',
                   rate_iops => 10) AS d;

SELECT leftover_files(), running_workers();
