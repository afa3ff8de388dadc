/*-------------------------------------------------------------------------
 *
 * privileges.c
 *	  The grant check of iobench's entry points and the permission errors
 *	  that say what to grant (see privileges.h).
 *
 * An entry point is usable by a role that holds EXECUTE on it through any
 * grantee but PUBLIC: iobench_user, pg_monitor (the report functions and
 * the wait statistics of the instance), the extension's owner, or a role
 * granted EXECUTE directly (the 0.1 way).  PUBLIC's EXECUTE only lets the
 * check run; it grants nothing.  The error's HINT names iobench_user when
 * the function is granted to it, else pg_monitor when it is granted to
 * that, else (a function for the owner and whom it grants it to) the
 * GRANT EXECUTE that lets the caller in.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "catalog/pg_tablespace.h"
#include "catalog/pg_proc.h"
#include "commands/tablespace.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "compat.h"
#include "settings.h"
#include "privileges.h"
#include "sql_entry.h"

PG_FUNCTION_INFO_V1(iobench_require_grant);
PG_FUNCTION_INFO_V1(iobench_require_caller_grant);
PG_FUNCTION_INFO_V1(iobench_holds_grant);

/*
 * The items of an ACL.  PostgreSQL's ACL_DAT() mixes an int32 and a size_t
 * in a "?:" (ARR_DATA_OFFSET in utils/array.h), which -Wsign-compare
 * reports in the file that expands it; the warning is kept to this one
 * place so that the rest of the build stays clean under -Wextra.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
static inline AclItem *
acl_items(Acl *acl)
{
	return ACL_DAT(acl);
}
#pragma GCC diagnostic pop

/*
 * Does function "fnoid"'s ACL grant EXECUTE to a grantee other than PUBLIC
 * that is "roleid" itself, or, with "via_membership", any role whose
 * privileges "roleid" has?
 */
static bool
execute_in_acl(Oid fnoid, Oid roleid, bool via_membership)
{
	HeapTuple	tuple;
	Datum		aclDatum;
	bool		isnull;
	bool		granted = false;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(fnoid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for function %u", fnoid);
	aclDatum = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_proacl, &isnull);
	if (!isnull)
	{
		Acl		   *acl = DatumGetAclP(aclDatum);
		AclItem    *items = acl_items(acl);
		int			i;

		for (i = 0; i < ACL_NUM(acl) && !granted; i++)
		{
			Oid			grantee = items[i].ai_grantee;

			if (grantee == ACL_ID_PUBLIC ||
				(ACLITEM_GET_PRIVS(items[i]) & ACL_EXECUTE) == 0)
				continue;
			granted = via_membership ? has_privs_of_role(roleid, grantee) :
				grantee == roleid;
		}
	}
	ReleaseSysCache(tuple);
	return granted;
}

/*
 * Does "roleid" hold EXECUTE on function "fnoid" through a grantee other
 * than PUBLIC?  Superusers always do.
 */
static bool
execute_granted(Oid fnoid, Oid roleid)
{
	return superuser_arg(roleid) || execute_in_acl(fnoid, roleid, true);
}

/*
 * Is role "rolname" among the grantees of EXECUTE on function "fnoid"?
 * The wait statistics of the instance are pg_monitor's, not iobench_user's;
 * the functions of the owner (imports, fleets, resets) are neither's.
 */
static bool
granted_to_role(Oid fnoid, const char *rolname)
{
	Oid			role = get_role_oid(rolname, true);

	return OidIsValid(role) && execute_in_acl(fnoid, role, false);
}

/*
 * Function "fnoid" as GRANT EXECUTE ON FUNCTION takes it, whatever the
 * search_path: "iobench.import_runs(jsonb, text)"
 */
static char *
function_for_grant(Oid fnoid)
{
	StringInfoData buf;
	Oid		   *argtypes;
	int			nargs;
	int			i;

	initStringInfo(&buf);
	(void) get_func_signature(fnoid, &argtypes, &nargs);
	appendStringInfo(&buf, "%s(",
					 quote_qualified_identifier(get_namespace_name(get_func_namespace(fnoid)),
												get_func_name(fnoid)));
	for (i = 0; i < nargs; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "", format_type_be(argtypes[i]));
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/*
 * Raise "permission denied for function ..." for role "roleid" with a hint
 * naming the one grant the function needs, unless the role holds EXECUTE
 * on it through a role other than PUBLIC: iobench_user for running
 * benchmarks and reading their results; pg_monitor for the wait
 * statistics of the instance, which show every session's waits (as
 * pg_stat_activity shows them to pg_read_all_stats, a role pg_monitor
 * includes); EXECUTE on the function itself for those of the owner.
 */
static void
require_grant_of(Oid fnoid, Oid roleid)
{
	char	   *user;

	if (execute_granted(fnoid, roleid))
		return;
	user = GetUserNameFromId(roleid, false);
	if (granted_to_role(fnoid, IOB_USER_ROLE))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s", get_func_name(fnoid)),
				 errdetail("Running benchmarks and reading their results is for members of role \"%s\".",
						   IOB_USER_ROLE),
				 errhint("A superuser can grant it: GRANT %s TO %s;",
						 IOB_USER_ROLE, quote_identifier(user))));
	if (granted_to_role(fnoid, "pg_monitor"))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s", get_func_name(fnoid)),
				 errdetail("The wait statistics of the instance show every session's waits, which PostgreSQL shows to members of role \"pg_read_all_stats\" only; iobench gives them to members of role \"pg_monitor\", which includes it. Role \"%s\" reads the waits of runs only.",
						   IOB_USER_ROLE),
				 errhint("A superuser can grant it: GRANT pg_monitor TO %s;",
						 quote_identifier(user))));
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for function %s", get_func_name(fnoid)),
			 errdetail("Function %s is for the owner of iobench and the roles it grants EXECUTE on it to; role \"%s\" does not give it.",
					   function_for_grant(fnoid), IOB_USER_ROLE),
			 errhint("The owner of iobench or a superuser can grant it: GRANT EXECUTE ON FUNCTION %s TO %s;",
					 function_for_grant(fnoid), quote_identifier(user))));
}

