/*-------------------------------------------------------------------------
 *
 * engine_postgres.c
 *	  Engine "postgres": its operations table, and one worker's reads
 *	  through the buffer manager (engine_postgres.h).
 *
 * The worker queues ops as IobIo requests (queue(): a FIFO of them); each
 * op is blocks_per_op consecutive blocks from its offset, handed to the
 * server's read path block by block as the path asks for blocks, and
 * completes when the worker holds its last buffer (complete()).  The
 * worker keeps more requests queued than the path holds at once
 * (queue_depth()), so the path never finds the queue empty while the run
 * goes on, and reads ahead as far as the server lets it.  On 17
 * and later the path is a read stream whose callback hands the blocks out,
 * so the stream decides how far ahead it reads and which reads it combines
 * (effective_io_concurrency, io_combine_limit) and, on 18 and later, issues
 * them as asynchronous I/O under io_method.  On 15 and 16 it is what their
 * bitmap heap scans do: PrefetchBuffer() for the blocks up to
 * effective_io_concurrency ahead, ReadBufferExtended() for the next one;
 * sequential reads are their sequential scans', ReadBufferExtended() alone
 * with the kernel's read-ahead.
 *
 * A random op whose blocks this worker is still reading is drawn again,
 * through the worker's redraw (up to MAX_REDRAWS times): its blocks would be shared-buffer hits, not
 * reads of the disk, and 18 counts such a block of a combined read as
 * neither a hit nor a read (a forwarded buffer found valid).  On 15 and 16
 * the ops whose blocks are still in the bulk read ring count as in flight
 * too.  Workers of one run draw from stripes of their own (workload.c), so
 * no worker's read is another's hit either.  The relation must hold enough
 * ops for that (iob_pg_read_span(): a run of a smaller one is refused
 * before it starts).
 *
 * Every read goes through a buffer ring (BAS_BULKREAD), as a large
 * sequential scan's does, so a run takes no more of shared buffers than its
 * workers' rings, whatever it reads: without one, each buffer a read needs
 * would be taken from the clock sweep, another relation's, and a run of a
 * few seconds would empty the cache of every database.  On 15/16 and for
 * sequential reads it is the server's own 256 kB ring (or 18's, sized for
 * effective_io_concurrency); for random reads on 17+ it holds as many
 * buffers as the read stream pins at most and a margin, so the ring never
 * limits what the stream has in flight (random_read_ring).  Each buffer is
 * also released and evicted at once (17+), back into the ring; once an op
 * is done its blocks are dropped from the page cache, unless
 * debug_io_direct keeps data files out of it.  The next read of a block
 * then goes to the device, or shows as a hit in the counts (pgBufferUsage).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/relation.h"
#include "access/xact.h"
#include "executor/instrument.h"
#include "storage/bufmgr.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/resowner.h"

#include "base/base.h"
#include "engine.h"
#include "engine_postgres.h"

#ifdef IOB_HAVE_READ_STREAM
#include "storage/read_stream.h"
#endif
#ifdef IOB_HAVE_AIO
#include "storage/aio.h"
#endif

/*
 * Sequential reads drop the page cache behind them over this many bytes,
 * not only the op's blocks: the kernel's read-ahead fills the page cache
 * in large folios (up to a PMD, 2 MB on x86-64 with 4 kB pages), and
 * POSIX_FADV_DONTNEED drops only the folios wholly inside its range, so a
 * folio that spans several ops would stay cached, and the next pass over
 * the relation would read it from memory.  Trailing by the largest folio,
 * each folio is wholly inside the range of the op that ends where it ends.
 */
#define LARGE_FOLIO_BYTES	(2 * 1024 * 1024)
#define DROP_BEHIND_BYTES	LARGE_FOLIO_BYTES

/*
 * Random ops of several blocks are consecutive reads to the kernel too,
 * which it may read into large folios reaching past the op (an op's
 * blocks dropped alone left 9.5 MB of a 128 MB relation cached after 3 s
 * of 128 kB ops on 18, and 3 % of the ops were page-cache hits): each
 * such op drops the LARGE_FOLIO_BYTES-aligned span that holds it, when
 * the read path gives the kernel no advice of the ops ahead
 * (effective_io_concurrency 0, or 18's asynchronous I/O), whose blocks
 * the span could hold: a dropped advice would be a second read.
 */
