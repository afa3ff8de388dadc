/*-------------------------------------------------------------------------
 *
 * run_args.c
 *	  Reading the SQL arguments of iobench.run() and of the presets into
 *	  a run's settings (run_args.h).
 *
 * Every argument is checked before anything is created: NULL, unit, range.
 * A bad value gets an ERROR that names the argument, quotes the value and
 * states the allowed range or values, as pg_prewarm does.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"


#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "base/base.h"
#include "run_args.h"
#include "run_limits.h"
#include "tablespace_group.h"
#include "wal_pattern.h"

/* Argument positions of iobench.run() */
enum
{
	ARG_TABLESPACE = 0,
	ARG_RW,
	ARG_BLOCK_SIZE,
	ARG_WORKERS,
	ARG_IODEPTH,
	ARG_DURATION,
	ARG_WARMUP,
	ARG_FILE_SIZE,
	ARG_FILES,
	ARG_READ_PCT,
	ARG_FSYNC_EVERY,
	ARG_SYNC_METHOD,
	ARG_DIRECT,
	ARG_ENGINE,
	ARG_RATE_IOPS,
	ARG_SEED,
	ARG_LABEL,
	ARG_REWRITE_PCT,
	ARG_COLD_READS,
	ARG_STALL_THRESHOLD,
	ARG_PROGRESS_INTERVAL,
	ARG_START_AT,
	ARG_STEADY_STATE,
	ARG_STEADY_BAND,
	ARG_STEADY_WINDOW,
	ARG_TABLESPACES,
	ARG_IO_CONCURRENCY,
	ARG_IO_COMBINE_LIMIT
};

/*
 * Read the "workers" argument: 1 to iob_max_workers_per_run(), with a hint
 * saying which settings bound it, since by default the bound follows
 * max_worker_processes rather than a number a user sees anywhere.
 */
int
iob_workers_arg(FunctionCallInfo fcinfo, int argno)
{
	int			max = iob_max_workers_per_run();
	int			value;

	iob_require_arg(fcinfo, argno, "workers");
	value = PG_GETARG_INT32(argno);
	if (value < 1 || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%d is out of range for argument \"workers\"", value),
				 errdetail("Valid values are between 1 and %d.", max),
				 errhint("The settings iobench.max_workers_per_run and iobench.max_workers_total bound the background worker slots of runs, one per worker and one for the run's recorder; each defaults to half of max_worker_processes (%d here).",
						 max_worker_processes)));
	return value;
}

/* Read the "duration" of a run: its measured period */
int64
iob_duration_arg(FunctionCallInfo fcinfo, int argno)
{
	return iob_interval_arg(fcinfo, argno, "duration", IOB_MIN_DURATION_US,
							(int64) IOB_MAX_DURATION_S * USECS_PER_SEC, false);
}

/* Read the "warmup" of a run: the time before the measured period */
int64
iob_warmup_arg(FunctionCallInfo fcinfo, int argno)
{
	return iob_interval_arg(fcinfo, argno, "warmup", 0,
							(int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);
}

/* Read "stall_threshold": more than 0, at most IOB_MAX_STALL_THRESHOLD_S */
int64
iob_stall_threshold_arg(FunctionCallInfo fcinfo, int argno)
{
	return iob_interval_arg(fcinfo, argno, "stall_threshold", 0,
							(int64) IOB_MAX_STALL_THRESHOLD_S * USECS_PER_SEC, true);
}

/*
 * Read an interval argument that counts whole seconds, from min_s to max_s;
 * a fraction of a second is refused, not dropped
 */
static int
whole_seconds_arg(FunctionCallInfo fcinfo, int argno, const char *name,
				  int min_s, int max_s)
{
	int64		us = iob_interval_arg(fcinfo, argno, name,
									  (int64) min_s * USECS_PER_SEC,
									  (int64) max_s * USECS_PER_SEC, false);

	if (us % USECS_PER_SEC != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a whole number of seconds for argument \"%s\"",
						DatumGetCString(DirectFunctionCall1(interval_out,
															PG_GETARG_DATUM(argno))),
						name),
				 errdetail("Valid values are whole seconds from %d to %d.", min_s, max_s)));
	return (int) (us / USECS_PER_SEC);
}

