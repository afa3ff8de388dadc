/*-------------------------------------------------------------------------
 *
 * wait_run.c
 *	  Wait statistics of a benchmark run (see wait_run.h).
 *
 * The launcher's loop calls iob_wait_run_poll() on every iteration; it
 * takes a tick when one is due inside the measured period and shortens the
 * launcher's sleep so that ticks land on time.  The window is closed
 * exactly at the end of the measured period (iob_wait_sampler_close()):
 * by the poll that sees the end pass, or, when the loop ended before one
 * did (the workers finish within moments of the end, and the loop stops
 * waiting as soon as they are done; or the run was cancelled), by
 * iob_wait_run_store(), at the end the run's summary reports.  The workers'
 * schedstat is read at every tick, so none of it is pending when they exit.
 * At the end the sampled table is stored in iobench.run_waits with the
 * workers' exact counts and summed latencies per op kind beside the
 * sampled figures of the wait event each op kind reports; when the whole
 * instance is sampled, PostgreSQL's own exact counts over the run's window
 * are added to them (wait_exact.h).
 *
 * The server's I/O workers.  A run of engine "postgres" on 18 and later
 * with io_method = worker has the server's I/O worker processes (backend
 * type "io worker") do its reads: the run's workers wait for the
 * completion (IO:AioIoCompletion) while an I/O worker waits in
 * IO:DataFileRead for the same read.  Such a run samples every I/O worker
 * beside its own workers (scope "workers"; scope "instance" samples them
 * anyway), and keeps their waits apart so that no read counts twice:
 *	- an I/O worker's rows are stored under their wait type followed by
 *	  " (io worker)" (IOB_IO_WORKER_LABEL), never summed with the run's own
 *	  workers' rows of the same wait type, and take none of the exact
 *	  figures (those count the run's own ops);
 *	- the run's wait table (iobench.wait_table_all()) takes its Percentage
 *	  base from the run's own workers' non-benign waits only: I/O worker rows
 *	  have no Percentage and no part in the 95 % cut, and the tables people
 *	  read show them beside the run's rows unless benign (an I/O worker's
 *	  idle Activity:IoWorkerMain is).
 * So the run's Percentage says where its own workers' time went (waiting
 * for the I/O workers among it), and the I/O worker rows say what the I/O
 * workers did meanwhile.  They serve the whole server: their work for other
 * sessions during the run is attributed to the run too.  Sampling them
 * costs a tick one load of the backend type per auxiliary process, which
 * the tick looks at anyway.  io_method = io_uring completes I/O in the
 * backend and sync does it there: neither has I/O workers to sample.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "base/base.h"
#include "engine/engine.h"
#include "waits/waits.h"
#include "wait_run.h"

#define NS_PER_MS	INT64CONST(1000000)

struct IobWaitRun
{
	IobWaitSampler *sampler;
	IobWaitTimer *timer;
	IobWaitTable *table;
	bool		instance;		/* scope "instance": PostgreSQL's counts too */
	bool		io_workers;		/* the server's I/O workers' rows apart */
	IobWaitCounters start;		/* them at the start, when instance */
	int64		measure_start_ns;	/* as the launcher polls; 0 = not yet */
	bool		finished;		/* the window was closed */
};

/* Close the window at end_ns (iob_now_ns() time); no tick after this */
static void
iob_wait_run_finish(IobWaitRun *wr, int64 end_ns)
{
	int			n;

	n = iob_wait_sampler_close(wr->sampler, (uint64) Max(end_ns, 0));
	iob_wait_table_apply(wr->table, iob_wait_sampler_deltas(wr->sampler, &n), n);
	iob_wait_timer_closed(wr->timer, (uint64) Max(end_ns, 0));
	wr->finished = true;
}

/* Take a tick if one is due (or none was taken yet) and add it to the table */
static void
iob_wait_run_tick(IobWaitRun *wr)
{
	uint64		ticks,
				sampled_ns,
				last_ns;
	int			n;

	iob_wait_sampler_counts(wr->sampler, &ticks, &sampled_ns, &last_ns);
	if (last_ns != 0 && iob_wait_timer_timeout_ms(wr->timer) > 0)
		return;
	n = iob_wait_sampler_tick(wr->sampler);
	iob_wait_table_apply(wr->table, iob_wait_sampler_deltas(wr->sampler, &n), n);
	iob_wait_sampler_counts(wr->sampler, &ticks, &sampled_ns, &last_ns);
	iob_wait_timer_ticked(wr->timer, last_ns);
}

/*
 * Start sampling a run whose workers have these pids (the scope follows
 * iobench.run_waits); io_workers: and the server's I/O workers, whose rows
 * are kept apart (a run of engine "postgres", see the top of the file; no
 * effect before 18).  Returns NULL when the setting is "off".  Lives in
 * CurrentMemoryContext; its descriptors close when that context goes.
 */
