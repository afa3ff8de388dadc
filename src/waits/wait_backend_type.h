/*-------------------------------------------------------------------------
 *
 * wait_backend_type.h
 *	  Wait statistics, beside layer 2: the backend type of the process in a
 *	  PGPROC, as the server gives it (its BackendType, the type
 *	  pg_stat_activity shows), for the sampler to keep the waits of each
 *	  backend type apart (see wait_table.h for the layers).
 *
 * On 18 and later the type is read directly, without a lock, at every
 * tick; before 18 it is only in the backend status snapshot, which is read
 * again (at most once per tick) when a process not in it is first seen or
 * changes state, and otherwise at most every 100 ms.  The version differences are in wait_backend_type.c
 * and compat.h only.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_BACKEND_TYPE_H
#define IOBENCH_WAIT_BACKEND_TYPE_H

#include "storage/proc.h"

extern int	iob_wait_backend_type(PGPROC *proc, int procno, int pid,
								  int known, bool eager, uint64 now_ns);

#endif							/* IOBENCH_WAIT_BACKEND_TYPE_H */
