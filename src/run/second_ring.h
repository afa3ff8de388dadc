/*-------------------------------------------------------------------------
 *
 * second_ring.h
 *	  The per-second figures of a running run on their way to the tables:
 *	  the shared ring of seconds and each worker's late ring.
 *
 * A worker adds each second it ends to the run's ring of seconds
 * (IobSecondSlot, run_shared.h), or, when that second is closed or its
 * slot is not free yet, to its own late ring (IobWorkerState.late).  The
 * recorder (recorder.h) takes both into live_seconds; whoever stores the
 * run (run_summary.h, run_store.h) takes what the recorder did not commit.  Nothing is
 * dropped: what fits in neither ring is counted in lost_ops, and the
 * stored run says so.
 *
 * Rules:
 *	- Closing.  The recorder advances run->seconds_drained past second s
 *	  once every worker is past s (and steady-state detection, when on,
 *	  has sampled it), or once s is IOB_SECOND_LATE_AFTER seconds old: a
 *	  stuck worker does not hold the others up.
 *	- Adding.  A worker announces the second it adds in "flushing", then
 *	  (full barrier) reads seconds_drained and seconds_stored: it adds to
 *	  the ring only a second not closed whose slot is free (below
 *	  seconds_stored + IOB_SECOND_RING), else to its late ring.  The
 *	  recorder takes a closed second only when no worker announces it, so
 *	  a second is never read while a worker adds to it, and nothing is
 *	  added to a second already read.
 *	- Freeing.  The recorder reads slots without zeroing them; after the
 *	  commit that stored them (with live_runs.ring_stored and late_stored
 *	  in the same transaction) it zeroes them and advances seconds_stored
 *	  and each worker's late_stored.  A recorder that fails or dies before
 *	  its commit leaves every figure where it was.
 *	- Late entries are written by their worker before it advances
 *	  late_head (write barrier); a worker writes one only while fewer than
 *	  IOB_LATE_RING are not committed.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SECOND_RING_H
#define IOBENCH_SECOND_RING_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "storage/shm_toc.h"

#include "run_shared.h"

/* What the recorder took and has not committed yet */
typedef struct IobRingReader
{
	uint32		taken;			/* seconds read from the ring */
	uint64	   *late_taken;		/* [workers]: late entries read */
} IobRingReader;

/*
 * Worker: add its figures of second "sec" (arrays by op kind) to the ring,
 * or to its late ring; zeroes them.
 */
extern void iob_ring_add(IobRunShared *run, IobSecondSlot *seconds,
						 IobWorkerState *ws, int sec, uint64 *ops,
						 uint64 *bytes, uint64 *lat_sum_ns, uint64 *lat_max_ns);

/* Recorder: set up "rd" for a run of "nworkers" */
extern void iob_ring_reader_init(IobRingReader *rd, int nworkers);

/*
 * Recorder: close the seconds that are due at "now" (every second of the
 * run with "all": the workers are done), and append to "rows" (a JSON
 * array under construction) the closed seconds and late entries not taken
 * yet, as objects {second, op, ops, bytes, lat_sum_us, lat_max_us}.
 */
extern void iob_ring_take(IobRingReader *rd, IobRunShared *run,
						  IobWorkerState *workers, IobSecondSlot *seconds,
						  int64 now, bool all, StringInfo rows);

/* Recorder: what it took, as live_runs.late_stored's array text */
extern char *iob_ring_late_text(IobRingReader *rd, int nworkers);

/* Recorder: the commit stored what it took; free it */
extern void iob_ring_committed(IobRingReader *rd, IobRunShared *run,
							   IobWorkerState *workers, IobSecondSlot *seconds);

/* Recorder: the commit failed; take the same figures again next time */
extern void iob_ring_uncommitted(IobRingReader *rd, IobRunShared *run,
								 IobWorkerState *workers);

/*
 * Whoever stores the run, once its workers are done: every figure the
 * recorder may not have committed, as a JSON array of {w, n, second, op,
 * ops, bytes, lat_sum_us, lat_max_us} (w: the worker of a late entry, -1
 * for a second of the ring; n: the entry's number or the second), and in
 * *lost_ops the I/Os counted in no second.
 */
extern char *iob_ring_leftovers(shm_toc *toc, int nworkers, uint64 *lost_ops);

#endif							/* IOBENCH_SECOND_RING_H */
