/*-------------------------------------------------------------------------
 *
 * wait_collector.c
 *	  The always-on wait sampler: a background worker that adds every tick
 *	  to cumulative per-wait-type totals in bounded shared memory.
 *
 * Only exists when iobench is in shared_preload_libraries.  The totals are
 * an IobWaitTable of iobench.max_wait_types entries, sized at postmaster
 * start: wait types beyond the bound are added to one overflow row and
 * counted, so the memory never grows.  The locking rules are written above
 * IobWaitCollector in wait_collector.h.
 *
 * This file also holds the SQL functions that read and reset the totals,
 * and iob_wait_collector_init(), which _PG_init() calls.
 *
 *	iobench.waits_raw()				the collector's totals since the last reset
 *	iobench.reset_waits()			clear them
 *	iobench.wait_collector_status()	the collector's own figures
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "base/base.h"
#include "wait_collector.h"
#include "wait_output.h"
#include "wait_sampler.h"
#include "wait_timer.h"

PG_FUNCTION_INFO_V1(iobench_waits_raw);
PG_FUNCTION_INFO_V1(iobench_reset_waits);
PG_FUNCTION_INFO_V1(iobench_wait_collector_status);
PG_FUNCTION_INFO_V1(iobench_plant_waits);

/* Set in the postmaster by the shmem startup hook, inherited by children */
static IobWaitCollector *collector = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

#define IOB_WAITS_TRANCHE	"iobench_waits"

/* Bytes of shared memory: the state, then the table */
static Size
iob_wait_collector_size(void)
{
	return add_size(MAXALIGN(sizeof(IobWaitCollector)),
					iob_wait_table_size(iobench_max_wait_types));
}

/* The collector's table, which follows its state in shared memory */
IobWaitTable *
iob_wait_collector_table(IobWaitCollector *c)
{
	return (IobWaitTable *) ((char *) c + MAXALIGN(sizeof(IobWaitCollector)));
}

/*
 * The collector's shared state, or an error saying that the function
 * needs iobench in shared_preload_libraries.
 */
IobWaitCollector *
iob_wait_collector_required(void)
{
	if (collector == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("iobench must be loaded via \"shared_preload_libraries\" for cumulative wait statistics"),
				 errdetail("They are kept by a background worker that starts only when iobench is preloaded."),
				 errhint("Add \"iobench\" to shared_preload_libraries and restart the server, or use iobench.sample_waits() for a time window.")));
	return collector;
}

/* Ask for the shared memory and the lock (PostgreSQL 15 wants it here) */
static void
iob_waits_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();

	RequestAddinShmemSpace(iob_wait_collector_size());
	RequestNamedLWLockTranche(IOB_WAITS_TRANCHE, 1);
}

/* Create or attach to the shared state */
static void
iob_waits_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	collector = ShmemInitStruct("iobench wait collector",
								iob_wait_collector_size(), &found);
	if (!found)
	{
		memset(collector, 0, sizeof(IobWaitCollector));
		pg_atomic_init_u32(&collector->collector_pid, 0);
		collector->lock = &(GetNamedLWLockTranche(IOB_WAITS_TRANCHE))->lock;
		collector->period_ms = iobench_sample_period;
		collector->reset_at = GetCurrentTimestamp();
		iob_wait_table_init(iob_wait_collector_table(collector),
							iobench_max_wait_types);
	}
	LWLockRelease(AddinShmemInitLock);
}

/* Register the collector worker (postmaster, preloading only) */
static void
iob_register_collector(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 10;	/* seconds; a crash must not end sampling */
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "iobench");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "iobench_wait_collector_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "iobench wait collector");
	snprintf(worker.bgw_type, BGW_MAXLEN, "iobench wait collector");
	RegisterBackgroundWorker(&worker);
}

/*
 * When preloading, request the collector's shared memory and register the
 * collector; otherwise nothing.  Called once from _PG_init(), after the
 * settings are defined (iobench.max_wait_types sizes the memory).
 */
void
iob_wait_collector_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = iob_waits_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = iob_waits_shmem_startup;

	iob_register_collector();
}

/*
 * on_shmem_exit callback: say that no collector runs any more.  Takes no
 * lock: after an ERROR this runs with whatever LWLocks the error left held
 * (they are released only later, by ProcKill()), "lock" possibly among them.
 */
static void
iob_collector_exit(int code, Datum arg)
{
	uint32		mine = (uint32) MyProcPid;

	/* only if it still names this process */
	(void) pg_atomic_compare_exchange_u32(&collector->collector_pid, &mine, 0);
}

/* Publish the collector's settings in shared memory */
static void
iob_collector_publish(IobWaitSampler *sampler, IobWaitTimer *timer)
{
	LWLockAcquire(collector->lock, LW_EXCLUSIVE);
	collector->period_ms = iob_wait_timer_period_ms(timer);
	collector->have_schedstat = iob_wait_sampler_has_schedstat(sampler);
	LWLockRelease(collector->lock);
}

/*
 * Re-read the settings after a SIGHUP: a new period goes to the timer; a
 * change of iobench.sample_signal starts the sampler over, with or
 * without schedstat descriptors.  Returns the sampler to use.
 */
