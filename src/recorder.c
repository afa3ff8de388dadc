/*-------------------------------------------------------------------------
 *
 * recorder.c
 *	  The recorder of a run: live_runs, live_seconds and live_stalls
 *	  committed as the run goes (recorder.h).
 *
 * The recorder attaches to the run's DSM segment and ticks every
 * RECORDER_TICK_MS: it drains every second of the ring that all workers
 * are past (or that is IOB_SECOND_MAX_LAG seconds old), reads the stalls
 * the workers put in their rings since the last tick, and commits what it
 * found in one transaction.  It ends once every worker has finished and
 * the last second is stored, or when the run stops without its workers
 * finishing (the launcher then terminates it).  Its rows are written as
 * the owner of the iobench schema (owner_spi.h); it connects as the
 * bootstrap superuser, as contrib's autoprewarm does, to be able to.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

#include "clock.h"
#include "diskstats.h"
#include "dynworker.h"
#include "iobench.h"
#include "owner_spi.h"
#include "recorder.h"
#include "run_shared.h"

/* How often the recorder looks at the run */
#define RECORDER_TICK_MS	200

/* How often the recorder looks for the "go" before it (the first second is 1 s long) */
#define RECORDER_GO_POLL_MS	20

/* How long the launcher waits for the recorder to store the rest */
#define RECORDER_FINISH_WAIT_MS	30000

static const char *const op_names[IOB_NUM_OP_KINDS] = {"read", "write", "fsync"};

/* What the recorder knows of its run */
typedef struct Recorder
{
	IobRunShared *run;
	IobWorkerState *workers;
	IobSecondSlot *seconds;
	uint64	   *stall_tail;		/* [workers]: stalls of each worker seen */
	IobDiskSampler *disk;		/* the device under the tablespace, or NULL */
	StringInfoData rows;		/* JSON array of live_seconds rows to insert */
	StringInfoData stalls;		/* JSON array of live_stalls rows to insert */
} Recorder;

/* See recorder.h */
BackgroundWorkerHandle *
iob_recorder_launch(dsm_segment *seg)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;

	iob_dynworker_prepare(&worker, "iobench_recorder_main", "iobench recorder", seg);
	snprintf(worker.bgw_name, BGW_MAXLEN, "iobench recorder of run by PID %d", MyProcPid);
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not register the recorder of the benchmark run"),
				 errdetail("Every run has one background worker more than its workers: the recorder, which stores its seconds as it goes."),
				 errhint("Raise max_worker_processes (currently %d) or run with fewer workers.",
						 max_worker_processes)));
	return handle;
}

/* See recorder.h */
void
iob_recorder_finish(BackgroundWorkerHandle *handle, IobRunShared *run)
{
	pid_t		pid;
	int			waited_ms = 0;

	if (handle == NULL)
		return;
	pg_write_barrier();
	pg_atomic_write_u32(&run->recorder_stop, 1);
	/* bounded and without interrupts: this also runs while an error is handled */
	while (GetBackgroundWorkerPid(handle, &pid) != BGWH_STOPPED &&
		   waited_ms < RECORDER_FINISH_WAIT_MS)
	{
		pg_usleep(10 * 1000L);
		waited_ms += 10;
	}
	/* stuck: its slot is the storer's (run_limits.h), so it must go */
	if (waited_ms >= RECORDER_FINISH_WAIT_MS)
		TerminateBackgroundWorker(handle);
}

/* Run one statement as the schema owner with a jsonb array argument */
static void
exec_json(const char *sql, int64 run_id, const char *json)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];

	values[0] = Int64GetDatum(run_id);
	values[1] = CStringGetTextDatum(json);
	iob_owner_run(sql, 2, types, values, NULL, SPI_OK_INSERT);
}

/* The live_runs row: the run's settings, and who records it */
static void
insert_live_run(Recorder *r)
{
	const IobRunParams *p = &r->run->params;
	char	   *json;

	json = psprintf("{\"tablespace\": \"%s\", \"rw\": \"%s\", \"block_size\": %u, "
					"\"workers\": %d, \"iodepth\": %d, \"duration_s\": %.6f, "
					"\"launcher_pid\": %d, \"recorder_pid\": %d}",
					NameStr(p->tablespace), iob_pattern_name(p->rw), p->block_size,
					p->workers, p->iodepth, (double) p->duration_us / 1e6,
					(int) r->run->launcher_pid, MyProcPid);
	exec_json("INSERT INTO iobench.live_runs (run_id, started_at, recorder_pid, "
			  "  recorder_start, launcher_pid, tablespace, rw, block_size, workers, iodepth, duration) "
			  "SELECT $1, pg_catalog.clock_timestamp(), (j->>'recorder_pid')::integer, "
			  "  (SELECT a.backend_start FROM pg_catalog.pg_stat_activity a "
			  "    WHERE a.pid = (j->>'recorder_pid')::integer), "
			  "  (j->>'launcher_pid')::integer, j->>'tablespace', j->>'rw', "
			  "  (j->>'block_size')::integer, (j->>'workers')::integer, (j->>'iodepth')::integer, "
			  "  pg_catalog.make_interval(secs => (j->>'duration_s')::double precision) "
			  "FROM (SELECT $2::pg_catalog.jsonb AS j) AS x",
			  r->run->run_id, json);
}

