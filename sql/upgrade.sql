-- upgrade: 0.1 updated with ALTER EXTENSION ... UPDATE equals a fresh
-- install of the current version, object for object: every function
-- (definition, settings, grants, comment), view, table (columns, defaults,
-- constraints, indexes, grants), type, built-in row and pg_dump setting.
-- Columns are compared by name: an upgrade adds new columns at the end.
SET client_min_messages = warning;

-- What the iobench schema holds, one row per object or part of one.
CREATE FUNCTION public.iobench_fingerprint()
RETURNS TABLE (kind text, name text, detail text)
LANGUAGE sql AS $$
    WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = 'iobench')
    SELECT 'function', p.oid::regprocedure::text,
           concat_ws(' | ', pg_get_functiondef(p.oid), p.proacl::text,
                     obj_description(p.oid, 'pg_proc'))
      FROM pg_proc p, ns WHERE p.pronamespace = ns.oid
    UNION ALL
    SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'r' THEN 'table'
                          WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence'
                          WHEN 'c' THEN 'type' ELSE c.relkind::text END,
           c.relname,
           concat_ws(' | ', CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END,
                     CASE WHEN c.relkind = 'i' THEN pg_get_indexdef(c.oid) END,
                     c.relacl::text, obj_description(c.oid, 'pg_class'))
      FROM pg_class c, ns WHERE c.relnamespace = ns.oid
    UNION ALL
    SELECT 'column', c.relname || '.' || a.attname,
           concat_ws(' | ', format_type(a.atttypid, a.atttypmod),
                     CASE WHEN a.attnotnull THEN 'not null' END,
                     pg_get_expr(ad.adbin, ad.adrelid), nullif(a.attgenerated, ''),
                     col_description(c.oid, a.attnum))
      FROM pg_class c JOIN ns ON c.relnamespace = ns.oid
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
     WHERE c.relkind IN ('r', 'v', 'c')
    UNION ALL
    SELECT 'constraint', c.relname || '.' || k.conname, pg_get_constraintdef(k.oid)
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN ns ON c.relnamespace = ns.oid
    UNION ALL
    SELECT 'type', t.typname, t.typtype::text || coalesce(' ' || obj_description(t.oid, 'pg_type'), '')
      FROM pg_type t, ns WHERE t.typnamespace = ns.oid AND t.typtype NOT IN ('b')
       AND t.typelem = 0
    UNION ALL
    SELECT 'member', pg_describe_object(d.classid, d.objid, d.objsubid), NULL
      FROM pg_depend d
     WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
       AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
    UNION ALL
    SELECT 'dumped', c.relname, x.extcondition[array_position(x.extconfig, c.oid)]
      FROM pg_extension x JOIN pg_class c ON c.oid = ANY (x.extconfig)
     WHERE x.extname = 'iobench'
    UNION ALL
    SELECT 'benign_waits', b.wait_type, b.reason FROM iobench.benign_waits b WHERE b.builtin
    UNION ALL
    SELECT 'suite_tests', t.suite || ' ' || t.test_no, row(t.*)::text FROM iobench.suite_tests t
$$;

-- 0.1 installed and updated in a database of its own
CREATE DATABASE iobench_upgrade;
CREATE TEMP TABLE conn AS
SELECT format('dbname=iobench_upgrade host=%s port=%s',
              split_part(current_setting('unix_socket_directories'), ',', 1),
              current_setting('port')) AS s;
SELECT dblink_exec((SELECT s FROM conn), 'CREATE EXTENSION iobench VERSION ''0.1''');
-- a DBA's grants on 0.1's run(), whose argument list changes in 0.2
CREATE ROLE iob_upgrade_user;
CREATE ROLE iob_upgrade_admin;
SELECT dblink_exec((SELECT s FROM conn), 'GRANT EXECUTE ON FUNCTION iobench.run TO iob_upgrade_user');
SELECT dblink_exec((SELECT s FROM conn),
                   'GRANT EXECUTE ON FUNCTION iobench.run TO iob_upgrade_admin WITH GRANT OPTION');
SELECT * FROM dblink((SELECT s FROM conn), 'SELECT extversion FROM pg_extension WHERE extname = ''iobench''')
    AS t(version text);
SELECT dblink_exec((SELECT s FROM conn), 'ALTER EXTENSION iobench UPDATE');
SELECT * FROM dblink((SELECT s FROM conn), 'SELECT extversion FROM pg_extension WHERE extname = ''iobench''')
    AS t(version text);
SELECT extversion AS fresh_version FROM pg_extension WHERE extname = 'iobench';
SELECT dblink_exec((SELECT s FROM conn),
                   pg_get_functiondef('public.iobench_fingerprint()'::regprocedure));
-- the grants moved to the new run()
SELECT * FROM dblink((SELECT s FROM conn), $$
    SELECT p.proname::text, p.pronargs > 17, a.grantee::regrole::text, a.is_grantable
      FROM pg_proc p, aclexplode(p.proacl) a
     WHERE p.pronamespace = 'iobench'::regnamespace AND p.proname LIKE 'run%'
       AND a.grantee::regrole::text LIKE 'iob_upgrade_%'
     ORDER BY 3 $$) AS t(function text, new_signature boolean, grantee text, grantable boolean);
SELECT dblink_exec((SELECT s FROM conn), 'REVOKE ALL ON FUNCTION iobench.run FROM iob_upgrade_user, iob_upgrade_admin CASCADE');
CREATE TEMP TABLE upgraded AS
SELECT * FROM dblink((SELECT s FROM conn), 'SELECT * FROM public.iobench_fingerprint()')
    AS t(kind text, name text, detail text);

-- what the upgraded database has and a fresh install lacks, and the reverse
SELECT 'only after upgrade' AS "where", * FROM (TABLE upgraded EXCEPT SELECT * FROM public.iobench_fingerprint()) AS x
UNION ALL
SELECT 'only in fresh install', * FROM (SELECT * FROM public.iobench_fingerprint() EXCEPT TABLE upgraded) AS y
ORDER BY 2, 3, 1;
-- (the comparison sees objects at all)
SELECT count(*) > 100 AS compared FROM upgraded;

DROP DATABASE iobench_upgrade;
DROP ROLE iob_upgrade_user;
DROP ROLE iob_upgrade_admin;
DROP FUNCTION public.iobench_fingerprint();
