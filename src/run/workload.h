/*-------------------------------------------------------------------------
 *
 * workload.h
 *	  Which I/O comes next: op kind, file and offset, per worker.
 *
 * Each worker has its own generator seeded from (seed, worker index), so
 * the same seed gives the same sequence of offsets and no state is shared
 * between workers.  Random patterns pick a file and a block uniformly.
 * Sequential patterns treat the files as one stream cut into one region
 * per worker; each worker walks its region and wraps around.  Random reads
 * through the server (engine postgres) of several workers draw from
 * stripes: worker i of n only blocks b with b mod n = i.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WORKLOAD_H
#define IOBENCH_WORKLOAD_H

#include "postgres.h"

#include "common/pg_prng.h"

#include "engine/engine.h"
#include "run_validate.h"

/* Number of leading ops folded into the offset digest */
#define IOB_DIGEST_OPS 64

typedef struct IobWorkload
{
	bool		random;
	bool		mixed;
	IobOpKind	pure_kind;		/* the kind of every op when not mixed */
	int			read_pct;
	int			rewrite_pct;
	uint32		block_size;
	uint64		blocks_per_file;
	int			nfiles;
	pg_prng_state prng;

	/* sequential cursor over the worker's region of the stream */
	uint64		region_first;	/* first block of the region (stream-wide) */
	uint64		region_blocks;	/* its length */
	uint64		cursor;			/* next block, relative to region_first */

	/* random, engine postgres: this worker's stripe of "stripes" (0: none) */
	uint64		stripes;
	uint64		stripe;

	/* rewrite_pct: a rewrite of the block just read is pending */
	bool		rewrite_pending;
	int			last_file;
	uint64		last_offset;

	/* digest of the first IOB_DIGEST_OPS ops, for seed reproducibility */
	uint64		digest;
} IobWorkload;

extern void iob_workload_init(IobWorkload *wl, const IobRunParams *params,
							  int worker_index);
extern void iob_workload_next(IobWorkload *wl, IobOpKind *kind, int *file,
							  uint64 *offset);

#endif							/* IOBENCH_WORKLOAD_H */
