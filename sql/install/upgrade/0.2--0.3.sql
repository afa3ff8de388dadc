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
