/*-------------------------------------------------------------------------
 *
 * steady_state.c
 *	  Steady-state detection of a running benchmark (steady_state.h).
 *
 * The criterion is fio's "ss=iops:B%" / "ss=lat:B%": over the window,
 * every sample lies within B % of the window's mean.  Samples are iobench's
 * own per-second slots (run_shared.h); a worker adds its second to them
 * when its first I/O of the next second completes, so a second is looked at
 * only a moment (SETTLE_NS) after it ended.  The launcher keeps each
 * second's sample itself (IobSteadyState.samples), so the recorder only
 * waits until a second was sampled (seconds_checked) to store it, not for
 * the window.  A worker that completes no I/O
 * in that moment leaves its share out, which makes the second look
 * unsteady: detection is late, never early.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "base/base.h"
#include "steady_state.h"

/* How long after a second's end its slots are read */
#define SETTLE_NS	(200 * INT64CONST(1000000))

/* The sample of second "sec": data IOPS, or mean data latency (ns) */
static double
second_sample(const IobRunShared *run, IobSecondSlot *seconds, int sec)
{
	uint64		ops = 0;
	uint64		lat = 0;
	int			k;

	for (k = IOB_OP_READ; k <= IOB_OP_WRITE; k++)
	{
		IobSecondSlot *slot = iob_second_slot(seconds, sec, (IobOpKind) k);

		ops += pg_atomic_read_u64(&slot->ops);
		lat += pg_atomic_read_u64(&slot->lat_sum_ns);
	}
	if (run->params.steady_state == IOB_STEADY_IOPS)
		return (double) ops;
	return ops > 0 ? (double) lat / ops : NAN;
}

/* Are the window's samples ending at "last" within the band of their mean? */
static bool
window_steady(const IobRunShared *run, const IobSteadyState *ss, int last)
{
	int			w = run->params.steady_window_s;
	double		sum = 0;
	double		mean;
	int			i;

	for (i = last - w + 1; i <= last; i++)
	{
		double		v = ss->samples[i % IOB_MAX_STEADY_WINDOW_S];

		if (isnan(v) || v <= 0)
			return false;
		sum += v;
	}
	mean = sum / w;
	for (i = last - w + 1; i <= last; i++)
		if (fabs(ss->samples[i % IOB_MAX_STEADY_WINDOW_S] - mean) >
			run->params.steady_band_pct / 100.0 * mean)
			return false;
	return true;
}

/* See steady_state.h */
bool
iob_steady_poll(IobSteadyState *ss, IobRunShared *run,
				IobSecondSlot *seconds, int64 now)
{
	if (run->params.steady_state == IOB_STEADY_NONE || ss->reached ||
		run->measure_start_ns == 0)
		return false;
	/* each full second inside the measured period, once it has settled */
	while (ss->checked < run->nseconds - 1 &&
		   run->measure_start_ns + (int64) (ss->checked + 1) * IOB_NS_PER_SEC <= run->end_ns &&
		   now >= run->measure_start_ns + (int64) (ss->checked + 1) * IOB_NS_PER_SEC + SETTLE_NS)
	{
		int			sec = ss->checked++;
		bool		steady;

		ss->samples[sec % IOB_MAX_STEADY_WINDOW_S] = second_sample(run, seconds, sec);
		steady = sec + 1 >= run->params.steady_window_s && window_steady(run, ss, sec);
		/* sampled: the recorder may store the second now */
		pg_atomic_write_u32(&run->seconds_checked, (uint32) ss->checked);
		if (steady)
		{
			ss->reached = true;
			ss->at_s = sec + 1;
			return true;
		}
	}
	return false;
}

/* See steady_state.h */
void
iob_steady_report_end(const IobSteadyState *ss, const IobRunParams *params)
{
	const char *metric;

	if (params->steady_state == IOB_STEADY_NONE || ss->reached)
		return;
	metric = params->steady_state == IOB_STEADY_IOPS ? "IOPS" : "mean latency";
	ereport(NOTICE,
			(errmsg("iobench: steady state was not reached"),
			 errdetail("The run's %s per second never stayed within %g %% of their mean for %d seconds in a row; it ran its whole duration of %g s and is stored with steady_reached false.",
					   metric, params->steady_band_pct, params->steady_window_s,
					   (double) params->duration_us / USECS_PER_SEC),
			 errhint("Try a wider steady_band, a shorter steady_window or a longer duration; iobench.run_seconds shows how the %s moved.",
					 metric)));
}
