/*-------------------------------------------------------------------------
 *
 * clock.h
 *	  The one clock of iobench: monotonic nanoseconds.
 *
 * Every timestamp iobench takes — an I/O's submission and completion, the
 * clock marks of a run, a wait sampler's ticks — comes from iob_now_ns(), so
 * they can be subtracted from one another in any process of the server.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_CLOCK_H
#define IOBENCH_CLOCK_H

#include "postgres.h"

#include <time.h>

#define IOB_NS_PER_SEC		INT64CONST(1000000000)

/* Monotonic clock in nanoseconds, the time base of every timestamp */
static inline int64
iob_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * IOB_NS_PER_SEC + ts.tv_nsec;
}

#endif							/* IOBENCH_CLOCK_H */
