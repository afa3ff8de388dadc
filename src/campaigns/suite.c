/*-------------------------------------------------------------------------
 *
 * suite.c
 *	  iobench_internal.suite_plan(): the checked arguments and the runs of
 *	  iobench.suite(), the tests of a named suite on each tablespace.
 *
 * The tests are rows of iobench.suite_tests.  Each runs "repeat" times on
 * every tablespace as an ordinary run; the suite and the membership of its
 * runs are stored in iobench.suites and iobench.suite_runs, and the mean
 * and standard deviation per (test, tablespace) are returned from the
 * iobench.suite_results view.
 *
 * The runs are taken by the suite's body in PL/pgSQL
 * (iobench_internal.suite_body(), 20_presets.sql) within the campaign frame
 * (campaign.c), as the caller, so that the caller's privileges on the
 * tablespaces apply exactly as for iobench.run().  This file checks the
 * arguments, reads the suite's tests, checks each test on each tablespace
 * as a run (any error naming the test), and fits the tests to the engines
 * available: nothing runs before every run of the suite is known to be
 * valid.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"

#include "campaign.h"
#include "base/base.h"
#include "engine/engine.h"
#include "results/results.h"
#include "run/run.h"

PG_FUNCTION_INFO_V1(iobench_suite_plan);

/* Bounds of the suite's "repeat" argument */
#define SUITE_MAX_REPEAT	100

/* Argument positions of iobench.suite() */
enum
{
	SU_ARG_NAME = 0,
	SU_ARG_TABLESPACES,
	SU_ARG_REPEAT,
	SU_ARG_DURATION,
	SU_ARG_WARMUP,
	SU_ARG_FILE_SIZE,
	SU_ARG_DIRECT,
	SU_ARG_ENGINE,
	SU_ARG_SEED,
	SU_ARG_LABEL,
	SU_ARG_WAL_SYNC_METHOD
};

/* One test of a suite, as iobench.suite_tests defines it */
typedef struct SuiteTest
{
	int			test_no;
	char	   *test;
	IobPattern	rw;
	int64		block_size;
	int			workers;
	int			iodepth;
	int			files;
	int			fsync_every;
	IobSyncMethod sync_method;
	bool		wal;			/* sync_method "wal": as the WAL writer
								 * (wal_pattern.h) */
	bool		needs_uring;	/* skip rather than run at iodepth 1 */
} SuiteTest;

/* One call of iobench.suite(): its arguments, its tests, what became of them */
typedef struct Suite
{
	char	   *name;
	SuiteTest  *tests;
	int			ntests;
	Name		tablespaces;
	int			ntablespaces;
	int			repeat;
	IobRunParams common;		/* settings every test shares */
	IobEngineKind engine;		/* as requested */
	bool		seed_given;
	char	   *label;
	char	   *wal_sync_method;	/* for the "wal" tests; NULL: the server's */
	IobRunParams *test_params;	/* [ntests]: the settings of each test's runs */
	char	  **notes;			/* [ntests]: what the suite_runs rows say */
	bool	   *skips;			/* [ntests]: skipped (needs io_uring) */
} Suite;

/* Look up an access pattern by the name "rw" gives it */
static IobPattern
pattern_by_name(const char *name)
{
	int			i;

	for (i = 0; i <= IOB_RW_READWRITE; i++)
		if (strcmp(iob_pattern_name((IobPattern) i), name) == 0)
			return (IobPattern) i;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid access pattern \"%s\" in iobench.suite_tests", name)));
	return IOB_RW_RANDREAD;		/* keep compiler quiet */
}

/*
 * Read the tests of suite "name" from iobench.suite_tests; an unknown name
 * gets an error whose hint lists the suites that exist.
 */
