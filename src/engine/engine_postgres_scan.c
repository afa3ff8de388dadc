/*-------------------------------------------------------------------------
 *
 * engine_postgres_scan.c
 *	  The query layer of server_vs_disk(): a cold scan by PostgreSQL's own
 *	  executor of a relation of iobench's own (engine_postgres.h).
 *
 * The scan relation of a tablespace is iobench_internal.scan_target_<oid
 * of the tablespace>: an unlogged table of one row per page, (k integer,
 * filler bytea of random bytes), with a btree index on k.  It is made and
 * filled by the preparer worker of engine "postgres" (with the index
 * entries inserted as the rows are, so no CREATE INDEX reads it), is an
 * extension member, listed by iobench.read_targets and removed by
 * iobench.drop_read_targets() like the relation engine "postgres" reads.
 * The key of block b is iob_scan_key(b), a bijection of 32 bits: the keys
 * at or below a bound lie at random blocks, and the bound that selects
 * exactly n pages is found by counting (scan_bound()).
 *
 * One step (iobench_internal.scan_step(); scan_steps() takes a call's
 * steps, an error returned rather than raised) makes the relation cold, keeps
 * its index warm, and runs EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of a
 * bitmap heap scan (random: an integer index condition selecting about one
 * page in eight) or of a sequential scan at the step's
 * effective_io_concurrency, as the extension's owner.
 *
 * Other relations' buffers: the executor's bitmap heap scan reads through
 * no buffer ring, and a sequential scan of a table of at most a quarter of
 * shared buffers neither; every block such a scan reads takes a buffer.
 * On 15 to 18 a step first drops every buffer of its relation with
 * DropRelationBuffers(), which puts them on the buffer free list, counts
 * the free list, and reads at most that many buffers' worth (less a
 * margin) plus its part of the call's allowance, 0.5 % of shared buffers
 * over all the steps of a call: StrategyGetBuffer() takes the free list
 * first, so only the allowance can come from the clock sweep, which evicts
 * other relations' pages (unless another session empties the free list at
 * the same moment).  The first step's buffers, dropped again, are the
 * next step's: a call evicts at most 0.5 % of shared buffers of other
 * relations' pages, and none when enough buffers are free.  19 has no
 * free list: every step's buffers come from the clock sweep, and its
 * steps read no more than the allowance, the same bound.  Where even that
 * leaves too few buffers (a small shared_buffers, all in use), the step
 * runs nothing and says why.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_tablespace.h"
#include "commands/tablespace.h"
#include "common/hashfn.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "base/base.h"
#include "engine_postgres.h"

/* One page in SCAN_SELECT_ONE_IN is what a random step's scan selects */
#define SCAN_SELECT_ONE_IN		8

/*
 * Free buffers left unused by a step: the planner's and the executor's
 * own reads of catalog pages, a visibility map page
 */
#define SCAN_MARGIN_BUFFERS		32

/* The fewest pages a random step reads: fewer would time nothing */
#define SCAN_MIN_BLOCKS			64

/*
 * The share of shared buffers (1 in SCAN_OTHERS_SHARE, 0.5 %) that a
 * call's scans may take from the clock sweep over all its steps, the most
 * other relations' pages a call evicts: on a server whose shared buffers
 * are all in use, the free list is empty, and a scan could not run at all
 * without it
 */
#define SCAN_OTHERS_SHARE		200

/* The keys' permutation: rounds of a Feistel network on 16-bit halves */
#define SCAN_KEY_ROUNDS			4

/* See engine_postgres.h: a fixed bijection, so a bound is found by counting */
uint32
iob_scan_key(BlockNumber blkno)
{
	uint32		left = blkno >> 16;
	uint32		right = blkno & 0xFFFF;
	int			round;

	for (round = 0; round < SCAN_KEY_ROUNDS; round++)
	{
		uint32		next = left ^ (murmurhash32(right * SCAN_KEY_ROUNDS + round) & 0xFFFF);

		left = right;
		right = next;
	}
	return (left << 16) | right;
}

/*
 * The largest key of the "want" smallest among blocks [0, nblocks), as the
 * signed key the relation stores: "k <= bound" selects exactly "want"
 * pages.  Two counting passes, by the high then the low 16 bits.
 */
