/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  The benchmark background worker: opens the run's files, waits for
 *	  "go", then issues I/O through its engine until the end of the run.
 *
 * One worker is one dynamic background worker.  It attaches to the run's
 * DSM segment (run_shared.h), connects to the launcher's database only so
 * that it shows in pg_stat_activity, and reports the data-file wait events
 * around its I/O like a real backend.  Everything the I/O path needs is
 * allocated before "go": the loop itself never allocates.
 *
 * However the worker ends (the run's end, a stop, an ERROR, which becomes
 * FATAL in a background worker, or a FATAL such as pg_terminate_backend),
 * it leaves through proc_exit(): an exit callback makes its figures final
 * there, and a log hook keeps the error's SQLSTATE and message for the
 * launcher, so the caller fails with the worker's real error.
 *
 * The loop and the per-I/O accounting it calls (stalls, cold reads, the
 * per-second series) are static helpers of this file, so that they inline
 * into the hot path.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/pmsignal.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "engine/engine.h"
#include "files.h"
#include "run_limits.h"
#include "run_validate.h"
#include "run_shared.h"
#include "second_ring.h"
#include "tablespace_group.h"
#include "worker.h"
#include "workload.h"

/* Alignment of the I/O buffers: a transparent huge page */
#define IOB_HUGE_ALIGN	((Size) 2 * 1024 * 1024)

/* Everything one worker uses while it runs */
typedef struct WorkerContext
{
	IobRunShared *run;
	IobWorkerState *state;
	IobSecondSlot *seconds;
	IobGroupStats *group;		/* [ngroup] this worker's, or NULL */
	IobEngine	engine;
	IobEngineWork work;			/* what the run asks of the engine */
	IobWorkload workload;
	IobIo	   *ios;			/* one request per slot of the queue */
	IobIo	  **done;			/* completions handed back by the engine */
	int		   *free_slots;		/* stack of unused slot numbers */
	int			nfree;
	int		   *fds;			/* one descriptor per file */
	uint64	   *writes_since_sync;	/* per file */
	int			sync_pending_file;	/* file whose sync comes next, or -1 */
	uint64		write_serial;	/* stamped into written blocks */

	/* current second of the time series, accumulated locally */
	int			cur_second;
	uint64		sec_ops[IOB_NUM_OP_KINDS];
	uint64		sec_bytes[IOB_NUM_OP_KINDS];
	uint64		sec_lat_sum[IOB_NUM_OP_KINDS];
	uint64		sec_lat_max[IOB_NUM_OP_KINDS];

	int64		count_until_ns; /* end of the measured period, or the stop */
	bool		measuring;		/* CPU time is being measured */
	bool		measured;		/* ... and was measured to the end */
	struct rusage ru_start;
	int64		next_alive_check_ns;	/* next postmaster-death check */

	/* the server's counts when measuring began (engine->ops->counts) */
	IobEngineCounts counts_start;

	/* stall tracking: the last write whose sync has not completed yet */
	bool		stall_write_valid;
	int			stall_write_file;
	uint64		stall_write_offset;
	int64		stall_write_ns;

	/* commits (iob_params_commits): the write waiting for its sync, or -1 */
	bool		commits;
	int64		commit_write_ns;
} WorkerContext;

/* Seconds of user and system CPU between two getrusage() readings */
static void
rusage_delta(const struct rusage *a, const struct rusage *b,
			 double *user_s, double *sys_s)
{
	*user_s = (b->ru_utime.tv_sec - a->ru_utime.tv_sec) +
		(b->ru_utime.tv_usec - a->ru_utime.tv_usec) / 1e6;
	*sys_s = (b->ru_stime.tv_sec - a->ru_stime.tv_sec) +
		(b->ru_stime.tv_usec - a->ru_stime.tv_usec) / 1e6;
}

/* Wake the launcher: it sleeps on its latch between checks */
static void
wake_launcher(IobRunShared *run)
{
	SetLatch(&GetPGProcByNumber(run->launcher_procno)->procLatch);
}

/*
 * Add the local counters of the current second to the shared time series,
 * or to the worker's late ring when the recorder closed it already
 * (second_ring.h)
 */
static void
flush_second(WorkerContext *wc)
{
	if (wc->cur_second < 0)
		return;
	iob_ring_add(wc->run, wc->seconds, wc->state, wc->cur_second, wc->sec_ops,
				 wc->sec_bytes, wc->sec_lat_sum, wc->sec_lat_max);
}

