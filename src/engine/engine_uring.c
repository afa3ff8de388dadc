/*-------------------------------------------------------------------------
 *
 * engine_uring.c
 *	  The io_uring engine: up to "iodepth" I/Os in flight per worker.
 *
 * Each worker owns one ring sized for its queue depth.  queue() turns an
 * IobIo into a submission queue entry (SQE); complete() waits for
 * completions in one io_uring_enter() call and reaps the completion queue
 * entries (CQEs) without further system calls.  A refill of k I/Os reaches
 * the kernel one by one — queueing an I/O submits the one queued before it,
 * and the last goes with complete()'s wait — because a single batch of k is
 * plugged by the block layer until the whole batch is set up, which cost
 * 10-15 % of IOPS at depth 32 (doc/iobench.md, "I/O engines").  That is also fio's default
 * (iodepth_batch_submit=1), and at depth 1 it is one system call per I/O.
 *
 * Timestamps: start_ns is taken just before the system call in which the
 * kernel takes the I/O's SQE, end_ns once per batch of reaped CQEs.  An SQE
 * the kernel refuses (-EAGAIN/-EBUSY) stays in the ring and is stamped by
 * the later call that does submit it.  Latency is therefore submission to
 * completion as the worker sees it, what fio reports as "lat" for its
 * io_uring engine.
 *
 * Interrupts: a wait returns early, with what has completed so far
 * (possibly nothing), when an interrupt is pending, so that the worker's
 * CHECK_FOR_INTERRUPTS() can act on it (SIGTERM from
 * TerminateBackgroundWorker) even while a device never completes.
 *
 * Fsync ordering.  An FSYNC must cover every write to its file that the
 * worker queued before it.  fsync(2) covers the writes that completed before
 * it started, so the engine holds such an fsync back — it stays in flight
 * from the worker's point of view but is not handed to the kernel — until
 * every earlier write to the same file has completed, and only then submits
 * it.  This is the ordering a psync worker gets for free, and it is what
 * IOSQE_IO_DRAIN would give, without draining the whole ring: reads and
 * later writes keep flowing while a held fsync waits, and the fsync is timed
 * from its own submission, so its latency is the fsync's alone (as with
 * psync) instead of including the wait for unrelated I/O.
 *
 * Allocation: everything is allocated in init(); queue() and complete() do
 * not allocate.  init() never raises an error: it returns an errno so that
 * the caller can fall back to psync with a NOTICE.
 *
 * The ring, the submission stamps and the fsync hold-back share UringState
 * and run per I/O, and the registered buffers and files decide how each
 * SQE is prepared: all of it is here, around that one struct.
 *
 * Registered buffers and files: init() registers the worker's I/O memory
 * (one contiguous area) as one fixed buffer and its files as the ring's
 * file table, as fio's fastest set-up does (fixedbufs, registerfiles), so
 * the kernel neither pins the pages of each I/O's buffer nor takes a
 * reference on its file for every I/O (fsyncs keep naming their file by
 * descriptor: see uring_prepare()).  Where the kernel refuses (the
 * memory-lock limit, RLIMIT_MEMLOCK, counts registered buffers for an
 * unprivileged user), the engine uses plain buffers or descriptors, which
 * work the same, only with more CPU per I/O.  IOSQE_IO_DRAIN was measured
 * in 0.1 and lost to the fsync hold-back below; the ring set-up flags are
 * fio's (URING_SETUP_FLAGS).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <liburing.h>

#include "lib/ilist.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "engine.h"

/*
 * Releasing held fsyncs marks, in a fixed bitmap, the descriptors that still
 * have a write in flight.  4096 bits cover the descriptors a backend has
 * open in practice (max_files_per_process defaults to 1000); a write on a
 * higher descriptor conservatively holds every later fsync until it
 * completes, which is still correct, only slower.
 */
#define URING_FD_BITS		4096

