/*-------------------------------------------------------------------------
 *
 * run_progress.h
 *	  The progress NOTICEs of a running benchmark.
 *
 * The launcher (run_launcher.c) calls iob_progress_report() from its wait
 * loop; this module decides whether a NOTICE is due and formats it from the
 * workers' live counters (read without a lock, see run_shared.h).  Two
 * styles: iobench.run()'s line (elapsed, IOPS, MB/s, p99 so far) and the
 * pgiosim-style line (percent done, totals, rates of the last interval).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_PROGRESS_H
#define IOBENCH_RUN_PROGRESS_H

#include "postgres.h"

#include "histogram.h"
#include "run_shared.h"

typedef enum IobProgressStyle
{
	IOB_PROGRESS_RATES = 0,		/* iobench.run(): IOPS, MB/s, p99 */
	IOB_PROGRESS_COUNTS			/* pgiosim: reads, writes, syncs, kB/s */
} IobProgressStyle;

/* What the last NOTICE reported, to compute the rates of the next one */
typedef struct IobProgress
{
	IobProgressStyle style;
	int64		every_ns;		/* interval between NOTICEs */
	int64		last_ns;		/* clock of the last NOTICE (or the start) */
	uint64		last_ops;		/* data I/Os at the last NOTICE */
	uint64		last_counts[IOB_NUM_OP_KINDS];
	uint64		last_bytes;
	IobHistogram *scratch;		/* merge area for the p99 so far */
} IobProgress;

/* Set up the progress of a run whose clock marks were just set ("go") */
extern void iob_progress_start(IobProgress *progress, IobProgressStyle style,
							   const IobRunShared *run);

/* Emit a progress NOTICE when one is due (and iobench.progress is on) */
extern void iob_progress_report(IobProgress *progress, const IobRunShared *run,
								const IobWorkerState *workers, int nworkers,
								int64 now);

#endif							/* IOBENCH_RUN_PROGRESS_H */