/* See privileges.h: the check of the current user */
void
iob_require_grant(Oid fnoid)
{
	require_grant_of(fnoid, GetUserId());
}

/*
 * SQL-callable form for the PL/pgSQL entry points:
 * iobench.require_grant(regprocedure).
 */
Datum
iobench_require_grant(PG_FUNCTION_ARGS)
{
	IOB_SQL_ENTRY(1);
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"fn\" must not be null")));
	iob_require_grant(PG_GETARG_OID(0));
	PG_RETURN_VOID();
}

/*
 * SQL-callable form for the SECURITY DEFINER entry points (import_runs,
 * import_fio): iobench.require_caller_grant(regprocedure).  Inside such a
 * function the current user is its owner, so the check is of the role the
 * session acts as (the outer user: the login role, or the role of SET
 * ROLE).  A SECURITY DEFINER function of another owner that calls the
 * entry point therefore needs a caller that holds the grant too.
 */
Datum
iobench_require_caller_grant(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"fn\" must not be null")));
	require_grant_of(PG_GETARG_OID(0), GetOuterUserId());
	PG_RETURN_VOID();
}

/*
 * iobench_internal.holds_grant(regprocedure): does the current user hold EXECUTE on
 * the function through a role other than PUBLIC?  For the checks that
 * has_function_privilege() no longer answers once PUBLIC may execute.
 */
Datum
iobench_holds_grant(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(execute_granted(PG_GETARG_OID(0), GetUserId()));
}

/*
 * Raise "permission denied for tablespace ..." with the grant that lets
 * every benchmark user put files there.
 */
void
iob_tablespace_denied(const char *spcname)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for tablespace %s", spcname),
			 errdetail("Benchmark files are temporary files: they need CREATE on the tablespace, as temp_tablespaces does."),
			 errhint("A superuser or the tablespace's owner can grant it to every benchmark user at once: GRANT CREATE ON TABLESPACE %s TO %s;",
					 quote_identifier(spcname), IOB_USER_ROLE)));
}

/*
 * Refuse a run that would sample the waits of the whole instance
 * (iobench.run_waits = 'instance') for a role that may not see other
 * sessions' waits: its run_waits rows, which every member of iobench_user
 * reads, would show what pg_stat_activity hides from it.  The right is
 * the one pg_stat_activity asks for: the privileges of pg_read_all_stats
 * (pg_monitor has them).
 */
void
iob_check_run_waits_scope(void)
{
	if (iobench_run_waits != IOB_RUN_WAITS_INSTANCE ||
		has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to sample the waits of the whole instance"),
			 errdetail("iobench.run_waits is \"instance\", which records the waits of every session; only roles with the privileges of pg_read_all_stats may see other sessions' waits."),
			 errhint("SET iobench.run_waits = 'workers' to sample the run's own workers, or have pg_read_all_stats or pg_monitor granted to role \"%s\".",
					 GetUserNameFromId(GetUserId(), false))));
}

/*
 * Resolve a tablespace by name and check that the current user may create
 * files in it; returns its OID.  As for temporary files, the database's
 * default tablespace needs no grant.
 */
Oid
iob_check_tablespace(const char *spcname)
{
	Oid			spcoid;

	spcoid = get_tablespace_oid(spcname, false);
	if (spcoid == GLOBALTABLESPACE_OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot run a benchmark in tablespace \"%s\"", spcname),
				 errdetail("Tablespace \"pg_global\" holds only shared system catalogs.")));
	if (spcoid != MyDatabaseTableSpace)
	{
		AclResult	aclresult;

		aclresult = object_aclcheck(TableSpaceRelationId, spcoid, GetUserId(), ACL_CREATE);
		if (aclresult != ACLCHECK_OK)
			iob_tablespace_denied(spcname);
	}
	return spcoid;
}
