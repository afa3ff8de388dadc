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
 * does); before, it took the memory context to allocate the set in, and
 * iobench allocates it in the current one.
 */
#if PG_VERSION_NUM < 170000
#define CreateWaitEventSet(resowner, nevents) \
	CreateWaitEventSet(CurrentMemoryContext, (nevents))
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
 * PG_TEMP_FILE_PREFIX moved from storage/fd.h to common/file_utils.h; both
 * are included above, so it is found either way.
 */

#endif							/* IOBENCH_COMPAT_H */
