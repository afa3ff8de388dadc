/*-------------------------------------------------------------------------
 *
 * histogram.h
 *	  Fixed-size log-linear latency histogram.
 *
 * Values are nanoseconds.  Below 64 ns every value has its own bucket;
 * above, each power of two is split into 64 equal sub-buckets, so a bucket
 * is at most 1/64 of its lower bound wide and the midpoint used to report
 * a value is within 0.8 % of any value in the bucket.  The top bucket
 * starts at 2^41 ns (about 36 minutes); larger values are clamped into it.
 *
 * A histogram is a flat array of counters with no pointers, so it can sit
 * in dynamic shared memory and be written by one worker while the launcher
 * reads it (torn reads are impossible for aligned 64-bit counters on the
 * platforms PostgreSQL supports; a reader may see a slightly stale count).
 * Recording does no allocation and no locking.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_HISTOGRAM_H
#define IOBENCH_HISTOGRAM_H

#include "postgres.h"

#define IOB_HIST_SUB_BITS		6	/* 64 sub-buckets per power of two */
#define IOB_HIST_SUB_COUNT		(1 << IOB_HIST_SUB_BITS)
#define IOB_HIST_MAX_EXP		41	/* 2^41 ns ~ 36 min: longer is clamped */
#define IOB_HIST_BUCKETS \
	(IOB_HIST_SUB_COUNT + (IOB_HIST_MAX_EXP - IOB_HIST_SUB_BITS + 1) * IOB_HIST_SUB_COUNT)

typedef struct IobHistogram
{
	uint64		count;			/* values recorded */
	uint64		sum_ns;			/* their sum, for the mean */
	uint64		min_ns;			/* exact minimum (UINT64_MAX when empty) */
	uint64		max_ns;			/* exact maximum */
	uint64		buckets[IOB_HIST_BUCKETS];
} IobHistogram;

extern void iob_hist_reset(IobHistogram *h);
extern int	iob_hist_bucket(uint64 value_ns);
extern uint64 iob_hist_bucket_lower(int bucket);
extern uint64 iob_hist_bucket_upper(int bucket);
extern void iob_hist_merge(IobHistogram *into, const IobHistogram *from);
extern double iob_hist_percentile(const IobHistogram *h, double pct);
extern double iob_hist_mean(const IobHistogram *h);
extern void iob_hist_diff(IobHistogram *into, const IobHistogram *later,
						  const IobHistogram *earlier);

/* Record one value: on the I/O path, so inline and branch-light */
static inline void
iob_hist_record(IobHistogram *h, uint64 value_ns)
{
	h->buckets[iob_hist_bucket(value_ns)]++;
	h->count++;
	h->sum_ns += value_ns;
	if (value_ns < h->min_ns)
		h->min_ns = value_ns;
	if (value_ns > h->max_ns)
		h->max_ns = value_ns;
}

#endif							/* IOBENCH_HISTOGRAM_H */
