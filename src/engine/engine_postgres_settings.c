/*-------------------------------------------------------------------------
 *
 * engine_postgres_settings.c
 *	  Engine "postgres": the rules of a run, the server settings it runs
 *	  with, and their row in iobench.run_server_reads (engine_postgres.h):
 *	  the run-level callbacks of its operations table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/reloptions.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/spccache.h"
#include "utils/syscache.h"

#include "base/base.h"
#include "engine.h"
#include "engine_postgres.h"

/*
 * The tablespace's own effective_io_concurrency (ALTER TABLESPACE ... SET),
 * or -1 when it has none and the server's setting applies
 */
static int
tablespace_own_io_concurrency(Oid spcoid)
{
	HeapTuple	tuple;
	Datum		datum;
	bool		isnull;
	int			result = -1;

	tuple = SearchSysCache1(TABLESPACEOID, ObjectIdGetDatum(spcoid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for tablespace %u", spcoid);
	datum = SysCacheGetAttr(TABLESPACEOID, tuple, Anum_pg_tablespace_spcoptions, &isnull);
	if (!isnull)
	{
		TableSpaceOpts *opts = (TableSpaceOpts *) tablespace_reloptions(datum, false);

		result = opts->effective_io_concurrency;
	}
	ReleaseSysCache(tuple);
	return result;
}

/* The largest io_combine_limit a run may ask for on this server */
static int
max_io_combine_blocks(void)
{
#if defined(IOB_HAVE_AIO)
	return io_max_combine_limit;
#elif defined(IOB_HAVE_READ_STREAM)
	return MAX_IO_COMBINE_LIMIT;
#else
	return 0;
#endif
}

/*
 * file_size of engine "postgres": the relation's blocks, counted in 64
 * bits, must fit in a relation (IOB_MAX_RELATION_BLOCKS); a count that
 * wrapped in a BlockNumber would leave the relation unfilled and the
 * workers drawing blocks past it
 */
static void
check_relation_max_size(const IobEngineWork *work)
{
	uint64		max_bytes = IOB_MAX_RELATION_BLOCKS * BLCKSZ;

	/* the largest relation size that is a whole number of ops */
	max_bytes -= max_bytes % work->block_size;
	if (work->file_size / BLCKSZ > IOB_MAX_RELATION_BLOCKS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is out of range for engine \"postgres\"",
						work->file_size),
				 errdetail("Engine \"postgres\" reads a relation of file_size bytes, and a relation holds at most " UINT64_FORMAT " blocks of %d bytes: valid values are between %u and " UINT64_FORMAT " bytes (%s less %s).",
						   IOB_MAX_RELATION_BLOCKS, BLCKSZ, work->block_size, max_bytes,
						   iob_size_pretty((int64) (IOB_MAX_RELATION_BLOCKS + 1) * BLCKSZ),
						   iob_size_pretty((int64) ((IOB_MAX_RELATION_BLOCKS + 1) * BLCKSZ - max_bytes))),
				 errhint("Use a smaller file_size.")));
}

/*
 * Refuse a relation too small to be read cold: each worker holds up to
 * iob_pg_read_span() ops at once (read ahead, or left in shared
 * buffers on 15/16), and its ops, its stripe of random ops or its region
 * of sequential ones (workload.c), must be twice as many, so that a random
 * draw finds an op it does not hold within a few draws (engine_postgres.c) and
 * a sequential reader never wraps onto blocks it still holds.  Otherwise
 * the run would count shared-buffer hits as reads of the disk.
 */
