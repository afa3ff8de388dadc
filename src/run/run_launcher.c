/*-------------------------------------------------------------------------
 *
 * run_launcher.c
 *	  iobench.run(): the launching backend's side of a benchmark run.
 *
 * The launcher validates the arguments, creates the run's DSM segment and
 * files, starts one dynamic background worker per "workers", gives the
 * "go" once all are ready, and then waits on its latch: it reports
 * progress (run_progress.c), samples the workers' waits (wait_run.c),
 * takes the devices' first sample as the measured period starts
 * (diskstats.h) and honours cancel.  When the workers are
 * done it merges their figures and stores the run (run_store.c).
 *
 * Clean-up: from the moment the first file exists until the files are
 * removed, PG_ENSURE_ERROR_CLEANUP covers ERROR and FATAL alike: it tells
 * the workers to stop, terminates them, and removes the files.  A crash of
 * the whole server leaves only files with the temporary-file prefix, which
 * the server removes when it restarts.
 *
 * A run that ends in an error once measuring began (cancel, Ctrl-C,
 * statement_timeout, a worker's error or termination) fails the statement
 * with that error, as any statement does; before the error goes on, the
 * workers are stopped and the partial run is stored as "cancelled" by a
 * process that commits on its own (store_worker.c), and the error's DETAIL
 * names the stored run.  Termination of the caller does the same from its
 * exit callback, as far as a dying backend can.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
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

#include "base/base.h"
#include "device/device.h"
#include "engine/engine.h"
#include "files.h"
#include "recorder.h"
#include "run_args.h"
#include "run_launcher.h"
#include "run_limits.h"
#include "run_progress.h"
#include "run_shared.h"
#include "results/results.h"
#include "store_worker.h"
#include "run_summary.h"
#include "steady_state.h"
#include "tablespace_group.h"
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

/* The launcher's state for one run */
typedef struct RunContext
{
	dsm_segment *seg;
	shm_toc    *toc;
	IobRunShared *run;
	IobRunStoreInfo *info;		/* the launcher's facts, for whoever stores */
	bool		store_attempted;	/* the run was stored, or tried to be */
	bool		store;			/* false on a hot standby or in a read-only
								 * transaction: nothing is stored */
	const IobRunParams *params; /* the caller's settings */
	IobRunResult *result;		/* the caller's, for the id of a failed run */
	bool		limits_held;	/* slots and buffers counted (run_limits.c) */
	char	   *carried_waits;	/* a failed run's wait rows as jsonb, or NULL */
	IobWorkerState *workers;
	IobSecondSlot *seconds;
	BackgroundWorkerHandle **handles;
	int			nlaunched;
	bool		files_created;
	bool		cleaned_up;
	IobProgressStyle progress_style;
	IobProgress progress;		/* progress NOTICEs (run_progress.c) */
	IobWaitRun *waits;			/* wait sampling of the run (wait_run.c), or NULL */
	IobSteadyState steady;		/* steady-state detection (steady_state.c) */
	IobDiskSampler *disk;		/* takes the devices' first sample, or NULL */
	BackgroundWorkerHandle *recorder;	/* the run's recorder (recorder.c), or
										 * NULL when nothing is stored */
} RunContext;

/* The partial run the last failed run stored (iob_take_kept_run_id()) */
static int64 last_kept_run_id = 0;

/* SQL entry point: iobench.run(...) */
Datum
iobench_run(PG_FUNCTION_ARGS)
{
	IobRunParams params;
	char	   *label;
	IobRunResult result;

	IOB_SQL_ENTRY(28);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	iob_parse_run_args(fcinfo, &params, &label);
	iob_execute_run(&params, label, IOB_PROGRESS_RATES, &result);
	PG_RETURN_DATUM(result.row);
}

/* The I/O buffer memory of a run's workers, as the caps count it */
static uint64
run_buffer_bytes(const IobRunParams *params)
{
	return (uint64) params->workers * params->iodepth * params->block_size;
}

/* Create the run's DSM segment (run_shared.c) and find its parts */
static void
create_segment(RunContext *ctx, const IobRunParams *params, const char *dir,
			   IobEngineKind engine, const char *label)
{
	int			i;

	ctx->toc = iob_run_segment_create(params, dir, engine, label, &ctx->seg);
	ctx->run = shm_toc_lookup(ctx->toc, IOB_KEY_RUN, false);
	/* a group: the tablespaces' directories */
	for (i = 0; i < params->ngroup; i++)
		iob_temp_dir_for_tablespace(params->group_oids[i], ctx->run->group_dirs[i]);
	ctx->workers = shm_toc_lookup(ctx->toc, IOB_KEY_WORKERS, false);
	ctx->seconds = shm_toc_lookup(ctx->toc, IOB_KEY_SECONDS, false);
	ctx->info = shm_toc_lookup(ctx->toc, IOB_KEY_STORE, false);
}

