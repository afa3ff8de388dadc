-- The wait table on planted raw rows: columns, benign filter, 95 % cut,
-- percentages, the Resource/Signal split, NULL signal, grouping by name.
-- No sampling here, so every figure is exact.

CREATE TEMP TABLE planted AS
SELECT ARRAY[
    ROW('IO:DataFileRead',        50,  10,   100, NULL, NULL, NULL),
    ROW('IO:WALSync',             20,   2,    40, NULL, NULL, NULL),
    ROW('IO:WALSync',             10,   1,    20, NULL, NULL, NULL),  -- same name: summed
    ROW('LWLock:WALWrite',        10,   NULL, 20, NULL, NULL, NULL),  -- signal unknown
    ROW('Lock:transactionid',      6,   6.5,   3, NULL, NULL, NULL),  -- signal capped at wait
    ROW('IPC:BufferIO',            4,   0,     0, NULL, NULL, NULL),  -- no observed entry
    ROW('Activity:WalWriterMain', 500,  0,     1, NULL, NULL, NULL),  -- benign
    ROW('Client:ClientRead',     1000,  0,     5, NULL, NULL, NULL),  -- benign (idle)
    ROW('Timeout:PgSleep',          2,  0,     1, NULL, NULL, NULL)   -- benign
]::iobench.wait_raw[] AS raw;

-- The table people read: Paul Randal's columns, benign rows out, and the
-- row that takes the running total past 95 % (6 %: 90 -> 96) is the last.
SELECT * FROM iobench.wait_table((SELECT raw FROM planted));

-- Every row, with the flags
SELECT wait_type, wait_s, resource_s, signal_s, wait_count, percentage,
       avg_wait_s, benign, in_top_95
  FROM iobench.wait_table_all((SELECT raw FROM planted));

-- Percentages of all rows sum to 100; Resource_S + Signal_S = Wait_S; the
-- least Resource_S is 0, of the row whose signal (6.5) is capped at its wait
-- (6): uncapped it would be -0.5
SELECT sum(percentage) = 100 AS percent_sum_100,
       bool_and(signal_s IS NULL OR resource_s + signal_s = wait_s) AS split_adds_up,
       min(resource_s) AS least_resource_s
  FROM iobench.wait_table_all((SELECT raw FROM planted));

-- A row exactly at 95 % before it is cut (the total before must be under 95)
SELECT "WaitType", "Percentage"
  FROM iobench.wait_table(ARRAY[
    ROW('A:a', 50, 0, 1, NULL, NULL, NULL),
    ROW('B:b', 30, 0, 1, NULL, NULL, NULL),
    ROW('C:c', 15, 0, 1, NULL, NULL, NULL),
    ROW('D:d',  4, 0, 1, NULL, NULL, NULL),
    ROW('E:e',  1, 0, 1, NULL, NULL, NULL)]::iobench.wait_raw[]);

-- The benign list is editable and the table follows it
INSERT INTO iobench.benign_waits (wait_type, reason) VALUES ('IO:DataFileRead', 'test');
SELECT "WaitType", "Percentage" FROM iobench.wait_table((SELECT raw FROM planted));
DELETE FROM iobench.benign_waits WHERE wait_type = 'IO:DataFileRead';

-- Honest counts and averages (sampled every 10 ms): an exact count, where
-- one covers the sampled entries, is WaitCount and divides the exact time;
-- a sampled count is a lower bound, and its average is shown only for waits
-- of at least 10 periods outside the sub-tick classes (IO, LWLock).
SELECT "WaitType", "WaitCount", "AvgWait_S", "AvgRes_S", "AvgSig_S"
  FROM iobench.wait_table(ARRAY[
    ROW('IO:DataFileRead',    2.0, 0.5, 100, 20000, 4.0, NULL),   -- exact, timed
    ROW('IO:WALSync',         1.0, 0,    50,  1000, NULL, NULL),  -- exact, untimed
    ROW('IO:DataFileWrite',   1.0, 0,    40,   10, 1.0, NULL),    -- "exact" below the sampled count
    ROW('Lock:transactionid', 4.0, 0,     4, NULL, NULL, NULL),   -- 1 s each: 100 periods
    ROW('IPC:BufferIO',       0.8, 0,    20, NULL, NULL, NULL),   -- 40 ms each: 4 periods
    ROW('LWLock:BufferMapping', 0.7, 0,   2, NULL, NULL, NULL)    -- 350 ms, but sub-tick by nature
  ]::iobench.wait_raw[], 0.010)
 ORDER BY "WaitType";
SELECT wait_type, wait_count, sampled_count, count_exact
  FROM iobench.wait_table_all(ARRAY[
    ROW('IO:DataFileRead',  2.0, 0.5, 100, 20000, 4.0, NULL),
    ROW('IO:DataFileWrite', 1.0, 0,    40,   10, 1.0, NULL),
    ROW('IPC:BufferIO',     0.8, 0,    20, NULL, NULL, NULL)
  ]::iobench.wait_raw[], 0.010)
 ORDER BY wait_type;
