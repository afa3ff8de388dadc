/*-------------------------------------------------------------------------
 *
 * presets.c
 *	  Workloads built on iob_execute_run(): iobench.pgiosim() and
 *	  iobench.suite().
 *
 * pgiosim: random 8 kB buffered reads from a cold cache over several files,
 * a share of them followed by a rewrite of the same block and an fsync,
 * with write stalls (write + fsync over a threshold) counted and listed and
 * a progress line every 10 seconds, as the original tool printed.
 *
 * suite: the tests of a named suite (rows of iobench.suite_tests) run one
 * after the other on each tablespace, "repeat" times, each as an ordinary
 * run; the suite and the membership of its runs are stored in
 * iobench.suites and iobench.suite_runs, and the mean and standard deviation
 * per (test, tablespace) are returned from the iobench.suite_results view.
 *
 * Both run their benchmarks as the caller, so the caller's privileges on
 * the tablespaces apply exactly as for iobench.run(); the suite's own rows
 * are written as the owner of the iobench schema, as results.c writes runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "engine.h"
#include "iobench.h"
#include "owner_spi.h"
#include "results.h"
#include "run.h"
#include "run_options.h"

PG_FUNCTION_INFO_V1(iobench_pgiosim);
PG_FUNCTION_INFO_V1(iobench_suite);

/* pgiosim reads and rewrites PostgreSQL-sized pages */
#define PGIOSIM_BLOCK_SIZE	8192

/* Longest stall threshold and progress interval accepted: one hour */
#define PRESET_MAX_INTERVAL_US	((int64) 3600 * USECS_PER_SEC)

/* Bounds of the suite's "repeat" argument */
#define SUITE_MAX_REPEAT	100

/* Argument positions of iobench.pgiosim() */
enum
{
	PG_ARG_TABLESPACE = 0,
	PG_ARG_FILES,
	PG_ARG_WORKERS,
	PG_ARG_WRITE_PCT,
	PG_ARG_FSYNC,
	PG_ARG_STALL_THRESHOLD,
	PG_ARG_DURATION,
	PG_ARG_FILE_SIZE,
	PG_ARG_WARMUP,
	PG_ARG_SYNC_METHOD,
	PG_ARG_PROGRESS_INTERVAL,
	PG_ARG_SEED,
	PG_ARG_LABEL
};

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
	SU_ARG_LABEL
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
	bool		use_fdatasync;
	bool		needs_uring;	/* skip rather than run at iodepth 1 */
} SuiteTest;

/*
 * SQL entry point: iobench.pgiosim(...).  Validates the arguments, builds
 * the run's settings and runs it; returns the stored iobench.runs row.
 */
