/*-------------------------------------------------------------------------
 *
 * sql_entry.h
 *	  The check at the top of every SQL-callable C function: the SQL
 *	  definition that called it is the one this library was built for.
 *
 * Between installing a new version of iobench and ALTER EXTENSION iobench
 * UPDATE, a database's SQL definitions are those of its older version,
 * and they call the new library's symbols.  The new code would read
 * argument slots an older definition does not pass (0.1's run() passes 17
 * of the 28 arguments 0.3 reads; its suite() 10 of 11, which crashed the
 * server), and, where the counts agree, it would still work on another
 * schema: 0.1's pgiosim() has 0.3's 13 arguments, but 0.3's code stores
 * its run in tables 0.1 does not have, and 0.1's iobench.wait_raw has one
 * column less than the rows 0.3 returns.  So every entry point checks
 * both PG_NARGS() and that this database's extension is the library's
 * version, and refuses any other with an error that says to update.  A
 * versioned symbol per signature would not see a schema that changed
 * under an unchanged signature; the version read from pg_extension does,
 * for one index lookup per call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SQL_ENTRY_H
#define IOBENCH_SQL_ENTRY_H

#include "postgres.h"

#include "fmgr.h"

extern void iob_check_sql_entry(FunctionCallInfo fcinfo, int nargs);

/*
 * The first statement of every PG_FUNCTION_INFO_V1 function: "nargs" is
 * the number of arguments of its definition in sql/install/code/ (a count
 * that drifts from it fails every call, which the test suite sees at once)
 */
#define IOB_SQL_ENTRY(nargs)	iob_check_sql_entry(fcinfo, (nargs))

#endif							/* IOBENCH_SQL_ENTRY_H */
