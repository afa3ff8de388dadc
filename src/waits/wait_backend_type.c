/*-------------------------------------------------------------------------
 *
 * wait_backend_type.c
 *	  The backend type of a sampled process (see wait_backend_type.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/backend_status.h"

#include "base/base.h"
#include "wait_backend_type.h"

#ifndef IOB_HAVE_PROC_BACKEND_TYPE
/*
 * How often the backend status snapshot may be read again for a process
 * that is not in it yet: a read copies the entry of every backend.
 */
#define IOB_BTYPE_REREAD_NS		(UINT64CONST(100) * 1000000)

/* Time of the last read of the snapshot by this process (0: none) */
static uint64 iob_btype_read_ns = 0;

/*
 * Look a process up in the backend status snapshot (what pg_stat_activity
 * reads), and when it is missing (it started after the snapshot), read the
 * snapshot again: at most once per tick (now_ns) when the answer matters
 * now (eager: a process seen for the first time, or one whose state
 * changed, as an entry into a wait is counted under its type), and at most
 * every IOB_BTYPE_REREAD_NS otherwise (a process that has not yet reported
 * its status, sitting in one state).  0 when not found.
 */
static int
iob_snapshot_backend_type(int pid, bool eager, uint64 now_ns)
{
	int			pass;

	for (pass = 0; pass < 2; pass++)
	{
		int			n = pgstat_fetch_stat_numbackends();
		int			i;

		for (i = 1; i <= n; i++)
		{
			LocalPgBackendStatus *e = pgstat_get_local_beentry_by_index(i);

			if (e != NULL && e->backendStatus.st_procpid == pid)
				return (int) e->backendStatus.st_backendType;
		}
		if (pass == 0 && iob_btype_read_ns != 0 &&
			(eager ? iob_btype_read_ns == now_ns :
			 now_ns - iob_btype_read_ns < IOB_BTYPE_REREAD_NS))
			break;
		pgstat_clear_backend_activity_snapshot();
		iob_btype_read_ns = now_ns;
	}
	return 0;
}
#endif

/*
 * The backend type (a BackendType; 0, B_INVALID: unknown) of process pid in
 * PGPROC number procno.  known is the type found at an earlier tick (0:
 * none), eager whether the sampler sees this process for the first time or
 * in a new state, now_ns the time of the tick.  18 and later read the type at every
 * call (one aligned int: a process that has just started may show its
 * slot's previous type for a tick); before 18 a type once found is kept.
 */
int
iob_wait_backend_type(PGPROC *proc, int procno, int pid, int known,
					  bool eager, uint64 now_ns)
{
#ifdef IOB_HAVE_PROC_BACKEND_TYPE
	return iob_proc_backend_type(proc, procno);
#else
	if (known != 0)
		return known;
	return iob_snapshot_backend_type(pid, eager, now_ns);
#endif
}
