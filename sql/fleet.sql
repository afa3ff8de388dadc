-- fleet: runs identified across servers, export and import (iobench's and
-- fio's), merged histograms, and runs on many servers through dblink.
-- iob_loop_a and iob_loop_b (setup) are foreign servers that reach this
-- very instance; nothing listens at iob_nowhere.
SET client_min_messages = warning;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- identity: every run has a run_uuid, its tool and when its workers started.
-- Run a is exported below with children of every kind (seconds, histogram,
-- stalls, waits); on a loaded machine a 300 ms run may complete no I/O or
-- no write + fsync, so it is run again (up to five times) until it has
-- them, and the tries without are removed
CREATE TEMP TABLE a (LIKE iobench.runs);
DO $$
BEGIN
    FOR i IN 1 .. 5 LOOP
        DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM a);
        DELETE FROM a;
        INSERT INTO a
        SELECT * FROM iobench.run(rw => 'randrw', duration => '300ms', file_size => '1MB',
                                  engine => 'psync', fsync_every => 4,
                                  stall_threshold => '1 microsecond', label => 'fleet a');
        EXIT WHEN (SELECT read_ops > 0 AND write_ops > 0
                          AND EXISTS (SELECT FROM iobench.run_stalls x WHERE x.run_id = a.run_id)
                          AND EXISTS (SELECT FROM iobench.run_waits x WHERE x.run_id = a.run_id)
                     FROM a);
    END LOOP;
END
$$;
-- (its identity across servers: a random UUID, version 4)
SELECT run_uuid::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' AS random_uuid,
       tool, origin_run_id IS NULL AS ran_here,
       server IS NULL AS no_server, imported_at IS NULL AS not_imported,
       start_at IS NULL AS no_start_at, go_at BETWEEN started_at AND finished_at AS go_inside
  FROM a;

-- start_at: the workers wait for it once ready, and it is kept
CREATE TEMP TABLE s AS
SELECT clock_timestamp() + interval '400ms' AS asked;
CREATE TEMP TABLE b AS
SELECT * FROM iobench.run(duration => '200ms', file_size => '1MB', engine => 'psync',
                          start_at => (SELECT asked FROM s));
SELECT b.start_at = s.asked AS kept, b.go_at >= b.start_at AS waited, b.status
  FROM b, s;
SELECT * FROM iobench.run(file_size => '1MB', start_at => '2000-01-01 00:00:00+00');
SELECT * FROM iobench.run(file_size => '1MB', start_at => 'infinity');

-- merged histograms: the read and the write histogram of a randrw run,
-- summed in SQL, give exactly the data percentiles the C code computed
-- from one histogram holding both
SELECT round(m.lat_p50_us::numeric, 4) = round(a.lat_p50_us::numeric, 4) AS p50,
       round(m.lat_p90_us::numeric, 4) = round(a.lat_p90_us::numeric, 4) AS p90,
       round(m.lat_p99_us::numeric, 4) = round(a.lat_p99_us::numeric, 4) AS p99,
       round(m.lat_p999_us::numeric, 4) = round(a.lat_p999_us::numeric, 4) AS p999,
       m.ops = a.ops AS ops, m.lat_max_us = a.lat_max_us AS max,
       abs(m.lat_avg_us - a.lat_avg_us) < 1e-6 * a.lat_avg_us AS avg
  FROM a, iobench.merged_latency(ARRAY[a.run_id]) m;
-- one op kind alone gives that op's own percentiles
SELECT round(m.lat_p99_us::numeric, 4) = round(a.read_lat_p99_us::numeric, 4) AS read_p99
  FROM a, iobench.merged_latency(ARRAY[a.run_id], 'read') m;
-- two runs: the percentiles of their summed buckets
SELECT m.runs, m.ops = a.ops + b.ops AS ops
  FROM a, b, iobench.merged_latency(ARRAY[a.run_id, b.run_id]) m;
-- the SQL bucket arithmetic is the C one: each stored bucket maps to itself
SELECT count(*) > 0 AS buckets,
       bool_and((iobench.latency_bucket(round(l.lower_us * 1000)::bigint)).lower_us = l.lower_us
                AND (iobench.latency_bucket(round(l.upper_us * 1000)::bigint - 1)).upper_us = l.upper_us) AS same
  FROM iobench.run_latency l WHERE l.run_id IN (SELECT run_id FROM a UNION SELECT run_id FROM b);