static void
check_relation_min_size(const IobEngineWork *work)
{
	bool		random = work->random;
	int			io_concurrency;
	int			io_combine = 0;
	uint32		span;
	uint64		min_bytes;
#ifdef IOB_HAVE_READ_STREAM
	const char *held = "read ahead by the server's read stream";
#else
	const char *held = "read ahead, or left in the buffer ring of its reads";
#endif

	io_concurrency = work->io_concurrency_given ?
		work->io_concurrency : get_tablespace_io_concurrency(work->tablespace_oid);
#ifdef IOB_HAVE_READ_STREAM
	io_combine = work->io_combine_given ? work->io_combine_blocks : io_combine_limit;
#endif
	span = iob_pg_read_span(random, work->block_size / BLCKSZ, io_concurrency, io_combine);
	min_bytes = (uint64) work->workers * 2 * span * work->block_size;
	if (work->file_size < min_bytes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"file_size\" must be at least " UINT64_FORMAT "kB for this run of engine \"postgres\", not " UINT64_FORMAT "kB",
						min_bytes / 1024, work->file_size / 1024),
				 errdetail("Each of its %d workers holds up to %u ops of %u bytes at once (%s, with effective_io_concurrency %d), and needs twice as many of its own in the relation, or its reads would be hits in shared buffers, not reads of the disk.",
						   work->workers, span, work->block_size, held, io_concurrency),
				 errhint("Use a larger file_size, fewer workers, or a lower effective_io_concurrency.")));
}

/*
 * The rules of a run of engine "postgres" (its check_work), checked after
 * iob_validate_params() by run(), the one entry point that offers the
 * engine: it reads one relation, with the server's own concurrency, in
 * whole server blocks; what only the raw files have (writes, several
 * files, a queue of the run's own, a rate, groups) is refused, naming the
 * argument.  An argument it would ignore is refused too, never overridden.
 */
void
iob_pg_check_work(const IobEngineWork *work)
{
	int			own;

	/*
	 * A group first, as the one error: its other rules (files at least as
	 * many as tablespaces) contradict this engine's (files 1)
	 */
	if (work->ngroup > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("argument \"tablespaces\" cannot be used with engine \"postgres\""),
				 errdetail("Engine \"postgres\" reads one relation, in the one tablespace that argument \"tablespace\" names; a group spreads files over several tablespaces."),
				 errhint("Run engine \"postgres\" once per tablespace with tablespace => ..., or measure the group together with engine => 'auto'.")));
	if (!work->reads_only)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("engine \"postgres\" does not support rw \"%s\"",
						work->rw_name),
				 errdetail("It reads a relation through the server's buffer manager: rw \"randread\" or \"read\" only."),
				 errhint("Use engine => 'auto' for patterns that write.")));
	if (work->block_size % BLCKSZ != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size %u is not a multiple of the server's block size %d",
						work->block_size, BLCKSZ),
				 errdetail("Engine \"postgres\" reads whole blocks of a relation; a larger block_size reads that many consecutive blocks as one op, which the read stream may combine.")));
	check_relation_max_size(work);
	if (work->files != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("engine \"postgres\" reads one relation: files %d is not supported",
						work->files),
				 errhint("Use files => 1; file_size sizes the relation.")));
	if (work->depth != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("engine \"postgres\" does not take iodepth %d", work->depth),
				 errdetail("The server decides how many reads are in flight, from effective_io_concurrency."),
				 errhint("Use effective_io_concurrency => %d instead.", work->depth)));
	if (work->file_only_arg != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("engine \"postgres\" does not support argument \"%s\"",
						work->file_only_arg),
				 strcmp(work->file_only_arg, "cold_reads") == 0 ?
				 errdetail("Its reads are always cold: each buffer is evicted and each block dropped from the page cache once read.") : 0));
	/* direct (default true) is not this engine's to choose */
	if (!work->direct)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"direct\" value false cannot be used with engine \"postgres\""),
				 errdetail("The server's read path decides how data files are read (debug_io_direct); engine \"postgres\" drops each block from the page cache once read, so its reads are cold either way."),
				 errhint("Leave direct out with engine \"postgres\".")));

	if (work->io_concurrency_given)
	{
		if (work->io_concurrency < 0 || work->io_concurrency > MAX_IO_CONCURRENCY)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%d is out of range for argument \"effective_io_concurrency\"",
							work->io_concurrency),
					 errdetail("Valid values are between 0 and %d.", MAX_IO_CONCURRENCY)));
		own = tablespace_own_io_concurrency(work->tablespace_oid);
		if (own >= 0 && own != work->io_concurrency)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("tablespace \"%s\" sets effective_io_concurrency = %d, which the server's read path uses instead of %d",
							work->tablespace, own, work->io_concurrency),
					 errhint("Leave effective_io_concurrency out to measure with the tablespace's setting, or ALTER TABLESPACE %s RESET (effective_io_concurrency).",
							 quote_identifier(work->tablespace))));
	}
	if (work->io_combine_given)
	{
		int			max = max_io_combine_blocks();

		if (max == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("argument \"io_combine_limit\" needs PostgreSQL 17 or later"),
					 errdetail("This server reads one block at a time; it has no read streams that combine reads.")));
		if (work->io_combine_blocks < 1 || work->io_combine_blocks > max)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%d is out of range for argument \"io_combine_limit\"",
							work->io_combine_blocks),
					 errdetail("Valid values are between 1 and %d blocks of %d bytes (io_max_combine_limit on 18 and later).",
							   max, BLCKSZ)));
	}
	check_relation_min_size(work);
}