Datum
iobench_pgiosim(PG_FUNCTION_ARGS)
{
	IobRunParams params;
	bool		fsync;
	char	   *label;

	memset(&params, 0, sizeof(params));
	iob_tablespace_arg(fcinfo, PG_ARG_TABLESPACE, &params);
	params.files = iob_int_arg(fcinfo, PG_ARG_FILES, "files", 1, IOB_MAX_FILES);
	params.workers = iob_int_arg(fcinfo, PG_ARG_WORKERS, "workers", 1,
								 iobench_max_workers_per_run);
	params.rewrite_pct = iob_int_arg(fcinfo, PG_ARG_WRITE_PCT, "write_pct", 0, 100);
	iob_require_arg(fcinfo, PG_ARG_FSYNC, "fsync");
	fsync = PG_GETARG_BOOL(PG_ARG_FSYNC);
	params.stall_threshold_us = iob_interval_arg(fcinfo, PG_ARG_STALL_THRESHOLD,
												 "stall_threshold", 0,
												 PRESET_MAX_INTERVAL_US, true);
	params.duration_us = iob_interval_arg(fcinfo, PG_ARG_DURATION, "duration", 0,
										  (int64) IOB_MAX_DURATION_S * USECS_PER_SEC,
										  true);
	params.file_size = iob_size_arg(fcinfo, PG_ARG_FILE_SIZE, "file_size",
									PGIOSIM_BLOCK_SIZE, IOB_MAX_FILE_SIZE);
	if (params.file_size % PGIOSIM_BLOCK_SIZE != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is not a multiple of %d bytes",
						params.file_size, PGIOSIM_BLOCK_SIZE),
				 errdetail("pgiosim reads and writes whole 8 kB blocks.")));
	params.warmup_us = iob_interval_arg(fcinfo, PG_ARG_WARMUP, "warmup", 0,
										(int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);
	params.use_fdatasync = iob_sync_method_arg(fcinfo, PG_ARG_SYNC_METHOD);
	params.progress_interval_s = (int)
		(iob_interval_arg(fcinfo, PG_ARG_PROGRESS_INTERVAL, "progress_interval",
						  USECS_PER_SEC, PRESET_MAX_INTERVAL_US, false) / USECS_PER_SEC);
	params.seed = iob_seed_arg(fcinfo, PG_ARG_SEED);
	label = PG_ARGISNULL(PG_ARG_LABEL) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(PG_ARG_LABEL));

	/* the workload: what pgiosim -w W -y does, with reads made cold */
	params.rw = IOB_RW_RANDREAD;
	params.read_pct = 100;
	params.block_size = PGIOSIM_BLOCK_SIZE;
	params.iodepth = 1;
	/* counts writes: a sync per rewrite; without rewrites nothing to sync */
	params.fsync_every = (fsync && params.rewrite_pct > 0) ? 1 : 0;
	params.direct = false;
	params.cold_reads = true;	/* reads stay cold: pgiosim's IOPS climbed as
								 * the page cache warmed */
	params.engine = IOB_ENGINE_PSYNC;	/* pread/pwrite, as pgiosim */
	params.progress_counts = true;

	iob_validate_params(&params);
	PG_RETURN_DATUM(iob_execute_run(&params, label));
}

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
			tests[i].use_fdatasync = strcmp(sync, "fdatasync") == 0;
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
 * duplicates, each one a tablespace the caller may run a benchmark in.
 */
static Name
tablespaces_arg(FunctionCallInfo fcinfo, int *ntablespaces)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;
	int			j;
	Name		names;

	iob_require_arg(fcinfo, SU_ARG_TABLESPACES, "tablespaces");
	arr = PG_GETARG_ARRAYTYPE_P(SU_ARG_TABLESPACES);
	deconstruct_array(arr, NAMEOID, NAMEDATALEN, false, TYPALIGN_CHAR,
					  &elems, &nulls, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" must name at least one tablespace")));
	names = palloc(sizeof(NameData) * n);
	for (i = 0; i < n; i++)
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
		(void) iob_check_tablespace(NameStr(names[i]));
	}
	*ntablespaces = n;
	return names;
}

/* Insert the iobench.suites row; returns its suite_id */
static int64
insert_suite(const char *name, Name tablespaces, int ntablespaces, int repeat,
			 const IobRunParams *common, IobEngineKind engine, bool seed_given,
			 const char *label)
{
	IobOwnerScope scope;
	Datum	   *names = palloc(sizeof(Datum) * ntablespaces);
	Oid			types[10] = {TEXTOID, NAMEARRAYOID, INT4OID, INTERVALOID, INTERVALOID,
	INT8OID, BOOLOID, TEXTOID, INT8OID, TEXTOID};
	Datum		values[10];
	char		nulls[10];
	Interval   *duration = palloc0(sizeof(Interval));
	Interval   *warmup = palloc0(sizeof(Interval));
	bool		isnull;
	int64		suite_id;
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

	iob_owner_begin(&scope);
	iob_owner_exec("INSERT INTO iobench.suites (name, tablespaces, repeat, duration, warmup, "
			  "file_size, direct, engine, seed, label, status, started_at) "
			  "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'running', "
			  "pg_catalog.clock_timestamp()) RETURNING suite_id",
			  10, types, values, nulls, SPI_OK_INSERT_RETURNING);
	suite_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										   SPI_tuptable->tupdesc, 1, &isnull));
	iob_owner_end(&scope);
	return suite_id;
}

