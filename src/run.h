/*-------------------------------------------------------------------------
 *
 * run.h
 *	  Running one benchmark: the launcher side (run_launcher.c).
 *
 * iob_execute_run() is the one way a run happens: iobench.run() and the
 * presets built on it (pgiosim.c, suite.c) fill an IobRunParams and call
 * it.  The launcher owns the run from the first check to the stored row:
 * the DSM segment, the files, the workers, the wait loop with its progress
 * NOTICEs (run_progress.h) and wait sampling (wait_run.h), cancel and
 * clean-up, and the merge of the workers' figures (results.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include "postgres.h"

#include "run_options.h"
#include "run_progress.h"

/*
 * Run the benchmark described by *params: create the files, start the
 * workers, wait for them while reporting progress, store the result.
 * Returns the stored iobench.runs row as a composite Datum.  An error once
 * measuring began (cancel included) stops the workers, stores the partial
 * run as "cancelled" from a process that commits on its own (run_store.c),
 * removes everything the run made and is re-thrown with a DETAIL naming
 * the stored run.  progress_style chooses the progress NOTICE
 * (run_progress.h): iobench.run()'s, or pgiosim's.
 */
extern Datum iob_execute_run(const IobRunParams *params, const char *label,
							 IobProgressStyle progress_style);

/*
 * The id under which the last run of this backend that ended in an error
 * was stored (by the storer, see run_store.h), or 0 when it stored nothing
 * or none failed since the last call of iob_execute_run().
 */
extern int64 iob_failed_run_id(void);

#endif							/* IOBENCH_RUN_H */