SELECT x.*, y.*, z.* FROM iobench.latency_bucket(63) x, iobench.latency_bucket(64) y,
       iobench.latency_bucket(1000000) z;
SELECT * FROM iobench.merged_latency(ARRAY[]::bigint[]);
SELECT * FROM iobench.merged_latency(ARRAY[(SELECT run_id FROM a)], 'trim');
SELECT * FROM iobench.merged_latency(ARRAY[-1]::bigint[]);

-- export: one document with the run and its children
CREATE TEMP TABLE doc AS SELECT iobench.export_runs(ARRAY[(SELECT run_id FROM a)]) AS d;
SELECT d ->> 'format' AS format, d ->> 'version' AS version,
       jsonb_array_length(d -> 'runs') AS runs,
       (d -> 'runs' -> 0 -> 'run' ->> 'run_uuid')::uuid = (SELECT run_uuid FROM a) AS uuid,
       jsonb_array_length(d -> 'runs' -> 0 -> 'latency') =
           (SELECT count(*) FROM iobench.run_latency WHERE run_id = (SELECT run_id FROM a)) AS latency,
       jsonb_array_length(d -> 'runs' -> 0 -> 'seconds') =
           (SELECT count(*) FROM iobench.run_seconds WHERE run_id = (SELECT run_id FROM a)) AS seconds
  FROM doc;
SELECT iobench.export_runs(ARRAY[-1]::bigint[]);

-- import of a run stored here already: nothing new
SELECT i.run_id = a.run_id AS same_run, i.imported FROM a, doc, iobench.import_runs(doc.d) i;
-- as if it came from elsewhere: the run is gone here, then imported twice
CREATE TEMP TABLE a_children AS
SELECT (SELECT count(*) FROM iobench.run_seconds WHERE run_id = a.run_id) AS seconds,
       (SELECT count(*) FROM iobench.run_latency WHERE run_id = a.run_id) AS latency,
       (SELECT count(*) FROM iobench.run_stalls WHERE run_id = a.run_id) AS stalls,
       (SELECT count(*) FROM iobench.run_waits WHERE run_id = a.run_id) AS waits,
       (SELECT count(*) FROM iobench.run_wait_sampling WHERE run_id = a.run_id) AS sampling
  FROM a;
SELECT seconds > 0 AS seconds, latency > 0 AS latency, stalls > 0 AS stalls, waits > 0 AS waits,
       sampling = 1 AS sampling
  FROM a_children;
DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM a);
CREATE TEMP TABLE imp AS SELECT i.* FROM doc, iobench.import_runs(doc.d, 'elsewhere') i;
SELECT imported FROM imp;
SELECT r.origin_run_id = a.run_id AS origin, r.server, r.imported_at IS NOT NULL AS imported,
       r.run_uuid = a.run_uuid AS uuid, r.iops = a.iops AS iops, r.lat_p99_us = a.lat_p99_us AS p99,
       r.host = a.host AS host, r.system_identifier = a.system_identifier AS sysid,
       (SELECT count(*) FROM iobench.run_latency l WHERE l.run_id = r.run_id) =
           jsonb_array_length((SELECT d FROM doc) -> 'runs' -> 0 -> 'latency') AS latency,
       (SELECT sum(count) FROM iobench.run_latency l WHERE l.run_id = r.run_id) = a.ops + coalesce(a.fsync_ops, 0) AS samples
  FROM iobench.runs r, a WHERE r.run_id = (SELECT run_id FROM imp);
-- with every child
SELECT (SELECT count(*) FROM iobench.run_seconds WHERE run_id = imp.run_id) = c.seconds AS seconds,
       (SELECT count(*) FROM iobench.run_latency WHERE run_id = imp.run_id) = c.latency AS latency,
       (SELECT count(*) FROM iobench.run_stalls WHERE run_id = imp.run_id) = c.stalls AS stalls,
       (SELECT count(*) FROM iobench.run_waits WHERE run_id = imp.run_id) = c.waits AS waits,
       (SELECT count(*) FROM iobench.run_wait_sampling WHERE run_id = imp.run_id) = c.sampling AS sampling
  FROM imp, a_children c;
SELECT i.imported, i.run_id = (SELECT run_id FROM imp) AS same_run FROM doc, iobench.import_runs(doc.d, 'again') i;
-- a document of another version: unknown keys ignored, missing ones take
-- their defaults
CREATE TEMP TABLE other AS
SELECT i.* FROM doc, iobench.import_runs(jsonb_set(doc.d, '{runs,0,run}',
    (doc.d -> 'runs' -> 0 -> 'run') - 'tool' - 'cold_reads' - 'go_at'
    || '{"run_uuid": "00000000-0000-0000-0000-0000000000aa", "a_later_column": 1}'), 'older') i;
