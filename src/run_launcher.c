/*-------------------------------------------------------------------------
 *
 * run_launcher.c
 *	  iobench.run(): the launching backend's side of a benchmark run.
 *
 * The launcher validates the arguments, creates the run's DSM segment and
 * files, starts one dynamic background worker per "workers", gives the
 * "go" once all are ready, and then waits on its latch: it reports
 * progress (run_progress.c), samples the workers' waits (wait_run.c) and
 * honours cancel.  When the workers are
 * done it merges their figures and stores the run (results.c).
 *
 * Clean-up: from the moment the first file exists until the files are
 * removed, PG_ENSURE_ERROR_CLEANUP covers ERROR and FATAL alike: it tells
 * the workers to stop, terminates them, and removes the files.  A crash of
 * the whole server leaves only files with the temporary-file prefix, which
 * the server removes when it restarts.  Query cancel (Ctrl-C,
 * statement_timeout, pg_cancel_backend) is caught in a subtransaction: the
 * workers stop, the files go, and the partial run is stored as "cancelled".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xact.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/utility.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "clock.h"
#include "compat.h"
#include "engine.h"
#include "files.h"
#include "iobench.h"
#include "results.h"
#include "run.h"
#include "run_progress.h"
#include "run_shared.h"
#include "wait_run.h"

PG_FUNCTION_INFO_V1(iobench_run);

/* How long the launcher sleeps between checks of its workers */
#define LAUNCHER_TICK_MS	100

/*
 * How long the workers may take past the end of the measured period to
 * drain what is in flight before the launcher tells them to stop.
 */
#define DRAIN_GRACE_NS		(2 * IOB_NS_PER_SEC)

/* How long clean-up waits for workers to exit after terminating them */
#define CLEANUP_WAIT_MS		5000

/* Counter that makes file names unique across runs of one backend */
static uint32 run_counter = 0;

/* The launcher's state for one run */
typedef struct RunContext
{
	dsm_segment *seg;
	IobRunShared *run;
	IobWorkerState *workers;
	IobSecondSlot *seconds;
	BackgroundWorkerHandle **handles;
	int			nlaunched;
	bool		files_created;
	bool		cleaned_up;
	IobProgressStyle progress_style;
	IobProgress progress;		/* progress NOTICEs (run_progress.c) */
	int64		stopped_ns;		/* when a cancelled run stopped */
	IobWaitRun *waits;			/* wait sampling of the run (wait_run.c), or NULL */
} RunContext;

/* SQL entry point: iobench.run(...) */
Datum
iobench_run(PG_FUNCTION_ARGS)
{
	IobRunParams params;
	char	   *label;

	iob_parse_run_args(fcinfo, &params, &label);
	PG_RETURN_DATUM(iob_execute_run(&params, label, IOB_PROGRESS_RATES));
}

/* Create the DSM segment and lay out the run's shared state in it */
static void
create_segment(RunContext *ctx, const IobRunParams *params, const char *dir,
			   IobEngineKind engine)
{
	shm_toc_estimator e;
	Size		workers_size = mul_size(sizeof(IobWorkerState), params->workers);
	int			nseconds = (int) ((params->duration_us + USECS_PER_SEC - 1) / USECS_PER_SEC) + 1;
	Size		seconds_size = mul_size(sizeof(IobSecondSlot),
										mul_size(nseconds, IOB_NUM_OP_KINDS));
	shm_toc    *toc;
	IobRunShared *run;
	int			i;

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(IobRunShared));
	shm_toc_estimate_chunk(&e, workers_size);
	shm_toc_estimate_chunk(&e, seconds_size);
	shm_toc_estimate_keys(&e, 3);

	ctx->seg = dsm_create(shm_toc_estimate(&e), 0);
	toc = shm_toc_create(IOB_SHM_MAGIC, dsm_segment_address(ctx->seg),
						 shm_toc_estimate(&e));

	run = shm_toc_allocate(toc, sizeof(IobRunShared));
	memset(run, 0, sizeof(IobRunShared));
	run->params = *params;
	run->engine = engine;
	strlcpy(run->dir, dir, sizeof(run->dir));
	snprintf(run->file_prefix, sizeof(run->file_prefix), "%s%d.iobench%u",
			 PG_TEMP_FILE_PREFIX, MyProcPid, run_counter++);
	run->launcher_procno = GetNumberFromPGProc(MyProc);
	run->nseconds = nseconds;
	pg_atomic_init_u32(&run->phase, IOB_PHASE_PREPARE);
	pg_atomic_init_u32(&run->nready, 0);
	pg_atomic_init_u32(&run->nfinished, 0);
	shm_toc_insert(toc, IOB_KEY_RUN, run);

	ctx->workers = shm_toc_allocate(toc, workers_size);
	memset(ctx->workers, 0, workers_size);
	for (i = 0; i < params->workers; i++)
	{
		int			k;

		ctx->workers[i].worker_index = i;
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			iob_hist_reset(&ctx->workers[i].hist[k]);
	}
	shm_toc_insert(toc, IOB_KEY_WORKERS, ctx->workers);

	ctx->seconds = shm_toc_allocate(toc, seconds_size);
	for (i = 0; i < nseconds * IOB_NUM_OP_KINDS; i++)
	{
		pg_atomic_init_u64(&ctx->seconds[i].ops, 0);
		pg_atomic_init_u64(&ctx->seconds[i].bytes, 0);
		pg_atomic_init_u64(&ctx->seconds[i].lat_sum_ns, 0);
		pg_atomic_init_u64(&ctx->seconds[i].lat_max_ns, 0);
	}
	shm_toc_insert(toc, IOB_KEY_SECONDS, ctx->seconds);

	ctx->run = run;
}

