/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Differences between the PostgreSQL releases iobench builds against
 *	  (15 to 19), in one place.
 *
 * iobench's code is written against the newest server API; what an older
 * release spells differently is defined here for it, one block per concern,
 * each naming the release that made the change.  Nothing here changes what
 * iobench does.  Where a newer server offers more (a view, a setting, a
 * layout of shared memory), this file defines an IOB_HAVE_* macro for it
 * and the code that uses it tests that macro, with the reason next to it:
 * PG_VERSION_NUM is tested here only.
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
#include "common/relpath.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

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
 * The server's I/O worker processes (18 and later, io_method = worker): the
 * backend type they run as, which the wait statistics of a run of engine
 * "postgres" sample beside the run's own workers (wait_run.c).  They are
 * auxiliary processes, so their PGPROCs are among the slots a sampler
 * looks at on every tick.
 */
#if PG_VERSION_NUM >= 180000
#define IOB_HAVE_IO_WORKERS			1
#define IOB_BTYPE_IO_WORKER			((int) B_IO_WORKER)
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
 * The four free lists of PGPROCs in ProcGlobal (freeProcs and the others)
 * became dlists in 16, taken from the head and given back at the tail;
 * before, they are stacks of PGPROC pointers linked through links.next.
 * wait_sampler.c watches them.
 */
#if PG_VERSION_NUM >= 160000
#define IOB_HAVE_FREE_PROCS_DLIST	1
#endif

/*
 * 17 names the wait events of extensions: WaitEventExtensionNew() registers
 * one by name, and every process gets the same value for a name.  Before 17
 * an extension has only Extension:Extension; iobench's own waits are told
 * apart there by a fixed value in PG_WAIT_EXTENSION's range, "id", which
 * other tools show as Extension:Extension.
 */
static inline uint32
iob_wait_event_extension(const char *name, uint32 id)
{
#if PG_VERSION_NUM >= 170000
	(void) id;
	return WaitEventExtensionNew(name);
#else
	(void) name;
	return PG_WAIT_EXTENSION | id;
#endif
}

/*
 * Statistics views: pg_stat_io exists since 16 (before, reads are counted
 * in pg_stat_database); since 18 it counts the WAL's I/O too (object
 * 'wal'), and pg_stat_wal no longer has its write and sync counts.
 */
#if PG_VERSION_NUM >= 160000
#define IOB_HAVE_PG_STAT_IO			1
#endif
#if PG_VERSION_NUM >= 180000
#define IOB_HAVE_PG_STAT_IO_WAL		1
#endif

/*
 * The setting debug_io_direct (which files the server opens with O_DIRECT)
 * exists since 16; before, the WAL is opened with O_DIRECT when its sync
 * method opens it O_DSYNC/O_SYNC and wal_level is minimal.
 */
#if PG_VERSION_NUM >= 160000
#define IOB_HAVE_DEBUG_IO_DIRECT	1
#endif

/*
 * The server's read path (engine_postgres.h).  17 added read streams
 * (storage/read_stream.h), the setting io_combine_limit and
 * EvictUnpinnedBuffer(); 18 added asynchronous I/O (io_method and its
 * workers), EvictRelUnpinnedBuffers() and EvictUnpinnedBuffer()'s report
 * of a flush; 16 renamed DropRelFileNodeBuffers() to DropRelationBuffers().
 */
#if PG_VERSION_NUM >= 170000
#define IOB_HAVE_READ_STREAM		1
#define IOB_HAVE_EVICT_BUFFER		1
#endif
#if PG_VERSION_NUM >= 180000
#define IOB_HAVE_AIO				1
#define IOB_HAVE_EVICT_RELATION		1
static inline bool
iob_evict_unpinned_buffer(Buffer buf)
{
	bool		flushed;

	return EvictUnpinnedBuffer(buf, &flushed);
}
#elif PG_VERSION_NUM >= 170000
#define iob_evict_unpinned_buffer(buf)	EvictUnpinnedBuffer(buf)
#endif

/*
 * How far ahead a read stream reads, in buffers pinned before its consumer
 * asks for them, from effective_io_concurrency and io_combine_limit
 * (read_stream_begin_impl(), before the caps by the strategy and the pin
 * limit, which only lower it): 17 pins 4 x the concurrency, at least
 * io_combine_limit; 18 one combined read per I/O in flight, plus one.
 */
#if PG_VERSION_NUM >= 180000
#define IOB_READ_STREAM_MAX_PINNED(ios, combine)	(((ios) + 1) * (combine))
#elif PG_VERSION_NUM >= 170000
#define IOB_READ_STREAM_MAX_PINNED(ios, combine)	Max((ios) * 4, (combine))
#endif

/*
 * 15 and 16 cannot evict one buffer: a read through a BAS_BULKREAD ring
 * leaves the ring's last buffers in shared buffers, 256 kB on both
 * (GetAccessStrategy())
 */
#ifndef IOB_HAVE_EVICT_BUFFER
#define IOB_BULKREAD_RING_BLOCKS	(256 * 1024 / BLCKSZ)
#endif

