/*-------------------------------------------------------------------------
 *
 * settings.h
 *	  The iobench.* settings (GUCs) and iobench's custom wait event, read
 *	  by every subsystem.
 *
 * All iobench.* settings are defined in one place, settings.c, and
 * declared here so that every file reads them under one name.  _PG_init()
 * (iobench.c) defines them, then calls one init function per subsystem
 * that has start-up work, then reserves the "iobench." prefix.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SETTINGS_H
#define IOBENCH_SETTINGS_H

#include "postgres.h"

#include "utils/wait_event.h"

/* iobench.progress: emit a progress NOTICE about once a second during a run */
extern bool iobench_progress;

/* iobench.io_uring: may runs use the io_uring engine (off: psync only) */
extern bool iobench_io_uring;

/*
 * iobench.max_workers_per_run: upper bound for the "workers" argument;
 * -1 is half of max_worker_processes (read it through
 * iob_max_workers_per_run(), run_limits.h)
 */
extern int	iobench_max_workers_per_run;

/* iobench.max_workers_total: workers of all runs in progress (-1: half) */
extern int	iobench_max_workers_total;

/* iobench.max_buffer_memory_total: MB of buffers of all runs in progress */
extern int	iobench_max_buffer_memory_total;

/* iobench.wait_snapshots_keep: snapshots snapshot_waits() keeps (0: all) */
extern int	iobench_wait_snapshots_keep;

/* The highest iobench.max_workers_per_run may be set to (also a SQL CHECK) */
#define IOB_MAX_WORKERS_PER_RUN	1024

/* iobench.sample_period: milliseconds between two wait samples */
extern int	iobench_sample_period;

/* iobench.run_waits: what a benchmark run samples */
typedef enum IobRunWaits
{
	IOB_RUN_WAITS_WORKERS = 0,	/* the run's workers */
	IOB_RUN_WAITS_INSTANCE,		/* every process of the instance */
	IOB_RUN_WAITS_OFF			/* no sampling */
} IobRunWaits;

extern int	iobench_run_waits;

/* iobench.sample_signal: read schedstat for the signal/resource split */
extern bool iobench_sample_signal;

/* iobench.max_wait_types: wait types a table holds (postmaster start) */
extern int	iobench_max_wait_types;

/*
 * The wait event iobench's own processes report while they wait on a run
 * (the launching backend, the run's recorder): the wait samplers leave it
 * out of every table, as they leave out their own, so that a benchmark
 * does not show up in the waits it measures.  17 and later name the wait
 * events of extensions (WaitEventExtensionNew()): there it is
 * Extension:IobenchRun, registered on first use in each process (every
 * process gets the same value); before 17 other tools show it as
 * Extension:Extension.
 */
extern uint32 iob_run_wait_event(void);
#define IOB_RUN_WAIT_EVENT	iob_run_wait_event()

/* Define every iobench.* setting (settings.c; _PG_init calls it first) */
extern void iob_define_settings(void);

#endif							/* IOBENCH_SETTINGS_H */
