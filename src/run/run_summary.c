/*-------------------------------------------------------------------------
 *
 * run_summary.c
 *	  A run's final figures, merged from its shared memory segment into an
 *	  IobRunSummary (run_summary.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/shm_toc.h"

#include "base/base.h"
#include "run_shared.h"
#include "run_summary.h"
#include "second_ring.h"
#include "tablespace_group.h"

/* Merge the workers' data into the summary's totals, stalls and CPU */
static void
summarize_workers(IobRunSummary *s, IobWorkerState *workers, int nworkers)
{
	int			i;
	int			k;

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		iob_hist_reset(&s->hist[k]);
		s->bytes[k] = 0;
	}
	iob_hist_reset(&s->commit_hist);
	s->nstall_events = 0;
	s->stall_events = palloc(sizeof(IobStallEvent) *
							 Max(nworkers * IOB_MAX_STALL_EVENTS, 1));
	s->stall_workers = palloc(sizeof(int) * Max(nworkers * IOB_MAX_STALL_EVENTS, 1));
	for (i = 0; i < nworkers; i++)
	{
		IobWorkerState *ws = &workers[i];
		int			e;

		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
		{
			iob_hist_merge(&s->hist[k], &ws->hist[k]);
			s->bytes[k] += ws->bytes[k];
		}
		iob_hist_merge(&s->commit_hist, &ws->commit_hist);
		s->cpu_user_s += ws->cpu_user_s;
		s->cpu_sys_s += ws->cpu_sys_s;
		s->stall_count += ws->nstalls;
		/* order-sensitive combination: the digest of worker 0 comes first */
		s->offset_digest = s->offset_digest * UINT64CONST(0x100000001b3) ^ ws->offset_digest;
		/* the stall events the workers kept, in worker order */
		for (e = 0; e < Min(ws->nstall_events, IOB_MAX_STALL_EVENTS); e++)
		{
			s->stall_workers[s->nstall_events] = i;
			s->stall_events[s->nstall_events++] = ws->stall_events[e];
		}
	}
}

/* Merge the workers' figures of each tablespace of a group */
static void
summarize_group(IobRunSummary *s, shm_toc *toc, int nworkers)
{
	int			n = s->params->ngroup;
	IobGroupStats *all;
	int			g;
	int			i;
	int			k;

	s->group = NULL;
	if (n == 0)
		return;
	all = shm_toc_lookup(toc, IOB_KEY_GROUP, false);
	s->group = palloc0(sizeof(IobGroupStats) * n);
	for (g = 0; g < n; g++)
	{
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			iob_hist_reset(&s->group[g].hist[k]);
		for (i = 0; i < nworkers; i++)
			for (k = 0; k < IOB_NUM_OP_KINDS; k++)
			{
				iob_hist_merge(&s->group[g].hist[k], &all[i * n + g].hist[k]);
				s->group[g].bytes[k] += all[i * n + g].bytes[k];
			}
	}
}

/* See run_summary.h; the summary is a copy, valid once the segment is gone */
void
iob_summarize_run(IobRunSummary *s, shm_toc *toc)
{
	IobRunShared *run = shm_toc_lookup(toc, IOB_KEY_RUN, false);
	IobWorkerState *workers = shm_toc_lookup(toc, IOB_KEY_WORKERS, false);
	IobRunStoreInfo *info = shm_toc_lookup(toc, IOB_KEY_STORE, false);
	IobRunParams *params = palloc(sizeof(IobRunParams));
	int			i;

	/* the workers' figures were final before they counted themselves done */
	pg_read_barrier();
	memset(s, 0, sizeof(IobRunSummary));
	*params = run->params;
	s->params = params;
	s->label = info->has_label ? pstrdup(info->label) : NULL;
	s->status = info->completed ? "completed" : pstrdup(info->status);
	s->engine = run->engine;
	s->storage = info->storage;
	s->started_at = info->started_at;
	s->finished_at = info->finished_at;
	s->go_at = info->go_at;
	summarize_workers(s, workers, info->nworkers);
	/* the engine's state and counts (zero for an engine without them) */
	s->engine_shared = run->engine_shared;
	for (i = 0; i < info->nworkers; i++)
	{
		s->engine_counts.buffer_hits += workers[i].engine_counts.buffer_hits;
		s->engine_counts.buffer_reads += workers[i].engine_counts.buffer_reads;
	}
	summarize_group(s, toc, info->nworkers);
	s->leftover_seconds = iob_ring_leftovers(toc, run->params.workers, &s->lost_ops);
	/* its per-second figures miss I/Os: the status says so */
	if (info->completed && s->lost_ops > 0)
		s->status = "incomplete";

	/* the measured period: all of it, or up to the stop */
	if (run->start_ns == 0)
		s->measured_s = 0;
	else
	{
		int64		measured_end = run->end_ns;

		if ((!info->completed || info->steady_reached) && info->stopped_ns > 0)
			measured_end = Min(info->stopped_ns, run->end_ns);
		s->measured_s = Max((double) (measured_end - run->measure_start_ns) / IOB_NS_PER_SEC, 0.0);
	}

	s->steady_reached = info->steady_reached;
	s->steady_at_s = info->steady_at_s;
	/* reserved at the start; the time series is the recorder's (recorder.h) */
	s->run_id = run->run_id;
}
