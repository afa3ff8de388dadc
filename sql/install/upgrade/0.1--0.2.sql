------------------------------------------------------------------------
-- Upgrade from 0.1 to 0.2: the steps that CREATE OR REPLACE cannot take
--
-- The upgrade script iobench--0.1--0.2.sql is this file followed by every
-- sql/install/code/*.sql file (functions and views, all CREATE OR
-- REPLACE, privileges last), so the functions of 0.2 replace those of 0.1
-- in place and keep the grants a DBA gave on them.  What goes here:
-- - changes to tables, types and built-in rows of sql/install/schema/*.sql;
-- - DROP of a function or view that 0.2 removes, or whose arguments,
--   result type or columns change (CREATE OR REPLACE cannot change those);
--   grants on a dropped function are lost, so say so in CHANGELOG.md.
-- The test "upgrade" checks that an upgraded 0.1 equals a fresh 0.2.
------------------------------------------------------------------------

-- 0.2 pins search_path in every SQL and PL/pgSQL function: the code files
-- that follow replace them all.

-- The test helper plant_waits() leaves the product: the bound on the
-- collector's shared memory is tested by a cluster started with a small
-- iobench.max_wait_types (t/001_wait_bound.pl).
DROP FUNCTION iobench.plant_waits(integer, double precision);

-- Honest counts and averages: the unrounded rows say whether their count
-- is exact.
ALTER TYPE iobench.wait_stats_row ADD ATTRIBUTE sampled_count bigint,
    ADD ATTRIBUTE count_exact boolean;
