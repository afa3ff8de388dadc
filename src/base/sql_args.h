/*-------------------------------------------------------------------------
 *
 * sql_args.h
 *	  Reading SQL function arguments of general kinds: the base the readers
 *	  of a run's arguments (run_args.h) and the wait functions build on.
 *
 * Each reader raises the same ERROR for a NULL, a bad unit or an
 * out-of-range value, naming the argument and the valid range, as
 * pg_prewarm does.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SQL_ARGS_H
#define IOBENCH_SQL_ARGS_H

#include "postgres.h"

#include "datatype/timestamp.h"
#include "fmgr.h"

extern void iob_require_arg(FunctionCallInfo fcinfo, int argno, const char *name);
extern int	iob_int_arg(FunctionCallInfo fcinfo, int argno, const char *name,
						int min, int max);
extern uint64 iob_size_arg(FunctionCallInfo fcinfo, int argno, const char *name,
						   int64 min, int64 max);
extern int64 iob_interval_arg(FunctionCallInfo fcinfo, int argno, const char *name,
							  int64 min_us, int64 max_us, bool min_exclusive);
extern int	iob_choice_arg(FunctionCallInfo fcinfo, int argno, const char *name,
						   const char *const *choices, int nchoices);
extern char *iob_label_arg(FunctionCallInfo fcinfo, int argno);

/*
 * The longest label a run, suite or search takes, in characters: a suite
 * or search adds its test's name to its runs' labels, and an export's text
 * fields are accepted on import up to 8192 characters, so every stored
 * label travels (export_runs(), import_runs(), the fleet calls)
 */
#define IOB_MAX_LABEL_CHARS 1024

/*
 * An interval in microseconds, a month counting as 30 days as elsewhere in
 * PostgreSQL; false when it overflows int64
 */
extern bool iob_interval_us(const Interval *span, int64 *us);

/*
 * In an ereport(): the DETAIL that gives a range of spans in seconds,
 * "greater than" the minimum when min_exclusive
 */
extern int	iob_errdetail_seconds(int64 min_us, int64 max_us, bool min_exclusive);

/* A size for messages in pg_size_pretty()'s units: 2 GB, 2.5 GB */
extern char *iob_size_pretty(int64 bytes);

#endif							/* IOBENCH_SQL_ARGS_H */
