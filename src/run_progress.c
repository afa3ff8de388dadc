/*-------------------------------------------------------------------------
 *
 * run_progress.c
 *	  The progress NOTICEs of a running benchmark: see run_progress.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "datatype/timestamp.h"

#include "clock.h"
#include "iobench.h"
#include "run_progress.h"

/* See run_progress.h */
void
iob_progress_start(IobProgress *progress, IobProgressStyle style,
				   const IobRunShared *run)
{
	memset(progress, 0, sizeof(IobProgress));
	progress->style = style;
	progress->every_ns = IOB_NS_PER_SEC * run->params.progress_interval_s;
	progress->last_ns = run->start_ns;
	if (style == IOB_PROGRESS_RATES)
		progress->scratch = palloc(sizeof(IobHistogram));
}

/*
 * The pgiosim-style line: percent done of the whole run and totals so far,
 * and the rates over the last interval, in the spirit of pgiosim's 10-second
 * line but counted over all workers.
 */
static void
report_counts(IobProgress *progress, const IobRunShared *run,
			  const IobWorkerState *workers, int nworkers,
			  int64 now, double interval_s)
{
	uint64		counts[IOB_NUM_OP_KINDS] = {0};
	uint64		bytes = 0;
	uint64		stalls = 0;
	double		elapsed_s = (double) (now - run->start_ns) / IOB_NS_PER_SEC;
	double		total_s = (double) (run->params.warmup_us + run->params.duration_us) / USECS_PER_SEC;
	double		reads_s;
	double		writes_s;
	int			i;
	int			k;

	for (i = 0; i < nworkers; i++)
	{
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			counts[k] += workers[i].hist[k].count;
		bytes += workers[i].bytes[IOB_OP_READ] + workers[i].bytes[IOB_OP_WRITE];
		stalls += workers[i].nstalls;
	}
	reads_s = (double) (counts[IOB_OP_READ] - progress->last_counts[IOB_OP_READ]) / interval_s;
	writes_s = (double) (counts[IOB_OP_WRITE] - progress->last_counts[IOB_OP_WRITE]) / interval_s;
	ereport(NOTICE,
			(errmsg("iobench: %.0f/%.0f s (%.0f %%): " UINT64_FORMAT " reads, " UINT64_FORMAT " writes, " UINT64_FORMAT " syncs, " UINT64_FORMAT " stalls; last %.0f s: %.0f kB/s, %.0f IOPS (%.0f reads/s, %.0f writes/s)",
					Min(elapsed_s, total_s), total_s, 100.0 * Min(elapsed_s, total_s) / total_s,
					counts[IOB_OP_READ], counts[IOB_OP_WRITE], counts[IOB_OP_FSYNC], stalls,
					interval_s,
					(double) (bytes - progress->last_bytes) / 1024.0 / interval_s,
					reads_s + writes_s, reads_s, writes_s)));
	memcpy(progress->last_counts, counts, sizeof(counts));
	progress->last_bytes = bytes;
}

/*
 * iobench.run()'s line: the measured seconds so far, IOPS over the last
 * interval, MB/s and p99 of data I/O (reads and writes) since the measured
 * period began.
 */
static void
report_rates(IobProgress *progress, const IobRunShared *run,
			 const IobWorkerState *workers, int nworkers,
			 int64 now, double interval_s)
{
	uint64		bytes = 0;
	int			i;

	iob_hist_reset(progress->scratch);
	for (i = 0; i < nworkers; i++)
	{
		iob_hist_merge(progress->scratch, &workers[i].hist[IOB_OP_READ]);
		iob_hist_merge(progress->scratch, &workers[i].hist[IOB_OP_WRITE]);
		bytes += workers[i].bytes[IOB_OP_READ] + workers[i].bytes[IOB_OP_WRITE];
	}
	ereport(NOTICE,
			(errmsg("iobench: %.0f/%.0f s, %.0f IOPS, %.1f MB/s so far, p99 %.3f ms",
					(double) Min(now - run->measure_start_ns, run->end_ns - run->measure_start_ns) / IOB_NS_PER_SEC,
					(double) run->params.duration_us / USECS_PER_SEC,
					(double) (progress->scratch->count - progress->last_ops) / interval_s,
					(double) bytes / 1e6 /
					Max((double) (Min(now, run->end_ns) - run->measure_start_ns) / IOB_NS_PER_SEC, 1e-3),
					iob_hist_percentile(progress->scratch, 99.0) / 1e6)));
	progress->last_ops = progress->scratch->count;
}

/* See run_progress.h */
void
iob_progress_report(IobProgress *progress, const IobRunShared *run,
					const IobWorkerState *workers, int nworkers, int64 now)
{
	double		interval_s;

	if (!iobench_progress || now - progress->last_ns < progress->every_ns)
		return;
	/* the first report after the warm-up covers the measured part only */
	if (progress->last_ns < run->measure_start_ns && now >= run->measure_start_ns)
		progress->last_ns = run->measure_start_ns;
	interval_s = (double) Max(now - progress->last_ns, 1) / IOB_NS_PER_SEC;
	progress->last_ns = now;

	if (now < run->measure_start_ns)
		ereport(NOTICE,
				(errmsg("iobench: warm-up %.0f/%.0f s",
						(double) (now - run->start_ns) / IOB_NS_PER_SEC,
						(double) run->params.warmup_us / USECS_PER_SEC)));
	else if (progress->style == IOB_PROGRESS_COUNTS)
		report_counts(progress, run, workers, nworkers, now, interval_s);
	else
		report_rates(progress, run, workers, nworkers, now, interval_s);
}