/*
 * The sampler of the block devices under the run's tablespace, or under
 * each tablespace of its group (diskstats.h); NULL when none has one
 */
static IobDiskSampler *
open_disks(IobRunShared *run)
{
	const IobRunParams *p = &run->params;
	int			n = iob_group_size(p);
	const char *dirs[IOB_MAX_GROUP];
	const char *spcnames[IOB_MAX_GROUP];
	int			g;

	for (g = 0; g < n; g++)
	{
		dirs[g] = p->ngroup > 0 ? run->group_dirs[g] : run->dir;
		spcnames[g] = p->ngroup > 0 ? NameStr(p->group_names[g]) : NameStr(p->tablespace);
	}
	return iob_disk_open_run(n, dirs, spcnames, true);
}

/*
 * Stop the workers before the end (cancel, an error) and wait until their
 * figures are final: bounded, and without taking interrupts, since this
 * runs while an error is handled or while this backend exits.
 */
static void
stop_workers(RunContext *ctx)
{
	int			waited_ms = 0;

	ctx->info->stopped_ns = iob_now_ns();
	ctx->run->stop_ns = ctx->info->stopped_ns;
	pg_write_barrier();
	pg_atomic_write_u32(&ctx->run->phase, IOB_PHASE_STOP);
	while (pg_atomic_read_u32(&ctx->run->nfinished) < (uint32) ctx->nlaunched &&
		   waited_ms < CLEANUP_WAIT_MS)
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
		pg_usleep(10 * 1000L);
		waited_ms += 10;
	}
}

/*
 * The wait statistics of a failed run, for the storer: store the run and
 * its waits in a subtransaction as a completed run would be stored, keep
 * the wait rows as jsonb and the run id, and roll the subtransaction back.
 * The id stays taken (sequences are not transactional), so the storer
 * stores the run under it and the wait rows point to it.  An error here
 * (another cancel) only loses the waits.  Needs a transaction that can
 * still run SQL: not while the backend exits.
 */
static void
carry_waits(RunContext *ctx)
{
	IobSubxact	sx;

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		IobRunSummary summary;
		Datum		row;
		int64		run_id;

		iob_summarize_run(&summary, ctx->toc);
		row = iob_store_run(&summary);
		iob_wait_run_store(ctx->waits, row, &summary);
		run_id = iob_run_row_id(row, NULL);
		ctx->carried_waits = iob_export_run_waits(run_id);
		ctx->info->fixed_run_id = run_id;
		iob_subxact_rollback(&sx);
	}
	PG_CATCH();
	{
		(void) iob_subxact_catch(&sx, NULL);
		ctx->carried_waits = NULL;
		ctx->info->fixed_run_id = 0;
	}
	PG_END_TRY();
	ctx->waits = NULL;
}

/*
 * A run that ends in an error: once measuring began, stop the workers and
 * store what they measured from a process that commits on its own
 * (store_worker.c), as "cancelled" when an operator stopped it (SQLSTATE
 * class 57: cancel, statement_timeout, termination) and as "failed"
 * otherwise.  Returns the stored run id, or 0 with *why set (NULL when
 * nothing was measured, so nothing is stored).
 */
static int64
store_failed_run(RunContext *ctx, int sqlerrcode, const char **why)
{
	dsm_segment *waits_seg = NULL;
	int64		run_id;

	ctx->store_attempted = true;
	*why = NULL;
	if (ctx->run->start_ns == 0)
		return 0;
	stop_workers(ctx);
	if (!ctx->store)
	{
		*why = "a run on a hot standby or in a read-only transaction is not stored";
		return 0;
	}
	ctx->info->completed = false;
	strlcpy(ctx->info->status,
			ERRCODE_TO_CATEGORY(sqlerrcode) == ERRCODE_OPERATOR_INTERVENTION ?
			"cancelled" : "failed", sizeof(ctx->info->status));
	ctx->info->nworkers = ctx->nlaunched;
	ctx->info->finished_at = GetCurrentTimestamp();
	if (ctx->waits != NULL && !proc_exit_inprogress)
		carry_waits(ctx);
	if (ctx->carried_waits != NULL)
	{
		Size		len = strlen(ctx->carried_waits) + 1;

		waits_seg = dsm_create(len, DSM_CREATE_NULL_IF_MAXSEGMENTS);
		if (waits_seg != NULL)
		{
			memcpy(dsm_segment_address(waits_seg), ctx->carried_waits, len);
			ctx->info->rows_handle = dsm_segment_handle(waits_seg);
		}
	}
	/* the recorder stores what it has before the storer moves it */
	(void) iob_recorder_finish(ctx->recorder, ctx->run, false);
	run_id = iob_store_detached(ctx->seg, ctx->info, why) ? ctx->info->run_id : 0;
	if (waits_seg != NULL)
		dsm_detach(waits_seg);
	return run_id;
}

