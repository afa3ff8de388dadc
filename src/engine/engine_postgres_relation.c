/*-------------------------------------------------------------------------
 *
 * engine_postgres_relation.c
 *	  Engine "postgres": the relation its workers read, made ready by a
 *	  preparer background worker before the run (engine_postgres.h).
 *
 * The relation of a tablespace is iobench_internal.read_target_<oid of the
 * tablespace>: an unlogged table (no WAL for its fill, nothing sent to a
 * standby; emptied by crash recovery, then refilled), autovacuum off (no
 * reader but the runs), each page filled with TOAST_TUPLES_PER_PAGE rows of
 * random bytes so nothing compresses.  It is an extension member: DROP
 * EXTENSION removes it, iobench.drop_read_targets() removes it on request,
 * and iobench.read_targets lists it.  A run reads its first file_size
 * bytes, so a larger relation is reused as it is and a smaller one is
 * extended.
 *
 * The launcher's transaction cannot make it: the workers could not see it
 * before the caller commits.  A preparer worker, connected to the same
 * database, makes it in a transaction of its own, committed (the relation
 * is never an uncommitted file that a crash would leave orphaned).  It
 * then takes the space of the blocks to add before writing any, as the
 * raw files do (files.c): under the file system's space lock, the
 * free-space check with the safety margin and the relation extended with
 * zeroed, allocated blocks (compat.h: iob_zero_extend).  It fills those new
 * pages in transactions of its own, one per FILL_CHUNK_BYTES, through one
 * small buffer ring for the whole fill (compat.h: iob_fill_strategy), so
 * the fill evicts no more of other relations' buffers than the ring holds;
 * a fill cut short leaves new pages after the filled ones, which the next
 * run fills.  Then it makes the relation cold: dirty buffers written, the
 * files synced, every buffer of it evicted and its pages dropped from the
 * page cache.  A lock on the tablespace serializes the preparers of one
 * tablespace.
 *
 * The same preparer makes server_vs_disk()'s scan relation
 * (shared->scan_target): iobench_internal.scan_target_<oid>, (k integer,
 * filler bytea), one row per page inserted frozen with its key
 * (iob_scan_key()) and its btree index entry, filled to all of its blocks
 * (the scan reads all of it), and left for its caller to make cold
 * (engine_postgres_scan.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/genam.h"
#include "access/heapam.h"
#include "access/hio.h"
#include "access/tableam.h"
#include "access/heaptoast.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_tablespace.h"
#include "commands/dbcommands.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "base/base.h"
#include "engine_postgres.h"
#include "device/device.h"

/* Blocks filled per committed transaction: 64 MB of 8 kB blocks */
#define FILL_CHUNK_BYTES	(64 * 1024 * 1024)

/*
 * The schema of the relations, and their names' prefixes: the relation
 * engine "postgres" reads, and the scan relation of server_vs_disk()
 * (engine_postgres_scan.c)
 */
#define READ_TARGET_SCHEMA	"iobench_internal"
#define READ_TARGET_PREFIX	"read_target_"
#define SCAN_TARGET_PREFIX	"scan_target_"

/*
 * Random bytes of the scan relation's one row per page: the largest that
 * fits a page with its key, stored inline (storage PLAIN), so that no
 * second row fits and nothing compresses
 */
#define SCAN_ROW_BYTES \
	(MaxHeapTupleSize - MAXALIGN(SizeofHeapTupleHeader) - 2 * MAXIMUM_ALIGNOF - VARHDRSZ)

/*
 * Random bytes per row: the largest row stored inline without compression
 * (a row of more than TOAST_TUPLE_THRESHOLD bytes would be toasted), so
 * that TOAST_TUPLES_PER_PAGE rows fill a page
 */
#define FILL_ROW_BYTES \
	(TOAST_TUPLE_THRESHOLD - MAXALIGN(SizeofHeapTupleHeader) - VARHDRSZ)

