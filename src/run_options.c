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

#include <ctype.h>
#include <math.h>

#include "access/xact.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/tablespace.h"
#include "common/int.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "files.h"
#include "iobench.h"
#include "privileges.h"
#include "run_options.h"
#include "tablespace_group.h"
#include "wal_pattern.h"
#include "run_limits.h"

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
	ARG_TABLESPACES
};

/* Names as the arguments spell them, in the order of their enums */
static const char *const pattern_names[] = {
	"randread", "randwrite", "randrw", "read", "write", "readwrite"
};
static const char *const engine_names[] = {"auto", "io_uring", "psync"};
static const char *const steady_names[] = {"none", "iops", "latency"};
static const char *const sync_method_names[] = {
	"fsync", "fdatasync", "open_datasync", "open_sync"
};

StaticAssertDecl(lengthof(pattern_names) == IOB_RW_READWRITE + 1,
				 "pattern_names must match IobPattern");
StaticAssertDecl(lengthof(engine_names) == IOB_ENGINE_PSYNC + 1,
				 "engine_names must match IobEngineKind");
StaticAssertDecl(lengthof(steady_names) == IOB_STEADY_LATENCY + 1,
				 "steady_names must match IobSteadyMetric");
StaticAssertDecl(lengthof(sync_method_names) == IOB_SYNC_OPEN_SYNC + 1,
				 "sync_method_names must match IobSyncMethod");

/* Name of a steady-state metric, as "steady_state" spells it */
const char *
iob_steady_name(IobSteadyMetric metric)
{
	return steady_names[metric];
}

/* Name of a sync method, as "sync_method" (and wal_sync_method) spell it */
const char *
iob_sync_method_name(IobSyncMethod method)
{
	return sync_method_names[method];
}

/* The sync method of that name; false when there is none */
bool
iob_sync_method_by_name(const char *name, IobSyncMethod *method)
{
	int			i;

	for (i = 0; i < lengthof(sync_method_names); i++)
		if (strcmp(sync_method_names[i], name) == 0)
		{
			*method = (IobSyncMethod) i;
			return true;
		}
	return false;
}

/* Does the method open the files with O_DSYNC or O_SYNC (no sync calls)? */
bool
iob_sync_method_is_open(IobSyncMethod method)
{
	return method == IOB_SYNC_OPEN_DATASYNC || method == IOB_SYNC_OPEN_SYNC;
}

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

/*
 * The number of bytes a size text ("8kB", "1.5 GB", "4096") stands for, as
 * a double, or -1 when it is not a size pg_size_bytes() takes: a decimal
 * number, optional spaces, an optional unit.  Checked here first so that a
 * bad value gets an error naming the argument rather than pg_size_bytes()'s
 * "invalid size" or "bigint out of range".
 */
static double
size_text_bytes(const char *str)
{
	static const struct
	{
		const char *unit;
		double		mult;
	}			units[] = {
		{"", 1}, {"bytes", 1}, {"kB", 1024.0}, {"MB", 1048576.0},
		{"GB", 1073741824.0}, {"TB", 1099511627776.0},
		{"PB", 1125899906842624.0}
	};
	const char *p = str;
	const char *num;
	char	   *end;
	char		unit[16];
	int			len = 0;
	int			digits = 0;
	int			i;

	while (isspace((unsigned char) *p))
		p++;
	num = p;
	if (*p == '+' || *p == '-')
		p++;
	for (; isdigit((unsigned char) *p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char) *p); p++)
			digits++;
	if (digits == 0)
		return -1;
	if (*p == 'e' || *p == 'E')
	{
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char) *p))
			return -1;
		while (isdigit((unsigned char) *p))
			p++;
	}
	while (isspace((unsigned char) *p))
		p++;
	while (*p && !isspace((unsigned char) *p) && len < (int) sizeof(unit) - 1)
		unit[len++] = *p++;
	unit[len] = '\0';
	while (isspace((unsigned char) *p))
		p++;
	if (*p != '\0')
		return -1;
	for (i = 0; i < lengthof(units); i++)
		if (pg_strcasecmp(unit, units[i].unit) == 0)
			return strtod(num, &end) * units[i].mult;
	return -1;
}