/* Give back the slots and buffer bytes the run counted (run_limits.c) */
static void
release_limits(RunContext *ctx)
{
	if (!ctx->limits_held)
		return;
	iob_limits_release(ctx->params->workers, run_buffer_bytes(ctx->params));
	ctx->limits_held = false;
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

	if (ctx->cleaned_up)
		return;
	ctx->cleaned_up = true;
	if (ctx->run == NULL)
	{
		release_limits(ctx);
		return;
	}

	/* the caller is exiting (terminated) mid-run: keep what was measured */
	if (proc_exit_inprogress && !ctx->store_attempted)
	{
		const char *why = NULL;
		int64		run_id = store_failed_run(ctx, ERRCODE_ADMIN_SHUTDOWN, &why);

		if (run_id > 0)
			ereport(LOG,
					(errmsg("benchmark run of a terminated session stored as run " INT64_FORMAT " with status \"cancelled\"",
							run_id)));
		else if (why)
			ereport(LOG,
					(errmsg("could not store the benchmark run of a terminated session: %s", why)));
	}

	pg_atomic_write_u32(&ctx->run->phase, IOB_PHASE_STOP);
	for (i = 0; i < ctx->nlaunched; i++)
		TerminateBackgroundWorker(ctx->handles[i]);
	if (ctx->recorder)
		TerminateBackgroundWorker(ctx->recorder);

	/* unlinking is safe while a worker still holds a descriptor */
	if (ctx->files_created)
		iob_remove_files(ctx->run);

	/* the recorder too: the slots are given back below */
	for (i = 0; i <= ctx->nlaunched; i++)
	{
		BackgroundWorkerHandle *h = i < ctx->nlaunched ? ctx->handles[i] : ctx->recorder;
		pid_t		pid;

		while (h != NULL && waited_ms < CLEANUP_WAIT_MS &&
			   (GetBackgroundWorkerPid(h, &pid) == BGWH_STARTED ||
				GetBackgroundWorkerPid(h, &pid) == BGWH_NOT_YET_STARTED))
		{
			pg_usleep(10 * 1000L);
			waited_ms += 10;
		}
	}

	release_limits(ctx);
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
	iob_dynworker_prepare(&worker, "iobench_worker_main", "iobench worker", ctx->seg);
	for (i = 0; i < params->workers; i++)
	{
		snprintf(worker.bgw_name, BGW_MAXLEN, "iobench worker %d of run by PID %d",
				 i, MyProcPid);
		/* the worker's index in the segment (worker.c) */
		memcpy(worker.bgw_extra + IOB_DYNWORKER_EXTRA, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&worker, &ctx->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("could not register background worker for the benchmark run"),
					 errdetail("Only %d background worker slots were free for the %d workers of the run.",
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
					 timeout_ms, IOB_RUN_WAIT_EVENT);
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

/*
 * With start_at, wait for it once the workers are ready (files made and
 * opened), so runs on several servers start their workers together.  The
 * last stretch sleeps the exact remainder, rounded up to a millisecond.
 */
static void
wait_for_start_at(RunContext *ctx)
{
	TimestampTz start_at = ctx->run->params.start_at;
	TimestampTz now;

	if (start_at == 0)
		return;
	while ((now = GetCurrentTimestamp()) < start_at)
	{
		check_workers(ctx);
		launcher_sleep(Min((start_at - now + 999) / 1000, LAUNCHER_TICK_MS));
	}
}

/*
 * Wait statistics: start sampling the ready workers, and for an engine
 * whose reads the server's I/O workers do (postgres), those (wait_run.c)
 */
static void
start_wait_sampling(RunContext *ctx)
{
	int		   *pids = palloc(sizeof(int) * Max(ctx->nlaunched, 1));
	int			i;

	for (i = 0; i < ctx->nlaunched; i++)
		pids[i] = ctx->workers[i].pid;
	ctx->waits = iob_wait_run_start(pids, ctx->nlaunched,
									(iob_engine_ops(ctx->run->engine)->flags &
									 IOB_ENGINE_SERVER_IO) != 0);
	pfree(pids);
}

/* Set the clock marks and wake every worker */
static void
give_go(RunContext *ctx)
{
	IobRunShared *run = ctx->run;
	int			i;

	run->start_ns = iob_now_ns();
	ctx->info->go_at = GetCurrentTimestamp();
	run->measure_start_ns = run->start_ns + run->params.warmup_us * 1000;
	run->end_ns = run->measure_start_ns + run->params.duration_us * 1000;
	/* no warm-up: the devices' first sample, before any I/O of the period */
	(void) iob_disk_take_first(ctx->disk, &run->disk, run->start_ns,
							   run->measure_start_ns, LAUNCHER_TICK_MS);
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
		/* after a warm-up: the devices' first sample when the period starts */
		long		disk_ms = iob_disk_take_first(ctx->disk, &run->disk, now,
												  run->measure_start_ns, LAUNCHER_TICK_MS);

		check_workers(ctx);
		iob_progress_report(&ctx->progress, run, ctx->workers, ctx->nlaunched, now);
		if (now > run->end_ns + DRAIN_GRACE_NS)
			pg_atomic_write_u32(&run->phase, IOB_PHASE_STOP);
		/* steady state reached: the measured period ends now */
		if (iob_steady_poll(&ctx->steady, run, ctx->seconds, now))
		{
			ctx->info->stopped_ns = now;
			ctx->info->steady_reached = true;
			ctx->info->steady_at_s = ctx->steady.at_s;
			run->stop_ns = now;
			pg_write_barrier();
			pg_atomic_write_u32(&run->phase, IOB_PHASE_STOP);
		}
		/* wait statistics: sample now if due, and wake for the next tick */
		launcher_sleep(iob_wait_run_poll(ctx->waits, now, run->measure_start_ns,
										 run->end_ns, disk_ms));
	}
	check_workers(ctx);
}

/*
 * What the run's engine reads: the run's files, made here, or what the
 * engine prepares itself (postgres: its settings, and its relation made,
 * filled and cold; the run's "direct" then says what the server does:
 * direct I/O for data files, or the page cache)
 */
static void
prepare_engine_run(RunContext *ctx)
{
	const IobEngineOps *ops = iob_engine_ops(ctx->run->engine);

	if (ops->flags & IOB_ENGINE_RUN_FILES)
	{
		ctx->files_created = true;
		iob_allocate_files(ctx->run);
		iob_create_files(ctx->run);
		iob_check_direct_io(ctx->run);
	}
	if (ops->prepare_run)
	{
		IobEngineWork work;
		bool		direct;

		iob_engine_work(&ctx->run->params, &work);
		ops->prepare_run(ctx->seg, &ctx->run->engine_shared, &work, &direct);
		ctx->run->params.direct = direct;
	}
}

/*
 * The part of a run that an error or cancel may interrupt: make the files,
 * start the workers, run, and wait.  An error once measuring began stores
 * the partial run (store_failed_run) and goes on with its DETAIL naming it.
 */
static void
run_phases(RunContext *ctx, const IobRunParams *params)
{
	IobSubxact	sx;

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		/*
		 * The recorder first: it waits for the "go" and touches nothing
		 * before, so a server without a slot for it refuses the run before
		 * a file exists.
		 */
		if (ctx->store)
			ctx->recorder = iob_recorder_launch(ctx->seg);
		prepare_engine_run(ctx);
		launch_workers(ctx, params);
		wait_until_ready(ctx);
		wait_for_start_at(ctx);
		start_wait_sampling(ctx);
		give_go(ctx);
		wait_for_workers(ctx);
		iob_subxact_commit(&sx);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		const char *why;
		int64		run_id;

		/* out of the subtransaction before anything else (subxact.h) */
		edata = iob_subxact_catch(&sx, sx.cxt);
		run_id = store_failed_run(ctx, edata->sqlerrcode, &why);
		ctx->result->run_id = run_id;
		ctx->result->failed = true;
		last_kept_run_id = run_id;
		if (run_id > 0)
			edata->detail = psprintf("%s%sThe partial run is stored as run " INT64_FORMAT " with status \"%s\".",
									 edata->detail ? edata->detail : "",
									 edata->detail ? " " : "", run_id, ctx->info->status);
		else if (why)
			edata->detail = psprintf("%s%sThe partial run could not be stored: %s.",
									 edata->detail ? edata->detail : "",
									 edata->detail ? " " : "", why);
		ReThrowError(edata);
	}
	PG_END_TRY();
}

/*
 * Say that a run on a hot standby or in a read-only transaction was not
 * stored, and how to keep it.
 */
static void
report_not_stored(void)
{
	if (RecoveryInProgress())
		ereport(NOTICE,
				(errmsg("iobench: nothing was stored: the run took place on a hot standby"),
				 errdetail("The run's row is returned with run_id NULL; its per-second figures, latency histogram and waits are not kept."),
				 errhint("To keep the row, save SELECT iobench.export_run_row(r) FROM iobench.run(...) AS r and pass it to iobench.import_runs() on the primary.")));
	else
		ereport(NOTICE,
				(errmsg("iobench: nothing was stored: the run took place in a read-only transaction"),
				 errdetail("The run's row is returned with run_id NULL; its per-second figures, latency histogram and waits are not kept."),
				 errhint("Run it outside a read-only transaction to store it.")));
}

/* See run_launcher.h */
int64
iob_take_kept_run_id(void)
{
	int64		run_id = last_kept_run_id;

	last_kept_run_id = 0;
	return run_id;
}

/* Run one benchmark end to end; see run_launcher.h */
void
iob_execute_run(const IobRunParams *params, const char *label,
				IobProgressStyle progress_style, IobRunResult *result)
{
	RunContext *ctx;
	IobRunSummary summary;
	IobStorageInfo storage;
	const IobEngineOps *ops = iob_engine_ops(params->engine);
	char		dir[MAXPGPATH];
	bool		store;
	bool		recorder_final;

	result->run_id = 0;
	result->failed = false;
	result->completed = false;
	result->row = (Datum) 0;
	iob_check_run_waits_scope();

	/*
	 * Everything that can be checked before a byte is written.  On a hot
	 * standby or in a read-only transaction the run happens all the same
	 * (its files are temporary files, which a standby allows) and nothing
	 * is stored.
	 */
	store = !XactReadOnly;
	if (ops->check_allowed)
		ops->check_allowed();
	iob_temp_dir_for_tablespace(params->tablespace_oid, dir);
	iob_describe_storage(dir, &storage);
	/* an engine without the run's files checks what it makes itself */
	if (ops->flags & IOB_ENGINE_RUN_FILES)
		iob_check_group_free_space(params, dir);

	ctx = palloc0(sizeof(RunContext));
	ctx->params = params;
	ctx->result = result;
	ctx->progress_style = progress_style;
	ctx->store = store;
	/* the caps: refused here, before anything is made */
	iob_limits_reserve(params->workers, run_buffer_bytes(params));
	ctx->limits_held = true;

	PG_ENSURE_ERROR_CLEANUP(cleanup_run_callback, PointerGetDatum(ctx));
	{
		create_segment(ctx, params, dir,
					   iob_engine_resolve(params->engine, params->iodepth), label);
		/* the devices to sample; a NOTICE here for a tablespace without one */
		ctx->disk = open_disks(ctx->run);
		iob_disk_share(ctx->disk, &ctx->run->disk);
		/* the id the run is stored under, taken now for its recorder's rows */
		if (store)
			ctx->run->run_id = iob_reserve_run_id();
		ctx->info->storage = storage;
		ctx->info->started_at = GetCurrentTimestamp();
		run_phases(ctx, params);
		/* the recorder stores the last seconds once the workers are done */
		recorder_final = iob_recorder_finish(ctx->recorder, ctx->run, true);
		ctx->store_attempted = true;
		ctx->info->completed = true;
		ctx->info->nworkers = ctx->nlaunched;
		ctx->info->finished_at = GetCurrentTimestamp();
		iob_summarize_run(&summary, ctx->toc);
		/* its live rows read, the recorder deletes them (recorder.h) */
		if (recorder_final)
		{
			iob_take_live_rows(&summary);
			iob_recorder_release(ctx->recorder, ctx->run);
		}
		cleanup_run(ctx);
	}
	PG_END_ENSURE_ERROR_CLEANUP(cleanup_run_callback, PointerGetDatum(ctx));
	iob_steady_report_end(&ctx->steady, params);

	dsm_detach(ctx->seg);
	ctx->seg = NULL;

	if (!store)
	{
		report_not_stored();
		result->row = iob_unstored_run(&summary);
	}
	else
	{
		result->row = iob_store_run(&summary);
		iob_wait_run_store(ctx->waits, result->row, &summary);
		/* what the engine adds (postgres: its read path's row) */
		ops = iob_engine_ops(summary.engine);
		if (ops->store)
		{
			bool		completed;

			result->row = ops->store(iob_run_row_id(result->row, &completed),
									 &summary.engine_shared, &summary.engine_counts,
									 summary.bytes[IOB_OP_READ], result->row);
		}
	}
	result->run_id = iob_run_row_id(result->row, &result->completed);
}