#define LARGE_FOLIO_BLOCKS	(LARGE_FOLIO_BYTES / BLCKSZ)

/*
 * How many times a random op still in flight is drawn again before it is
 * taken anyway (a relation of fewer ops than the read path keeps in flight)
 */
#define MAX_REDRAWS			16

/* What the read path carries with each block, back to the worker */
typedef struct PgBlock
{
	BlockNumber block;
	IobIo	   *io;				/* the request of its op */
	bool		last;			/* the op's last block */
} PgBlock;

/* One worker's read path: the engine's private_data */
typedef struct PgRead
{
	IobEngine  *engine;			/* for the redraw */
	Relation	rel;			/* open in the worker's transaction */
	ResourceOwner worker_owner; /* the worker's own, outside the transaction */
	uint32		blocks_per_op;
	BufferAccessStrategy strategy;
	bool		drop_page_cache;
	bool		sequential;		/* drop DROP_BEHIND_BYTES behind each op */
	bool		drop_all;		/* drop the whole relation after each op */
	bool		drop_span;		/* drop the LARGE_FOLIO_BYTES around each op */
	BlockNumber nblocks;		/* the relation's blocks */

	/* random ops: which ops are in flight (handed out, not done), a bitmap */
	uint8	   *in_flight;

	/*
	 * 15/16, random ops: the last ops done, still in flight for the draw
	 * while their blocks are in the ring (a FIFO of their first blocks)
	 */
	BlockNumber *in_ring;
	int			ring_ops;		/* its size */
	int			ring_next;		/* the oldest entry, replaced next */

	/* the requests queued, not handed out yet: a FIFO */
	IobIo	  **queued;
	int			queue_size;		/* the engine's depth */
	int			queue_head;
	int			nqueued;

	/* the op being handed out */
	IobIo	   *io;
	BlockNumber next_block;
	uint32		left;			/* its blocks still to hand out */

	/* one descriptor per segment file, for the page cache (-1: not open) */
	char		path[MAXPGPATH];
	int			nsegs;
	int		   *seg_fds;

#ifdef IOB_HAVE_READ_STREAM
	ReadStream *stream;
#else
	/* blocks handed out, prefetched and not read yet: a ring */
	PgBlock    *ring;
	int			ring_size;		/* distance + 1 */
	int			head;
	int			count;
	int			distance;		/* effective_io_concurrency */
#endif
} PgRead;

/* Whether the op starting at block "first" is in flight */
static inline bool
op_in_flight(PgRead *sr, BlockNumber first)
{
	uint32		op = first / sr->blocks_per_op;

	return (sr->in_flight[op / 8] & (1 << (op % 8))) != 0;
}

/* Mark the op starting at block "first" in flight, or done */
static inline void
set_in_flight(PgRead *sr, BlockNumber first, bool on)
{
	uint32		op = first / sr->blocks_per_op;

	if (on)
		sr->in_flight[op / 8] |= (uint8) (1 << (op % 8));
	else
		sr->in_flight[op / 8] &= (uint8) ~(1 << (op % 8));
}

/*
 * A random op is done: it leaves the set of ops in flight, at once where
 * its buffers are evicted (17+), else (15/16) once the ring has reused
 * them, when as many ops as the ring holds are done after it
 */
static void
op_done(PgRead *sr, BlockNumber first)
{
	if (sr->in_ring != NULL)
	{
		BlockNumber oldest = sr->in_ring[sr->ring_next];

		sr->in_ring[sr->ring_next] = first;
		sr->ring_next = (sr->ring_next + 1) % sr->ring_ops;
		if (oldest == InvalidBlockNumber)
			return;
		first = oldest;
	}
	set_in_flight(sr, first, false);
}

/*
 * The most blocks one worker's read path holds, in flight or left in shared
 * buffers, for ops of blocks_per_op blocks, as ops: ops handed out and not
 * done (the blocks read ahead: prefetched on 15/16, pinned or in a pending
 * combined read on 17+, and the op being handed out), and on 15/16 the ops
 * whose blocks the bulk read ring still holds.  A relation of fewer ops
 * than twice this per worker is refused (engine_postgres_settings.c): a draw would
 * often find its op in flight, a sequential reader would wrap onto blocks
 * it still holds.
 */