static SuiteTest *
load_suite(const char *name, int *ntests)
{
	IobOwnerScope scope;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	SuiteTest  *tests = NULL;
	MemoryContext callercxt = CurrentMemoryContext;
	uint64		i;

	values[0] = CStringGetTextDatum(name);
	iob_owner_begin(&scope);
	iob_owner_exec("SELECT test_no, test, rw, pg_catalog.pg_size_bytes(block_size), "
			  "workers, iodepth, files, fsync_every, sync_method, needs_uring "
			  "FROM iobench.suite_tests WHERE suite = $1 ORDER BY test_no",
			  1, types, values, NULL, SPI_OK_SELECT);
	*ntests = (int) SPI_processed;
	if (SPI_processed > 0)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(callercxt);

		tests = palloc0(sizeof(SuiteTest) * SPI_processed);
		for (i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			bool		isnull;
			char	   *sync;

			tests[i].test_no = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
			tests[i].test = SPI_getvalue(tup, desc, 2);
			tests[i].rw = pattern_by_name(SPI_getvalue(tup, desc, 3));
			tests[i].block_size = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));
			tests[i].workers = DatumGetInt32(SPI_getbinval(tup, desc, 5, &isnull));
			tests[i].iodepth = DatumGetInt32(SPI_getbinval(tup, desc, 6, &isnull));
			tests[i].files = DatumGetInt32(SPI_getbinval(tup, desc, 7, &isnull));
			tests[i].fsync_every = DatumGetInt32(SPI_getbinval(tup, desc, 8, &isnull));
			sync = SPI_getvalue(tup, desc, 9);
			tests[i].wal = strcmp(sync, "wal") == 0;
			if (!tests[i].wal && !iob_sync_method_by_name(sync, &tests[i].sync_method))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid sync method \"%s\" in iobench.suite_tests", sync)));
			tests[i].needs_uring = DatumGetBool(SPI_getbinval(tup, desc, 10, &isnull));
		}
		MemoryContextSwitchTo(oldcxt);
	}
	else
	{
		StringInfoData valid;

		initStringInfo(&valid);
		iob_owner_exec("SELECT DISTINCT suite FROM iobench.suite_tests ORDER BY 1",
				  0, NULL, NULL, NULL, SPI_OK_SELECT);
		for (i = 0; i < SPI_processed; i++)
			appendStringInfo(&valid, "%s\"%s\"", i > 0 ? ", " : "",
							 SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for argument \"name\": \"%s\"", name),
				 errhint("Valid values are %s.", valid.data)));
	}
	iob_owner_end(&scope);
	return tests;
}

/*
 * Read and check the "tablespaces" argument: at least one, no NULLs, no
 * duplicates (tablespace_group.h), each one a tablespace or group the
 * caller may run a benchmark in.
 */
static Name
tablespaces_arg(FunctionCallInfo fcinfo, int *ntablespaces)
{
	Name		names;
	int			i;

	iob_require_arg(fcinfo, SU_ARG_TABLESPACES, "tablespaces");
	names = iob_tablespace_names_arg(fcinfo, SU_ARG_TABLESPACES, INT_MAX,
									 ntablespaces);
	for (i = 0; i < *ntablespaces; i++)
		iob_check_contender(NameStr(names[i]));
	return names;
}

/* Error context naming the suite test whose settings are being checked */
typedef struct SuiteTestContext
{
	const char *suite;
	const SuiteTest *test;
} SuiteTestContext;

/* Error context callback of suite_test_params(): which test, which suite */
static void
suite_test_error_context(void *arg)
{
	SuiteTestContext *c = (SuiteTestContext *) arg;

	errcontext("test %d \"%s\" of suite \"%s\" (iobench.suite_tests)",
			   c->test->test_no, c->test->test, c->suite);
}

/* Can a run use this block size?  (iob_validate_params() says why not.) */
static bool
block_size_ok(int64 block_size)
{
	return block_size >= IOB_MIN_BLOCK_SIZE && block_size <= IOB_MAX_BLOCK_SIZE &&
		block_size % IOB_MIN_BLOCK_SIZE == 0;
}

