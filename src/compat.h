/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Differences between the PostgreSQL releases iobench builds against
 *	  (15 to 19), in one place.
 *
 * iobench's code is written against the newest server API; what an older
 * release spells differently is defined here for it, one block per concern,
 * each naming the release that made the change.  Nothing here changes what
 * iobench does: where a newer server offers more, the code asks for it
 * itself (PG_VERSION_NUM checks sit next to that code, with the reason).
 *
 * Include it after postgres.h and the server headers a file needs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_COMPAT_H
#define IOBENCH_COMPAT_H

#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 200000
#error "iobench supports PostgreSQL 15 to 19"
#endif

#include "catalog/pg_tablespace_d.h"
#include "common/file_utils.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/memutils.h"

/*
 * PGPROC.pgprocno was removed in 17 in favour of GetNumberFromPGProc(),
 * which computes the same number from the PGPROC's address.
 */
#if PG_VERSION_NUM < 170000
#define GetNumberFromPGProc(proc)	((proc)->pgprocno)
#endif

/*
 * A PGPROC's local transaction id moved into its "vxid" member in 17.
 */
#if PG_VERSION_NUM >= 170000
#define IOB_PROC_LXID(proc)		((proc)->vxid.lxid)
#else
#define IOB_PROC_LXID(proc)		((proc)->lxid)
#endif

/*
 * Since 17, CreateWaitEventSet() takes the resource owner that releases the
 * set (NULL: the caller frees it with FreeWaitEventSet, as iobench always
 * does) and allocates it in TopMemoryContext; before, it took the memory
 * context to allocate it in.  TopMemoryContext there too: the same lifetime
 * on every release.
 */
#if PG_VERSION_NUM < 170000
#define CreateWaitEventSet(resowner, nevents) \
	CreateWaitEventSet(TopMemoryContext, (nevents))
#endif

/*
 * 16 replaced the per-object-kind ACL checks (pg_tablespace_aclcheck() and
 * friends) by object_aclcheck(), given the catalog of the object.  iobench
 * checks tablespaces only.
 */
#if PG_VERSION_NUM < 160000
#define object_aclcheck(classid, objectid, roleid, mode) \
	(AssertMacro((classid) == TableSpaceRelationId), \
	 pg_tablespace_aclcheck((objectid), (roleid), (mode)))
#endif

/*
 * The backend type of the process in a PGPROC, read without a lock (an
 * aligned int, as pg_signal_backend() reads it): 19 keeps it in the PGPROC,
 * 18 offers a read of the shared backend status array by proc number.
 * Before 18 the type is only in the backend status snapshot, which
 * wait_backend_type.c reads itself; IOB_HAVE_PROC_BACKEND_TYPE
 * says whether this direct read exists.
 */
#if PG_VERSION_NUM >= 190000
#define IOB_HAVE_PROC_BACKEND_TYPE	1
#define iob_proc_backend_type(proc, procno) \
	((int) *(volatile BackendType *) &(proc)->backendType)
#elif PG_VERSION_NUM >= 180000
#include "utils/backend_status.h"
#define IOB_HAVE_PROC_BACKEND_TYPE	1
#define iob_proc_backend_type(proc, procno) \
	((int) pgstat_get_backend_type_by_proc_number(procno))
#endif

/*
 * The entries of the backend status snapshot are read by index (1-based)
 * since 16; 15 calls the same read pgstat_fetch_stat_local_beentry().
 */
#if PG_VERSION_NUM < 160000
#define pgstat_get_local_beentry_by_index(idx) \
	pgstat_fetch_stat_local_beentry(idx)
#endif

/*
 * 18 replaced the trailing pg_attribute_noreturn() by pg_noreturn, written
 * before the declaration; GCC and clang take the attribute there too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * The postmaster's list of registered background workers became a dlist in
 * 18 (an slist before); run_limits.c only counts its entries, in the
 * postmaster.
 */
#include "postmaster/bgworker_internals.h"
#if PG_VERSION_NUM >= 180000
typedef dlist_iter iob_bgworker_iter;
#define iob_foreach_registered_bgworker(iter) \
	dlist_foreach(iter, &BackgroundWorkerList)
#else
typedef slist_iter iob_bgworker_iter;
#define iob_foreach_registered_bgworker(iter) \
	slist_foreach(iter, &BackgroundWorkerList)
#endif

/*
 * A fingerprint of the four free lists of PGPROCs that changes when a
 * process takes a PGPROC from one of them (wait_sampler.c scans every slot
 * only then).  16 made them dlists taken from the head and given back at
 * the tail: their heads and tails.  15 keeps them as stacks linked through
 * links.next: the top two entries of each.  Read without ProcStructLock:
 * aligned pointers, and every entry is a PGPROC, so a stale one is still
 * one to read.
 */
#define IOB_FREE_LIST_WORDS		8
typedef struct IobFreeListPrint
{
	uintptr_t	word[IOB_FREE_LIST_WORDS];
} IobFreeListPrint;

static inline void
iob_free_list_print(IobFreeListPrint *print)
{
#if PG_VERSION_NUM >= 160000
	dlist_head *lists[4] = {&ProcGlobal->freeProcs, &ProcGlobal->autovacFreeProcs,
	&ProcGlobal->bgworkerFreeProcs, &ProcGlobal->walsenderFreeProcs};

	for (int i = 0; i < 4; i++)
	{
		print->word[2 * i] = (uintptr_t) *(dlist_node *volatile *) &lists[i]->head.next;
		print->word[2 * i + 1] = (uintptr_t) *(dlist_node *volatile *) &lists[i]->head.prev;
	}
#else
	PGPROC	  **lists[4] = {&ProcGlobal->freeProcs, &ProcGlobal->autovacFreeProcs,
	&ProcGlobal->bgworkerFreeProcs, &ProcGlobal->walsenderFreeProcs};

	for (int i = 0; i < 4; i++)
	{
		PGPROC	   *top = *(PGPROC *volatile *) lists[i];

		print->word[2 * i] = (uintptr_t) top;
		print->word[2 * i + 1] = top == NULL ? 0 :
			(uintptr_t) *(SHM_QUEUE *volatile *) &top->links.next;
	}
#endif
}

/*
 * PG_TEMP_FILE_PREFIX moved from storage/fd.h to common/file_utils.h; both
 * are included above, so it is found either way.
 */

#endif							/* IOBENCH_COMPAT_H */
