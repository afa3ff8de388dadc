-- Engine 'postgres' (C, src/engine/engine_postgres_relation.c): the relations its runs
-- read, and their removal.

-- The relation of each tablespace that runs of engine 'postgres' read
-- (read_target_<oid>), and the one server_vs_disk()'s scans read
-- (scan_target_<oid>, one row per page, indexed): unlogged tables in
-- schema iobench_internal, made and filled by the first run or call on the
-- tablespace, reused (and extended) by the next ones, removed by
-- drop_read_targets() and by DROP EXTENSION.
CREATE OR REPLACE VIEW iobench.read_targets AS
SELECT c.oid::pg_catalog.regclass AS relation,
       t.spcname AS tablespace,
       pg_catalog.pg_relation_size(c.oid) AS bytes,
       pg_catalog.pg_size_pretty(pg_catalog.pg_relation_size(c.oid)) AS size
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_tablespace t
    ON t.oid OPERATOR(pg_catalog.=)
       CASE WHEN c.reltablespace OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN c.reltablespace
            ELSE (SELECT d.dattablespace FROM pg_catalog.pg_database d
                   WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()) END
 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'iobench_internal'::pg_catalog.regnamespace
   AND c.relkind OPERATOR(pg_catalog.=) 'r'
   AND (c.relname OPERATOR(pg_catalog.~~) 'read\_target\_%'
        OR c.relname OPERATOR(pg_catalog.~~) 'scan\_target\_%');
COMMENT ON VIEW iobench.read_targets IS 'the relations runs of engine postgres read and server_vs_disk() scans, one of each per tablespace';

CREATE OR REPLACE FUNCTION iobench.drop_read_targets(tablespace name DEFAULT NULL)
RETURNS integer
AS 'MODULE_PATHNAME', 'iobench_drop_read_targets'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench.drop_read_targets IS 'remove the relations runs of engine postgres read and server_vs_disk() scans (of one tablespace, or all); returns how many';