static IobWaitSampler *
iob_collector_reload(IobWaitSampler *sampler, IobWaitTimer *timer)
{
	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
	if (iobench_sample_signal != iob_wait_sampler_has_schedstat(sampler))
	{
		iob_wait_sampler_destroy(sampler);
		sampler = iob_wait_sampler_create(NULL, 0);	/* next tick: baselines */
	}
	if (iobench_sample_period != iob_wait_timer_period_ms(timer))
		iob_wait_timer_set_period(timer, iobench_sample_period);
	iob_collector_publish(sampler, timer);
	return sampler;
}

/*
 * One tick of the collector: read the PGPROCs without the lock, then add
 * the deltas and the tick's counts to the shared totals under it.
 * *seen_missed and *seen_sampled are the timer's and sampler's counts
 * already added.
 */
static void
collector_tick(IobWaitSampler *sampler, IobWaitTimer *timer, IobWaitTable *table,
			   uint64 *seen_missed, uint64 *seen_sampled)
{
	const IobWaitDelta *deltas;
	int			ndeltas;
	uint64		ticks;
	uint64		missed;
	uint64		sampled_ns;
	uint64		last_ns;
	uint64		prev_ns;

	iob_wait_sampler_counts(sampler, &ticks, &sampled_ns, &prev_ns);
	(void) iob_wait_sampler_tick(sampler);
	deltas = iob_wait_sampler_deltas(sampler, &ndeltas);
	iob_wait_sampler_counts(sampler, &ticks, &sampled_ns, &last_ns);
	iob_wait_timer_ticked(timer, last_ns);
	missed = iob_wait_timer_missed(timer);

	LWLockAcquire(collector->lock, LW_EXCLUSIVE);
	iob_wait_table_apply(table, deltas, ndeltas);
	if (prev_ns != 0)
		collector->ticks++;
	collector->missed += missed - *seen_missed;
	collector->sampled_ns += sampled_ns - *seen_sampled;
	LWLockRelease(collector->lock);

	*seen_missed = missed;
	*seen_sampled = sampled_ns;
}

/*
 * The collector worker: sample every iobench.sample_period ms and add each
 * tick to the shared totals.  Ends on SIGTERM; re-reads its settings on
 * SIGHUP; exits when the postmaster dies.
 */
void
iobench_wait_collector_main(Datum main_arg)
{
	IobWaitSampler *sampler;
	IobWaitTimer *timer;
	IobWaitTable *table;
	MemoryContext cxt;
	uint64		seen_missed = 0;
	uint64		seen_sampled = 0;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	if (collector == NULL)
		elog(ERROR, "iobench wait collector started without its shared memory");
	table = iob_wait_collector_table(collector);

	cxt = AllocSetContextCreate(TopMemoryContext, "iobench wait collector",
								ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);
	sampler = iob_wait_sampler_create(NULL, 0);
	timer = iob_wait_timer_create(iobench_sample_period);

	iob_collector_publish(sampler, timer);
	LWLockAcquire(collector->lock, LW_EXCLUSIVE);
	collector->started_at = GetCurrentTimestamp();
	LWLockRelease(collector->lock);
	on_shmem_exit(iob_collector_exit, (Datum) 0);
	pg_atomic_write_u32(&collector->collector_pid, (uint32) MyProcPid);

	while (!ShutdownRequestPending)
	{
		collector_tick(sampler, timer, table, &seen_missed, &seen_sampled);

		/* sleep until the next tick is due */
		for (;;)
		{
			bool		due = iob_wait_timer_sleep_plain(timer);

			if (ShutdownRequestPending)
				break;
			if (ConfigReloadPending)
			{
				IobWaitSampler *was = sampler;

				sampler = iob_collector_reload(sampler, timer);
				if (sampler != was)
					seen_sampled = 0;	/* a new sampler counts from zero */
			}
			if (due)
				break;
		}
	}

	proc_exit(0);
}

/* ----------------------------------------------------------------
 * SQL functions
 * ----------------------------------------------------------------
 */

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
	IobWaitCollector *c;
	IobWaitTable *copy;

	IOB_SQL_ENTRY(0);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	c = iob_wait_collector_required();
	InitMaterializedSRF(fcinfo, 0);
	copy = iob_copy_collector_table(c);
	iob_wait_put_rows(copy, true, NULL, 0, rsinfo->setResult, rsinfo->setDesc);
	pfree(copy);
	return (Datum) 0;
}

/* iobench.reset_waits(): clear the collector's totals */
Datum
iobench_reset_waits(PG_FUNCTION_ARGS)
{
	IobWaitCollector *c;

	IOB_SQL_ENTRY(0);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	c = iob_wait_collector_required();
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
	IobWaitCollector *c;
	IobWaitTable *t;
	TupleDesc	tupdesc;
	Datum		values[12];
	bool		nulls[12];
	IobWaitCollector snap;
	uint32		collector_pid;
	int			nentries;
	uint64		overflow;

	IOB_SQL_ENTRY(0);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	c = iob_wait_collector_required();
	t = iob_wait_collector_table(c);
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
 * iobench.plant_waits(): a test helper of version 0.1, removed in 0.2.
 * The released 0.1 install script still names this symbol, so the module
 * keeps it, to say what to do instead of adding anything.
 */
Datum
iobench_plant_waits(PG_FUNCTION_ARGS)
{
	IOB_SQL_ENTRY(2);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("iobench.plant_waits() was removed in iobench 0.2"),
			 errhint("Run ALTER EXTENSION iobench UPDATE.")));
	PG_RETURN_NULL();
}