/*
 * Keep a stall event in the worker's fixed array: append while there is
 * room, else replace the shortest kept event if this one is longer.  Stalls
 * are rare by definition, so the scan costs nothing on the common path.
 */
static void
keep_stall(IobWorkerState *state, const IobStallEvent *ev)
{
	int			shortest = 0;
	int			i;

	state->nstalls++;
	if (state->nstall_events < IOB_MAX_STALL_EVENTS)
	{
		state->stall_events[state->nstall_events++] = *ev;
		return;
	}
	for (i = 1; i < IOB_MAX_STALL_EVENTS; i++)
		if (state->stall_events[i].write_ns + state->stall_events[i].sync_ns <
			state->stall_events[shortest].write_ns + state->stall_events[shortest].sync_ns)
			shortest = i;
	if (ev->write_ns + ev->sync_ns >
		state->stall_events[shortest].write_ns + state->stall_events[shortest].sync_ns)
		state->stall_events[shortest] = *ev;
}

/*
 * Stall detection, as pgiosim's "WRITE STALL": a write plus the sync it
 * triggered (fsync_every > 0), or a write alone (no syncs), that took longer
 * than the threshold.  The write is remembered until its sync completes;
 * only pairs whose sync completes in the measured period count.
 */
static void
check_stall(WorkerContext *wc, const IobIo *io)
{
	IobRunShared *run = wc->run;
	int64		lat = io->end_ns - io->start_ns;
	IobStallEvent ev;

	if (io->kind == IOB_OP_READ)
		return;
	if (io->kind == IOB_OP_WRITE)
	{
		if (run->params.fsync_every > 0)
		{
			wc->stall_write_valid = true;
			wc->stall_write_file = io->file_index;
			wc->stall_write_offset = io->offset;
			wc->stall_write_ns = lat;
			return;
		}
		ev.write_ns = lat;
		ev.sync_ns = 0;
		ev.offset = io->offset;
	}
	else
	{
		bool		paired = wc->stall_write_valid &&
			wc->stall_write_file == io->file_index;

		ev.write_ns = paired ? wc->stall_write_ns : 0;
		ev.sync_ns = lat;
		ev.offset = paired ? wc->stall_write_offset : 0;
		wc->stall_write_valid = false;
	}
	if (io->end_ns < run->measure_start_ns || io->end_ns >= run->end_ns)
		return;
	if (ev.write_ns + ev.sync_ns <= run->params.stall_threshold_us * 1000)
		return;
	ev.at_ns = io->end_ns - run->measure_start_ns;
	ev.file_index = io->file_index;
	keep_stall(wc->state, &ev);
	/* and for the recorder, which stores it as it happens */
	wc->state->stall_ring[pg_atomic_read_u64(&wc->state->stall_head) % IOB_STALL_RING] = ev;
	pg_write_barrier();
	pg_atomic_fetch_add_u64(&wc->state->stall_head, 1);
}

/*
 * The latency of the commit io completes (iob_params_commits): a write
 * alone when each write is synchronous, else the write before the sync
 * plus the sync; -1 when io completes none.
 */
static int64
commit_latency(WorkerContext *wc, const IobIo *io)
{
	int64		lat = io->end_ns - io->start_ns;

	if (!wc->commits || io->kind == IOB_OP_READ)
		return -1;
	if (wc->run->params.fsync_every == 0)
		return io->kind == IOB_OP_WRITE ? lat : -1;
	if (io->kind == IOB_OP_WRITE)
	{
		wc->commit_write_ns = lat;
		return -1;
	}
	if (wc->commit_write_ns < 0)
		return -1;
	lat += wc->commit_write_ns;
	wc->commit_write_ns = -1;
	return lat;
}

/*
 * Keep buffered reads cold (params.cold_reads): drop the block just
 * read from the page cache, and a file's clean pages once it is synced, so
 * the next read of any block goes to the device however long the run and
 * however small the files.  Called after the I/O was timed: the advice costs
 * a system call but is not part of any latency.
 */