-- Without the period, only the class rule holds an average back
SELECT "WaitType", "AvgWait_S"
  FROM iobench.wait_table(ARRAY[
    ROW('IPC:BufferIO', 0.8, 0, 20, NULL, NULL, NULL),
    ROW('IO:DataFileExtend', 0.2, 0, 20, NULL, NULL, NULL)]::iobench.wait_raw[])
 ORDER BY "WaitType";

-- Edge cases: nothing, only benign waits, a zero total
SELECT count(*) FROM iobench.wait_table('{}'::iobench.wait_raw[]);
SELECT count(*) FROM iobench.wait_table(ARRAY[ROW('Client:ClientRead', 5, 0, 1, NULL, NULL, NULL)]::iobench.wait_raw[]);
SELECT wait_type, percentage, in_top_95
  FROM iobench.wait_table_all(ARRAY[ROW('IO:DataFileRead', 0, 0, 1, NULL, NULL, NULL)]::iobench.wait_raw[]);

-- Backend types: rows of one wait type from several backend types are one
-- row of the table people read (the same figures as without them), the
-- unrounded twin lists the backend types, and the per-backend-type table
-- keeps them apart, with Percentage of all non-benign time
CREATE TEMP TABLE typed AS
SELECT ARRAY[
    ROW('IO:DataFileRead',       3, 1, 30, NULL, NULL, 'io worker'),
    ROW('IO:DataFileRead',       1, 0, 10, NULL, NULL, 'client backend'),
    ROW('IO:AioIoCompletion',    4, 1, 20, NULL, NULL, 'client backend'),
    ROW('Activity:IoWorkerMain', 9, 0,  5, NULL, NULL, 'io worker'),
    ROW('Lock:relation',         2, 0,  1, NULL, NULL, NULL)
]::iobench.wait_raw[] AS raw;
SELECT * FROM iobench.wait_table((SELECT raw FROM typed));
SELECT wait_type, wait_s, backend_types, benign
  FROM iobench.wait_table_all((SELECT raw FROM typed))
 ORDER BY wait_type;
SELECT backend_type, wait_type, wait_s, resource_s, signal_s, wait_count, percentage, benign
  FROM iobench.wait_table_by_backend((SELECT raw FROM typed));
-- The server's description of each wait type, from PostgreSQL 17 on
-- (pg_wait_events); NULL before, and for iobench's own rows
SELECT wait_type,
       description IS NOT NULL = (current_setting('server_version_num')::int >= 170000)
         AS described_from_17
  FROM iobench.wait_table_all(ARRAY[
    ROW('IO:DataFileRead', 1, 0, 1, NULL, NULL, NULL),
    ROW('Timeout:PgSleep', 1, 0, 1, NULL, NULL, NULL)]::iobench.wait_raw[])
 ORDER BY wait_type;
SELECT description IS NULL AS own_rows_undescribed
  FROM iobench.wait_table_all(ARRAY[ROW('CPU:Preempted', 1, 1, 1, NULL, NULL, NULL)]::iobench.wait_raw[]);

-- The built-in benign list: the idle waits of PostgreSQL 15, and of 18's
-- I/O workers; idle in transaction is not among them
SELECT wait_type FROM iobench.benign_waits WHERE builtin ORDER BY wait_type;
SELECT count(*) FROM iobench.benign_waits WHERE wait_type LIKE '%idle in transaction%';

-- A run of engine 'postgres' keeps the server's I/O workers' waits apart
-- (' (io worker)' after the wait type, src/run/wait_run.c): they wait for the
-- same reads as the run's own workers, so they are outside the Percentage
-- base (the run's own rows make up 100 %), kept in the tables people read
-- unless benign, and benign and described as their wait type is (the
-- description checked for a wait type every release has)
SELECT wait_type, percentage, in_top_95, benign, backend_types,
       CASE WHEN wait_type LIKE 'IO:DataFileRead%' THEN
           description IS NOT NULL = (current_setting('server_version_num')::int >= 170000)
       END AS described_from_17
  FROM iobench.wait_table_all(ARRAY[
    ROW('IO:AioIoCompletion',                1.9, 0, 3, NULL, NULL, NULL),
    ROW('CPU:Preempted',                     0.1, 0.1, 2, NULL, NULL, NULL),
    ROW('IO:DataFileRead',                   0,   0, 0, 600, 1.9, NULL),
    ROW('IO:DataFileRead (io worker)',       5.7, 0.1, 23, NULL, NULL, 'io worker'),
    ROW('Activity:IoWorkerMain (io worker)', 0.3, 0, 22, NULL, NULL, 'io worker'),
    ROW('CPU:Preempted (io worker)',         0.01, 0.01, 1, NULL, NULL, 'io worker')]::iobench.wait_raw[])
 ORDER BY wait_type;
SELECT * FROM iobench.wait_table(ARRAY[
    ROW('IO:AioIoCompletion',                1.9, 0, 3, NULL, NULL, NULL),
    ROW('CPU:Preempted',                     0.1, 0.1, 2, NULL, NULL, NULL),
    ROW('IO:DataFileRead (io worker)',       5.7, 0.1, 23, NULL, NULL, 'io worker'),
    ROW('Activity:IoWorkerMain (io worker)', 0.3, 0, 22, NULL, NULL, 'io worker')]::iobench.wait_raw[]);