SELECT r.tool, r.cold_reads, r.go_at IS NULL AS no_go_at, r.server, o.imported
  FROM other o JOIN iobench.runs r USING (run_id);
SELECT count(*) AS copies FROM iobench.runs WHERE run_uuid = (SELECT run_uuid FROM a);
-- a run of engine postgres cancelled while it measures (statement_timeout,
-- as run_cancel does) keeps its read path as far as it got, so it exports
-- and imports with the other runs like a completed one.  A run cancelled
-- before it measures stores nothing: a busy machine gets a second, longer try
CREATE FUNCTION pg_temp.cancelled_postgres_run() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM iobench.runs WHERE label = 'fleet cancelled postgres') THEN
        PERFORM iobench.run(engine => 'postgres', duration => '60s', file_size => '8MB',
                            label => 'fleet cancelled postgres');
    END IF;
EXCEPTION WHEN query_canceled THEN
    NULL;
END
$$;
SET statement_timeout = '4s';
SELECT pg_temp.cancelled_postgres_run();
SET statement_timeout = '20s';
SELECT pg_temp.cancelled_postgres_run();
RESET statement_timeout;
-- the relations it read (and any an earlier test left) are removed, each
-- counted once
SELECT count(*) AS read_targets_before FROM iobench.read_targets \gset
SELECT iobench.drop_read_targets() = :read_targets_before AS each_dropped_counted;
SELECT count(*) AS read_targets_left FROM iobench.read_targets;
CREATE TEMP TABLE cancelled AS
SELECT r.run_id, r.run_uuid, r.status, r.ops, to_jsonb(sr) - 'run_id' AS server_reads
  FROM iobench.runs r LEFT JOIN iobench.run_server_reads sr USING (run_id)
 WHERE r.label = 'fleet cancelled postgres';
SELECT status, ops > 0 AS measured, server_reads IS NOT NULL AS has_server_reads,
       (server_reads ->> 'blocks')::bigint > 0 AS counted
  FROM cancelled;
CREATE TEMP TABLE cancelled_doc AS
SELECT iobench.export_runs(ARRAY[(SELECT run_id FROM imp), (SELECT run_id FROM b),
                                 (SELECT run_id FROM cancelled)]) AS d;
DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM cancelled);
CREATE TEMP TABLE imp_cancelled AS
SELECT i.* FROM cancelled_doc, iobench.import_runs(cancelled_doc.d, 'elsewhere') i;
SELECT i.imported, r.status, (SELECT to_jsonb(sr) - 'run_id' FROM iobench.run_server_reads sr
                               WHERE sr.run_id = i.run_id) = c.server_reads AS same_server_reads
  FROM imp_cancelled i JOIN iobench.runs r USING (run_id)
  LEFT JOIN cancelled c ON c.run_uuid = i.run_uuid
 ORDER BY r.status, i.imported;
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM imp_cancelled WHERE imported);
-- the block device's seconds and a tablespace group's tablespaces travel
-- too: a run on a group of two, exported, gone here, then imported
\getenv abs_builddir PG_ABS_BUILDDIR
\set ts_dir :abs_builddir '/testtablespace'
CREATE TABLESPACE iob_fleet_ts LOCATION :'ts_dir';
CREATE TEMP TABLE g AS
SELECT * FROM iobench.run(tablespaces => ARRAY['pg_default', 'iob_fleet_ts']::name[], files => 2,
                          duration => '300ms', file_size => '1MB', engine => 'psync', label => 'fleet group');
-- (with the generated columns: the importing server computes the same)
CREATE TEMP TABLE g_disk AS
SELECT to_jsonb(d) - 'run_id' AS row FROM iobench.run_disk_seconds d WHERE d.run_id = (SELECT run_id FROM g);
CREATE TEMP TABLE g_ts AS
SELECT to_jsonb(t) - 'run_id' AS row FROM iobench.run_tablespaces t WHERE t.run_id = (SELECT run_id FROM g);
CREATE TEMP TABLE g_stats AS SELECT s.* FROM g, iobench.disk_stats(g.run_id) s;
CREATE TEMP TABLE g_report AS SELECT line FROM g, iobench.report(g.run_id) line;
CREATE TEMP TABLE g_json AS SELECT iobench.run_json(g.run_id) AS j FROM g;
SELECT (SELECT count(*) FROM g_ts) AS tablespaces,
       (SELECT count(*) FROM g_disk) > 0 OR (SELECT disk IS NULL FROM g) AS disk_seconds;
