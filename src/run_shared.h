/*-------------------------------------------------------------------------
 *
 * run_shared.h
 *	  Layout of a run's dynamic shared memory segment.
 *
 * The launching backend creates one DSM segment per run, carved with
 * shm_toc into:
 *
 *	IOB_KEY_RUN		IobRunShared: settings, file location, clock marks,
 *					phase and counters of ready/finished workers
 *	IOB_KEY_WORKERS	IobWorkerState[workers]: one slot per worker
 *	IOB_KEY_SECONDS	IobSecondSlot[nseconds][IOB_NUM_OP_KINDS]: the
 *					per-second time series of the measured period
 *	IOB_KEY_STORE	IobRunStoreInfo (run_store.h): the launcher's facts
 *					about the run, for whoever stores it
 *
 * Ownership and locking rules:
 *	- The launcher writes IobRunShared before any worker starts; after that
 *	  only "phase" (atomic) and the clock marks change, and the clock marks
 *	  are written before phase moves to IOB_PHASE_RUN (with a write barrier).
 *	- Each IobWorkerState is written only by its own worker; the launcher
 *	  reads it without a lock (counters are aligned 64-bit values, so a read
 *	  may be stale but never torn) for progress, and reads it for the final
 *	  result only after the worker counted itself in "nfinished".
 *	- IobSecondSlot counters are added to with atomics by every worker, once
 *	  per worker per second, so contention is negligible.
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

#include "engine.h"
#include "histogram.h"
#include "run_options.h"

#define IOB_SHM_MAGIC		0x10BE7C40

#define IOB_KEY_RUN			1
#define IOB_KEY_WORKERS		2
#define IOB_KEY_SECONDS		3

typedef enum IobRunPhase
{
	IOB_PHASE_PREPARE = 0,		/* workers open files and wait for "go" */
	IOB_PHASE_RUN,				/* warm-up then measured period */
	IOB_PHASE_STOP				/* stop issuing I/O, drain and exit */
} IobRunPhase;

typedef struct IobRunShared
{
	IobRunParams params;
	IobEngineKind engine;		/* engine the workers use (auto resolved) */
	char		dir[MAXPGPATH]; /* the tablespace's temporary-file directory */
	char		file_prefix[64];	/* files are dir/file_prefix.N */
	int			launcher_procno;
	int			nseconds;		/* rows of the seconds array */

	/* clock marks (iob_now_ns), valid once phase >= IOB_PHASE_RUN */
	int64		start_ns;		/* warm-up starts */
	int64		measure_start_ns;	/* measured period starts */
	int64		end_ns;			/* measured period ends */
	int64		stop_ns;		/* when the launcher said stop (cancel), or 0;
								 * written before phase moves to STOP */

	pg_atomic_uint32 phase;		/* IobRunPhase */
	pg_atomic_uint32 nready;	/* workers ready for "go" */
	pg_atomic_uint32 nfinished; /* workers done (result final) */
} IobRunShared;

/*
 * Stall events: a write (plus the sync it triggered) slower than the run's
 * stall_threshold_us (pgiosim's "WRITE STALL").  Each worker keeps a fixed
 * number of them, no allocation on the I/O path: once full, a new event
 * replaces the shortest one kept when it is longer, so the worst survive.
 * Every event is counted in nstalls, kept or not.
 */
#define IOB_MAX_STALL_EVENTS	64

typedef struct IobStallEvent
{
	int64		at_ns;			/* completion of the sync (or write), from the
								 * start of the measured period */
	int			file_index;
	uint64		offset;			/* of the write */
	int64		write_ns;		/* write latency */
	int64		sync_ns;		/* latency of the sync that followed (0: none) */
} IobStallEvent;

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
	uint64		io_errors;
	double		cpu_user_s;
	double		cpu_sys_s;

	/* digest of the first ops issued, for seed reproducibility */
	uint64		offset_digest;

	/* stalls (only when params.stall_threshold_us > 0), measured period */
	uint64		nstalls;		/* every stall seen */
	int			nstall_events;	/* entries used in stall_events */
	IobStallEvent stall_events[IOB_MAX_STALL_EVENTS];
} IobWorkerState;

typedef struct IobSecondSlot
{
	pg_atomic_uint64 ops;
	pg_atomic_uint64 bytes;
	pg_atomic_uint64 lat_sum_ns;
	pg_atomic_uint64 lat_max_ns;
} IobSecondSlot;

/* Slot of second "sec" and op kind "kind" in the seconds array */
static inline IobSecondSlot *
iob_second_slot(IobSecondSlot *seconds, int sec, IobOpKind kind)
{
	return &seconds[sec * IOB_NUM_OP_KINDS + kind];
}

#endif							/* IOBENCH_RUN_SHARED_H */
