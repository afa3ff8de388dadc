/*-------------------------------------------------------------------------
 *
 * run_record.h
 *	  A run's record: everything known about a run once its workers are
 *	  gone, as the runs tables store it (run_store.h).
 *
 * The run subsystem fills it from the run's shared segment
 * (run/run_summary.c); nothing here knows that segment.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_RECORD_H
#define IOBENCH_RUN_RECORD_H

#include "postgres.h"

#include "utils/timestamp.h"

#include "engine/engine.h"
#include "histogram.h"
#include "run_params.h"
#include "device/device.h"

/* One worker's figures for one tablespace of the group */
typedef struct IobGroupStats
{
	IobHistogram hist[IOB_NUM_OP_KINDS];
	uint64		bytes[IOB_NUM_OP_KINDS];
} IobGroupStats;

/*
 * A stall event: a write (plus the sync it triggered) slower than the run's
 * stall_threshold_us (pgiosim's "WRITE STALL"); the workers keep the worst
 * (run/run_shared.h)
 */
typedef struct IobStallEvent
{
	int64		at_ns;			/* completion of the sync (or write), from the
								 * start of the measured period */
	int			file_index;
	uint64		offset;			/* of the write */
	int64		write_ns;		/* write latency */
	int64		sync_ns;		/* latency of the sync that followed (0: none) */
} IobStallEvent;

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
	IobEngineShared engine_shared;	/* the engine's run-wide state (engine.h) */
	IobEngineCounts engine_counts;	/* ... and its workers' counts, summed */
} IobRunSummary;

#endif							/* IOBENCH_RUN_RECORD_H */