/*
 * The settings of a suite test's runs: the suite's common settings and the
 * test's own, workers reduced to iobench.max_workers_per_run, and for a
 * "wal" test the WAL writer's pattern (wal_pattern.h) with wal_sync_method
 * (NULL: the server's); *note says what changed, else NULL.  Checked as iobench.run() checks its arguments,
 * at the test's own iodepth (whether io_uring is there or not), with any
 * error naming the test.
 */
static void
suite_test_params(const char *suite, const SuiteTest *test,
				  const IobRunParams *common, const char *wal_sync_method,
				  IobRunParams *params, char **note)
{
	char	   *wal_note = NULL;
	SuiteTestContext c;
	ErrorContextCallback callback;

	c.suite = suite;
	c.test = test;
	callback.callback = suite_test_error_context;
	callback.arg = &c;
	callback.previous = error_context_stack;
	error_context_stack = &callback;

	/* iob_validate_params() takes a uint32; say so for larger ones here */
	if (test->block_size < 0 || test->block_size > PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size " INT64_FORMAT " is out of range", test->block_size),
				 errdetail("Valid values are between %s and %s.",
						   iob_size_pretty(IOB_MIN_BLOCK_SIZE),
						   iob_size_pretty(IOB_MAX_BLOCK_SIZE))));

	*params = *common;
	params->rw = test->rw;
	params->block_size = (uint32) test->block_size;
	params->workers = Min(test->workers, iob_max_workers_per_run());
	params->iodepth = test->iodepth;
	params->files = test->files;
	params->fsync_every = test->fsync_every;
	params->sync_method = test->sync_method;
	params->read_pct = iob_pattern_is_mixed(test->rw) ? 50 :
		(iob_pattern_reads(test->rw) ? 100 : 0);
	if (test->wal)
		wal_note = iob_wal_pattern(wal_sync_method, params);
	iob_validate_params(params);

	*note = wal_note;
	if (params->workers < test->workers)
		*note = psprintf("%s%sran with %d of its %d workers: iobench.max_workers_per_run and iobench.max_workers_total allow %d",
						 wal_note ? wal_note : "", wal_note ? "; " : "",
						 params->workers, test->workers,
						 iob_max_workers_per_run());

	error_context_stack = callback.previous;
}

/*
 * Read the arguments of iobench.suite() into *suite, in the order of the
 * signature, each checked as iobench.run() checks its own.
 */
static void
read_suite_args(FunctionCallInfo fcinfo, Suite *suite)
{
	IobRunParams *common = &suite->common;
	int64		max_block = 0;
	int			t;

	iob_require_arg(fcinfo, SU_ARG_NAME, "name");
	suite->name = text_to_cstring(PG_GETARG_TEXT_PP(SU_ARG_NAME));
	suite->tests = load_suite(suite->name, &suite->ntests);
	suite->tablespaces = tablespaces_arg(fcinfo, &suite->ntablespaces);
	suite->repeat = iob_int_arg(fcinfo, SU_ARG_REPEAT, "repeat", 1, SUITE_MAX_REPEAT);

	common->duration_us = iob_duration_arg(fcinfo, SU_ARG_DURATION);
	common->warmup_us = iob_warmup_arg(fcinfo, SU_ARG_WARMUP);
	common->progress_interval_s = 1;

	/*
	 * file_size must hold whole blocks of every test.  Tests with a block
	 * size no run can use are left to the checks of each test
	 * (suite_test_params), which name the test.
	 */
	for (t = 0; t < suite->ntests; t++)
		if (block_size_ok(suite->tests[t].block_size))
			max_block = Max(max_block, suite->tests[t].block_size);
	common->file_size = iob_size_arg(fcinfo, SU_ARG_FILE_SIZE, "file_size",
									 Max(max_block, IOB_MIN_BLOCK_SIZE),
									 IOB_MAX_FILE_SIZE);
	for (t = 0; t < suite->ntests; t++)
		if (block_size_ok(suite->tests[t].block_size) &&
			common->file_size % suite->tests[t].block_size != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("file_size " UINT64_FORMAT " is not a multiple of block_size " INT64_FORMAT " of test \"%s\"",
							common->file_size, suite->tests[t].block_size,
							suite->tests[t].test),
					 errhint("Use a file_size that is a multiple of %s.",
							 iob_size_pretty(max_block))));
	iob_require_arg(fcinfo, SU_ARG_DIRECT, "direct");
	common->direct = PG_GETARG_BOOL(SU_ARG_DIRECT);
	suite->engine = iob_engine_arg(fcinfo, SU_ARG_ENGINE);
	if (iob_engine_ops(suite->engine)->check_campaign)
		iob_engine_ops(suite->engine)->check_campaign(IOB_CAMPAIGN_SUITE);
	suite->seed_given = !PG_ARGISNULL(SU_ARG_SEED);
	common->seed = iob_seed_arg(fcinfo, SU_ARG_SEED);
	suite->label = iob_label_arg(fcinfo, SU_ARG_LABEL);
	suite->wal_sync_method = PG_ARGISNULL(SU_ARG_WAL_SYNC_METHOD) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(SU_ARG_WAL_SYNC_METHOD));
	iob_check_wal_sync_method(suite->wal_sync_method);
}

