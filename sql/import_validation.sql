-- import_validation: what import_runs() and import_fio() refuse, and what
-- an import never changes.  Every figure of an imported run follows the
-- rules of a measured run (finite, not negative, counts that match the
-- histogram); the error names the run (or fio job) and the document's
-- field.  A refused run stores nothing.
SET client_min_messages = warning;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- a run with a histogram, exported; each bad document below is that
-- document with one field changed and a run_uuid of its own
CREATE TEMP TABLE src AS
SELECT * FROM iobench.run(rw => 'randrw', duration => '300ms', file_size => '1MB',
                          engine => 'psync', fsync_every => 4, label => 'import validation');
-- (with fixed figures, so that the errors read the same every time)
CREATE TEMP TABLE doc AS
SELECT jsonb_set(jsonb_set(jsonb_set(jsonb_set(d, '{runs,0,run}', d -> 'runs' -> 0 -> 'run' || '{
           "started_at": "2026-01-01 00:00:00+00", "finished_at": "2026-01-01 00:00:01+00",
           "ops": 15, "read_ops": 10, "write_ops": 5, "fsync_ops": 1,
           "block_size": 8192, "measured_s": 1, "bytes": 122880, "read_bytes": 81920, "write_bytes": 40960,
           "iops": 15, "read_iops": 10, "write_iops": 5, "fsync_iops": 1,
           "lat_p50_us": 10.5, "lat_p90_us": 20.5, "lat_p99_us": 20.5, "lat_p999_us": 20.5, "lat_max_us": 21,
           "read_lat_p50_us": 10.5, "read_lat_p90_us": 10.5, "read_lat_p99_us": 10.5,
           "read_lat_p999_us": 10.5, "read_lat_max_us": 11,
           "write_lat_p50_us": 20.5, "write_lat_p90_us": 20.5, "write_lat_p99_us": 20.5,
           "write_lat_p999_us": 20.5, "write_lat_max_us": 21,
           "fsync_lat_p50_us": 30.5, "fsync_lat_p90_us": 30.5, "fsync_lat_p99_us": 30.5,
           "fsync_lat_p999_us": 30.5, "fsync_lat_max_us": 31}'),
           '{runs,0,latency}', '[{"op": "read", "lower_us": 10, "upper_us": 11, "count": 10},
                                 {"op": "write", "lower_us": 20, "upper_us": 21, "count": 5},
                                 {"op": "fsync", "lower_us": 30, "upper_us": 31, "count": 1}]'),
           '{runs,0,seconds}', '[{"second": 0, "op": "read", "ops": 10, "bytes": 81920, "lat_mean_us": 10.5, "lat_max_us": 11},
                                 {"second": 0, "op": "write", "ops": 5, "bytes": 40960, "lat_mean_us": 20.5, "lat_max_us": 21}]'),
           '{runs,0,stalls}', '[]') AS d
  FROM (SELECT iobench.export_runs(ARRAY[(SELECT run_id FROM src)]) AS d) AS x;
CREATE FUNCTION pg_temp.bad(path text[], value jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT jsonb_set(jsonb_set(d, '{runs,0,run,run_uuid}', '"00000000-0000-0000-0000-0000000000c1"'),
                     path, value)
      FROM doc
$$;
CREATE TEMP TABLE before AS SELECT count(*) AS runs FROM iobench.runs;

-- the document as it is, under a new run_uuid: stored
SELECT imported FROM iobench.import_runs(pg_temp.bad('{runs,0,run,label}', '"copy"'), 'elsewhere');
DELETE FROM iobench.runs WHERE run_uuid = '00000000-0000-0000-0000-0000000000c1';

-- NaN, infinities and negative figures in the run
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,iops}', '"NaN"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,lat_p99_us}', '"Infinity"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,read_mb_per_s}', '"-Infinity"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,write_bytes}', '-8192'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,duration}', '"-1 second"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,system_identifier}', '"NaN"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,finished_at}', '"2025-12-31 23:59:59+00"'), 'elsewhere');
-- counts that do not match: data ops and reads plus writes, the histogram
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,ops}', '16'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,read_ops}', '11') #- '{runs,0,run,ops}', 'elsewhere');
-- and in the children
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,seconds,0,ops}', '-1'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,seconds,0,lat_mean_us}', '"NaN"'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,latency,0,count}', '-1'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,latency,0,upper_us}', '0'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,waits}',
    '[{"wait_type": "IO:DataFileRead", "wait_s": "-Infinity", "signal_s": 0, "wait_count": 1}]'), 'elsewhere');
