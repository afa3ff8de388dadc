-- Reading stored runs: stalls(), report(), run_json() and compare() on
-- planted results, so every figure is known in advance.
SET client_min_messages = warning;
SET timezone = 'UTC';

-- A pgiosim-like run of 10 s: 1000 reads + 100 rewrites + 100 fsyncs a
-- second, except second 4 (a third of the throughput), second 6 (nothing
-- completed) and second 8 (an fsync of 1.5 s).
INSERT INTO iobench.runs (
    run_id, status, label, started_at, finished_at, tablespace, device, filesystem,
    mount_point, host, system_identifier, pg_version, rw, block_size, workers, iodepth,
    duration, warmup, file_size, files, read_pct, fsync_every, sync_method, direct,
    engine, rate_iops, seed, rewrite_pct, stall_threshold, measured_s,
    ops, bytes, iops, mb_per_s, lat_avg_us, lat_p50_us, lat_p90_us, lat_p99_us,
    lat_p999_us, lat_max_us,
    read_ops, read_bytes, read_iops, read_mb_per_s, read_lat_avg_us, read_lat_p50_us,
    read_lat_p90_us, read_lat_p99_us, read_lat_p999_us, read_lat_max_us,
    write_ops, write_bytes, write_iops, write_mb_per_s, write_lat_avg_us, write_lat_p50_us,
    write_lat_p90_us, write_lat_p99_us, write_lat_p999_us, write_lat_max_us,
    fsync_ops, fsync_iops, fsync_lat_avg_us, fsync_lat_p50_us, fsync_lat_p90_us,
    fsync_lat_p99_us, fsync_lat_p999_us, fsync_lat_max_us,
    cpu_user_pct, cpu_sys_pct, stall_count, offset_digest)
VALUES (
    1000001, 'completed', 'planted', '2024-05-01 12:00:00+00', '2024-05-01 12:00:11+00',
    'pg_default', 'vda', 'ext4', '/', 'planted-host', 42, '15.7', 'randread', 8192, 4, 1,
    '10s', '0s', 1073741824, 4, NULL, 1, 'fsync', false,
    'psync', 0, 42, 10, '1s', 10,
    9130, 74792960, 913, 7.479, 105, 50.4, 101, 203, 2030, 2100,
    8300, 67993600, 830, 6.799, 115, 50.4, 101, 203, 2030, 2100,
    830, 6799360, 83, 0.680, 10.1, 10.04, 10.04, 10.04, 10.04, 20.5,
    830, 83, 2400, 508, 508, 5080, 1500000, 1500000,
    1.5, 20.5, 1, '0000000000000000');

INSERT INTO iobench.run_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us)
SELECT 1000001, s, o.op,
       CASE WHEN s = 4 THEN o.n * 3 / 10 ELSE o.n END,
       CASE WHEN s = 4 THEN o.n * 3 / 10 ELSE o.n END * o.b,
       o.mean, CASE WHEN s = 8 AND o.op = 'fsync' THEN 1500000 ELSE o.mx END
  FROM generate_series(0, 9) AS s,
       (VALUES ('read', 1000, 8192, 115.0, 2100.0), ('write', 100, 8192, 10.1, 20.5),
               ('fsync', 100, 0, 508.0, 5100.0)) AS o(op, n, b, mean, mx)
 WHERE s <> 6;

INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count)
VALUES (1000001, 'read', 50, 50.78125, 5000), (1000001, 'read', 100, 101.5625, 3000),
       (1000001, 'read', 200, 203.125, 290), (1000001, 'read', 2000, 2031.25, 10),
       (1000001, 'write', 10, 10.078125, 830),
       (1000001, 'fsync', 500, 507.8125, 800), (1000001, 'fsync', 5000, 5078.125, 29),
       (1000001, 'fsync', 1490000, 1513281.25, 1);

INSERT INTO iobench.run_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us)
VALUES (1000001, 8.5, 3, 1, 8192, 20, 1500000);

-- the slow seconds, with both figures
SELECT * FROM iobench.stalls(1000001);
-- a stricter throughput floor finds nothing more; a lower latency ceiling more
SELECT second, reason FROM iobench.stalls(1000001, min_fraction => 0.2);
SELECT count(*) AS late_seconds FROM iobench.stalls(1000001, max_latency => '5ms');
-- NULL turns a criterion off
SELECT second, reason FROM iobench.stalls(1000001, min_fraction => NULL);
SELECT second, reason FROM iobench.stalls(1000001, max_latency => NULL);