uint32
iob_pg_read_span(bool random, uint32 blocks_per_op, int io_concurrency,
				 int io_combine_blocks)
{
	uint64		ahead;
	uint64		ops;

#ifdef IOB_HAVE_READ_STREAM
	ahead = (uint64) IOB_READ_STREAM_MAX_PINNED((uint64) io_concurrency,
												(uint64) Max(io_combine_blocks, 1)) +
		(uint64) Max(io_combine_blocks, 1);
#else
	/* the prefetch distance and the block read; sequential: the block */
	ahead = random ? (uint64) io_concurrency + 1 : 1;
#endif
	/* a partial op at either end */
	ops = (ahead + blocks_per_op - 1) / blocks_per_op + 1;
#ifndef IOB_HAVE_EVICT_BUFFER
	ops += (IOB_BULKREAD_RING_BLOCKS + blocks_per_op - 1) / blocks_per_op + 1;
#endif
	return (uint32) Min(ops, (uint64) PG_UINT32_MAX);
}

/*
 * Hand out the next block of the current op, or of the next request queued
 * (a random op still in flight is drawn again); false when none is queued
 */
static bool
hand_out_block(PgRead *sr, PgBlock *b)
{
	if (sr->left == 0)
	{
		IobIo	   *io;
		BlockNumber first;
		int			tries;

		if (sr->nqueued == 0)
			return false;
		io = sr->queued[sr->queue_head];
		sr->queue_head = (sr->queue_head + 1) % sr->queue_size;
		sr->nqueued--;
		first = (BlockNumber) (io->offset / BLCKSZ);
		for (tries = 0; sr->in_flight != NULL && tries < MAX_REDRAWS &&
			 op_in_flight(sr, first); tries++)
		{
			sr->engine->redraw(sr->engine->redraw_arg, io);
			first = (BlockNumber) (io->offset / BLCKSZ);
		}
		if (sr->in_flight != NULL)
			set_in_flight(sr, first, true);
		sr->io = io;
		sr->next_block = first;
		sr->left = sr->blocks_per_op;
		io->start_ns = iob_now_ns();
	}
	b->block = sr->next_block++;
	b->io = sr->io;
	b->last = (--sr->left == 0);
	return true;
}

#ifdef IOB_HAVE_READ_STREAM
/*
 * Buffers of the ring of random reads beyond the most the read stream pins:
 * BAS_BULKREAD's own 256 kB, so the next buffer of the ring is never one
 * the stream still holds (a pinned one makes the ring take a buffer from
 * the clock sweep, outside it)
 */
#define RING_MARGIN_KB		256

/*
 * The buffer ring of random reads (17+): the most buffers the read stream
 * pins at once (compat.h), for the effective_io_concurrency and
 * io_combine_limit the worker set, and the margin.  A bitmap heap scan,
 * which these reads stand for, reads without a ring; a ring that the
 * stream never fills reads the same blocks the same way, and bounds what a
 * run takes of shared buffers (GetAccessStrategyWithSize keeps it below an
 * eighth of them).
 */
static BufferAccessStrategy
random_read_ring(const IobPgShared *shared)
{
	int			pins = iob_read_stream_max_pins(shared->io_concurrency, io_combine_limit);

	return GetAccessStrategyWithSize(BAS_BULKREAD,
									 pins * (BLCKSZ / 1024) + RING_MARGIN_KB);
}

/* The read stream's callback: the next block, its data for the worker */
static BlockNumber
stream_next_block(ReadStream *stream, void *private_data, void *per_buffer_data)
{
	PgBlock    *b = (PgBlock *) per_buffer_data;

	if (!hand_out_block((PgRead *) private_data, b))
		return InvalidBlockNumber;
	return b->block;
}
#endif

/*
 * Drop blocks [first, first + n) from the page cache, segment by segment,
 * through descriptors of our own (the page cache is the file's, whoever
 * opened it)
 */
static void
drop_blocks(PgRead *sr, BlockNumber first, uint32 n)
{
	while (n > 0)
	{
		int			seg = (int) (first / RELSEG_SIZE);
		BlockNumber in_seg = first % RELSEG_SIZE;
		uint32		count = Min(n, RELSEG_SIZE - in_seg);

		if (seg < sr->nsegs)
		{
			if (sr->seg_fds[seg] < 0)
			{
				char		path[MAXPGPATH + 16];

				if (seg == 0)
					snprintf(path, sizeof(path), "%s", sr->path);
				else
					snprintf(path, sizeof(path), "%s.%d", sr->path, seg);
				sr->seg_fds[seg] = open(path, O_RDONLY | PG_BINARY | O_CLOEXEC);
				if (sr->seg_fds[seg] < 0)
					ereport(ERROR,
							(errcode_for_file_access(),
							 errmsg("could not open file \"%s\": %m", path)));
			}
			(void) posix_fadvise(sr->seg_fds[seg], (off_t) in_seg * BLCKSZ,
								 (off_t) count * BLCKSZ, POSIX_FADV_DONTNEED);
		}
		first += count;
		n -= count;
	}
}