static int32
scan_bound(BlockNumber nblocks, uint64 want)
{
	uint32	   *counts = palloc0(sizeof(uint32) * 65536);
	uint64		below = 0;
	uint32		high;
	uint32		low;
	BlockNumber b;

	Assert(want >= 1 && want <= nblocks);
	for (b = 0; b < nblocks; b++)
		counts[iob_scan_key(b) >> 16]++;
	for (high = 0; below + counts[high] < want; high++)
		below += counts[high];
	memset(counts, 0, sizeof(uint32) * 65536);
	for (b = 0; b < nblocks; b++)
	{
		uint32		key = iob_scan_key(b);

		if ((key >> 16) == high)
			counts[key & 0xFFFF]++;
	}
	for (low = 0; below + counts[low] < want; low++)
		below += counts[low];
	pfree(counts);
	return (int32) (((high << 16) | low) ^ 0x80000000U);
}

/*
 * The buffers on the free list now (15 to 18; 19 has none), read without
 * its lock: an estimate that another session's reads may lower at once
 */
static int64
free_buffers(void)
{
#ifdef IOB_HAVE_FREELIST
	int64		n = 0;
	int			i;

	for (i = 0; i < NBuffers; i++)
	{
		if (GetBufferDescriptor(i)->freeNext != FREENEXT_NOT_IN_LIST)
			n++;
	}
	return n;
#else
	return 0;
#endif
}

/*
 * Make the scan relation and fill it to "file_size" bytes at least, in the
 * preparer worker of engine "postgres"; returns its OID
 */
static Oid
prepare_scan_relation(Oid spcoid, uint64 file_size)
{
	dsm_segment *seg = dsm_create(sizeof(IobPgShared), 0);
	IobPgShared *shared = dsm_segment_address(seg);
	char	   *spcname = get_tablespace_name(spcoid);
	Oid			relid;

	if (spcname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace with OID %u does not exist", spcoid)));
	memset(shared, 0, sizeof(IobPgShared));
	shared->tablespace_oid = spcoid;
	namestrcpy(&shared->tablespace, spcname);
	shared->file_size = file_size;
	shared->block_size = BLCKSZ;
	shared->seed = UINT64CONST(0x5CA77A26E7);
	shared->scan_target = true;
	iob_pg_relation_prepare(seg, shared);
	relid = shared->relid;
	dsm_detach(seg);
	return relid;
}

/*
 * Make the scan relation cold: its dirty buffers written, every buffer of
 * it dropped onto the free list (under an AccessExclusiveLock, which
 * DropRelationBuffers() needs, released at once), its files synced and
 * dropped from the page cache; returns its blocks and its index's OID
 */
static BlockNumber
make_cold(Oid relid, Oid *indexoid)
{
	Relation	rel = table_open(relid, AccessExclusiveLock);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	ForkNumber	fork = MAIN_FORKNUM;
	BlockNumber first = 0;
	List	   *indexes = RelationGetIndexList(rel);
	bool		drop = true;

	if (list_length(indexes) != 1)
		elog(ERROR, "relation \"%s\" has %d indexes, not its one",
			 RelationGetRelationName(rel), list_length(indexes));
	*indexoid = linitial_oid(indexes);
#ifdef IOB_HAVE_DEBUG_IO_DIRECT
	if (io_direct_flags & IO_DIRECT_DATA)
		drop = false;
#endif
	FlushRelationBuffers(rel);
	DropRelationBuffers(RelationGetSmgr(rel), &fork, 1, &first);
	iob_pg_relation_sync_drop(rel, nblocks, drop);
	table_close(rel, NoLock);
	UnlockRelationOid(relid, AccessExclusiveLock);
	return nblocks;
}

/* Read every block of the index into shared buffers: the scan finds them there */
static void
prewarm_index(Oid indexoid)
{
	Relation	index = index_open(indexoid, AccessShareLock);
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);
	BlockNumber b;

	for (b = 0; b < nblocks; b++)
	{
		CHECK_FOR_INTERRUPTS();
		ReleaseBuffer(ReadBufferExtended(index, MAIN_FORKNUM, b, RBM_NORMAL, NULL));
	}
	index_close(index, NoLock);
}

