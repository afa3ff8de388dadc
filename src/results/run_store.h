/*-------------------------------------------------------------------------
 *
 * run_store.h
 *	  Storing a finished run in iobench.runs, run_seconds, run_latency,
 *	  run_stalls and (diskstats.h) run_disk_seconds.
 *
 * The launcher merges its workers' figures into an IobRunSummary, the one
 * description of a finished run; iob_store_run() writes it (through
 * owner_spi.h) and returns the row.  The wait statistics of the run are
 * stored beside it by wait_run.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_STORE_H
#define IOBENCH_RUN_STORE_H

#include "postgres.h"

#include "access/htup.h"
#include "utils/timestamp.h"

#include "run_record.h"

/*
 * Insert the run and its children (as the owner of the iobench schema, so
 * callers need no write access to the tables); returns the new
 * iobench.runs row as a composite Datum.
 */
extern Datum iob_store_run(const IobRunSummary *summary);

/*
 * Read the run's live rows into "summary" (iob_store_run() stores them
 * from there): for a recorder that committed every second and waits to
 * delete its rows itself (recorder.h).
 */
extern void iob_take_live_rows(IobRunSummary *summary);

/*
 * The same row without storing anything, run_id NULL: for a run on a hot
 * standby or in a read-only transaction, where nothing can be written.
 */
extern Datum iob_unstored_run(const IobRunSummary *summary);

/*
 * The run_id of a new run, taken from iobench.runs' sequence when the run
 * starts, so that its recorder's live rows carry it (recorder.h).
 */
extern int64 iob_reserve_run_id(void);

/*
 * The run_id of an iobench.runs row as iob_store_run() and
 * iob_unstored_run() return it, 0 for a run not stored; and when
 * "completed" is not NULL, whether the run ran to its end (status
 * "completed", "incomplete", or "invalid": engine "postgres" read from
 * memory, engine_postgres_settings.c).
 */
extern int64 iob_run_row_id(Datum row, bool *completed);


#endif							/* IOBENCH_RUN_STORE_H */
