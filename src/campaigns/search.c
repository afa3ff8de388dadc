/*-------------------------------------------------------------------------
 *
 * search.c
 *	  iobench_internal.search_plan(): the checked arguments and the steps
 *	  of iobench.latency_search().
 *
 * The search raises the load step by step, each step an ordinary run: the
 * queue depth doubles from 1 to max_iodepth with one worker, then the
 * workers double up to max_workers at max_iodepth.  After each step it
 * reads the step's latency (a percentile of its data I/O, from the stored
 * histogram, or the mean) and stops at the first step over the target.
 * Every step is stored as a run and listed in iobench.search_steps;
 * iobench.searches keeps the search and its best step: the most IOPS among
 * the steps within the target, the lightest load among those within 1 % of
 * it (past saturation more load only adds latency, and measurement noise
 * would otherwise pick at random).
 *
 * The steps are taken by the search's body in PL/pgSQL
 * (iobench_internal.search_steps(), 50_search.sql) within the campaign
 * frame (campaign.c).  This file checks the arguments, as iobench.run()
 * checks its own and with the heaviest step checked as a run, and plans
 * the steps, so that nothing runs before all of it is known to be valid.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"

#include "campaign.h"
#include "base/base.h"
#include "engine/engine.h"
#include "results/results.h"
#include "run/run.h"

PG_FUNCTION_INFO_V1(iobench_search_plan);

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

/* One search: its checked settings and the steps to take */
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

/*
 * The plan as jsonb: "campaign", the columns of the iobench.searches row;
 * "run", the arguments of iobench.run() every step shares (seed null: a
 * new one per step); "steps", the workers and iodepth of each; "target_us"
 * and "percentile" (null: the mean latency).
 */
static Datum
search_plan_jsonb(const Search *s)
{
	const IobRunParams *p = &s->base;
	StringInfoData buf;
	char	   *target = psprintf(INT64_FORMAT " microseconds", s->target_us);
	char	   *step = psprintf(INT64_FORMAT " microseconds", p->duration_us);
	int			i;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"campaign\": {");
	iob_json_text(&buf, "tablespace", NameStr(p->tablespace));
	iob_json_text(&buf, "latency_target", target);
	if (s->use_mean)
		iob_json_text(&buf, "latency_percentile", NULL);
	else
		appendStringInfo(&buf, ", \"latency_percentile\": %.17g", s->percentile);
	iob_json_text(&buf, "rw", iob_pattern_name(p->rw));
	iob_json_int(&buf, "block_size", p->block_size);
	iob_json_int(&buf, "max_iodepth", s->max_iodepth);
	iob_json_int(&buf, "max_workers", s->max_workers);
	iob_json_text(&buf, "step_duration", step);
	iob_json_int(&buf, "file_size", (int64) p->file_size);
	iob_json_text(&buf, "engine", iob_engine_kind_name(p->engine));
	iob_json_text(&buf, "label", s->label);
	appendStringInfoString(&buf, "}, \"run\": {");
	iob_json_text(&buf, "tablespace", NameStr(p->tablespace));
	iob_json_text(&buf, "rw", iob_pattern_name(p->rw));
	iob_json_int(&buf, "block_size", p->block_size);
	iob_json_text(&buf, "duration", step);
	iob_json_text(&buf, "warmup", psprintf(INT64_FORMAT " microseconds", p->warmup_us));
	iob_json_int(&buf, "file_size", (int64) p->file_size);
	iob_json_int(&buf, "files", p->files);
	iob_json_text(&buf, "direct", p->direct ? "true" : "false");
	iob_json_text(&buf, "engine", iob_engine_kind_name(p->engine));
	if (s->seed_given)
		iob_json_int(&buf, "seed", (int64) p->seed);
	else
		iob_json_text(&buf, "seed", NULL);
	appendStringInfoString(&buf, "}, \"steps\": [");
	for (i = 0; i < s->nsteps; i++)
		appendStringInfo(&buf, "%s{\"workers\": %d, \"iodepth\": %d}",
						 i > 0 ? ", " : "", s->step_workers[i], s->step_iodepth[i]);
	appendStringInfo(&buf, "], \"target_us\": " INT64_FORMAT, s->target_us);
	if (s->use_mean)
		appendStringInfoString(&buf, ", \"percentile\": null}");
	else
		appendStringInfo(&buf, ", \"percentile\": %.17g}", s->percentile);
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * SQL entry point: iobench_internal.search_plan(...), with the arguments
 * of iobench.latency_search().  Checks them and returns the plan.
 */
Datum
iobench_search_plan(PG_FUNCTION_ARGS)
{
	Search		s;

	IOB_SQL_ENTRY(15);
	memset(&s, 0, sizeof(s));
	read_search_args(fcinfo, &s);
	iob_campaign_check_allowed("search");
	plan_steps(&s, s.base.engine != IOB_ENGINE_PSYNC &&
			   iob_engine_uring_unavailable(s.base.engine) == 0);
	PG_RETURN_DATUM(search_plan_jsonb(&s));
}