/* Wait for the preparer's exit, on the latch (it notifies us) */
static void
wait_for_preparer(BackgroundWorkerHandle *handle)
{
	pid_t		pid;

	while (GetBackgroundWorkerPid(handle, &pid) != BGWH_STOPPED)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, IOB_RUN_WAIT_EVENT);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * In the launcher: start the preparer for the run of segment "seg" and wait
 * for it; raises its error, or returns with shared->relid set.  A cancel
 * of the launcher terminates the preparer: what it committed stays, a
 * relation that the next run reuses.
 */
void
iob_pg_relation_prepare(dsm_segment *seg, IobPgShared *shared)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	Size		offset = (char *) shared - (char *) dsm_segment_address(seg);

	iob_dynworker_prepare(&worker, "iobench_relation_main", "iobench relation preparer", seg);
	/* where the engine's state lies in the segment */
	memcpy(worker.bgw_extra + IOB_DYNWORKER_EXTRA, &offset, sizeof(offset));
	snprintf(worker.bgw_name, BGW_MAXLEN, "iobench relation preparer of run by PID %d",
			 MyProcPid);
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not register background worker for the relation of engine \"postgres\""),
				 errhint("Raise max_worker_processes (currently %d), or wait for other runs to end.",
						 max_worker_processes)));
	PG_TRY();
	{
		wait_for_preparer(handle);
	}
	PG_CATCH();
	{
		TerminateBackgroundWorker(handle);
		PG_RE_THROW();
	}
	PG_END_TRY();

	pg_read_barrier();
	if (shared->prep_error_code != 0)
		ereport(ERROR,
				(errcode(shared->prep_error_code),
				 errmsg("could not prepare the relation of engine \"postgres\": %s",
						shared->prep_error),
				 shared->prep_error_detail[0] ?
				 errdetail_internal("%s", shared->prep_error_detail) : 0,
				 shared->prep_error_hint[0] ?
				 errhint("%s", shared->prep_error_hint) : 0));
	if (!OidIsValid(shared->relid))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("the iobench relation preparer exited unexpectedly"),
				 errhint("See the server log for the reason.")));
}

/*
 * Make the relation of tablespace "spcoid", as the extension's owner; the
 * scan relation has an integer key and a btree index on it, made while it
 * is empty (its fill inserts the index entries, so no CREATE INDEX ever
 * reads the table through shared buffers)
 */