/* Read a size argument ("8kB", "1GB", plain bytes) and check its range */
uint64
iob_size_arg(FunctionCallInfo fcinfo, int argno, const char *name,
		 int64 min, int64 max)
{
	text	   *value;
	char	   *str;
	double		approx;
	int64		bytes = 0;

	iob_require_arg(fcinfo, argno, name);
	value = PG_GETARG_TEXT_PP(argno);
	str = text_to_cstring(value);
	approx = size_text_bytes(str);
	if (approx < 0 && approx > -1)	/* "-0.1 kB" rounds to 0 */
		approx = 0;
	if (approx == -1 || isnan(approx))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for argument \"%s\": \"%s\"", name, str),
				 errdetail("Valid values are sizes between %s and %s, such as '8kB' or '1GB'.",
						   iob_size_pretty(min), iob_size_pretty(max)),
				 errhint("A size is a number followed by bytes, kB, MB, GB, TB or PB.")));
	/* a negative or far too large size needs no exact value */
	if (approx >= (double) min - 1024 && approx <= (double) max + 1024)
		bytes = DatumGetInt64(DirectFunctionCall1(pg_size_bytes,
												  PointerGetDatum(value)));
	if (approx < (double) min - 1024 || approx > (double) max + 1024 ||
		bytes < min || bytes > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is out of range for argument \"%s\"", str, name),
				 errdetail("Valid values are between %s and %s.",
						   iob_size_pretty(min), iob_size_pretty(max))));
	return (uint64) bytes;
}

/*
 * An interval in microseconds, a month counting as 30 days as elsewhere in
 * PostgreSQL.  Returns false when a product or sum overflows int64: such an
 * interval (hundreds of thousands of years) is beyond every limit here.
 */
static bool
interval_us(const Interval *span, int64 *us)
{
	int64		month_us;
	int64		day_us;
	int64		sum;

	if (pg_mul_s64_overflow((int64) span->month,
							(int64) DAYS_PER_MONTH * USECS_PER_DAY, &month_us) ||
		pg_mul_s64_overflow((int64) span->day, USECS_PER_DAY, &day_us) ||
		pg_add_s64_overflow(month_us, day_us, &sum) ||
		pg_add_s64_overflow(sum, span->time, &sum))
		return false;
	*us = sum;
	return true;
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
	if (!interval_us(span, &us) ||
		us < min_us || us > max_us || (min_exclusive && us == min_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is out of range for argument \"%s\"",
						DatumGetCString(DirectFunctionCall1(interval_out, PointerGetDatum(span))),
						name),
				 min_exclusive ?
				 errdetail("Valid values are greater than %g seconds and at most %g seconds.",
						   (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC) :
				 errdetail("Valid values are between %g and %g seconds.",
						   (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC)));
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

/* Read an access pattern argument, named "rw" as iobench.run() names it */
IobPattern
iob_pattern_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobPattern) iob_choice_arg(fcinfo, argno, "rw", pattern_names,
									   lengthof(pattern_names));
}

/* Read the "engine" argument */
IobEngineKind
iob_engine_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobEngineKind) iob_choice_arg(fcinfo, argno, "engine", engine_names,
										  lengthof(engine_names));
}

/* Read the "sync_method" argument */
IobSyncMethod
iob_sync_method_arg(FunctionCallInfo fcinfo, int argno)
{
	return (IobSyncMethod) iob_choice_arg(fcinfo, argno, "sync_method",
										  sync_method_names,
										  lengthof(sync_method_names));
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
iob_start_at_arg(FunctionCallInfo fcinfo, int argno)
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

		aclresult = object_aclcheck(TableSpaceRelationId, spcoid, GetUserId(), ACL_CREATE);
		if (aclresult != ACLCHECK_OK)
			iob_tablespace_denied(spcname);
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

/* Raise the error for a setting outside [min, max] */
static void
check_range(const char *name, int64 value, int64 min, int64 max)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s " INT64_FORMAT " is out of range", name, value),
				 errdetail("Valid values are between " INT64_FORMAT " and " INT64_FORMAT ".",
						   min, max)));
}

/* The same for a size in bytes, the limits shown as pg_size_pretty() has them */
static void
check_size_range(const char *name, int64 value, int64 min, int64 max)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s " INT64_FORMAT " is out of range", name, value),
				 errdetail("Valid values are between %s and %s.",
						   iob_size_pretty(min), iob_size_pretty(max))));
}

