/*-------------------------------------------------------------------------
 *
 * steady_state.h
 *	  Ending a run once it has reached steady state (fio's ss=).
 *
 * With steady_state set, the launcher looks at each full second of the
 * measured period as soon as it is over: once every second of the last
 * steady_window seconds has its IOPS (data I/O) or its mean latency within
 * steady_band per cent of their mean, the run has reached steady state and
 * ends there, stored as completed with the shorter measured period and the
 * second it was reached.  A run that never gets there runs its duration.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_STEADY_STATE_H
#define IOBENCH_STEADY_STATE_H

#include "postgres.h"

#include "run_validate.h"
#include "run_shared.h"

/* The launcher's view of a run's steady state */
typedef struct IobSteadyState
{
	int			checked;		/* full seconds looked at so far */
	double		samples[IOB_MAX_STEADY_WINDOW_S];	/* of the last seconds
													 * looked at, by second
													 * modulo the size */
	bool		reached;
	int			at_s;			/* second of the measured period it was
								 * reached at (the end of the window) */
} IobSteadyState;

/*
 * Look at the seconds that are over at "now"; true once steady state is
 * reached (then *ss says when).  Does nothing without steady_state.
 */
extern bool iob_steady_poll(IobSteadyState *ss, IobRunShared *run,
							IobSecondSlot *seconds, int64 now);

/*
 * At the end of a run with steady_state that never reached it, a NOTICE
 * saying so and what to try; nothing otherwise.
 */
extern void iob_steady_report_end(const IobSteadyState *ss,
								  const IobRunParams *params);

#endif							/* IOBENCH_STEADY_STATE_H */
