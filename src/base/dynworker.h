/*-------------------------------------------------------------------------
 *
 * dynworker.h
 *	  The dynamic background workers of a run (its I/O workers, its
 *	  recorder, the storer of a failed run): registering one, and its
 *	  first steps.
 *
 * Each is started by a backend for one DSM segment, is never restarted,
 * notifies that backend of its start and exit, and connects to the
 * backend's database (the first Oid of bgw_extra).  What is particular to
 * each (its name, its entry point, what else it needs in bgw_extra) stays
 * with it: worker.c, recorder.c, store_worker.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_DYNWORKER_H
#define IOBENCH_DYNWORKER_H

#include "postgres.h"

#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"

/* Where a worker's own part of bgw_extra starts, after the database */
#define IOB_DYNWORKER_EXTRA		sizeof(Oid)

/*
 * Fill *worker to run "function" of this library as a worker of type
 * "type" for segment "seg"; the caller names it (bgw_name) and registers it.
 */
extern void iob_dynworker_prepare(BackgroundWorker *worker, const char *function,
								  const char *type, dsm_segment *seg);

/*
 * In the worker: SIGTERM ends it as it ends a backend, then the connection
 * to the database of bgw_extra, shown with application_name "appname".
 */
extern void iob_dynworker_connect(const char *appname);

/*
 * In the worker: attach to the segment of main_arg and return its table of
 * contents, whose magic number is "magic" or, when not 0, "other_magic";
 * raises an ERROR when the segment is gone or is none of those.
 */
extern shm_toc *iob_dynworker_attach(Datum main_arg, uint64 magic,
									 uint64 other_magic, dsm_segment **seg);

#endif							/* IOBENCH_DYNWORKER_H */
