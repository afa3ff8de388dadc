/*-------------------------------------------------------------------------
 *
 * server_read.h
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
 * Three parts:
 * - server_settings.c: the rules of a run of this engine (checked with
 *   run()'s arguments, iob_parse_run_args()), and the settings it ran with;
 * - server_relation.c: the relation, made, filled, and made cold before
 *   the run by a preparer background worker that commits on its own;
 * - server_read.c: the read path in a worker (worker.c's server loop).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_ENGINE_POSTGRES_H
#define IOBENCH_ENGINE_POSTGRES_H

#include "postgres.h"

#include "storage/block.h"
#include "storage/dsm.h"
#include "utils/rel.h"

#include "run_options.h"

/*
 * The most blocks a relation holds: block numbers run from 0 to
 * MaxBlockNumber (0xFFFFFFFE), so with 8 kB blocks a relation is at most
 * 32 TB less one block.  file_size of engine "postgres" sizes the relation
 * in blocks of this server (iob_check_server_read_params() checks it, in
 * 64 bits, before anything is created).
 */
#define IOB_MAX_RELATION_BLOCKS	((uint64) MaxBlockNumber + 1)

/* The relation a run reads, and the settings it ran with (run_shared.h) */
typedef struct IobServerShared
{
	/* written by the preparer (server_relation.c) */
	Oid			relid;
	char		relation[2 * NAMEDATALEN + 2];	/* schema.name */
	uint64		relation_bytes; /* its size once prepared */
	int			prep_error_code;	/* SQLSTATE of the preparer's error, or 0 */
	char		prep_error[256];
	char		prep_error_detail[256];
	char		prep_error_hint[256];

	/* written by the launcher before the workers start (server_settings.c) */
	bool		read_stream;	/* a read stream (17+), else prefetch */
	bool		drop_page_cache;	/* not under debug_io_direct = data */
	int			io_concurrency; /* effective_io_concurrency in effect */
	int			io_combine_blocks;	/* io_combine_limit in effect (0: none) */
} IobServerShared;

/* A worker's counts of the measured period (IobWorkerState) */
typedef struct IobServerCounts
{
	uint64		blocks;			/* buffers the worker obtained */
	uint64		buffer_hits;	/* pgBufferUsage.shared_blks_hit */
	uint64		buffer_reads;	/* pgBufferUsage.shared_blks_read */
} IobServerCounts;

/* server_settings.c */
extern void iob_check_server_read_params(const IobRunParams *params);
extern void iob_check_server_read_allowed(void);
extern void iob_server_settings_resolve(const IobRunParams *params,
										IobServerShared *shared);
extern Datum iob_store_server_reads(int64 run_id, const IobServerShared *shared,
									const IobServerCounts *counts, Datum row);

/* server_relation.c: in the launcher, before its workers start */
extern void iob_server_relation_prepare(dsm_segment *seg, IobServerShared *shared);

/* Entry point of the preparer (bgw_function_name) */
extern PGDLLEXPORT void iobench_relation_main(Datum main_arg);

/*
 * server_read.c: the read path of one worker.  The caller hands out the
 * ops through "next_op": the first block of the next op (of blocks_per_op
 * consecutive blocks), or InvalidBlockNumber when no op is to come.
 * iob_server_read_next() returns the next completed op, or false when
 * every op handed out is done.
 */
typedef BlockNumber (*IobServerNextOp) (void *arg);

typedef struct IobServerRead IobServerRead;

typedef struct IobServerOp
{
	BlockNumber first_block;
	int64		start_ns;		/* handed to the read path */
	int64		end_ns;			/* its last buffer obtained */
} IobServerOp;

extern IobServerRead *iob_server_read_begin(Relation rel, const IobRunParams *params,
											const IobServerShared *shared,
											IobServerNextOp next_op, void *arg);
extern bool iob_server_read_next(IobServerRead *sr, IobServerOp *op);
extern void iob_server_read_end(IobServerRead *sr);
extern void iob_server_read_counts(IobServerCounts *counts);
extern uint32 iob_server_read_span(bool random, uint32 blocks_per_op,
								   int io_concurrency, int io_combine_blocks);

#endif							/* IOBENCH_ENGINE_POSTGRES_H */