/* Set a setting for the owner's statement (undone by iob_owner_end()) */
static void
set_local(const char *name, const char *value)
{
	(void) set_config_option(name, value, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
}

/*
 * EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) of the step's scan,
 * as the extension's owner: a bitmap heap scan of the pages whose key is
 * at most "bound" when "random", else a sequential scan (of its first
 * "limit" pages, one row each, when "limit" is not 0), at
 * effective_io_concurrency "concurrency", one process, no JIT
 */
static Datum
explain_scan(Oid relid, bool random, int32 bound, int64 limit, int concurrency)
{
	char	   *qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
													   get_rel_name(relid));
	IobOwnerScope scope;
	char	   *plan;
	int			rc;

	iob_owner_begin(&scope);
	set_local("effective_io_concurrency", psprintf("%d", concurrency));
	set_local("max_parallel_workers_per_gather", "0");
	set_local("jit", "off");
	set_local("synchronize_seqscans", "off");
	set_local("enable_seqscan", random ? "off" : "on");
	set_local("enable_bitmapscan", random ? "on" : "off");
	set_local("enable_indexscan", "off");
	set_local("enable_indexonlyscan", "off");
	set_local("enable_tidscan", "off");
	rc = SPI_execute(random ?
					 psprintf("EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) "
							  "SELECT pg_catalog.sum(k::pg_catalog.int8) FROM %s "
							  "WHERE k OPERATOR(pg_catalog.<=) '%d'::pg_catalog.int4",
							  qualified, bound) :
					 limit > 0 ?
					 psprintf("EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) "
							  "SELECT pg_catalog.sum(s.k::pg_catalog.int8) "
							  "FROM (SELECT k FROM %s LIMIT " INT64_FORMAT ") s",
							  qualified, limit) :
					 psprintf("EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) "
							  "SELECT pg_catalog.sum(k::pg_catalog.int8) FROM %s",
							  qualified),
					 false, 0);
	if (rc != SPI_OK_UTILITY || SPI_processed != 1)
		elog(ERROR, "EXPLAIN of the scan failed: %s", SPI_result_code_string(rc));
	plan = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	/* out of SPI's memory, which iob_owner_end() frees */
	plan = MemoryContextStrdup(CurTransactionContext, plan);
	iob_owner_end(&scope);
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(plan));
}

/*
 * prepare_scan_relation() in a subtransaction: the relation's OID, or
 * InvalidOid with *why set when the tablespace has no room for it (the
 * step is then not measured, as when buffers are too few); any other error
 * is thrown again
 */
static Oid
try_prepare_scan_relation(Oid spcoid, uint64 file_size, char **why)
{
	IobSubxact	sx;
	volatile Oid relid = InvalidOid;
	MemoryContext cxt = CurrentMemoryContext;

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		relid = prepare_scan_relation(spcoid, file_size);
		iob_subxact_commit(&sx);
	}
	PG_CATCH();
	{
		ErrorData  *edata = iob_subxact_catch(&sx, cxt);

		if (edata->sqlerrcode != ERRCODE_DISK_FULL)
			ReThrowError(edata);
		*why = edata->detail != NULL ?
			psprintf("%s: %s", edata->message, edata->detail) : pstrdup(edata->message);
	}
	PG_END_TRY();
	return relid;
}

/* The columns of a step: scan_step()'s OUT parameters, in order */
enum
{
	SCAN_COL_RELATION = 0,
	SCAN_COL_RELATION_BLOCKS,
	SCAN_COL_SELECTED_BLOCKS,
	SCAN_COL_FREE_BUFFERS,
	SCAN_COL_PLAN,
	SCAN_COL_NOT_MEASURED,
	SCAN_NCOLS
};

/*
 * One cold scan of the scan relation of tablespace "spcoid" (made or
 * extended to file_size first), for pattern "randread" (a bitmap heap scan
 * of one page in eight, fewer when the free buffers are fewer) or "read" (a
 * sequential scan from its first page); "steps" is the number of steps of
 * the call (19's bound is shared among them) and "max_blocks" the most
 * pages the scan reads (what the engine's run read in the call's duration:
 * a slow disk's scan lasts about as long as its run), at least
 * SCAN_MIN_BLOCKS.  When the scan cannot read without taking other
 * relations' buffers, it is not run, and not_measured says why.  Steps of
 * one tablespace are serialized.  Fills values/nulls, SCAN_NCOLS each.
 */
