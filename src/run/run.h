/*-------------------------------------------------------------------------
 *
 * run.h
 *	  The run subsystem's public header: one benchmark run.
 *
 * What the campaigns and the entry point use of a run: its parameters and
 * their validation (run_validate.h), the arguments of the SQL functions
 * (run_args.h), the cluster-wide limits (run_limits.h, with their start-up
 * from _PG_init), launching a run and waiting for it (run_launcher.h),
 * storing it (store_worker.h), tablespace groups (tablespace_group.h) and the
 * WAL pattern (wal_pattern.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include "run_validate.h"
#include "run_args.h"
#include "run_limits.h"
#include "run_launcher.h"
#include "store_worker.h"
#include "tablespace_group.h"
#include "wal_pattern.h"

#endif							/* IOBENCH_RUN_H */