/*
 * The campaigns that run many runs refuse this engine (its
 * check_campaign): a suite's tests write, a search steps iodepth
 */
void
iob_pg_check_campaign(IobCampaignKind campaign)
{
	if (campaign == IOB_CAMPAIGN_SUITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("suite() does not support engine \"postgres\""),
				 errdetail("A suite's tests write, and engine \"postgres\" only reads a relation through the server's buffer manager."),
				 errhint("Use iobench.run(engine => 'postgres') with rw \"randread\" or \"read\" for the server's read path.")));
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("latency_search() does not support engine \"postgres\""),
			 errdetail("The search steps iodepth and workers; the server's read path takes no iodepth, its concurrency is effective_io_concurrency."),
			 errhint("Use iobench.run(engine => 'postgres', effective_io_concurrency => ...) at the concurrencies to compare.")));
}

/*
 * Can a run of engine "postgres" take place here (its check_allowed)?  Its
 * relation is made or extended in transactions of its own, which neither a
 * hot standby nor the caller's read-only transaction allow.  Called before
 * anything is made.
 */
void
iob_pg_check_allowed(void)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("engine \"postgres\" cannot run on a hot standby"),
				 errdetail("It reads a relation of its own, which a standby cannot create or fill."),
				 errhint("Run it on the primary, or use another engine on the standby.")));
	if (XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("engine \"postgres\" cannot run in a read-only transaction"),
				 errdetail("It makes or extends a relation of its own in the tablespace, in transactions of its own."),
				 errhint("Run it outside a read-only transaction, or use another engine.")));
}

/*
 * The settings a run of engine "postgres" reads with, decided once in the
 * launcher for every worker: the read path of this release, whether the
 * page cache is in the path, and the concurrency and combining in effect
 */
static void
resolve_settings(const IobEngineWork *work, IobPgShared *shared)
{
#ifdef IOB_HAVE_READ_STREAM
	shared->read_stream = true;
#endif
	shared->drop_page_cache = true;
#ifdef IOB_HAVE_DEBUG_IO_DIRECT
	if (io_direct_flags & IO_DIRECT_DATA)
		shared->drop_page_cache = false;
#endif
	shared->io_concurrency = work->io_concurrency_given ?
		work->io_concurrency : get_tablespace_io_concurrency(work->tablespace_oid);
#ifdef IOB_HAVE_READ_STREAM
	shared->io_combine_blocks = work->io_combine_given ?
		work->io_combine_blocks : io_combine_limit;
#endif
	shared->workers = work->workers;
}

/*
 * In the launcher (its prepare_run): decide the settings of the server's
 * read path, and have the relation made, filled and cold.  The run's
 * "direct" then says what the server does: direct I/O for data files
 * (debug_io_direct), or the page cache.
 */
void
iob_pg_prepare_run(dsm_segment *seg, IobEngineShared *area,
				   const IobEngineWork *work, bool *direct)
{
	IobPgShared *shared = IOB_PG_SHARED(area);

	StaticAssertStmt(sizeof(IobPgShared) <= sizeof(IobEngineShared),
					 "IobPgShared must fit in IobEngineShared");
	memset(shared, 0, sizeof(IobPgShared));
	shared->tablespace_oid = work->tablespace_oid;
	namestrcpy(&shared->tablespace, work->tablespace);
	shared->file_size = work->file_size;
	shared->block_size = work->block_size;
	shared->seed = work->seed;
	resolve_settings(work, shared);
	*direct = !shared->drop_page_cache;
	iob_pg_relation_prepare(seg, shared);
}

