/*-------------------------------------------------------------------------
 *
 * subxact.h
 *	  A step run in an internal subtransaction, as PL/pgSQL runs a block
 *	  with an EXCEPTION clause.
 *
 * A run and a suite keep what they measured when a step fails: the step
 * runs between iob_subxact_begin() and iob_subxact_commit() inside
 * PG_TRY(), and PG_CATCH() calls iob_subxact_catch(), which leaves the
 * subtransaction before anything else (an error re-thrown from inside it
 * would leave the caller's implicit transaction block aborted) and hands
 * back the error for the caller to add to and re-throw.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SUBXACT_H
#define IOBENCH_SUBXACT_H

#include "postgres.h"

#include "utils/resowner.h"

/* What iob_subxact_begin() found, to come back to */
typedef struct IobSubxact
{
	MemoryContext cxt;
	ResourceOwner owner;
} IobSubxact;

/* Start a subtransaction, staying in the caller's memory context */
extern void iob_subxact_begin(IobSubxact *sx);

/* Commit it and return to the caller's memory context and resource owner */
extern void iob_subxact_commit(const IobSubxact *sx);

/* Roll it back, and return the same way */
extern void iob_subxact_rollback(const IobSubxact *sx);

/*
 * In PG_CATCH(): the error, copied into errcxt (NULL: dropped, and NULL
 * returned), then the subtransaction rolled back as iob_subxact_rollback().
 */
extern ErrorData *iob_subxact_catch(const IobSubxact *sx, MemoryContext errcxt);

#endif							/* IOBENCH_SUBXACT_H */