static void
scan_one(Oid spcoid, const char *pattern, int concurrency, int64 file_size,
		 int steps, int64 max_blocks, Datum *values, bool *nulls)
{
	bool		random;
	Oid			relid;
	Oid			indexoid;
	BlockNumber nblocks;
	BlockNumber index_blocks;
	int64		free;
	int64		allowance;
	int64		avail;
	int64		want = 0;
	int64		need;
	char	   *why = NULL;

	steps = Max(steps, 1);
	max_blocks = Max(max_blocks, SCAN_MIN_BLOCKS);
	if (strcmp(pattern, "randread") != 0 && strcmp(pattern, "read") != 0)
		elog(ERROR, "scan_step() pattern must be randread or read, not \"%s\"", pattern);
	random = strcmp(pattern, "randread") == 0;
	if (get_tablespace_name(spcoid) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace with OID %u does not exist", spcoid)));
	(void) iob_check_tablespace(get_tablespace_name(spcoid));
	iob_pg_check_allowed();
	memset(nulls, false, SCAN_NCOLS * sizeof(bool));

	/* one step at a time per tablespace (not the preparer's lock, sub-id 0) */
	LockSharedObject(TableSpaceRelationId, spcoid, 1, ExclusiveLock);
	relid = try_prepare_scan_relation(spcoid, (uint64) file_size, &why);
	if (!OidIsValid(relid))
	{
		/* no room for the scan relation: the step is not measured */
		memset(nulls, true, SCAN_NCOLS * sizeof(bool));
		nulls[SCAN_COL_NOT_MEASURED] = false;
		values[SCAN_COL_NOT_MEASURED] = CStringGetTextDatum(why);
		return;
	}
	nblocks = make_cold(relid, &indexoid);
	{
		Relation	index = index_open(indexoid, AccessShareLock);

		index_blocks = RelationGetNumberOfBlocks(index);
		index_close(index, NoLock);
	}

	/*
	 * The buffers this step may read: the free list (less a margin, for the
	 * catalog pages the statement reads and other sessions' reads), and the
	 * step's part of the call's share of other relations' buffers
	 */
	free = free_buffers();
	allowance = NBuffers / SCAN_OTHERS_SHARE / steps;
	avail = Max(free - SCAN_MARGIN_BUFFERS, 0) + allowance;
	if (avail >= (int64) index_blocks)
	{
		int64		reads = pgBufferUsage.shared_blks_read;
		int64		free_before = free;

		/*
		 * The index's pages read now came off the free list, or else from
		 * the clock sweep, out of the allowance
		 */
		prewarm_index(indexoid);
		reads = pgBufferUsage.shared_blks_read - reads;
		free = free_buffers();
		allowance -= Max(reads - Max(free_before - free, 0), 0);
		avail = Max(free - SCAN_MARGIN_BUFFERS, 0) + Max(allowance, 0);
	}
	else
		why = psprintf("shared buffers have %lld free buffers (less a margin of %d) and %lld to take from other relations in this step, fewer than the %u pages of the scan relation's index",
					   (long long) free, SCAN_MARGIN_BUFFERS, (long long) allowance, index_blocks);

	if (why == NULL && random)
	{
		want = Min(Max(nblocks / SCAN_SELECT_ONE_IN, 1), max_blocks);
		if (avail < want)
			want = avail;
		if (want < Min(SCAN_MIN_BLOCKS, Max(nblocks / SCAN_SELECT_ONE_IN, 1)))
			why = psprintf("only %lld buffers are free or to take from other relations, fewer than the %d pages the scan reads at least",
						   (long long) Max(avail, 0), SCAN_MIN_BLOCKS);
	}
	else if (why == NULL)
	{
		/*
		 * A table of more than a quarter of shared buffers is read through
		 * a ring; a smaller one takes a buffer a page, so its scan reads no
		 * more pages than the buffers it may take (the first ones)
		 */
		want = Min((int64) nblocks, max_blocks);
		if (nblocks > (BlockNumber) (NBuffers / 4))
			need = iob_bulkread_ring_buffers();
		else
		{
			want = Min(want, Max(avail, 0));
			need = Min((int64) SCAN_MIN_BLOCKS, (int64) nblocks);
		}
		if (avail < need || want < Min((int64) SCAN_MIN_BLOCKS, (int64) nblocks))
			why = psprintf("only %lld buffers are free or to take from other relations, fewer than the %lld the sequential scan takes",
						   (long long) Max(avail, 0), (long long) need);
	}

	values[SCAN_COL_RELATION] = ObjectIdGetDatum(relid);
	values[SCAN_COL_RELATION_BLOCKS] = Int64GetDatum((int64) nblocks);
	values[SCAN_COL_SELECTED_BLOCKS] = Int64GetDatum(want);
	values[SCAN_COL_FREE_BUFFERS] = Int64GetDatum(free);
#ifndef IOB_HAVE_FREELIST
	nulls[SCAN_COL_FREE_BUFFERS] = true;
#endif
	if (why != NULL)
	{
		nulls[SCAN_COL_SELECTED_BLOCKS] = true;
		nulls[SCAN_COL_PLAN] = true;
		values[SCAN_COL_NOT_MEASURED] = CStringGetTextDatum(why);
	}
	else
	{
		values[SCAN_COL_PLAN] = explain_scan(relid, random,
								 random ? scan_bound(nblocks, (uint64) want) : 0,
								 (random || want == (int64) nblocks) ? 0 : want,
								 concurrency);
		nulls[SCAN_COL_NOT_MEASURED] = true;
	}
}

PG_FUNCTION_INFO_V1(iobench_scan_step);

/*
 * SQL: iobench_internal.scan_step(tablespace oid, pattern text, concurrency
 * integer, file_size text, steps integer, max_blocks bigint, OUT relation
 * regclass, OUT relation_blocks bigint, OUT selected_blocks bigint, OUT
 * free_buffers bigint, OUT plan jsonb, OUT not_measured text): one step,
 * scan_one()
 */
Datum
iobench_scan_step(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[SCAN_NCOLS];
	bool		nulls[SCAN_NCOLS];

	IOB_SQL_ENTRY(6);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3) ||
		PG_ARGISNULL(4) || PG_ARGISNULL(5))
		elog(ERROR, "scan_step() takes no null argument");
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/* file_size was checked by server_tuning_check() already */
	scan_one(PG_GETARG_OID(0), text_to_cstring(PG_GETARG_TEXT_PP(1)), PG_GETARG_INT32(2),
			 DatumGetInt64(DirectFunctionCall1(pg_size_bytes, PG_GETARG_DATUM(3))),
			 PG_GETARG_INT32(4), PG_GETARG_INT64(5), values, nulls);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

