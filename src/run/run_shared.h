/*-------------------------------------------------------------------------
 *
 * run_shared.h
 *	  Layout of a run's dynamic shared memory segment.
 *
 * The launching backend creates one DSM segment per run
 * (iob_run_segment_create()), carved with shm_toc into:
 *
 *	IOB_KEY_RUN		IobRunShared: settings, file location, clock marks,
 *					phase and counters of ready/finished workers
 *	IOB_KEY_WORKERS	IobWorkerState[workers]: one slot per worker
 *	IOB_KEY_SECONDS	IobSecondSlot[IOB_SECOND_RING][IOB_NUM_OP_KINDS]: the
 *					per-second time series of the measured period, a
 *					ring of the last IOB_SECOND_RING seconds that the
 *					run's recorder (recorder.h) drains into the tables
 *					as the run goes, so its size does not depend on the
 *					duration
 *	IOB_KEY_STORE	IobRunStoreInfo: the launcher's facts about the run,
 *					for whoever stores it (store_worker.h)
 *
 * Ownership and locking rules:
 *	- The launcher writes IobRunShared before any worker starts; after that
 *	  only "phase" (atomic), the clock marks and the devices' first sample
 *	  ("disk", rules in diskstats.h) change, and the clock marks are written
 *	  before phase moves to IOB_PHASE_RUN (with a write barrier).
 *	- Each IobWorkerState is written only by its own worker; the launcher
 *	  reads it without a lock (counters are aligned 64-bit values, so a read
 *	  may be stale but never torn) for progress, and reads it for the final
 *	  result only after the worker counted itself in "nfinished".
 *	- IobSecondSlot counters are added to with atomics by every worker, once
 *	  per worker per second, so contention is negligible.  A worker
 *	  publishes in seconds_done the first second it may still add to; the
 *	  rules of closing, taking and freeing a second, and of the workers'
 *	  late rings, are second_ring.h's.
 *	- stall_ring entries are written by their worker before it advances
 *	  stall_head (write barrier); the recorder reads entries it has not seen,
 *	  up to IOB_STALL_RING behind the head.
 *
 *	- Each worker makes its figures final (last second flushed, CPU read)
 *	  on every exit, normal, ERROR or FATAL, before counting itself in
 *	  "nfinished" (worker.c, finish_worker).
 *
 * The segment is owned by the launcher's resource owner: an error in the
 * launcher detaches it, and it disappears when the last process attached
 * (a worker, or the storer of a failed run, which the launcher waits for)
 * detaches.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_SHARED_H
#define IOBENCH_RUN_SHARED_H

#include "postgres.h"

#include "port/atomics.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"

#include "device/device.h"
#include "engine/engine.h"
#include "results/results.h"
#include "run_validate.h"

#define IOB_SHM_MAGIC		0x10BE7C40

#define IOB_KEY_RUN			1
#define IOB_KEY_WORKERS		2
#define IOB_KEY_SECONDS		3

/*
 * Seconds the ring holds (second_ring.h).  The recorder closes a second
 * within moments of its end (a worker that completes no I/O for longer
 * delays it, up to IOB_SECOND_LATE_AFTER seconds), and frees its slot once it committed it, so
 * the ring only needs to outlast that lag and a recorder's short stall.
 */
#define IOB_SECOND_RING		256		/* 24 kB: 256 x 3 op kinds x 32 bytes */
#define IOB_SECOND_LATE_AFTER	10	/* well below the ring */

/*
 * Entries of a worker's late ring: the figures of a second the worker
 * added after the recorder had closed it (the worker was stuck), or that
 * the ring had no free slot for (the recorder was stuck).
 */
#define IOB_LATE_RING		32

typedef struct IobLateSecond
{
	int			second;
	int			kind;			/* IobOpKind */
	uint64		ops;
	uint64		bytes;
	uint64		lat_sum_ns;
	uint64		lat_max_ns;
} IobLateSecond;

