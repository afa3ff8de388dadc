/*-------------------------------------------------------------------------
 *
 * run_progress.h
 *	  The progress NOTICEs of a running benchmark.
 *
 * The launcher (run_launcher.c) calls iob_progress_report() from its wait
 * loop; this module decides whether a NOTICE is due and formats it from the
 * workers' live counters (read without a lock, see run_shared.h).  Two
 * styles: iobench.run()'s line (IOPS, MiB/s (MB/s) and p99 of the last
 * interval and in total, each labelled) and the pgiosim-style line (percent
 * done, totals, rates of the last interval).  Either way, each second of
 * the measured period that is a stall (throughput under half the rate so
 * far, or an I/O over the run's stall_threshold or 1 s) gets a NOTICE of
 * its own as it ends.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_PROGRESS_H
#define IOBENCH_RUN_PROGRESS_H

#include "postgres.h"

#include "results/results.h"
#include "run_shared.h"

typedef enum IobProgressStyle
{
	IOB_PROGRESS_RATES = 0,		/* iobench.run(): IOPS, MiB/s, p99 */
	IOB_PROGRESS_COUNTS			/* pgiosim: reads, writes, syncs, MiB/s */
} IobProgressStyle;

/* What the last NOTICE and the last stall check saw, for the next ones */
typedef struct IobProgress
{
	IobProgressStyle style;
	int64		every_ns;		/* interval between NOTICEs */
	int64		last_ns;		/* clock of the last NOTICE (or the start) */
	uint64		last_counts[IOB_NUM_OP_KINDS];	/* pgiosim-style line */
	uint64		last_bytes;		/* data bytes at the last NOTICE */
	IobHistogram *scratch;		/* data I/O merged over the workers, now */
	IobHistogram *prev;			/* the same at the last NOTICE */
	int64		stall_last_ns;	/* end of the last second checked for a stall */
	uint64		stall_last_ops; /* data I/Os then */
	uint64		stall_slow[IOB_NUM_OP_KINDS];	/* I/Os over slow_ns then */
	uint64		stall_longest[IOB_NUM_OP_KINDS];	/* longest I/O then (ns) */
	int64		slow_ns;		/* an I/O this long is a stall: the run's
								 * stall_threshold, or 1 s */
	int			slow_bucket;	/* first histogram bucket of such I/Os */
} IobProgress;

/* Set up the progress of a run whose clock marks were just set ("go") */
extern void iob_progress_start(IobProgress *progress, IobProgressStyle style,
							   const IobRunShared *run);

/* Emit a progress NOTICE when one is due (and iobench.progress is on) */
extern void iob_progress_report(IobProgress *progress, const IobRunShared *run,
								const IobWorkerState *workers, int nworkers,
								int64 now);

#endif							/* IOBENCH_RUN_PROGRESS_H */
