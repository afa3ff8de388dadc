/*-------------------------------------------------------------------------
 *
 * wait_functions.c
 *	  SQL-callable functions of the wait statistics.
 *
 * They return raw rows (type iobench.wait_raw: wait_type, wait_s, signal_s,
 * wait_count, exact_count, exact_wait_s); the SQL function
 * iobench.wait_table_all() turns raw rows into the table people read, so
 * the collector's totals, a sampled window and a run share one definition
 * of the columns, the benign filter and the 95 % cut.
 *
 *	iobench.waits_raw()				the collector's totals since the last reset
 *	iobench.reset_waits()			clear them
 *	iobench.wait_collector_status()	the collector's own figures
 *	iobench.sample_waits_raw(...)	sample from this backend for a window
 *	iobench.plant_waits(...)		add made-up wait types (tests of the bound)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "run_options.h"
#include "wait_collector.h"
#include "wait_sampler.h"

PG_FUNCTION_INFO_V1(iobench_waits_raw);
PG_FUNCTION_INFO_V1(iobench_reset_waits);
PG_FUNCTION_INFO_V1(iobench_wait_collector_status);
PG_FUNCTION_INFO_V1(iobench_sample_waits_raw);
PG_FUNCTION_INFO_V1(iobench_plant_waits);

/* Bounds of iobench.sample_waits() */
#define IOB_SAMPLE_MAX_DURATION_US	(USECS_PER_DAY)	/* a window, not a monitor */
#define IOB_SAMPLE_MAX_PERIOD_MS	1000	/* as iobench.sample_period */

/* Planted wait types per call: enough to overflow any sane bound */
#define IOB_PLANT_MAX				100000
#define IOB_PLANT_MAX_WAIT_S		1000000 /* seconds of each */

/*
 * Copy the collector's table into private memory, holding the lock only
 * for the copy.
 */
static IobWaitTable *
iob_copy_collector_table(IobWaitCollector *c)
{
	IobWaitTable *shared = iob_wait_collector_table(c);
	Size		size = iob_wait_table_size(iobench_max_wait_types);
	IobWaitTable *copy = palloc(size);

	LWLockAcquire(c->lock, LW_SHARED);
	memcpy(copy, shared, size);
	LWLockRelease(c->lock);
	return copy;
}

/* iobench.waits_raw(): the collector's totals since the last reset */
Datum
iobench_waits_raw(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	IobWaitCollector *c = iob_wait_collector_required();
	IobWaitTable *copy;

	InitMaterializedSRF(fcinfo, 0);
	copy = iob_copy_collector_table(c);
	iob_wait_table_put_rows(copy, rsinfo->setResult, rsinfo->setDesc);
	pfree(copy);
	return (Datum) 0;
}

/* iobench.reset_waits(): clear the collector's totals */
Datum
iobench_reset_waits(PG_FUNCTION_ARGS)
{
	IobWaitCollector *c = iob_wait_collector_required();

	LWLockAcquire(c->lock, LW_EXCLUSIVE);
	iob_wait_table_clear(iob_wait_collector_table(c));
	c->ticks = 0;
	c->missed = 0;
	c->sampled_ns = 0;
	c->reset_at = GetCurrentTimestamp();
	LWLockRelease(c->lock);

	PG_RETURN_VOID();
}

/*
 * iobench.wait_collector_status(): pid, period, start and reset times,
 * ticks taken and skipped, share of ticks taken, time covered, wait types
 * in use and the bound, overflowed samples, whether schedstat is read.
 */