/*
 * Stop everything the run started: tell the workers to stop, terminate
 * them, remove the files, and wait (bounded) for the workers to exit.
 * Safe to call more than once and from error clean-up: raises no error.
 */
static void
cleanup_run(RunContext *ctx)
{
	int			i;
	int			waited_ms = 0;

	if (ctx->cleaned_up || ctx->run == NULL)
		return;
	ctx->cleaned_up = true;

	pg_atomic_write_u32(&ctx->run->phase, IOB_PHASE_STOP);
	for (i = 0; i < ctx->nlaunched; i++)
		TerminateBackgroundWorker(ctx->handles[i]);

	/* unlinking is safe while a worker still holds a descriptor */
	if (ctx->files_created)
		iob_remove_files(ctx->run);

	for (i = 0; i < ctx->nlaunched; i++)
	{
		pid_t		pid;

		while (GetBackgroundWorkerPid(ctx->handles[i], &pid) == BGWH_STARTED &&
			   waited_ms < CLEANUP_WAIT_MS)
		{
			pg_usleep(10 * 1000L);
			waited_ms += 10;
		}
	}
}

/* PG_ENSURE_ERROR_CLEANUP callback: runs on ERROR and on process exit */
static void
cleanup_run_callback(int code, Datum arg)
{
	cleanup_run((RunContext *) DatumGetPointer(arg));
}

/* Start one background worker per "workers"; all or none */
static void
launch_workers(RunContext *ctx, const IobRunParams *params)
{
	BackgroundWorker worker;
	int			i;

	ctx->handles = palloc0(sizeof(BackgroundWorkerHandle *) * params->workers);
	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "iobench", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "iobench_worker_main", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "iobench worker", BGW_MAXLEN);
	worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(ctx->seg));
	worker.bgw_notify_pid = MyProcPid;

	for (i = 0; i < params->workers; i++)
	{
		snprintf(worker.bgw_name, BGW_MAXLEN, "iobench worker %d of run by PID %d",
				 i, MyProcPid);
		memcpy(worker.bgw_extra, &i, sizeof(int));
		memcpy(worker.bgw_extra + sizeof(int), &MyDatabaseId, sizeof(Oid));
		if (!RegisterDynamicBackgroundWorker(&worker, &ctx->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("could not register background worker for the benchmark run"),
					 errdetail("%d of %d workers were registered before all background worker slots were in use.",
							   i, params->workers),
					 errhint("Raise max_worker_processes (currently %d) or run with fewer workers.",
							 max_worker_processes)));
		ctx->nlaunched++;
	}
}

/*
 * Raise the error of a worker that failed, or of one that exited without
 * saying why.  Called from the launcher's loops.
 */
static void
check_workers(RunContext *ctx)
{
	int			i;

	for (i = 0; i < ctx->nlaunched; i++)
	{
		IobWorkerState *ws = &ctx->workers[i];
		pid_t		pid;

		if (ws->error_code != 0)
		{
			pg_read_barrier();
			ereport(ERROR,
					(errcode(ws->error_code),
					 errmsg("iobench worker %d failed: %s", i, ws->error_message),
					 ws->error_detail[0] ? errdetail_internal("%s", ws->error_detail) : 0));
		}
		/* stopped without saying it finished: killed, or FATAL */
		if (!ws->finished &&
			GetBackgroundWorkerPid(ctx->handles[i], &pid) == BGWH_STOPPED)
		{
			pg_read_barrier();
			if (!ws->finished)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("iobench worker %d exited unexpectedly", i),
						 errhint("See the server log for the reason.")));
		}
	}
}

