/*-------------------------------------------------------------------------
 *
 * owner_spi.h
 *	  Running SQL as the owner of the iobench schema.
 *
 * Callers of iobench.run(), pgiosim() and suite() need no write access to
 * the result tables: iobench writes them as the owner of its schema.
 * Because that owner is a superuser (the extension needs one), the switch
 * is guarded like PostgreSQL's own maintenance code: search_path is pinned
 * to pg_catalog for the duration, so no object of the caller's choosing
 * (an operator, a function) can run with the owner's rights, and the
 * security context is restricted.  All SQL run inside names iobench
 * objects with their schema.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_OWNER_SPI_H
#define IOBENCH_OWNER_SPI_H

#include "postgres.h"

#include "fmgr.h"

/* What iob_owner_begin() changed, for iob_owner_end() to restore */
typedef struct IobOwnerScope
{
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
} IobOwnerScope;

extern Oid	iob_schema_owner(void);
extern void iob_owner_begin(IobOwnerScope *scope);
extern void iob_owner_end(IobOwnerScope *scope);
extern Datum iob_array_datum(Datum *elems, bool *nulls, int n, Oid elemtype);
extern void iob_owner_exec(const char *sql, int nargs, Oid *types,
						   Datum *values, const char *nulls, int expected);
extern void iob_owner_select_float8s(const char *sql, int ncols,
									 double *values, bool *nulls);

/*
 * One statement as the schema owner, begin and end included: for nothing
 * back, for the first column of its first row (copied into the caller's
 * memory context), or for all its rows as the result of the set-returning
 * function being called (whose columns are the query's).
 */
extern void iob_owner_run(const char *sql, int nargs, Oid *types,
						  Datum *values, const char *nulls, int expected);
extern Datum iob_owner_value(const char *sql, int nargs, Oid *types,
							 Datum *values, const char *nulls, int expected,
							 bool *isnull);
extern void iob_owner_return_rows(FunctionCallInfo fcinfo, const char *sql,
								  int nargs, Oid *types, Datum *values);

#endif							/* IOBENCH_OWNER_SPI_H */