/*
 * The effective_io_concurrency and io_combine_limit the workers read with
 * (its setting), as SHOW prints them, for the run's settings
 */
char *
iob_pg_setting(const IobEngineShared *area, const char *name)
{
	const IobPgShared *shared = IOB_PG_SHARED(area);
	int64		combine = (int64) shared->io_combine_blocks * BLCKSZ;

	if (strcmp(name, "effective_io_concurrency") == 0)
		return psprintf("%d", shared->io_concurrency);
	if (strcmp(name, "io_combine_limit") == 0)
		return (combine % (1024 * 1024) == 0) ?
			psprintf(INT64_FORMAT "MB", combine / (1024 * 1024)) :
			psprintf(INT64_FORMAT "kB", combine / 1024);
	return NULL;
}

/* A setting as a text Datum, or NULL when this release has no such setting */
static void
text_setting(const char *name, Datum *value, char *null)
{
	const char *s = GetConfigOption(name, true, false);

	*null = s ? ' ' : 'n';
	*value = s ? CStringGetTextDatum(s) : (Datum) 0;
}

/*
 * Above this share of its blocks not read from the disk (hits in shared
 * buffers or in the page cache), a run measured memory, not the disk
 */
#define NOT_COLD_MAX_SHARE	0.01

/*
 * The blocks that the server's counts and the device's samples may place
 * on different sides of an edge of the measured period: what each worker
 * reads ahead of the block it uses (the read stream's look-ahead, or the
 * prefetch distance on 15 and 16), at each of the two edges.  A block the
 * device read just before the period, for a read a worker issued then, is
 * counted by the server once the worker uses it, inside the period; a read
 * counted when issued near the end may reach the device after the last
 * sample.  Neither is a page-cache hit.
 */
static uint64
edge_skew_blocks(const IobPgShared *shared)
{
	uint64		ahead = (uint64) Max(shared->io_concurrency, 1);

#ifdef IOB_HAVE_READ_STREAM
	if (shared->read_stream)
		ahead = IOB_READ_STREAM_MAX_PINNED((uint64) Max(shared->io_concurrency, 1),
										   (uint64) Max(shared->io_combine_blocks, 1));
#endif
	return 2 * (uint64) Max(shared->workers, 1) * ahead;
}

/*
 * The reads of a run that the disk did not serve: its shared-buffer hits,
 * and the blocks the server read that the device did not (page-cache hits),
 * known where the run has device seconds (none on tmpfs, or when the
 * device is unknown: *device_known false).  The device's count covers its
 * samples, which hold the measured period (diskstats.c): beyond the reads
 * ahead at its two edges (edge_skew_blocks()), it can only overstate what
 * the device read for the run, so the page-cache hits are never
 * overstated.
 */
static uint64
blocks_not_from_disk(int64 run_id, const IobPgShared *shared, const IobEngineCounts *counts,
					 bool *device_known, uint64 *device_blocks)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	Datum		bytes;
	bool		isnull;
	uint64		missed = 0;
	uint64		expected;		/* the most the server may count as read
								 * with no page-cache hit: the device's
								 * blocks and the reads ahead at the edges */

	values[0] = Int64GetDatum(run_id);
	bytes = iob_owner_value("SELECT (pg_catalog.sum(d.read_sectors) OPERATOR(pg_catalog.*) 512)::bigint "
							"FROM iobench.run_disk_seconds d "
							"WHERE d.run_id OPERATOR(pg_catalog.=) $1 AND NOT d.member",
							1, types, values, NULL, SPI_OK_SELECT, &isnull);
	*device_known = !isnull;
	*device_blocks = isnull ? 0 : (uint64) Max(DatumGetInt64(bytes), 0) / BLCKSZ;
	expected = *device_blocks + edge_skew_blocks(shared);
	if (*device_known && counts->buffer_reads > expected)
		missed = counts->buffer_reads - expected;
	return counts->buffer_hits + missed;
}