typedef enum IobRunPhase
{
	IOB_PHASE_PREPARE = 0,		/* workers open files and wait for "go" */
	IOB_PHASE_RUN,				/* warm-up then measured period */
	IOB_PHASE_STOP				/* stop issuing I/O, drain and exit */
} IobRunPhase;

/* What the recorder does once it stored the rest (recorder.h) */
#define IOB_RECORDER_EXIT		1	/* exit: a storer process moves the rows */
#define IOB_RECORDER_HAND_OVER	2	/* wait for the launcher, delete, exit */

typedef struct IobRunShared
{
	IobRunParams params;
	IobEngineKind engine;		/* engine the workers use (auto resolved) */
	char		dir[MAXPGPATH]; /* the tablespace's temporary-file directory */
	char		group_dirs[IOB_MAX_GROUP][MAXPGPATH];	/* of each tablespace of
														 * a group (ngroup) */
	char		file_prefix[64];	/* files are dir/file_prefix.N */
	int			launcher_procno;
	int			launcher_pid;
	int			nseconds;		/* seconds of the measured period (the last
								 * one may be partial); the ring holds the
								 * latest IOB_SECOND_RING of them */
	int64		run_id;			/* the iobench.runs row the run will be, or
								 * 0 when nothing can be stored (standby,
								 * read-only): then no recorder */
	IobDiskShared disk;			/* the block devices to sample and their
								 * first sample (rules in diskstats.h) */
	IobEngineShared engine_shared;	/* the engine's run-wide state: what its
									 * prepare_run made (engine.h) */

	/* clock marks (iob_now_ns), valid once phase >= IOB_PHASE_RUN */
	int64		start_ns;		/* warm-up starts */
	int64		measure_start_ns;	/* measured period starts */
	int64		end_ns;			/* measured period ends */
	int64		stop_ns;		/* when the launcher said stop (cancel), or 0;
								 * written before phase moves to STOP */

	pg_atomic_uint32 phase;		/* IobRunPhase */
	pg_atomic_uint32 nready;	/* workers ready for "go" */
	pg_atomic_uint32 nfinished; /* workers done (result final) */
	pg_atomic_uint32 seconds_drained;	/* seconds closed: the workers add
										 * no more to their ring slots */
	pg_atomic_uint32 seconds_stored;	/* seconds the recorder committed:
										 * their slots are free again */
	pg_atomic_uint32 recorder_stop;	/* set by the launcher once its workers
									 * are gone: store the rest, then
									 * IOB_RECORDER_EXIT or _HAND_OVER */
	pg_atomic_uint32 recorder_final;	/* the recorder committed every
										 * second and waits for live_taken */
	pg_atomic_uint32 live_taken;	/* the launcher read the live rows: the
									 * recorder deletes them and exits */
	pg_atomic_uint32 seconds_checked;	/* seconds steady-state detection has
										 * sampled (the recorder waits for
										 * them when params.steady_state) */
} IobRunShared;

/*
 * Stall events: a write (plus the sync it triggered) slower than the run's
 * stall_threshold_us (pgiosim's "WRITE STALL").  Each worker keeps a fixed
 * number of them, no allocation on the I/O path: once full, a new event
 * replaces the shortest one kept when it is longer, so the worst survive.
 * Every event is counted in nstalls, kept or not.
 */
#define IOB_MAX_STALL_EVENTS	64
#define IOB_STALL_RING			16	/* stalls between two reads by the recorder */