static void
create_read_target(Oid spcoid, const char *relname, bool scan)
{
	char	   *qualified = quote_qualified_identifier(READ_TARGET_SCHEMA, relname);
	char	   *spcname = get_tablespace_name(spcoid);
	IobOwnerScope scope;

	if (spcname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace with OID %u does not exist", spcoid)));
	iob_owner_begin(&scope);
	iob_owner_exec(psprintf("CREATE UNLOGGED TABLE %s (%sfiller bytea) "
							"WITH (autovacuum_enabled = false, toast.autovacuum_enabled = false) "
							"TABLESPACE %s",
							qualified, scan ? "k integer NOT NULL, " : "",
							quote_identifier(spcname)),
				   0, NULL, NULL, NULL, SPI_OK_UTILITY);
	if (scan)
	{
		iob_owner_exec(psprintf("ALTER TABLE %s ALTER COLUMN filler SET STORAGE PLAIN", qualified),
					   0, NULL, NULL, NULL, SPI_OK_UTILITY);
		iob_owner_exec(psprintf("CREATE INDEX %s ON %s (k) TABLESPACE %s",
								quote_identifier(psprintf("%s_k", relname)), qualified,
								quote_identifier(spcname)),
					   0, NULL, NULL, NULL, SPI_OK_UTILITY);
	}
	iob_owner_exec(psprintf("COMMENT ON TABLE %s IS %s", qualified,
							quote_literal_cstr(scan ?
											   psprintf("iobench: the relation server_vs_disk() scans on tablespace %s, one row per page; iobench.drop_read_targets() removes it",
														spcname) :
											   psprintf("iobench: the blocks runs of engine postgres read on tablespace %s; iobench.drop_read_targets() removes it",
														spcname))),
				   0, NULL, NULL, NULL, SPI_OK_UTILITY);
	iob_owner_exec(psprintf("ALTER EXTENSION iobench ADD TABLE %s", qualified),
				   0, NULL, NULL, NULL, SPI_OK_UTILITY);
	iob_owner_end(&scope);
}

/*
 * Find the relation of the tablespace, making it when missing, in a
 * transaction of its own; returns its OID.  A relation of that name in
 * another tablespace (moved by hand) is refused.
 */
static Oid
find_or_create(Oid spcoid, const char *relname, bool scan)
{
	Oid			nsp;
	Oid			relid;
	Oid			relspc;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	LockSharedObject(TableSpaceRelationId, spcoid, 0, ExclusiveLock);
	nsp = get_namespace_oid(READ_TARGET_SCHEMA, false);
	relid = get_relname_relid(relname, nsp);
	if (!OidIsValid(relid))
	{
		create_read_target(spcoid, relname, scan);
		CommandCounterIncrement();
		relid = get_relname_relid(relname, nsp);
		if (!OidIsValid(relid))
			elog(ERROR, "relation \"%s\" was not created", relname);
	}
	relspc = get_rel_tablespace(relid);
	if (!OidIsValid(relspc))
		relspc = MyDatabaseTableSpace;
	if (relspc != spcoid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("relation \"%s.%s\" is not in tablespace \"%s\"",
						READ_TARGET_SCHEMA, relname, get_tablespace_name(spcoid)),
				 errhint("Remove it with SELECT iobench.drop_read_targets(%s); the next run makes it anew.",
						 quote_literal_cstr(get_tablespace_name(spcoid)))));
	PopActiveSnapshot();
	CommitTransactionCommand();
	return relid;
}

/*
 * Whether block "blkno" of the relation is a new page: zeros, as the
 * reservation (reserve_blocks) left it, not filled yet
 */