-- the text report
\pset format unaligned
\pset tuples_only on
SELECT iobench.report(1000001);
\pset format aligned
\pset tuples_only off

-- with the run's waits recorded, the report ends with its top waits
INSERT INTO iobench.run_waits (run_id, wait_type, wait_s, signal_s, wait_count)
VALUES (1000001, 'IO:DataFileRead', 6.5, 0.5, 600),
       (1000001, 'IO:DataFileSync', 3.5, NULL, 80);
SELECT line FROM iobench.report(1000001) WITH ORDINALITY AS t(line, n)
 WHERE n >= (SELECT n FROM iobench.report(1000001) WITH ORDINALITY AS u(line, n)
              WHERE line = 'Top waits')
 ORDER BY n;
DELETE FROM iobench.run_waits WHERE run_id = 1000001;

-- the server's I/O settings: no line for a run stored without them (0.1),
-- else those the server has, in a fixed order
SELECT count(*) AS server_lines FROM iobench.report(1000001) AS l WHERE l LIKE '  I/O settings:%';
UPDATE iobench.runs
   SET io_method = 'io_uring', io_workers = 3, io_combine_limit = '128kB',
       effective_io_concurrency = 16, maintenance_io_concurrency = 16,
       wal_sync_method = 'fdatasync', full_page_writes = true
 WHERE run_id = 1000001;
SELECT l AS eighteen FROM iobench.report(1000001) AS l WHERE l LIKE '  I/O settings:%';
UPDATE iobench.runs
   SET io_method = NULL, io_workers = NULL, io_combine_limit = NULL, io_min_workers = 1,
       io_max_workers = 8, effective_io_concurrency = 1, full_page_writes = false
 WHERE run_id = 1000001;
SELECT l AS other FROM iobench.report(1000001) AS l WHERE l LIKE '  I/O settings:%';
UPDATE iobench.runs
   SET io_min_workers = NULL, io_max_workers = NULL, effective_io_concurrency = NULL,
       maintenance_io_concurrency = NULL, wal_sync_method = NULL, full_page_writes = NULL
 WHERE run_id = 1000001;

-- fio's JSON shape: the keys fio 3.33 writes, at every level
SELECT array(SELECT jsonb_object_keys(j) ORDER BY 1) AS top,
       j->>'fio version' AS version,
       jsonb_array_length(j->'jobs') AS jobs
  FROM iobench.run_json(1000001) AS j;
SELECT array(SELECT jsonb_object_keys(job) ORDER BY 1) AS job_keys
  FROM iobench.run_json(1000001) AS j, jsonb_array_elements(j->'jobs') AS job;
SELECT d, array(SELECT jsonb_object_keys(job->d) ORDER BY 1) AS keys
  FROM iobench.run_json(1000001) AS j, jsonb_array_elements(j->'jobs') AS job,
       unnest(ARRAY['read', 'write', 'trim', 'sync']) AS d
 ORDER BY d;
SELECT job->'job options' AS options
  FROM iobench.run_json(1000001) AS j, jsonb_array_elements(j->'jobs') AS job;
-- figures: bytes, KiB/s, IOPS, ms, ns
SELECT d, job->d->'io_bytes' AS io_bytes, job->d->'bw' AS bw_kib, job->d->'iops' AS iops,
       job->d->'runtime' AS runtime_ms, job->d->'total_ios' AS total_ios,
       job->d->'clat_ns'->'N' AS n, job->d->'clat_ns'->'mean' AS mean_ns,
       job->d->'clat_ns'->'max' AS max_ns, job->d->'iops_samples' AS samples,
       job->d->'iops_min' AS iops_min
  FROM iobench.run_json(1000001) AS j, jsonb_array_elements(j->'jobs') AS job,
       unnest(ARRAY['read', 'write', 'trim']) AS d
 ORDER BY d;
