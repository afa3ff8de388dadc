-- upgrade: every earlier release, installed from its frozen script and
-- updated with ALTER EXTENSION ... UPDATE, equals a fresh install of the
-- current version, object for object (the approach of
-- pg_validate_extupgrade): the extension's members (pg_depend), every
-- function (definition with its settings, owner, grants, comment), table,
-- view and composite type (kind, options, row security, owner, grants,
-- view definition, comment), column (type, NOT NULL, default, generated,
-- identity, collation, grants, comment), constraint, index, trigger,
-- policy, rule, sequence, type (enum labels, domain base), the schema, the
-- extension's pg_dump settings (extconfig), its initial privileges
-- (pg_init_privs, from which pg_dump dumps grants) and built-in rows.
-- Columns are compared by name: an upgrade adds new columns at the end.
-- The releases are those the server offers
-- (pg_available_extension_versions: every frozen sql/iobench--X.sql), so a
-- new release joins the check by itself.
-- Runs and waits stored under each release (copied from a real run and a
-- wait snapshot of a fresh install into that release's tables) read the
-- same after the upgrade, table by table, in the columns that release had.
SET client_min_messages = warning;

-- An ACL as text, its items in one order (the order of aclitems in an ACL
-- depends on the order of the grants, and means nothing)
CREATE FUNCTION public.iobench_acl(acl aclitem[]) RETURNS text
LANGUAGE sql AS $$
    SELECT string_agg(a::text, ',' ORDER BY a::text) FROM unnest(acl) a
$$;

-- What the extension holds, one row per object or part of one.
CREATE FUNCTION public.iobench_fingerprint()
RETURNS TABLE (kind text, name text, detail text)
LANGUAGE sql AS $$
    WITH ext AS (
        SELECT oid, extnamespace, extrelocatable, extconfig, extcondition
          FROM pg_extension WHERE extname = 'iobench'),
    members AS (
        SELECT d.classid, d.objid, d.objsubid FROM pg_depend d, ext
         WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid
           AND d.deptype = 'e'),
    types AS (
        SELECT t.* FROM pg_type t JOIN members m
            ON m.classid = 'pg_type'::regclass AND m.objid = t.oid),
    rels AS (
        SELECT c.* FROM pg_class c
         WHERE c.oid IN (SELECT objid FROM members WHERE classid = 'pg_class'::regclass)
            OR c.oid IN (SELECT typrelid FROM types))
    SELECT 'member', pg_describe_object(classid, objid, objsubid), NULL FROM members
    UNION ALL
    SELECT 'extension', 'iobench',
           concat_ws(' | ', extnamespace::regnamespace::text, extrelocatable)
      FROM ext
    UNION ALL
    SELECT 'schema', n.nspname,
           concat_ws(' | ', n.nspowner::regrole::text, public.iobench_acl(n.nspacl),
                     obj_description(n.oid, 'pg_namespace'))
      FROM pg_namespace n, ext
     WHERE n.oid = ext.extnamespace
        OR n.oid IN (SELECT objid FROM members WHERE classid = 'pg_namespace'::regclass)
    UNION ALL
    SELECT 'function', p.oid::regprocedure::text,
           concat_ws(' | ', CASE WHEN p.prokind <> 'a' THEN pg_get_functiondef(p.oid) END,
                     p.proowner::regrole::text, public.iobench_acl(p.proacl),
                     obj_description(p.oid, 'pg_proc'))
      FROM pg_proc p JOIN members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
    UNION ALL
    SELECT 'relation', c.relname,
           concat_ws(' | ', c.relkind, c.relpersistence, c.reloptions::text,
                     c.relrowsecurity, c.relforcerowsecurity, c.relreplident,
                     c.relowner::regrole::text, public.iobench_acl(c.relacl),
                     CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END,
                     obj_description(c.oid, 'pg_class'))
      FROM rels c
    UNION ALL
    SELECT 'column', c.relname || '.' || a.attname,
           concat_ws(' | ', format_type(a.atttypid, a.atttypmod),
                     CASE WHEN a.attnotnull THEN 'not null' END,
                     pg_get_expr(ad.adbin, ad.adrelid), nullif(a.attgenerated, ''),
                     nullif(a.attidentity, ''),
                     CASE WHEN a.attcollation <> 0 THEN a.attcollation::regcollation::text END,
                     public.iobench_acl(a.attacl), col_description(c.oid, a.attnum))
      FROM rels c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
    UNION ALL
    SELECT 'constraint', coalesce(c.relname, t.typname) || '.' || k.conname,
           concat_ws(' | ', pg_get_constraintdef(k.oid), obj_description(k.oid, 'pg_constraint'))
      FROM pg_constraint k
      LEFT JOIN rels c ON c.oid = k.conrelid
      LEFT JOIN types t ON t.oid = k.contypid
     WHERE c.oid IS NOT NULL OR t.oid IS NOT NULL
    UNION ALL
    SELECT 'index', i.relname,
           concat_ws(' | ', pg_get_indexdef(i.oid), obj_description(i.oid, 'pg_class'))
      FROM pg_index x JOIN rels c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
    UNION ALL
    SELECT 'trigger', c.relname || '.' || g.tgname,
           concat_ws(' | ', pg_get_triggerdef(g.oid), g.tgenabled)
      FROM pg_trigger g JOIN rels c ON c.oid = g.tgrelid WHERE NOT g.tgisinternal
    UNION ALL
    SELECT 'policy', c.relname || '.' || p.polname,
           concat_ws(' | ', p.polcmd, p.polpermissive, p.polroles::regrole[]::text,
                     pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
      FROM pg_policy p JOIN rels c ON c.oid = p.polrelid
    UNION ALL
    SELECT 'rule', c.relname || '.' || r.rulename, pg_get_ruledef(r.oid)
      FROM pg_rewrite r JOIN rels c ON c.oid = r.ev_class WHERE r.rulename <> '_RETURN'
    UNION ALL
    SELECT 'sequence', c.relname,
           concat_ws(' | ', s.seqtypid::regtype::text, s.seqstart, s.seqincrement, s.seqmax,
                     s.seqmin, s.seqcache, s.seqcycle)
      FROM pg_sequence s JOIN rels c ON c.oid = s.seqrelid
    UNION ALL
    SELECT 'type', t.typname,
           concat_ws(' | ', t.typtype, t.typowner::regrole::text, public.iobench_acl(t.typacl),
                     CASE WHEN t.typtype = 'd' THEN format_type(t.typbasetype, t.typtypmod) END,
                     CASE WHEN t.typnotnull THEN 'not null' END, t.typdefault,
                     (SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
                        FROM pg_enum e WHERE e.enumtypid = t.oid),
                     obj_description(t.oid, 'pg_type'))
      FROM types t
    UNION ALL
    SELECT 'dumped', c.relname, x.extcondition[array_position(x.extconfig, c.oid)]
      FROM ext x JOIN pg_class c ON c.oid = ANY (x.extconfig)
    UNION ALL
    SELECT 'initial privileges', pg_describe_object(i.classoid, i.objoid, i.objsubid),
           concat_ws(' | ', i.privtype, public.iobench_acl(i.initprivs))
      FROM pg_init_privs i JOIN members m ON m.classid = i.classoid AND m.objid = i.objoid
    UNION ALL
    SELECT 'benign_waits', b.wait_type, b.reason FROM iobench.benign_waits b WHERE b.builtin
    UNION ALL
    SELECT 'suite_tests', t.suite || ' ' || t.test_no, row(t.*)::text FROM iobench.suite_tests t
$$;

-- The extension's tables, with the columns they have now
CREATE FUNCTION public.iobench_tables()
RETURNS TABLE (tab regclass, cols text)
LANGUAGE sql AS $$
    SELECT c.oid::regclass, string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum)
      FROM pg_depend d
      JOIN pg_class c ON c.oid = d.objid AND c.relkind = 'r'
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
       AND d.deptype = 'e'
       AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
     GROUP BY c.oid
$$;

-- Copies into every empty table of the extension the rows the same table
-- has in the database of connection string src, in the columns both have
-- (not generated ones); foreign keys are not checked while it copies (the
-- tables are filled one after the other).  Returns the rows copied; the
-- tables it filled, with their columns, are left in
-- public.iobench_columns_before (tables with built-in rows are not empty:
-- an upgrade may add to those, and iobench_fingerprint() compares them).
CREATE FUNCTION public.iobench_copy_rows(src text) RETURNS bigint
LANGUAGE plpgsql SET session_replication_role = replica AS $$
DECLARE
    t regclass;
    empty boolean;
    common text[];
    cols text;
    defs text;
    n bigint;
    total bigint := 0;
BEGIN
    CREATE TABLE public.iobench_columns_before (tab text, cols text);
    FOR t IN SELECT tab FROM public.iobench_tables() LOOP
        EXECUTE format('SELECT NOT EXISTS (SELECT FROM %s)', t) INTO empty;
        CONTINUE WHEN NOT empty;
        SELECT array_agg(attname::text) INTO common
          FROM dblink(src, format($q$SELECT a.attname FROM pg_attribute a
                                    WHERE a.attrelid = to_regclass(%L) AND a.attnum > 0
                                      AND NOT a.attisdropped AND a.attgenerated = ''$q$, t::text))
               AS s(attname name);
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum),
               string_agg(quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod),
                          ', ' ORDER BY a.attnum)
          INTO cols, defs
          FROM pg_attribute a
         WHERE a.attrelid = t AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
           AND a.attname::text = ANY (common);
        CONTINUE WHEN cols IS NULL;
        EXECUTE format('INSERT INTO %s (%s) OVERRIDING SYSTEM VALUE SELECT * FROM dblink(%L, %L) AS s(%s)',
                       t, cols, src, format('SELECT %s FROM %s', cols, t), defs);
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
        IF n > 0 THEN
            INSERT INTO public.iobench_columns_before VALUES (t::text, cols);
        END IF;
    END LOOP;
    RETURN total;
