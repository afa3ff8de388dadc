/*-------------------------------------------------------------------------
 *
 * engine_postgres.h
 *	  Engine "postgres": benchmark reads through the server's own read
 *	  path, the buffer manager, instead of the raw files.
 *
 * A run of engine "postgres" reads blocks of a real relation in the
 * tablespace, an unlogged table iobench_internal.read_target_<tablespace
 * oid> filled with random data, as PostgreSQL reads a table:
 *
 * - 17 and later: a read stream (storage/read_stream.h) whose callback
 *   hands out the run's block numbers; on 18 and later it issues its reads
 *   as asynchronous I/O under the server's io_method;
 * - 15 and 16: ReadBufferExtended() with PrefetchBuffer() ahead of it by
 *   effective_io_concurrency blocks, as their bitmap heap scans do.
 *
 * Every read is made cold, or counted: each buffer is evicted once used
 * (EvictUnpinnedBuffer(), 17+; a BAS_BULKREAD ring of a few buffers on
 * 15/16), and each block dropped from the page cache once read (unless
 * debug_io_direct covers data files); the workers count the buffer hits and
 * reads PostgreSQL saw (pgBufferUsage), and the run stores them with the
 * settings that shaped the path (iobench.run_server_reads).
 *
 * Engine "postgres" is one more IobEngineOps (iob_engine_postgres,
 * engine.h): the worker's loop queues its ops as requests, and the read
 * path hands them to the server as the read stream (or the prefetch ring)
 * asks for blocks, a request becoming done with its last buffer.  It takes
 * a narrow description of its work (IobEngineWork) and keeps its run-wide
 * state in the run's shared memory as IobPgShared, laid over the engine's
 * area (IobEngineShared).  Four files:
 * - engine_postgres.c: the operations table and the read path of a worker;
 * - engine_postgres_relation.c: the relation, made, filled, and made cold
 *   before the run by a preparer background worker that commits on its own
 *   (and the same for server_vs_disk()'s scan relation, scan_target);
 * - engine_postgres_scan.c: server_vs_disk()'s cold scan of its scan
 *   relation by the executor, within the free buffers;
 * - engine_postgres_settings.c: the rules of a run of this engine (its
 *   check_work), the settings it runs with, and its row in
 *   iobench.run_server_reads (its store).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_ENGINE_POSTGRES_H
#define IOBENCH_ENGINE_POSTGRES_H

#include "postgres.h"

#include "storage/block.h"
#include "storage/dsm.h"
#include "utils/rel.h"

#include "engine.h"

/*
 * The most blocks a relation holds: block numbers run from 0 to
 * MaxBlockNumber (0xFFFFFFFE), so with 8 kB blocks a relation is at most
 * 32 TB less one block.  file_size of engine "postgres" sizes the relation
 * in blocks of this server (its check_work checks it, in 64 bits, before
 * anything is created).
 */
#define IOB_MAX_RELATION_BLOCKS	((uint64) MaxBlockNumber + 1)

/* The engine's run-wide state, over IobEngineShared */
typedef struct IobPgShared
{
	/* written by prepare_run (engine_postgres_settings.c), for the preparer */
	Oid			tablespace_oid;
	NameData	tablespace;
	uint64		file_size;		/* the bytes of the relation a run reads */
	uint32		block_size;
	uint64		seed;
	bool		scan_target;	/* the scan relation (engine_postgres_scan.c) */

	/* written by the preparer (engine_postgres_relation.c) */
	Oid			relid;
	char		relation[2 * NAMEDATALEN + 2];	/* schema.name */
	uint64		relation_bytes; /* its size once prepared */
	int			prep_error_code;	/* SQLSTATE of the preparer's error, or 0 */
	char		prep_error[256];
	char		prep_error_detail[256];
	char		prep_error_hint[256];

	/* written by prepare_run before the workers start */
	bool		read_stream;	/* a read stream (17+), else prefetch */
	bool		drop_page_cache;	/* not under debug_io_direct = data */
	int			io_concurrency; /* effective_io_concurrency in effect */
	int			io_combine_blocks;	/* io_combine_limit in effect (0: none) */
	int			workers;		/* the run's workers, each reading ahead */
} IobPgShared;

/* The engine's state in the run's engine area */
#define IOB_PG_SHARED(area)		((IobPgShared *) (area)->data)

/* engine_postgres_settings.c: its check_work, check_campaign, ... */
extern void iob_pg_check_work(const IobEngineWork *work);
extern void iob_pg_check_campaign(IobCampaignKind campaign);
extern void iob_pg_check_allowed(void);
extern void iob_pg_prepare_run(dsm_segment *seg, IobEngineShared *area,
							   const IobEngineWork *work, bool *direct);
extern char *iob_pg_setting(const IobEngineShared *area, const char *name);
extern Datum iob_pg_store(int64 run_id, const IobEngineShared *area,
						  const IobEngineCounts *counts, uint64 bytes_read,
						  Datum row);

/* engine_postgres_relation.c: in the launcher, before its workers start */
extern void iob_pg_relation_prepare(dsm_segment *seg, IobPgShared *shared);
extern void iob_pg_relation_sync_drop(Relation rel, BlockNumber nblocks, bool drop);

/*
 * engine_postgres_scan.c: the scan relation's key of block "blkno": a
 * bijection of 32 bits, so that the keys below a bound lie at random
 * blocks
 */
extern uint32 iob_scan_key(BlockNumber blkno);

/* Entry point of the preparer (bgw_function_name) */
extern PGDLLEXPORT void iobench_relation_main(Datum main_arg);

/* engine_postgres.c: ops a worker holds at once (a relation holds twice) */
extern uint32 iob_pg_read_span(bool random, uint32 blocks_per_op,
							   int io_concurrency, int io_combine_blocks);

#endif							/* IOBENCH_ENGINE_POSTGRES_H */