static void
keep_cold(WorkerContext *wc, const IobIo *io)
{
	if (io->kind == IOB_OP_READ)
		(void) posix_fadvise(io->fd, (off_t) io->offset, (off_t) io->len,
							 POSIX_FADV_DONTNEED);
	else if (io->kind == IOB_OP_FSYNC)
		(void) posix_fadvise(io->fd, 0, 0, POSIX_FADV_DONTNEED);
}

/*
 * Account one completed I/O.  Only I/O completed inside the measured period
 * counts; a failed or short transfer stops the worker with an error.
 */
static void
account_io(WorkerContext *wc, IobIo *io)
{
	IobRunShared *run = wc->run;
	uint64		lat;
	int64		commit_ns;
	int			sec;
	int64		expected = (io->kind == IOB_OP_FSYNC) ? 0 : (int64) io->len;

	if (io->result != expected)
	{
		char		path[MAXPGPATH];

		iob_file_path(run, io->file_index, path);
		if (io->result < 0)
		{
			errno = (int) -io->result;
			if (io->kind == IOB_OP_READ)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read file \"%s\" at offset " UINT64_FORMAT ": %m",
								path, io->offset)));
			else if (io->kind == IOB_OP_WRITE)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not write file \"%s\" at offset " UINT64_FORMAT ": %m",
								path, io->offset)));
			else
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not fsync file \"%s\": %m", path)));
		}
		if (io->kind == IOB_OP_READ)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("could not read file \"%s\" at offset " UINT64_FORMAT ": read " INT64_FORMAT " of %u bytes",
							path, io->offset, io->result, io->len)));
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not write file \"%s\" at offset " UINT64_FORMAT ": wrote " INT64_FORMAT " of %u bytes",
						path, io->offset, io->result, io->len)));
	}

	if (run->params.stall_threshold_us > 0)
		check_stall(wc, io);
	commit_ns = commit_latency(wc, io);

	if (io->end_ns < run->measure_start_ns || io->end_ns >= wc->count_until_ns)
		return;

	lat = (uint64) (io->end_ns - io->start_ns);
	iob_hist_record(&wc->state->hist[io->kind], lat);
	if (commit_ns >= 0)
		iob_hist_record(&wc->state->commit_hist, (uint64) commit_ns);
	wc->state->bytes[io->kind] += io->len;
	if (wc->group)
	{
		IobGroupStats *g = &wc->group[io->file_index % run->params.ngroup];

		iob_hist_record(&g->hist[io->kind], lat);
		g->bytes[io->kind] += io->len;
	}

	sec = (int) ((io->end_ns - run->measure_start_ns) / IOB_NS_PER_SEC);
	if (sec >= run->nseconds)
		sec = run->nseconds - 1;
	if (sec != wc->cur_second)
	{
		flush_second(wc);
		wc->cur_second = sec;
	}
	wc->sec_ops[io->kind]++;
	wc->sec_bytes[io->kind] += io->len;
	wc->sec_lat_sum[io->kind] += lat;
	if (lat > wc->sec_lat_max[io->kind])
		wc->sec_lat_max[io->kind] = lat;
}

/*
 * Stamp a block before writing it, so no two written blocks are alike and
 * deduplicating or compressing storage cannot shortcut the write: the first
 * 8 bytes of each 512-byte sector get a fresh serial number.
 */
static inline void
scramble_block(WorkerContext *wc, char *buf, uint32 len)
{
	uint32		off;

	for (off = 0; off < len; off += 512)
	{
		uint64		v = ++wc->write_serial ^ ((uint64) wc->state->worker_index << 48);

		memcpy(buf + off, &v, sizeof(v));
	}
}

/*
 * Fill request "io" with the next op of the workload (or a due sync); also
 * the engine's redraw (engine.h), for a request it takes again
 */
static void
prepare_next_io(WorkerContext *wc, IobIo *io)
{
	const IobRunParams *p = &wc->run->params;
	IobOpKind	kind;
	int			file;
	uint64		offset;

	if (wc->sync_pending_file >= 0)
	{
		io->kind = IOB_OP_FSYNC;
		io->file_index = wc->sync_pending_file;
		io->fd = wc->fds[io->file_index];
		io->len = 0;
		io->offset = 0;
		io->datasync = p->sync_method == IOB_SYNC_FDATASYNC;
		wc->sync_pending_file = -1;
		return;
	}

	iob_workload_next(&wc->workload, &kind, &file, &offset);
	io->kind = kind;
	io->file_index = file;
	io->fd = wc->fds ? wc->fds[file] : -1;
	io->len = p->block_size;
	io->offset = offset;
	io->datasync = false;
	if (kind == IOB_OP_WRITE)
	{
		scramble_block(wc, io->buf, io->len);
		/* fsync_every counts writes only: reads never trigger a sync */
		if (p->fsync_every > 0 &&
			++wc->writes_since_sync[file] >= (uint64) p->fsync_every)
		{
			wc->writes_since_sync[file] = 0;
			wc->sync_pending_file = file;
		}
	}
}

