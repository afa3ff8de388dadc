/*-------------------------------------------------------------------------
 *
 * run_progress.c
 *	  The progress NOTICEs of a running benchmark: see run_progress.h.
 *
 * Figures come from the workers' cumulative histograms and byte counters,
 * read without a lock: a NOTICE's "total" is what they hold now, its "last"
 * interval the difference from the copy taken at the previous NOTICE.  The
 * stall check looks at every second the same way, independently of how
 * often progress is printed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "datatype/timestamp.h"
#include "lib/stringinfo.h"

#include "base/base.h"
#include "run_progress.h"

/*
 * A second is a stall when data I/O ran at under this share of the rate so
 * far, or when an I/O of any kind took longer than the run's
 * stall_threshold, IOB_STALL_LATENCY_NS when it has none: the criteria of
 * iobench.stalls() with its defaults, except that the rate so far stands in
 * for the run's median, which is known only at the end.
 */
#define IOB_STALL_RATE_SHARE	0.5
#define IOB_STALL_LATENCY_NS	IOB_NS_PER_SEC

/* Seconds of measured time before the rate so far is a fair yardstick */
#define IOB_STALL_MIN_BASE_S	2

/* Names of the op kinds in stall NOTICEs, singular and plural */
static const char *const op_singular[IOB_NUM_OP_KINDS] = {"read", "write", "sync"};
static const char *const op_plural[IOB_NUM_OP_KINDS] = {"reads", "writes", "syncs"};

/* See run_progress.h */
void
iob_progress_start(IobProgress *progress, IobProgressStyle style,
				   const IobRunShared *run)
{
	int			b;

	memset(progress, 0, sizeof(IobProgress));
	progress->style = style;
	progress->every_ns = IOB_NS_PER_SEC * run->params.progress_interval_s;
	progress->last_ns = run->start_ns;
	progress->scratch = palloc(sizeof(IobHistogram));
	progress->prev = palloc(sizeof(IobHistogram));
	iob_hist_reset(progress->prev);
	progress->stall_last_ns = run->measure_start_ns;
	/* the first bucket holding only values of at least the stall latency */
	progress->slow_ns = run->params.stall_threshold_us > 0 ?
		run->params.stall_threshold_us * 1000 : IOB_STALL_LATENCY_NS;
	b = iob_hist_bucket((uint64) progress->slow_ns);
	if (iob_hist_bucket_lower(b) < (uint64) progress->slow_ns)
		b++;
	progress->slow_bucket = b;
}

/*
 * A throughput in bytes per second as fio prints it, binary first:
 * "55.4 MiB/s (58.1 MB/s)", GiB/s (GB/s) from 1 GiB/s up.
 */
static void
format_rate(char *buf, size_t size, double bytes_per_s)
{
	if (bytes_per_s >= 1073741824.0)
		snprintf(buf, size, "%.2f GiB/s (%.2f GB/s)",
				 bytes_per_s / 1073741824.0, bytes_per_s / 1e9);
	else
		snprintf(buf, size, "%.1f MiB/s (%.1f MB/s)",
				 bytes_per_s / 1048576.0, bytes_per_s / 1e6);
}

/* A latency in ns with three significant digits in µs, ms or s, as iobench.format_us() */
static void
format_latency(char *buf, size_t size, double ns)
{
	const char *unit = "µs";
	double		v = ns / 1e3;
	int			decimals;

	if (v >= 1e6)
	{
		v /= 1e6;
		unit = "s";
	}
	else if (v >= 1e3)
	{
		v /= 1e3;
		unit = "ms";
	}
	decimals = v > 0 ? Max(0, 2 - (int) floor(log10(v))) : 0;
	snprintf(buf, size, "%.*f %s", decimals, v, unit);
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
	char		rate[64];
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
	format_rate(rate, sizeof(rate), (double) (bytes - progress->last_bytes) / interval_s);
	ereport(NOTICE,
			(errmsg("iobench: %.0f/%.0f s (%.0f %%): " UINT64_FORMAT " reads, " UINT64_FORMAT " writes, " UINT64_FORMAT " syncs, " UINT64_FORMAT " stalls; last %.0f s: %s, %.0f IOPS (%.0f reads/s, %.0f writes/s)",
					Min(elapsed_s, total_s), total_s, 100.0 * Min(elapsed_s, total_s) / total_s,
					counts[IOB_OP_READ], counts[IOB_OP_WRITE], counts[IOB_OP_FSYNC], stalls,
					interval_s, rate, reads_s + writes_s, reads_s, writes_s)));
	memcpy(progress->last_counts, counts, sizeof(counts));
	progress->last_bytes = bytes;
}

/*
 * iobench.run()'s line: the measured seconds so far, then IOPS, throughput
 * and p99 of data I/O (reads and writes) twice, each labelled: over the last
 * interval, and in total since the measured period began.
 */