/* How long shutdown waits for I/Os the kernel still holds */
#define URING_SHUTDOWN_WAIT_NS	(5 * INT64CONST(1000000000))

/*
 * Ring set-up, as fio's io_uring engine does it: one process only submits
 * to and reaps from its ring (SINGLE_ISSUER), so the kernel can leave the
 * completion work of finished I/Os for that process to run when it next
 * waits (DEFER_TASKRUN), waking it once for the completions it asked for
 * rather than interrupting it for each (COOP_TASKRUN).  Deferred
 * completions reach the completion queue only in an io_uring_enter() that
 * waits; complete() makes one whenever it needs a completion, and shutdown
 * waits the same way.  Kernels before 6.1 refuse the flags; the ring is
 * then set up without them.
 */
#ifdef IORING_SETUP_DEFER_TASKRUN
#define URING_SETUP_FLAGS	(IORING_SETUP_COOP_TASKRUN | \
							 IORING_SETUP_SINGLE_ISSUER | \
							 IORING_SETUP_DEFER_TASKRUN)
#else
#define URING_SETUP_FLAGS	0
#endif


/* One queued, held or submitted I/O; the CQE's user_data points here */
typedef struct UringReq
{
	dlist_node	node;			/* in UringState.inflight, oldest first */
	IobIo	   *io;
	bool		held;			/* fsync waiting for earlier writes */
	unsigned	sq_pos;			/* its SQE's position in the submission ring */
} UringReq;

/* The engine's private state, one per worker */
typedef struct UringState
{
	struct io_uring ring;
	UringReq   *reqs;			/* depth entries */
	UringReq  **free_reqs;		/* stack of unused entries */
	int			nfree;
	dlist_head	inflight;		/* queued, held or submitted, oldest first */
	UringReq  **unsubmitted;	/* SQEs in the ring the kernel has not taken,
								 * in ring order */
	int			nunsubmitted;
	int			nprepared;		/* SQEs prepared and not yet reaped; the
								 * kernel holds nprepared - nunsubmitted */
	int			nheld;			/* fsyncs held back */
	bool		fixed_buffers;	/* the worker's I/O memory is buffer 0 */
	bool		fixed_files;	/* its files are the ring's file table */
	uint64		fd_bits[URING_FD_BITS / 64];	/* scratch for release */
} UringState;

static int	uring_init(IobEngine *engine, int depth);
static void uring_queue(IobEngine *engine, IobIo *io);
static int	uring_complete(IobEngine *engine, int min_complete,
						   int64 timeout_ns, IobIo **done, int max_done);
static void uring_shutdown(IobEngine *engine);
static int	uring_note_submitted(UringState *st, int64 call_ns);
static int	uring_probe(void);

/* The io_uring operations table (the build always links liburing) */
const IobEngineOps iob_engine_uring = {
	.name = "io_uring",
	.flags = IOB_ENGINE_RUN_FILES,
	.check_work = iob_engine_check_file_work,
	.probe = uring_probe,
	.init = uring_init,
	.queue = uring_queue,
	.complete = uring_complete,
	.shutdown = uring_shutdown
};

/*
 * Check that a ring can be used here: the kernel lets us create one and it
 * knows the opcodes the engine needs.  Returns 0 or an errno value.
 */
static int
uring_check_ring(struct io_uring *ring)
{
	struct io_uring_probe *probe;
	int			result = 0;

	/*
	 * IORING_OP_READ/WRITE arrived in Linux 5.6, as did the probe interface
	 * itself, so a kernel that cannot answer the probe is too old.
	 */
	probe = io_uring_get_probe_ring(ring);
	if (probe == NULL)
		return ENOSYS;
	if (!io_uring_opcode_supported(probe, IORING_OP_READ) ||
		!io_uring_opcode_supported(probe, IORING_OP_WRITE) ||
		!io_uring_opcode_supported(probe, IORING_OP_FSYNC))
		result = ENOSYS;
	io_uring_free_probe(probe);
	return result;
}

