/*-------------------------------------------------------------------------
 *
 * histogram.c
 *	  Log-linear latency histogram: bucket arithmetic, merge, percentiles.
 *
 * See histogram.h for the bucket layout and its error bound.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "histogram.h"

/* Empty the histogram */
void
iob_hist_reset(IobHistogram *h)
{
	memset(h, 0, sizeof(IobHistogram));
	h->min_ns = PG_UINT64_MAX;
}

/* Index of the bucket holding value_ns */
int
iob_hist_bucket(uint64 value_ns)
{
	int			exp;
	int			sub;

	if (value_ns < IOB_HIST_SUB_COUNT)
		return (int) value_ns;
	exp = pg_leftmost_one_pos64(value_ns);
	if (exp > IOB_HIST_MAX_EXP)
		return IOB_HIST_BUCKETS - 1;
	sub = (int) ((value_ns >> (exp - IOB_HIST_SUB_BITS)) & (IOB_HIST_SUB_COUNT - 1));
	return IOB_HIST_SUB_COUNT + (exp - IOB_HIST_SUB_BITS) * IOB_HIST_SUB_COUNT + sub;
}

/* Smallest value that falls into the bucket */
uint64
iob_hist_bucket_lower(int bucket)
{
	int			exp;
	int			sub;

	if (bucket < IOB_HIST_SUB_COUNT)
		return (uint64) bucket;
	exp = (bucket - IOB_HIST_SUB_COUNT) / IOB_HIST_SUB_COUNT + IOB_HIST_SUB_BITS;
	sub = (bucket - IOB_HIST_SUB_COUNT) % IOB_HIST_SUB_COUNT;
	return ((uint64) 1 << exp) + ((uint64) sub << (exp - IOB_HIST_SUB_BITS));
}

/* First value past the bucket */
uint64
iob_hist_bucket_upper(int bucket)
{
	int			exp;

	if (bucket < IOB_HIST_SUB_COUNT)
		return (uint64) bucket + 1;
	exp = (bucket - IOB_HIST_SUB_COUNT) / IOB_HIST_SUB_COUNT + IOB_HIST_SUB_BITS;
	return iob_hist_bucket_lower(bucket) + ((uint64) 1 << (exp - IOB_HIST_SUB_BITS));
}

/* Add every count of "from" to "into" */
void
iob_hist_merge(IobHistogram *into, const IobHistogram *from)
{
	int			i;

	if (from->count == 0)
		return;
	for (i = 0; i < IOB_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	if (from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
}

/*
 * Value (ns) at percentile pct (0..100): the midpoint of the bucket holding
 * the rank, clamped to the exact minimum and maximum so p0/p100 and
 * single-bucket histograms are exact.  NaN-free: 0 for an empty histogram.
 */
double
iob_hist_percentile(const IobHistogram *h, double pct)
{
	uint64		rank;
	uint64		seen = 0;
	int			i;

	if (h->count == 0)
		return 0.0;
	/* the smallest value with at least pct % of values at or below it */
	/* the epsilon keeps 99.9 % of 1000 at rank 999, not 1000 */
	rank = (uint64) ceil(pct / 100.0 * (double) h->count - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < IOB_HIST_BUCKETS; i++)
	{
		seen += h->buckets[i];
		if (seen >= rank)
		{
			double		lo = (double) iob_hist_bucket_lower(i);
			double		hi = (double) iob_hist_bucket_upper(i);
			double		mid = (lo + hi - 1.0) / 2.0;

			if (mid < (double) h->min_ns)
				mid = (double) h->min_ns;
			if (mid > (double) h->max_ns)
				mid = (double) h->max_ns;
			return mid;
		}
	}
	return (double) h->max_ns;
}

/* Mean value in ns (0 for an empty histogram) */
double
iob_hist_mean(const IobHistogram *h)
{
	if (h->count == 0)
		return 0.0;
	return (double) h->sum_ns / (double) h->count;
}

/*
 * Into "into", the values recorded in cumulative histogram "later" since
 * "earlier", an older copy of it (the progress NOTICE's last interval);
 * "into" may be "earlier".  Counters read without a lock may lag a little,
 * so a bucket never goes below zero.  The exact minimum and maximum of the
 * interval are unknown: they become the bounds of its first and last
 * non-empty buckets, so percentiles stay within a bucket.
 */
void
iob_hist_diff(IobHistogram *into, const IobHistogram *later,
			  const IobHistogram *earlier)
{
	int			first = -1;
	int			last = -1;
	uint64		count = 0;
	int			i;

	into->sum_ns = later->sum_ns > earlier->sum_ns ? later->sum_ns - earlier->sum_ns : 0;
	for (i = 0; i < IOB_HIST_BUCKETS; i++)
	{
		into->buckets[i] = later->buckets[i] > earlier->buckets[i] ?
			later->buckets[i] - earlier->buckets[i] : 0;
		if (into->buckets[i] == 0)
			continue;
		count += into->buckets[i];
		if (first < 0)
			first = i;
		last = i;
	}
	into->count = count;
	into->min_ns = first < 0 ? PG_UINT64_MAX : iob_hist_bucket_lower(first);
	into->max_ns = last < 0 ? 0 : iob_hist_bucket_upper(last) - 1;
}
