/*-------------------------------------------------------------------------
 *
 * recorder.c
 *	  The recorder of a run: live_runs, live_seconds and live_stalls
 *	  committed as the run goes (recorder.h).
 *
 * The recorder attaches to the run's DSM segment and ticks every
 * RECORDER_TICK_MS: it takes the seconds it may close and the workers'
 * late entries (second_ring.h), reads the stalls the workers put in their
 * rings since the last tick, and commits what it found in one transaction,
 * with what that stores of the rings in its live_runs row; only then are
 * the seconds freed.  A commit that fails (a lock wait longer than
 * RECORDER_LOCK_TIMEOUT) is tried again at the next tick, nothing lost.
 * Once every worker has finished and the last second is stored, it hands
 * over to the launcher (recorder.h); a recorder stuck for longer than the
 * launcher waits is terminated, and the launcher stores the rest.  Its rows are written as
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
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "device/device.h"
#include "recorder.h"
#include "run_shared.h"
#include "second_ring.h"

/* How often the recorder looks at the run */
#define RECORDER_TICK_MS	200

/* How often the recorder looks for the "go" before it (the first second is 1 s long) */
#define RECORDER_GO_POLL_MS	20

/*
 * How long the launcher waits for the recorder to store the rest before it
 * terminates it and stores the rest itself (second_ring.h), and then for
 * it to exit
 */
#define RECORDER_FINISH_WAIT_MS	10000
#define RECORDER_TERMINATE_WAIT_MS	5000

/*
 * How long the recorder waits for a lock (another session's lock on a
 * live table): it gives up the transaction and tries again at the next
 * tick, its figures still in shared memory
 */
#define RECORDER_LOCK_TIMEOUT	"5s"

