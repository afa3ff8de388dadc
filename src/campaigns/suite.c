/*-------------------------------------------------------------------------
 *
 * suite.c
 *	  iobench.suite(): the tests of a named suite run back to back on each
 *	  tablespace.
 *
 * The tests are rows of iobench.suite_tests.  Each runs "repeat" times on
 * every tablespace as an ordinary run (iob_execute_run()); the suite and
 * the membership of its runs are stored in iobench.suites and
 * iobench.suite_runs, and the mean and standard deviation per (test,
 * tablespace) are returned from the iobench.suite_results view.
 *
 * The benchmarks run as the caller, so the caller's privileges on the
 * tablespaces apply exactly as for iobench.run(); the suite's own rows are
 * written as the owner of the iobench schema, as run_store.c writes runs.
 *
 * Everything a suite stores is written in a subtransaction of its own, and
 * each test runs in a nested one.  A test that ends in an error (a cancel,
 * above all) ends the suite with that error: the suite is marked
 * "cancelled", its rows are read out, the suite's subtransaction is rolled
 * back, and a storer worker (store_worker.h) stores those rows in a
 * transaction of its own, so a long suite cancelled near its end keeps
 * what it measured.
 *
 * The flow of one call (arguments, tests, the rows it stores, keeping a
 * cancelled suite) reads top to bottom over the private Suite struct.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "engine/engine.h"
#include "base/base.h"
#include "run/run.h"
#include "results/results.h"

PG_FUNCTION_INFO_V1(iobench_suite);

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
	int64		suite_id;
	MemoryContext cxt;			/* of the call, for what outlives a test */
	ErrorData  *error;			/* the error that ended a test, or NULL */
	int			failed_t;		/* ... and where: test, repeat, tablespace */
	int			failed_r;
	int			failed_s;
	IobRunResult last_run;		/* how the last run ended (its id when it
								 * failed: keep_failed_suite) */
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

/* Insert the iobench.suites row; returns its suite_id */
static int64
insert_suite(const char *name, Name tablespaces, int ntablespaces, int repeat,
			 const IobRunParams *common, IobEngineKind engine, bool seed_given,
			 const char *label)
{
	Datum	   *names = palloc(sizeof(Datum) * ntablespaces);
	Oid			types[10] = {TEXTOID, NAMEARRAYOID, INT4OID, INTERVALOID, INTERVALOID,
	INT8OID, BOOLOID, TEXTOID, INT8OID, TEXTOID};
	Datum		values[10];
	char		nulls[10];
	Interval   *duration = palloc0(sizeof(Interval));
	Interval   *warmup = palloc0(sizeof(Interval));
	bool		isnull;
	int			i;

	for (i = 0; i < ntablespaces; i++)
		names[i] = NameGetDatum(&tablespaces[i]);
	duration->time = common->duration_us;
	warmup->time = common->warmup_us;
	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(name);
	values[1] = PointerGetDatum(construct_array(names, ntablespaces, NAMEOID,
												NAMEDATALEN, false, TYPALIGN_CHAR));
	values[2] = Int32GetDatum(repeat);
	values[3] = IntervalPGetDatum(duration);
	values[4] = IntervalPGetDatum(warmup);
	values[5] = Int64GetDatum((int64) common->file_size);
	values[6] = BoolGetDatum(common->direct);
	values[7] = CStringGetTextDatum(iob_engine_kind_name(engine));
	values[8] = Int64GetDatum((int64) common->seed);
	if (!seed_given)
		nulls[8] = 'n';
	values[9] = label ? CStringGetTextDatum(label) : (Datum) 0;
	if (label == NULL)
		nulls[9] = 'n';

	return DatumGetInt64(iob_owner_value("INSERT INTO iobench.suites (name, tablespaces, repeat, "
										 "duration, warmup, file_size, direct, engine, seed, "
										 "label, status, started_at) "
										 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
										 "'running', pg_catalog.clock_timestamp()) "
										 "RETURNING suite_id",
										 10, types, values, nulls,
										 SPI_OK_INSERT_RETURNING, &isnull));
}