/* Whether the server's reads are asynchronous I/O (18+, io_method not sync) */
static bool
read_path_is_async(void)
{
#ifdef IOB_HAVE_AIO
	return io_method != IOMETHOD_SYNC;
#else
	return false;
#endif
}

/*
 * Start the read path of one worker on sr->rel (open and locked, in the
 * worker's transaction), with the settings the launcher decided
 */
static void
read_path_begin(PgRead *sr, const IobEngineWork *work, const IobPgShared *shared)
{
	BlockNumber nblocks = (BlockNumber) (shared->relation_bytes / BLCKSZ);
	bool		random = work->random;
	Relation	rel = sr->rel;
	int			i;

	/* the ops are drawn over file_size: all must lie in the relation */
	if (work->file_size / BLCKSZ > nblocks)
		elog(ERROR, "relation of " UINT64_FORMAT " bytes is smaller than file_size " UINT64_FORMAT,
			 shared->relation_bytes, work->file_size);
	sr->blocks_per_op = work->block_size / BLCKSZ;
	sr->drop_page_cache = shared->drop_page_cache;
	sr->sequential = !random;
	sr->nblocks = nblocks;
	iob_relation_main_path(rel, sr->path);
	sr->nsegs = (int) (((uint64) nblocks + RELSEG_SIZE - 1) / RELSEG_SIZE);
	sr->seg_fds = palloc(sizeof(int) * Max(sr->nsegs, 1));
	for (i = 0; i < sr->nsegs; i++)
		sr->seg_fds[i] = -1;
	if (random)
		sr->in_flight = palloc0(nblocks / sr->blocks_per_op / 8 + 1);
#ifndef IOB_HAVE_EVICT_BUFFER
	if (random)
	{
		sr->ring_ops = (IOB_BULKREAD_RING_BLOCKS + sr->blocks_per_op - 1) / sr->blocks_per_op + 1;
		sr->in_ring = palloc(sizeof(BlockNumber) * sr->ring_ops);
		for (i = 0; i < sr->ring_ops; i++)
			sr->in_ring[i] = InvalidBlockNumber;
	}
#endif
	sr->drop_span = random && sr->blocks_per_op > 1 &&
		(shared->io_concurrency == 0 || read_path_is_async());

#ifdef IOB_HAVE_READ_STREAM
	{
		int			flags = READ_STREAM_DEFAULT;

		/*
		 * As the server reads: a sequential scan's stream, through its bulk
		 * read ring; a bitmap heap scan's for random blocks, through a ring
		 * that holds all the stream pins (each buffer is also evicted after
		 * use)
		 */
		if (!random)
		{
			flags = READ_STREAM_SEQUENTIAL;
			sr->strategy = GetAccessStrategy(BAS_BULKREAD);
		}
		else
			sr->strategy = random_read_ring(shared);
#ifdef IOB_HAVE_AIO
		/* the callback does no I/O of its own: submissions may be batched */
		flags |= READ_STREAM_USE_BATCHING;
#endif
		sr->stream = read_stream_begin_relation(flags, sr->strategy, rel, MAIN_FORKNUM,
												stream_next_block, sr,
												sizeof(PgBlock));
	}
#else
	/* a ring of a few buffers keeps the blocks read out of shared buffers */
	sr->strategy = GetAccessStrategy(BAS_BULKREAD);

	/*
	 * Random blocks are prefetched as a bitmap heap scan does; sequential
	 * ones are not, as a sequential scan's: the kernel's read-ahead reads
	 * them in large requests, where a prefetch of each block would make
	 * each its own small read of the device
	 */
	sr->distance = random ? shared->io_concurrency : 0;

	/*
	 * Random ops of several blocks read without a prefetch (distance 0) are
	 * consecutive reads to the kernel, which reads ahead of them, past the
	 * op, in large folios that dropping the op's blocks leaves cached (a
	 * later op found them there: 4600 ops/s of 128 kB instead of 560): the
	 * whole relation is dropped after each op instead, cheap while little of
	 * it is cached.  A prefetched block (POSIX_FADV_WILLNEED) is read alone.
	 */
	sr->drop_all = random && sr->distance == 0 && sr->blocks_per_op > 1;
	sr->ring_size = sr->distance + 1;
	sr->ring = palloc(sizeof(PgBlock) * sr->ring_size);
#endif
}

