/*-------------------------------------------------------------------------
 *
 * wait_collector.h
 *	  Wait statistics driver: the always-on collector, a background worker
 *	  that adds every tick to a wait table in shared memory (see
 *	  wait_table.h for the layers).
 *
 * iob_wait_collector_init() is called from _PG_init().  When iobench is in
 * shared_preload_libraries, it requests the collector's shared memory and
 * registers the collector worker.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_COLLECTOR_H
#define IOBENCH_WAIT_COLLECTOR_H

#include "postgres.h"

#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "storage/lwlock.h"

#include "wait_table.h"

/*
 * The collector's shared state, followed in the same block by its table
 * (iob_wait_collector_table()).
 *
 * Locking: "lock" (tranche "iobench_waits") protects every field but
 * collector_pid, and the table.  The collector takes it exclusively once
 * per tick, only to add that tick's deltas (its reads of the PGPROCs happen
 * before, unlocked); iobench.reset_waits() takes it exclusively to clear;
 * readers take it shared just long enough to copy the table out, and
 * resolve names and build tuples after releasing it.
 *
 * collector_pid is an atomic, read and written without the lock: the
 * collector clears it from an on_shmem_exit callback, which also runs
 * after an ERROR that may have left "lock" held (a background worker's
 * error path exits without LWLockReleaseAll()), so it must not take it.
 */
typedef struct IobWaitCollector
{
	LWLock	   *lock;
	pg_atomic_uint32 collector_pid; /* 0 while no collector runs */
	int			period_ms;		/* the collector's current period */
	bool		have_schedstat; /* the collector can read schedstat */
	TimestampTz started_at;		/* collector start */
	TimestampTz reset_at;		/* start of the totals (start or reset) */
	uint64		ticks;			/* ticks added since reset_at */
	uint64		missed;			/* scheduled ticks skipped since reset_at */
	uint64		sampled_ns;		/* time the ticks covered since reset_at */
} IobWaitCollector;

extern void iob_wait_collector_init(void);
extern IobWaitTable *iob_wait_collector_table(IobWaitCollector *collector);
extern IobWaitCollector *iob_wait_collector_required(void);

extern PGDLLEXPORT void iobench_wait_collector_main(Datum main_arg);

#endif							/* IOBENCH_WAIT_COLLECTOR_H */
