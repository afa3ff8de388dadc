/*-------------------------------------------------------------------------
 *
 * engine.h
 *	  I/O engines behind one small operations table, and the choice of the
 *	  engine a run uses.
 *
 * As fio separates its ioengines from the job logic, the worker loop
 * (worker.c) decides *what* to do — which op, file, offset — and an engine
 * decides *how*: pread/pwrite one at a time (psync), or a ring with many
 * I/Os in flight (io_uring).  The loop queues IobIo requests and reaps
 * completed ones; the engine stamps each with its submission and completion
 * time and reports the matching PostgreSQL wait event while it blocks.
 *
 * Ownership: the worker owns every IobIo and its buffer; an engine only
 * holds pointers to the ones queued or in flight, and hands each back
 * exactly once from complete().
 *
 * Which engine a run uses is decided here too (engine.c): "auto" takes
 * io_uring where the kernel allows it and falls back to psync with a
 * NOTICE; iob_engine_resolve() is the one place those rules live.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_ENGINE_H
#define IOBENCH_ENGINE_H

#include "postgres.h"

#include "base/base.h"

/* What one I/O does.  The values index per-kind arrays. */
typedef enum IobOpKind
{
	IOB_OP_READ = 0,
	IOB_OP_WRITE = 1,
	IOB_OP_FSYNC = 2
} IobOpKind;

#define IOB_NUM_OP_KINDS 3

/* Their names, as the results spell them, indexed by IobOpKind (engine.c) */
extern const char *const iob_op_names[IOB_NUM_OP_KINDS];

/* One I/O request, owned by the worker */
typedef struct IobIo
{
	IobOpKind	kind;
	int			fd;
	int			file_index;		/* which of the run's files */
	char	   *buf;			/* block-aligned buffer (unused for fsync) */
	uint32		len;			/* bytes to transfer (0 for fsync) */
	uint64		offset;			/* byte offset in the file */
	bool		datasync;		/* fsync: use fdatasync semantics */
	int64		start_ns;		/* set by the engine: submission time */
	int64		end_ns;			/* set by the engine: completion time */
	int64		result;			/* bytes transferred, 0 for fsync, or -errno */
	int			slot;			/* the worker's index for this request */
} IobIo;

typedef struct IobEngine IobEngine;

typedef struct IobEngineOps
{
	const char *name;

	/*
	 * Prepare for up to "depth" I/Os in flight.  Returns 0, or an errno
	 * value saying why the engine cannot run here (the caller decides
	 * whether to fall back).
	 */
	int			(*init) (IobEngine *engine, int depth);

	/* Queue one I/O for submission; never blocks */
	void		(*queue) (IobEngine *engine, IobIo *io);

	/*
	 * Submit what is queued, then return completed I/Os in done[] (at most
	 * max_done; returns how many).  Blocks until at least min_complete have
	 * completed or timeout_ns passes (timeout_ns < 0: no timeout).  An I/O
	 * that failed has result = -errno.
	 */
	int			(*complete) (IobEngine *engine, int min_complete,
							 int64 timeout_ns, IobIo **done, int max_done);

	/*
	 * Release everything init acquired, on a normal exit; I/Os the kernel
	 * still holds are waited for (bounded, and interruptible).
	 */
	void		(*shutdown) (IobEngine *engine);
} IobEngineOps;

struct IobEngine
{
	const IobEngineOps *ops;
	int			depth;			/* maximum I/Os in flight */
	int			inflight;		/* queued or submitted, not yet returned */
	void	   *private_data;	/* the engine's own state */

	/*
	 * Set by the worker before init(), for an engine that registers them
	 * with the kernel (io_uring): the I/O memory every IobIo's buffer lies
	 * in, and the run's open files, indexed by IobIo.file_index.
	 */
	char	   *buffers;
	Size		buffers_len;
	const int  *fds;
	int			nfiles;
};

/* Engine names as the "engine" argument spells them */
typedef enum IobEngineKind
{
	IOB_ENGINE_AUTO = 0,
	IOB_ENGINE_IO_URING,
	IOB_ENGINE_PSYNC,
	IOB_ENGINE_POSTGRES			/* the server's own read path: worker.c with
								 * server_read.h, not an IobEngineOps */
} IobEngineKind;

extern const IobEngineOps iob_engine_psync;
extern const IobEngineOps iob_engine_uring;

/* Their names, indexed by IobEngineKind */
extern const char *const iob_engine_names[IOB_ENGINE_POSTGRES + 1];
extern const char *iob_engine_kind_name(IobEngineKind kind);
extern int	iob_engine_probe_uring(void);

/* Choosing the engine of a run, and the fallback (engine.c) */
extern int	iob_engine_uring_unavailable(IobEngineKind requested);
extern IobEngineKind iob_engine_resolve(IobEngineKind requested, int iodepth);

/* The PostgreSQL wait event a worker reports while an op of this kind runs */
extern uint32 iob_op_wait_event(IobOpKind kind);

#endif							/* IOBENCH_ENGINE_H */