/* The same for a span in microseconds, the limits in seconds */
static void
check_us_range(const char *name, int64 us, int64 min_us, int64 max_us,
			   bool min_exclusive)
{
	if (us < min_us || us > max_us || (min_exclusive && us == min_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s of " INT64_FORMAT " microseconds is out of range", name, us),
				 min_exclusive ?
				 errdetail("Valid values are greater than %g seconds and at most %g seconds.",
						   (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC) :
				 errdetail("Valid values are between %g and %g seconds.",
						   (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC)));
}

/*
 * A whole number of GB, MB or kB for a limit in a message ("4 GB");
 * pg_size_pretty() would say "4096 MB".
 */
static char *
exact_size(uint64 bytes)
{
	if (bytes >= (UINT64CONST(1) << 30) && bytes % (UINT64CONST(1) << 30) == 0)
		return psprintf(UINT64_FORMAT " GB", bytes >> 30);
	if (bytes >= (UINT64CONST(1) << 20) && bytes % (UINT64CONST(1) << 20) == 0)
		return psprintf(UINT64_FORMAT " MB", bytes >> 20);
	if (bytes >= 1024 && bytes % 1024 == 0)
		return psprintf(UINT64_FORMAT " kB", bytes >> 10);
	return psprintf(UINT64_FORMAT " bytes", bytes);
}

/* steady_band: a share of the mean, more than 0 and at most 100 % */
static void
check_band(double band)
{
	if (!(band > 0 && band <= 100))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady_band %g is out of range", band),
				 errdetail("Valid values are greater than 0 and at most 100 (per cent of the window's mean).")));
}

/* iob_validate_params(): each setting on its own */
static void
check_each_setting(const IobRunParams *params)
{
	if ((int) params->rw < 0 || params->rw > IOB_RW_READWRITE)
		elog(ERROR, "invalid access pattern %d", (int) params->rw);

	check_size_range("block_size", params->block_size,
					 IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE);
	if (params->block_size % IOB_MIN_BLOCK_SIZE != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size %u is not a multiple of %d bytes",
						params->block_size, IOB_MIN_BLOCK_SIZE),
				 errdetail("Storage transfers whole sectors; direct I/O refuses anything else.")));
	check_range("workers", params->workers, 1, iob_max_workers_per_run());
	check_range("iodepth", params->iodepth, 1, IOB_MAX_IODEPTH);
	check_range("files", params->files, 1, IOB_MAX_FILES);
	check_us_range("duration", params->duration_us, IOB_MIN_DURATION_US,
				   (int64) IOB_MAX_DURATION_S * USECS_PER_SEC, false);
	check_us_range("warmup", params->warmup_us, 0,
				   (int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);
	check_range("read_pct", params->read_pct, 0, 100);
	check_range("rewrite_pct", params->rewrite_pct, 0, 100);
	check_range("fsync_every", params->fsync_every, 0, PG_INT32_MAX);
	check_range("rate_iops", params->rate_iops, 0, PG_INT32_MAX);
	check_us_range("stall_threshold", params->stall_threshold_us, 0,
				   (int64) IOB_MAX_STALL_THRESHOLD_S * USECS_PER_SEC, false);
	check_range("progress_interval", params->progress_interval_s, 1,
				IOB_MAX_PROGRESS_INTERVAL_S);
	if (params->steady_state != IOB_STEADY_NONE)
	{
		check_band(params->steady_band_pct);
		check_range("steady_window", params->steady_window_s,
					IOB_MIN_STEADY_WINDOW_S, IOB_MAX_STEADY_WINDOW_S);
		if ((int64) params->steady_window_s * USECS_PER_SEC > params->duration_us)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("steady_window of %d seconds is longer than duration",
							params->steady_window_s),
					 errdetail("Steady state is looked for over whole seconds of the measured period."),
					 errhint("Use a longer duration or a shorter steady_window.")));
	}
}