/* Record one member of the suite: a run, or a test skipped (run_id NULL) */
static void
insert_suite_run(int64 suite_id, const SuiteTest *test, const char *tablespace,
				 int repeat_no, int64 run_id, const char *note)
{
	IobOwnerScope scope;
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

	iob_owner_begin(&scope);
	iob_owner_exec("INSERT INTO iobench.suite_runs (suite_id, test_no, test, tablespace, "
			  "repeat_no, run_id, note) VALUES ($1, $2, $3, $4, $5, $6, $7)",
			  7, types, values, nulls, SPI_OK_INSERT);
	iob_owner_end(&scope);
}

/* Mark the suite finished with the given status */
static void
finish_suite(int64 suite_id, const char *status)
{
	IobOwnerScope scope;
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];

	values[0] = Int64GetDatum(suite_id);
	values[1] = CStringGetTextDatum(status);
	iob_owner_begin(&scope);
	iob_owner_exec("UPDATE iobench.suites SET status = $2, "
			  "finished_at = pg_catalog.clock_timestamp() WHERE suite_id = $1",
			  2, types, values, NULL, SPI_OK_UPDATE);
	iob_owner_end(&scope);
}

/* Put the suite's rows of iobench.suite_results into the SRF's tuplestore */
static void
return_suite_results(FunctionCallInfo fcinfo, int64 suite_id)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	IobOwnerScope scope;
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	uint64		i;

	InitMaterializedSRF(fcinfo, 0);
	values[0] = Int64GetDatum(suite_id);
	iob_owner_begin(&scope);
	iob_owner_exec("SELECT * FROM iobench.suite_results WHERE suite_id = $1 "
			  "ORDER BY test_no, tablespace_no",
			  1, types, values, NULL, SPI_OK_SELECT);
	for (i = 0; i < SPI_processed; i++)
	{
		Datum	   *cols = palloc(sizeof(Datum) * rsinfo->setDesc->natts);
		bool	   *isnull = palloc(sizeof(bool) * rsinfo->setDesc->natts);
		int			c;

		if (SPI_tuptable->tupdesc->natts != rsinfo->setDesc->natts)
			elog(ERROR, "iobench.suite_results does not match the result type of iobench.suite()");
		for (c = 0; c < rsinfo->setDesc->natts; c++)
			cols[c] = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
									c + 1, &isnull[c]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, cols, isnull);
	}
	iob_owner_end(&scope);
}

/* Error context naming the suite test whose settings are being checked */
typedef struct SuiteTestContext
{
	const char *suite;
	const SuiteTest *test;
} SuiteTestContext;

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
 * test's own, workers reduced to iobench.max_workers_per_run (*workers_note
 * then says so, else NULL).  Checked as iobench.run() checks its arguments,
 * at the test's own iodepth (whether io_uring is there or not), with any
 * error naming the test.
 */
static void
suite_test_params(const char *suite, const SuiteTest *test,
				  const IobRunParams *common, IobRunParams *params,
				  char **workers_note)
{
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
	params->workers = Min(test->workers, iobench_max_workers_per_run);
	params->iodepth = test->iodepth;
	params->files = test->files;
	params->fsync_every = test->fsync_every;
	params->use_fdatasync = test->use_fdatasync;
	params->read_pct = iob_pattern_is_mixed(test->rw) ? 50 :
		(iob_pattern_reads(test->rw) ? 100 : 0);
	iob_validate_params(params);

	*workers_note = NULL;
	if (params->workers < test->workers)
		*workers_note = psprintf("ran with %d of its %d workers: iobench.max_workers_per_run is %d",
								 params->workers, test->workers,
								 iobench_max_workers_per_run);

	error_context_stack = callback.previous;
}

/*
 * SQL entry point: iobench.suite(...).  Validates everything up front (the
 * arguments, and every test of the suite as a run), runs every test of the
 * suite on every tablespace "repeat" times, and returns one row per (test,
 * tablespace) with the mean and standard deviation over the repeats.  Tests
 * are interleaved over the tablespaces (test 1 on each tablespace, then
 * test 2 ...), so that drift of the machine during a long suite affects
 * every tablespace alike.  A cancelled run ends the suite, which is stored
 * as "cancelled" with the runs done so far.
 */