/* Sleep until the given clock time, waking for interrupts */
static void
sleep_until(int64 when_ns)
{
	int64		wait_ns = when_ns - iob_now_ns();

	if (wait_ns <= 0)
		return;
	if (wait_ns >= 2 * INT64CONST(1000000))
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 (long) (wait_ns / INT64CONST(1000000)), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	else
		pg_usleep((long) (wait_ns / 1000));
}

/*
 * Follow the clock: start the CPU measurement (and the server's counts of
 * an engine that has them) when the measured period begins, end it when
 * the period ends (before the drain), and once a second
 * make sure the postmaster is alive (an I/O loop never waits on a latch, so
 * nothing else would notice that it died).
 */
static void
track_period(WorkerContext *wc, int64 now)
{
	if (!wc->measuring && !wc->measured && now >= wc->run->measure_start_ns)
	{
		wc->measuring = true;
		getrusage(RUSAGE_SELF, &wc->ru_start);
		if (wc->engine.ops->counts)
			wc->engine.ops->counts(&wc->engine, &wc->counts_start);
	}
	/*
	 * Past a second boundary: add the second just ended (completions reaped
	 * from now on end later) and tell the recorder
	 */
	if (wc->measuring)
	{
		uint32		sec = (uint32) ((now - wc->run->measure_start_ns) / IOB_NS_PER_SEC);

		if (sec > pg_atomic_read_u32(&wc->state->seconds_done))
		{
			if (wc->cur_second >= 0 && (uint32) wc->cur_second < sec)
			{
				flush_second(wc);
				wc->cur_second = -1;
			}
			pg_atomic_write_u32(&wc->state->seconds_done, sec);
		}
	}
	if (wc->measuring && now >= wc->count_until_ns)
	{
		struct rusage ru_end;

		getrusage(RUSAGE_SELF, &ru_end);
		rusage_delta(&wc->ru_start, &ru_end,
					 &wc->state->cpu_user_s, &wc->state->cpu_sys_s);
		if (wc->engine.ops->counts)
		{
			IobEngineCounts end;

			wc->engine.ops->counts(&wc->engine, &end);
			wc->state->engine_counts.buffer_hits = end.buffer_hits - wc->counts_start.buffer_hits;
			wc->state->engine_counts.buffer_reads = end.buffer_reads - wc->counts_start.buffer_reads;
		}
		wc->measuring = false;
		wc->measured = true;
	}
	if (now >= wc->next_alive_check_ns)
	{
		if (!PostmasterIsAlive())
			proc_exit(1);
		wc->next_alive_check_ns = now + IOB_NS_PER_SEC;
	}
}

/*
 * The I/O loop, the one of every engine: keep the engine's queue full (or
 * on schedule, when rate limited), account completions, stop at the end of
 * the measured period or when the launcher says stop, then drain what is in
 * flight.  An engine that takes its ops as the server asks for blocks
 * (postgres) holds the queue's requests until then (engine_postgres.h).
 *
 * Rate limiting: I/O number n of this worker is due at base + n * interval,
 * computed in floating point so no rounding accumulates; workers are offset
 * by a fraction of the interval so they do not fire together; a worker more
 * than a second behind its schedule (a stall) starts afresh rather than
 * catching up in a burst.
 *
 * One iteration (stop checks, refill with the rate schedule, wait,
 * accounting) reads top to bottom here, and the schedule's state stays in
 * locals of the hot loop.
 */
