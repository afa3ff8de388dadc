/*-------------------------------------------------------------------------
 *
 * wait_run.h
 *	  Wait statistics of a benchmark run: what the run launcher calls.
 *
 * The launcher samples while it waits for its workers, on its own loop:
 *
 *	ctx->waits = iob_wait_run_start(pids, npids, io_workers);	(once ready)
 *	loop:
 *		timeout = iob_wait_run_poll(ctx->waits, now, measure_start, end, timeout);
 *		sleep(timeout)
 *	row = iob_store_run(&summary);
 *	iob_wait_run_store(ctx->waits, row, &summary);
 *
 * Only the measured period is sampled, the period the workers' exact
 * figures cover (summary->measured_s: up to the cancel for a cancelled
 * run); the loop need not wake at its end, iob_wait_run_store() closes the
 * window there if no poll did.  iobench.run_waits chooses the scope: the run's workers,
 * the whole instance, or nothing (then start returns NULL and the other
 * calls do nothing).  io_workers: sample the server's I/O workers too and
 * keep their rows apart (engine "postgres"; wait_run.c says how).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_RUN_H
#define IOBENCH_WAIT_RUN_H

#include "postgres.h"

#include "results/results.h"

typedef struct IobWaitRun IobWaitRun;

extern IobWaitRun *iob_wait_run_start(const int *pids, int npids,
									  bool io_workers);
extern long iob_wait_run_poll(IobWaitRun *wr, int64 now_ns,
							  int64 measure_start_ns, int64 end_ns,
							  long timeout_ms);
extern void iob_wait_run_store(IobWaitRun *wr, Datum run_row,
							   const IobRunSummary *summary);

#endif							/* IOBENCH_WAIT_RUN_H */