/*
 * Can this process use io_uring?  Creates and tears down a ring of one entry
 * the first time, then answers from a per-process cache.  Returns 0, or the
 * errno of the failure: EPERM when kernel.io_uring_disabled or a seccomp
 * policy forbids it, ENOSYS when the kernel lacks it (or the opcodes we
 * need), ENOMEM when the ring cannot be allocated.
 */
static int
uring_probe(void)
{
	static int	cached = -1;
	struct io_uring ring;
	int			ret;

	if (cached >= 0)
		return cached;

	ret = io_uring_queue_init(1, &ring, 0);
	if (ret < 0)
		cached = -ret;
	else
	{
		cached = uring_check_ring(&ring);
		io_uring_queue_exit(&ring);
	}
	return cached;
}

/*
 * Allocate engine memory that outlives the worker's per-iteration memory
 * context, returning NULL rather than raising an error when out of memory.
 */
static void *
uring_alloc(Size size)
{
	return MemoryContextAllocExtended(TopMemoryContext, size,
									  MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);
}

/* Free what init() allocated; safe on a partly initialised state */
static void
uring_free_state(UringState *st)
{
	if (st->reqs)
		pfree(st->reqs);
	if (st->free_reqs)
		pfree(st->free_reqs);
	if (st->unsubmitted)
		pfree(st->unsubmitted);
	pfree(st);
}

/*
 * Register the worker's I/O memory, its files and the ring itself with the
 * kernel, each where it accepts; a refusal leaves plain buffers or
 * descriptors in use.
 * One fixed buffer can span at most 1 GB.
 */
static void
uring_register(UringState *st, const IobEngine *engine)
{
	if (engine->buffers != NULL && engine->buffers_len > 0 &&
		engine->buffers_len <= (Size) 1024 * 1024 * 1024)
	{
		struct iovec iov;

		iov.iov_base = engine->buffers;
		iov.iov_len = engine->buffers_len;
		st->fixed_buffers = (io_uring_register_buffers(&st->ring, &iov, 1) == 0);
	}
	if (engine->fds != NULL && engine->nfiles > 0)
		st->fixed_files = (io_uring_register_files(&st->ring, engine->fds,
												   (unsigned) engine->nfiles) == 0);

	/*
	 * And the ring's own descriptor (Linux 5.18+), which io_uring_enter()
	 * would otherwise look up, with an atomic reference once the process has
	 * io-wq threads sharing its descriptor table, on every call.  liburing
	 * uses it from then on, and the plain descriptor where this fails.
	 */
	(void) io_uring_register_ring_fd(&st->ring);
}

/*
 * Create the ring for up to "depth" I/Os in flight.  Returns 0 or an errno.
 *
 * The submission queue gets "depth" entries (the kernel rounds up to a power
 * of two) and the completion queue twice that, the kernel's default, so
 * neither can overflow: the worker never has more than "depth" I/Os queued
 * or in flight.
 */