-- disk_stats() is rounded for reading, two decimals as iostat prints
SELECT coalesce(bool_and(r_s = round(r_s::numeric, 2) AND w_s = round(w_s::numeric, 2)
                         AND rmb_s = round(rmb_s::numeric, 2) AND wmb_s = round(wmb_s::numeric, 2)
                         AND aqu_sz = round(aqu_sz::numeric, 2) AND util_pct = round(util_pct::numeric, 2)
                         AND f_s = round(f_s::numeric, 2)
                         AND areq_kb IS NOT DISTINCT FROM round(areq_kb::numeric, 2)::double precision
                         AND w_await_ms IS NOT DISTINCT FROM round(w_await_ms::numeric, 2)::double precision),
                true) AS disk_stats_rounded
  FROM g_stats;
CREATE TEMP TABLE g_doc AS SELECT iobench.export_runs(ARRAY[(SELECT run_id FROM g)]) AS d;
SELECT jsonb_array_length(d -> 'runs' -> 0 -> 'tablespaces') AS tablespaces,
       jsonb_array_length(d -> 'runs' -> 0 -> 'disk_seconds') = (SELECT count(*) FROM g_disk) AS disk_seconds,
       (SELECT array_agg(e ->> 'tablespace' ORDER BY n)
          FROM jsonb_array_elements(d -> 'runs' -> 0 -> 'tablespaces') WITH ORDINALITY x(e, n)) AS in_order,
       NOT EXISTS (SELECT FROM jsonb_array_elements(d -> 'runs' -> 0 -> 'disk_seconds') e,
                               jsonb_object_keys(e) k
                     JOIN pg_attribute a ON a.attname = k AND a.attrelid = 'iobench.run_disk_seconds'::regclass
                    WHERE a.attgenerated <> '' OR a.attname = 'run_id') AS no_generated
  FROM g_doc;
DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM g);
CREATE TEMP TABLE imp_g AS SELECT i.* FROM g_doc, iobench.import_runs(g_doc.d, 'elsewhere') i;
SELECT imp_g.imported,
       (SELECT count(*) FROM iobench.run_tablespaces t WHERE t.run_id = imp_g.run_id) AS tablespaces,
       NOT EXISTS (SELECT row FROM g_ts
                   EXCEPT SELECT to_jsonb(t) - 'run_id' FROM iobench.run_tablespaces t WHERE t.run_id = imp_g.run_id)
       AND NOT EXISTS (SELECT to_jsonb(t) - 'run_id' FROM iobench.run_tablespaces t WHERE t.run_id = imp_g.run_id
                       EXCEPT SELECT row FROM g_ts) AS same_tablespaces,
       NOT EXISTS (SELECT row FROM g_disk
                   EXCEPT SELECT to_jsonb(d) - 'run_id' FROM iobench.run_disk_seconds d WHERE d.run_id = imp_g.run_id)
       AND NOT EXISTS (SELECT to_jsonb(d) - 'run_id' FROM iobench.run_disk_seconds d WHERE d.run_id = imp_g.run_id
                       EXCEPT SELECT row FROM g_disk) AS same_disk_seconds,
       NOT EXISTS (SELECT * FROM g_stats EXCEPT SELECT * FROM iobench.disk_stats(imp_g.run_id))
       AND NOT EXISTS (SELECT * FROM iobench.disk_stats(imp_g.run_id) EXCEPT SELECT * FROM g_stats) AS same_disk_stats
  FROM imp_g;
-- and report() shows the copy as the original, but for its first line
-- (the run id here) and where it came from; run_json() the same disk_util
SELECT (SELECT count(*) FROM (SELECT line FROM g_report
                              EXCEPT ALL SELECT line FROM imp_g, iobench.report(imp_g.run_id) line) x
         WHERE x.line NOT LIKE 'iobench run %') AS lines_lost,
       (SELECT count(*) FROM (SELECT line FROM imp_g, iobench.report(imp_g.run_id) line
                              EXCEPT ALL SELECT line FROM g_report) x
         WHERE x.line NOT LIKE 'iobench run %' AND x.line NOT LIKE '  server "elsewhere": %') AS lines_added,
       (SELECT count(*) FROM g_report WHERE line LIKE '  iob_fleet_ts %') AS group_line,
       (SELECT iobench.run_json(imp_g.run_id) -> 'disk_util' = g_json.j -> 'disk_util'
          FROM imp_g, g_json) AS same_disk_util;