/* Sleep on the latch for at most timeout_ms, then check for cancel */
static void
launcher_sleep(long timeout_ms)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 timeout_ms, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/* Wait until every worker has opened its files and is ready for "go" */
static void
wait_until_ready(RunContext *ctx)
{
	while (pg_atomic_read_u32(&ctx->run->nready) < (uint32) ctx->nlaunched)
	{
		check_workers(ctx);
		launcher_sleep(LAUNCHER_TICK_MS);
	}
	/* the workers wrote their pid and procno before counting themselves */
	pg_read_barrier();
}

/* Wait statistics: start sampling the ready workers (wait_run.c) */
static void
start_wait_sampling(RunContext *ctx)
{
	int		   *pids = palloc(sizeof(int) * Max(ctx->nlaunched, 1));
	int			i;

	for (i = 0; i < ctx->nlaunched; i++)
		pids[i] = ctx->workers[i].pid;
	ctx->waits = iob_wait_run_start(pids, ctx->nlaunched);
	pfree(pids);
}

/* Set the clock marks and wake every worker */
static void
give_go(RunContext *ctx)
{
	IobRunShared *run = ctx->run;
	int			i;

	run->start_ns = iob_now_ns();
	run->measure_start_ns = run->start_ns + run->params.warmup_us * 1000;
	run->end_ns = run->measure_start_ns + run->params.duration_us * 1000;
	pg_write_barrier();
	pg_atomic_write_u32(&run->phase, IOB_PHASE_RUN);
	for (i = 0; i < ctx->nlaunched; i++)
		SetLatch(&GetPGProcByNumber(ctx->workers[i].procno)->procLatch);
	iob_progress_start(&ctx->progress, ctx->progress_style, run);
}

/*
 * Wait for the workers to finish the run.  They stop by themselves at the
 * end of the measured period; if they overstay the drain grace, tell them.
 */
static void
wait_for_workers(RunContext *ctx)
{
	IobRunShared *run = ctx->run;

	while (pg_atomic_read_u32(&run->nfinished) < (uint32) ctx->nlaunched)
	{
		int64		now = iob_now_ns();

		check_workers(ctx);
		iob_progress_report(&ctx->progress, run, ctx->workers, ctx->nlaunched, now);
		if (now > run->end_ns + DRAIN_GRACE_NS)
			pg_atomic_write_u32(&run->phase, IOB_PHASE_STOP);
		/* wait statistics: sample now if due, and wake for the next tick */
		launcher_sleep(iob_wait_run_poll(ctx->waits, now, run->measure_start_ns,
										 run->end_ns, LAUNCHER_TICK_MS));
	}
	check_workers(ctx);
}

/* After cancel: stop the workers and wait for their figures to be final */
static void
stop_workers(RunContext *ctx)
{
	ctx->stopped_ns = iob_now_ns();
	ctx->run->stop_ns = ctx->stopped_ns;
	pg_write_barrier();
	pg_atomic_write_u32(&ctx->run->phase, IOB_PHASE_STOP);
	while (pg_atomic_read_u32(&ctx->run->nfinished) < (uint32) ctx->nlaunched)
	{
		int			i;
		bool		all_gone = true;

		for (i = 0; i < ctx->nlaunched; i++)
		{
			pid_t		pid;

			if (GetBackgroundWorkerPid(ctx->handles[i], &pid) != BGWH_STOPPED)
				all_gone = false;
		}
		if (all_gone)
			break;
		launcher_sleep(10);
	}
}

/*
 * The part of a run that cancel may interrupt: make the files, start the
 * workers, run, and wait.  Returns false when the run was cancelled.
 */
static bool
run_phases(RunContext *ctx, const IobRunParams *params)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	volatile bool completed = true; /* set in PG_CATCH, read after it */

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);

	PG_TRY();
	{
		ctx->files_created = true;
		iob_create_files(ctx->run);
		iob_check_direct_io(ctx->run);
		launch_workers(ctx, params);
		wait_until_ready(ctx);
		start_wait_sampling(ctx);
		give_go(ctx);
		wait_for_workers(ctx);

		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/*
		 * Leave the subtransaction before anything else, as PL/pgSQL does:
		 * an error re-thrown from inside it would leave the caller's
		 * implicit transaction block aborted.
		 */
		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		if (edata->sqlerrcode != ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);

		ereport(WARNING,
				(errmsg("benchmark run cancelled: %s", edata->message),
				 errdetail("The workers were stopped and the files removed; the figures measured until then are stored with status \"cancelled\".")));
		FreeErrorData(edata);
		completed = false;
		stop_workers(ctx);
	}
	PG_END_TRY();

	return completed;
}

