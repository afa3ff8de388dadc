-- Who may run benchmarks and read results (C, src/privileges.c).  The group
-- role iobench_user and the grants are made in 90_privileges.sql.

-- Raise "permission denied" with a HINT naming the grant unless the caller
-- holds EXECUTE on function fn through a role other than PUBLIC.  The entry
-- points call it first: PUBLIC may call them only to get that error.
CREATE OR REPLACE FUNCTION iobench_internal.require_grant(fn regprocedure)
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_require_grant'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION iobench_internal.require_grant(regprocedure) IS 'raise permission denied, with the grant to ask for, unless the caller was granted EXECUTE on the function';
