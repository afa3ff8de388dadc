/*-------------------------------------------------------------------------
 *
 * results.h
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
#ifndef IOBENCH_RESULTS_H
#define IOBENCH_RESULTS_H

#include "postgres.h"

#include "access/htup.h"
#include "utils/timestamp.h"

#include "histogram.h"
#include "run_shared.h"
#include "storage.h"
#include "tablespace_group.h"

/* Everything known about a run once its workers are gone */
typedef struct IobRunSummary
{
	const IobRunParams *params;
	const char *label;
	const char *status;			/* "completed", "incomplete" (completed, but
								 * I/Os are missing from its seconds),
								 * "cancelled" or "failed" */
	int64		run_id;			/* the id to store it under (reserved when the
								 * run started); 0: the next one */
	IobEngineKind engine;		/* engine used */
	IobStorageInfo storage;
	TimestampTz started_at;
	TimestampTz finished_at;
	TimestampTz go_at;			/* the workers were told to start (0: never) */
	double		measured_s;		/* length of the measured period */
	IobHistogram hist[IOB_NUM_OP_KINDS];	/* merged over workers */
	uint64		bytes[IOB_NUM_OP_KINDS];
	double		cpu_user_s;
	double		cpu_sys_s;
	uint64		offset_digest;
	IobGroupStats *group;		/* [params->ngroup] per tablespace, or NULL */
	bool		steady_reached; /* params.steady_state: reached, ending the run */
	int			steady_at_s;	/* second of the measured period it was reached */
	uint64		stall_count;	/* every stall seen (params.stall_threshold_us) */
	int			nstall_events;	/* stall events kept by the workers */
	IobStallEvent *stall_events;	/* [nstall_events] */
	int		   *stall_workers;	/* worker of each event */
	char	   *leftover_seconds;	/* seconds the recorder may not have
									 * stored (second_ring.h), or NULL */
	uint64		lost_ops;		/* I/Os in no second (second_ring.h) */
	bool		live_taken;		/* the live rows below were read from a
								 * recorder that committed everything
								 * (iob_take_live_rows) */
	char	   *live_seconds;	/* its live_seconds rows, as JSON */
	char	   *live_disk_seconds;	/* its live_disk_seconds rows, as JSON */
	int32		ring_stored;	/* its live_runs.ring_stored ... */
	char	   *late_stored;	/* ... and late_stored, as array text */
} IobRunSummary;

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
 * "completed", or "incomplete").
 */
extern int64 iob_run_row_id(Datum row, bool *completed);


#endif							/* IOBENCH_RESULTS_H */