/* Record one member of the suite: a run, or a test skipped (run_id NULL) */
static void
insert_suite_run(int64 suite_id, const SuiteTest *test, const char *tablespace,
				 int repeat_no, int64 run_id, const char *note)
{
	Oid			types[7] = {INT8OID, INT4OID, TEXTOID, NAMEOID, INT4OID, INT8OID, TEXTOID};
	Datum		values[7];
	char		nulls[7];
	NameData	spc;

	namestrcpy(&spc, tablespace);
	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(suite_id);
	values[1] = Int32GetDatum(test->test_no);
	values[2] = CStringGetTextDatum(test->test);
	values[3] = NameGetDatum(&spc);
	values[4] = Int32GetDatum(repeat_no);
	values[5] = Int64GetDatum(run_id);
	values[6] = note ? CStringGetTextDatum(note) : (Datum) 0;
	if (run_id == 0)
		nulls[5] = 'n';
	if (note == NULL)
		nulls[6] = 'n';

	iob_owner_run("INSERT INTO iobench.suite_runs (suite_id, test_no, test, tablespace, "
				  "repeat_no, run_id, note) VALUES ($1, $2, $3, $4, $5, $6, $7)",
				  7, types, values, nulls, SPI_OK_INSERT);
}

/* Mark the suite finished with the given status */
static void
finish_suite(int64 suite_id, const char *status)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];

	values[0] = Int64GetDatum(suite_id);
	values[1] = CStringGetTextDatum(status);
	iob_owner_run("UPDATE iobench.suites SET status = $2, "
				  "finished_at = pg_catalog.clock_timestamp() WHERE suite_id = $1",
				  2, types, values, NULL, SPI_OK_UPDATE);
}

/* Put the suite's rows of iobench.suite_results into the SRF's tuplestore */
static void
return_suite_results(FunctionCallInfo fcinfo, int64 suite_id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	values[0] = Int64GetDatum(suite_id);
	iob_owner_return_rows(fcinfo, "SELECT * FROM iobench.suite_results WHERE suite_id = $1 "
						  "ORDER BY test_no, tablespace_no", 1, types, values);
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
 * Run test t on tablespace s (repeat r of suite->repeat) and record it in
 * iobench.suite_runs.  Returns false when the run was cancelled.
 */
static bool
run_suite_test(Suite *suite, int t, int r, int s)
{
	const SuiteTest *test = &suite->tests[t];
	IobRunParams *params = &suite->test_params[t];
	char	   *run_label;

	/* a tablespace, or a group 'a+b' (tablespace_group.h) */
	params->files = test->files;
	iob_contender_params(NameStr(suite->tablespaces[s]), params);
	iob_validate_params(params);
	if (!suite->seed_given)
		params->seed = (uint64) pg_prng_int64p(&pg_global_prng_state);
	run_label = psprintf("%s #" INT64_FORMAT ": %s", suite->name, suite->suite_id,
						 test->test);
	if (iobench_progress)
		ereport(NOTICE,
				(errmsg("iobench suite %s #" INT64_FORMAT ": test %d/%d \"%s\" on \"%s\", repeat %d/%d",
						suite->name, suite->suite_id, t + 1, suite->ntests,
						test->test, NameStr(suite->tablespaces[s]), r,
						suite->repeat)));

	iob_execute_run(params, run_label, IOB_PROGRESS_RATES, &suite->last_run);
	insert_suite_run(suite->suite_id, test, NameStr(suite->tablespaces[s]), r,
					 suite->last_run.run_id, suite->notes[t]);
	return suite->last_run.completed;
}

/*
 * Run one test (run_suite_test) in a subtransaction: an error, a cancel
 * above all, is caught and kept in suite->error with where it happened, so
 * that the suite can keep what it did (keep_failed_suite) before the error
 * goes on.  Returns false on an error.
 */
static bool
run_suite_test_guarded(Suite *suite, int t, int r, int s)
{
	IobSubxact	sx;
	volatile bool completed = true;	/* set in PG_CATCH, read after it */

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		(void) run_suite_test(suite, t, r, s);
		iob_subxact_commit(&sx);
	}
	PG_CATCH();
	{
		suite->error = iob_subxact_catch(&sx, suite->cxt);
		suite->failed_t = t;
		suite->failed_r = r;
		suite->failed_s = s;
		completed = false;
	}
	PG_END_TRY();
	return completed;
}

/*
 * Run every test on every tablespace "repeat" times: test by test, within a
 * test repeat by repeat, within a repeat tablespace by tablespace, so that
 * drift of the machine during a long suite affects every tablespace alike.
 * A skipped test gets one row per tablespace.  Returns false when a test
 * ended in an error (suite->error), which ends the suite.
 */
