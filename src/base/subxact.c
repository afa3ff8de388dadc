/*-------------------------------------------------------------------------
 *
 * subxact.c
 *	  A step run in an internal subtransaction (subxact.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/memutils.h"

#include "subxact.h"

/* See subxact.h */
void
iob_subxact_begin(IobSubxact *sx)
{
	sx->cxt = CurrentMemoryContext;
	sx->owner = CurrentResourceOwner;
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(sx->cxt);
}

/* See subxact.h */
void
iob_subxact_commit(const IobSubxact *sx)
{
	ReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(sx->cxt);
	CurrentResourceOwner = sx->owner;
}

/* See subxact.h */
void
iob_subxact_rollback(const IobSubxact *sx)
{
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(sx->cxt);
	CurrentResourceOwner = sx->owner;
}

/* See subxact.h */
ErrorData *
iob_subxact_catch(const IobSubxact *sx, MemoryContext errcxt)
{
	ErrorData  *edata = NULL;

	/* out of ErrorContext, which FlushErrorState() resets */
	MemoryContextSwitchTo(errcxt ? errcxt : sx->cxt);
	if (errcxt)
		edata = CopyErrorData();
	FlushErrorState();
	iob_subxact_rollback(sx);
	return edata;
}
