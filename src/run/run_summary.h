/*-------------------------------------------------------------------------
 *
 * run_summary.h
 *	  A finished run's record (IobRunSummary, results/run_record.h), merged
 *	  from its segment: what the launcher and the storer store.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_SUMMARY_H
#define IOBENCH_RUN_SUMMARY_H

#include "postgres.h"

#include "storage/shm_toc.h"
#include "utils/timestamp.h"

#include "results/results.h"

/* Merge the workers' final figures of the run in "toc" into *s */
extern void iob_summarize_run(IobRunSummary *s, shm_toc *toc);

#endif							/* IOBENCH_RUN_SUMMARY_H */