static bool
run_suite_tests(Suite *suite)
{
	MemoryContext runcxt;
	bool		completed = true;
	int			t;
	int			r;
	int			s;

	runcxt = AllocSetContextCreate(CurrentMemoryContext, "iobench suite run",
								   ALLOCSET_DEFAULT_SIZES);
	for (t = 0; t < suite->ntests && completed; t++)
		for (r = 1; r <= suite->repeat && completed; r++)
			for (s = 0; s < suite->ntablespaces && completed; s++)
			{
				MemoryContext oldcxt;

				if (suite->skips[t])
				{
					if (r == 1)
						insert_suite_run(suite->suite_id, &suite->tests[t],
										 NameStr(suite->tablespaces[s]), r, 0,
										 suite->notes[t]);
					continue;
				}
				oldcxt = MemoryContextSwitchTo(runcxt);
				completed = run_suite_test_guarded(suite, t, r, s);
				MemoryContextSwitchTo(oldcxt);
				MemoryContextReset(runcxt);
			}
	MemoryContextDelete(runcxt);
	return completed;
}

/*
 * A test ended in an error (a cancel above all): record the run that
 * failed, if its storer kept it, mark the suite cancelled, and return the
 * suite's rows for iob_store_rows_detached().  Runs in the suite's own
 * subtransaction, which the caller then rolls back: the rows must not
 * stay uncommitted in this transaction while the storer inserts them
 * (their keys would make it wait for this transaction).
 */
static char *
keep_failed_suite(Suite *suite)
{
	int64		run_id = suite->last_run.failed ? suite->last_run.run_id : 0;
	int			t = suite->failed_t;

	if (run_id > 0)
		insert_suite_run(suite->suite_id, &suite->tests[t],
						 NameStr(suite->tablespaces[suite->failed_s]),
						 suite->failed_r, run_id, suite->notes[t]);
	finish_suite(suite->suite_id, "cancelled");
	return iob_export_suite_rows(suite->suite_id, run_id);
}

/* Add a sentence to an error's DETAIL */
static void
add_detail(ErrorData *edata, const char *sentence)
{
	edata->detail = edata->detail ?
		psprintf("%s %s", edata->detail, sentence) : pstrdup(sentence);
}

/*
 * After keep_failed_suite() and the rollback of the suite's subtransaction:
 * store the suite's rows from a process that commits on its own, and go on
 * with the test's error, its DETAIL saying what was kept.
 */
static void
rethrow_failed_suite(Suite *suite, const char *kept)
{
	const char *why = NULL;

	if (kept != NULL && iob_store_rows_detached(kept, &why))
		add_detail(suite->error,
				   psprintf("The suite is kept as suite " INT64_FORMAT " with status \"cancelled\" and the runs done before.",
							suite->suite_id));
	else
		add_detail(suite->error,
				   psprintf("The suite could not be kept: %s.", why ? why : "its rows could not be read"));
	ReThrowError(suite->error);
}

/*
 * SQL entry point: iobench.suite(...).  Validates everything up front (the
 * arguments, and every test of the suite as a run), runs the tests, and
 * returns one row per (test, tablespace) with the mean and standard
 * deviation over the repeats.  Everything the suite stores is written in a
 * subtransaction of its own: a test that ends in an error (a cancel) ends
 * the suite with that error, and the suite is kept as "cancelled" with the
 * runs done before by a process that commits on its own (store_worker.h).
 */
Datum
iobench_suite(PG_FUNCTION_ARGS)
{
	Suite		suite;
	IobSubxact	sx;
	char	   *volatile kept = NULL;	/* set in PG_TRY, read after it */

	IOB_SQL_ENTRY(11);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	iob_check_run_waits_scope();
	/* a suite is its stored rows: unlike run(), it needs a writable server */
	PreventCommandDuringRecovery("iobench.suite()");
	PreventCommandIfReadOnly("iobench.suite()");
	memset(&suite, 0, sizeof(suite));
	suite.cxt = CurrentMemoryContext;
	read_suite_args(fcinfo, &suite);
	check_suite_tests(&suite);
	fit_tests_to_engine(&suite);

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		suite.suite_id = insert_suite(suite.name, suite.tablespaces, suite.ntablespaces,
									  suite.repeat, &suite.common, suite.engine,
									  suite.seed_given, suite.label);
		if (run_suite_tests(&suite))
			finish_suite(suite.suite_id, "completed");
		else
			kept = keep_failed_suite(&suite);
	}
	PG_CATCH();
	{
		/* an error outside the tests, or while keeping the suite */
		ErrorData  *edata = iob_subxact_catch(&sx, sx.cxt);

		if (suite.error == NULL)
			ReThrowError(edata);
		rethrow_failed_suite(&suite, NULL);
	}
	PG_END_TRY();

	if (suite.error != NULL)
	{
		iob_subxact_rollback(&sx);
		rethrow_failed_suite(&suite, kept);
	}
	iob_subxact_commit(&sx);

	return_suite_results(fcinfo, suite.suite_id);
	return (Datum) 0;
}