/* iob_validate_params(): buffer memory, per worker and over all workers */
static void
check_buffers(const IobRunParams *params)
{
	uint64		worker_buffers;
	uint64		run_buffers;

	worker_buffers = (uint64) params->iodepth * params->block_size;
	if (worker_buffers > IOB_MAX_WORKER_BUFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("iodepth %d with block_size %u needs too much buffer memory per worker",
						params->iodepth, params->block_size),
				 errdetail("iodepth times block_size must not exceed %s.",
						   exact_size(IOB_MAX_WORKER_BUFFERS))));
	run_buffers = worker_buffers * (uint64) params->workers;
	if (run_buffers > IOB_MAX_RUN_BUFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workers %d times iodepth %d times block_size %u is " UINT64_FORMAT " bytes of buffer memory, more than the limit of %s",
						params->workers, params->iodepth, params->block_size,
						run_buffers, exact_size(IOB_MAX_RUN_BUFFERS)),
				 errdetail("Each worker holds iodepth times block_size bytes of buffers for the whole run."),
				 errhint("Use fewer workers, a lower iodepth or a smaller block_size.")));
}

/*
 * iob_validate_params(): the settings fit the pattern (the mix, rewrites,
 * syncs, cold reads) and each other (the rate)
 */
static void
check_pattern_rules(const IobRunParams *params)
{
	bool		writes;

	if (!iob_pattern_is_mixed(params->rw) &&
		params->read_pct != (iob_pattern_reads(params->rw) ? 100 : 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("read_pct %d does not fit rw \"%s\"",
						params->read_pct, iob_pattern_name(params->rw)),
				 errdetail("Only the mixed patterns \"randrw\" and \"readwrite\" take a share of reads.")));
	/* rewrites follow reads, and are writes of a reading pattern */
	if (params->rewrite_pct > 0 && params->read_pct == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rewrite_pct %d needs a pattern that reads", params->rewrite_pct),
				 errdetail("rewrite_pct rewrites a share of the blocks read; rw \"%s\" with read_pct %d issues no reads.",
						   iob_pattern_name(params->rw), params->read_pct)));
	writes = iob_pattern_writes(params->rw) || params->rewrite_pct > 0;
	if (params->fsync_every > 0 && !writes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fsync_every %d needs a pattern that writes", params->fsync_every),
				 errdetail("fsync_every counts writes; rw \"%s\" issues none.",
						   iob_pattern_name(params->rw))));
	/* O_DSYNC/O_SYNC make each write durable: nothing left to sync */
	if (iob_sync_method_is_open(params->sync_method) && !writes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sync_method \"%s\" needs a pattern that writes",
						iob_sync_method_name(params->sync_method)),
				 errdetail("sync_method \"%s\" opens the files for synchronous writes; rw \"%s\" issues none.",
						   iob_sync_method_name(params->sync_method),
						   iob_pattern_name(params->rw))));
	if (iob_sync_method_is_open(params->sync_method) && params->fsync_every > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fsync_every %d does not apply to sync_method \"%s\"",
						params->fsync_every, iob_sync_method_name(params->sync_method)),
				 errdetail("With sync_method \"%s\" every write is durable when it returns, as PostgreSQL's WAL writes are; no sync call follows.",
						   iob_sync_method_name(params->sync_method)),
				 errhint("Use fsync_every => 0, or sync_method \"fsync\" or \"fdatasync\".")));
	if (params->cold_reads && params->direct)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cold_reads applies only to buffered I/O"),
				 errdetail("Direct I/O bypasses the page cache already."),
				 errhint("Use direct => false, or leave cold_reads off.")));
	if (params->rate_iops > 0 && params->rate_iops < params->workers)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate_iops %d is lower than the number of workers %d",
						params->rate_iops, params->workers),
				 errdetail("The rate is shared among the workers; each needs at least 1 I/O per second.")));
}

/* See run_options.h */
void
iob_validate_params(const IobRunParams *params)
{
	check_each_setting(params);
	check_buffers(params);

	/* the files hold whole blocks */
	check_size_range("file_size", (int64) params->file_size,
					 params->block_size, IOB_MAX_FILE_SIZE);
	if (params->file_size % params->block_size != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is not a multiple of block_size %u",
						params->file_size, params->block_size)));

	check_pattern_rules(params);
	iob_check_group(params);
	/* every worker keeps every file open: they must fit its descriptors */
	iob_check_fd_limit(params->files);
}

/*
 * Read every argument of iobench.run() into *params, each checked on its own
 * as it is read, then the whole with iob_validate_params().
 */
