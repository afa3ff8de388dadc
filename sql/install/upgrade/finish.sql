------------------------------------------------------------------------
-- The last step of every upgrade: grants carried over to new signatures
--
-- A function whose argument list or result type changes cannot be
-- replaced in place.  The upgrade file renames the old one to
-- <name>__replaced instead of dropping it; once the code files have made
-- the new one, this gives every role that could execute the old function
-- the same right on the new one (with grant option where it had it), so a
-- DBA's GRANT EXECUTE survives the upgrade, and drops the old function.
------------------------------------------------------------------------
DO $$
DECLARE
    old regprocedure;
    new regprocedure;
    g record;
BEGIN
    FOR old IN SELECT p.oid FROM pg_catalog.pg_proc p
                WHERE p.pronamespace = 'iobench'::pg_catalog.regnamespace
                  AND p.proname OPERATOR(pg_catalog.~~) '%\_\_replaced'
    LOOP
        SELECT p.oid INTO STRICT new FROM pg_catalog.pg_proc p, pg_catalog.pg_proc o
         WHERE o.oid OPERATOR(pg_catalog.=) old
           AND p.pronamespace OPERATOR(pg_catalog.=) o.pronamespace
           AND p.proname OPERATOR(pg_catalog.=)
               pg_catalog.left(o.proname::pg_catalog.text, -10)::pg_catalog.name;
        FOR g IN SELECT a.grantee, a.is_grantable
                   FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
                  WHERE p.oid OPERATOR(pg_catalog.=) old
                    AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'
                    AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s%s', new,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                           ELSE pg_catalog.quote_ident(g.grantee::pg_catalog.regrole::pg_catalog.text) END,
                                      CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
        END LOOP;
        EXECUTE pg_catalog.format('DROP FUNCTION %s', old);
    END LOOP;
END
$$;

-- A function body in iobench_internal whose result type changed was renamed
-- to <name>__replaced too (no grants to carry: no role but the owner uses
-- that schema); the API function that called it is gone now.
DO $$
DECLARE
    old regprocedure;
BEGIN
    FOR old IN SELECT p.oid FROM pg_catalog.pg_proc p
                WHERE p.pronamespace = 'iobench_internal'::pg_catalog.regnamespace
                  AND p.proname OPERATOR(pg_catalog.~~) '%\_\_replaced'
    LOOP
        EXECUTE pg_catalog.format('DROP FUNCTION %s', old);
    END LOOP;
END
$$;