/*
 * The next buffer of the read path and what was handed out with it; false
 * when every block handed out has been read
 */
static bool
next_buffer(PgRead *sr, Buffer *buf, PgBlock *b)
{
#ifdef IOB_HAVE_READ_STREAM
	void	   *data;

	*buf = read_stream_next_buffer(sr->stream, &data);
	if (*buf == InvalidBuffer)
		return false;
	*b = *(PgBlock *) data;
	return true;
#else
	/* hand out (and prefetch) up to "distance" blocks ahead of the read */
	while (sr->count < sr->ring_size)
	{
		PgBlock *slot = &sr->ring[(sr->head + sr->count) % sr->ring_size];

		if (!hand_out_block(sr, slot))
			break;
		if (sr->distance > 0)
			(void) PrefetchBuffer(sr->rel, MAIN_FORKNUM, slot->block);
		sr->count++;
	}
	if (sr->count == 0)
		return false;
	*b = sr->ring[sr->head];
	sr->head = (sr->head + 1) % sr->ring_size;
	sr->count--;
	*buf = ReadBufferExtended(sr->rel, MAIN_FORKNUM, b->block, RBM_NORMAL, sr->strategy);
	return true;
#endif
}

/*
 * The next op done, its request stamped; false when no block is handed out
 * or to come (no request queued).  An op ends with its last buffer: only
 * that one is timed.  Each buffer is released at once, and evicted (17+);
 * the op's blocks are dropped from the page cache once it is done.
 */
static IobIo *
next_op_done(PgRead *sr)
{
	for (;;)
	{
		Buffer		buf;
		PgBlock		b;
		int64		got_ns = 0;
		BlockNumber first;
		IobIo	   *io;

		if (!next_buffer(sr, &buf, &b))
			return NULL;
		if (b.last)
			got_ns = iob_now_ns();
		ReleaseBuffer(buf);
#ifdef IOB_HAVE_EVICT_BUFFER
		(void) iob_evict_unpinned_buffer(buf);
#endif
		if (!b.last)
			continue;
		io = b.io;
		first = b.block - (sr->blocks_per_op - 1);
		if (sr->in_flight != NULL)
			op_done(sr, first);
		io->end_ns = got_ns;
		io->result = io->len;
		if (sr->drop_page_cache)
		{
			uint32		n = sr->blocks_per_op;

			if (sr->drop_all)
			{
				first = 0;
				n = sr->nblocks;
			}
			else if (sr->sequential && n < DROP_BEHIND_BYTES / BLCKSZ)
			{
				BlockNumber back = Min(first, DROP_BEHIND_BYTES / BLCKSZ - n);

				first -= back;
				n += back;
			}
			else if (sr->drop_span)
			{
				BlockNumber start = first - first % LARGE_FOLIO_BLOCKS;
				BlockNumber end = first + n;

				end += (LARGE_FOLIO_BLOCKS - end % LARGE_FOLIO_BLOCKS) % LARGE_FOLIO_BLOCKS;
				first = start;
				n = Min(end, sr->nblocks) - start;
			}
			drop_blocks(sr, first, n);
		}
		return io;
	}
}

/*
 * The requests a worker keeps queued: more ops than its read path holds at
 * once, so the path never finds the queue empty while the run goes on
 */
static int
pg_queue_depth(const IobEngineWork *work, const IobEngineShared *area)
{
	const IobPgShared *shared = IOB_PG_SHARED(area);

	return (int) iob_pg_read_span(work->random, work->block_size / BLCKSZ,
								  shared->io_concurrency,
								  shared->io_combine_blocks) + 1;
}

/*
 * Open the run's relation (its preparer made it) in a transaction that
 * lasts the run, take the run's settings of the read path for this
 * process, and start the read path
 */