void
iob_parse_run_args(FunctionCallInfo fcinfo, IobRunParams *params, char **label)
{
	bool		wal;
	bool		mixed;

	memset(params, 0, sizeof(IobRunParams));

	iob_tablespace_arg(fcinfo, ARG_TABLESPACE, params);
	params->rw = (IobPattern) iob_choice_arg(fcinfo, ARG_RW, "rw", pattern_names,
											 lengthof(pattern_names));
	params->block_size = (uint32) iob_size_arg(fcinfo, ARG_BLOCK_SIZE, "block_size",
											   IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE);
	params->workers = iob_workers_arg(fcinfo, ARG_WORKERS);
	params->iodepth = iob_int_arg(fcinfo, ARG_IODEPTH, "iodepth", 1, IOB_MAX_IODEPTH);
	params->duration_us = iob_interval_arg(fcinfo, ARG_DURATION, "duration",
											   IOB_MIN_DURATION_US,
											   (int64) IOB_MAX_DURATION_S * USECS_PER_SEC,
											   false);
	params->warmup_us = iob_interval_arg(fcinfo, ARG_WARMUP, "warmup", 0,
										 (int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);
	params->file_size = iob_size_arg(fcinfo, ARG_FILE_SIZE, "file_size",
									 params->block_size, IOB_MAX_FILE_SIZE);
	params->files = iob_int_arg(fcinfo, ARG_FILES, "files", 1, IOB_MAX_FILES);

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
	iob_require_arg(fcinfo, ARG_DIRECT, "direct");
	params->direct = PG_GETARG_BOOL(ARG_DIRECT);
	params->engine = iob_engine_arg(fcinfo, ARG_ENGINE);
	params->rate_iops = iob_int_arg(fcinfo, ARG_RATE_IOPS, "rate_iops", 0, PG_INT32_MAX);
	params->seed = iob_seed_arg(fcinfo, ARG_SEED);

	*label = PG_ARGISNULL(ARG_LABEL) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(ARG_LABEL));
	params->start_at = iob_start_at_arg(fcinfo, ARG_START_AT);

	params->rewrite_pct = iob_int_arg(fcinfo, ARG_REWRITE_PCT, "rewrite_pct", 0, 100);
	iob_require_arg(fcinfo, ARG_COLD_READS, "cold_reads");
	params->cold_reads = PG_GETARG_BOOL(ARG_COLD_READS);
	/* NULL: stalls are not tracked */
	if (!PG_ARGISNULL(ARG_STALL_THRESHOLD))
		params->stall_threshold_us =
			iob_interval_arg(fcinfo, ARG_STALL_THRESHOLD, "stall_threshold", 0,
							 (int64) IOB_MAX_STALL_THRESHOLD_S * USECS_PER_SEC, true);
	params->progress_interval_s = (int)
		(iob_interval_arg(fcinfo, ARG_PROGRESS_INTERVAL, "progress_interval",
						  USECS_PER_SEC,
						  (int64) IOB_MAX_PROGRESS_INTERVAL_S * USECS_PER_SEC,
						  false) / USECS_PER_SEC);

	/* steady state: NULL is none; the band and window are checked anyway */
	if (!PG_ARGISNULL(ARG_STEADY_STATE))
		params->steady_state = (IobSteadyMetric)
			iob_choice_arg(fcinfo, ARG_STEADY_STATE, "steady_state", steady_names,
						   lengthof(steady_names));
	iob_require_arg(fcinfo, ARG_STEADY_BAND, "steady_band");
	params->steady_band_pct = PG_GETARG_FLOAT8(ARG_STEADY_BAND);
	check_band(params->steady_band_pct);
	params->steady_window_s = (int)
		(iob_interval_arg(fcinfo, ARG_STEADY_WINDOW, "steady_window",
						  (int64) IOB_MIN_STEADY_WINDOW_S * USECS_PER_SEC,
						  (int64) IOB_MAX_STEADY_WINDOW_S * USECS_PER_SEC,
						  false) / USECS_PER_SEC);

	iob_tablespace_group_arg(fcinfo, ARG_TABLESPACES, params);
	if (wal)
		(void) iob_wal_pattern(NULL, params);

	iob_validate_params(params);
}