static bool
block_is_new(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	bool		is_new;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	is_new = PageIsNew(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	return is_new;
}

/*
 * How many blocks of the relation are filled: the fill goes block by block
 * from the first new page on, so the filled blocks come first and the new
 * ones (reserved, not filled: a fill cut short) after them; a binary
 * search finds where, in a few page reads.  A relation filled to its end
 * costs one.
 */
static BlockNumber
filled_blocks(Relation rel, BlockNumber nblocks, BufferAccessStrategy strategy)
{
	BlockNumber lo = 0;
	BlockNumber hi;

	if (nblocks == 0 || !block_is_new(rel, nblocks - 1, strategy))
		return nblocks;
	/* block hi is new; the first new one is in [lo, hi] */
	hi = nblocks - 1;
	while (lo < hi)
	{
		BlockNumber mid = lo + (hi - lo) / 2;

		if (block_is_new(rel, mid, strategy))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Fill blocks [first, first + nblocks), new pages, with random rows,
 * TOAST_TUPLES_PER_PAGE per page, or for the scan relation ("index" not
 * NULL) one row per page with its key (iob_scan_key()) and its index
 * entry: each page is the target of its rows (never the free space map,
 * never an extension), through the buffer ring of "bistate"
 */
static void
fill_blocks(Relation rel, BlockNumber first, BlockNumber nblocks,
			BulkInsertState bistate, pg_prng_state *prng, Relation index)
{
	TupleDesc	desc = RelationGetDescr(rel);
	CommandId	cid = GetCurrentCommandId(true);
	Size		row_bytes = index ? SCAN_ROW_BYTES : FILL_ROW_BYTES;
	int			rows = index ? 1 : TOAST_TUPLES_PER_PAGE;
	IndexInfo  *index_info = index ? BuildIndexInfo(index) : NULL;
	bytea	   *value = palloc(VARHDRSZ + row_bytes);
	BlockNumber b;

	SET_VARSIZE(value, VARHDRSZ + row_bytes);
	for (b = first; b < first + nblocks; b++)
	{
		int			r;

		/* the page of the rows: hio.c takes the target block when it holds no pin */
		ReleaseBulkInsertStatePin(bistate);
		RelationSetTargetBlock(rel, b);
		for (r = 0; r < rows; r++)
		{
			char	   *p = VARDATA(value);
			Datum		datum[2];
			bool		isnull[2] = {false, false};
			HeapTuple	tuple;
			Size		i;

			for (i = 0; i + sizeof(uint64) <= row_bytes; i += sizeof(uint64))
			{
				uint64		v = pg_prng_uint64(prng);

				memcpy(p + i, &v, sizeof(v));
			}
			if (index)
			{
				/* the key as a signed integer, in the order of the unsigned one */
				datum[0] = Int32GetDatum((int32) (iob_scan_key(b) ^ 0x80000000U));
				datum[1] = PointerGetDatum(value);
			}
			else
				datum[0] = PointerGetDatum(value);
			tuple = heap_form_tuple(desc, datum, isnull);
			/*
			 * The scan relation's rows are inserted frozen: a scan sets no
			 * hint bit, so its pages stay clean and a sequential scan's
			 * ring never writes one (no other transaction reads the
			 * relation during its fill: its steps are serialized)
			 */
			heap_insert(rel, tuple, cid,
						HEAP_INSERT_SKIP_FSM | (index ? HEAP_INSERT_FROZEN : 0), bistate);
			if (index)
				(void) index_insert(index, datum, isnull, &tuple->t_self, rel,
									UNIQUE_CHECK_NO, false, index_info);
			if (ItemPointerGetBlockNumber(&tuple->t_self) != b)
				elog(ERROR, "row for block %u of relation \"%s\" went to block %u",
					 b, RelationGetRelationName(rel),
					 ItemPointerGetBlockNumber(&tuple->t_self));
			heap_freetuple(tuple);
		}
		if ((b & 255) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	ReleaseBulkInsertStatePin(bistate);
	pfree(value);
}

/* The index of the scan relation: its only one, opened for the fill */
static Relation
open_scan_index(Relation rel)
{
	List	   *indexes = RelationGetIndexList(rel);

	if (list_length(indexes) != 1)
		elog(ERROR, "relation \"%s\" has %d indexes, not its one",
			 RelationGetRelationName(rel), list_length(indexes));
	return index_open(linitial_oid(indexes), RowExclusiveLock);
}

/* Blocks zero-extended per step of a reservation, between interrupt checks */
#define RESERVE_STEP_BLOCKS	(FILL_CHUNK_BYTES / BLCKSZ)

/*
 * Take the space of blocks [nblocks, need) of the relation before a byte of
 * them is filled: under the lock of its file system's space (files.h), the
 * free-space check with the raw files' safety margin, then the relation
 * extended with zeroed blocks that the file system allocates.  A run on
 * the same file system that checks afterwards, of any engine, sees the
 * space taken and is refused up front instead of filling the disk with
 * this one.
 */
static void
reserve_blocks(const IobPgShared *shared, Relation rel, BlockNumber nblocks,
			   BlockNumber need)
{
	char		dir[MAXPGPATH];
	char	   *slash;
	LOCKTAG		tag;
	BlockNumber b;

	iob_relation_main_path(rel, dir);
	slash = strrchr(dir, '/');
	if (slash != NULL)
		*slash = '\0';
	pgstat_report_activity(STATE_RUNNING,
						   psprintf("reserving %u blocks for %s", need - nblocks,
									RelationGetRelationName(rel)));
	iob_space_lock(dir, &tag);
	iob_check_relation_space(NameStr(shared->tablespace), shared->tablespace_oid, dir,
							 quote_qualified_identifier(READ_TARGET_SCHEMA,
														RelationGetRelationName(rel)),
							 (uint64) (need - nblocks) * BLCKSZ, (uint64) need * BLCKSZ);
	LockRelationForExtension(rel, ExclusiveLock);
	for (b = nblocks; b < need; b += RESERVE_STEP_BLOCKS)
	{
		CHECK_FOR_INTERRUPTS();
		iob_zero_extend(RelationGetSmgr(rel), b, (int) Min(need - b, RESERVE_STEP_BLOCKS));
	}
	UnlockRelationForExtension(rel, ExclusiveLock);
	iob_space_unlock(&tag);
}

/*
 * Make the relation "need" blocks long at least, its space reserved first
 * (reserve_blocks), and fill its new pages among the first "need" (the
 * blocks a run reads), one committed transaction per FILL_CHUNK_BYTES,
 * through one buffer ring for the whole fill (compat.h: iob_fill_strategy),
 * so the fill takes no more of shared buffers than the ring; returns its
 * number of blocks, in the open transaction of the last step, with the
 * relation locked and open in *relp.  A fill cut short leaves new pages
 * after the filled ones, which the next run that reads them fills.
 */
static BlockNumber
fill_to(const IobPgShared *shared, Oid relid, BlockNumber need, Relation *relp)
{
	Oid			spcoid = shared->tablespace_oid;
	pg_prng_state prng;
	BulkInsertState bistate;
	MemoryContext old;

	pg_prng_seed(&prng, shared->seed ^ (uint64) relid);
	/* the ring lasts the fill, across its transactions */
	old = MemoryContextSwitchTo(TopMemoryContext);
	bistate = GetBulkInsertState();
	FreeAccessStrategy(bistate->strategy);
	bistate->strategy = iob_fill_strategy();
	MemoryContextSwitchTo(old);
	for (;;)
	{
		Relation	rel;
		BlockNumber nblocks;
		BlockNumber filled;

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		LockSharedObject(TableSpaceRelationId, spcoid, 0, ExclusiveLock);
		rel = table_open(relid, ExclusiveLock);
		nblocks = RelationGetNumberOfBlocks(rel);
		/* the scan reads all of its relation: all of it is filled */
		if (shared->scan_target)
			need = Max(need, nblocks);
		if (nblocks < need)
		{
			reserve_blocks(shared, rel, nblocks, need);
			nblocks = RelationGetNumberOfBlocks(rel);
		}
		filled = filled_blocks(rel, nblocks, bistate->strategy);
		if (filled >= need)
		{
			FreeBulkInsertState(bistate);
			*relp = rel;
			return nblocks;
		}
		pgstat_report_activity(STATE_RUNNING,
							   psprintf("filling %s to %u blocks", RelationGetRelationName(rel), need));
		{
			Relation	index = shared->scan_target ? open_scan_index(rel) : NULL;

			fill_blocks(rel, filled, Min(need - filled, FILL_CHUNK_BYTES / BLCKSZ),
						bistate, &prng, index);
			if (index)
				index_close(index, NoLock);
		}
		table_close(rel, NoLock);
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
}

/*
 * Evict every buffer of the relation from shared buffers: its dirty ones
 * were written already.  18 has a call for it; 17 evicts buffer by buffer
 * those whose tag names the relation (read without the header lock: a
 * buffer that changes meanwhile is evicted for nothing, which is harmless);
 * 15 and 16 drop them, under the AccessExclusiveLock that requires.
 */
static void
evict_relation_buffers(Relation rel)
{
#if defined(IOB_HAVE_EVICT_RELATION)
	int32		evicted;
	int32		flushed;
	int32		skipped;

	EvictRelUnpinnedBuffers(rel, &evicted, &flushed, &skipped);
#elif defined(IOB_HAVE_EVICT_BUFFER)
	int			i;

	for (i = 0; i < NBuffers; i++)
	{
		BufferDesc *desc = GetBufferDescriptor(i);

		if (BufTagMatchesRelFileLocator(&desc->tag, &rel->rd_locator))
			(void) iob_evict_unpinned_buffer(BufferDescriptorGetBuffer(desc));
	}
#else
	ForkNumber	fork = MAIN_FORKNUM;
	BlockNumber first = 0;

	LockRelationOid(RelationGetRelid(rel), AccessExclusiveLock);
	DropRelationBuffers(RelationGetSmgr(rel), &fork, 1, &first);
#endif
}

/*
 * Sync each segment file of the relation's main fork and, unless the
 * server reads data files with direct I/O, drop its pages from the page
 * cache (only clean pages can be dropped, hence the sync, made whatever
 * the setting fsync says)
 */
void
iob_pg_relation_sync_drop(Relation rel, BlockNumber nblocks, bool drop)
{
	char		base[MAXPGPATH];
	BlockNumber seg;

	iob_relation_main_path(rel, base);
	for (seg = 0; (uint64) seg * RELSEG_SIZE < nblocks || seg == 0; seg++)
	{
		char		path[MAXPGPATH + 16];
		int			fd;

		if (seg == 0)
			snprintf(path, sizeof(path), "%s", base);
		else
			snprintf(path, sizeof(path), "%s.%u", base, seg);
		fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
		if (fd < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		/* fdatasync(), not pg_fsync(), which does nothing under fsync = off */
		if (fdatasync(fd) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not fsync file \"%s\": %m", path)));
		if (drop)
			(void) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		CloseTransientFile(fd);
	}
}

/* The preparer's work: the relation made, filled and cold */
static void
prepare_relation(IobPgShared *shared)
{
	Oid			spcoid = shared->tablespace_oid;
	char		relname[NAMEDATALEN];
	uint64		need_blocks = shared->file_size / BLCKSZ;
	BlockNumber need;
	BlockNumber nblocks;
	Relation	rel;
	Oid			relid;

	/* counted in 64 bits: iob_pg_check_work() refused more */
	if (need_blocks > IOB_MAX_RELATION_BLOCKS)
		elog(ERROR, "file_size " UINT64_FORMAT " exceeds the largest relation",
			 shared->file_size);
	need = (BlockNumber) need_blocks;
	snprintf(relname, sizeof(relname), "%s%u",
			 shared->scan_target ? SCAN_TARGET_PREFIX : READ_TARGET_PREFIX, spcoid);
	relid = find_or_create(spcoid, relname, shared->scan_target);
	nblocks = fill_to(shared, relid, need, &rel);

	/* the scan relation is made cold by its caller, step by step */
	if (!shared->scan_target)
	{
		pgstat_report_activity(STATE_RUNNING, "making the relation cold");
		FlushRelationBuffers(rel);
		evict_relation_buffers(rel);
		iob_pg_relation_sync_drop(rel, nblocks, shared->drop_page_cache);
	}
	table_close(rel, NoLock);
	PopActiveSnapshot();
	CommitTransactionCommand();

	snprintf(shared->relation, sizeof(shared->relation), "%s.%s",
			 READ_TARGET_SCHEMA, relname);
	shared->relation_bytes = (uint64) nblocks * BLCKSZ;
	pg_write_barrier();
	shared->relid = relid;
}

/*
 * Background worker entry point: main_arg is the run's DSM handle, and
 * bgw_extra says where the engine's state (IobPgShared) lies in it
 */
void
iobench_relation_main(Datum main_arg)
{
	dsm_segment *seg;
	IobPgShared *shared;
	Size		offset;

	iob_dynworker_connect("iobench");
	CurrentResourceOwner = ResourceOwnerCreate(NULL, "iobench relation preparer");
	memcpy(&offset, MyBgworkerEntry->bgw_extra + IOB_DYNWORKER_EXTRA, sizeof(offset));
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not map dynamic shared memory segment of the benchmark run")));
	if (offset + sizeof(IobPgShared) > dsm_segment_map_length(seg))
		elog(ERROR, "engine state at offset %zu is outside the run's segment", offset);
	shared = (IobPgShared *) ((char *) dsm_segment_address(seg) + offset);

	PG_TRY();
	{
		prepare_relation(shared);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/* keep the error for the launcher, then end as an ERROR does */
		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		strlcpy(shared->prep_error, edata->message ? edata->message : "unknown error",
				sizeof(shared->prep_error));
		strlcpy(shared->prep_error_detail, edata->detail ? edata->detail : "",
				sizeof(shared->prep_error_detail));
		strlcpy(shared->prep_error_hint, edata->hint ? edata->hint : "",
				sizeof(shared->prep_error_hint));
		pg_write_barrier();
		shared->prep_error_code = edata->sqlerrcode ? edata->sqlerrcode : ERRCODE_INTERNAL_ERROR;
		PG_RE_THROW();
	}
	PG_END_TRY();

	dsm_detach(seg);
	proc_exit(0);
}

PG_FUNCTION_INFO_V1(iobench_drop_read_targets);

/*
 * SQL: iobench.drop_read_targets(tablespace name DEFAULT NULL): remove the
 * relation of that tablespace, or of every tablespace, as the extension's
 * owner (they are its members); the caller needs CREATE on each
 * tablespace, as a run there does.  Waits for the runs reading them.
 * Returns how many were removed.
 */
Datum
iobench_drop_read_targets(PG_FUNCTION_ARGS)
{
	Oid			only = InvalidOid;
	Oid			nsp;
	Relation	pg_class_rel;
	List	   *names = NIL;
	ListCell   *lc;
	IobOwnerScope scope;
	int			dropped = 0;

	IOB_SQL_ENTRY(1);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	if (!PG_ARGISNULL(0))
		only = iob_check_tablespace(NameStr(*PG_GETARG_NAME(0)));
	nsp = get_namespace_oid(READ_TARGET_SCHEMA, false);

	/* the relations, each checked before any is dropped */
	pg_class_rel = table_open(RelationRelationId, AccessShareLock);
	{
		TableScanDesc scan = table_beginscan_catalog(pg_class_rel, 0, NULL);
		HeapTuple	tuple;

		while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
		{
			Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);
			Oid			spc = OidIsValid(form->reltablespace) ?
				form->reltablespace : MyDatabaseTableSpace;

			if (form->relnamespace != nsp || form->relkind != RELKIND_RELATION ||
				(strncmp(NameStr(form->relname), READ_TARGET_PREFIX,
						 strlen(READ_TARGET_PREFIX)) != 0 &&
				 strncmp(NameStr(form->relname), SCAN_TARGET_PREFIX,
						 strlen(SCAN_TARGET_PREFIX)) != 0))
				continue;
			if (OidIsValid(only) && spc != only)
				continue;
			if (!OidIsValid(only))
				(void) iob_check_tablespace(get_tablespace_name(spc));
			names = lappend(names, pstrdup(NameStr(form->relname)));
		}
		table_endscan(scan);
	}
	table_close(pg_class_rel, AccessShareLock);

	iob_owner_begin(&scope);
	foreach(lc, names)
	{
		char	   *qualified = quote_qualified_identifier(READ_TARGET_SCHEMA, lfirst(lc));

		iob_owner_exec(psprintf("ALTER EXTENSION iobench DROP TABLE %s", qualified),
					   0, NULL, NULL, NULL, SPI_OK_UTILITY);
		iob_owner_exec(psprintf("DROP TABLE %s", qualified),
					   0, NULL, NULL, NULL, SPI_OK_UTILITY);
		dropped++;
	}
	iob_owner_end(&scope);
	PG_RETURN_INT32(dropped);
}