IobWaitRun *
iob_wait_run_start(const int *pids, int npids, bool io_workers)
{
	IobWaitRun *wr;

	if (iobench_run_waits == IOB_RUN_WAITS_OFF)
		return NULL;

	wr = palloc0(sizeof(IobWaitRun));
	wr->instance = (iobench_run_waits == IOB_RUN_WAITS_INSTANCE);
	if (wr->instance)
		wr->sampler = iob_wait_sampler_create(NULL, 0);
	else
		wr->sampler = iob_wait_sampler_create(pids, npids);
#ifdef IOB_HAVE_IO_WORKERS
	wr->io_workers = io_workers;
	if (io_workers && !wr->instance)
		iob_wait_sampler_add_type(wr->sampler, IOB_BTYPE_IO_WORKER);
#endif
	wr->timer = iob_wait_timer_create(iobench_sample_period);
	wr->table = iob_wait_table_create(iobench_max_wait_types);
	if (wr->instance)
		iob_wait_counters_read(&wr->start);
	/* the workers exit right after the end: leave nothing of theirs pending */
	iob_wait_sampler_read_always(wr->sampler, pids, npids);
	return wr;
}

/*
 * Take a tick if one is due in [measure_start_ns, end_ns], or close the
 * window at end_ns once it has passed.  Returns the launcher's next sleep:
 * its own timeout_ms, shortened to the next tick, to the end of the
 * measured period or to its start.
 */
long
iob_wait_run_poll(IobWaitRun *wr, int64 now_ns, int64 measure_start_ns,
				  int64 end_ns, long timeout_ms)
{
	long		until;

	if (wr == NULL || wr->finished || measure_start_ns == 0)
		return timeout_ms;
	wr->measure_start_ns = measure_start_ns;

	if (now_ns < measure_start_ns)
	{
		until = (long) ((measure_start_ns - now_ns + NS_PER_MS - 1) / NS_PER_MS);
		return Max(Min(timeout_ms, until), 1);
	}
	if (now_ns >= end_ns)
	{
		iob_wait_run_finish(wr, end_ns);
		return timeout_ms;
	}

	iob_wait_run_tick(wr);
	until = iob_wait_timer_timeout_ms(wr->timer);
	/* and wake for the final tick at the end of the measured period */
	until = Min(until, (long) ((end_ns - now_ns + NS_PER_MS - 1) / NS_PER_MS));
	return Max(Min(timeout_ms, until), 1);
}

/*
 * Store the run's wait statistics (iobench.run_waits and
 * iobench.run_wait_sampling) for the run in run_row (an iobench.runs row
 * from iob_store_run()), then release the sampler.  If no poll closed the
 * window, close it here at the end of the measured period as the summary
 * has it (the cancel, for a cancelled run), so that the sampled window is
 * the period the exact figures cover and its last part is not lost.
 */
void
iob_wait_run_store(IobWaitRun *wr, Datum run_row, const IobRunSummary *summary)
{
	IobWaitExact exact[IOB_NUM_OP_KINDS + IOB_WAIT_EXACT_KINDS];
	int			nexact = 0;
	IobWaitSampling sampling;
	uint64		last_ns;
	int64		run_id;
	int			k;

	if (wr == NULL)
		return;

	if (!wr->finished && wr->measure_start_ns != 0)
		iob_wait_run_finish(wr, wr->measure_start_ns +
							(int64) (summary->measured_s * IOB_NS_PER_SEC + 0.5));

	run_id = iob_run_row_id(run_row, NULL);
	if (run_id == 0)
		elog(ERROR, "stored run has no run_id");

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		exact[nexact].wait_event_info = iob_op_wait_event((IobOpKind) k);
		exact[nexact].count = summary->hist[k].count;
		exact[nexact].sum_ns = summary->hist[k].sum_ns;
		exact[nexact].time_known = true;
		nexact++;
	}
	/* the instance's other processes: PostgreSQL's counts, summed in */
	if (wr->instance)
	{
		IobWaitCounters end;

		iob_wait_counters_read(&end);
		nexact += iob_wait_counters_diff(&wr->start, &end, &exact[nexact]);
	}

	sampling.period_ms = iob_wait_timer_period_ms(wr->timer);
	iob_wait_sampler_counts(wr->sampler, &sampling.ticks, &sampling.sampled_ns,
							&last_ns);
	sampling.missed = iob_wait_timer_missed(wr->timer);
	sampling.scope = wr->instance ? "instance" : "workers";
	sampling.io_workers_apart = wr->io_workers;
	iob_wait_store_run(wr->table, iob_wait_sampler_has_schedstat(wr->sampler),
					   exact, nexact, run_id, &sampling);
	iob_wait_sampler_destroy(wr->sampler);
	iob_wait_timer_destroy(wr->timer);
	pfree(wr->table);
	wr->sampler = NULL;
}