static void
report_rates(IobProgress *progress, const IobRunShared *run,
			 const IobWorkerState *workers, int nworkers,
			 int64 now, double interval_s)
{
	uint64		bytes = 0;
	double		measured_s;
	double		total_p99;
	char		last_rate[64];
	char		last_p99[32];
	char		total_rate[64];
	char		total_p99_text[32];
	uint64		total_ops;
	uint64		last_ops;
	IobHistogram *swap;
	int			i;

	iob_hist_reset(progress->scratch);
	for (i = 0; i < nworkers; i++)
	{
		iob_hist_merge(progress->scratch, &workers[i].hist[IOB_OP_READ]);
		iob_hist_merge(progress->scratch, &workers[i].hist[IOB_OP_WRITE]);
		bytes += workers[i].bytes[IOB_OP_READ] + workers[i].bytes[IOB_OP_WRITE];
	}
	measured_s = Max((double) (Min(now, run->end_ns) - run->measure_start_ns) / IOB_NS_PER_SEC, 1e-3);
	total_ops = progress->scratch->count;
	total_p99 = iob_hist_percentile(progress->scratch, 99.0);
	format_rate(total_rate, sizeof(total_rate), (double) bytes / measured_s);
	format_latency(total_p99_text, sizeof(total_p99_text), total_p99);

	/*
	 * The last interval: the histogram now minus the copy kept at the
	 * previous NOTICE, computed over that copy; then the two swap, so that
	 * the histogram of now is the copy for the next NOTICE.
	 */
	iob_hist_diff(progress->prev, progress->scratch, progress->prev);
	last_ops = progress->prev->count;
	format_rate(last_rate, sizeof(last_rate),
				(double) (bytes - progress->last_bytes) / interval_s);
	if (last_ops > 0)
		format_latency(last_p99, sizeof(last_p99),
					   iob_hist_percentile(progress->prev, 99.0));
	else
		strlcpy(last_p99, "-", sizeof(last_p99));
	swap = progress->prev;
	progress->prev = progress->scratch;
	progress->scratch = swap;

	ereport(NOTICE,
			(errmsg("iobench: %.0f/%.0f s: last %.0f s %.0f IOPS, %s, p99 %s; total %.0f IOPS, %s, p99 %s",
					(double) Min(now - run->measure_start_ns, run->end_ns - run->measure_start_ns) / IOB_NS_PER_SEC,
					(double) run->params.duration_us / USECS_PER_SEC,
					interval_s, (double) last_ops / interval_s, last_rate, last_p99,
					(double) total_ops / measured_s, total_rate, total_p99_text)));
	progress->last_bytes = bytes;
}

/*
 * Count, over every worker, the I/Os of each kind that took at least the
 * stall latency, and the longest I/O of each kind so far.
 */
static void
slow_ios(const IobProgress *progress, const IobWorkerState *workers, int nworkers,
		 uint64 *slow, uint64 *longest)
{
	int			i;
	int			k;
	int			b;

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		slow[k] = 0;
		longest[k] = 0;
		for (i = 0; i < nworkers; i++)
		{
			const IobHistogram *h = &workers[i].hist[k];

			for (b = progress->slow_bucket; b < IOB_HIST_BUCKETS; b++)
				slow[k] += h->buckets[b];
			longest[k] = Max(longest[k], h->max_ns);
		}
	}
}

/*
 * Once a second of the measured period: print a NOTICE when that second
 * was a stall (see IOB_STALL_RATE_SHARE), as it happens, so that a long
 * burn-in shows its stalls without waiting for stalls() at the end.
 */
static void
check_stall(IobProgress *progress, const IobRunShared *run,
			const IobWorkerState *workers, int nworkers, int64 now)
{
	uint64		ops = 0;
	uint64		slow[IOB_NUM_OP_KINDS];
	uint64		longest[IOB_NUM_OP_KINDS];
	double		second_s = (double) (now - progress->stall_last_ns) / IOB_NS_PER_SEC;
	double		base_s = (double) (progress->stall_last_ns - run->measure_start_ns) / IOB_NS_PER_SEC;
	int			second = (int) (base_s + 0.5);
	double		rate;
	double		base_rate;
	StringInfoData msg;
	int			i;
	int			k;

	for (i = 0; i < nworkers; i++)
		ops += workers[i].hist[IOB_OP_READ].count + workers[i].hist[IOB_OP_WRITE].count;
	slow_ios(progress, workers, nworkers, slow, longest);

	initStringInfo(&msg);
	rate = (double) (ops - progress->stall_last_ops) / second_s;
	base_rate = base_s > 0 ? (double) progress->stall_last_ops / base_s : 0;
	if (base_s >= IOB_STALL_MIN_BASE_S && second_s >= 0.5 &&
		rate < IOB_STALL_RATE_SHARE * base_rate)
		appendStringInfo(&msg, "%.0f IOPS, %.0f %% of the %.0f IOPS so far",
						 rate, 100.0 * rate / base_rate, base_rate);
	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		uint64		n = slow[k] - Min(slow[k], progress->stall_slow[k]);
		char		lat[32];

		if (n == 0)
			continue;
		format_latency(lat, sizeof(lat), (double) progress->slow_ns);
		appendStringInfo(&msg, "%s" UINT64_FORMAT " %s took over %s",
						 msg.len > 0 ? "; " : "", n,
						 n == 1 ? op_singular[k] : op_plural[k], lat);
		if (longest[k] > progress->stall_longest[k])
		{
			format_latency(lat, sizeof(lat), (double) longest[k]);
			appendStringInfo(&msg, ", the longest %s", lat);
		}
	}
	if (msg.len > 0)
		ereport(NOTICE,
				(errmsg("iobench: stall in second %d: %s", second, msg.data)));
	pfree(msg.data);

	progress->stall_last_ns = now;
	progress->stall_last_ops = ops;
	memcpy(progress->stall_slow, slow, sizeof(slow));
	memcpy(progress->stall_longest, longest, sizeof(longest));
}

/* See run_progress.h */
void
iob_progress_report(IobProgress *progress, const IobRunShared *run,
					const IobWorkerState *workers, int nworkers, int64 now)
{
	double		interval_s;

	if (!iobench_progress)
		return;

	/* stalls: every whole second of the measured period, as it ends */
	if (now >= run->measure_start_ns && progress->stall_last_ns < run->end_ns &&
		now - progress->stall_last_ns >= IOB_NS_PER_SEC)
		check_stall(progress, run, workers, nworkers, Min(now, run->end_ns));

	if (now - progress->last_ns < progress->every_ns)
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