Datum
iobench_suite(PG_FUNCTION_ARGS)
{
	char	   *name;
	SuiteTest  *tests;
	int			ntests;
	Name		tablespaces;
	int			ntablespaces;
	int			repeat;
	IobRunParams common;
	IobRunParams *test_params;
	char	  **notes;
	bool	   *skips;
	IobEngineKind engine;
	bool		seed_given;
	char	   *label;
	int64		max_block = 0;
	int			uring_errno = 0;
	bool		uring_ok;
	int64		suite_id;
	bool		cancelled = false;
	MemoryContext runcxt;
	int			t;
	int			r;
	int			s;

	iob_require_arg(fcinfo, SU_ARG_NAME, "name");
	name = text_to_cstring(PG_GETARG_TEXT_PP(SU_ARG_NAME));
	tests = load_suite(name, &ntests);
	tablespaces = tablespaces_arg(fcinfo, &ntablespaces);
	repeat = iob_int_arg(fcinfo, SU_ARG_REPEAT, "repeat", 1, SUITE_MAX_REPEAT);

	memset(&common, 0, sizeof(common));
	common.duration_us = iob_interval_arg(fcinfo, SU_ARG_DURATION, "duration", 0,
										  (int64) IOB_MAX_DURATION_S * USECS_PER_SEC,
										  true);
	common.warmup_us = iob_interval_arg(fcinfo, SU_ARG_WARMUP, "warmup", 0,
										(int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);

	/*
	 * file_size must hold whole blocks of every test.  Tests with a block
	 * size no run can use are left to the checks of each test below, which
	 * name the test.
	 */
	for (t = 0; t < ntests; t++)
		if (block_size_ok(tests[t].block_size))
			max_block = Max(max_block, tests[t].block_size);
	common.file_size = iob_size_arg(fcinfo, SU_ARG_FILE_SIZE, "file_size",
									Max(max_block, IOB_MIN_BLOCK_SIZE),
									IOB_MAX_FILE_SIZE);
	for (t = 0; t < ntests; t++)
		if (block_size_ok(tests[t].block_size) &&
			common.file_size % tests[t].block_size != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("file_size " UINT64_FORMAT " is not a multiple of block_size " INT64_FORMAT " of test \"%s\"",
							common.file_size, tests[t].block_size, tests[t].test),
					 errhint("Use a file_size that is a multiple of %s.",
							 iob_size_pretty(max_block))));
	iob_require_arg(fcinfo, SU_ARG_DIRECT, "direct");
	common.direct = PG_GETARG_BOOL(SU_ARG_DIRECT);
	engine = iob_engine_arg(fcinfo, SU_ARG_ENGINE);
	seed_given = !PG_ARGISNULL(SU_ARG_SEED);
	common.seed = iob_seed_arg(fcinfo, SU_ARG_SEED);
	label = PG_ARGISNULL(SU_ARG_LABEL) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(SU_ARG_LABEL));

	/* every test, as its runs will have it, before anything is stored */
	test_params = palloc(sizeof(IobRunParams) * Max(ntests, 1));
	notes = palloc0(sizeof(char *) * Max(ntests, 1));
	skips = palloc0(sizeof(bool) * Max(ntests, 1));
	for (t = 0; t < ntests; t++)
		suite_test_params(name, &tests[t], &common, &test_params[t], &notes[t]);

	/*
	 * Decide once whether queue depths above 1 are possible.  Without
	 * io_uring, tests that need it are skipped and the others run at iodepth
	 * 1 with psync; the rows say so.  Nothing is faked.
	 */
	if (engine == IOB_ENGINE_PSYNC)
		uring_ok = false;
	else
	{
		uring_errno = iobench_force_psync ? EPERM : iob_engine_probe_uring();
		uring_ok = (uring_errno == 0);
	}
	if (!uring_ok && engine == IOB_ENGINE_IO_URING)
	{
		errno = uring_errno;
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("io_uring is not available: %m"),
				 iobench_force_psync ? errdetail("iobench.force_psync is on.") : 0,
				 errhint("Use engine => 'psync' or engine => 'auto'.")));
	}
	if (!uring_ok && engine == IOB_ENGINE_AUTO)
	{
		errno = uring_errno;
		ereport(NOTICE,
				(errmsg("io_uring is not available (%m); suite \"%s\" runs with engine \"psync\" at iodepth 1",
						name),
				 errdetail("Tests that need a deeper queue are skipped; their rows say so.")));
	}

	/* adapt the tests to the engine, and say so in their rows */
	for (t = 0; t < ntests; t++)
	{
		const SuiteTest *test = &tests[t];
		IobRunParams *params = &test_params[t];

		params->engine = uring_ok ? engine : IOB_ENGINE_PSYNC;
		if (test->iodepth > 1 && !uring_ok)
		{
			if (test->needs_uring)
			{
				skips[t] = true;
				notes[t] = psprintf("skipped: iodepth %d needs io_uring, which %s",
									test->iodepth,
									engine == IOB_ENGINE_PSYNC ?
									"engine \"psync\" excludes" : "is not available");
			}
			else
			{
				char	   *iodepth_note;

				params->iodepth = 1;
				iodepth_note = psprintf("ran at iodepth 1 instead of %d: %s",
										test->iodepth,
										engine == IOB_ENGINE_PSYNC ?
										"engine \"psync\" was requested" :
										"io_uring is not available");
				notes[t] = notes[t] ?
					psprintf("%s; %s", notes[t], iodepth_note) : iodepth_note;
			}
		}
	}

	suite_id = insert_suite(name, tablespaces, ntablespaces, repeat, &common,
							engine, seed_given, label);

	runcxt = AllocSetContextCreate(CurrentMemoryContext, "iobench suite run",
								   ALLOCSET_DEFAULT_SIZES);
	for (t = 0; t < ntests && !cancelled; t++)
	{
		const SuiteTest *test = &tests[t];
		IobRunParams *params = &test_params[t];

		for (r = 1; r <= repeat && !cancelled; r++)
			for (s = 0; s < ntablespaces && !cancelled; s++)
			{
				MemoryContext oldcxt;
				HeapTupleHeader row;
				char	   *run_label;
				int64		run_id;
				bool		isnull;
				char	   *status;

				if (skips[t])
				{
					if (r == 1)
						insert_suite_run(suite_id, test, NameStr(tablespaces[s]),
										 r, 0, notes[t]);
					continue;
				}

				oldcxt = MemoryContextSwitchTo(runcxt);
				params->tablespace_oid = get_tablespace_oid(NameStr(tablespaces[s]), false);
				params->tablespace = tablespaces[s];
				if (!seed_given)
					params->seed = (uint64) pg_prng_int64p(&pg_global_prng_state);
				run_label = psprintf("%s #" INT64_FORMAT ": %s", name, suite_id, test->test);
				if (iobench_progress)
					ereport(NOTICE,
							(errmsg("iobench suite %s #" INT64_FORMAT ": test %d/%d \"%s\" on \"%s\", repeat %d/%d",
									name, suite_id, t + 1, ntests, test->test,
									NameStr(tablespaces[s]), r, repeat)));

				row = DatumGetHeapTupleHeader(iob_execute_run(params, run_label));
				run_id = DatumGetInt64(GetAttributeByName(row, "run_id", &isnull));
				status = TextDatumGetCString(GetAttributeByName(row, "status", &isnull));
				cancelled = strcmp(status, "completed") != 0;
				MemoryContextSwitchTo(oldcxt);

				insert_suite_run(suite_id, test, NameStr(tablespaces[s]), r,
								 run_id, notes[t]);
				MemoryContextReset(runcxt);
			}
	}
	MemoryContextDelete(runcxt);

	finish_suite(suite_id, cancelled ? "cancelled" : "completed");
	return_suite_results(fcinfo, suite_id);
	return (Datum) 0;
}