/* The settings of every test's runs, each checked as a run */
static void
check_suite_tests(Suite *suite)
{
	int			n = Max(suite->ntests, 1);
	int			t;

	suite->test_params = palloc(sizeof(IobRunParams) * n);
	suite->notes = palloc0(sizeof(char *) * n);
	suite->skips = palloc0(sizeof(bool) * n);
	for (t = 0; t < suite->ntests; t++)
		suite_test_params(suite->name, &suite->tests[t], &suite->common,
						  suite->wal_sync_method, &suite->test_params[t],
						  &suite->notes[t]);
}

/*
 * Decide once whether queue depths above 1 are possible (engine.c decides
 * what is available).  Without io_uring, tests that need it are skipped and
 * the others run at iodepth 1 with psync; a NOTICE and the rows say so.
 * Nothing is faked.  The WAL test keeps engine psync whatever the suite's
 * engine: the server writes WAL with pwrite() (wal_pattern.h).
 */
static void
fit_tests_to_engine(Suite *suite)
{
	bool		psync_asked = (suite->engine == IOB_ENGINE_PSYNC);
	bool		uring_ok = false;
	int			t;

	if (!psync_asked)
	{
		/* raises the error for engine => 'io_uring' when it is not there */
		uring_ok = (iob_engine_uring_unavailable(suite->engine) == 0);
		if (!uring_ok)
			ereport(NOTICE,
					(errmsg("io_uring is not available (%m); suite \"%s\" runs with engine \"psync\" at iodepth 1",
							suite->name),
					 errdetail("Tests that need a deeper queue are skipped; their rows say so.")));
	}

	for (t = 0; t < suite->ntests; t++)
	{
		const SuiteTest *test = &suite->tests[t];
		IobRunParams *params = &suite->test_params[t];
		char	   *iodepth_note;

		/* the WAL test writes with pwrite(), as the server (wal_pattern.h) */
		if (!test->wal)
			params->engine = uring_ok ? suite->engine : IOB_ENGINE_PSYNC;
		if (test->iodepth <= 1 || uring_ok)
			continue;
		if (test->needs_uring)
		{
			suite->skips[t] = true;
			suite->notes[t] = psprintf("skipped: iodepth %d needs io_uring, which %s",
									   test->iodepth,
									   psync_asked ? "engine \"psync\" excludes" :
									   "is not available");
			continue;
		}
		params->iodepth = 1;
		iodepth_note = psprintf("ran at iodepth 1 instead of %d: %s",
								test->iodepth,
								psync_asked ? "engine \"psync\" was requested" :
								"io_uring is not available");
		suite->notes[t] = suite->notes[t] ?
			psprintf("%s; %s", suite->notes[t], iodepth_note) : iodepth_note;
	}
}

/*
 * The settings of test t's runs on contender s (a tablespace or a group),
 * checked as a run; any error names the test
 */
