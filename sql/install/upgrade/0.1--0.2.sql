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

-- 0.2 records the server settings that shape I/O with each run.
ALTER TABLE iobench.runs
    ADD COLUMN io_method                  text,
    ADD COLUMN io_workers                 integer,
    ADD COLUMN io_min_workers             integer,
    ADD COLUMN io_max_workers             integer,
    ADD COLUMN io_combine_limit           text,
    ADD COLUMN effective_io_concurrency   integer,
    ADD COLUMN maintenance_io_concurrency integer,
    ADD COLUMN wal_sync_method            text,
    ADD COLUMN full_page_writes           boolean;
