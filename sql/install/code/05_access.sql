-- Who may run benchmarks and read results (C, src/base/privileges.c).  The group
-- role iobench_user and the grants are made in 90_privileges.sql.

-- Raise "permission denied" with a HINT naming the grant unless the caller
-- holds EXECUTE on function fn through a role other than PUBLIC.  The entry
-- points call it first: PUBLIC may call them only to get that error.
CREATE OR REPLACE FUNCTION iobench_internal.require_grant(fn regprocedure)
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_require_grant'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION iobench_internal.require_grant(regprocedure) IS 'raise permission denied, with the grant to ask for, unless the caller was granted EXECUTE on the function';

-- The same for the SECURITY DEFINER entry points (import_runs, import_fio),
-- inside which the current user is their owner: the check is of the role
-- the session acts as (its login role, or the role of SET ROLE).
CREATE OR REPLACE FUNCTION iobench_internal.require_caller_grant(fn regprocedure)
RETURNS void
AS 'MODULE_PATHNAME', 'iobench_require_caller_grant'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION iobench_internal.require_caller_grant(regprocedure) IS 'require_grant() of the role the session acts as, for SECURITY DEFINER entry points';

-- Does the caller hold EXECUTE on function fn through a role other than
-- PUBLIC (what require_grant() asks)?
CREATE OR REPLACE FUNCTION iobench_internal.holds_grant(fn regprocedure)
RETURNS boolean
AS 'MODULE_PATHNAME', 'iobench_holds_grant'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION iobench_internal.holds_grant(regprocedure) IS 'whether the caller was granted EXECUTE on the function through a role other than PUBLIC';
