/*-------------------------------------------------------------------------
 *
 * run_limits.c
 *	  Cluster-wide caps on the background worker slots and buffer memory
 *	  of concurrent runs (see run_limits.h); their settings are in
 *	  iobench.c.
 *
 * Shared state, when preloaded: two atomic counters, the worker slots and
 * the buffer bytes held by runs in progress, and the number of background
 * workers registered when the server started (set once by the postmaster,
 * read-only after).  A run adds its share with a compare-and-swap loop
 * that refuses to pass a cap, and takes it back in its clean-up (which
 * runs on ERROR and on FATAL alike); a crash of the server reinitialises
 * shared memory, so nothing can stay counted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>

#include "miscadmin.h"
#include "port/atomics.h"
#include "replication/logicallauncher.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "base/base.h"
#include "run_limits.h"

typedef struct IobRunLimits
{
	pg_atomic_uint32 slots;		/* background worker slots held by runs */
	pg_atomic_uint64 buffer_bytes;
	int			static_workers; /* registered at server start */
} IobRunLimits;

static IobRunLimits *limits = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * The background workers that hold slots from the server's start: counted
 * by the postmaster when preloaded (iobench's wait collector, the logical
 * replication launcher, other libraries' workers); otherwise only the
 * logical replication launcher is known, which the server registers
 * unless max_logical_replication_workers is 0.
 */
static int
static_workers(void)
{
	if (limits != NULL)
		return limits->static_workers;
	return max_logical_replication_workers > 0 ? 1 : 0;
}

/*
 * The most slots iobench's runs may hold together: what max_worker_processes
 * leaves after the workers started with the server, less one that is
 * always left free.
 */
static int
slot_budget(void)
{
	return Max(max_worker_processes - static_workers() - 1, 0);
}

/*
 * A slot setting, -1 resolved to half of max_worker_processes for the
 * workers plus a run's recorder
 */
static int
default_slots(int setting)
{
	return setting >= 0 ? setting : max_worker_processes / 2 + IOB_RUN_HELPER_SLOTS;
}

/* The cap a slot setting stands for: within the budget */
static int
resolve_slots(int setting)
{
	return Min(default_slots(setting), slot_budget());
}

/* See run_limits.h */
int
iob_max_workers_per_run(void)
{
	int			slots = Min(resolve_slots(iobench_max_workers_per_run),
							resolve_slots(iobench_max_workers_total));

	if (slots < 1 + IOB_RUN_HELPER_SLOTS)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too few background worker slots for a benchmark run"),
				 errdetail("A run needs %d slots at least, one per worker and one for its recorder; iobench may hold %d: max_worker_processes is %d, %d workers started with the server, one slot is always left free, and iobench.max_workers_per_run and iobench.max_workers_total allow the rest.",
						   1 + IOB_RUN_HELPER_SLOTS, Max(slots, 0), max_worker_processes,
						   static_workers()),
				 errhint("Raise max_worker_processes (which needs a restart) or the iobench settings.")));
	return slots - IOB_RUN_HELPER_SLOTS;
}

/* Ask for the counters' shared memory */
static void
limits_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(IobRunLimits)));
}

/*
 * Create or attach to the counters.  The postmaster creates them once
 * every library's workers are registered, and counts those workers.
 */
static void
limits_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	limits = ShmemInitStruct("iobench run limits", sizeof(IobRunLimits), &found);
	if (!found)
	{
		iob_bgworker_iter iter;

		pg_atomic_init_u32(&limits->slots, 0);
		pg_atomic_init_u64(&limits->buffer_bytes, 0);
		limits->static_workers = 0;
		iob_foreach_registered_bgworker(iter)
			limits->static_workers++;
	}
	LWLockRelease(AddinShmemInitLock);
}

/* When preloading, ask for the shared counters */
void
iob_run_limits_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = limits_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = limits_shmem_startup;
}

/*
 * Raise the error of a run whose "slots" would take the slots runs hold
 * ("held") past "cap"; says why the cap is what it is when the budget,
 * not the setting, sets it.
 */
static void
refuse_slots(int slots, uint32 held, int cap, int setting)
{
	int			asked = default_slots(setting);

	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("the run's %d background worker slots would exceed iobench.max_workers_total",
					slots),
			 errdetail("A run holds a slot per worker and one for its recorder. Runs in progress hold %u; the limit is %d, so %d are free.%s",
					   held, cap, cap > (int) held ? cap - (int) held : 0,
					   asked > cap ?
					   psprintf(" The limit is what max_worker_processes (%d) leaves after the %d workers started with the server and one slot always left free.",
								max_worker_processes, static_workers()) : ""),
			 errhint("Wait for the other runs to end, or use fewer workers.")));
}