-- a device's second written out by hand, as any machine's: stored with
-- iostat's figures computed here (a generated column in the document is
-- ignored), and exported again as it came
CREATE TEMP TABLE hand_disk AS
SELECT '[{"device": "vdz", "member": false, "second": 0, "interval_s": 0.5,
          "reads": 100, "read_merges": 0, "read_sectors": 1600, "read_ms": 50,
          "writes": 10, "write_merges": 1, "write_sectors": 160, "write_ms": 20,
          "in_flight": 1, "io_ms": 250, "queue_ms": 70, "discards": null, "discard_merges": null,
          "discard_sectors": null, "discard_ms": null, "flushes": 2, "flush_ms": 4}]'::jsonb AS rows;
CREATE TEMP TABLE hand AS
SELECT i.* FROM g_doc, hand_disk,
       iobench.import_runs(jsonb_set(jsonb_set(g_doc.d, '{runs,0,run,run_uuid}', '"00000000-0000-0000-0000-0000000000bb"'),
                                     '{runs,0,disk_seconds}', jsonb_set(hand_disk.rows, '{0,r_s}', '1')), 'by hand') i;
SELECT device, member, second, r_s, w_s, rmb_s, wmb_s, areq_kb, aqu_sz, r_await_ms, w_await_ms,
       util_pct, d_s, f_s
  FROM iobench.run_disk_seconds WHERE run_id = (SELECT run_id FROM hand);
SELECT iobench.export_runs(ARRAY[hand.run_id]) -> 'runs' -> 0 -> 'disk_seconds' = hand_disk.rows AS exported_as_it_came
  FROM hand, hand_disk;
-- a document of 0.1, which has neither: imported without them
CREATE TEMP TABLE old_g AS
SELECT i.* FROM g_doc, iobench.import_runs(jsonb_set(g_doc.d, '{runs,0}',
    (g_doc.d -> 'runs' -> 0) - 'disk_seconds' - 'tablespaces'
    || jsonb_build_object('run', (g_doc.d -> 'runs' -> 0 -> 'run')
                                 || '{"run_uuid": "00000000-0000-0000-0000-0000000000cc"}'))) i;
SELECT o.imported,
       (SELECT count(*) FROM iobench.run_tablespaces t WHERE t.run_id = o.run_id) AS tablespaces,
       (SELECT count(*) FROM iobench.run_disk_seconds d WHERE d.run_id = o.run_id) AS disk_seconds,
       (SELECT count(*) FROM iobench.run_seconds s WHERE s.run_id = o.run_id) > 0 AS seconds
  FROM old_g o;
DROP TABLESPACE iob_fleet_ts;
-- the report names the server
SELECT count(*) = 1 AS named
  FROM iobench.report((SELECT run_id FROM imp)) AS line
 WHERE line LIKE format('  server "elsewhere": its run %s there, imported %%', (SELECT run_id FROM a));
-- bad documents
SELECT * FROM iobench.import_runs(NULL);
SELECT * FROM iobench.import_runs('{"format": "fio"}');
SELECT * FROM iobench.import_runs('{"format": "iobench runs", "version": 2, "runs": []}');
SELECT * FROM iobench.import_runs('{"format": "iobench runs", "version": 1, "runs": [{"run": {"run_uuid": "00000000-0000-0000-0000-000000000001"}}]}');
SELECT * FROM iobench.import_runs('{"format": "iobench runs", "version": 1, "runs": []}', '');

-- fio: a real result of fio 3.33 --output-format=json+ (70 % reads,
-- io_uring QD4, an fsync every 8 writes)
\getenv abs_srcdir PG_ABS_SRCDIR
\set fio `cat :'abs_srcdir'/data/fio_randrw.json`
CREATE TEMP TABLE fio AS SELECT * FROM iobench.import_fio(:'fio', server => 'fio box');
SELECT tool, server, label, rw, read_pct, block_size, iodepth, workers, fsync_every, sync_method,
       direct, engine, file_size, files, status FROM fio;
