/*-------------------------------------------------------------------------
 *
 * run.h
 *	  Running one benchmark: the launcher side.
 *
 * iob_execute_run() is the one way a run happens: iobench.run() and the
 * presets built on it (pgiosim, suites) fill an IobRunParams and call it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include "postgres.h"

#include "run_options.h"

/*
 * Run the benchmark described by *params: create the files, start the
 * workers, wait for them while reporting progress, store the result.
 * Returns the stored iobench.runs row as a composite Datum.  An error once
 * measuring began (cancel included) stops the workers, stores the partial
 * run as "cancelled" from a process that commits on its own (run_store.c),
 * removes everything the run made and is re-thrown with a DETAIL naming
 * the stored run.
 */
extern Datum iob_execute_run(const IobRunParams *params, const char *label);

#endif							/* IOBENCH_RUN_H */
