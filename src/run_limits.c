/*-------------------------------------------------------------------------
 *
 * run_limits.c
 *	  Cluster-wide caps on the workers and buffer memory of concurrent
 *	  runs (see run_limits.h); their settings are in iobench.c.
 *
 * Shared state, when preloaded: two atomic counters, the workers and the
 * buffer bytes held by runs in progress.  A run adds its share with a
 * compare-and-swap loop that refuses to pass a cap, and takes it back in
 * its clean-up (which runs on ERROR and on FATAL alike); a crash of the
 * server reinitialises shared memory, so nothing can stay counted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "port/atomics.h"
#include "postmaster/bgworker_internals.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "iobench.h"
#include "run_limits.h"

typedef struct IobRunLimits
{
	pg_atomic_uint32 workers;
	pg_atomic_uint64 buffer_bytes;
} IobRunLimits;

static IobRunLimits *limits = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* A worker setting, -1 resolved to half of max_worker_processes */
static int
resolve_workers(int setting)
{
	if (setting >= 0)
		return Max(setting, 1);
	return Max(max_worker_processes / 2, 1);
}

/* The effective upper bound of the "workers" argument */
int
iob_max_workers_per_run(void)
{
	return Min(resolve_workers(iobench_max_workers_per_run),
			   resolve_workers(iobench_max_workers_total));
}

/* Ask for the counters' shared memory */
static void
limits_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(IobRunLimits)));
}

/* Create or attach to the counters */
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
		pg_atomic_init_u32(&limits->workers, 0);
		pg_atomic_init_u64(&limits->buffer_bytes, 0);
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

/* Raise the error of a cap that the run would pass */
static void
refuse(const char *what, const char *setting, uint64 asked, uint64 held,
	   uint64 cap, bool bytes)
{
	if (bytes)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's %s of %s would exceed %s", what,
						iob_size_pretty((int64) asked), setting),
				 errdetail("Runs in progress hold %s; the limit is %s.",
						   iob_size_pretty((int64) held), iob_size_pretty((int64) cap)),
				 errhint("Wait for the other runs to end, or use fewer workers, a lower iodepth or a smaller block_size.")));
	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("the run's " UINT64_FORMAT " %s would exceed %s", asked, what, setting),
			 errdetail("Runs in progress hold " UINT64_FORMAT "; the limit is " UINT64_FORMAT ", so " UINT64_FORMAT " are free.",
					   held, cap, cap > held ? cap - held : 0),
			 errhint("Wait for the other runs to end, or use fewer workers.")));
}

/*
 * Count a run's workers and buffer bytes against the caps, or refuse it.
 * Without preload each run is checked alone.
 */
void
iob_limits_reserve(int workers, uint64 buffer_bytes)
{
	uint64		wcap = (uint64) resolve_workers(iobench_max_workers_total);
	uint64		bcap = (uint64) iobench_max_buffer_memory_total * 1024 * 1024;
	uint32		wold;
	uint64		bold;

	if (limits == NULL)
	{
		if (workers > wcap)
			refuse("workers", "iobench.max_workers_total", workers, 0, wcap, false);
		if (buffer_bytes > bcap)
			refuse("buffer memory", "iobench.max_buffer_memory_total", buffer_bytes, 0, bcap, true);
		return;
	}

	wold = pg_atomic_read_u32(&limits->workers);
	do
	{
		if (wold + (uint64) workers > wcap)
			refuse("workers", "iobench.max_workers_total", workers, wold, wcap, false);
	} while (!pg_atomic_compare_exchange_u32(&limits->workers, &wold, wold + workers));

	bold = pg_atomic_read_u64(&limits->buffer_bytes);
	do
	{
		if (bold + buffer_bytes > bcap)
		{
			pg_atomic_fetch_sub_u32(&limits->workers, workers);
			refuse("buffer memory", "iobench.max_buffer_memory_total", buffer_bytes, bold, bcap, true);
		}
	} while (!pg_atomic_compare_exchange_u64(&limits->buffer_bytes, &bold, bold + buffer_bytes));
}

/* Take back what iob_limits_reserve() counted; never raises an error */
void
iob_limits_release(int workers, uint64 buffer_bytes)
{
	if (limits == NULL)
		return;
	pg_atomic_fetch_sub_u32(&limits->workers, workers);
	pg_atomic_fetch_sub_u64(&limits->buffer_bytes, buffer_bytes);
}
