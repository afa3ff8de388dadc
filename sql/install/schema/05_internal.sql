------------------------------------------------------------------------
-- The internal schema
--
-- The functions that iobench's own functions call and users do not
-- (checks, parsers of imported documents, the fleet's steps) live in
-- iobench_internal, so that schema iobench holds only the API
-- (doc/reference.md).  No role is granted USAGE on it (90_privileges.sql):
-- the API reaches its helpers through SQL-standard function bodies, which
-- are bound when created, or as the extension's owner (SECURITY DEFINER).
------------------------------------------------------------------------
CREATE SCHEMA iobench_internal;
COMMENT ON SCHEMA iobench_internal IS 'iobench: internal functions, not an API (no role is granted USAGE)';
