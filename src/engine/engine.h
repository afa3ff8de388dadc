/*-------------------------------------------------------------------------
 *
 * engine.h
 *	  I/O engines behind one small operations table, and the choice of the
 *	  engine a run uses.
 *
 * As fio separates its ioengines from the job logic, the worker loop
 * (worker.c) decides *what* to do — which op, file, offset — and an engine
 * decides *how*: pread/pwrite one at a time (psync), a ring with many
 * I/Os in flight (io_uring), or the server's own buffer manager reading a
 * relation (postgres: read streams, io_method; engine_postgres.h).  The
 * loop queues IobIo requests and reaps completed ones; the engine stamps
 * each with its submission and completion time and reports the matching
 * PostgreSQL wait event while it blocks.
 *
 * An engine takes a narrow description of its work (IobEngineWork), never
 * the run's whole parameters.  What an engine needs beyond queue/complete
 * is in its table too, for the run to call without knowing which engine it
 * is: capability flags (whether the run makes files for it, whether
 * campaigns may use it, ...), its argument rules, the preparation of a run
 * (postgres: its relation), its run-wide state in the run's shared memory
 * (IobEngineShared), the server's counts its workers take, and the row it
 * adds to a stored run.
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

#include "storage/dsm.h"

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
	int			fd;				/* the file's descriptor, or -1 for an engine
								 * without the run's files */
	int			file_index;		/* which of the run's files */
	char	   *buf;			/* block-aligned buffer (unused for fsync, and
								 * NULL for an engine without the run's files) */
	uint32		len;			/* bytes to transfer (0 for fsync) */
	uint64		offset;			/* byte offset in the file */
	bool		datasync;		/* fsync: use fdatasync semantics */
	int64		start_ns;		/* set by the engine: submission time */
	int64		end_ns;			/* set by the engine: completion time */
	int64		result;			/* bytes transferred, 0 for fsync, or -errno */
	int			slot;			/* the worker's index for this request */
} IobIo;

/* Engine names as the "engine" argument spells them */
typedef enum IobEngineKind
{
	IOB_ENGINE_AUTO = 0,
	IOB_ENGINE_IO_URING,
	IOB_ENGINE_PSYNC,
	IOB_ENGINE_POSTGRES			/* the server's own read path
								 * (engine_postgres.h) */
} IobEngineKind;

#define IOB_NUM_ENGINE_KINDS	(IOB_ENGINE_POSTGRES + 1)

/*
 * What a run asks of its engine: the narrow description every engine (its
 * rules, its preparation, its workers) takes instead of the run's
 * parameters.  Built from those by iob_engine_work() (run_validate.h); it
 * points into them, so it lives no longer than they do and is never put in
 * shared memory.
 */
typedef struct IobEngineWork
{
	const char *rw_name;		/* the access pattern, as "rw" spells it */
	bool		random;			/* random offsets, else sequential */
	bool		reads_only;		/* "randread" or "read" */
	uint32		block_size;		/* bytes per op */
	uint64		file_size;		/* bytes per file */
	int			files;
	int			workers;
	int			depth;			/* argument iodepth */
	Oid			tablespace_oid;
	const char *tablespace;		/* its name */
	int			ngroup;			/* tablespaces of a group, or 0 */
	uint64		seed;
	bool		direct;
	const char *file_only_arg;	/* the first of "rate_iops", "rewrite_pct",
								 * "cold_reads" given, or NULL */
	bool		io_concurrency_given;
	int			io_concurrency; /* argument effective_io_concurrency */
	bool		io_combine_given;
	int			io_combine_blocks;	/* argument io_combine_limit */
} IobEngineWork;

/*
 * The run-wide state of an engine in the run's shared memory: what its
 * prepare_run() decided and made, for its workers and its store().  An
 * engine lays its own struct over it (checked to fit when it is compiled);
 * the file engines have none.
 */
#define IOB_ENGINE_SHARED_BYTES	2048

typedef union IobEngineShared
{
	char		data[IOB_ENGINE_SHARED_BYTES];
	int64		align_int;		/* aligned for any member */
	double		align_double;
} IobEngineShared;

/*
 * The server's counts of one worker's reads over the measured period, for
 * an engine that reads through the buffer manager (ops->counts), summed
 * over the workers (zero for the other engines)
 */
typedef struct IobEngineCounts
{
	uint64		buffer_hits;	/* pgBufferUsage.shared_blks_hit */
	uint64		buffer_reads;	/* pgBufferUsage.shared_blks_read */
} IobEngineCounts;

/* The campaigns that run an engine many times (ops->check_campaign) */
typedef enum IobCampaignKind
{
	IOB_CAMPAIGN_SUITE,			/* iobench.suite() */
	IOB_CAMPAIGN_SEARCH			/* iobench.latency_search() */
} IobCampaignKind;