static int
uring_init(IobEngine *engine, int depth)
{
	UringState *st;
	struct io_uring_params params;
	int			ret;
	int			i;

	if (depth < 1 || depth > 32768)	/* 32768 = IORING_MAX_ENTRIES */
		return EINVAL;

	st = uring_alloc(sizeof(UringState));
	if (st == NULL)
		return ENOMEM;
	st->reqs = uring_alloc(sizeof(UringReq) * depth);
	st->free_reqs = uring_alloc(sizeof(UringReq *) * depth);
	st->unsubmitted = uring_alloc(sizeof(UringReq *) * depth);
	if (st->reqs == NULL || st->free_reqs == NULL || st->unsubmitted == NULL)
	{
		uring_free_state(st);
		return ENOMEM;
	}

	memset(&params, 0, sizeof(params));
	params.flags = URING_SETUP_FLAGS;
	ret = io_uring_queue_init_params(depth, &st->ring, &params);
	if (ret == -EINVAL)
	{
		/* a kernel before 6.1 knows neither flag: a plain ring */
		memset(&params, 0, sizeof(params));
		ret = io_uring_queue_init_params(depth, &st->ring, &params);
	}
	if (ret < 0)
	{
		uring_free_state(st);
		return -ret;
	}
	ret = uring_check_ring(&st->ring);
	if (ret != 0)
	{
		io_uring_queue_exit(&st->ring);
		uring_free_state(st);
		return ret;
	}

	/*
	 * Without IORING_FEAT_EXT_ARG (Linux < 5.11) liburing implements a
	 * timed wait with an extra timeout SQE; the ring needs room for it.
	 */
	if (!(params.features & IORING_FEAT_EXT_ARG) &&
		st->ring.sq.ring_entries < (unsigned) depth + 1)
	{
		io_uring_queue_exit(&st->ring);
		memset(&params, 0, sizeof(params));
		ret = io_uring_queue_init_params(depth + 1, &st->ring, &params);
		if (ret < 0)
		{
			uring_free_state(st);
			return -ret;
		}
	}

	uring_register(st, engine);

	for (i = 0; i < depth; i++)
		st->free_reqs[i] = &st->reqs[depth - 1 - i];
	st->nfree = depth;
	dlist_init(&st->inflight);

	engine->depth = depth;
	engine->inflight = 0;
	engine->private_data = st;
	return 0;
}


/* Turn a request into an SQE, submitted by the next queue() or complete() */
static void
uring_prepare(UringState *st, UringReq *req)
{
	IobIo	   *io = req->io;
	struct io_uring_sqe *sqe;
	bool		fixed_file;
	int			fd;

	/*
	 * Cannot fail: at most "depth" requests are prepared and not yet
	 * submitted, and the submission queue has at least "depth" entries.
	 */
	sqe = io_uring_get_sqe(&st->ring);
	if (unlikely(sqe == NULL))
		elog(ERROR, "io_uring submission queue is full");

	/*
	 * A registered file is named by its index in the ring's file table,
	 * except in an fsync: io_uring cannot run one without blocking, so it
	 * hands each to an io-wq thread, and that thread looks a registered
	 * file up under the ring's lock, which the worker holds while it
	 * submits: it waited there on every fsync (a write and its fsync took
	 * 15-20 us longer than fio's, which registers no files by default).
	 */
	fixed_file = st->fixed_files && io->kind != IOB_OP_FSYNC;
	fd = fixed_file ? io->file_index : io->fd;
	switch (io->kind)
	{
		case IOB_OP_READ:
			if (st->fixed_buffers)
				io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
			else
				io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
			break;
		case IOB_OP_WRITE:
			if (st->fixed_buffers)
				io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
			else
				io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
			break;
		case IOB_OP_FSYNC:
			io_uring_prep_fsync(sqe, fd,
								io->datasync ? IORING_FSYNC_DATASYNC : 0);
			break;
	}
	if (fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, req);
	req->sq_pos = st->ring.sq.sqe_tail - 1;	/* io_uring_get_sqe advanced it */
	st->unsubmitted[st->nunsubmitted++] = req;
	st->nprepared++;
}

/*
 * Must this fsync wait?  True when a write to the same file descriptor was
 * queued before it and has not completed yet.  Called before the fsync joins
 * the in-flight list, so every request on the list is older.
 */
static bool
uring_fsync_must_wait(UringState *st, IobIo *fsync_io)
{
	dlist_iter	iter;

	dlist_foreach(iter, &st->inflight)
	{
		UringReq   *req = dlist_container(UringReq, node, iter.cur);

		if (req->io->kind == IOB_OP_WRITE && req->io->fd == fsync_io->fd)
			return true;
	}
	return false;
}

/*
 * Prepare every held fsync whose earlier writes have all completed.  One pass
 * over the in-flight list, oldest first, marking the descriptors that still
 * have a write in flight; a held fsync reached while its descriptor is
 * unmarked has nothing left to wait for.
 */