/* What the recorder knows of its run */
typedef struct Recorder
{
	IobRunShared *run;
	IobWorkerState *workers;
	IobSecondSlot *seconds;
	uint64	   *stall_tail;		/* [workers]: stalls of each worker seen */
	IobDiskSampler *disk;		/* the device under the tablespace, or NULL */
	IobRingReader ring;			/* seconds taken, not committed yet */
	StringInfoData rows;		/* JSON array of live_seconds rows to insert */
	char	   *disk_rows;		/* device seconds not committed yet, or NULL */
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

/* Wait (bounded, without interrupts) until the recorder exited or "until" holds */
static bool
wait_recorder(BackgroundWorkerHandle *handle, pg_atomic_uint32 *until, int max_ms)
{
	pid_t		pid;
	int			waited_ms = 0;

	while (GetBackgroundWorkerPid(handle, &pid) != BGWH_STOPPED &&
		   (until == NULL || pg_atomic_read_u32(until) == 0))
	{
		if (waited_ms >= max_ms)
			return false;
		pg_usleep(10 * 1000L);
		waited_ms += 10;
	}
	return true;
}

/* See recorder.h */
bool
iob_recorder_finish(BackgroundWorkerHandle *handle, IobRunShared *run, bool hand_over)
{
	if (handle == NULL)
		return false;
	pg_write_barrier();
	pg_atomic_write_u32(&run->recorder_stop,
						hand_over ? IOB_RECORDER_HAND_OVER : IOB_RECORDER_EXIT);
	/* bounded and without interrupts: this also runs while an error is handled */
	if (wait_recorder(handle, hand_over ? &run->recorder_final : NULL,
					  RECORDER_FINISH_WAIT_MS))
	{
		pg_read_barrier();
		return pg_atomic_read_u32(&run->recorder_final) != 0;
	}

	/*
	 * Stuck (a lock, a stop): its slot is the storer's (run_limits.h), so
	 * it must go; whoever stores the run takes the seconds it did not
	 * commit from shared memory (second_ring.h)
	 */
	ereport(LOG,
			(errmsg("iobench recorder of run " INT64_FORMAT " did not finish within %d ms: terminating it; the run's storer stores the seconds it did not",
					run->run_id, RECORDER_FINISH_WAIT_MS)));
	TerminateBackgroundWorker(handle);
	(void) wait_recorder(handle, NULL, RECORDER_TERMINATE_WAIT_MS);
	return false;
}

/* See recorder.h */
void
iob_recorder_release(BackgroundWorkerHandle *handle, IobRunShared *run)
{
	pg_write_barrier();
	pg_atomic_write_u32(&run->live_taken, 1);
	if (!wait_recorder(handle, NULL, RECORDER_TERMINATE_WAIT_MS))
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

/*
 * Record in live_runs what this transaction stores of the rings
 * (second_ring.h).  Returns false when the row is gone: the run was
 * stored by its launcher, which took over, and nothing may be added.
 */
static bool
update_live_run(Recorder *r)
{
	IobOwnerScope scope;
	Oid			types[3] = {INT8OID, INT4OID, TEXTOID};
	Datum		values[3];
	bool		found;

	values[0] = Int64GetDatum(r->run->run_id);
	values[1] = Int32GetDatum((int32) r->ring.taken);
	values[2] = CStringGetTextDatum(iob_ring_late_text(&r->ring, r->run->params.workers));
	iob_owner_begin(&scope);
	iob_owner_exec("UPDATE iobench.live_runs SET ring_stored = $2, late_stored = $3::bigint[] "
				   "WHERE run_id = $1",
				   3, types, values, NULL, SPI_OK_UPDATE);
	found = (SPI_processed == 1);
	iob_owner_end(&scope);
	return found;
}

/*
 * The statements of one tick's transaction.  The seconds of the ring and
 * the late entries go in together, added to a second already stored (a
 * late entry of a worker that was stuck).
 */
static bool
store_tick_rows(Recorder *r)
{
	if (!update_live_run(r))
		return false;
	if (r->rows.len > 2)
		exec_json("INSERT INTO iobench.live_seconds AS l (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us) "
				  "SELECT $1, x.second, x.op, sum(x.ops), sum(x.bytes), "
				  "  sum(x.lat_sum_us) / sum(x.ops), max(x.lat_max_us) "
				  "FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(second integer, "
				  "op text, ops bigint, bytes bigint, lat_sum_us double precision, "
				  "lat_max_us double precision) "
				  "GROUP BY x.second, x.op "
				  "ON CONFLICT (run_id, second, op) DO UPDATE SET "
				  "  ops = l.ops + excluded.ops, bytes = l.bytes + excluded.bytes, "
				  "  lat_mean_us = (l.lat_mean_us * l.ops + excluded.lat_mean_us * excluded.ops) "
				  "    / (l.ops + excluded.ops), "
				  "  lat_max_us = GREATEST(l.lat_max_us, excluded.lat_max_us)",
				  r->run->run_id, r->rows.data);
	if (r->stalls.len > 2)
		exec_json("INSERT INTO iobench.live_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us) "
				  "SELECT $1, x.* FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(at_s "
				  "double precision, worker integer, file integer, file_offset bigint, "
				  "write_us double precision, sync_us double precision)",
				  r->run->run_id, r->stalls.data);
	if (r->disk_rows)
		exec_json(psprintf("INSERT INTO iobench.live_disk_seconds (run_id, %s) "
						   "SELECT $1, %s FROM pg_catalog.jsonb_populate_recordset("
						   "NULL::iobench.live_disk_seconds, $2::pg_catalog.jsonb)",
						   iob_disk_columns(), iob_disk_columns()),
				  r->run->run_id, r->disk_rows);
	return true;
}

/* Empty a JSON array under construction */
static void
reset_rows(StringInfo buf)
{
	resetStringInfo(buf);
	appendStringInfoChar(buf, '[');
}

/*
 * Commit what this tick found, in a transaction of its own.  Returns
 * false when it could not (a lock wait too long, another error): the
 * seconds stay in shared memory and the next tick tries again.  Exits
 * when the launcher stored the run already.
 */
static bool
store_tick(Recorder *r)
{
	char	   *disk_rows = iob_disk_take_pending(r->disk);
	MemoryContext cxt = CurrentMemoryContext;
	bool		stored = true;
	bool		gone = false;

	/* device seconds wait with the rest when a commit fails */
	if (disk_rows)
	{
		char	   *prev = r->disk_rows;

		r->disk_rows = MemoryContextStrdup(TopMemoryContext,
										   prev ? psprintf("%.*s,%s", (int) strlen(prev) - 1,
														   prev, disk_rows + 1) : disk_rows);
		if (prev)
			pfree(prev);
	}
	if (r->rows.len <= 1 && r->stalls.len <= 1 && r->disk_rows == NULL)
		return true;
	appendStringInfoChar(&r->rows, ']');
	appendStringInfoChar(&r->stalls, ']');
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PG_TRY();
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		gone = !store_tick_rows(r);
		PopActiveSnapshot();
		if (gone)
			AbortCurrentTransaction();
		else
			CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		ereport(LOG,
				(errmsg("iobench recorder could not store the seconds of run " INT64_FORMAT ", will try again: %s",
						r->run->run_id, edata->message)));
		FreeErrorData(edata);
		stored = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	if (gone)
		proc_exit(0);
	reset_rows(&r->rows);
	if (!stored)
	{
		/* stalls and device seconds: the same again; the seconds: reread */
		r->stalls.data[--r->stalls.len] = '\0';
		iob_ring_uncommitted(&r->ring, r->run, r->workers);
		return false;
	}
	iob_ring_committed(&r->ring, r->run, r->workers, r->seconds);
	reset_rows(&r->stalls);
	if (r->disk_rows)
		pfree(r->disk_rows);
	r->disk_rows = NULL;
	return true;
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
	/* the devices the launcher found (it said so where there was none) */
	r->disk = iob_disk_attach(&r->run->disk);
	iob_ring_reader_init(&r->ring, r->run->params.workers);
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

/* Poll until "flag" is set; the launcher terminates a recorder it gave up on */
static void
wait_for_flag(pg_atomic_uint32 *flag)
{
	while (pg_atomic_read_u32(flag) == 0)
	{
		CHECK_FOR_INTERRUPTS();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 RECORDER_GO_POLL_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * Every second is committed.  When the launcher stores the run itself
 * (IOB_RECORDER_HAND_OVER), say so and, once it has read the live rows,
 * delete them in a transaction of the recorder's own: whether the caller's
 * transaction then commits or rolls back, no live row of a run that ended
 * stays behind.  A failed run's storer deletes them (IOB_RECORDER_EXIT).
 */
static void
hand_over(Recorder *r)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	wait_for_flag(&r->run->recorder_stop);
	if (pg_atomic_read_u32(&r->run->recorder_stop) != IOB_RECORDER_HAND_OVER)
		return;
	pg_write_barrier();
	pg_atomic_write_u32(&r->run->recorder_final, 1);
	wait_for_flag(&r->run->live_taken);
	values[0] = Int64GetDatum(r->run->run_id);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	iob_owner_run("DELETE FROM iobench.live_runs WHERE run_id = $1",
				  1, types, values, NULL, SPI_OK_DELETE);
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/* Background worker entry point; main_arg is the run's DSM handle */
void
iobench_recorder_main(Datum main_arg)
{
	Recorder	r;
	MemoryContext tickcxt;
	bool		disk_finished = false;

	iob_dynworker_connect("iobench recorder");
	SetConfigOption("lock_timeout", RECORDER_LOCK_TIMEOUT, PGC_SUSET, PGC_S_OVERRIDE);

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
		bool		stored;
		MemoryContext oldcxt;

		CHECK_FOR_INTERRUPTS();
		oldcxt = MemoryContextSwitchTo(tickcxt);
		pg_read_barrier();
		if (phase >= IOB_PHASE_RUN)
		{
			int64		now = iob_now_ns();

			iob_ring_take(&r.ring, r.run, r.workers, r.seconds, now, done, &r.rows);
			take_stalls(&r);
			sleep_ms = iob_disk_poll(r.disk, now, r.run->measure_start_ns,
									 r.run->end_ns, RECORDER_TICK_MS);
			/* the end of the measured period, or the stop of the run */
			if (done && !disk_finished)
			{
				disk_finished = true;
				iob_disk_finish(r.disk, r.run->stop_ns > 0 ?
								Min(r.run->stop_ns, r.run->end_ns) : r.run->end_ns);
			}
		}
		stored = store_tick(&r);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(tickcxt);
		/* done once the last commit went through; the launcher waits */
		if (done && stored)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sleep_ms, IOB_RUN_WAIT_EVENT);
		ResetLatch(MyLatch);
	}
	hand_over(&r);
	proc_exit(0);
}