static void
io_loop(WorkerContext *wc)
{
	IobRunShared *run = wc->run;
	const IobEngineOps *ops = wc->engine.ops;
	double		interval_ns = 0;
	int64		base_ns = run->start_ns;
	uint64		nissued = 0;
	int64		next_due_ns = run->start_ns;
	int64		now = iob_now_ns();
	bool		stopping = false;

	wc->count_until_ns = run->end_ns;
	if (run->params.rate_iops > 0)
	{
		interval_ns = (double) IOB_NS_PER_SEC * run->params.workers / run->params.rate_iops;
		base_ns += (int64) (interval_ns * wc->state->worker_index / run->params.workers);
		next_due_ns = base_ns;
	}

	for (;;)
	{
		int64		timeout_ns = -1;
		int			n;
		int			i;

		CHECK_FOR_INTERRUPTS();
		track_period(wc, now);
		if (!stopping && pg_atomic_read_u32(&run->phase) == IOB_PHASE_STOP)
		{
			/* told to stop (cancel): count nothing completed after that */
			pg_read_barrier();
			if (run->stop_ns > 0 && run->stop_ns < wc->count_until_ns)
				wc->count_until_ns = run->stop_ns;
			stopping = true;
		}
		if (now >= run->end_ns)
			stopping = true;

		/* refill the queue */
		while (!stopping && wc->nfree > 0)
		{
			IobIo	   *io;

			if (interval_ns > 0)
			{
				if (now < next_due_ns)
					break;
				if (now - next_due_ns > IOB_NS_PER_SEC)
				{
					base_ns = now;
					nissued = 0;
				}
				nissued++;
				next_due_ns = base_ns + (int64) (interval_ns * nissued);
			}
			io = &wc->ios[wc->free_slots[--wc->nfree]];
			prepare_next_io(wc, io);
			ops->queue(&wc->engine, io);
		}

		if (wc->engine.inflight == 0)
		{
			if (stopping)
				break;
			/* rate limited and nothing in flight: wait for the next slot */
			sleep_until(next_due_ns);
			now = iob_now_ns();
			continue;
		}

		if (interval_ns > 0 && !stopping && wc->nfree > 0)
			timeout_ns = Max(next_due_ns - now, 0);

		n = ops->complete(&wc->engine, 1, timeout_ns, wc->done, wc->engine.depth);
		for (i = 0; i < n; i++)
		{
			account_io(wc, wc->done[i]);
			if (run->params.cold_reads)
				keep_cold(wc, wc->done[i]);
			wc->free_slots[wc->nfree++] = wc->done[i]->slot;
		}
		now = iob_now_ns();
	}
	/* stopped early (cancel): the CPU measurement ends here */
	if (wc->measuring)
	{
		wc->count_until_ns = Min(wc->count_until_ns, now);
		track_period(wc, now);
	}
	flush_second(wc);
}

/*
 * The I/O buffers of a worker: one aligned buffer per queue slot (O_DIRECT
 * needs the alignment), filled with random data so that every block written
 * is incompressible.  The area is whole 2 MB pages, aligned, and offered to
 * transparent huge pages whatever its size: each transfer is then one
 * physically contiguous segment.  On 4 kB pages a 64 kB transfer is 16
 * segments that the device (or a virtual disk's host) handles one by one,
 * which measured a quarter fewer IOPS on a virtio disk, and a 1 MB one more
 * than a device queue takes at once (virtio-blk: 254), so it is split.
 */
static char *
alloc_buffers(const IobRunParams *p, int depth, int worker_index)
{
	Size		len = (Size) depth * p->block_size;
	Size		area = TYPEALIGN(IOB_HUGE_ALIGN, len);
	char	   *buffers;
	pg_prng_state prng;
	uint64	   *words;
	Size		w;

	buffers = MemoryContextAllocExtended(TopMemoryContext,
										 area + IOB_HUGE_ALIGN, MCXT_ALLOC_HUGE);
	buffers = (char *) TYPEALIGN(IOB_HUGE_ALIGN, buffers);
#ifdef MADV_HUGEPAGE
	(void) madvise(buffers, area, MADV_HUGEPAGE);
#endif

	words = (uint64 *) buffers;
	pg_prng_seed(&prng, p->seed ^ (uint64) worker_index);
	for (w = 0; w < len / sizeof(uint64); w++)
		words[w] = pg_prng_uint64(&prng);
	return buffers;
}

/* The engine's redraw: the next op of the workload into "io" (engine.h) */
static void
redraw_op(void *arg, IobIo *io)
{
	prepare_next_io((WorkerContext *) arg, io);
}

/*
 * Open the run's files (an engine that reads them), allocate the queue and
 * its buffers, start the engine
 */
