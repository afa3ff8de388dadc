/*-------------------------------------------------------------------------
 *
 * sql_args.c
 *	  Reading SQL function arguments of general kinds (sql_args.h): NULL
 *	  checks, integers, sizes, intervals and keywords, each with the error
 *	  that names the argument and its valid range.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "settings.h"
#include "sql_args.h"

/* See sql_args.h */
int
iob_errdetail_seconds(int64 min_us, int64 max_us, bool min_exclusive)
{
	if (min_exclusive)
		return errdetail("Valid values are greater than %g seconds and at most %g seconds.",
						 (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC);
	return errdetail("Valid values are between %g and %g seconds.",
					 (double) min_us / USECS_PER_SEC, (double) max_us / USECS_PER_SEC);
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

/* What a size argument's error context names: the argument, its range */
typedef struct SizeArgContext
{
	const char *name;
	const char *min_text;
	const char *max_text;
} SizeArgContext;

/* Error context callback of iob_size_arg(): which argument was parsed */
static void
size_arg_context(void *arg)
{
	SizeArgContext *ctx = (SizeArgContext *) arg;

	errcontext("argument \"%s\", a size between %s and %s",
			   ctx->name, ctx->min_text, ctx->max_text);
}

/*
 * Read a size argument ("8kB", "1GB", plain bytes) and check its range.
 * The text is parsed by pg_size_bytes() itself, so it takes exactly what
 * the server's release takes ('8192B' from PostgreSQL 16 on); an error of
 * its own ("invalid size", "bigint out of range") names the argument
 * through the error context.
 */
uint64
iob_size_arg(FunctionCallInfo fcinfo, int argno, const char *name,
		 int64 min, int64 max)
{
	text	   *value;
	int64		bytes;
	SizeArgContext ctx;
	ErrorContextCallback callback;

	iob_require_arg(fcinfo, argno, name);
	value = PG_GETARG_TEXT_PP(argno);

	ctx.name = name;
	ctx.min_text = iob_size_pretty(min);
	ctx.max_text = iob_size_pretty(max);
	callback.callback = size_arg_context;
	callback.arg = &ctx;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	bytes = DatumGetInt64(DirectFunctionCall1(pg_size_bytes, PointerGetDatum(value)));
	error_context_stack = callback.previous;

	if (bytes < min || bytes > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is out of range for argument \"%s\"",
						text_to_cstring(value), name),
				 errdetail("Valid values are between %s and %s.",
						   ctx.min_text, ctx.max_text)));
	return (uint64) bytes;
}

/*
 * An interval in microseconds, a month counting as 30 days as elsewhere in
 * PostgreSQL.  Returns false when a product or sum overflows int64: such an
 * interval (hundreds of thousands of years) is beyond every limit here.
 */
bool
iob_interval_us(const Interval *span, int64 *us)
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
	if (!iob_interval_us(span, &us) ||
		us < min_us || us > max_us || (min_exclusive && us == min_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is out of range for argument \"%s\"",
						DatumGetCString(DirectFunctionCall1(interval_out, PointerGetDatum(span))),
						name),
				 iob_errdetail_seconds(min_us, max_us, min_exclusive)));
	return us;
}

/* Read the "label" argument: NULL, or a text of at most IOB_MAX_LABEL_CHARS */
char *
iob_label_arg(FunctionCallInfo fcinfo, int argno)
{
	char	   *label;
	int			chars;

	if (PG_ARGISNULL(argno))
		return NULL;
	label = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	chars = pg_mbstrlen(label);
	if (chars > IOB_MAX_LABEL_CHARS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"label\" is %d characters long, more than the limit of %d",
						chars, IOB_MAX_LABEL_CHARS),
				 errdetail("A run's label is exported with it, and imports take texts of at most 8192 characters, the names a suite or search adds included.")));
	return label;
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
 * A size for messages, in pg_size_pretty()'s units (bytes, kB, MB, GB, TB,
 * 1024-based as PostgreSQL's), in the largest unit it reaches: a whole
 * number when that unit divides it (2 GB, where pg_size_pretty() says
 * 2048 MB, and what a user typed as '2GB' reads as), else one decimal
 * (2.5 GB, 68.3 GB).
 */
char *
iob_size_pretty(int64 bytes)
{
	static const struct
	{
		int64		size;
		const char *name;
	}			units[] = {
		{INT64CONST(1) << 40, "TB"},
		{INT64CONST(1) << 30, "GB"},
		{INT64CONST(1) << 20, "MB"},
		{INT64CONST(1) << 10, "kB"},
	};
	int			i;

	for (i = 0; i < (int) lengthof(units); i++)
	{
		if (bytes < units[i].size)
			continue;
		if (bytes % units[i].size == 0)
			return psprintf(INT64_FORMAT " %s", bytes / units[i].size, units[i].name);
		return psprintf("%.1f %s", (double) bytes / units[i].size, units[i].name);
	}
	return psprintf(INT64_FORMAT " bytes", bytes);
}
