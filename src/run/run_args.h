/*-------------------------------------------------------------------------
 *
 * run_args.h
 *	  Reading SQL arguments into a run's settings (run_validate.h).
 *
 * One reader per kind of argument, shared by iobench.run(), pgiosim()
 * (pgiosim.c) and the plans of the campaigns (campaigns/suite.c,
 * campaigns/search.c): each raises the same ERROR for a
 * NULL, a bad unit or an out-of-range value, naming the argument and the
 * valid range.  iob_parse_run_args() reads all of iobench.run()'s.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_ARGS_H
#define IOBENCH_RUN_ARGS_H

#include "postgres.h"

#include "fmgr.h"

#include "run_validate.h"
#include "base/base.h"
#include "tablespace_group.h"

/*
 * Read and validate the arguments of iobench.run() into *params; the
 * optional label is returned separately (NULL when not given).  Raises an
 * ERROR naming the argument, its value and the allowed range for any bad
 * value.
 */
extern void iob_parse_run_args(FunctionCallInfo fcinfo, IobRunParams *params,
							   char **label);

extern int	iob_workers_arg(FunctionCallInfo fcinfo, int argno);

/* The arguments every preset names as iobench.run() does */
extern int64 iob_duration_arg(FunctionCallInfo fcinfo, int argno);
extern int64 iob_warmup_arg(FunctionCallInfo fcinfo, int argno);
extern int64 iob_stall_threshold_arg(FunctionCallInfo fcinfo, int argno);
extern int	iob_progress_interval_arg(FunctionCallInfo fcinfo, int argno);
extern IobEngineKind iob_engine_arg(FunctionCallInfo fcinfo, int argno);
extern IobPattern iob_pattern_arg(FunctionCallInfo fcinfo, int argno);	/* "rw" */
extern IobSyncMethod iob_sync_method_arg(FunctionCallInfo fcinfo, int argno);
extern uint64 iob_seed_arg(FunctionCallInfo fcinfo, int argno);	/* NULL: a random one */

/*
 * Read argument "tablespace" into *params: a tablespace the current user
 * may create files in (iob_check_tablespace(), tablespace_group.h).
 */
extern void iob_tablespace_arg(FunctionCallInfo fcinfo, int argno,
							   IobRunParams *params);

/*
 * Read the "tablespaces" argument (argument "argno"; NULL: none) into
 * *params; "tablespace" must then have been left at its default.  Errors
 * name the argument: an empty group, a NULL, a tablespace twice, more than
 * IOB_MAX_GROUP, and any tablespace a run could not use.
 */
extern void iob_tablespace_group_arg(FunctionCallInfo fcinfo, int argno,
									 IobRunParams *params);

/*
 * The names of a non-NULL "tablespaces" argument (of iobench.run(), or of
 * iobench.suite()), *n of them: at least one, at most "max", no NULL, no
 * name twice.  Whether each is a tablespace is left to the caller.
 */
extern Name iob_tablespace_names_arg(FunctionCallInfo fcinfo, int argno, int max,
									 int *n);

#endif							/* IOBENCH_RUN_ARGS_H */