SELECT f.read_ops = (:'fio'::jsonb -> 'jobs' -> 0 -> 'read' ->> 'total_ios')::bigint AS read_ops,
       f.write_ops = (:'fio'::jsonb -> 'jobs' -> 0 -> 'write' ->> 'total_ios')::bigint AS write_ops,
       f.fsync_ops = (:'fio'::jsonb -> 'jobs' -> 0 -> 'sync' ->> 'total_ios')::bigint AS fsync_ops,
       f.read_lat_p99_us * 1000 = (:'fio'::jsonb -> 'jobs' -> 0 -> 'read' -> 'clat_ns' -> 'percentile' ->> '99.000000')::double precision AS read_p99,
       f.ops = f.read_ops + f.write_ops AS ops,
       (SELECT sum(count) FROM iobench.run_latency l WHERE l.run_id = f.run_id AND l.op = 'read') = f.read_ops AS read_bins,
       (SELECT sum(count) FROM iobench.run_latency l WHERE l.run_id = f.run_id AND l.op = 'fsync') = f.fsync_ops AS fsync_bins,
       f.lat_p99_us BETWEEN least(f.read_lat_p99_us, f.write_lat_p99_us) * 0.98
                        AND greatest(f.read_lat_p99_us, f.write_lat_p99_us) * 1.02 AS data_p99
  FROM fio f;
SELECT i.run_id = (SELECT run_id FROM fio) AS idempotent FROM iobench.import_fio(:'fio') i;
-- its report says there is no per-second series (not "min 0, median 0, max 0")
SELECT line FROM iobench.report((SELECT run_id FROM fio)) AS line WHERE line LIKE 'IOPS per second%';
SELECT * FROM iobench.import_fio('{"jobs": []}');
SELECT * FROM iobench.import_fio('{"fio version": "fio-3.33", "jobs": [{"jobname": "t", "job options": {"rw": "trim"}}]}');
SELECT iobench.fio_size('8k') AS k, iobench.fio_size('1M') AS m, iobench.fio_size('64KiB') AS kib,
       iobench.fio_size('4096') AS plain, iobench.fio_size('50%') AS pct;

-- one workload on two servers at once, and one that cannot be reached
CREATE TEMP TABLE f1 AS
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a', 'iob_loop_b', 'iob_nowhere'],
                                '{"duration": "300ms", "file_size": "1MB", "engine": "psync"}',
                                start_delay => '1s', label => 'fleet f1');
SELECT server, test_no, test, status, run_id IS NOT NULL AS gathered,
       go_at >= start_at AS waited,
       -- each server's start after the first server's, in ms
       skew_ms = round((extract(epoch FROM go_at - min(go_at) OVER ()) * 1000)::numeric, 3) AS skew,
       error IS NOT NULL AS has_error
  FROM f1 ORDER BY server;
SELECT error LIKE 'could not establish connection%' AS unreachable,
       error ~ '^could not establish connection: .{10,}' AS says_why FROM f1 WHERE server = 'iob_nowhere';
SELECT count(DISTINCT start_at) = 1 AS one_start FROM f1;
-- (the servers reach this database: the runs were made here, and a fleet
-- call changes no run it did not make, so they keep no server name)
SELECT f1.server, r.server IS NULL AS made_here, r.label, r.start_at = f1.start_at AS start_kept
  FROM f1 JOIN iobench.runs r USING (run_id) ORDER BY f1.server;
SELECT suite IS NULL AS one_workload, servers, concurrent, status, label,
       settings = '{"duration": "300ms", "file_size": "1MB", "engine": "psync", "label": "fleet f1"}' AS settings
  FROM iobench.fleets WHERE fleet_id = (SELECT DISTINCT fleet_id FROM f1);
-- gathering twice stored once: the servers reach this instance, so each
-- run was stored here by its own server and is the gathered one
SELECT count(*) = 2 AS stored_once FROM iobench.runs WHERE label = 'fleet f1';

-- one after another: no common start
CREATE TEMP TABLE f2 AS
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a', 'iob_loop_b'],
                                '{"duration": "200ms", "file_size": "1MB", "engine": "psync"}',
                                concurrent => false);
SELECT server, status, start_at IS NULL AS no_start, go_at IS NOT NULL AS started FROM f2 ORDER BY server;
SELECT (SELECT go_at FROM f2 WHERE server = 'iob_loop_b') >
       (SELECT r.finished_at FROM f2 JOIN iobench.runs r USING (run_id) WHERE f2.server = 'iob_loop_a') AS after;