/* Read "progress_interval": whole seconds */
int
iob_progress_interval_arg(FunctionCallInfo fcinfo, int argno)
{
	return whole_seconds_arg(fcinfo, argno, "progress_interval", 1,
							 IOB_MAX_PROGRESS_INTERVAL_S);
}

/* Read an access pattern argument, named "rw" as iobench.run() names it */
IobPattern
iob_pattern_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobPattern) iob_choice_arg(fcinfo, argno, "rw", iob_pattern_names,
									   lengthof(iob_pattern_names));
}

/* Read the "engine" argument */
IobEngineKind
iob_engine_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobEngineKind) iob_choice_arg(fcinfo, argno, "engine", iob_engine_names,
										  lengthof(iob_engine_names));
}

/* Read the "sync_method" argument */
IobSyncMethod
iob_sync_method_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobSyncMethod) iob_choice_arg(fcinfo, argno, "sync_method",
										  iob_sync_method_names,
										  lengthof(iob_sync_method_names));
}

/* Read the "seed" argument; NULL asks for a random seed */
uint64
iob_seed_arg(FunctionCallInfo fcinfo, int argno)
{
	if (PG_ARGISNULL(argno))
		return (uint64) pg_prng_int64p(&pg_global_prng_state);
	return (uint64) PG_GETARG_INT64(argno);
}

/*
 * Read the "start_at" argument: NULL (0) starts at once; otherwise a time
 * within IOB_MAX_START_AT_S of now, so a run never holds its workers for
 * long.  A time already past starts at once (the lateness is stored).
 */
static TimestampTz
start_at_arg(FunctionCallInfo fcinfo, int argno)
{
	TimestampTz value;
	TimestampTz now = GetCurrentTimestamp();

	if (PG_ARGISNULL(argno))
		return 0;
	value = PG_GETARG_TIMESTAMPTZ(argno);
	if (TIMESTAMP_NOT_FINITE(value) ||
		value > now + (int64) IOB_MAX_START_AT_S * USECS_PER_SEC ||
		value < now - (int64) IOB_MAX_START_AT_S * USECS_PER_SEC)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is out of range for argument \"start_at\"",
						timestamptz_to_str(value)),
				 errdetail("Valid values are within %d seconds of the current time, or null to start at once.",
						   IOB_MAX_START_AT_S)));
	return value;
}

/* See run_args.h */
Name
iob_tablespace_names_arg(FunctionCallInfo fcinfo, int argno, int max, int *n)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(argno);
	Datum	   *elems;
	bool	   *nulls;
	Name		names;
	int			i;
	int			j;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" must be a one-dimensional array"),
				 errdetail("It has %d dimensions.", ARR_NDIM(arr))));
	deconstruct_array(arr, NAMEOID, NAMEDATALEN, false, TYPALIGN_CHAR,
					  &elems, &nulls, n);
	if (*n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" must name at least one tablespace")));
	if (*n > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" names %d tablespaces, more than %d",
						*n, max)));
	names = palloc(sizeof(NameData) * *n);
	for (i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"tablespaces\" must not contain nulls")));
		namestrcpy(&names[i], NameStr(*DatumGetName(elems[i])));
		for (j = 0; j < i; j++)
			if (strcmp(NameStr(names[j]), NameStr(names[i])) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("tablespace \"%s\" appears more than once in argument \"tablespaces\"",
								NameStr(names[i]))));
	}
	return names;
}

/* See run_args.h */
void
iob_tablespace_group_arg(FunctionCallInfo fcinfo, int argno, IobRunParams *params)
{
	Name		names;
	int			n;
	int			i;

	if (PG_ARGISNULL(argno))
		return;
	if (strcmp(NameStr(params->tablespace), "pg_default") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("arguments \"tablespace\" and \"tablespaces\" cannot both be given"),
				 errhint("Name the group's tablespaces in \"tablespaces\" only.")));
	names = iob_tablespace_names_arg(fcinfo, argno, IOB_MAX_GROUP, &n);
	for (i = 0; i < n; i++)
	{
		params->group_names[i] = names[i];
		params->group_oids[i] = iob_check_tablespace(NameStr(names[i]));
	}
	params->ngroup = n;
	params->tablespace_oid = params->group_oids[0];
	params->tablespace = params->group_names[0];
}