/*
 * Store the row of iobench.run_server_reads of run "run_id" (its store):
 * the read path, the settings the run's row does not hold, the relation,
 * and the workers' counts: the blocks they obtained in the measured period
 * (its bytes read, in whole server blocks), their hits and reads.  A run
 * whose relation was never made (an error before) has no row.  A run that
 * ran to its end with more than
 * NOT_COLD_MAX_SHARE of its blocks not read from the disk is then stored
 * with status "invalid", with a WARNING that says why: returns its row
 * (iobench.runs) as updated, or "row" unchanged.
 */
Datum
iob_pg_store(int64 run_id, const IobEngineShared *area,
			 const IobEngineCounts *counts, uint64 bytes_read, Datum row)
{
	const IobPgShared *shared = IOB_PG_SHARED(area);
	Oid			types[10] = {INT8OID, TEXTOID, INT8OID, TEXTOID, TEXTOID, INT8OID,
	INT8OID, INT8OID, INT8OID, BOOLOID};
	Datum		values[10];
	char		nulls[11] = "          ";
	IobOwnerScope scope;
	uint64		obtained = counts->buffer_hits + counts->buffer_reads;
	uint64		not_cold;
	uint64		device_blocks;
	bool		device_known;

	if (shared->relation[0] == '\0' || shared->relation_bytes == 0)
		return row;
	values[0] = Int64GetDatum(run_id);
	values[1] = CStringGetTextDatum(shared->read_stream ? "read_stream" : "prefetch");
	values[2] = Int64GetDatum((int64) NBuffers * BLCKSZ);
	text_setting("debug_io_direct", &values[3], &nulls[3]);
	values[4] = CStringGetTextDatum(shared->relation);
	values[5] = Int64GetDatum((int64) shared->relation_bytes);
	values[6] = Int64GetDatum((int64) (bytes_read / BLCKSZ));
	values[7] = Int64GetDatum((int64) counts->buffer_hits);
	values[8] = Int64GetDatum((int64) counts->buffer_reads);
	values[9] = BoolGetDatum(shared->drop_page_cache);
	iob_owner_run("INSERT INTO iobench.run_server_reads (run_id, read_path, shared_buffers, "
				  "debug_io_direct, relation, relation_bytes, blocks, buffer_hits, "
				  "buffer_reads, page_cache_dropped) "
				  "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
				  10, types, values, nulls, SPI_OK_INSERT);

	not_cold = blocks_not_from_disk(run_id, shared, counts, &device_known, &device_blocks);
	if (obtained == 0 || (double) not_cold <= NOT_COLD_MAX_SHARE * (double) obtained)
		return row;

	iob_owner_begin(&scope);
	iob_owner_exec("UPDATE iobench.runs r SET status = 'invalid' "
				   "WHERE r.run_id OPERATOR(pg_catalog.=) $1 "
				   "AND r.status OPERATOR(pg_catalog.=) ANY ('{completed,incomplete}'::text[]) "
				   "RETURNING r.*",
				   1, types, values, NULL, SPI_OK_UPDATE_RETURNING);
	if (SPI_processed == 1)
	{
		row = PointerGetDatum(SPI_returntuple(SPI_tuptable->vals[0], SPI_tuptable->tupdesc));
		ereport(WARNING,
				(errmsg("iobench: run of engine \"postgres\" stored with status \"invalid\": more than 1%% of its blocks were not read from the disk"),
				 device_known ?
				 errdetail("Run " INT64_FORMAT ": %.1f%% of its " UINT64_FORMAT " blocks were hits, " UINT64_FORMAT " in shared buffers and " UINT64_FORMAT " in the page cache (the server read " UINT64_FORMAT " blocks, the device " UINT64_FORMAT ").",
						   run_id, 100.0 * (double) not_cold / (double) obtained, obtained,
						   counts->buffer_hits, not_cold - counts->buffer_hits,
						   counts->buffer_reads, device_blocks) :
				 errdetail("Run " INT64_FORMAT ": %.1f%% of its " UINT64_FORMAT " blocks were hits in shared buffers; hits in the page cache are not known here (no device figures for this tablespace).",
						   run_id, 100.0 * (double) not_cold / (double) obtained, obtained),
				 errhint("Its figures are those of memory, not of the disk. Look for another session reading relation %s during the run, or run it again with a larger file_size.",
						 shared->relation)));
	}
	iob_owner_end(&scope);
	return row;
}