-- a cancel (here statement_timeout) stops the runs on every server; their
-- partial runs are gathered, the call is kept as cancelled with them, and
-- the statement fails with 57014 like any statement's, its DETAIL saying
-- what was kept (the timeout leaves the runs time to start and measure on
-- a busy machine: a run cancelled before it measures stores nothing to
-- gather).  The servers here are this database: the runs were stored by
-- their own sessions, and kept once.
SET statement_timeout = '2500ms';
DO $$
DECLARE s text; d text;
BEGIN
    PERFORM * FROM iobench.fleet_run(ARRAY['iob_loop_a', 'iob_loop_b'],
                                     '{"duration": "60s", "file_size": "1MB", "engine": "psync", "label": "fleet cancel"}',
                                     start_delay => '200ms');
EXCEPTION WHEN query_canceled THEN
    GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
    RAISE WARNING 'sqlstate %, detail: %', s, regexp_replace(d, '\d+', 'N', 'g');
END
$$;
RESET statement_timeout;
CREATE TEMP TABLE f4 AS
SELECT fr.fleet_id, fr.server, coalesce(r.status, 'failed') AS status, fr.run_id, fr.error
  FROM iobench.fleets f JOIN iobench.fleet_runs fr USING (fleet_id)
  LEFT JOIN iobench.runs r USING (run_id)
 WHERE f.settings ->> 'label' = 'fleet cancel';
SELECT server, status, run_id IS NOT NULL AS gathered, error FROM f4 ORDER BY server;
SELECT status, finished_at IS NOT NULL AS finished FROM iobench.fleets WHERE fleet_id = (SELECT DISTINCT fleet_id FROM f4);
SELECT count(*) AS copies FROM iobench.runs WHERE label = 'fleet cancel';
SELECT public.running_workers() AS running_workers;

-- a suite on two servers, test by test.  Its ratios need I/O on both: a
-- disk stall on a loaded machine can leave a 100 ms test with none, so the
-- suite runs again (up to five times) until every run did some, and the
-- tries without are removed
CREATE TEMP TABLE f3 AS
SELECT * FROM iobench.fleet_suite('oltp', ARRAY['iob_loop_a', 'iob_loop_b']) WITH NO DATA;
DO $$
BEGIN
    FOR i IN 1 .. 5 LOOP
        DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM f3);
        DELETE FROM iobench.fleets WHERE fleet_id IN (SELECT fleet_id FROM f3);
        DELETE FROM f3;
        INSERT INTO f3
        SELECT * FROM iobench.fleet_suite('oltp', ARRAY['iob_loop_a', 'iob_loop_b'], duration => '100ms',
                                          file_size => '1MB', engine => 'psync', start_delay => '500ms');
        EXIT WHEN (SELECT bool_and(r.status = 'completed' AND r.ops > 0)
                     FROM f3 LEFT JOIN iobench.runs r USING (run_id));
    END LOOP;
END
$$;
SELECT test_no, server, status, go_at >= start_at AS waited FROM f3 ORDER BY test_no, server;
SELECT test_no, server, base_server, iops_ratio IS NOT NULL AS ratio, ratio_to_median IS NOT NULL AS median,
       CASE WHEN server = base_server THEN iops_ratio = 1 END AS baseline
  FROM iobench.fleet_compare((SELECT DISTINCT fleet_id FROM f3)) ORDER BY test_no, server;
-- the merged row's p99 comes from the summed histograms of both runs
SELECT count(*) AS tests,
       bool_and(c.p99_us = (SELECT round(m.lat_p99_us::numeric, 1) FROM iobench.merged_latency(
           ARRAY(SELECT x.run_id FROM f3 x WHERE x.test_no = c.test_no)) m)) AS merged_p99
  FROM iobench.fleet_compare((SELECT DISTINCT fleet_id FROM f3)) c WHERE c.server = '(all servers)';
SELECT count(*) = 4 + 3 AS report_lines
  FROM iobench.fleet_report((SELECT DISTINCT fleet_id FROM f3));
-- (fleet call ids depend on the tests that ran before: shown as N)
SELECT regexp_replace(line, '^fleet call \d+:', 'fleet call N:') AS line
  FROM iobench.fleet_report((SELECT DISTINCT fleet_id FROM f3)) AS line
 WHERE line LIKE 'fleet call %' OR line LIKE 'test %';
