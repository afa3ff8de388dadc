/*-------------------------------------------------------------------------
 *
 * search.c
 *	  iobench.latency_search(): the load a disk carries within a latency
 *	  target.
 *
 * The search raises the load step by step, each step an ordinary run
 * (iob_execute_run()): the queue depth doubles from 1 to max_iodepth with
 * one worker, then the workers double up to max_workers at max_iodepth.
 * After each step it reads the step's latency (a percentile of its data
 * I/O, from the stored histogram, or the mean) and stops at the first step
 * over the target.  Every step is stored as a run and listed in
 * iobench.search_steps; iobench.searches keeps the search and its best
 * step: the most IOPS among the steps within the target, the lightest
 * load among those within 1 % of it (past saturation more load only adds
 * latency, and measurement noise would otherwise pick at random).
 *
 * As with suite(), the benchmarks run as the caller, and the search's own
 * rows are written as the owner of the iobench schema (owner_spi.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "engine/engine.h"
#include "base/base.h"
#include "run/run.h"
#include "results/results.h"

PG_FUNCTION_INFO_V1(iobench_latency_search);

/* Argument positions of iobench.latency_search() */
enum
{
	LS_ARG_TABLESPACE = 0,
	LS_ARG_TARGET,
	LS_ARG_PERCENTILE,
	LS_ARG_RW,
	LS_ARG_BLOCK_SIZE,
	LS_ARG_MAX_IODEPTH,
	LS_ARG_MAX_WORKERS,
	LS_ARG_STEP_DURATION,
	LS_ARG_WARMUP,
	LS_ARG_FILE_SIZE,
	LS_ARG_FILES,
	LS_ARG_DIRECT,
	LS_ARG_ENGINE,
	LS_ARG_SEED,
	LS_ARG_LABEL
};

/* A latency target longer than this is no target */
#define SEARCH_MAX_TARGET_S		3600

/* Most steps a search can take: 1024 = 2^10 depths, then 2^6 workers */
#define SEARCH_MAX_STEPS		32
/* max_iodepth's default in iobench.latency_search() (50_search.sql) */
#define SEARCH_DEFAULT_MAX_IODEPTH	256

/* One search: its settings and the steps to take */
typedef struct Search
{
	IobRunParams base;			/* every step's settings but workers, iodepth */
	int64		target_us;
	bool		use_mean;		/* percentile NULL: the mean latency */
	double		percentile;
	int			max_iodepth;
	int			max_workers;
	bool		seed_given;
	char	   *label;
	int			nsteps;
	int			step_workers[SEARCH_MAX_STEPS];
	int			step_iodepth[SEARCH_MAX_STEPS];
	int64		search_id;
	MemoryContext cxt;			/* the caller's: where "error" lives */
	ErrorData  *error;			/* the error that ended a step, or NULL */
	int			failed_step;	/* its step (1-based) */
	IobRunResult last_run;		/* how the last step's run ended (its id
								 * when it failed: keep_failed_search) */
} Search;

/*
 * The steps: iodepth 1, 2, 4 ... max_iodepth with one worker, then workers
 * 2, 4 ... max_workers at max_iodepth (the last of each doubling is the
 * maximum itself).  Without io_uring the depth stays 1.
 */
static void
plan_steps(Search *s, bool uring_ok)
{
	int			depth_max = uring_ok ? s->max_iodepth : 1;
	int			d;
	int			w;

	s->nsteps = 0;
	for (d = 1;; d = Min(d * 2, depth_max))
	{
		s->step_workers[s->nsteps] = 1;
		s->step_iodepth[s->nsteps++] = d;
		if (d == depth_max)
			break;
	}
	for (w = 2; w <= s->max_workers && s->nsteps < SEARCH_MAX_STEPS;
		 w = (w == s->max_workers) ? w + 1 : Min(w * 2, s->max_workers))
	{
		s->step_workers[s->nsteps] = w;
		s->step_iodepth[s->nsteps++] = depth_max;
	}
}