Datum
iobench_wait_collector_status(PG_FUNCTION_ARGS)
{
	IobWaitCollector *c = iob_wait_collector_required();
	IobWaitTable *t = iob_wait_collector_table(c);
	TupleDesc	tupdesc;
	Datum		values[12];
	bool		nulls[12];
	IobWaitCollector snap;
	uint32		collector_pid;
	int			nentries;
	uint64		overflow;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	collector_pid = pg_atomic_read_u32(&c->collector_pid);	/* not under the lock */
	LWLockAcquire(c->lock, LW_SHARED);
	snap = *c;
	nentries = t->nentries;
	overflow = t->overflow_deltas;
	LWLockRelease(c->lock);

	memset(nulls, 0, sizeof(nulls));
	if (collector_pid != 0)
		values[0] = Int32GetDatum((int32) collector_pid);
	else
		nulls[0] = true;
	values[1] = Int32GetDatum(snap.period_ms);
	if (snap.started_at != 0)
		values[2] = TimestampTzGetDatum(snap.started_at);
	else
		nulls[2] = true;
	values[3] = TimestampTzGetDatum(snap.reset_at);
	values[4] = Int64GetDatum((int64) snap.ticks);
	values[5] = Int64GetDatum((int64) snap.missed);
	if (snap.ticks + snap.missed > 0)
		values[6] = Float8GetDatum(100.0 * snap.ticks / (snap.ticks + snap.missed));
	else
		nulls[6] = true;
	values[7] = Float8GetDatum(snap.sampled_ns / 1e9);
	values[8] = Int32GetDatum(nentries);
	values[9] = Int32GetDatum(iobench_max_wait_types);
	values[10] = Int64GetDatum((int64) overflow);
	values[11] = BoolGetDatum(snap.have_schedstat);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * An interval in microseconds (months count as 30 days), as a double.
 * Not iob_interval_arg() (run_options.c): its bounds are whole seconds,
 * while a sampling window and a period are bounded in milliseconds.
 */
static double
iob_interval_us(Interval *span)
{
	return (double) span->time +
		(double) span->day * USECS_PER_DAY +
		(double) span->month * DAYS_PER_MONTH * USECS_PER_DAY;
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
	double		duration_us;
	int			period_ms = iobench_sample_period;
	int		   *pids = NULL;
	int			npids = 0;
	IobWaitSampler *sampler;
	uint64		ticks,
				missed,
				sampled_ns;

	/* duration: required, at least a millisecond, at most a day */
	iob_require_arg(fcinfo, 0, "duration");
	duration = PG_GETARG_INTERVAL_P(0);
	duration_us = iob_interval_us(duration);
	if (duration_us < 1000 || duration_us > IOB_SAMPLE_MAX_DURATION_US)
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
		double		period_us = iob_interval_us(period);

		if (period_us < 1000 || period_us > IOB_SAMPLE_MAX_PERIOD_MS * 1000.0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s is out of range for argument \"%s\"",
							iob_interval_text(period), "sample_period"),
					 errdetail("Valid values are between 1 and %d milliseconds.",
							   IOB_SAMPLE_MAX_PERIOD_MS)));
		period_ms = (int) (period_us / 1000 + 0.5);
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

	sampler = iob_wait_sampler_create(pids, npids, period_ms,
									  iobench_max_wait_types);
	iob_wait_sampler_run(sampler, (int64) duration_us);
	iob_wait_sampler_counts(sampler, &ticks, &missed, &sampled_ns);
	elog(DEBUG1, "iobench: sampled %.3f s in " UINT64_FORMAT " ticks, " UINT64_FORMAT " missed, period %d ms",
		 sampled_ns / 1e9, ticks, missed, period_ms);

	iob_wait_table_put_rows(iob_wait_sampler_table(sampler),
							rsinfo->setResult, rsinfo->setDesc);
	iob_wait_sampler_destroy(sampler);
	return (Datum) 0;
}

/*
 * iobench.plant_waits(wait_types, wait_s): add "wait_types" made-up wait
 * types ("Test:PlantedN"), each with wait_s seconds and one entry, to the
 * collector's totals, through the same code path as a tick.  Lets the
 * tests check the bound on shared memory, which is fixed at server start.
 * Returns how many of them found no room.
 */
Datum
iobench_plant_waits(PG_FUNCTION_ARGS)
{
	IobWaitCollector *c = iob_wait_collector_required();
	IobWaitTable *t = iob_wait_collector_table(c);
	int			n;
	double		wait_s;
	IobWaitDelta *deltas;
	uint64		before;
	uint64		after;
	int			i;

	n = iob_int_arg(fcinfo, 0, "wait_types", 1, IOB_PLANT_MAX);
	iob_require_arg(fcinfo, 1, "wait_s");
	wait_s = PG_GETARG_FLOAT8(1);
	if (!(wait_s >= 0 && wait_s <= IOB_PLANT_MAX_WAIT_S))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%g is out of range for argument \"%s\"", wait_s, "wait_s"),
				 errdetail("Valid values are between 0 and %d seconds.",
						   IOB_PLANT_MAX_WAIT_S)));

	deltas = palloc(sizeof(IobWaitDelta) * n);
	for (i = 0; i < n; i++)
	{
		deltas[i].key = IOB_WAIT_KEY(IOB_FLAVOUR_PLANTED, i + 1);
		deltas[i].wait_ns = (uint64) (wait_s * 1e9 + 0.5);
		deltas[i].signal_ns = 0;
		deltas[i].signal_known = true;
		deltas[i].entries = 1;
	}

	LWLockAcquire(c->lock, LW_EXCLUSIVE);
	before = t->overflow_deltas;
	iob_wait_table_apply(t, deltas, n);
	after = t->overflow_deltas;
	LWLockRelease(c->lock);

	PG_RETURN_INT32((int32) (after - before));
}
