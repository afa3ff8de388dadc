/*-------------------------------------------------------------------------
 *
 * store_worker.h
 *	  Who stores a run: the launcher in the caller's transaction, or the
 *	  storer, a background worker that commits on its own, for a run (or a
 *	  suite's or search's rows) whose statement failed.
 *
 * A completed run is stored by the launcher in the caller's transaction,
 * like any row a statement writes.  A run that ends in an error (cancel,
 * statement_timeout, termination of the caller, a worker's error) makes
 * the statement fail, so its transaction cannot keep the partial figures:
 * the launcher then starts an "iobench storer" background worker, which
 * attaches the run's segment, stores the run in a transaction of its own
 * and commits, and hands back the run id for the error's DETAIL.  The wait
 * statistics of the run live in the launcher (wait_run.c): it stores them
 * once in a subtransaction that it rolls back, and hands their rows to
 * the storer as jsonb (not possible when the caller is exiting: then the
 * run is stored without them).
 *
 * Everything the storer needs lies in the run's segment: IobRunShared, the
 * workers' states, the time series, and IobRunStoreInfo (IOB_KEY_STORE)
 * with the launcher's facts about the run.  The launcher writes the
 * IobRunStoreInfo fields before it registers the storer; the storer writes
 * run_id and error_message, then sets "done" (after a write barrier).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_STORE_WORKER_H
#define IOBENCH_STORE_WORKER_H

#include "postgres.h"

#include "port/atomics.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"

#include "run_shared.h"
#include "results/results.h"

/* The segment of iob_store_rows_detached(): an IobRunStoreInfo only */
#define IOB_STORE_MAGIC		0x10BE5702


/* The stored wait rows of run "run_id" as jsonb text, for the storer */
extern char *iob_export_run_waits(int64 run_id);

/*
 * The rows of a campaign that an error ended, for the storer: its row of
 * table "parent" whose column "key" is "id", its rows of "links", and the
 * runs they name but failed_run_id (which its storer has already
 * committed) with their children
 */
extern char *iob_export_campaign_rows(const char *parent, const char *links,
									  const char *key, int64 id,
									  int64 failed_run_id);

/*
 * Store the run of segment "seg" (and the rows of info->rows_handle) from a
 * background worker that commits on its own; waits (boundedly, not
 * interruptible) for it.  Returns true when stored (the run id in
 * info->run_id), else false with *why set to the reason.
 */
extern bool iob_store_detached(dsm_segment *seg, IobRunStoreInfo *info,
							   const char **why);

/*
 * Store rows of iobench's tables from a process that commits on its own:
 * "json" is a jsonb object whose keys are table names of iobench (suites,
 * searches, runs, run_seconds, run_latency, run_stalls, run_waits,
 * run_wait_sampling, suite_runs, search_steps) and whose values are arrays of rows as
 * to_jsonb() makes them; they are inserted in that order.  Returns false
 * with *why set when they could not be stored.
 */
extern bool iob_store_rows_detached(const char *json, const char **why);

#endif							/* IOBENCH_STORE_WORKER_H */