static void
uring_release_fsyncs(UringState *st)
{
	dlist_iter	iter;
	bool		any_write = false;
	bool		unmapped_write = false;

	memset(st->fd_bits, 0, sizeof(st->fd_bits));
	dlist_foreach(iter, &st->inflight)
	{
		UringReq   *req = dlist_container(UringReq, node, iter.cur);
		int			fd = req->io->fd;
		bool		mapped = (fd >= 0 && fd < URING_FD_BITS);

		if (req->io->kind == IOB_OP_WRITE)
		{
			any_write = true;
			if (mapped)
				st->fd_bits[fd / 64] |= UINT64CONST(1) << (fd % 64);
			else
				unmapped_write = true;
		}
		else if (req->held)
		{
			bool		blocked;

			if (unmapped_write)
				blocked = true;
			else if (mapped)
				blocked = (st->fd_bits[fd / 64] >> (fd % 64)) & 1;
			else
				blocked = any_write;

			if (!blocked)
			{
				req->held = false;
				st->nheld--;
				uring_prepare(st, req);
				if (st->nheld == 0)
					break;
			}
		}
	}
}

/*
 * Should a wait stop so that the caller can serve an interrupt?  Only when
 * ProcessInterrupts() can act on it now; otherwise returning early would only
 * make the caller call again at once.
 */
static inline bool
uring_interrupted(void)
{
	return INTERRUPTS_PENDING_CONDITION() && INTERRUPTS_CAN_BE_PROCESSED();
}

/*
 * After a system call that may have submitted SQEs: stamp those the kernel
 * took with call_ns, the clock reading taken just before the call, and keep
 * the others in unsubmitted[] for a later call.  Returns how many it took.
 *
 * The kernel may take fewer than there are, or none (-EAGAIN/-EBUSY); the
 * rest stay in the ring, and stamping them now would count their time there
 * as I/O latency.  The kernel consumes the ring in order, advancing its head
 * past each SQE it takes, so an SQE was taken iff the head is past its
 * position.  That does not depend on return values, which liburing's
 * combined submit-and-wait calls do not report uniformly (an interrupted or
 * timed-out wait returns the submit count).  With SQPOLL the kernel's thread
 * takes whatever is in the ring without our system call: all of it counts.
 */
static int
uring_note_submitted(UringState *st, int64 call_ns)
{
	int			ntaken = 0;
	int			i;

	if (st->nunsubmitted == 0)
		return 0;
	if (st->ring.flags & IORING_SETUP_SQPOLL)
		ntaken = st->nunsubmitted;
	else
	{
		unsigned	khead = io_uring_smp_load_acquire(st->ring.sq.khead);

		while (ntaken < st->nunsubmitted &&
			   (int) (khead - st->unsubmitted[ntaken]->sq_pos) > 0)
			ntaken++;
	}

	for (i = 0; i < ntaken; i++)
		st->unsubmitted[i]->io->start_ns = call_ns;
	st->nunsubmitted -= ntaken;
	if (ntaken > 0 && st->nunsubmitted > 0)
		memmove(st->unsubmitted, st->unsubmitted + ntaken,
				sizeof(UringReq *) * st->nunsubmitted);
	return ntaken;
}

/*
 * Hand the prepared SQEs to the kernel without waiting.  Returns 0 or -errno;
 * on -EAGAIN/-EBUSY (kernel short of resources) the SQEs stay in the ring and
 * go with the next system call.
 */
static int
uring_submit_now(UringState *st)
{
	int64		now = iob_now_ns();
	int			ret;

	ret = io_uring_submit(&st->ring);
	(void) uring_note_submitted(st, now);
	if (ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR)
	{
		errno = -ret;
		elog(ERROR, "could not submit to io_uring: %m");
	}
	return ret < 0 ? ret : 0;
}