typedef struct IobWorkerState
{
	int			worker_index;
	int			pid;
	int			procno;			/* PGPROC number, to set its latch */
	bool		finished;		/* set (before nfinished counts it) when done */
	int			error_code;		/* SQLSTATE of the error that stopped it */
	char		error_message[256];
	char		error_detail[256];

	/* measured period only */
	IobHistogram hist[IOB_NUM_OP_KINDS];
	uint64		bytes[IOB_NUM_OP_KINDS];
	IobHistogram commit_hist;	/* commits, when iob_params_commits() */
	uint64		io_errors;
	double		cpu_user_s;
	double		cpu_sys_s;

	/* digest of the first ops issued, for seed reproducibility */
	uint64		offset_digest;

	/* what the buffer manager saw, measured period (engine.h: counts) */
	IobEngineCounts engine_counts;

	/* stalls (only when params.stall_threshold_us > 0), measured period */
	uint64		nstalls;		/* every stall seen */
	int			nstall_events;	/* entries used in stall_events */
	IobStallEvent stall_events[IOB_MAX_STALL_EVENTS];

	/* for the recorder, as the run goes (see the rules above) */
	pg_atomic_uint32 seconds_done;	/* seconds below this are all added */
	pg_atomic_uint64 stall_head;	/* stalls ever put in stall_ring */
	IobStallEvent stall_ring[IOB_STALL_RING];

	/* seconds added outside the ring (second_ring.h) */
	pg_atomic_uint32 flushing;	/* second + 1 being added to the ring, or 0 */
	pg_atomic_uint64 late_head; /* entries ever put in "late" */
	pg_atomic_uint64 late_stored;	/* entries the recorder committed */
	IobLateSecond late[IOB_LATE_RING];
	uint64		lost_ops;		/* I/Os that fitted in neither ring */
} IobWorkerState;

typedef struct IobSecondSlot
{
	pg_atomic_uint64 ops;
	pg_atomic_uint64 bytes;
	pg_atomic_uint64 lat_sum_ns;
	pg_atomic_uint64 lat_max_ns;
} IobSecondSlot;

/*
 * The launcher's facts about the run (IOB_KEY_STORE), for whoever stores
 * it: the launcher in the caller's transaction, or the storer of a failed
 * run (store_worker.h)
 */
#define IOB_KEY_STORE		4

typedef struct IobRunStoreInfo
{
	/* written by the launcher */
	int			launcher_procno;	/* to wake when done */
	IobStorageInfo storage;
	TimestampTz started_at;
	TimestampTz finished_at;
	TimestampTz go_at;			/* the workers were told to start (0: never) */
	int			nworkers;		/* workers launched */
	int64		stopped_ns;		/* when the run was told to stop, or 0 */
	bool		completed;
	bool		steady_reached; /* steady state ended it (steady_state.h) */
	int			steady_at_s;
	char		status[16];		/* when not completed: "cancelled", "failed" */
	bool		has_label;

	/*
	 * Written by the launcher for a run that failed while its caller could
	 * still run SQL: the id the run is stored under, taken from the
	 * sequence in a subtransaction of the caller that stored the run and
	 * its wait statistics and then rolled back, and those wait rows as a
	 * jsonb text in a segment of their own (DSM_HANDLE_INVALID: none; see
	 * iob_store_rows_detached() for the format).
	 */
	int64		fixed_run_id;
	dsm_handle	rows_handle;

	/* written by the storer */
	int64		run_id;			/* 0: not stored */
	char		error_message[256]; /* why not, when not */
	pg_atomic_uint32 done;

	char		label[FLEXIBLE_ARRAY_MEMBER];
} IobRunStoreInfo;

/*
 * Create the segment of a run of "params" on "dir" (the tablespace's
 * temporary-file directory) with "engine", laid out as above with the
 * store info and, for a group, each worker's figures per tablespace
 * (tablespace_group.h): zeroed, atomics and histograms set up, the files
 * named.  The group's directories (run->group_dirs) are the caller's to
 * fill.  Returns its table of contents.
 */
extern shm_toc *iob_run_segment_create(const IobRunParams *params, const char *dir,
									   IobEngineKind engine, const char *label,
									   dsm_segment **seg);

/* Slot of second "sec" and op kind "kind" in the seconds array */
static inline IobSecondSlot *
iob_second_slot(IobSecondSlot *seconds, int sec, IobOpKind kind)
{
	return &seconds[(sec % IOB_SECOND_RING) * IOB_NUM_OP_KINDS + kind];
}

#endif							/* IOBENCH_RUN_SHARED_H */