static void
prepare_worker(WorkerContext *wc)
{
	IobRunShared *run = wc->run;
	const IobRunParams *p = &run->params;
	const IobEngineOps *ops = iob_engine_ops(run->engine);
	int			depth;
	char	   *buffers = NULL;
	int			i;
	int			rc;

	iob_engine_work(p, &wc->work);
	wc->engine.ops = ops;
	wc->engine.work = &wc->work;
	wc->engine.shared = &run->engine_shared;
	wc->engine.worker_index = wc->state->worker_index;
	wc->engine.redraw = redraw_op;
	wc->engine.redraw_arg = wc;
	depth = ops->queue_depth ? ops->queue_depth(&wc->work, &run->engine_shared) : p->iodepth;

	if (ops->flags & IOB_ENGINE_RUN_FILES)
	{
		/* room for every file, as the launcher checked (iob_check_fd_limit) */
		iob_raise_fd_limit(p->files);
		wc->fds = palloc(sizeof(int) * p->files);
		for (i = 0; i < p->files; i++)
		{
			/* rewrites (rewrite_pct) write to files of a reading pattern */
			wc->fds[i] = iob_open_file(run, i,
									   iob_pattern_writes(p->rw) || p->rewrite_pct > 0);
			if (wc->fds[i] < 0)
			{
				char		path[MAXPGPATH];

				iob_file_path(run, i, path);
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not open file \"%s\": %m", path)));
			}
		}

		/*
		 * Buffered I/O: tell the kernel the access pattern, as fio does by
		 * default (fadvise_hint), so random reads are not turned into cached
		 * hits by read-ahead of the neighbouring blocks.
		 */
		if (!p->direct)
			for (i = 0; i < p->files; i++)
				(void) posix_fadvise(wc->fds[i], 0, 0,
									 iob_pattern_is_random(p->rw) ?
									 POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
		buffers = alloc_buffers(p, depth, wc->state->worker_index);
		wc->engine.buffers = buffers;
		wc->engine.buffers_len = (Size) depth * p->block_size;
		wc->engine.fds = wc->fds;
		wc->engine.nfiles = p->files;
	}
	wc->writes_since_sync = palloc0(sizeof(uint64) * p->files);
	wc->sync_pending_file = -1;

	wc->ios = palloc0(sizeof(IobIo) * depth);
	wc->done = palloc0(sizeof(IobIo *) * depth);
	wc->free_slots = palloc(sizeof(int) * depth);
	for (i = 0; i < depth; i++)
	{
		wc->ios[i].slot = i;
		wc->ios[i].fd = -1;
		wc->ios[i].buf = buffers ? buffers + (Size) i * p->block_size : NULL;
		wc->free_slots[i] = depth - 1 - i;
	}
	wc->nfree = depth;

	/* the workload first: an engine may draw ops as it starts (redraw) */
	iob_workload_init(&wc->workload, p, wc->state->worker_index);
	wc->cur_second = -1;

	wc->engine.depth = depth;
	rc = ops->init(&wc->engine, depth);
	if (rc != 0)
	{
		errno = rc;
		ereport(ERROR,
				(errcode(rc == ENOMEM ? ERRCODE_INSUFFICIENT_RESOURCES : ERRCODE_SYSTEM_ERROR),
				 errmsg("could not start I/O engine \"%s\" with iodepth %d: %m",
						ops->name, depth),
				 errhint("Use a smaller iodepth, or engine => 'psync' with more workers.")));
	}
}