/* Add the rows of second "sec" to r->rows and empty its slots for reuse */
static void
take_second(Recorder *r, int sec)
{
	int			k;

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		IobSecondSlot *slot = iob_second_slot(r->seconds, sec, (IobOpKind) k);
		uint64		ops = pg_atomic_read_u64(&slot->ops);

		if (ops > 0)
		{
			appendStringInfo(&r->rows, "%s{\"second\": %d, \"op\": \"%s\", \"ops\": " UINT64_FORMAT
							 ", \"bytes\": " UINT64_FORMAT ", \"lat_mean_us\": %.3f, \"lat_max_us\": %.3f}",
							 r->rows.len > 1 ? "," : "", sec, op_names[k], ops,
							 pg_atomic_read_u64(&slot->bytes),
							 (double) pg_atomic_read_u64(&slot->lat_sum_ns) / ops / 1000.0,
							 (double) pg_atomic_read_u64(&slot->lat_max_ns) / 1000.0);
		}
		pg_atomic_write_u64(&slot->ops, 0);
		pg_atomic_write_u64(&slot->bytes, 0);
		pg_atomic_write_u64(&slot->lat_sum_ns, 0);
		pg_atomic_write_u64(&slot->lat_max_ns, 0);
	}
}

/*
 * Drain the seconds every worker is past, or that are too old to wait
 * for; with "all" (the workers are done), every second of the run.
 */
static void
drain_seconds(Recorder *r, int64 now, bool all)
{
	IobRunShared *run = r->run;
	uint32		sec = pg_atomic_read_u32(&run->seconds_drained);

	while (sec < (uint32) run->nseconds)
	{
		bool		past = all;
		int			i;

		if (!past)
		{
			past = true;
			for (i = 0; i < run->params.workers; i++)
				if (pg_atomic_read_u32(&r->workers[i].seconds_done) <= sec)
					past = false;
			if (run->params.steady_state != IOB_STEADY_NONE &&
				pg_atomic_read_u32(&run->seconds_checked) <= sec)
				past = false;
			if (now >= run->measure_start_ns +
				(int64) (sec + 1 + IOB_SECOND_MAX_LAG) * IOB_NS_PER_SEC)
				past = true;
		}
		if (!past)
			break;
		pg_read_barrier();
		take_second(r, (int) sec);
		pg_atomic_write_u32(&run->seconds_drained, ++sec);
	}
}

/* Add the stalls the workers kept since the last tick to r->stalls */
static void
take_stalls(Recorder *r)
{
	int			i;

	for (i = 0; i < r->run->params.workers; i++)
	{
		IobWorkerState *ws = &r->workers[i];
		uint64		head = pg_atomic_read_u64(&ws->stall_head);

		pg_read_barrier();
		/* more than the ring holds since the last tick: the oldest are gone */
		if (head - r->stall_tail[i] > IOB_STALL_RING)
			r->stall_tail[i] = head - IOB_STALL_RING;
		for (; r->stall_tail[i] < head; r->stall_tail[i]++)
		{
			const IobStallEvent *ev = &ws->stall_ring[r->stall_tail[i] % IOB_STALL_RING];

			appendStringInfo(&r->stalls, "%s{\"at_s\": %.9f, \"worker\": %d, \"file\": %d, "
							 "\"file_offset\": " UINT64_FORMAT ", \"write_us\": %.3f, \"sync_us\": %.3f}",
							 r->stalls.len > 1 ? "," : "", (double) ev->at_ns / 1e9, i,
							 ev->file_index, ev->offset, (double) ev->write_ns / 1000.0,
							 (double) ev->sync_ns / 1000.0);
		}
	}
}

