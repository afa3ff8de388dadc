/*-------------------------------------------------------------------------
 *
 * run_launcher.h
 *	  Running one benchmark: the launcher side (run_launcher.c).
 *
 * iob_execute_run() is the one way a run happens: iobench.run() and
 * pgiosim() (pgiosim.c) fill an IobRunParams and call it; a campaign's
 * steps are iobench.run() calls (campaigns/campaign.h).  The launcher owns the run from the first check to the stored row:
 * the DSM segment, the files, the workers, the wait loop with its progress
 * NOTICEs (run_progress.h) and wait sampling (wait_run.h), cancel and
 * clean-up, the merge of the workers' figures (run_summary.h) and the
 * stored row (run_store.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_LAUNCHER_H
#define IOBENCH_RUN_LAUNCHER_H

#include "postgres.h"

#include "run_validate.h"
#include "run_progress.h"

/* How a run ended, as iob_execute_run() reports it */
typedef struct IobRunResult
{
	int64		run_id;			/* the iobench.runs row it is stored as; 0
								 * when nothing was stored */
	bool		failed;			/* it ended in an error, re-thrown: run_id is
								 * the partial run its storer committed */
	bool		completed;		/* it ran to its end (status "completed",
								 * "incomplete" or "invalid") */
	Datum		row;			/* that row as a composite Datum (run_id NULL
								 * when not stored); 0 after an error */
} IobRunResult;

/*
 * Run the benchmark described by *params: create the files, start the
 * workers, wait for them while reporting progress, store the result, and
 * say in *result how it ended.  An error once measuring began (cancel
 * included) stops the workers, stores the partial run as "cancelled" from
 * a process that commits on its own (store_worker.c), removes everything the
 * run made and is re-thrown with a DETAIL naming the stored run; *result
 * then says "failed" with that run's id (0 when it could not be stored),
 * for a caller that catches the error.  *result should be memory that survives the
 * longjmp (not a local of the frame that catches).  progress_style
 * chooses the progress NOTICE (run_progress.h): iobench.run()'s, or
 * pgiosim's.
 */
extern void iob_execute_run(const IobRunParams *params, const char *label,
							IobProgressStyle progress_style,
							IobRunResult *result);

/*
 * The id of the partial run that the last run ending in an error had
 * stored (0: none since the last call), and forget it: a campaign whose
 * step failed lists that run (campaign.c).
 */
extern int64 iob_take_kept_run_id(void);

#endif							/* IOBENCH_RUN_LAUNCHER_H */