/* Append a step's columns to "buf" as a JSON object */
static void
append_scan_json(StringInfo buf, const Datum *values, const bool *nulls)
{
	appendStringInfoString(buf, "{\"relation\": ");
	if (nulls[SCAN_COL_RELATION])
		appendStringInfoString(buf, "null");
	else
		escape_json(buf, DatumGetCString(DirectFunctionCall1(regclassout, values[SCAN_COL_RELATION])));
	appendStringInfoString(buf, ", \"relation_blocks\": ");
	appendStringInfoString(buf, nulls[SCAN_COL_RELATION_BLOCKS] ? "null" :
						   psprintf(INT64_FORMAT, DatumGetInt64(values[SCAN_COL_RELATION_BLOCKS])));
	appendStringInfoString(buf, ", \"selected_blocks\": ");
	appendStringInfoString(buf, nulls[SCAN_COL_SELECTED_BLOCKS] ? "null" :
						   psprintf(INT64_FORMAT, DatumGetInt64(values[SCAN_COL_SELECTED_BLOCKS])));
	appendStringInfoString(buf, ", \"free_buffers\": ");
	appendStringInfoString(buf, nulls[SCAN_COL_FREE_BUFFERS] ? "null" :
						   psprintf(INT64_FORMAT, DatumGetInt64(values[SCAN_COL_FREE_BUFFERS])));
	appendStringInfoString(buf, ", \"plan\": ");
	appendStringInfoString(buf, nulls[SCAN_COL_PLAN] ? "null" :
						   JsonbToCString(NULL, &DatumGetJsonbP(values[SCAN_COL_PLAN])->root, 0));
	appendStringInfoString(buf, ", \"not_measured\": ");
	if (nulls[SCAN_COL_NOT_MEASURED])
		appendStringInfoString(buf, "null");
	else
		escape_json(buf, TextDatumGetCString(values[SCAN_COL_NOT_MEASURED]));
	appendStringInfoChar(buf, '}');
}