/* Read and check the arguments; nothing is created before this returns */
static void
read_search_args(FunctionCallInfo fcinfo, Search *s)
{
	IobRunParams *p = &s->base;
	IobRunParams biggest;

	memset(p, 0, sizeof(IobRunParams));
	iob_tablespace_arg(fcinfo, LS_ARG_TABLESPACE, p);
	s->target_us = iob_interval_arg(fcinfo, LS_ARG_TARGET, "latency_target", 0,
									(int64) SEARCH_MAX_TARGET_S * USECS_PER_SEC, true);
	s->use_mean = PG_ARGISNULL(LS_ARG_PERCENTILE);
	if (!s->use_mean)
	{
		s->percentile = PG_GETARG_FLOAT8(LS_ARG_PERCENTILE);
		if (!(s->percentile > 0 && s->percentile <= 100))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("latency_percentile %g is out of range", s->percentile),
					 errdetail("Valid values are greater than 0 and at most 100, or NULL for the mean latency.")));
	}
	p->rw = iob_pattern_arg(fcinfo, LS_ARG_RW);
	p->block_size = (uint32) iob_size_arg(fcinfo, LS_ARG_BLOCK_SIZE, "block_size",
										  IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE);
	s->max_iodepth = iob_int_arg(fcinfo, LS_ARG_MAX_IODEPTH, "max_iodepth", 1, IOB_MAX_IODEPTH);
	s->max_workers = iob_int_arg(fcinfo, LS_ARG_MAX_WORKERS, "max_workers", 1,
								 iob_max_workers_per_run());
	p->duration_us = iob_interval_arg(fcinfo, LS_ARG_STEP_DURATION, "step_duration", 0,
									  (int64) IOB_MAX_DURATION_S * USECS_PER_SEC, true);
	p->warmup_us = iob_warmup_arg(fcinfo, LS_ARG_WARMUP);
	p->file_size = iob_size_arg(fcinfo, LS_ARG_FILE_SIZE, "file_size",
								p->block_size, IOB_MAX_FILE_SIZE);
	p->files = iob_int_arg(fcinfo, LS_ARG_FILES, "files", 1, IOB_MAX_FILES);
	iob_require_arg(fcinfo, LS_ARG_DIRECT, "direct");
	p->direct = PG_GETARG_BOOL(LS_ARG_DIRECT);
	p->engine = iob_engine_arg(fcinfo, LS_ARG_ENGINE);
	if (iob_engine_ops(p->engine)->check_campaign)
		iob_engine_ops(p->engine)->check_campaign(IOB_CAMPAIGN_SEARCH);
	/*
	 * engine "psync" keeps the depth at 1: a deeper max_iodepth than the
	 * default (which cannot be told from one left out) would be dropped
	 */
	if (p->engine == IOB_ENGINE_PSYNC && s->max_iodepth > 1 &&
		s->max_iodepth != SEARCH_DEFAULT_MAX_IODEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"max_iodepth\" value %d cannot be used with engine \"psync\"",
						s->max_iodepth),
				 errdetail("Engine \"psync\" issues one I/O at a time per worker: the search steps the workers only, at iodepth 1."),
				 errhint("Leave max_iodepth out with engine \"psync\", or use engine => 'auto' or 'io_uring' to step the queue depth.")));
	s->seed_given = !PG_ARGISNULL(LS_ARG_SEED);
	p->seed = iob_seed_arg(fcinfo, LS_ARG_SEED);
	s->label = iob_label_arg(fcinfo, LS_ARG_LABEL);
	p->read_pct = iob_pattern_is_mixed(p->rw) ? 50 : (iob_pattern_reads(p->rw) ? 100 : 0);
	p->progress_interval_s = 1;

	/* the heaviest step must be a valid run (buffers, file_size, ...) */
	biggest = *p;
	biggest.workers = s->max_workers;
	biggest.iodepth = s->max_iodepth;
	iob_validate_params(&biggest);
}

