/*-------------------------------------------------------------------------
 *
 * wait_window.c
 *	  Wait statistics driver: a window sampled from the calling backend,
 *	  iobench.sample_waits_raw() (and the SQL functions built on it).
 *
 * The backend ticks on its own timer for the window's duration, adds each
 * tick to a private table, and returns the table's rows.  Needs no
 * preloading.  When the whole instance is sampled, PostgreSQL's exact
 * counts of data-file reads and WAL writes and syncs over the same window
 * go beside the sampled figures (wait_exact.h).  Cancel and
 * statement_timeout stop it between ticks; its descriptors close with the
 * query's memory.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "base/base.h"
#include "wait_exact.h"
#include "wait_output.h"
#include "wait_sampler.h"
#include "wait_timer.h"

PG_FUNCTION_INFO_V1(iobench_sample_waits_raw);

/* Bounds of iobench.sample_waits() */
#define IOB_SAMPLE_MAX_DURATION_US	(USECS_PER_DAY)	/* a window, not a monitor */
#define IOB_SAMPLE_MAX_PERIOD_MS	1000	/* as iobench.sample_period */

/*
 * Sample pids (NULL: the instance) every period_ms for duration_ns from
 * this backend, and put the table's rows into a tuplestore.
 */
static void
iob_sample_window(const int *pids, int npids, int period_ms,
				  uint64 duration_ns, Tuplestorestate *tupstore,
				  TupleDesc tupdesc)
{
	IobWaitSampler *sampler = iob_wait_sampler_create(pids, npids);
	IobWaitTimer *timer = iob_wait_timer_create(period_ms);
	IobWaitTable *table = iob_wait_table_create(iobench_max_wait_types);
	IobWaitCounters start;
	IobWaitCounters end;
	IobWaitExact exact[IOB_WAIT_EXACT_KINDS];
	int			nexact = 0;
	const IobWaitDelta *deltas;
	int			n;
	uint64		ticks,
				sampled_ns,
				last_ns;

	if (pids == NULL)
		iob_wait_counters_read(&start);

	for (;;)
	{
		n = iob_wait_sampler_tick(sampler);
		deltas = iob_wait_sampler_deltas(sampler, &n);
		iob_wait_table_apply(table, deltas, n);
		iob_wait_sampler_counts(sampler, &ticks, &sampled_ns, &last_ns);
		iob_wait_timer_ticked(timer, last_ns);
		if (sampled_ns >= duration_ns)
			break;
		while (!iob_wait_timer_sleep(timer))
			CHECK_FOR_INTERRUPTS();
		CHECK_FOR_INTERRUPTS();
	}
	n = iob_wait_sampler_flush(sampler);
	iob_wait_table_apply(table, iob_wait_sampler_deltas(sampler, &n), n);

	if (pids == NULL)
	{
		iob_wait_counters_read(&end);
		nexact = iob_wait_counters_diff(&start, &end, exact);
	}
	elog(DEBUG1, "iobench: sampled %.3f s in " UINT64_FORMAT " ticks, " UINT64_FORMAT " missed, period %d ms",
		 sampled_ns / 1e9, ticks, iob_wait_timer_missed(timer), period_ms);

	iob_wait_put_rows(table, iob_wait_sampler_has_schedstat(sampler),
					  exact, nexact, tupstore, tupdesc);
	iob_wait_sampler_destroy(sampler);
	iob_wait_timer_destroy(timer);
	pfree(table);
}

/* An interval as text, for messages */
static char *
iob_interval_text(Interval *span)
{
	return DatumGetCString(DirectFunctionCall1(interval_out,
											   IntervalPGetDatum(span)));
}

/*
 * iobench.sample_waits_raw(duration, sample_period, pids): sample the
 * instance (or only the given processes) from this backend for "duration"
 * and return the raw rows.  Needs no preloading.
 */
Datum
iobench_sample_waits_raw(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Interval   *duration;
	int64		duration_us;
	int			period_ms = iobench_sample_period;
	int		   *pids = NULL;
	int			npids = 0;

	IOB_SQL_ENTRY(3);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	/* duration: required, at least a millisecond, at most a day */
	iob_require_arg(fcinfo, 0, "duration");
	duration = PG_GETARG_INTERVAL_P(0);
	/*
	 * not iob_interval_arg(): its messages give seconds, while a sampling
	 * window and a period are bounded in milliseconds
	 */
	if (!iob_interval_us(duration, &duration_us) ||
		duration_us < 1000 || duration_us > IOB_SAMPLE_MAX_DURATION_US)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is out of range for argument \"%s\"",
						iob_interval_text(duration), "duration"),
				 errdetail("Valid values are between 0.001 and %d seconds.",
						   (int) (IOB_SAMPLE_MAX_DURATION_US / USECS_PER_SEC))));

	/* sample_period: NULL means iobench.sample_period */
	if (!PG_ARGISNULL(1))
	{
		Interval   *period = PG_GETARG_INTERVAL_P(1);
		int64		period_us;

		if (!iob_interval_us(period, &period_us) ||
			period_us < 1000 || period_us > IOB_SAMPLE_MAX_PERIOD_MS * INT64CONST(1000))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s is out of range for argument \"%s\"",
							iob_interval_text(period), "sample_period"),
					 errdetail("Valid values are between 1 and %d milliseconds.",
							   IOB_SAMPLE_MAX_PERIOD_MS)));
		period_ms = (int) ((period_us + 500) / 1000);
	}

	/* pids: NULL means every process */
	if (!PG_ARGISNULL(2))
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(2);
		Datum	   *elems;
		bool	   *elem_nulls;
		int			i;

		deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
						  &elems, &elem_nulls, &npids);
		if (npids == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("argument \"%s\" must name at least one process", "pids"),
					 errhint("Pass NULL to sample every process.")));
		pids = palloc(sizeof(int) * npids);
		for (i = 0; i < npids; i++)
		{
			if (elem_nulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("argument \"%s\" must not contain nulls", "pids")));
			pids[i] = DatumGetInt32(elems[i]);
		}
	}

	InitMaterializedSRF(fcinfo, 0);
	iob_sample_window(pids, npids, period_ms, (uint64) duration_us * 1000,
					  rsinfo->setResult, rsinfo->setDesc);
	return (Datum) 0;
}