/* Raise the error of buffer memory that the run would take past the cap */
static void
refuse_bytes(uint64 asked, uint64 held, uint64 cap)
{
	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("the run's buffer memory of %s would exceed iobench.max_buffer_memory_total",
					iob_size_pretty((int64) asked)),
			 errdetail("Runs in progress hold %s; the limit is %s.",
					   iob_size_pretty((int64) held), iob_size_pretty((int64) cap)),
			 errhint("Wait for the other runs to end, or use fewer workers, a lower iodepth or a smaller block_size.")));
}

/*
 * Add "slots" to the slots runs hold unless that passes "cap"; false (and
 * *held set) when it would.  Without preload nothing is counted across
 * runs: a run is checked alone.
 */
static bool
take_slots(int slots, int cap, uint32 *held)
{
	uint32		old;

	*held = 0;
	if (limits == NULL)
		return slots <= cap;
	old = pg_atomic_read_u32(&limits->slots);
	do
	{
		if ((int64) old + slots > cap)
		{
			*held = old;
			return false;
		}
	} while (!pg_atomic_compare_exchange_u32(&limits->slots, &old, old + slots));
	return true;
}

/* See run_limits.h */
void
iob_limits_reserve(int workers, uint64 buffer_bytes)
{
	int			slots = workers + IOB_RUN_HELPER_SLOTS;
	int			wcap = resolve_slots(iobench_max_workers_total);
	uint64		bcap = (uint64) iobench_max_buffer_memory_total * 1024 * 1024;
	uint32		held;
	uint64		bold;

	if (!take_slots(slots, wcap, &held))
		refuse_slots(slots, held, wcap, iobench_max_workers_total);
	if (limits == NULL)
	{
		if (buffer_bytes > bcap)
			refuse_bytes(buffer_bytes, 0, bcap);
		return;
	}

	bold = pg_atomic_read_u64(&limits->buffer_bytes);
	do
	{
		if (bold + buffer_bytes > bcap)
		{
			pg_atomic_fetch_sub_u32(&limits->slots, slots);
			refuse_bytes(buffer_bytes, bold, bcap);
		}
	} while (!pg_atomic_compare_exchange_u64(&limits->buffer_bytes, &bold, bold + buffer_bytes));
}

/* See run_limits.h */
void
iob_limits_release(int workers, uint64 buffer_bytes)
{
	if (limits == NULL)
		return;
	pg_atomic_fetch_sub_u32(&limits->slots, workers + IOB_RUN_HELPER_SLOTS);
	pg_atomic_fetch_sub_u64(&limits->buffer_bytes, buffer_bytes);
}

/* See run_limits.h */
bool
iob_limits_try_slot(void)
{
	uint32		held;

	return take_slots(1, resolve_slots(iobench_max_workers_total), &held);
}

/* See run_limits.h */
void
iob_limits_release_slot(void)
{
	if (limits != NULL)
		pg_atomic_fetch_sub_u32(&limits->slots, 1);
}

/*
 * Descriptors a worker needs besides the files of the run: PostgreSQL's
 * own (catalog files, the postmaster pipe, the latch, sockets) and the
 * io_uring ring.  PostgreSQL's file layer closes its cached files when it
 * runs short, so this is a floor, not its whole budget.
 */
#define IOB_FD_RESERVE	64

/*
 * Refuse up front a run whose files cannot all be open in one worker: each
 * worker keeps every file open for the whole run.  Workers start with the
 * postmaster's limits, as this backend did; a worker raises its soft limit
 * up to the hard one (iob_raise_fd_limit), so the hard limit is what counts.
 */
void
iob_check_fd_limit(int files)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max == RLIM_INFINITY ||
		(rlim_t) files + IOB_FD_RESERVE <= rl.rlim_max)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("files %d is more than a worker can keep open", files),
			 errdetail("Each worker keeps every file of the run open and needs %d descriptors of its own, but the server's limit on open files (RLIMIT_NOFILE) is %llu.",
					   IOB_FD_RESERVE, (unsigned long long) rl.rlim_max),
			 rl.rlim_max > IOB_FD_RESERVE ?
			 errhint("Use at most %llu files, or raise the limit the server starts with (\"ulimit -n\", or LimitNOFILE= in its systemd unit) and restart it.",
					 (unsigned long long) (rl.rlim_max - IOB_FD_RESERVE)) :
			 errhint("Raise the limit the server starts with (\"ulimit -n\", or LimitNOFILE= in its systemd unit) and restart it.")));
}

/*
 * In a worker: raise the soft limit on open files by "files", up to the
 * hard limit, so the run's files come on top of what PostgreSQL's file
 * layer already counts on.  Failure is left to open() to report.
 */
void
iob_raise_fd_limit(int files)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_cur + files <= rl.rlim_max)
		rl.rlim_cur += files;
	else
		rl.rlim_cur = rl.rlim_max;
	(void) setrlimit(RLIMIT_NOFILE, &rl);
}
