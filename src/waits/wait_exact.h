/*-------------------------------------------------------------------------
 *
 * wait_exact.h
 *	  Wait statistics, beside layer 4: the exact counts PostgreSQL keeps of
 *	  some waits, taken over the same window as the samples, so that
 *	  WaitCount and AvgWait_S need not rest on a sampled lower bound.
 *
 *	IO:DataFileRead		reads of relation data: pg_stat_io (16+) or
 *						pg_stat_database (15); time under track_io_timing
 *	IO:WALWrite			WAL writes: pg_stat_wal (15-17) or pg_stat_io (18+);
 *	IO:WALSync			WAL syncs of the same views; time under
 *						track_wal_io_timing
 *
 * These are instance-wide counters: they belong beside a table of the whole
 * instance, not of a set of processes.  PostgreSQL's backends report them
 * in batches (at most about once a second, and when idle), so a window of
 * a few seconds can be off by a second's worth at either end.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_EXACT_H
#define IOBENCH_WAIT_EXACT_H

#include "postgres.h"

#include "wait_output.h"

/* The counters read at one moment */
#define IOB_WAIT_EXACT_KINDS	3

typedef struct IobWaitCounters
{
	double		count[IOB_WAIT_EXACT_KINDS];
	double		ms[IOB_WAIT_EXACT_KINDS];
	bool		timed[IOB_WAIT_EXACT_KINDS];	/* timing was on */
} IobWaitCounters;

extern void iob_wait_counters_read(IobWaitCounters *counters);
extern int	iob_wait_counters_diff(const IobWaitCounters *start,
								   const IobWaitCounters *end,
								   IobWaitExact *exact);

#endif							/* IOBENCH_WAIT_EXACT_H */