SELECT job->'read'->'clat_ns'->'percentile' AS read_percentiles,
       (SELECT sum(value::bigint) FROM jsonb_each_text(job->'read'->'clat_ns'->'bins')) AS binned,
       job->'sync'->'total_ios' AS syncs,
       job->'sync'->'lat_ns'->'percentile'->'99.990000' AS sync_p9999_ns,
       job->'latency_us' AS latency_us
  FROM iobench.run_json(1000001) AS j, jsonb_array_elements(j->'jobs') AS job;

-- A planted suite on two tablespaces, two tests, two repeats each: known
-- means, standard deviations and ratios.
INSERT INTO iobench.runs (run_id, status, started_at, finished_at, tablespace, rw, block_size,
                          workers, iodepth, duration, warmup, file_size, files, fsync_every,
                          sync_method, direct, engine, rate_iops, seed, measured_s,
                          iops, mb_per_s, lat_p99_us)
SELECT 1000100 + n, 'completed', '2024-05-01', '2024-05-01', ts, 'randread', 8192, 1, 1,
       '10s', '0s', 1073741824, 1, 0, 'fsync', true, 'psync', 0, 0, 10, iops, mbps, p99
  FROM (VALUES (1, 'raid10', 1000, 8.0, 800), (2, 'raid10', 1200, 9.6, 1000),
               (3, 'ssd', 4000, 32.0, 200), (4, 'ssd', 4800, 38.4, 250),
               (5, 'raid10', 100, 0.8, 5000), (6, 'raid10', 100, 0.8, 5000),
               (7, 'ssd', 150, 1.2, 2000), (8, 'ssd', 150, 1.2, 2000))
       AS v(n, ts, iops, mbps, p99);
INSERT INTO iobench.suites (suite_id, name, status, started_at, finished_at, tablespaces,
                            repeat, duration, warmup, file_size, direct, engine)
VALUES (1000001, 'planted', 'completed', '2024-05-01', '2024-05-01', '{raid10,ssd}',
        2, '10s', '0s', 1073741824, true, 'auto');
INSERT INTO iobench.suite_runs (suite_id, test_no, test, tablespace, repeat_no, run_id, note)
VALUES (1000001, 1, 'random read', 'raid10', 1, 1000101, NULL),
       (1000001, 1, 'random read', 'raid10', 2, 1000102, NULL),
       (1000001, 1, 'random read', 'ssd', 1, 1000103, NULL),
       (1000001, 1, 'random read', 'ssd', 2, 1000104, NULL),
       (1000001, 2, 'random write', 'raid10', 1, 1000105, NULL),
       (1000001, 2, 'random write', 'raid10', 2, 1000106, NULL),
       (1000001, 2, 'random write', 'ssd', 1, 1000107, NULL),
       (1000001, 2, 'random write', 'ssd', 2, 1000108, NULL),
       (1000001, 3, 'deep queue', 'raid10', 1, NULL, 'skipped: planted'),
       (1000001, 3, 'deep queue', 'ssd', 1, NULL, 'skipped: planted');
-- and a WAL test (a write, then its sync): on raid10, capped at 400 IOPS,
-- the buffered write's p99 is 64 µs but the commit's (write + sync) is
-- 99,090 µs; the SSD commits in 49 µs.  The headline is the commit's, and
-- the ratio 49 / 99,090 keeps its digits.
INSERT INTO iobench.runs (run_id, status, started_at, finished_at, tablespace, rw, block_size,
                          workers, iodepth, duration, warmup, file_size, files, fsync_every,
                          sync_method, direct, engine, rate_iops, seed, measured_s,
                          iops, mb_per_s, lat_avg_us, lat_p99_us, write_ops, write_iops,
                          write_lat_avg_us, write_lat_p99_us,
                          fsync_ops, fsync_iops, fsync_lat_avg_us, fsync_lat_p99_us,
                          commit_ops, commit_iops, commit_lat_avg_us, commit_lat_p99_us)
VALUES (1000109, 'completed', '2024-05-01', '2024-05-01', 'raid10', 'write', 8192, 1, 1,
        '10s', '0s', 16777216, 1, 1, 'fdatasync', false, 'psync', 0, 0, 10,
        400, 3.2, 20, 64, 4000, 400, 20, 64, 4000, 400, 2480, 98000, 4000, 400, 2500, 99090),
       (1000110, 'completed', '2024-05-01', '2024-05-01', 'ssd', 'write', 8192, 1, 1,
        '10s', '0s', 16777216, 1, 1, 'fdatasync', false, 'psync', 0, 0, 10,
        25000, 204.8, 12, 30, 250000, 25000, 12, 30, 250000, 25000, 28, 20, 250000, 25000, 40, 49);
