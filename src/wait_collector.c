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
 * This file also holds the wait settings and iobench_waits_init(), which
 * _PG_init() calls.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "wait_collector.h"

int			iobench_sample_period = 10;
int			iobench_max_wait_types = 512;
int			iobench_run_waits = IOB_RUN_WAITS_WORKERS;
bool		iobench_sample_signal = true;

static const struct config_enum_entry run_waits_options[] = {
	{"workers", IOB_RUN_WAITS_WORKERS, false},
	{"instance", IOB_RUN_WAITS_INSTANCE, false},
	{"off", IOB_RUN_WAITS_OFF, false},
	{NULL, 0, false}
};

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
 * Define the wait settings; when preloading, request shared memory and
 * register the collector.  Called once from _PG_init().
 */
void
iobench_waits_init(void)
{
	DefineCustomIntVariable("iobench.sample_period",
							"Time between two wait-event samples.",
							"Used by the wait collector, iobench.sample_waits() and benchmark runs.",
							&iobench_sample_period,
							10, 1, 1000,
							PGC_SUSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomBoolVariable("iobench.sample_signal",
							 "Splits wait time into resource and signal time with Linux schedstat.",
							 "Off: no /proc/<pid>/schedstat reads, and Signal_S and Resource_S are NULL.",
							 &iobench_sample_signal,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("iobench.run_waits",
							 "Which processes a benchmark run samples for its wait statistics.",
							 "\"workers\": the run's own workers; \"instance\": every process; \"off\": none.",
							 &iobench_run_waits,
							 IOB_RUN_WAITS_WORKERS,
							 run_waits_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	/*
	 * The rest only when preloading: a PGC_POSTMASTER setting cannot be
	 * defined later (samplers of a session use the default bound).
	 */
	if (!process_shared_preload_libraries_in_progress)
		return;

	DefineCustomIntVariable("iobench.max_wait_types",
							"Wait types the wait statistics tables can hold.",
							"Sizes the collector's shared memory at server start; wait types beyond it are summed in one overflow row.",
							&iobench_max_wait_types,
							512, 1, 65536,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);

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

/*
 * The collector worker: sample every iobench.sample_period ms and add each
 * tick to the shared totals.  Ends on SIGTERM; re-reads its settings on
 * SIGHUP; exits when the postmaster dies.
 */
void
iobench_wait_collector_main(Datum main_arg)
{
	IobWaitSampler *sampler;
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
	/* the sampler's own table is unused here: ticks go to shared memory */
	sampler = iob_wait_sampler_create(NULL, 0, iobench_sample_period, 1);

	LWLockAcquire(collector->lock, LW_EXCLUSIVE);
	collector->period_ms = iobench_sample_period;
	collector->have_schedstat = iob_wait_sampler_has_schedstat(sampler);
	collector->started_at = GetCurrentTimestamp();
	LWLockRelease(collector->lock);
	on_shmem_exit(iob_collector_exit, (Datum) 0);
	pg_atomic_write_u32(&collector->collector_pid, (uint32) MyProcPid);

	(void) iob_wait_sampler_tick(sampler);	/* baselines */

	while (!ShutdownRequestPending)
	{
		bool		due = iob_wait_sampler_sleep(sampler);
		const IobWaitDelta *deltas;
		int			ndeltas;
		uint64		ticks;
		uint64		missed;
		uint64		sampled_ns;

		if (ShutdownRequestPending)
			break;
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			if (iobench_sample_signal != collector->have_schedstat)
			{
				/* start over with or without schedstat descriptors */
				iob_wait_sampler_destroy(sampler);
				sampler = iob_wait_sampler_create(NULL, 0, iobench_sample_period, 1);
				(void) iob_wait_sampler_tick(sampler);
				seen_missed = 0;
				seen_sampled = 0;
				LWLockAcquire(collector->lock, LW_EXCLUSIVE);
				collector->have_schedstat = iob_wait_sampler_has_schedstat(sampler);
				collector->period_ms = iobench_sample_period;
				LWLockRelease(collector->lock);
			}
			if (iobench_sample_period != iob_wait_sampler_period_ms(sampler))
			{
				iob_wait_sampler_set_period(sampler, iobench_sample_period);
				LWLockAcquire(collector->lock, LW_EXCLUSIVE);
				collector->period_ms = iobench_sample_period;
				LWLockRelease(collector->lock);
			}
		}
		if (!due)
			continue;

		/* read the PGPROCs without the lock, then add under it */
		(void) iob_wait_sampler_tick(sampler);
		deltas = iob_wait_sampler_deltas(sampler, &ndeltas);
		iob_wait_sampler_counts(sampler, &ticks, &missed, &sampled_ns);

		LWLockAcquire(collector->lock, LW_EXCLUSIVE);
		iob_wait_table_apply(table, deltas, ndeltas);
		collector->ticks++;
		collector->missed += missed - seen_missed;
		collector->sampled_ns += sampled_ns - seen_sampled;
		LWLockRelease(collector->lock);

		seen_missed = missed;
		seen_sampled = sampled_ns;
	}

	proc_exit(0);
}
