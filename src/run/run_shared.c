/*-------------------------------------------------------------------------
 *
 * run_shared.c
 *	  Creating a run's dynamic shared memory segment (run_shared.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/proc.h"

#include "base/base.h"
#include "run_shared.h"
#include "tablespace_group.h"

/* Counter that makes file names unique across runs of one backend */
static uint32 run_counter = 0;

/* iob_run_segment_create(): the run's own state, before any worker exists */
static void
init_run_shared(IobRunShared *run, const IobRunParams *params, const char *dir,
				IobEngineKind engine)
{
	memset(run, 0, sizeof(IobRunShared));
	run->params = *params;
	run->engine = engine;
	strlcpy(run->dir, dir, sizeof(run->dir));
	snprintf(run->file_prefix, sizeof(run->file_prefix), "%s%d.iobench%u",
			 PG_TEMP_FILE_PREFIX, MyProcPid, run_counter++);
	run->launcher_procno = GetNumberFromPGProc(MyProc);
	run->launcher_pid = MyProcPid;
	run->nseconds = (int) ((params->duration_us + USECS_PER_SEC - 1) / USECS_PER_SEC) + 1;
	pg_atomic_init_u32(&run->phase, IOB_PHASE_PREPARE);
	pg_atomic_init_u32(&run->nready, 0);
	pg_atomic_init_u32(&run->nfinished, 0);
	pg_atomic_init_u32(&run->seconds_drained, 0);
	pg_atomic_init_u32(&run->seconds_stored, 0);
	pg_atomic_init_u32(&run->recorder_stop, 0);
	pg_atomic_init_u32(&run->recorder_final, 0);
	pg_atomic_init_u32(&run->live_taken, 0);
	pg_atomic_init_u32(&run->seconds_checked, 0);
}

/* iob_run_segment_create(): each worker's slot, and the empty ring of seconds */
static void
init_worker_slots(IobWorkerState *workers, int nworkers, IobSecondSlot *seconds)
{
	int			i;
	int			k;

	memset(workers, 0, mul_size(sizeof(IobWorkerState), nworkers));
	for (i = 0; i < nworkers; i++)
	{
		workers[i].worker_index = i;
		pg_atomic_init_u32(&workers[i].seconds_done, 0);
		pg_atomic_init_u64(&workers[i].stall_head, 0);
		pg_atomic_init_u32(&workers[i].flushing, 0);
		pg_atomic_init_u64(&workers[i].late_head, 0);
		pg_atomic_init_u64(&workers[i].late_stored, 0);
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			iob_hist_reset(&workers[i].hist[k]);
		iob_hist_reset(&workers[i].commit_hist);
	}
	for (i = 0; i < IOB_SECOND_RING * IOB_NUM_OP_KINDS; i++)
	{
		pg_atomic_init_u64(&seconds[i].ops, 0);
		pg_atomic_init_u64(&seconds[i].bytes, 0);
		pg_atomic_init_u64(&seconds[i].lat_sum_ns, 0);
		pg_atomic_init_u64(&seconds[i].lat_max_ns, 0);
	}
}

/* See run_shared.h */
shm_toc *
iob_run_segment_create(const IobRunParams *params, const char *dir,
					   IobEngineKind engine, const char *label, dsm_segment **seg)
{
	shm_toc_estimator e;
	Size		info_size = add_size(offsetof(IobRunStoreInfo, label),
									 label ? strlen(label) + 1 : 1);
	Size		workers_size = mul_size(sizeof(IobWorkerState), params->workers);
	Size		group_size = mul_size(sizeof(IobGroupStats),
									  mul_size(params->workers, Max(params->ngroup, 1)));
	Size		seconds_size = mul_size(sizeof(IobSecondSlot),
										IOB_SECOND_RING * IOB_NUM_OP_KINDS);
	shm_toc    *toc;
	IobRunShared *run;
	IobWorkerState *workers;
	IobSecondSlot *seconds;
	IobRunStoreInfo *info;
	int			i;

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(IobRunShared));
	shm_toc_estimate_chunk(&e, workers_size);
	shm_toc_estimate_chunk(&e, seconds_size);
	shm_toc_estimate_chunk(&e, info_size);
	if (params->ngroup > 0)
		shm_toc_estimate_chunk(&e, group_size);
	shm_toc_estimate_keys(&e, 5);

	*seg = dsm_create(shm_toc_estimate(&e), 0);
	toc = shm_toc_create(IOB_SHM_MAGIC, dsm_segment_address(*seg),
						 shm_toc_estimate(&e));

	run = shm_toc_allocate(toc, sizeof(IobRunShared));
	init_run_shared(run, params, dir, engine);
	shm_toc_insert(toc, IOB_KEY_RUN, run);

	workers = shm_toc_allocate(toc, workers_size);
	seconds = shm_toc_allocate(toc, seconds_size);
	init_worker_slots(workers, params->workers, seconds);
	shm_toc_insert(toc, IOB_KEY_WORKERS, workers);
	shm_toc_insert(toc, IOB_KEY_SECONDS, seconds);

	info = shm_toc_allocate(toc, info_size);
	memset(info, 0, info_size);
	info->has_label = (label != NULL);
	if (label)
		strcpy(info->label, label);
	info->rows_handle = DSM_HANDLE_INVALID;
	pg_atomic_init_u32(&info->done, 0);
	shm_toc_insert(toc, IOB_KEY_STORE, info);

	/* a group: the tablespaces' figures */
	if (params->ngroup > 0)
	{
		IobGroupStats *g = shm_toc_allocate(toc, group_size);
		int			k;

		memset(g, 0, group_size);
		for (i = 0; i < params->workers * params->ngroup; i++)
			for (k = 0; k < IOB_NUM_OP_KINDS; k++)
				iob_hist_reset(&g[i].hist[k]);
		shm_toc_insert(toc, IOB_KEY_GROUP, g);
	}

	return toc;
}

