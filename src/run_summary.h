/*-------------------------------------------------------------------------
 *
 * run_summary.h
 *	  Everything known about a finished run, merged from its segment: the
 *	  one description of a run that the launcher and the storer store
 *	  (run_store.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_SUMMARY_H
#define IOBENCH_RUN_SUMMARY_H

#include "postgres.h"

#include "storage/shm_toc.h"
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
	IobHistogram commit_hist;	/* commits (iob_params_commits), merged */
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
	IobServerShared server;		/* engine "postgres": the relation and the
								 * settings of the read path ... */
	IobServerCounts server_counts;	/* ... and the workers' counts, summed */
} IobRunSummary;

/* Merge the workers' final figures of the run in "toc" into *s */
extern void iob_summarize_run(IobRunSummary *s, shm_toc *toc);

#endif							/* IOBENCH_RUN_SUMMARY_H */