END
$$;

-- Every table's rows, in the columns public.iobench_columns_before holds
-- for it: their number and a digest of their text
CREATE FUNCTION public.iobench_table_data()
RETURNS TABLE (tab text, nrows bigint, digest text)
LANGUAGE plpgsql AS $$
DECLARE
    b record;
BEGIN
    FOR b IN SELECT * FROM public.iobench_columns_before LOOP
        tab := b.tab;
        IF to_regclass(b.tab) IS NULL THEN
            nrows := NULL;
            digest := 'the upgrade dropped the table';
        ELSE
            EXECUTE format('SELECT count(*), md5(coalesce(string_agg(x::text, E''\n'' ORDER BY x::text), ''''))
                              FROM (SELECT %s FROM %s) x', b.cols, b.tab) INTO nrows, digest;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;

CREATE TEMP TABLE conn AS
SELECT format('host=%s port=%s', split_part(current_setting('unix_socket_directories'), ',', 1),
              current_setting('port')) AS s;
-- The current version, installed fresh in a database of its own, with
-- stored data to carry through every upgrade: a real run (its seconds,
-- latency histogram and waits) and a snapshot of the wait collector
CREATE DATABASE iobench_upgrade_fresh;
CREATE TEMP TABLE fresh_conn AS SELECT s || ' dbname=iobench_upgrade_fresh' AS s FROM conn;
SELECT dblink_exec((SELECT s FROM fresh_conn), 'CREATE EXTENSION iobench');
SELECT dblink_exec((SELECT s FROM fresh_conn), pg_get_functiondef('public.iobench_acl(aclitem[])'::regprocedure));
SELECT dblink_exec((SELECT s FROM fresh_conn), pg_get_functiondef('public.iobench_fingerprint()'::regprocedure));
SELECT * FROM dblink((SELECT s FROM fresh_conn), $$
    SELECT count(*) FROM iobench.run(duration => '300ms', file_size => '1MB', engine => 'psync',
                                     workers => 1, files => 1) $$) AS t(stored_runs bigint);
SELECT * FROM dblink((SELECT s FROM fresh_conn),
                     $$SELECT iobench.snapshot_waits('upgrade_check') IS NOT NULL$$) AS t(stored_snapshot boolean);
-- the earlier releases this server offers
CREATE TEMP TABLE releases AS
SELECT v.version FROM pg_available_extension_versions v, pg_available_extensions e
 WHERE v.name = 'iobench' AND e.name = 'iobench' AND v.version <> e.default_version;
SELECT count(*) >= 1 AS earlier_releases, bool_or(version = '0.1') AS has_0_1 FROM releases;
CREATE TEMP TABLE upgraded (version text, kind text, name text, detail text);
CREATE TEMP TABLE data_before (version text, tab text, nrows bigint, digest text);
CREATE TEMP TABLE data_after (LIKE data_before);
CREATE TEMP TABLE copied (version text, nrows bigint, final_version boolean);

-- Each release in a database of its own: installed from its script, given
-- the stored data, updated, compared
DO $$
DECLARE
    v text;
    db text;
    self text := (SELECT s FROM conn) || ' dbname=' || current_database();
    src text := (SELECT s FROM fresh_conn);
    c text;
    f text;
BEGIN
    FOR v IN SELECT version FROM releases ORDER BY version LOOP
        db := 'iobench_upgrade_' || translate(v, '.', '_');
        PERFORM dblink_exec(self, format('CREATE DATABASE %I', db));
        c := (SELECT s FROM conn) || ' dbname=' || db;
        PERFORM dblink_exec(c, format('CREATE EXTENSION iobench VERSION %L', v));
        PERFORM dblink_exec(c, 'CREATE EXTENSION dblink');
        FOREACH f IN ARRAY ARRAY['public.iobench_acl(aclitem[])', 'public.iobench_fingerprint()', 'public.iobench_tables()',
                                 'public.iobench_copy_rows(text)', 'public.iobench_table_data()'] LOOP
            PERFORM dblink_exec(c, pg_get_functiondef(f::regprocedure));
        END LOOP;
        INSERT INTO copied (version, nrows)
        SELECT v, n FROM dblink(c, format('SELECT public.iobench_copy_rows(%L)', src)) AS t(n bigint);
        INSERT INTO data_before
        SELECT v, t.* FROM dblink(c, 'SELECT * FROM public.iobench_table_data()')
            AS t(tab text, nrows bigint, digest text);
        PERFORM dblink_exec(c, 'ALTER EXTENSION iobench UPDATE');
        UPDATE copied SET final_version = t.ok
          FROM dblink(c, 'SELECT x.extversion = e.default_version
                            FROM pg_extension x, pg_available_extensions e
                           WHERE x.extname = ''iobench'' AND e.name = ''iobench''') AS t(ok boolean)
         WHERE copied.version = v;
        INSERT INTO data_after
        SELECT v, t.* FROM dblink(c, 'SELECT * FROM public.iobench_table_data()')
            AS t(tab text, nrows bigint, digest text);
        INSERT INTO upgraded
        SELECT v, t.* FROM dblink(c, 'SELECT * FROM public.iobench_fingerprint()')
            AS t(kind text, name text, detail text);
        PERFORM dblink_exec(self, format('DROP DATABASE %I', db));
    END LOOP;