/* Insert the iobench.searches row; returns its search_id */
static int64
insert_search(const Search *s)
{
	Oid			types[11] = {NAMEOID, INTERVALOID, FLOAT8OID, TEXTOID, INT4OID, INT4OID,
	INT4OID, INTERVALOID, INT8OID, TEXTOID, TEXTOID};
	Datum		values[11];
	char		nulls[11];
	Interval   *target = palloc0(sizeof(Interval));
	Interval   *step = palloc0(sizeof(Interval));
	bool		isnull;

	target->time = s->target_us;
	step->time = s->base.duration_us;
	memset(nulls, ' ', sizeof(nulls));
	values[0] = NameGetDatum(&s->base.tablespace);
	values[1] = IntervalPGetDatum(target);
	values[2] = Float8GetDatum(s->percentile);
	if (s->use_mean)
		nulls[2] = 'n';
	values[3] = CStringGetTextDatum(iob_pattern_name(s->base.rw));
	values[4] = Int32GetDatum((int32) s->base.block_size);
	values[5] = Int32GetDatum(s->max_iodepth);
	values[6] = Int32GetDatum(s->max_workers);
	values[7] = IntervalPGetDatum(step);
	values[8] = Int64GetDatum((int64) s->base.file_size);
	values[9] = CStringGetTextDatum(iob_engine_kind_name(s->base.engine));
	values[10] = s->label ? CStringGetTextDatum(s->label) : (Datum) 0;
	if (s->label == NULL)
		nulls[10] = 'n';

	return DatumGetInt64(iob_owner_value("INSERT INTO iobench.searches (tablespace, latency_target, "
										 "latency_percentile, rw, block_size, max_iodepth, "
										 "max_workers, step_duration, file_size, engine, label, "
										 "status, started_at) "
										 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, "
										 "'running', pg_catalog.clock_timestamp()) "
										 "RETURNING search_id",
										 11, types, values, nulls,
										 SPI_OK_INSERT_RETURNING, &isnull));
}

/*
 * Record step "step" (its run) and return whether it met the target: its
 * latency, as the search measures it, computed from the stored run.
 */
static bool
record_step(const Search *s, int step, int64 run_id)
{
	Oid			types[5] = {INT8OID, INT4OID, INT8OID, FLOAT8OID, INT8OID};
	Datum		values[5];
	char		nulls[5];
	bool		isnull;
	bool		met;

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(s->search_id);
	values[1] = Int32GetDatum(step);
	values[2] = Int64GetDatum(run_id);
	values[3] = Float8GetDatum(s->percentile);
	if (s->use_mean)
		nulls[3] = 'n';
	values[4] = Int64GetDatum(s->target_us);
	met = DatumGetBool(iob_owner_value("INSERT INTO iobench.search_steps (search_id, step, run_id, "
									   "workers, iodepth, iops, latency_us, met_target) "
									   "SELECT $1, $2, r.run_id, r.workers, r.iodepth, r.iops, l.us, "
									   "       coalesce(r.status IN ('completed', 'incomplete') AND r.ops > 0 AND l.us <= $5, false) "
									   "  FROM iobench.runs r, LATERAL (SELECT CASE WHEN $4 IS NULL THEN r.lat_avg_us "
									   "       ELSE iobench.latency_percentile(r.run_id, $4) END AS us) l "
									   " WHERE r.run_id = $3 RETURNING met_target",
									   5, types, values, nulls,
									   SPI_OK_INSERT_RETURNING, &isnull));
	return met && !isnull;
}