PG_FUNCTION_INFO_V1(iobench_scan_steps);

/*
 * SQL: iobench_internal.scan_steps(tablespace oid, requests jsonb,
 * file_size text, steps integer) RETURNS jsonb: the steps of a call, one
 * per element of "requests" ({"pattern", "concurrency", "max_blocks"}), in
 * order, each in a subtransaction of its own.  Returns {"scans": [one
 * object per step taken, scan_step()'s columns]}; a step that ends in an
 * error (a cancel above all) ends the list, and the error is returned, not
 * raised, as "error": {sqlstate, message, detail, hint}, so that the
 * campaign that called keeps the runs it took before (campaign.c).
 */
Datum
iobench_scan_steps(PG_FUNCTION_ARGS)
{
	Oid			spcoid;
	Jsonb	   *requests;
	int64		file_size;
	int			steps;
	int			n;
	int			i;
	StringInfoData buf;
	MemoryContext cxt = CurrentMemoryContext;

	IOB_SQL_ENTRY(4);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		elog(ERROR, "scan_steps() takes no null argument");
	spcoid = PG_GETARG_OID(0);
	requests = PG_GETARG_JSONB_P(1);
	file_size = DatumGetInt64(DirectFunctionCall1(pg_size_bytes, PG_GETARG_DATUM(2)));
	steps = PG_GETARG_INT32(3);
	if (!JB_ROOT_IS_ARRAY(requests) || JB_ROOT_IS_SCALAR(requests))
		elog(ERROR, "scan_steps() takes an array of requests");
	n = JB_ROOT_COUNT(requests);

	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"scans\": [");
	for (i = 0; i < n; i++)
	{
		JsonbValue *req = getIthJsonbValueFromContainer(&requests->root, i);
		Jsonb	   *obj;
		char	   *pattern;
		int			concurrency;
		int64		max_blocks;
		Datum		values[SCAN_NCOLS];
		bool		nulls[SCAN_NCOLS];
		IobSubxact	sx;

		if (req == NULL || req->type != jbvBinary)
			elog(ERROR, "scan_steps(): request %d is not an object", i + 1);
		obj = JsonbValueToJsonb(req);
		pattern = TextDatumGetCString(DirectFunctionCall2(jsonb_object_field_text,
														  JsonbPGetDatum(obj),
														  CStringGetTextDatum("pattern")));
		concurrency = DatumGetInt32(DirectFunctionCall1(int4in, CStringGetDatum(
			TextDatumGetCString(DirectFunctionCall2(jsonb_object_field_text, JsonbPGetDatum(obj),
													CStringGetTextDatum("concurrency"))))));
		max_blocks = DatumGetInt64(DirectFunctionCall1(int8in, CStringGetDatum(
			TextDatumGetCString(DirectFunctionCall2(jsonb_object_field_text, JsonbPGetDatum(obj),
													CStringGetTextDatum("max_blocks"))))));

		iob_subxact_begin(&sx);
		PG_TRY();
		{
			scan_one(spcoid, pattern, concurrency, file_size, steps, max_blocks,
					 values, nulls);
			iob_subxact_commit(&sx);
		}
		PG_CATCH();
		{
			ErrorData  *edata = iob_subxact_catch(&sx, cxt);

			appendStringInfoString(&buf, "], \"error\": {\"sqlstate\": ");
			escape_json(&buf, unpack_sql_state(edata->sqlerrcode));
			appendStringInfoString(&buf, ", \"message\": ");
			escape_json(&buf, edata->message ? edata->message : "");
			appendStringInfoString(&buf, ", \"detail\": ");
			escape_json(&buf, edata->detail ? edata->detail : "");
			appendStringInfoString(&buf, ", \"hint\": ");
			escape_json(&buf, edata->hint ? edata->hint : "");
			appendStringInfoString(&buf, "}}");
			FreeErrorData(edata);
			PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
		}
		PG_END_TRY();
		if (i > 0)
			appendStringInfoString(&buf, ", ");
		append_scan_json(&buf, values, nulls);
	}
	appendStringInfoString(&buf, "]}");
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
