/*-------------------------------------------------------------------------
 *
 * sql_entry.c
 *	  Refusing calls from the SQL definitions of another version of
 *	  iobench than the library's (see sql_entry.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "sql_entry.h"

/* The version this library was built as: iobench.control's default_version */
#ifndef IOB_LIBRARY_VERSION
#error "IOB_LIBRARY_VERSION must be defined (the Makefile passes default_version)"
#endif

/* This database's version of the extension iobench; NULL when it has none */
static char *
installed_version(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *version = NULL;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("iobench"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bool		isnull;
		Datum		d = heap_getattr(tuple, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = TextDatumGetCString(d);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

/*
 * Is version "a" older than version "b"?  Versions are numbers separated
 * by dots, compared number by number (0.10 is newer than 0.9).
 */
static bool
version_older(const char *a, const char *b)
{
	while (*a != '\0' || *b != '\0')
	{
		char	   *end_a;
		char	   *end_b;
		long		na = strtol(a, &end_a, 10);
		long		nb = strtol(b, &end_b, 10);

		if (na != nb)
			return na < nb;
		a = (*end_a == '.') ? end_a + 1 : end_a;
		b = (*end_b == '.') ? end_b + 1 : end_b;
		if (a == end_a && b == end_b)
			break;				/* neither moved: not a number, stop */
	}
	return false;
}

/* "schema.name()" of the called function, for a DETAIL */
static char *
called_function(FunctionCallInfo fcinfo)
{
	Oid			fn = (fcinfo->flinfo != NULL) ? fcinfo->flinfo->fn_oid : InvalidOid;
	char	   *name = OidIsValid(fn) ? get_func_name(fn) : NULL;

	if (name == NULL)
		return pstrdup("an iobench function");
	return psprintf("%s.%s()", get_namespace_name(get_func_namespace(fn)), name);
}

/*
 * Refuse the call unless the SQL definition that made it passes "nargs"
 * arguments and belongs to this library's version of the extension, so
 * that no C code reads arguments that were not passed or writes tables of
 * a schema it was not written for.
 */
void
iob_check_sql_entry(FunctionCallInfo fcinfo, int nargs)
{
	char	   *version = installed_version();

	if (version != NULL && strcmp(version, IOB_LIBRARY_VERSION) == 0)
	{
		if (PG_NARGS() == nargs)
		{
			pfree(version);
			return;
		}
		/* the library's own version passing other arguments: a hand-made definition */
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_FUNCTION_DEFINITION),
				 errmsg("%s passes %d arguments but iobench's library takes %d",
						called_function(fcinfo), PG_NARGS(), nargs),
				 errdetail("The function's SQL definition is not the one version %s of the extension creates.",
						   version)));
	}
	if (version == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("iobench's library is %s but this database has no extension iobench",
						IOB_LIBRARY_VERSION),
				 errdetail("%s was called by a definition that the extension did not create.",
						   called_function(fcinfo)),
				 errhint("Run CREATE EXTENSION iobench.")));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("iobench's library is %s but this database's extension is %s",
					IOB_LIBRARY_VERSION, version),
			 (PG_NARGS() != nargs) ?
			 errdetail("%s of version %s passes %d arguments; the library's takes %d.",
					   called_function(fcinfo), version, PG_NARGS(), nargs) :
			 errdetail("The library works with the SQL functions and tables of version %s only; %s was called by those of version %s.",
					   IOB_LIBRARY_VERSION, called_function(fcinfo), version),
			 version_older(version, IOB_LIBRARY_VERSION) ?
			 errhint("Run ALTER EXTENSION iobench UPDATE.") :
			 errhint("Reconnect, or restart the server when iobench is in shared_preload_libraries: this process still runs the library of version %s, loaded before version %s was installed.",
					 IOB_LIBRARY_VERSION, version)));
}

/*
 * Entry points of earlier versions whose work is SQL now: iobench.suite()
 * and iobench.latency_search() run in the campaign frame (campaigns/
 * campaign.h).  The SQL definitions of 0.1 and 0.2 still name them (and
 * CREATE FUNCTION looks the symbol up), so they exist, and refuse: an
 * older version's call is told to update, any other is no definition of
 * this version's.
 */
PG_FUNCTION_INFO_V1(iobench_suite);
PG_FUNCTION_INFO_V1(iobench_latency_search);

/* Refuse a call of a retired entry point that took "nargs" arguments */
static void
refuse_retired_entry(FunctionCallInfo fcinfo, int nargs)
{
	iob_check_sql_entry(fcinfo, nargs);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_FUNCTION_DEFINITION),
			 errmsg("%s is not a C function in version %s of iobench",
					called_function(fcinfo), IOB_LIBRARY_VERSION),
			 errdetail("The function's SQL definition is not the one version %s of the extension creates.",
					   IOB_LIBRARY_VERSION)));
}

/* iobench.suite() of 0.1 and 0.2 */
Datum
iobench_suite(PG_FUNCTION_ARGS)
{
	refuse_retired_entry(fcinfo, 11);
	PG_RETURN_NULL();
}

/* iobench.latency_search() of 0.1 and 0.2 */
Datum
iobench_latency_search(PG_FUNCTION_ARGS)
{
	refuse_retired_entry(fcinfo, 15);
	PG_RETURN_NULL();
}