/* Read the tablespace argument "argno" into *params */
void
iob_tablespace_arg(FunctionCallInfo fcinfo, int argno, IobRunParams *params)
{
	Name		spcname;

	iob_require_arg(fcinfo, argno, "tablespace");
	spcname = PG_GETARG_NAME(argno);
	params->tablespace_oid = iob_check_tablespace(NameStr(*spcname));
	namestrcpy(&params->tablespace, NameStr(*spcname));
}

/*
 * The defaults iobench.run() declares (sql/install/code/10_run.sql) of the
 * settings sync_method 'wal' sets: a value other than these was given by
 * the caller (check_wal_args())
 */
#define RUN_DEFAULT_BLOCK_SIZE	8192
#define RUN_DEFAULT_WORKERS		1
#define RUN_DEFAULT_IODEPTH		1
#define RUN_DEFAULT_FILE_SIZE	(UINT64CONST(1) << 30)
#define RUN_DEFAULT_FILES		1
#define RUN_DEFAULT_FSYNC_EVERY	0
#define RUN_DEFAULT_DIRECT		true

/*
 * check_wal_args(): refuse argument "name" of the value "given" that
 * sync_method 'wal' would replace by "sets"
 */
static void
refuse_wal_override(const char *name, const char *given, const char *sets)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("argument \"%s\" value %s cannot be used with sync_method \"wal\"",
					name, given),
			 errdetail("sync_method \"wal\" writes as this server's WAL writer does, which sets %s to %s.",
					   name, sets),
			 errhint("Leave %s out with sync_method \"wal\".", name)));
}

/*
 * sync_method 'wal': the WAL writer's pattern (iob_wal_pattern()) replaces
 * block_size, workers, iodepth, file_size, files, fsync_every, direct and
 * the engine.  An argument given with another value than the one it sets
 * (and than run()'s default, which cannot be told from a value left out)
 * would be overridden in silence: it is refused instead, naming both.
 */
static void
check_wal_args(FunctionCallInfo fcinfo, IobRunParams *params)
{
	IobRunParams wal = *params;

	(void) iob_wal_pattern(NULL, &wal);
	if (params->engine != IOB_ENGINE_AUTO && params->engine != wal.engine)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"sync_method\" value \"wal\" cannot be used with engine \"%s\"",
						iob_engine_kind_name(params->engine)),
				 errdetail("sync_method \"wal\" writes as this server's WAL writer does: pwrite() and a sync call, engine \"%s\".",
						   iob_engine_kind_name(wal.engine)),
				 errhint("Leave engine out, or use engine => '%s', with sync_method \"wal\".",
						 iob_engine_kind_name(wal.engine))));
	/* one file: a group of several tablespaces would need one in each */
	if (params->ngroup > wal.files)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" cannot be used with sync_method \"wal\""),
				 errdetail("sync_method \"wal\" writes one file, as the WAL writer writes one segment at a time; a group of %d tablespaces needs a file in each.",
						   params->ngroup),
				 errhint("Name the one tablespace to write in with tablespace => ..., and run once per tablespace.")));
	if (params->block_size != wal.block_size &&
		params->block_size != RUN_DEFAULT_BLOCK_SIZE)
		refuse_wal_override("block_size",
							quote_literal_cstr(text_to_cstring(PG_GETARG_TEXT_PP(ARG_BLOCK_SIZE))),
							psprintf("%u bytes", wal.block_size));
	if (params->workers != wal.workers && params->workers != RUN_DEFAULT_WORKERS)
		refuse_wal_override("workers", psprintf("%d", params->workers),
							psprintf("%d", wal.workers));
	if (params->iodepth != wal.iodepth && params->iodepth != RUN_DEFAULT_IODEPTH)
		refuse_wal_override("iodepth", psprintf("%d", params->iodepth),
							psprintf("%d", wal.iodepth));
	if (params->file_size != wal.file_size &&
		params->file_size != RUN_DEFAULT_FILE_SIZE)
		refuse_wal_override("file_size",
							quote_literal_cstr(text_to_cstring(PG_GETARG_TEXT_PP(ARG_FILE_SIZE))),
							psprintf(UINT64_FORMAT " bytes (wal_segment_size)", wal.file_size));
	if (params->files != wal.files && params->files != RUN_DEFAULT_FILES)
		refuse_wal_override("files", psprintf("%d", params->files),
							psprintf("%d", wal.files));
	if (params->fsync_every != wal.fsync_every &&
		params->fsync_every != RUN_DEFAULT_FSYNC_EVERY)
		refuse_wal_override("fsync_every", psprintf("%d", params->fsync_every),
							psprintf("%d", wal.fsync_every));
	if (params->direct != wal.direct && params->direct != RUN_DEFAULT_DIRECT)
		refuse_wal_override("direct", params->direct ? "true" : "false",
							wal.direct ? "true" : "false");
	*params = wal;
}