-- figures that cannot be together: a block size of 0, bytes that are not
-- ops x block size (in the run and in a second), a rate without measured
-- time or not ops over it, percentiles that decrease (p99 below p50, p99.9
-- above the maximum)
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,block_size}', '0'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,read_bytes}', '262840320'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,seconds,1,bytes}', '40961'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,measured_s}', '0'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,iops}', '16042'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,read_lat_p99_us}', '0.001'), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,fsync_lat_p999_us}', '31.5'), 'elsewhere');
-- (commits too: a rate of commits without any)
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,commit_iops}', '7'), 'elsewhere');
-- texts of at most 8192 characters, JSON nested at most 32 levels
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,label}', to_jsonb(repeat('x', 8193))), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,waits}',
    jsonb_build_array(jsonb_build_object('wait_type', repeat('w', 10000), 'wait_s', 0, 'signal_s', 0, 'wait_count', 1))), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,run,label}', (repeat('[', 5000) || repeat(']', 5000))::jsonb), 'elsewhere');
SELECT * FROM iobench.import_runs(pg_temp.bad('{runs,0,seconds,0,lat_max_us}', (repeat('{"a": ', 40) || '1' || repeat('}', 40))::jsonb), 'elsewhere');
-- but a label of 8192 characters is one
SELECT imported FROM iobench.import_runs(pg_temp.bad('{runs,0,run,label}', to_jsonb(repeat('x', 8192))), 'elsewhere');
DELETE FROM iobench.runs WHERE run_uuid = '00000000-0000-0000-0000-0000000000c1';
-- nothing of them was stored
SELECT count(*) - (SELECT runs FROM before) AS stored FROM iobench.runs;

-- a document naming a run made here (its run_uuid) changes nothing of it
SELECT i.imported, i.run_id = s.run_id AS same_run
  FROM src s, iobench.import_runs(jsonb_build_object('format', 'iobench runs', 'version', 1,
           'runs', jsonb_build_array(jsonb_build_object('run', jsonb_build_object(
               'run_uuid', (SELECT run_uuid FROM src), 'server', 'thief', 'label', 'stolen')))),
           'thief') i;
SELECT r.server IS NULL AS no_server, r.label, r.imported_at IS NULL AS made_here
  FROM iobench.runs r JOIN src USING (run_id);
SELECT count(*) AS under_thief FROM iobench.fleet_comparison WHERE server = 'thief';

-- fio: a real result of fio 3.33 --output-format=json+, with one field
-- changed each time (and a fio version of its own, so that each is new)
\getenv abs_srcdir PG_ABS_SRCDIR
\set fio `cat :'abs_srcdir'/data/fio_randread.json`
CREATE TEMP TABLE fio_doc AS SELECT jsonb_set(:'fio'::jsonb, '{fio version}', '"fio-bad"') AS d;
CREATE FUNCTION pg_temp.fio(path text[], value jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    SELECT CASE WHEN value IS NULL THEN d #- path ELSE jsonb_set(d, path, value) END FROM fio_doc
$$;
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,error}', '"abc"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job options,iodepth}', '"abc"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job options,iodepth}', '"0"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,clat_ns,bins}', '{"abc": 1}'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,clat_ns,bins}', '{"1000": -1}'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job options,size}', '"99999999999999t"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job options,ramp_time}', '"soon"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{timestamp_ms}', '"yesterday"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{timestamp_ms}', NULL) #- '{timestamp}');
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job_runtime}', '-1000'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,usr_cpu}', '"NaN"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,iops}', '"Infinity"'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,total_ios}', '-5'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,total_ios}', '5'));
-- figures that cannot be together: p99 1 ns below a p50 of 98.8 us, no
-- run time for 8871 reads
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,read,clat_ns,percentile,99.000000}', '1'));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job_runtime}', '0'));
-- nested more than 32 levels, in a job or around the jobs
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,job options,bs}', (repeat('[', 5000) || repeat(']', 5000))::jsonb));
SELECT * FROM iobench.import_fio(pg_temp.fio('{global options}', (repeat('{"a": ', 40) || '1' || repeat('}', 40))::jsonb));
SELECT * FROM iobench.import_fio(pg_temp.fio('{jobs,0,jobname}', '"fio"'), label => repeat('l', 9000));
SELECT count(*) - (SELECT runs FROM before) AS stored FROM iobench.runs;
-- the result as it is imports
SELECT rw, block_size, iodepth, read_ops > 0 AS reads, duration
  FROM iobench.import_fio(pg_temp.fio('{jobs,0,jobname}', '"as it is"'));

-- a document of more than 64 MB is refused before it is read (a key
-- import_runs() does not know makes it big here; it would be ignored)
SELECT * FROM iobench.import_runs(jsonb_build_object('format', 'iobench runs', 'version', 1, 'runs', '[]'::jsonb,
                                                     'padding', repeat('x', 65 * 1024 * 1024)));
SELECT * FROM iobench.import_fio(jsonb_build_object('fio version', 'fio-3.33', 'jobs', '[]'::jsonb,
                                                    'padding', repeat('x', 65 * 1024 * 1024)));
-- and one just below the limit is read
SELECT count(*) AS runs FROM iobench.import_runs(jsonb_build_object('format', 'iobench runs', 'version', 1,
                                                     'runs', '[]'::jsonb, 'padding', repeat('x', 63 * 1024 * 1024)));

DELETE FROM iobench.runs WHERE run_id = (SELECT run_id FROM src) OR tool = 'fio-bad';