static int
pg_init(IobEngine *engine, int depth)
{
	const IobPgShared *shared = IOB_PG_SHARED(engine->shared);
	PgRead	   *sr = palloc0(sizeof(PgRead));
	char		value[16];

	Assert(engine->redraw != NULL);
	sr->engine = engine;
	sr->queue_size = depth;
	sr->queued = palloc(sizeof(IobIo *) * depth);
	sr->worker_owner = CurrentResourceOwner;
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	sr->rel = relation_open(shared->relid, AccessShareLock);
	snprintf(value, sizeof(value), "%d", shared->io_concurrency);
	SetConfigOption("effective_io_concurrency", value, PGC_USERSET, PGC_S_SESSION);
	if (shared->io_combine_blocks > 0)
	{
		snprintf(value, sizeof(value), "%d", shared->io_combine_blocks);
		SetConfigOption("io_combine_limit", value, PGC_USERSET, PGC_S_SESSION);
	}
	read_path_begin(sr, engine->work, shared);
	engine->private_data = sr;
	engine->inflight = 0;
	return 0;
}

/* Queue a read of the op at io->offset, for the read path to take */
static void
pg_queue(IobEngine *engine, IobIo *io)
{
	PgRead	   *sr = (PgRead *) engine->private_data;

	Assert(io->kind == IOB_OP_READ && sr->nqueued < sr->queue_size);
	sr->queued[(sr->queue_head + sr->nqueued) % sr->queue_size] = io;
	sr->nqueued++;
	engine->inflight++;
}

/*
 * Hand the read path what is queued as it asks, and return the next op
 * done (the server decides how many reads are in flight: the engine returns
 * one op a call, and waits for it however long it takes)
 */
static int
pg_complete(IobEngine *engine, int min_complete, int64 timeout_ns,
			IobIo **done, int max_done)
{
	PgRead	   *sr = (PgRead *) engine->private_data;
	IobIo	   *io;

	if (max_done < 1)
		return 0;
	io = next_op_done(sr);
#ifdef IOB_HAVE_READ_STREAM
	if (io == NULL && sr->nqueued > 0)
	{
		/*
		 * The stream found the queue empty once, and ended: every block it
		 * handed out is read, and it starts afresh on what is queued since
		 */
		read_stream_reset(sr->stream);
		io = next_op_done(sr);
	}
#endif
	if (io == NULL)
	{
		if (engine->inflight != 0)
			elog(ERROR, "read path of engine \"postgres\" ended with %d ops queued",
				 engine->inflight);
		return 0;
	}
	engine->inflight--;
	done[0] = io;
	return 1;
}

/*
 * End the read path: what is in flight is waited for and released; the
 * relation closed, the worker's transaction committed
 */
static void
pg_shutdown(IobEngine *engine)
{
	PgRead	   *sr = (PgRead *) engine->private_data;
	int			i;

#ifdef IOB_HAVE_READ_STREAM
	read_stream_end(sr->stream);
#endif
	if (sr->strategy)
		FreeAccessStrategy(sr->strategy);
	for (i = 0; i < sr->nsegs; i++)
		if (sr->seg_fds[i] >= 0)
			close(sr->seg_fds[i]);
	relation_close(sr->rel, AccessShareLock);
	CommitTransactionCommand();
	CurrentResourceOwner = sr->worker_owner;
	engine->private_data = NULL;
	engine->inflight = 0;
}

/* The buffer manager's counts of this process so far */
static void
pg_counts(IobEngine *engine, IobEngineCounts *counts)
{
	counts->buffer_hits = (uint64) pgBufferUsage.shared_blks_hit;
	counts->buffer_reads = (uint64) pgBufferUsage.shared_blks_read;
}

/* The operations table of engine "postgres" (engine.h) */
const IobEngineOps iob_engine_postgres = {
	.name = "postgres",
	.flags = IOB_ENGINE_SHARED_CACHE | IOB_ENGINE_SERVER_IO,
	.check_work = iob_pg_check_work,
	.check_campaign = iob_pg_check_campaign,
	.check_allowed = iob_pg_check_allowed,
	.prepare_run = iob_pg_prepare_run,
	.queue_depth = pg_queue_depth,
	.init = pg_init,
	.queue = pg_queue,
	.complete = pg_complete,
	.shutdown = pg_shutdown,
	.counts = pg_counts,
	.setting = iob_pg_setting,
	.store = iob_pg_store
};