END
$$;

-- every release reached the current version, with runs and waits stored
SELECT bool_and(final_version) AS all_updated, bool_and(nrows > 0) AS all_given_data FROM copied;
SELECT count(*) = (SELECT count(*) FROM releases) AS every_release_has_runs_and_waits
  FROM (SELECT version FROM data_before
         WHERE tab IN ('iobench.runs', 'iobench.run_seconds', 'iobench.run_latency',
                       'iobench.wait_snapshots', 'iobench.wait_snapshot_rows')
         GROUP BY version HAVING bool_and(nrows > 0) AND count(*) = 5) x;

-- what an upgraded database has and a fresh install lacks, and the reverse
CREATE TEMP TABLE fresh AS
SELECT * FROM dblink((SELECT s FROM fresh_conn), 'SELECT * FROM public.iobench_fingerprint()')
    AS t(kind text, name text, detail text);
SELECT r.version, 'only after upgrade' AS "where", x.*
  FROM releases r,
       LATERAL (SELECT kind, name, detail FROM upgraded u WHERE u.version = r.version
                EXCEPT TABLE fresh) x
UNION ALL
SELECT r.version, 'only in fresh install', y.*
  FROM releases r,
       LATERAL (TABLE fresh EXCEPT
                SELECT kind, name, detail FROM upgraded u WHERE u.version = r.version) y