/*
 * The most buffers a read stream pins at once for max_ios I/Os of up to
 * "combine" blocks each (IOB_READ_STREAM_MAX_PINNED), within this
 * backend's share of shared buffers: 17 limits it with
 * LimitAdditionalPins(), 18 with GetPinLimit().  The ring of engine "postgres"'s
 * random reads is sized from it (engine_postgres.c).
 */
#if PG_VERSION_NUM >= 170000
static inline int
iob_read_stream_max_pins(int max_ios, int combine)
{
	uint32		pins = IOB_READ_STREAM_MAX_PINNED((uint32) max_ios, (uint32) combine);

#if PG_VERSION_NUM >= 180000
	pins = Min(pins, GetPinLimit());
#else
	LimitAdditionalPins(&pins);
#endif
	return (int) pins;
}
#endif

/*
 * The buffer free list (server_vs_disk()'s scan, engine_postgres_scan.c):
 * 15 to 18 keep the buffers no page occupies on a list that
 * StrategyGetBuffer() takes from before it runs the clock sweep, and
 * DropRelationBuffers() puts the buffers it empties on it (a buffer is on
 * the list when its freeNext is not FREENEXT_NOT_IN_LIST); 19 has no list,
 * every buffer comes from the clock sweep.
 */
#if PG_VERSION_NUM < 190000
#define IOB_HAVE_FREELIST			1
#endif

/*
 * The buffers of a BAS_BULKREAD ring as a sequential scan of a large table
 * makes it now: 16 and later say it (18 sizes it from the settings); 15's
 * is 256 kB.
 */
static inline int
iob_bulkread_ring_buffers(void)
{
#if PG_VERSION_NUM >= 160000
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	int			n = GetAccessStrategyBufferCount(strategy);

	FreeAccessStrategy(strategy);
	return n;
#else
	return 256 * 1024 / BLCKSZ;
#endif
}

/*
 * The buffer ring of the fill of engine "postgres"'s relation (an unlogged
 * table: its pages carry no LSN, so reusing a dirty buffer of the ring
 * never waits for a WAL flush, which is what BAS_BULKWRITE's 16 MB ring
 * spreads out): 16 and later size a BAS_BULKWRITE ring to IOB_FILL_RING_KB;
 * 15 cannot size a ring and has BAS_VACUUM's, of the same 256 kB, which
 * takes dirty buffers as BAS_BULKWRITE's does.
 */
#define IOB_FILL_RING_KB			256
#if PG_VERSION_NUM >= 160000
#define iob_fill_strategy()	GetAccessStrategyWithSize(BAS_BULKWRITE, IOB_FILL_RING_KB)
#else
#define iob_fill_strategy()	GetAccessStrategy(BAS_VACUUM)
#endif

/*
 * Extend a relation's main fork by "nblocks" zeroed blocks from block
 * "first" (its current size), with the file system's blocks allocated,
 * not as a hole, so the space is taken: 16 and later have
 * smgrzeroextend() (posix_fallocate() where the file system has it,
 * writes of zeros otherwise); 15 extends block by block with writes of
 * zeros, as its own relation extension does.  Not through shared buffers:
 * the blocks are zeros, and a read of one finds a new page.
 */
static inline void
iob_zero_extend(SMgrRelation smgr, BlockNumber first, int nblocks)
{
#if PG_VERSION_NUM >= 160000
	smgrzeroextend(smgr, MAIN_FORKNUM, first, nblocks, false);
#else
	PGAlignedBlock zeros;
	int			i;

	memset(zeros.data, 0, BLCKSZ);
	for (i = 0; i < nblocks; i++)
		smgrextend(smgr, MAIN_FORKNUM, first + i, zeros.data, false);
#endif
}

/*
 * The path of the first segment of a relation's main fork, into buf
 * (MAXPGPATH): 18 returns the path by value (RelPathStr), before it is
 * palloc'd; the relation's file locator was rd_node before 16.
 */
static inline void
iob_relation_main_path(Relation rel, char *buf)
{
#if PG_VERSION_NUM >= 180000
	strlcpy(buf, relpathperm(rel->rd_locator, MAIN_FORKNUM).str, MAXPGPATH);
#else
#if PG_VERSION_NUM >= 160000
	char	   *path = relpathperm(rel->rd_locator, MAIN_FORKNUM);
#else
	char	   *path = relpathperm(rel->rd_node, MAIN_FORKNUM);
#endif

	strlcpy(buf, path, MAXPGPATH);
	pfree(path);
#endif
}

#if PG_VERSION_NUM < 160000
#define DropRelationBuffers(smgr, forks, nforks, first) \
	DropRelFileNodeBuffers((smgr), (forks), (nforks), (first))
#endif

/*
 * PG_TEMP_FILE_PREFIX moved from storage/fd.h to common/file_utils.h; both
 * are included above, so it is found either way.
 */

#endif							/* IOBENCH_COMPAT_H */
