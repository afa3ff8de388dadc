/*-------------------------------------------------------------------------
 *
 * run_options.c
 *	  Reading and validating the arguments of iobench.run().
 *
 * Every argument is checked before anything is created: NULL, unit, range.
 * A bad value gets an ERROR that names the argument, quotes the value and
 * states the allowed range or values, as pg_prewarm does.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "iobench.h"
#include "run_options.h"

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
	ARG_LABEL
};

static const char *const pattern_names[] = {
	"randread", "randwrite", "randrw", "read", "write", "readwrite"
};

/* Buffers of one worker must stay well inside what one process may map */
#define IOB_MAX_WORKER_BUFFERS	((uint64) 1024 * 1024 * 1024)

/* Name of an access pattern, as "rw" spells it */
const char *
iob_pattern_name(IobPattern rw)
{
	return pattern_names[rw];
}

/* Does the pattern pick offsets at random? */
bool
iob_pattern_is_random(IobPattern rw)
{
	return rw == IOB_RW_RANDREAD || rw == IOB_RW_RANDWRITE || rw == IOB_RW_RANDRW;
}

/* Does the pattern mix reads and writes? */
bool
iob_pattern_is_mixed(IobPattern rw)
{
	return rw == IOB_RW_RANDRW || rw == IOB_RW_READWRITE;
}

/* Does the pattern read at all? */
bool
iob_pattern_reads(IobPattern rw)
{
	return rw != IOB_RW_RANDWRITE && rw != IOB_RW_WRITE;
}

/* Does the pattern write at all? */
bool
iob_pattern_writes(IobPattern rw)
{
	return rw != IOB_RW_RANDREAD && rw != IOB_RW_READ;
}

/* Raise the error for a NULL where a value is required */
void
iob_require_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" must not be null", name)));
}

/* Read an integer argument and check it lies in [min, max] */
int
iob_int_arg(FunctionCallInfo fcinfo, int argno, const char *name, int min, int max)
{
	int			value;

	iob_require_arg(fcinfo, argno, name);
	value = PG_GETARG_INT32(argno);
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%d is out of range for argument \"%s\"", value, name),
				 errdetail("Valid values are between %d and %d.", min, max)));
	return value;
}

/* Read a size argument ("8kB", "1GB", plain bytes) and check its range */
uint64
iob_size_arg(FunctionCallInfo fcinfo, int argno, const char *name,
		 int64 min, int64 max)
{
	text	   *value;
	int64		bytes;

	iob_require_arg(fcinfo, argno, name);
	value = PG_GETARG_TEXT_PP(argno);
	bytes = DatumGetInt64(DirectFunctionCall1(pg_size_bytes,
											  PointerGetDatum(value)));
	if (bytes < min || bytes > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is out of range for argument \"%s\"",
						text_to_cstring(value), name),
				 errdetail("Valid values are between %s and %s.",
						   iob_size_pretty(min), iob_size_pretty(max))));
	return (uint64) bytes;
}

/* Read an interval argument as microseconds and check its range */
int64
iob_interval_arg(FunctionCallInfo fcinfo, int argno, const char *name,
			 int64 min_us, int64 max_us, bool min_exclusive)
{
	Interval   *span;
	int64		us;

	iob_require_arg(fcinfo, argno, name);
	span = PG_GETARG_INTERVAL_P(argno);
	us = span->time + (int64) span->day * USECS_PER_DAY +
		(int64) span->month * DAYS_PER_MONTH * USECS_PER_DAY;
	if (us < min_us || us > max_us || (min_exclusive && us == min_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is out of range for argument \"%s\"",
						DatumGetCString(DirectFunctionCall1(interval_out, PointerGetDatum(span))),
						name),
				 min_exclusive ?
				 errdetail("Valid values are greater than %lld seconds and at most %lld seconds.",
						   (long long) (min_us / USECS_PER_SEC), (long long) (max_us / USECS_PER_SEC)) :
				 errdetail("Valid values are between %lld and %lld seconds.",
						   (long long) (min_us / USECS_PER_SEC), (long long) (max_us / USECS_PER_SEC))));
	return us;
}

/* Read a keyword argument; returns the index of the matching choice */
int
iob_choice_arg(FunctionCallInfo fcinfo, int argno, const char *name,
		   const char *const *choices, int nchoices)
{
	char	   *value;
	StringInfoData valid;
	int			i;

	iob_require_arg(fcinfo, argno, name);
	value = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	for (i = 0; i < nchoices; i++)
		if (pg_strcasecmp(value, choices[i]) == 0)
			return i;

	initStringInfo(&valid);
	for (i = 0; i < nchoices; i++)
		appendStringInfo(&valid, "%s\"%s\"", i > 0 ? ", " : "", choices[i]);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for argument \"%s\": \"%s\"", name, value),
			 errhint("Valid values are %s.", valid.data)));
	return -1;					/* keep compiler quiet */
}

