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