/*
 * Capability flags of an engine (IobEngineOps.flags)
 *
 * IOB_ENGINE_RUN_FILES: it reads and writes the run's own files: the run
 * makes them (and checks their space), a worker opens them and hands the
 * engine their descriptors and an I/O buffer per request.
 *
 * IOB_ENGINE_SHARED_CACHE: its workers read through one cache shared by
 * the server (shared buffers): each random worker draws from a stripe of
 * its own (workload.c), so that one's read is never another's hit.
 *
 * IOB_ENGINE_SERVER_IO: the server's own processes (18's I/O workers) do
 * some of its reads: the run's wait statistics sample them too.
 */
#define IOB_ENGINE_RUN_FILES		0x01
#define IOB_ENGINE_SHARED_CACHE		0x02
#define IOB_ENGINE_SERVER_IO		0x04

/*
 * Where an engine that may take a request again gets another op for it
 * (IobEngine.redraw): the worker fills "io" with the next op of its
 * workload, in place
 */
typedef void (*IobEngineRedraw) (void *arg, IobIo *io);

typedef struct IobEngine IobEngine;

typedef struct IobEngineOps
{
	const char *name;
	uint32		flags;			/* IOB_ENGINE_* above */

	/*
	 * In the backend that validates a run's arguments: raise the ERROR
	 * that the first argument this engine cannot take deserves
	 */
	void		(*check_work) (const IobEngineWork *work);

	/*
	 * Optional.  Can this process use the engine (the kernel may refuse
	 * it)?  Returns 0, or the errno of the refusal; the choice of the
	 * engine (iob_engine_resolve()) falls back on it.  NULL: always.
	 */
	int			(*probe) (void);

	/*
	 * Optional.  In the backend that calls a campaign: refuse this engine
	 * in that campaign, if it must (NULL: every campaign may use it).
	 */
	void		(*check_campaign) (IobCampaignKind campaign);

	/*
	 * Optional.  In the launcher, before anything is made: refuse a run
	 * that cannot take place here (a hot standby, a read-only transaction).
	 */
	void		(*check_allowed) (void);

	/*
	 * Optional.  In the launcher, before the workers start: decide the
	 * run-wide settings and make what the engine reads, into *shared (of
	 * the run's segment "seg"); sets *direct to whether its reads bypass
	 * the page cache, which the run stores as its "direct".
	 */
	void		(*prepare_run) (dsm_segment *seg, IobEngineShared *shared,
								const IobEngineWork *work, bool *direct);

	/*
	 * Optional.  The requests a worker keeps queued (NULL: the iodepth
	 * asked for).
	 */
	int			(*queue_depth) (const IobEngineWork *work,
								const IobEngineShared *shared);

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

	/*
	 * Optional.  In a worker: the server's counts of this process so far
	 * (the worker takes their difference over the measured period).
	 */
	void		(*counts) (IobEngine *engine, IobEngineCounts *counts);

	/*
	 * Optional.  The value of server setting "name" that the run's workers
	 * used, as SHOW spells it, when it is not the server's own (NULL: the
	 * server's applies).
	 */
	char	   *(*setting) (const IobEngineShared *shared, const char *name);

	/*
	 * Optional.  Once run "run_id" is stored: store what the engine adds to
	 * it (its shared state, its workers' counts summed, the bytes they read
	 * in the measured period).  Returns the run's row (iobench.runs), "row"
	 * itself or as the engine updated it.
	 */
	Datum		(*store) (int64 run_id, const IobEngineShared *shared,
						  const IobEngineCounts *counts, uint64 bytes_read,
						  Datum row);
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

	/*
	 * Set by the worker before init(), for every engine: its work, its
	 * run-wide state, which worker it is, and where it may take another op
	 * for a request it does not want (postgres: an op still in flight).
	 */
	const IobEngineWork *work;
	const IobEngineShared *shared;
	int			worker_index;
	IobEngineRedraw redraw;
	void	   *redraw_arg;
};

extern const IobEngineOps iob_engine_psync;
extern const IobEngineOps iob_engine_uring;
extern const IobEngineOps iob_engine_postgres;

/* Their names, indexed by IobEngineKind */
extern const char *const iob_engine_names[IOB_NUM_ENGINE_KINDS];
extern const char *iob_engine_kind_name(IobEngineKind kind);

/* The table of an engine kind ("auto": io_uring's, which the file engines share) */
extern const IobEngineOps *iob_engine_ops(IobEngineKind kind);

/* The rules of the engines that read the run's files (engine.c) */
extern void iob_engine_check_file_work(const IobEngineWork *work);

/* Choosing the engine of a run, and the fallback (engine.c) */
extern int	iob_engine_uring_unavailable(IobEngineKind requested);
extern IobEngineKind iob_engine_resolve(IobEngineKind requested, int iodepth);

/* The PostgreSQL wait event a worker reports while an op of this kind runs */
extern uint32 iob_op_wait_event(IobOpKind kind);

#endif							/* IOBENCH_ENGINE_H */
