/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  The benchmark background worker.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WORKER_H
#define IOBENCH_WORKER_H

#include "postgres.h"

/* Entry point named in BackgroundWorker.bgw_function_name */
extern PGDLLEXPORT void iobench_worker_main(Datum main_arg);

#endif							/* IOBENCH_WORKER_H */