/* Mark the search finished: its status and best step (see the top) */
static void
finish_search(int64 search_id, const char *status)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];

	values[0] = Int64GetDatum(search_id);
	values[1] = CStringGetTextDatum(status);
	iob_owner_run("UPDATE iobench.searches s SET status = $2, "
				  "finished_at = pg_catalog.clock_timestamp(), "
				  "best_step = (SELECT min(t.step) FROM iobench.search_steps t "
				  "  WHERE t.search_id = s.search_id AND t.met_target "
				  "    AND t.iops >= 0.99 * (SELECT max(m.iops) FROM iobench.search_steps m "
				  "      WHERE m.search_id = s.search_id AND m.met_target)) "
				  "WHERE s.search_id = $1",
				  2, types, values, NULL, SPI_OK_UPDATE);
}

/*
 * Take step "i" (0-based) in a subtransaction: a run, then its
 * search_steps row.  An error (a cancel above all) is caught and kept in
 * s->error, so that the search can keep the steps done before
 * (keep_failed_search) before the error goes on.  Returns false on an
 * error; *completed and *met say how the step's run ended.
 */
static bool
take_step_guarded(Search *s, int i, bool *completed, bool *met)
{
	IobSubxact	sx;
	volatile bool ok = true;	/* set in PG_CATCH, read after it */

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		IobRunParams params = s->base;

		params.workers = s->step_workers[i];
		params.iodepth = s->step_iodepth[i];
		if (!s->seed_given)
			params.seed = (uint64) pg_prng_int64p(&pg_global_prng_state);
		iob_execute_run(&params,
						psprintf("latency search #" INT64_FORMAT ": %d x QD%d",
								 s->search_id, params.workers, params.iodepth),
						IOB_PROGRESS_RATES, &s->last_run);
		*completed = s->last_run.completed;
		*met = record_step(s, i + 1, s->last_run.run_id);
		iob_subxact_commit(&sx);
	}
	PG_CATCH();
	{
		s->error = iob_subxact_catch(&sx, s->cxt);
		s->failed_step = i + 1;
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/*
 * Take the steps until one misses the target or a run is cancelled;
 * returns false for a cancel (a run stored "cancelled", or an error kept
 * in s->error).  NOTICEs say what each step found.
 */
static bool
take_steps(Search *s)
{
	MemoryContext stepcxt = AllocSetContextCreate(CurrentMemoryContext,
												  "iobench search step",
												  ALLOCSET_DEFAULT_SIZES);
	bool		completed = true;
	int			i;

	for (i = 0; i < s->nsteps; i++)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(stepcxt);
		bool		met = false;
		bool		ok;

		ok = take_step_guarded(s, i, &completed, &met);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(stepcxt);
		if (!ok)
			completed = false;
		if (!completed || !met)
			break;
	}
	MemoryContextDelete(stepcxt);
	return completed;
}

/*
 * A step ended in an error (a cancel above all): record the step's run, if
 * its storer kept it, mark the search cancelled, and return the search's
 * rows for iob_store_rows_detached().  Runs in the search's own
 * subtransaction, which the caller then rolls back (as a suite does).
 */
static char *
keep_failed_search(Search *s)
{
	int64		run_id = s->last_run.failed ? s->last_run.run_id : 0;

	if (run_id > 0)
		(void) record_step(s, s->failed_step, run_id);
	finish_search(s->search_id, "cancelled");
	return iob_export_search_rows(s->search_id, run_id);
}

/*
 * After keep_failed_search() and the rollback of the search's
 * subtransaction: store its rows from a process that commits on its own,
 * and go on with the step's error, its DETAIL saying what was kept.
 */
static void
rethrow_failed_search(Search *s, const char *kept)
{
	const char *why = NULL;
	ErrorData  *edata = s->error;
	const char *sentence;

	if (kept != NULL && iob_store_rows_detached(kept, &why))
		sentence = psprintf("The search is kept as search " INT64_FORMAT " with status \"cancelled\" and the steps done before.",
							s->search_id);
	else
		sentence = psprintf("The search could not be kept: %s.",
							why ? why : "its rows could not be read");
	edata->detail = edata->detail ?
		psprintf("%s %s", edata->detail, sentence) : pstrdup(sentence);
	ReThrowError(edata);
}