-- (other servers' runs of the same pattern may be slower: ranks are within the fleet)
SELECT count(*) > 0 AS rows, bool_and(rank_from_slowest BETWEEN 1 AND servers) AS slowest,
       bool_and(ratio_to_median > 0) AS ratios
  FROM iobench.fleet_comparison WHERE server IN ('iob_loop_a', 'iob_loop_b');
SELECT * FROM iobench.fleet_compare(-1);
SET client_min_messages = notice;
DO $$
DECLARE
    id bigint := (SELECT DISTINCT fleet_id FROM f3);
    hint text;
BEGIN
    PERFORM FROM iobench.fleet_compare(id, 'iob_nowhere');
EXCEPTION WHEN invalid_parameter_value THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RAISE NOTICE 'error: %', replace(SQLERRM, 'call ' || id, 'call N');
    RAISE NOTICE 'hint: %', replace(hint, 'call ' || id, 'call N');
END
$$;
SET client_min_messages = warning;

-- bad calls: nothing is sent
SELECT * FROM iobench.fleet_run(ARRAY[]::text[]);
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a', NULL]);
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a', 'iob_loop_a']);
SELECT * FROM iobench.fleet_run(ARRAY['no_such_server']);
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a'], '{"bogus": 1}');
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a'], '{"start_at": "now"}');
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a'], '[1]');
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a'], start_delay => '-1s');
SELECT * FROM iobench.fleet_suite('nope', ARRAY['iob_loop_a']);
-- a bad value is the remote run()'s error, per server
SELECT server, status, error FROM iobench.fleet_run(ARRAY['iob_loop_a'], '{"rw": "sideways", "file_size": "1MB"}');

-- privileges: a role needs the fleet functions, and a user mapping
CREATE ROLE iob_fleet_user;
GRANT USAGE ON SCHEMA iobench TO iob_fleet_user;
GRANT USAGE ON FOREIGN SERVER iob_loop_a TO iob_fleet_user;
SET ROLE iob_fleet_user;
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a']);
RESET ROLE;
GRANT EXECUTE ON FUNCTION iobench.fleet_run(text[], jsonb, boolean, interval, text) TO iob_fleet_user;
SET ROLE iob_fleet_user;
-- the fleet's steps are in iobench_internal, which no role may use by default
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a']);
RESET ROLE;
GRANT USAGE ON SCHEMA iobench_internal TO iob_fleet_user;
GRANT EXECUTE ON FUNCTION iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb)
   TO iob_fleet_user;
SET ROLE iob_fleet_user;
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a']);
RESET ROLE;
GRANT EXECUTE ON FUNCTION iobench.import_runs(jsonb, text) TO iob_fleet_user;
SET ROLE iob_fleet_user;
SELECT * FROM iobench.fleet_run(ARRAY['iob_loop_a']);
SELECT * FROM iobench.import_fio('{}');
-- the campaign frame takes the grant of its kind's API function: a role
-- that can reach it (USAGE on iobench_internal) stores no campaign of a
-- kind it may not make
SELECT iobench_internal.campaign('fleet_suite', '{}', '{}', 'iobench_internal.fleet_body(bigint, jsonb)');
SELECT iobench_internal.campaign('suite', '{}', '{}', 'iobench_internal.suite_body(bigint, jsonb)');
RESET ROLE;
REVOKE ALL ON FUNCTION iobench.fleet_run(text[], jsonb, boolean, interval, text),
                       iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb),
                       iobench.import_runs(jsonb, text)
  FROM iob_fleet_user;
REVOKE USAGE ON SCHEMA iobench_internal FROM iob_fleet_user;
REVOKE USAGE ON FOREIGN SERVER iob_loop_a FROM iob_fleet_user;
REVOKE USAGE ON SCHEMA iobench FROM iob_fleet_user;
DROP ROLE iob_fleet_user;

-- clean up
DELETE FROM iobench.fleets;
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM b UNION SELECT run_id FROM imp
                                          UNION SELECT run_id FROM other
                                          UNION SELECT run_id FROM imp_g UNION SELECT run_id FROM hand
                                          UNION SELECT run_id FROM old_g
                                          UNION SELECT run_id FROM fio
                                          UNION SELECT run_id FROM f1 UNION SELECT run_id FROM f2 UNION SELECT run_id FROM f4
                                          UNION SELECT run_id FROM f3);
DELETE FROM iobench.runs WHERE label LIKE 'oltp: %' OR label = 'sideways';
SELECT public.leftover_files() AS leftover_files, public.running_workers() AS running_workers;
