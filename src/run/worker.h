/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  The benchmark background worker: one process per "workers" of a run.
 *
 * A worker attaches to its run's DSM segment (run_shared.h), opens the
 * files, allocates its queue and buffers, waits for "go", and then owns the
 * I/O loop: what comes next (workload.h), issuing it (engine.h), timing and
 * counting it into its own IobWorkerState and the shared per-second series,
 * stalls and cold reads included.  It reports an error in its slot for the
 * launcher to raise.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WORKER_H
#define IOBENCH_WORKER_H

#include "postgres.h"

/* Entry point named in BackgroundWorker.bgw_function_name */
extern PGDLLEXPORT void iobench_worker_main(Datum main_arg);

#endif							/* IOBENCH_WORKER_H */