static void
contender_run_params(const Suite *suite, int t, int s, IobRunParams *params)
{
	SuiteTestContext c;
	ErrorContextCallback callback;

	c.suite = suite->name;
	c.test = &suite->tests[t];
	callback.callback = suite_test_error_context;
	callback.arg = &c;
	callback.previous = error_context_stack;
	error_context_stack = &callback;

	*params = suite->test_params[t];
	iob_contender_params(NameStr(suite->tablespaces[s]), params);
	iob_validate_params(params);

	error_context_stack = callback.previous;
}

/*
 * The plan as jsonb: "campaign", the columns of the iobench.suites row;
 * "name"; "tablespaces"; "repeat"; "tests", each with its test_no, test,
 * note (what the suite_runs rows say), skip, and "runs": per contender in
 * order, the arguments of iobench.run() for the test's runs on it.
 */
static Datum
suite_plan_jsonb(const Suite *suite)
{
	const IobRunParams *common = &suite->common;
	StringInfoData buf;
	int			t;
	int			s;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"campaign\": {");
	iob_json_text(&buf, "name", suite->name);
	appendStringInfoString(&buf, ", \"tablespaces\": [");
	for (s = 0; s < suite->ntablespaces; s++)
	{
		if (s > 0)
			appendStringInfoString(&buf, ", ");
		escape_json(&buf, NameStr(suite->tablespaces[s]));
	}
	appendStringInfoChar(&buf, ']');
	iob_json_int(&buf, "repeat", suite->repeat);
	iob_json_text(&buf, "duration", psprintf(INT64_FORMAT " microseconds", common->duration_us));
	iob_json_text(&buf, "warmup", psprintf(INT64_FORMAT " microseconds", common->warmup_us));
	iob_json_int(&buf, "file_size", (int64) common->file_size);
	iob_json_text(&buf, "direct", common->direct ? "true" : "false");
	iob_json_text(&buf, "engine", iob_engine_kind_name(suite->engine));
	if (suite->seed_given)
		iob_json_int(&buf, "seed", (int64) common->seed);
	else
		iob_json_text(&buf, "seed", NULL);
	iob_json_text(&buf, "label", suite->label);
	appendStringInfoString(&buf, "}");
	iob_json_text(&buf, "name", suite->name);
	iob_json_int(&buf, "repeat", suite->repeat);
	appendStringInfoString(&buf, ", \"tests\": [");
	for (t = 0; t < suite->ntests; t++)
	{
		appendStringInfoString(&buf, t > 0 ? ", {" : "{");
		iob_json_int(&buf, "test_no", suite->tests[t].test_no);
		iob_json_text(&buf, "test", suite->tests[t].test);
		iob_json_text(&buf, "note", suite->notes[t]);
		iob_json_text(&buf, "skip", suite->skips[t] ? "true" : "false");
		appendStringInfoString(&buf, ", \"runs\": [");
		for (s = 0; s < suite->ntablespaces; s++)
		{
			IobRunParams params;

			if (s > 0)
				appendStringInfoString(&buf, ", ");
			if (suite->skips[t])
			{
				appendStringInfoString(&buf, "{}");
				continue;
			}
			contender_run_params(suite, t, s, &params);
			iob_json_run_args(&buf, &params, suite->seed_given);
		}
		appendStringInfoString(&buf, "]}");
	}
	appendStringInfoString(&buf, "]}");
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * SQL entry point: iobench_internal.suite_plan(...), with the arguments of
 * iobench.suite().  Checks everything up front (the arguments, and every
 * test of the suite on every tablespace as a run) and returns the plan.
 */
Datum
iobench_suite_plan(PG_FUNCTION_ARGS)
{
	Suite		suite;

	IOB_SQL_ENTRY(11);
	memset(&suite, 0, sizeof(suite));
	read_suite_args(fcinfo, &suite);
	check_suite_tests(&suite);
	iob_campaign_check_allowed("suite");
	fit_tests_to_engine(&suite);
	PG_RETURN_DATUM(suite_plan_jsonb(&suite));
}
