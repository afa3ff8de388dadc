------------------------------------------------------------------------
-- Upgrade from 0.2 to 0.3: the steps that CREATE OR REPLACE cannot take
--
-- The upgrade script iobench--0.2--0.3.sql is this file, then the schema
-- files new in 0.3 (NEW_SCHEMA_0.2 in the Makefile), then every
-- sql/install/code/*.sql file and finish.sql; see 0.1--0.2.sql for the
-- rules.  The test "upgrade" checks that an upgraded 0.2 equals a fresh 0.3.
------------------------------------------------------------------------

-- run() gained effective_io_concurrency and io_combine_limit (engine
-- 'postgres', issue 27): 10_run.sql creates the new one, which gets the
-- grants of the 0.2 function (finish.sql).
ALTER FUNCTION iobench.run(name, text, text, integer, integer, interval, interval,
                           text, integer, integer, integer, text, boolean, text,
                           integer, bigint, text, integer, boolean, interval,
                           interval, timestamptz, text, double precision,
                           interval, name[]) RENAME TO run__replaced;

-- compare_runs() shows each run's engine, and the io_method and
-- effective_io_concurrency of a run of engine 'postgres': a new result
-- type, for the API function (finish.sql carries its grants over) and for
-- its body in iobench_internal (finish.sql drops the old one).
ALTER FUNCTION iobench.compare_runs(bigint[], bigint) RENAME TO compare_runs__replaced;
ALTER FUNCTION iobench_internal.compare_runs(bigint[], bigint) RENAME TO compare_runs__replaced;

-- A run of engine 'postgres' that read more than 1 % of its blocks from
-- memory (shared buffers, the page cache) is stored with status "invalid"
-- (issue 35)
ALTER TABLE iobench.runs DROP CONSTRAINT runs_status_check,
    ADD CONSTRAINT runs_status_check CHECK (status IN ('completed', 'incomplete', 'cancelled', 'failed', 'invalid'));