/* Wait for the launcher's "go"; returns false if told to stop instead */
static bool
wait_for_go(IobRunShared *run)
{
	for (;;)
	{
		uint32		phase = pg_atomic_read_u32(&run->phase);

		if (phase == IOB_PHASE_RUN)
		{
			pg_read_barrier();
			return true;
		}
		if (phase == IOB_PHASE_STOP)
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * The worker of this process, for the exit callback and the log hook: a
 * worker ends through proc_exit() however it ends (an ERROR becomes FATAL
 * in a background worker, which has no outer handler), so its figures are
 * made final there, once, for every ending.
 */
static WorkerContext *my_worker = NULL;
static emit_log_hook_type prev_emit_log_hook = NULL;

/*
 * emit_log_hook: keep the first ERROR or FATAL of this worker, with its
 * real SQLSTATE (57014 after pg_cancel_backend, 57P01 after
 * pg_terminate_backend), for the launcher to raise.  The hook is the one
 * place a FATAL can be seen: errfinish() exits right after emitting it.
 */
static void
record_error_hook(ErrorData *edata)
{
	IobWorkerState *state = my_worker ? my_worker->state : NULL;

	if (state != NULL && edata->elevel >= ERROR && state->error_code == 0)
	{
		strlcpy(state->error_message, edata->message ? edata->message : "unknown error",
				sizeof(state->error_message));
		strlcpy(state->error_detail, edata->detail ? edata->detail : "",
				sizeof(state->error_detail));
		/* the launcher reads the message once it sees the code */
		pg_write_barrier();
		state->error_code = edata->sqlerrcode ? edata->sqlerrcode : ERRCODE_INTERNAL_ERROR;
	}
	if (prev_emit_log_hook)
		prev_emit_log_hook(edata);
}

/*
 * Make the worker's figures final and count it finished: the CPU reading
 * up to now if the measured period was still open, the last second of the
 * time series, the offset digest.  Runs once, on every exit (normal,
 * ERROR, FATAL): the stored totals then always equal the sums of the
 * per-second rows and of the histogram buckets.
 */
static void
finish_worker(WorkerContext *wc)
{
	if (wc->state->finished)
		return;
	if (wc->measuring)
	{
		struct rusage ru_end;

		getrusage(RUSAGE_SELF, &ru_end);
		rusage_delta(&wc->ru_start, &ru_end,
					 &wc->state->cpu_user_s, &wc->state->cpu_sys_s);
		wc->measuring = false;
	}
	flush_second(wc);
	wc->state->offset_digest = wc->workload.digest;
	wc->state->finished = true;
	pg_write_barrier();
	pg_atomic_write_u32(&wc->state->seconds_done, PG_UINT32_MAX);
	pg_atomic_fetch_add_u32(&wc->run->nfinished, 1);
	wake_launcher(wc->run);
}

/* before_shmem_exit callback: finish the worker while the segment is mapped */
static void
worker_exit_callback(int code, Datum arg)
{
	if (my_worker != NULL)
		finish_worker(my_worker);
}

/* Background worker entry point; main_arg is the run's DSM handle */
void
iobench_worker_main(Datum main_arg)
{
	static WorkerContext wc;
	dsm_segment *seg;
	shm_toc    *toc;
	int			worker_index;

	memcpy(&worker_index, MyBgworkerEntry->bgw_extra + IOB_DYNWORKER_EXTRA, sizeof(int));
	iob_dynworker_connect("iobench");
	CurrentResourceOwner = ResourceOwnerCreate(NULL, "iobench worker");
	toc = iob_dynworker_attach(main_arg, IOB_SHM_MAGIC, 0, &seg);

	memset(&wc, 0, sizeof(wc));
	wc.run = shm_toc_lookup(toc, IOB_KEY_RUN, false);
	wc.state = &((IobWorkerState *) shm_toc_lookup(toc, IOB_KEY_WORKERS, false))[worker_index];
	wc.seconds = shm_toc_lookup(toc, IOB_KEY_SECONDS, false);
	if (wc.run->params.ngroup > 0)
		wc.group = (IobGroupStats *) shm_toc_lookup(toc, IOB_KEY_GROUP, false) +
			worker_index * wc.run->params.ngroup;
	wc.state->pid = MyProcPid;
	wc.state->procno = GetNumberFromPGProc(MyProc);
	wc.cur_second = -1;
	wc.commits = iob_params_commits(&wc.run->params);
	wc.commit_write_ns = -1;

	/* from here on, every ending is recorded and leaves final figures */
	my_worker = &wc;
	prev_emit_log_hook = emit_log_hook;
	emit_log_hook = record_error_hook;
	before_shmem_exit(worker_exit_callback, (Datum) 0);

	prepare_worker(&wc);
	pg_atomic_fetch_add_u32(&wc.run->nready, 1);
	wake_launcher(wc.run);

	if (wait_for_go(wc.run))
		io_loop(&wc);
	if (wc.engine.ops && wc.engine.private_data)
		wc.engine.ops->shutdown(&wc.engine);

	finish_worker(&wc);
	my_worker = NULL;			/* the segment goes: the exit has nothing to do */
	dsm_detach(seg);
	proc_exit(0);
}