/*
 * Queue one I/O.  Never blocks.
 *
 * An I/O queued while another is still waiting to be submitted sends that
 * one to the kernel first, so a refill of k I/Os reaches the device one by
 * one (k - 1 submissions here, the last with complete()'s wait) rather than
 * as one batch.  Measured on 8 KB random reads at depth 32 (doc/iobench.md,
 * "I/O engines"): submitting the whole batch in complete()
 * saved about 1.5 us of CPU per I/O but cost 10-15 % of IOPS, because the
 * kernel plugs a batch and the device sees its first I/O only after the
 * last one has been set up; this way matches fio's default
 * (iodepth_batch_submit=1) and still takes one system call per I/O at
 * depth 1.
 */
static void
uring_queue(IobEngine *engine, IobIo *io)
{
	UringState *st = (UringState *) engine->private_data;
	UringReq   *req;

	if (unlikely(st->nfree == 0))
		elog(ERROR, "io_uring engine: more than %d I/Os queued", engine->depth);

	req = st->free_reqs[--st->nfree];
	req->io = io;
	req->held = (io->kind == IOB_OP_FSYNC &&
				 uring_fsync_must_wait(st, io));
	dlist_push_tail(&st->inflight, &req->node);
	engine->inflight++;

	if (req->held)
	{
		st->nheld++;
		return;
	}
	if (st->nunsubmitted > 0)
		(void) uring_submit_now(st);
	uring_prepare(st, req);
}

/*
 * Move up to max_done completions from the completion queue into done[],
 * stamping them with one clock reading.  No system call.
 */
static int
uring_reap(UringState *st, IobIo **done, int max_done)
{
	struct io_uring_cqe *cqe;
	unsigned	head;
	unsigned	seen = 0;
	int			n = 0;
	bool		write_done = false;
	int64		now = 0;

	io_uring_for_each_cqe(&st->ring, head, cqe)
	{
		UringReq   *req;
		IobIo	   *io;

		if (n >= max_done)
			break;
		seen++;

		/* liburing's own timeout CQE on kernels without EXT_ARG */
		if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
			continue;

		if (n == 0)
			now = iob_now_ns();
		req = (UringReq *) io_uring_cqe_get_data(cqe);
		io = req->io;
		io->end_ns = now;
		io->result = cqe->res;
		if (io->kind == IOB_OP_WRITE)
			write_done = true;

		dlist_delete(&req->node);
		req->io = NULL;
		st->free_reqs[st->nfree++] = req;
		st->nprepared--;
		done[n++] = io;
	}
	io_uring_cq_advance(&st->ring, seen);

	if (write_done && st->nheld > 0)
		uring_release_fsyncs(st);
	return n;
}

/* The wait event of the oldest I/O in flight */
static uint32
uring_oldest_wait_event(UringState *st)
{
	UringReq   *oldest;

	if (dlist_is_empty(&st->inflight))
		return iob_op_wait_event(IOB_OP_READ);
	oldest = dlist_head_element(UringReq, node, &st->inflight);
	return iob_op_wait_event(oldest->io->kind);
}

/*
 * One io_uring_enter(): submit what is queued (unless "submit" is false) and
 * wait until "want" more completions are in the completion queue or the
 * deadline (deadline_ns < 0: none) passes.  want == 0 only submits.  Returns
 * 0 or -errno, -ETIME and -EINTR being normal outcomes the caller handles,
 * and in *ntaken how many SQEs the kernel took.
 *
 * submit == false is a pure wait, used while the kernel refuses new SQEs
 * and at shutdown.  (On kernels without IORING_FEAT_EXT_ARG a timed wait
 * still submits, because liburing queues a timeout SQE;
 * uring_note_submitted accounts for whatever the kernel took either way.)
 */