/* Commit what this tick found, in a transaction of its own */
static void
store_tick(Recorder *r)
{
	char	   *disk_rows = iob_disk_take_pending(r->disk);

	if (r->rows.len <= 1 && r->stalls.len <= 1 && disk_rows == NULL)
		return;
	appendStringInfoChar(&r->rows, ']');
	appendStringInfoChar(&r->stalls, ']');
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (r->rows.len > 2)
		exec_json("INSERT INTO iobench.live_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us) "
				  "SELECT $1, x.second, x.op, x.ops, x.bytes, x.lat_mean_us, x.lat_max_us "
				  "FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(second integer, "
				  "op text, ops bigint, bytes bigint, lat_mean_us double precision, "
				  "lat_max_us double precision)",
				  r->run->run_id, r->rows.data);
	if (r->stalls.len > 2)
		exec_json("INSERT INTO iobench.live_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us) "
				  "SELECT $1, x.* FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(at_s "
				  "double precision, worker integer, file integer, file_offset bigint, "
				  "write_us double precision, sync_us double precision)",
				  r->run->run_id, r->stalls.data);
	if (disk_rows)
		exec_json(psprintf("INSERT INTO iobench.live_disk_seconds (run_id, %s) "
						   "SELECT $1, %s FROM pg_catalog.jsonb_populate_recordset("
						   "NULL::iobench.live_disk_seconds, $2::pg_catalog.jsonb)",
						   iob_disk_columns(), iob_disk_columns()),
				  r->run->run_id, disk_rows);
	PopActiveSnapshot();
	CommitTransactionCommand();
	resetStringInfo(&r->rows);
	appendStringInfoChar(&r->rows, '[');
	resetStringInfo(&r->stalls);
	appendStringInfoChar(&r->stalls, '[');
}

/* Attach to the run and set up *r */
static void
attach_run(Recorder *r, Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc = iob_dynworker_attach(main_arg, IOB_SHM_MAGIC, 0, &seg);

	r->run = shm_toc_lookup(toc, IOB_KEY_RUN, false);
	r->workers = shm_toc_lookup(toc, IOB_KEY_WORKERS, false);
	r->seconds = shm_toc_lookup(toc, IOB_KEY_SECONDS, false);
	r->stall_tail = MemoryContextAllocZero(TopMemoryContext,
										   sizeof(uint64) * Max(r->run->params.workers, 1));
	/* the launcher found a block device and said so where there was none */
	if (r->run->disk_sampled)
		r->disk = iob_disk_open_run(r->run, false);
	initStringInfo(&r->rows);
	appendStringInfoChar(&r->rows, '[');
	initStringInfo(&r->stalls);
	appendStringInfoChar(&r->stalls, '[');
}

/*
 * Wait until the launcher gives the "go": the recorder is started before
 * the run's files and workers, and a run that ends before its go leaves
 * no live row behind.  Exits when the run stopped before it began.
 */
static void
wait_for_go(Recorder *r)
{
	uint32		phase;

	while ((phase = pg_atomic_read_u32(&r->run->phase)) == IOB_PHASE_PREPARE)
	{
		CHECK_FOR_INTERRUPTS();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 RECORDER_GO_POLL_MS, IOB_RUN_WAIT_EVENT);
		ResetLatch(MyLatch);
	}
	pg_read_barrier();
	if (phase == IOB_PHASE_STOP && r->run->start_ns == 0)
		proc_exit(0);
}

/* Background worker entry point; main_arg is the run's DSM handle */
void
iobench_recorder_main(Datum main_arg)
{
	Recorder	r;
	MemoryContext tickcxt;

	iob_dynworker_connect("iobench recorder");

	memset(&r, 0, sizeof(r));
	attach_run(&r, main_arg);
	wait_for_go(&r);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	insert_live_run(&r);
	PopActiveSnapshot();
	CommitTransactionCommand();

	tickcxt = AllocSetContextCreate(TopMemoryContext, "iobench recorder tick",
									ALLOCSET_DEFAULT_SIZES);
	for (;;)
	{
		uint32		phase = pg_atomic_read_u32(&r.run->phase);
		bool		done = pg_atomic_read_u32(&r.run->nfinished) >= (uint32) r.run->params.workers ||
			pg_atomic_read_u32(&r.run->recorder_stop) != 0;
		long		sleep_ms = RECORDER_TICK_MS;
		MemoryContext oldcxt;

		CHECK_FOR_INTERRUPTS();
		oldcxt = MemoryContextSwitchTo(tickcxt);
		pg_read_barrier();
		if (phase >= IOB_PHASE_RUN)
		{
			int64		now = iob_now_ns();

			drain_seconds(&r, now, done);
			take_stalls(&r);
			sleep_ms = iob_disk_poll(r.disk, now, r.run->measure_start_ns,
									 r.run->end_ns, RECORDER_TICK_MS);
			/* the end of the measured period, or the stop of the run */
			if (done)
				iob_disk_finish(r.disk, r.run->stop_ns > 0 ?
								Min(r.run->stop_ns, r.run->end_ns) : r.run->end_ns);
		}
		store_tick(&r);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(tickcxt);
		if (done)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sleep_ms, IOB_RUN_WAIT_EVENT);
		ResetLatch(MyLatch);
	}
	proc_exit(0);
}