/*
 * Resolve a tablespace by name and check that the current user may create
 * files in it; returns its OID.  As for temporary files, the database's
 * default tablespace needs no grant.
 */
Oid
iob_check_tablespace(const char *spcname)
{
	Oid			spcoid;

	spcoid = get_tablespace_oid(spcname, false);
	if (spcoid == GLOBALTABLESPACE_OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot run a benchmark in tablespace \"%s\"", spcname),
				 errdetail("Tablespace \"pg_global\" holds only shared system catalogs.")));
	if (spcoid != MyDatabaseTableSpace)
	{
		AclResult	aclresult;

		aclresult = pg_tablespace_aclcheck(spcoid, GetUserId(), ACL_CREATE);
		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_TABLESPACE, spcname);
	}
	return spcoid;
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

/* Validate every argument of iobench.run() into *params */
void
iob_parse_run_args(FunctionCallInfo fcinfo, IobRunParams *params, char **label)
{
	static const char *const sync_names[] = {"fsync", "fdatasync"};
	static const char *const engine_names[] = {"auto", "io_uring", "psync"};
	bool		mixed;

	memset(params, 0, sizeof(IobRunParams));

	iob_tablespace_arg(fcinfo, ARG_TABLESPACE, params);
	params->rw = (IobPattern) iob_choice_arg(fcinfo, ARG_RW, "rw", pattern_names,
										 lengthof(pattern_names));
	params->block_size = (uint32) iob_size_arg(fcinfo, ARG_BLOCK_SIZE, "block_size",
										   IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE);
	if (params->block_size % IOB_MIN_BLOCK_SIZE != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size %u is not a multiple of %d bytes",
						params->block_size, IOB_MIN_BLOCK_SIZE),
				 errdetail("Storage transfers whole sectors; direct I/O refuses anything else.")));
	params->workers = iob_int_arg(fcinfo, ARG_WORKERS, "workers", 1,
							  iobench_max_workers_per_run);
	params->iodepth = iob_int_arg(fcinfo, ARG_IODEPTH, "iodepth", 1, IOB_MAX_IODEPTH);
	if ((uint64) params->iodepth * params->block_size > IOB_MAX_WORKER_BUFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("iodepth %d with block_size %u needs too much buffer memory per worker",
						params->iodepth, params->block_size),
				 errdetail("iodepth times block_size must not exceed 1 GB.")));
	params->duration_us = iob_interval_arg(fcinfo, ARG_DURATION, "duration", 0,
									   (int64) IOB_MAX_DURATION_S * USECS_PER_SEC, true);
	params->warmup_us = iob_interval_arg(fcinfo, ARG_WARMUP, "warmup", 0,
									 (int64) 24 * 3600 * USECS_PER_SEC, false);
	params->file_size = iob_size_arg(fcinfo, ARG_FILE_SIZE, "file_size",
								 params->block_size, INT64CONST(1) << 50);
	if (params->file_size % params->block_size != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is not a multiple of block_size %u",
						params->file_size, params->block_size)));
	params->files = iob_int_arg(fcinfo, ARG_FILES, "files", 1, IOB_MAX_FILES);

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
	if (params->fsync_every > 0 && !iob_pattern_writes(params->rw))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"fsync_every\" needs a pattern that writes"),
				 errdetail("fsync_every counts writes; rw \"%s\" issues none.",
						   iob_pattern_name(params->rw))));
	params->use_fdatasync = iob_choice_arg(fcinfo, ARG_SYNC_METHOD, "sync_method",
									   sync_names, lengthof(sync_names)) == 1;
	iob_require_arg(fcinfo, ARG_DIRECT, "direct");
	params->direct = PG_GETARG_BOOL(ARG_DIRECT);
	params->evict_cache = !params->direct;
	params->engine = (IobEngineKind) iob_choice_arg(fcinfo, ARG_ENGINE, "engine",
												engine_names, lengthof(engine_names));
	params->rate_iops = iob_int_arg(fcinfo, ARG_RATE_IOPS, "rate_iops", 0, PG_INT32_MAX);
	if (params->rate_iops > 0 && params->rate_iops < params->workers)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate_iops %d is lower than the number of workers %d",
						params->rate_iops, params->workers),
				 errdetail("The rate is shared among the workers; each needs at least 1 I/O per second.")));
	if (PG_ARGISNULL(ARG_SEED))
		params->seed = (uint64) pg_prng_int64p(&pg_global_prng_state);
	else
		params->seed = (uint64) PG_GETARG_INT64(ARG_SEED);
	params->rewrite_pct = 0;

	*label = PG_ARGISNULL(ARG_LABEL) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(ARG_LABEL));
}