/* Merge the workers' final figures into the summary */
static void
summarize(RunContext *ctx, IobRunSummary *s, bool completed)
{
	IobRunShared *run = ctx->run;
	int64		measured_end;
	int			i;
	int			k;

	/* the workers' figures were final before they counted themselves done */
	pg_read_barrier();
	s->status = completed ? "completed" : "cancelled";
	s->engine = run->engine;
	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		iob_hist_reset(&s->hist[k]);
		s->bytes[k] = 0;
	}
	for (i = 0; i < ctx->nlaunched; i++)
	{
		IobWorkerState *ws = &ctx->workers[i];

		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
		{
			iob_hist_merge(&s->hist[k], &ws->hist[k]);
			s->bytes[k] += ws->bytes[k];
		}
		s->cpu_user_s += ws->cpu_user_s;
		s->cpu_sys_s += ws->cpu_sys_s;
		s->stall_count += ws->nstalls;
		/* order-sensitive combination: the digest of worker 0 comes first */
		s->offset_digest = s->offset_digest * UINT64CONST(0x100000001b3) ^ ws->offset_digest;
	}

	/* the measured period: all of it, or up to the cancel */
	if (run->start_ns == 0)
		s->measured_s = 0;
	else
	{
		measured_end = completed ? run->end_ns : Min(ctx->stopped_ns, run->end_ns);
		s->measured_s = Max((double) (measured_end - run->measure_start_ns) / IOB_NS_PER_SEC, 0.0);
	}

	/* the stall events the workers kept, in worker order */
	s->nstall_events = 0;
	s->stall_events = palloc(sizeof(IobStallEvent) *
							 Max(ctx->nlaunched * IOB_MAX_STALL_EVENTS, 1));
	s->stall_workers = palloc(sizeof(int) *
							  Max(ctx->nlaunched * IOB_MAX_STALL_EVENTS, 1));
	for (i = 0; i < ctx->nlaunched; i++)
	{
		IobWorkerState *ws = &ctx->workers[i];
		int			e;

		for (e = 0; e < Min(ws->nstall_events, IOB_MAX_STALL_EVENTS); e++)
		{
			s->stall_workers[s->nstall_events] = i;
			s->stall_events[s->nstall_events++] = ws->stall_events[e];
		}
	}

	/* copy the time series out of shared memory, up to the last used second */
	s->nseconds = 0;
	for (i = 0; i < run->nseconds; i++)
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			if (pg_atomic_read_u64(&iob_second_slot(ctx->seconds, i, k)->ops) > 0)
				s->nseconds = i + 1;
	s->seconds = palloc(sizeof(IobSecondSlot) * Max(s->nseconds, 1) * IOB_NUM_OP_KINDS);
	memcpy(s->seconds, ctx->seconds,
		   sizeof(IobSecondSlot) * s->nseconds * IOB_NUM_OP_KINDS);
}

/* Run one benchmark end to end; see run.h */
Datum
iob_execute_run(const IobRunParams *params, const char *label,
				IobProgressStyle progress_style)
{
	RunContext *ctx;
	IobRunSummary summary;
	char		dir[MAXPGPATH];
	bool		completed;
	Datum		result;

	memset(&summary, 0, sizeof(summary));
	summary.params = params;
	summary.label = label;

	/* everything that can be checked before a byte is written */
	PreventCommandIfReadOnly("iobench.run()");
	PreventCommandDuringRecovery("iobench.run()");
	iob_temp_dir_for_tablespace(params->tablespace_oid, dir);
	iob_describe_storage(dir, &summary.storage);
	iob_check_free_space(dir, params->file_size * (uint64) params->files);

	ctx = palloc0(sizeof(RunContext));
	ctx->progress_style = progress_style;
	create_segment(ctx, params, dir,
				   iob_engine_resolve(params->engine, params->iodepth));

	summary.started_at = GetCurrentTimestamp();
	PG_ENSURE_ERROR_CLEANUP(cleanup_run_callback, PointerGetDatum(ctx));
	{
		completed = run_phases(ctx, params);
		summarize(ctx, &summary, completed);
		cleanup_run(ctx);
	}
	PG_END_ENSURE_ERROR_CLEANUP(cleanup_run_callback, PointerGetDatum(ctx));
	summary.finished_at = GetCurrentTimestamp();

	dsm_detach(ctx->seg);
	ctx->seg = NULL;

	result = iob_store_run(&summary);
	iob_wait_run_store(ctx->waits, result, &summary);
	return result;
}