/*
 * iob_parse_run_args(): what the load is: where, which pattern, how big,
 * how many, for how long
 */
static void
read_load_args(FunctionCallInfo fcinfo, IobRunParams *params)
{
	iob_tablespace_arg(fcinfo, ARG_TABLESPACE, params);
	/* NULL: randread, or the WAL writer's pattern (read_io_args()) */
	params->rw = PG_ARGISNULL(ARG_RW) ? IOB_RW_RANDREAD : iob_pattern_arg(fcinfo, ARG_RW);
	params->block_size = (uint32) iob_size_arg(fcinfo, ARG_BLOCK_SIZE, "block_size",
											   IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE);
	params->workers = iob_workers_arg(fcinfo, ARG_WORKERS);
	params->iodepth = iob_int_arg(fcinfo, ARG_IODEPTH, "iodepth", 1, IOB_MAX_IODEPTH);
	params->duration_us = iob_duration_arg(fcinfo, ARG_DURATION);
	params->warmup_us = iob_warmup_arg(fcinfo, ARG_WARMUP);
	params->file_size = iob_size_arg(fcinfo, ARG_FILE_SIZE, "file_size",
									 params->block_size, IOB_MAX_FILE_SIZE);
	params->files = iob_int_arg(fcinfo, ARG_FILES, "files", 1, IOB_MAX_FILES);
}

/*
 * iob_parse_run_args(): how the I/O is issued: the mix, syncs, the engine,
 * the rate, the seed.  Returns whether sync_method is 'wal'.
 */
static bool
read_io_args(FunctionCallInfo fcinfo, IobRunParams *params)
{
	bool		wal;
	bool		mixed;

	/* read_pct: given only for the mixed patterns, else implied by rw */
	mixed = iob_pattern_is_mixed(params->rw);
	if (PG_ARGISNULL(ARG_READ_PCT))
		params->read_pct = mixed ? 50 : (iob_pattern_reads(params->rw) ? 100 : 0);
	else if (!mixed)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"read_pct\" applies only to the mixed patterns"),
				 errhint("Use rw => 'randrw' or rw => 'readwrite', or leave read_pct null.")));
	else
		params->read_pct = iob_int_arg(fcinfo, ARG_READ_PCT, "read_pct", 0, 100);

	params->fsync_every = iob_int_arg(fcinfo, ARG_FSYNC_EVERY, "fsync_every", 0, PG_INT32_MAX);
	/* 'wal': the WAL writer's pattern, as this server writes WAL */
	wal = !PG_ARGISNULL(ARG_SYNC_METHOD) &&
		strcmp(text_to_cstring(PG_GETARG_TEXT_PP(ARG_SYNC_METHOD)), "wal") == 0;
	if (!wal)
		params->sync_method = iob_sync_method_arg(fcinfo, ARG_SYNC_METHOD);
	else if (!PG_ARGISNULL(ARG_RW) && params->rw != IOB_RW_WRITE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"rw\" cannot be \"%s\" with sync_method \"wal\"",
						text_to_cstring(PG_GETARG_TEXT_PP(ARG_RW))),
				 errdetail("sync_method \"wal\" writes as the WAL writer does: sequential writes (rw \"write\")."),
				 errhint("Leave rw out, or choose another sync_method.")));
	iob_require_arg(fcinfo, ARG_DIRECT, "direct");
	params->direct = PG_GETARG_BOOL(ARG_DIRECT);
	params->engine = iob_engine_arg(fcinfo, ARG_ENGINE);
	params->rate_iops = iob_int_arg(fcinfo, ARG_RATE_IOPS, "rate_iops", 0, PG_INT32_MAX);
	params->seed = iob_seed_arg(fcinfo, ARG_SEED);
	return wal;
}

