/*-------------------------------------------------------------------------
 *
 * run_validate.h
 *	  The limits of a run's settings, and their validation.
 *
 * The settings themselves, IobRunParams, are part of a run's record
 * (results/run_params.h).  This file owns their limits (also the CHECKs of
 * the SQL, see the Makefile) and the one validation every run passes
 * before anything is created (iob_validate_params()).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_VALIDATE_H
#define IOBENCH_RUN_VALIDATE_H

#include "postgres.h"

#include "datatype/timestamp.h"

#include "results/results.h"

/*
 * Limits of the arguments; the error messages quote them.  The CHECKs of
 * iobench.suite_tests (sql/install/schema/20_suites.sql) take the block
 * size, iodepth, files and buffer limits from here when the install script
 * is built (@IOB_MAX_IODEPTH@ there, see the Makefile); an installed
 * version keeps its CHECKs, so a changed limit also needs an upgrade step.
 */
#define IOB_MIN_BLOCK_SIZE		512
#define IOB_MAX_BLOCK_SIZE		(16 * 1024 * 1024)
#define IOB_MAX_IODEPTH			1024
#define IOB_MAX_FILES			1024
#define IOB_MAX_FILE_SIZE		(INT64CONST(1) << 50)	/* 1024 TB per file */
#define IOB_MAX_DURATION_S		(7 * 24 * 3600) /* a week of per-second rows */
#define IOB_MIN_DURATION_US		(100 * 1000)	/* 100 ms: a shorter run may
												 * complete no I/O at all, and
												 * stores no meaningful rate */
#define IOB_MAX_WARMUP_S		(24 * 3600)	/* a day */
#define IOB_MAX_STALL_THRESHOLD_S	3600	/* an hour: longer is no stall */
#define IOB_MAX_PROGRESS_INTERVAL_S 3600	/* an hour */
#define IOB_MAX_START_AT_S		3600	/* start_at within an hour of the call */
#define IOB_DIRECT_ALIGN		4096	/* O_DIRECT buffer and offset alignment */

/*
 * I/O buffers: each worker allocates iodepth * block_size bytes in its own
 * memory and fills them with random data before the run, so all of it is
 * resident for the whole run.  One worker's buffers must stay well inside
 * what one process may allocate; the sum over all workers is capped too,
 * because 64 workers of 1 GB each would be 64 GB, enough to send the
 * server into the OOM killer.  4 GB still allows the deepest queue of
 * 64 kB blocks (1024 * 64 kB) for 64 workers.
 */
#define IOB_MAX_WORKER_BUFFERS	(UINT64CONST(1) << 30)	/* 1 GB per worker */
#define IOB_MAX_RUN_BUFFERS		(UINT64CONST(4) << 30)	/* 4 GB per run */

#define IOB_MIN_STEADY_WINDOW_S	2	/* a single second cannot be steady */
#define IOB_MAX_STEADY_WINDOW_S	180 /* the launcher keeps a sample per second
									 * of the window (steady_state.h) */

/*
 * Check the settings of a run as a whole: every range, and every rule that
 * ties one setting to another (block_size a multiple of 512 bytes, buffer
 * memory per worker and per run, file_size a multiple of block_size,
 * read_pct only for the mixed patterns, fsync_every only with writes,
 * sync_method open_datasync/open_sync only with writes and without
 * fsync_every, rewrite_pct only with reads, cold_reads only with buffered
 * I/O, rate_iops at least one per worker, files within what a worker may
 * keep open).  iobench.run(), iobench.pgiosim() and iobench.suite() (for
 * each of its tests) call it before anything is created; raises an ERROR
 * for the first rule broken.
 */
extern void iob_validate_params(const IobRunParams *params);

/*
 * The narrow description of a run's work that its engine takes (engine.h),
 * pointing into *params
 */
extern void iob_engine_work(const IobRunParams *params, IobEngineWork *work);

/*
 * The rules of the run's engine (its check_work), after iob_validate_params():
 * run(), the one entry point that offers engine "postgres", calls it
 */
extern void iob_check_engine_params(const IobRunParams *params);

/* steady_band: a share of the mean, more than 0 and at most 100 % */
extern void iob_check_steady_band(double band);

#endif							/* IOBENCH_RUN_VALIDATE_H */
