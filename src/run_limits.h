/*-------------------------------------------------------------------------
 *
 * run_limits.h
 *	  Cluster-wide caps on what concurrent runs hold: background workers
 *	  and I/O buffer memory.
 *
 * With iobench in shared_preload_libraries the workers and buffer bytes
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

extern void iob_run_limits_init(void);
extern int	iob_max_workers_per_run(void);
extern void iob_limits_reserve(int workers, uint64 buffer_bytes);
extern void iob_limits_release(int workers, uint64 buffer_bytes);

#endif							/* IOBENCH_RUN_LIMITS_H */