ORDER BY 1, 4, 5, 2;
-- (the comparison sees objects of every kind)
SELECT kind, count(*) > 0 AS compared FROM fresh GROUP BY kind ORDER BY kind;

-- stored rows that the upgrade lost or changed (none)
SELECT b.version, b.tab, b.nrows AS rows_before, a.nrows AS rows_after
  FROM data_before b JOIN data_after a USING (version, tab)
 WHERE a.digest IS DISTINCT FROM b.digest
 ORDER BY 1, 2;

-- 0.1's run() changes its argument list in 0.2 (and again in 0.3), and
-- 0.2's functions that return rows get a row type of their own in 0.3
-- (iobench.<name>_row): a DBA's grants on them are carried over to the new
-- functions
CREATE ROLE iob_upgrade_user;
CREATE ROLE iob_upgrade_admin;
CREATE DATABASE iobench_upgrade;
UPDATE conn SET s = s || ' dbname=iobench_upgrade';
SELECT dblink_exec((SELECT s FROM conn), 'CREATE EXTENSION iobench VERSION ''0.1''');
SELECT dblink_exec((SELECT s FROM conn), 'GRANT EXECUTE ON FUNCTION iobench.run TO iob_upgrade_user');
SELECT dblink_exec((SELECT s FROM conn),
                   'GRANT EXECUTE ON FUNCTION iobench.run TO iob_upgrade_admin WITH GRANT OPTION');
