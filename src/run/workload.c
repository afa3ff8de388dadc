/*-------------------------------------------------------------------------
 *
 * workload.c
 *	  Offset and op generation for one worker.
 *
 * See workload.h.  Everything here runs once per I/O, so it is branch-light
 * and allocation-free.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "workload.h"

/* FNV-1a step over a 64-bit value: a cheap, order-sensitive digest */
static inline uint64
digest_step(uint64 h, uint64 v)
{
	int			i;

	for (i = 0; i < 8; i++)
	{
		h ^= (v >> (i * 8)) & 0xff;
		h *= UINT64CONST(0x100000001b3);
	}
	return h;
}

/*
 * The digest of the first IOB_DIGEST_OPS ops generator "wl" gives, drawn
 * from a copy of it: the same for the same seed and settings however many
 * ops the worker gets to issue (a short run on a loaded machine may issue
 * fewer).
 */
static uint64
leading_ops_digest(const IobWorkload *wl)
{
	IobWorkload copy = *wl;
	uint64		h = UINT64CONST(0xcbf29ce484222325);
	int			i;

	for (i = 0; i < IOB_DIGEST_OPS; i++)
	{
		IobOpKind	kind;
		int			file;
		uint64		offset;

		iob_workload_next(&copy, &kind, &file, &offset);
		h = digest_step(h, ((uint64) kind << 56) ^ ((uint64) file << 40) ^ offset);
	}
	return h;
}

/*
 * Set up worker "worker_index"'s generator.  The PRNG seed mixes the run's
 * seed with the worker index so workers differ but each is reproducible.
 */
void
iob_workload_init(IobWorkload *wl, const IobRunParams *params, int worker_index)
{
	uint64		stream_blocks;
	uint64		share;
	uint64		extra;

	memset(wl, 0, sizeof(IobWorkload));
	wl->random = iob_pattern_is_random(params->rw);
	wl->mixed = iob_pattern_is_mixed(params->rw);
	wl->pure_kind = iob_pattern_reads(params->rw) ? IOB_OP_READ : IOB_OP_WRITE;
	wl->read_pct = params->read_pct;
	wl->rewrite_pct = params->rewrite_pct;
	wl->block_size = params->block_size;
	wl->blocks_per_file = params->file_size / params->block_size;
	wl->nfiles = params->files;
	pg_prng_seed(&wl->prng,
				 params->seed ^ (UINT64CONST(0x9E3779B97F4A7C15) * (uint64) (worker_index + 1)));

	/* sequential: cut the stream of all files' blocks into equal regions */
	stream_blocks = wl->blocks_per_file * (uint64) wl->nfiles;
	share = stream_blocks / (uint64) params->workers;
	extra = stream_blocks % (uint64) params->workers;
	wl->region_first = share * worker_index + Min((uint64) worker_index, extra);
	wl->region_blocks = share + ((uint64) worker_index < extra ? 1 : 0);
	if (wl->region_blocks == 0)
	{
		/* more workers than blocks: share the first block */
		wl->region_first = 0;
		wl->region_blocks = 1;
	}
	wl->cursor = 0;

	/*
	 * Random reads through the server's shared cache (engine postgres):
	 * each worker draws the blocks of its own stripe, so that one's read is
	 * never another's shared-buffer hit
	 */
	if (wl->random &&
		(iob_engine_ops(params->engine)->flags & IOB_ENGINE_SHARED_CACHE) &&
		params->workers > 1 && wl->blocks_per_file >= (uint64) params->workers)
	{
		wl->stripes = (uint64) params->workers;
		wl->stripe = (uint64) worker_index;
	}
	wl->digest = leading_ops_digest(wl);
}

/* Choose the next op: its kind, file and byte offset */
void
iob_workload_next(IobWorkload *wl, IobOpKind *kind, int *file, uint64 *offset)
{
	if (wl->rewrite_pending)
	{
		/* rewrite_pct: write back the block just read */
		wl->rewrite_pending = false;
		*kind = IOB_OP_WRITE;
		*file = wl->last_file;
		*offset = wl->last_offset;
	}
	else
	{
		uint64		block;

		if (wl->mixed)
			*kind = (pg_prng_uint64_range(&wl->prng, 0, 99) < (uint64) wl->read_pct)
				? IOB_OP_READ : IOB_OP_WRITE;
		else
			*kind = wl->pure_kind;

		if (wl->random)
		{
			*file = (wl->nfiles == 1) ? 0 :
				(int) pg_prng_uint64_range(&wl->prng, 0, wl->nfiles - 1);
			block = pg_prng_uint64_range(&wl->prng, 0, wl->blocks_per_file - 1);
			if (wl->stripes > 1)
			{
				/* the stripe's block of the drawn block's group */
				block += wl->stripe - block % wl->stripes;
				if (block >= wl->blocks_per_file)
					block -= wl->stripes;
			}
		}
		else
		{
			uint64		stream_block = wl->region_first + wl->cursor;

			*file = (int) (stream_block / wl->blocks_per_file);
			block = stream_block % wl->blocks_per_file;
			if (++wl->cursor >= wl->region_blocks)
				wl->cursor = 0;
		}
		*offset = block * wl->block_size;

		if (*kind == IOB_OP_READ && wl->rewrite_pct > 0 &&
			pg_prng_uint64_range(&wl->prng, 0, 99) < (uint64) wl->rewrite_pct)
		{
			wl->rewrite_pending = true;
			wl->last_file = *file;
			wl->last_offset = *offset;
		}
	}
}
