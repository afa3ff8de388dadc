/*-------------------------------------------------------------------------
 *
 * owner_spi.c
 *	  Running SQL as the owner of the iobench schema, with a pinned
 *	  search_path.  See owner_spi.h for why.
 *
 * An error between begin and end needs no clean-up here: transaction
 * abort restores the user, the security context and the GUC nest level,
 * and releases SPI.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "owner_spi.h"

/* Owner of the iobench schema: the role the results are written as */
Oid
iob_schema_owner(void)
{
	Oid			nspid = get_namespace_oid("iobench", false);
	HeapTuple	tup;
	Oid			owner;

	tup = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nspid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for schema %u", nspid);
	owner = ((Form_pg_namespace) GETSTRUCT(tup))->nspowner;
	ReleaseSysCache(tup);
	return owner;
}

/*
 * Become the schema owner in a restricted security context, pin
 * search_path to pg_catalog, and connect to SPI.
 */
void
iob_owner_begin(IobOwnerScope *scope)
{
	GetUserIdAndSecContext(&scope->save_userid, &scope->save_sec_context);
	SetUserIdAndSecContext(iob_schema_owner(),
						   scope->save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	scope->save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
}

/* Disconnect from SPI and restore search_path, user and security context */
void
iob_owner_end(IobOwnerScope *scope)
{
	SPI_finish();
	AtEOXact_GUC(false, scope->save_nestlevel);
	SetUserIdAndSecContext(scope->save_userid, scope->save_sec_context);
}

/* Run one statement between begin and end, raising an error if it fails */
void
iob_owner_exec(const char *sql, int nargs, Oid *types, Datum *values,
			   const char *nulls, int expected)
{
	int			rc;

	rc = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 0);
	if (rc != expected)
		elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
}

/*
 * One-dimensional array of "n" datums of type elemtype (NULLs where
 * nulls[i], or none when nulls is NULL), as an SPI argument Datum: the
 * result tables are filled through unnest() of such arrays.
 */
Datum
iob_array_datum(Datum *elems, bool *nulls, int n, Oid elemtype)
{
	int			dims[1] = {n};
	int			lbs[1] = {1};
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs, elemtype,
											  typlen, typbyval, typalign));
}

/*
 * Run a query that returns one row of ncols float8 columns as the schema
 * owner (begin and end included), into values/nulls.  For reading
 * PostgreSQL's statistics views with a pinned search_path.
 */
void
iob_owner_select_float8s(const char *sql, int ncols, double *values,
						 bool *nulls)
{
	IobOwnerScope scope;
	int			rc;
	int			i;

	iob_owner_begin(&scope);
	rc = SPI_execute(sql, true, 1);
	if (rc != SPI_OK_SELECT || SPI_processed != 1 ||
		SPI_tuptable->tupdesc->natts != ncols)
		elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
	for (i = 0; i < ncols; i++)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0],
									  SPI_tuptable->tupdesc, i + 1, &nulls[i]);

		if (SPI_gettypeid(SPI_tuptable->tupdesc, i + 1) != FLOAT8OID)
			elog(ERROR, "column %d of an owner query is not float8", i + 1);
		values[i] = nulls[i] ? 0 : DatumGetFloat8(d);
	}
	iob_owner_end(&scope);
}

/* See owner_spi.h: a statement run for its effect */
void
iob_owner_run(const char *sql, int nargs, Oid *types, Datum *values,
			  const char *nulls, int expected)
{
	IobOwnerScope scope;

	iob_owner_begin(&scope);
	iob_owner_exec(sql, nargs, types, values, nulls, expected);
	iob_owner_end(&scope);
}

/* See owner_spi.h: a statement run for one value (an id, a flag, a text) */
Datum
iob_owner_value(const char *sql, int nargs, Oid *types, Datum *values,
				const char *nulls, int expected, bool *isnull)
{
	IobOwnerScope scope;
	Datum		value;
	int16		typlen;
	bool		typbyval;

	iob_owner_begin(&scope);
	iob_owner_exec(sql, nargs, types, values, nulls, expected);
	if (SPI_processed < 1)
		elog(ERROR, "owner query returned no row");
	value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
	if (!*isnull)
	{
		/* out of SPI's memory, which iob_owner_end() frees */
		get_typlenbyval(SPI_gettypeid(SPI_tuptable->tupdesc, 1), &typlen, &typbyval);
		value = SPI_datumTransfer(value, typbyval, typlen);
	}
	iob_owner_end(&scope);
	return value;
}

/* See owner_spi.h: a query's rows as the caller's result set */
void
iob_owner_return_rows(FunctionCallInfo fcinfo, const char *sql, int nargs,
					  Oid *types, Datum *values)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	IobOwnerScope scope;
	int			natts;
	Datum	   *cols;
	bool	   *nulls;
	uint64		i;
	int			c;

	InitMaterializedSRF(fcinfo, 0);
	natts = rsinfo->setDesc->natts;
	cols = palloc(sizeof(Datum) * natts);
	nulls = palloc(sizeof(bool) * natts);
	iob_owner_begin(&scope);
	iob_owner_exec(sql, nargs, types, values, NULL, SPI_OK_SELECT);
	if (SPI_tuptable->tupdesc->natts != natts)
		elog(ERROR, "owner query does not match the result type of %s()",
			 get_func_name(fcinfo->flinfo->fn_oid));
	for (i = 0; i < SPI_processed; i++)
	{
		for (c = 0; c < natts; c++)
			cols[c] = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
									c + 1, &nulls[c]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, cols, nulls);
	}
	iob_owner_end(&scope);
}