/*
 * iob_parse_run_args(): the rest: the label, the start, what pgiosim()
 * also sets (rewrites, cold reads, stalls, progress), steady state
 */
static void
read_run_args(FunctionCallInfo fcinfo, IobRunParams *params, char **label)
{
	*label = iob_label_arg(fcinfo, ARG_LABEL);
	params->start_at = start_at_arg(fcinfo, ARG_START_AT);

	params->rewrite_pct = iob_int_arg(fcinfo, ARG_REWRITE_PCT, "rewrite_pct", 0, 100);
	iob_require_arg(fcinfo, ARG_COLD_READS, "cold_reads");
	params->cold_reads = PG_GETARG_BOOL(ARG_COLD_READS);
	/* NULL: stalls are not tracked */
	if (!PG_ARGISNULL(ARG_STALL_THRESHOLD))
		params->stall_threshold_us = iob_stall_threshold_arg(fcinfo, ARG_STALL_THRESHOLD);
	params->progress_interval_s = iob_progress_interval_arg(fcinfo, ARG_PROGRESS_INTERVAL);

	/* steady state: NULL is none; the band and window are checked anyway */
	if (!PG_ARGISNULL(ARG_STEADY_STATE))
		params->steady_state = (IobSteadyMetric)
			iob_choice_arg(fcinfo, ARG_STEADY_STATE, "steady_state", iob_steady_names,
						   lengthof(iob_steady_names));
	iob_require_arg(fcinfo, ARG_STEADY_BAND, "steady_band");
	params->steady_band_pct = PG_GETARG_FLOAT8(ARG_STEADY_BAND);
	iob_check_steady_band(params->steady_band_pct);
	params->steady_window_s = whole_seconds_arg(fcinfo, ARG_STEADY_WINDOW, "steady_window",
												IOB_MIN_STEADY_WINDOW_S,
												IOB_MAX_STEADY_WINDOW_S);
}

/* See run_args.h */
void
iob_parse_run_args(FunctionCallInfo fcinfo, IobRunParams *params, char **label)
{
	bool		wal;

	memset(params, 0, sizeof(IobRunParams));
	read_load_args(fcinfo, params);
	wal = read_io_args(fcinfo, params);
	read_run_args(fcinfo, params, label);
	iob_tablespace_group_arg(fcinfo, ARG_TABLESPACES, params);
	/* engine "postgres": NULL leaves the server's own setting in effect */
	if (!PG_ARGISNULL(ARG_IO_CONCURRENCY))
	{
		params->io_concurrency_given = true;
		params->io_concurrency = PG_GETARG_INT32(ARG_IO_CONCURRENCY);
	}
	if (!PG_ARGISNULL(ARG_IO_COMBINE_LIMIT))
	{
		params->io_combine_given = true;
		params->io_combine_blocks = PG_GETARG_INT32(ARG_IO_COMBINE_LIMIT);
	}
	if (wal)
		check_wal_args(fcinfo, params);

	iob_validate_params(params);
	/* the engine's own rules (engine "postgres", which only run() offers) */
	iob_check_engine_params(params);
}