SELECT dblink_exec((SELECT s FROM conn), 'ALTER EXTENSION iobench UPDATE TO ''0.2''');
SELECT dblink_exec((SELECT s FROM conn),
                   'GRANT EXECUTE ON FUNCTION iobench.compare, iobench.wait_event_descriptions TO iob_upgrade_user');
SELECT dblink_exec((SELECT s FROM conn),
                   'GRANT EXECUTE ON FUNCTION iobench.stalls TO iob_upgrade_admin WITH GRANT OPTION');
SELECT dblink_exec((SELECT s FROM conn), 'ALTER EXTENSION iobench UPDATE');
SELECT * FROM dblink((SELECT s FROM conn), $$
    SELECT p.proname::text, p.pronargs > 17, a.grantee::regrole::text, a.is_grantable
      FROM pg_proc p, aclexplode(p.proacl) a
     WHERE p.pronamespace = 'iobench'::regnamespace AND p.proname LIKE 'run%'
       AND a.grantee::regrole::text LIKE 'iob_upgrade_%'
     ORDER BY 3 $$) AS t(function text, new_signature boolean, grantee text, grantable boolean);
SELECT * FROM dblink((SELECT s FROM conn), $$
    SELECT p.proname::text, p.prorettype::regtype::text, a.grantee::regrole::text, a.is_grantable
      FROM pg_proc p, aclexplode(p.proacl) a
     WHERE p.pronamespace = 'iobench'::regnamespace AND p.proname NOT LIKE 'run%'
       AND a.grantee::regrole::text LIKE 'iob_upgrade_%'
     ORDER BY 1, 3 $$) AS t(function text, result_type text, grantee text, grantable boolean);
-- (the old functions are gone, in both schemas)
SELECT * FROM dblink((SELECT s FROM conn), $$
    SELECT count(*) FROM pg_proc p
     WHERE p.pronamespace IN ('iobench'::regnamespace, 'iobench_internal'::regnamespace)
       AND p.proname LIKE '%\_\_replaced' $$) AS t(replaced_functions_left bigint);
-- and they stay the DBA's: not the extension's initial privileges, which
-- pg_dump leaves out of a dump
SELECT * FROM dblink((SELECT s FROM conn), $$
    SELECT count(*) FROM pg_init_privs i, aclexplode(i.initprivs) a
     WHERE a.grantee::regrole::text LIKE 'iob_upgrade_%' $$) AS t(dba_grants_in_initial_privileges bigint);
SELECT dblink_exec((SELECT s FROM conn), 'REVOKE ALL ON FUNCTION iobench.run FROM iob_upgrade_user, iob_upgrade_admin CASCADE');
SELECT dblink_exec((SELECT s FROM conn),
                   'REVOKE ALL ON FUNCTION iobench.compare, iobench.stalls, iobench.wait_event_descriptions
                    FROM iob_upgrade_user, iob_upgrade_admin CASCADE');

DROP DATABASE iobench_upgrade;
DROP ROLE iob_upgrade_user;
DROP ROLE iob_upgrade_admin;
DROP DATABASE iobench_upgrade_fresh;
DROP FUNCTION public.iobench_fingerprint();
DROP FUNCTION public.iobench_tables();
DROP FUNCTION public.iobench_copy_rows(text);
DROP FUNCTION public.iobench_table_data();
DROP FUNCTION public.iobench_acl(aclitem[]);
