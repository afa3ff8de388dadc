/*-------------------------------------------------------------------------
 *
 * engine_psync.c
 *	  The psync engine: one pread/pwrite/fsync at a time, as fio's psync.
 *
 * queue() only remembers the request; complete() performs it with a
 * blocking system call, timed tightly around the call, with the matching
 * wait event reported for its duration.  Depth is always 1.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "utils/wait_event.h"

#include "engine.h"

typedef struct PsyncState
{
	IobIo	   *pending;		/* the queued request, if any */
} PsyncState;

static PsyncState psync_state;

/* Accept only depth 1: psync has no way to keep more in flight */
static int
psync_init(IobEngine *engine, int depth)
{
	if (depth != 1)
		return EINVAL;
	psync_state.pending = NULL;
	engine->private_data = &psync_state;
	engine->inflight = 0;
	return 0;
}

/* Remember the request until complete() is called */
static void
psync_queue(IobEngine *engine, IobIo *io)
{
	PsyncState *st = (PsyncState *) engine->private_data;

	Assert(st->pending == NULL);
	st->pending = io;
	engine->inflight = 1;
}

/* Perform the queued request synchronously and hand it back */
static int
psync_complete(IobEngine *engine, int min_complete, int64 timeout_ns,
			   IobIo **done, int max_done)
{
	PsyncState *st = (PsyncState *) engine->private_data;
	IobIo	   *io = st->pending;
	ssize_t		rc;

	if (io == NULL || max_done < 1)
		return 0;

	pgstat_report_wait_start(iob_op_wait_event(io->kind));
	io->start_ns = iob_now_ns();
	switch (io->kind)
	{
		case IOB_OP_READ:
			rc = pread(io->fd, io->buf, io->len, (off_t) io->offset);
			break;
		case IOB_OP_WRITE:
			rc = pwrite(io->fd, io->buf, io->len, (off_t) io->offset);
			break;
		case IOB_OP_FSYNC:
		default:
			rc = io->datasync ? fdatasync(io->fd) : fsync(io->fd);
			break;
	}
	io->end_ns = iob_now_ns();
	pgstat_report_wait_end();

	io->result = (rc < 0) ? -(int64) errno : (int64) rc;
	st->pending = NULL;
	engine->inflight = 0;
	done[0] = io;
	return 1;
}

/* Nothing to release */
static void
psync_shutdown(IobEngine *engine)
{
	engine->private_data = NULL;
	engine->inflight = 0;
}

const IobEngineOps iob_engine_psync = {
	.name = "psync",
	.flags = IOB_ENGINE_RUN_FILES,
	.check_work = iob_engine_check_file_work,
	.init = psync_init,
	.queue = psync_queue,
	.complete = psync_complete,
	.shutdown = psync_shutdown
};