static int
uring_enter(UringState *st, bool submit, int want, int64 deadline_ns,
			int *ntaken)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	struct __kernel_timespec *tsp = NULL;
	int64		now = 0;
	int			ret;
	int			taken;

	Assert(submit || want > 0);
	pgstat_report_wait_start(uring_oldest_wait_event(st));

	if (st->nunsubmitted > 0 || (deadline_ns >= 0 && want > 0))
		now = iob_now_ns();
	if (deadline_ns >= 0 && want > 0)
	{
		int64		left = deadline_ns - now;

		if (left < 0)
			left = 0;
		ts.tv_sec = left / INT64CONST(1000000000);
		ts.tv_nsec = left % INT64CONST(1000000000);
		tsp = &ts;
	}

	if (!submit)
		ret = io_uring_wait_cqes(&st->ring, &cqe, want, tsp, NULL);
	else if (want == 0)
		ret = io_uring_submit(&st->ring);
	else if (tsp == NULL)
		ret = io_uring_submit_and_wait(&st->ring, want);
	else
		ret = io_uring_submit_and_wait_timeout(&st->ring, &cqe, want, tsp,
											   NULL);

	pgstat_report_wait_end();
	taken = uring_note_submitted(st, now);
	if (ntaken)
		*ntaken = taken;
	return ret < 0 ? ret : 0;
}

/*
 * Submit what is queued, then return completed I/Os (see engine.h).
 *
 * Normally one system call: submit-and-wait for the completions still
 * needed after taking those already in the completion queue.  A second call
 * is made only when a completion released a held fsync, which is then
 * submitted before returning rather than left for the next call, or when the
 * kernel refused SQEs for lack of resources.
 *
 * Returns early, with what has completed (possibly 0), when an interrupt is
 * pending.  Checking the return code is not enough: when io_uring_enter()
 * has submitted SQEs and its wait is then interrupted, it returns the submit
 * count, not -EINTR, and waiting again would ignore a SIGTERM until some I/O
 * completes, which on a hung device is never.  The worker runs
 * CHECK_FOR_INTERRUPTS() before each complete().  A signal that lands
 * between the check here and the kernel's wait is still seen only at the
 * next completion or deadline; closing that window would take a signal mask
 * passed to io_uring_enter().
 *
 * One loop handles every outcome of io_uring_enter() (time-out, signal,
 * refused SQEs) and what each means for the next call.
 */
static int
uring_complete(IobEngine *engine, int min_complete, int64 timeout_ns,
			   IobIo **done, int max_done)
{
	UringState *st = (UringState *) engine->private_data;
	int64		deadline_ns = -1;
	int			ndone;
	int			ret;

	if (min_complete > engine->inflight)
		min_complete = engine->inflight;
	if (min_complete > max_done)
		min_complete = max_done;
	if (timeout_ns == 0)
		min_complete = 0;
	else if (timeout_ns > 0)
		deadline_ns = iob_now_ns() + timeout_ns;

	ndone = uring_reap(st, done, max_done);
	for (;;)
	{
		int			want = min_complete - ndone;
		int			ntaken;

		/* never wait for more than can complete; held fsyncs cannot yet */
		if (want > st->nprepared)
			want = st->nprepared;
		if (want < 0)
			want = 0;
		if (want == 0 && st->nunsubmitted == 0)
			break;

		/*
		 * Checked before every call, so also right after the previous one:
		 * a signal may have cut that call's wait short without -EINTR.
		 */
		if (uring_interrupted())
			break;

		ret = uring_enter(st, true, want, deadline_ns, &ntaken);
		ndone += uring_reap(st, done + ndone, max_done - ndone);

		if (ret == -ETIME || ret == -EINTR)
		{
			/*
			 * Time is up, or a signal arrived: stop waiting, but still submit
			 * any fsync the last completions released.
			 */
			min_complete = 0;
		}
		else if (ret == -EAGAIN || ret == -EBUSY)
		{
			/*
			 * The kernel is short of resources for new requests; the SQEs it
			 * did not take stay in the ring and go with a later call.  If the
			 * caller has what it asked for, that is the next call.  Otherwise
			 * wait for one completion of what the kernel holds, which frees
			 * some, and try again; each round completes an I/O, times out or
			 * is interrupted, so this ends.
			 */
			int			in_kernel = st->nprepared - st->nunsubmitted;

			if (ndone >= min_complete)
				break;
			if (in_kernel <= 0)
			{
				errno = -ret;
				elog(ERROR, "could not submit to io_uring: %m");
			}
			if (uring_interrupted())
				break;

			/*
			 * Without IORING_FEAT_EXT_ARG a timed wait needs a timeout SQE,
			 * which the kernel would refuse too: wait untimed there.  What
			 * the kernel holds completes eventually, and a signal ends it.
			 */
			ret = uring_enter(st, false, 1,
							  (st->ring.features & IORING_FEAT_EXT_ARG) ?
							  deadline_ns : -1, NULL);
			ndone += uring_reap(st, done + ndone, max_done - ndone);
			if (ret == -ETIME || ret == -EINTR)
				min_complete = 0;
			else if (ret < 0)
			{
				errno = -ret;
				elog(ERROR, "could not wait for io_uring completions: %m");
			}
		}
		else if (ret < 0)
		{
			errno = -ret;
			elog(ERROR, "could not submit to io_uring: %m");
		}
		else if (want == 0 && ntaken == 0)
			break;				/* a bare submit that took nothing: retry later */
		else if (deadline_ns >= 0 && ndone < min_complete &&
				 iob_now_ns() >= deadline_ns)
			min_complete = 0;	/* timed out with fewer completions */
	}

	engine->inflight -= ndone;
	return ndone;
}