INSERT INTO iobench.suite_runs (suite_id, test_no, test, tablespace, repeat_no, run_id, note)
VALUES (1000001, 4, 'WAL write', 'raid10', 1, 1000109, 'as the WAL writer'),
       (1000001, 4, 'WAL write', 'ssd', 1, 1000110, 'as the WAL writer');

SELECT test_no, test, tablespace_no, tablespace, runs, iops, iops_stddev, mb_per_s,
       lat_p99_us, lat_p99_stddev, note
  FROM iobench.suite_results WHERE suite_id = 1000001 ORDER BY test_no, tablespace_no;
-- how much faster is the SSD than the RAID 10, per pattern?
SELECT * FROM iobench.compare(1000001);
SELECT test, tablespace, iops_ratio, p99_ratio
  FROM iobench.compare(1000001, baseline => 'ssd') ORDER BY test_no, tablespace;
SELECT test, base_tablespace, tablespace, iops_ratio, mb_per_s_ratio, p99_ratio
  FROM iobench.suite_comparison WHERE suite_id = 1000001 ORDER BY test_no, tablespace_no;
SELECT run_id, tablespace, baseline_run, base_iops, iops, iops_ratio, p99_ratio
  FROM iobench.compare_runs(ARRAY[1000101, 1000103, 1000105], baseline => 1000103);
-- the WAL test compares commits: 49 µs against 99,090 µs is 0.00049 (a
-- ratio keeps two significant digits), and the reverse 2022.24
SELECT test, base_tablespace, tablespace, base_p99_us, p99_us, p99_ratio, note
  FROM iobench.compare(1000001) WHERE test_no = 4;
SELECT tablespace, p99_ratio FROM iobench.compare(1000001, baseline => 'ssd') WHERE test_no = 4;
SELECT run_id, base_p99_us, p99_us, p99_ratio, iops_ratio
  FROM iobench.compare_runs(ARRAY[1000109, 1000110]);
SELECT test, p99_ratio FROM iobench.suite_comparison WHERE suite_id = 1000001 AND test_no = 4;
-- report() shows the commit beside the write and the sync
SELECT line FROM iobench.report(1000109) line WHERE line ~ '^  (op|write|fsync|commit) ';