------------------------------------------------------------------------
-- The grants a DBA made stay the DBA's (issue 35)
--
-- pg_dump dumps an extension object's privileges as the difference from
-- its initial privileges (pg_init_privs), which CREATE EXTENSION makes
-- again on restore.  But every GRANT or REVOKE that runs inside an
-- extension script records the object's whole ACL as its initial
-- privileges: the grants carried over above, and 90_privileges.sql, which
-- runs again in every upgrade, on objects that already carry a DBA's
-- grants.  A DBA's GRANT EXECUTE ON FUNCTION iobench.run() would then read
-- as the extension's own and be left out of a dump ("permission denied for
-- function run" after a restore); the upgrade from 0.1 to 0.2 did so.
-- PostgreSQL offers an extension script no way to grant without recording
-- (pg_upgrade's switch, binary_upgrade_set_record_init_privs(), works in
-- binary-upgrade mode only), so the initial privileges of the extension's
-- objects are cut back here, in pg_init_privs itself (the superuser
-- running the update may change a catalog's rows), to the grants the
-- extension makes itself (90_privileges.sql: the owner's own rights, and
-- the owner's grants to PUBLIC, iobench_user and pg_monitor), which stay
-- initial: a restore makes them with CREATE EXTENSION.  Every other item
-- is a DBA's grant and is taken out of pg_init_privs; it stays in the
-- object's ACL, so pg_dump dumps it.  Doing this for every object, rather
-- than for the grants carried over above only, also repairs the grants
-- the update to 0.2 recorded.  (A grant a DBA makes to
-- PUBLIC, iobench_user or pg_monitor themselves reads as the extension's
-- after an upgrade: grant to a role of your own.)  Where PostgreSQL tracks
-- the roles of initial privileges (pg_shdepend, type 'i', 17 and later),
-- the roles no longer in them are taken out there too, so that DROP ROLE
-- and DROP OWNED see the same as pg_init_privs.
------------------------------------------------------------------------
DO $$
DECLARE
    p record;
    obj_owner oid;
    kept aclitem[];
BEGIN
    FOR p IN SELECT i.classoid, i.objoid, i.objsubid, i.initprivs
               FROM pg_catalog.pg_init_privs i
              WHERE i.privtype OPERATOR(pg_catalog.=) 'e'
                AND (EXISTS (SELECT FROM pg_catalog.pg_depend d, pg_catalog.pg_extension x
                              WHERE x.extname OPERATOR(pg_catalog.=) 'iobench'
                                AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                                AND d.refobjid OPERATOR(pg_catalog.=) x.oid
                                AND d.deptype OPERATOR(pg_catalog.=) 'e'
                                AND d.classid OPERATOR(pg_catalog.=) i.classoid
                                AND d.objid OPERATOR(pg_catalog.=) i.objoid)
                     OR i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
                        AND i.objoid OPERATOR(pg_catalog.=) 'iobench'::pg_catalog.regnamespace)
    LOOP
        obj_owner := CASE p.classoid
                 WHEN 'pg_catalog.pg_proc'::pg_catalog.regclass THEN
                     (SELECT o.proowner FROM pg_catalog.pg_proc o WHERE o.oid OPERATOR(pg_catalog.=) p.objoid)
                 WHEN 'pg_catalog.pg_class'::pg_catalog.regclass THEN
                     (SELECT o.relowner FROM pg_catalog.pg_class o WHERE o.oid OPERATOR(pg_catalog.=) p.objoid)
                 WHEN 'pg_catalog.pg_namespace'::pg_catalog.regclass THEN
                     (SELECT o.nspowner FROM pg_catalog.pg_namespace o WHERE o.oid OPERATOR(pg_catalog.=) p.objoid)
                 WHEN 'pg_catalog.pg_type'::pg_catalog.regclass THEN
                     (SELECT o.typowner FROM pg_catalog.pg_type o WHERE o.oid OPERATOR(pg_catalog.=) p.objoid)
                 END;
        CONTINUE WHEN obj_owner IS NULL;
        kept := ARRAY(SELECT a FROM pg_catalog.unnest(p.initprivs) WITH ORDINALITY AS u(a, n),
                             LATERAL (SELECT x.grantor, x.grantee
                                        FROM pg_catalog.aclexplode(ARRAY[u.a]) x LIMIT 1) e
                       WHERE e.grantor OPERATOR(pg_catalog.=) obj_owner
                         AND (e.grantee OPERATOR(pg_catalog.=) obj_owner
                              OR e.grantee OPERATOR(pg_catalog.=) 0
                              OR e.grantee OPERATOR(pg_catalog.=) 'iobench_user'::pg_catalog.regrole
                              OR e.grantee OPERATOR(pg_catalog.=) 'pg_monitor'::pg_catalog.regrole)
                       ORDER BY u.n);
        CONTINUE WHEN pg_catalog.array_length(kept, 1) OPERATOR(pg_catalog.=)
                      pg_catalog.array_length(p.initprivs, 1);
        UPDATE pg_catalog.pg_init_privs i SET initprivs = kept
         WHERE i.classoid OPERATOR(pg_catalog.=) p.classoid
           AND i.objoid OPERATOR(pg_catalog.=) p.objoid
           AND i.objsubid OPERATOR(pg_catalog.=) p.objsubid;
        DELETE FROM pg_catalog.pg_shdepend s
         WHERE s.dbid OPERATOR(pg_catalog.=)
               (SELECT d.oid FROM pg_catalog.pg_database d
                 WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
           AND s.classid OPERATOR(pg_catalog.=) p.classoid
           AND s.objid OPERATOR(pg_catalog.=) p.objoid
           AND s.objsubid OPERATOR(pg_catalog.=) p.objsubid
           AND s.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_authid'::pg_catalog.regclass
           AND s.deptype OPERATOR(pg_catalog.=) 'i'
           AND s.refobjid OPERATOR(pg_catalog.<>) ALL
               (SELECT e.grantee FROM pg_catalog.aclexplode(kept) e
                UNION SELECT e.grantor FROM pg_catalog.aclexplode(kept) e);
    END LOOP;
END
$$;