/*
 * Tear the ring down.  Raises no error.
 *
 * worker.c calls this only on its normal way out: after io_loop, which
 * returns only once nothing is in flight, or when the run was stopped before
 * "go" and nothing was ever queued.  A worker that fails or is terminated
 * does not get here: the error (FATAL for SIGTERM) ends the process, and the
 * kernel tears the ring down with it, cancelling or finishing whatever it
 * still holds.
 *
 * I/Os the kernel holds are waited for, so that none completes into a buffer
 * after this returns; SQEs it never took and held fsyncs are simply dropped
 * with the ring.  The wait is bounded (URING_SHUTDOWN_WAIT_NS) and ends early
 * on a pending interrupt, so a hung device cannot keep the worker from
 * exiting; an I/O left behind then may still write into its read buffer,
 * which the worker does not reuse: it exits next.
 */
static void
uring_shutdown(IobEngine *engine)
{
	UringState *st = (UringState *) engine->private_data;
	int64		deadline_ns;

	if (st == NULL)
		return;

	deadline_ns = iob_now_ns() + URING_SHUTDOWN_WAIT_NS;
	while (st->nprepared - st->nunsubmitted > 0)
	{
		struct io_uring_cqe *cqe;
		unsigned	head;
		unsigned	seen = 0;
		int			ret;

		if (uring_interrupted())
			break;
		if (iob_now_ns() >= deadline_ns)
		{
			elog(WARNING, "io_uring engine: %d I/Os still in flight after waiting " INT64_FORMAT " s at shutdown",
				 st->nprepared - st->nunsubmitted,
				 URING_SHUTDOWN_WAIT_NS / INT64CONST(1000000000));
			break;
		}

		ret = uring_enter(st, false, 1, deadline_ns, NULL);

		/* reap without uring_reap(): no held fsync is to be released now */
		io_uring_for_each_cqe(&st->ring, head, cqe)
		{
			seen++;
			if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
				continue;
			dlist_delete(&((UringReq *) io_uring_cqe_get_data(cqe))->node);
			st->nprepared--;
		}
		io_uring_cq_advance(&st->ring, seen);

		if (ret < 0 && ret != -ETIME && ret != -EINTR)
			break;				/* nothing sensible left to do */
	}

	io_uring_queue_exit(&st->ring);
	uring_free_state(st);
	engine->private_data = NULL;
	engine->inflight = 0;
}
