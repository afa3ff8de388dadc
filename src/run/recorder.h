/*-------------------------------------------------------------------------
 *
 * recorder.h
 *	  A run's recorder: its seconds and stalls stored while it goes.
 *
 * Each run has one more background worker besides its I/O workers: the
 * recorder.  It commits, in transactions of its own, what the launcher
 * cannot while it waits inside the caller's statement: a row in
 * iobench.live_runs when the run starts, each second of the measured
 * period into iobench.live_seconds as soon as every worker is past it
 * (draining the ring of seconds in shared memory, run_shared.h), and each
 * stall into iobench.live_stalls as it happens.  Another session sees the
 * run going (iobench.running_runs); a crash keeps what was stored up to
 * it; memory does not grow with the duration.  When the run is stored,
 * the launcher copies the live seconds into iobench.run_seconds in the
 * caller's transaction, and the recorder deletes its live rows in a
 * transaction of its own (a run rolled back leaves none; a recorder the
 * launcher had to take over from leaves them to the caller's transaction).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RECORDER_H
#define IOBENCH_RECORDER_H

#include "postgres.h"

#include "postmaster/bgworker.h"
#include "storage/dsm.h"

#include "run_shared.h"

/*
 * Start the recorder of the run in segment "seg"; raises the same ERROR as
 * a worker that finds no slot.  The launcher starts it before the run's
 * files and workers: it waits for the "go" and writes nothing before, and
 * exits if the run stops first.
 */
extern BackgroundWorkerHandle *iob_recorder_launch(dsm_segment *seg);

/*
 * Once the workers are gone: tell the recorder to store the rest, and wait
 * (bounded, without taking interrupts) until it has: with "hand_over",
 * until it waits for iob_recorder_release(), else until it exited.  A
 * recorder that does not finish in time is terminated, and whoever stores
 * the run takes the seconds it did not commit (second_ring.h).  Returns
 * whether the recorder committed everything and waits for the release.
 * A NULL handle (nothing is stored, or the run stopped before its recorder
 * started) does nothing.
 */
extern bool iob_recorder_finish(BackgroundWorkerHandle *handle, IobRunShared *run,
								bool hand_over);

/*
 * After iob_recorder_finish(..., true) returned true and the launcher read
 * the live rows: the recorder deletes them, committing on its own, and
 * exits; waited for (bounded).
 */
extern void iob_recorder_release(BackgroundWorkerHandle *handle, IobRunShared *run);

/* Background worker entry point */
extern PGDLLEXPORT void iobench_recorder_main(Datum main_arg);

#endif							/* IOBENCH_RECORDER_H */
