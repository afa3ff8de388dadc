-- The wait table on planted raw rows: columns, benign filter, 95 % cut,
-- percentages, the Resource/Signal split, NULL signal, grouping by name.
-- No sampling here, so every figure is exact.

CREATE TEMP TABLE planted AS
SELECT ARRAY[
    ROW('IO:DataFileRead',        50,  10,   100, NULL, NULL),
    ROW('IO:WALSync',             20,   2,    40, NULL, NULL),
    ROW('IO:WALSync',             10,   1,    20, NULL, NULL),  -- same name: summed
    ROW('LWLock:WALWrite',        10,   NULL, 20, NULL, NULL),  -- signal unknown
    ROW('Lock:transactionid',      6,   6.5,   3, NULL, NULL),  -- signal capped at wait
    ROW('IPC:BufferIO',            4,   0,     0, NULL, NULL),  -- no observed entry
    ROW('Activity:WalWriterMain', 500,  0,     1, NULL, NULL),  -- benign
    ROW('Client:ClientRead',     1000,  0,     5, NULL, NULL),  -- benign (idle)
    ROW('Timeout:PgSleep',          2,  0,     1, NULL, NULL)   -- benign
]::iobench.wait_raw[] AS raw;

-- The table people read: Paul Randal's columns, benign rows out, and the
-- row that takes the running total past 95 % (6 %: 90 -> 96) is the last.
SELECT * FROM iobench.wait_table((SELECT raw FROM planted));

-- Every row, with the flags
SELECT wait_type, wait_s, resource_s, signal_s, wait_count, percentage,
       avg_wait_s, benign, in_top_95
  FROM iobench.wait_table_all((SELECT raw FROM planted));

-- Percentages of all rows sum to 100; Resource_S + Signal_S = Wait_S
SELECT sum(percentage) = 100 AS percent_sum_100,
       bool_and(signal_s IS NULL OR resource_s + signal_s = wait_s) AS split_adds_up,
       bool_and(signal_s IS NULL OR resource_s >= 0) AS resource_not_negative
  FROM iobench.wait_table_all((SELECT raw FROM planted));

-- A row exactly at 95 % before it is cut (the total before must be under 95)
SELECT "WaitType", "Percentage"
  FROM iobench.wait_table(ARRAY[
    ROW('A:a', 50, 0, 1, NULL, NULL),
    ROW('B:b', 30, 0, 1, NULL, NULL),
    ROW('C:c', 15, 0, 1, NULL, NULL),
    ROW('D:d',  4, 0, 1, NULL, NULL),
    ROW('E:e',  1, 0, 1, NULL, NULL)]::iobench.wait_raw[]);

-- The benign list is editable and the table follows it
INSERT INTO iobench.benign_waits (wait_type, reason) VALUES ('IO:DataFileRead', 'test');
SELECT "WaitType", "Percentage" FROM iobench.wait_table((SELECT raw FROM planted));
DELETE FROM iobench.benign_waits WHERE wait_type = 'IO:DataFileRead';

-- Edge cases: nothing, only benign waits, a zero total
SELECT count(*) FROM iobench.wait_table('{}'::iobench.wait_raw[]);
SELECT count(*) FROM iobench.wait_table(ARRAY[ROW('Client:ClientRead', 5, 0, 1, NULL, NULL)]::iobench.wait_raw[]);
SELECT wait_type, percentage, in_top_95
  FROM iobench.wait_table_all(ARRAY[ROW('IO:DataFileRead', 0, 0, 1, NULL, NULL)]::iobench.wait_raw[]);

-- The built-in benign list: PostgreSQL 15's idle waits; idle in transaction is not among them
SELECT wait_type FROM iobench.benign_waits WHERE builtin ORDER BY wait_type;
SELECT count(*) FROM iobench.benign_waits WHERE wait_type LIKE '%idle in transaction%';