-- the summary: a dozen rounded columns with units
\pset format aligned
\pset tuples_only off
\x on
SELECT * FROM iobench.run_summary WHERE run_id = 1000001;
\x off
-- a lookup by run_id reaches the index: summary() runs for that run only,
-- not for every stored run (the condition is on the table, not on the
-- function's result); no run gives no row
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT run_id FROM iobench.run_summary WHERE run_id = 1000001;
RESET enable_seqscan;
SELECT * FROM iobench.summary(NULL);
SELECT iobench.format_rate(69800000) AS mib, iobench.format_rate(2e9) AS gib,
       iobench.format_rate(NULL) AS unknown;

-- Other load on the device: a run of 1000 direct 8 kB reads a second
-- (8.2 MB/s) on a device that read twice that, and wrote 5 MB/s while the
-- run wrote nothing; report() says so, by how much.  One within the margin
-- (read-ahead, metadata: 25 % and 1 MB/s) says nothing.
INSERT INTO iobench.runs (run_id, status, started_at, finished_at, tablespace, rw, block_size,
                          workers, iodepth, duration, warmup, file_size, files, fsync_every,
                          sync_method, direct, engine, rate_iops, seed, measured_s,
                          ops, iops, read_ops, read_bytes, read_iops, write_ops, write_bytes,
                          fsync_ops, fsync_iops, disk)
VALUES (1000120, 'completed', '2024-05-01', '2024-05-01', 'pg_default', 'randread', 8192, 1, 1,
        '10s', '0s', 1073741824, 1, 0, 'fsync', true, 'psync', 1000, 0, 10,
        10000, 1000, 10000, 81920000, 1000, 0, 0, 0, 0, 'vdb'),
       (1000121, 'completed', '2024-05-01', '2024-05-01', 'pg_default', 'randread', 8192, 1, 1,
        '10s', '0s', 1073741824, 1, 0, 'fsync', true, 'psync', 1000, 0, 10,
        10000, 1000, 10000, 81920000, 1000, 0, 0, 0, 0, 'vdb');
INSERT INTO iobench.run_disk_seconds (run_id, device, member, second, interval_s, reads,
                                      read_merges, read_sectors, read_ms, writes, write_merges,
                                      write_sectors, write_ms, in_flight, io_ms, queue_ms)
SELECT 1000120, 'vdb', false, s, 1, 2000, 0, 32000, 400, 40, 0, 9766, 10, 0, 500, 400
  FROM generate_series(0, 9) s
UNION ALL
SELECT 1000121, 'vdb', false, s, 1, 1100, 0, 17600, 220, 2, 0, 16, 1, 0, 300, 220
  FROM generate_series(0, 9) s;
SELECT run_id, line FROM unnest(ARRAY[1000120, 1000121]) AS r(run_id), iobench.report(r.run_id) line
 WHERE line ~ '^  (OTHER LOAD|iobench itself)' ORDER BY run_id, line;

-- the settings lines are indented alike, also with syncs but no rewrites
UPDATE iobench.runs SET fsync_every = 4 WHERE run_id = 1000101;
SELECT n, line FROM iobench.report(1000101) WITH ORDINALITY AS t(line, n)
 WHERE n BETWEEN 2 AND 5 ORDER BY n;
UPDATE iobench.runs SET fsync_every = 0 WHERE run_id = 1000101;

-- every argument is checked
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT * FROM iobench.stalls(NULL);
SELECT * FROM iobench.stalls(-1);
SELECT * FROM iobench.stalls(1000001, min_fraction => 1.5);
SELECT * FROM iobench.stalls(1000001, min_fraction => -0.1);
SELECT * FROM iobench.stalls(1000001, max_latency => '0s');
SELECT iobench.report(NULL);
SELECT iobench.report(-1);
-- the other readers of one run error alike
SELECT * FROM iobench.disk_stats(-1);
SELECT * FROM iobench.disk_stats(9999);
SELECT * FROM iobench.disk_stats(NULL);
SELECT iobench.latency_percentile(9999, 50);
SELECT iobench.latency_percentile(1000001, 100.5);
SELECT iobench.latency_percentile(1000001, 'NaN');
SELECT iobench.latency_percentile(1000001, -1);
SELECT iobench.latency_percentile(1000001, 0);
SELECT iobench.latency_percentile(1000001, NULL);
SELECT iobench.latency_percentile(1000001, 50, 'bogus');
SELECT iobench.run_json(NULL);
SELECT iobench.run_json(-1);
SELECT * FROM iobench.compare(NULL);
SELECT * FROM iobench.compare(-1);
SELECT * FROM iobench.compare(1000001, baseline => 'pg_default');
SELECT * FROM iobench.compare_runs(NULL);
SELECT * FROM iobench.compare_runs(ARRAY[]::bigint[]);
SELECT * FROM iobench.compare_runs(ARRAY[1000101, NULL]);
SELECT * FROM iobench.compare_runs(ARRAY[1000101, -1]);
SELECT * FROM iobench.compare_runs(ARRAY[1000101, 1000103], baseline => 1000105);

-- deleting runs and suites deletes what belongs to them
DELETE FROM iobench.suites WHERE suite_id = 1000001;
DELETE FROM iobench.runs WHERE run_id BETWEEN 1000001 AND 1000200;
SELECT (SELECT count(*) FROM iobench.suite_runs WHERE suite_id = 1000001) AS members,
       (SELECT count(*) FROM iobench.run_stalls WHERE run_id = 1000001) AS stalls;

-- the helpers take NaN and the infinities
SELECT iobench.format_us('NaN') AS nan, iobench.format_us('Infinity') AS inf,
       iobench.format_us('-Infinity') AS minus_inf, iobench.format_us(-5) AS negative;
SELECT iobench.sparkline('{NaN,1}') AS nan_first, iobench.sparkline('{Infinity,1,2}') AS inf,
       iobench.sparkline('{NaN}') AS only_nan;
