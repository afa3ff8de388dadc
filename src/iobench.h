/*-------------------------------------------------------------------------
 *
 * iobench.h
 *	  Entry point and settings shared by every iobench subsystem.
 *
 * _PG_init() (iobench.c) calls one init function per subsystem; each
 * defines its own GUCs.  The GUC variables live here so that every file
 * reads them under one name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_H
#define IOBENCH_H

#include "postgres.h"

/* iobench.progress: emit a progress NOTICE about once a second during a run */
extern bool iobench_progress;

/* iobench.force_psync: pretend io_uring is unavailable (tests the fallback) */
extern bool iobench_force_psync;

/* iobench.max_workers_per_run: upper bound for the "workers" argument */
extern int	iobench_max_workers_per_run;

/* The highest iobench.max_workers_per_run may be set to (also a SQL CHECK) */
#define IOB_MAX_WORKERS_PER_RUN	1024

/* Human-readable size, as pg_size_pretty() prints it */
extern char *iob_size_pretty(int64 bytes);

/* Per-subsystem initialisation, called from _PG_init() */

#endif							/* IOBENCH_H */
