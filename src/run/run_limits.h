/*-------------------------------------------------------------------------
 *
 * run_limits.h
 *	  Cluster-wide caps on what concurrent runs hold: background worker
 *	  slots and I/O buffer memory; and the per-process limit on open files.
 *
 * A run holds a background worker slot per worker and one more
 * (IOB_RUN_HELPER_SLOTS) for its recorder, whose slot the storer of a
 * failed run takes over once the recorder has exited (store_worker.h).  The
 * caps count those slots: iobench.max_workers_per_run for one run,
 * iobench.max_workers_total for all runs together; both are held within
 * what max_worker_processes leaves after the workers started with the
 * server, less one slot that iobench always leaves free.
 *
 * With iobench in shared_preload_libraries the slots and buffer bytes
 * every run holds are counted in a small struct of the main shared memory,
 * and a run that would take the sum over iobench.max_workers_total or
 * iobench.max_buffer_memory_total is refused before it creates anything.
 * Without preload there is nowhere to count concurrent runs (a DSM
 * registry needs PostgreSQL 17), so the caps apply to each run alone: a
 * conservative fallback that still keeps one run from holding everything.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_LIMITS_H
#define IOBENCH_RUN_LIMITS_H

#include "postgres.h"

/* Slots a run holds besides its workers: the recorder, then the storer */
#define IOB_RUN_HELPER_SLOTS	1

extern void iob_run_limits_init(void);

/*
 * The upper bound of the "workers" argument: the slots one run may hold,
 * less its recorder's.  Raises an error when not even one worker fits.
 */
extern int	iob_max_workers_per_run(void);

/*
 * Count a run's slots (workers plus IOB_RUN_HELPER_SLOTS) and buffer bytes
 * against the caps, or refuse it (53400) saying how many slots are free.
 */
extern void iob_limits_reserve(int workers, uint64 buffer_bytes);

/* Take back what iob_limits_reserve() counted; never raises an error */
extern void iob_limits_release(int workers, uint64 buffer_bytes);

/*
 * One slot for a process outside a run (the storer of a failed suite):
 * false when the cap leaves none; raises no error.  Give it back with
 * iob_limits_release_slot().
 */
extern bool iob_limits_try_slot(void);
extern void iob_limits_release_slot(void);

/*
 * The limit on open files of one process, which holds every file of a run
 * in each worker: iob_check_fd_limit() refuses a run whose "files" cannot
 * all be open (53400); iob_raise_fd_limit(), in a worker, raises the soft
 * limit by "files" up to the hard one.
 */
extern void iob_check_fd_limit(int files);
extern void iob_raise_fd_limit(int files);

#endif							/* IOBENCH_RUN_LIMITS_H */