/*
 * A search that found no step within its target (its first step missed
 * it, so best_step is NULL) says so, with the first step's latency and
 * what to try.
 */
static void
report_no_best_step(const Search *s)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	Datum		latency;
	bool		isnull;
	char	   *measure;

	values[0] = Int64GetDatum(s->search_id);
	(void) iob_owner_value("SELECT best_step FROM iobench.searches WHERE search_id = $1",
						   1, types, values, NULL, SPI_OK_SELECT, &isnull);
	if (!isnull)
		return;
	latency = iob_owner_value("SELECT latency_us FROM iobench.search_steps "
							  "WHERE search_id = $1 AND step = 1",
							  1, types, values, NULL, SPI_OK_SELECT, &isnull);
	measure = s->use_mean ? pstrdup("mean latency") :
		psprintf("p%g latency", s->percentile);
	ereport(NOTICE,
			(errmsg("iobench: no step of the latency search met its target"),
			 isnull ?
			 errdetail("Search " INT64_FORMAT " stopped after its first step (one worker, queue depth 1), which measured no latency: best_step is null.",
					   s->search_id) :
			 errdetail("Search " INT64_FORMAT " stopped after its first step (one worker, queue depth 1), whose %s of %.1f µs is over the target of %.1f µs; more load only adds latency, so best_step is null.",
					   s->search_id, measure, DatumGetFloat8(latency),
					   (double) s->target_us),
			 errhint("Try a higher latency_target%s, or look at the step's run with iobench.report().",
					 s->use_mean ? "" : " or a lower latency_percentile")));
}

/*
 * SQL entry point: iobench.latency_search(...).  Returns one row per step
 * taken (iobench.search_results), the best one marked.
 */
Datum
iobench_latency_search(PG_FUNCTION_ARGS)
{
	Search		s;
	volatile bool completed = false;
	IobSubxact	sx;
	char	   *volatile kept = NULL;	/* set in PG_TRY, read after it */
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	IOB_SQL_ENTRY(15);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	iob_check_run_waits_scope();
	memset(&s, 0, sizeof(s));
	read_search_args(fcinfo, &s);
	plan_steps(&s, s.base.engine != IOB_ENGINE_PSYNC &&
			   iob_engine_uring_unavailable(s.base.engine) == 0);
	PreventCommandIfReadOnly("iobench.latency_search()");

	/*
	 * Everything the search stores is written in a subtransaction of its
	 * own: a step that ends in an error (a cancel) ends the search with
	 * that error, and the search is kept as "cancelled" with the steps done
	 * before by a process that commits on its own (store_worker.h)
	 */
	s.cxt = CurrentMemoryContext;
	iob_subxact_begin(&sx);
	PG_TRY();
	{
		s.search_id = insert_search(&s);
		completed = take_steps(&s);
		if (s.error == NULL)
			finish_search(s.search_id, completed ? "completed" : "cancelled");
		else
			kept = keep_failed_search(&s);
	}
	PG_CATCH();
	{
		/* an error outside the steps, or while keeping the search */
		ErrorData  *edata = iob_subxact_catch(&sx, sx.cxt);

		if (s.error == NULL)
			ReThrowError(edata);
		rethrow_failed_search(&s, NULL);
	}
	PG_END_TRY();
	if (s.error != NULL)
	{
		iob_subxact_rollback(&sx);
		rethrow_failed_search(&s, kept);
	}
	iob_subxact_commit(&sx);
	if (completed)
		report_no_best_step(&s);

	values[0] = Int64GetDatum(s.search_id);
	iob_owner_return_rows(fcinfo, "SELECT * FROM iobench.search_results WHERE search_id = $1 "
						  "ORDER BY step", 1, types, values);
	return (Datum) 0;
}
