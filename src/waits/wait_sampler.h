/*-------------------------------------------------------------------------
 *
 * wait_sampler.h
 *	  Wait statistics, layer 2: the sampler, a tick that reads what every
 *	  PGPROC waits on and its Linux schedstat, and turns the interval since
 *	  the previous tick into deltas for a wait table.  Nothing else: the
 *	  schedule is wait_timer.h's, the tables wait_table.h's, and what is
 *	  done with the deltas the drivers' (see wait_table.h for the layers).
 *
 * An IobWaitSampler is per-sampler private state: one slot per PGPROC with
 * the state seen at the previous tick and a held descriptor on
 * /proc/<pid>/schedstat, and a preallocated delta buffer.  A tick's deltas
 * are (key, wait time, signal time, entries); the interval (t[k-1], t[k]]
 * of a process is attributed to the state it was in at t[k-1], and so is
 * the increase of its run_delay over the interval: a process that is
 * woken keeps its wait event until it is back on a CPU, so the time it
 * spends runnable after a wake-up belongs to that wait.
 *
 *	s = iob_wait_sampler_create(pids, npids);
 *	iob_wait_sampler_add_type(s, btype);		(optional: and every process
 *												 of a backend type, 18+)
 *	n = iob_wait_sampler_tick(s);				(every period)
 *	iob_wait_table_apply(table, iob_wait_sampler_deltas(s, &n), n);
 *	n = iob_wait_sampler_flush(s);				(or _close(s, end_ns)) and apply
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_SAMPLER_H
#define IOBENCH_WAIT_SAMPLER_H

#include "postgres.h"

#include "utils/wait_event.h"

#include "wait_table.h"

/*
 * The wait event an iobench sampler reports while it sleeps between ticks;
 * iobench samplers recognise the exact value and leave each other out of
 * their tables.  17 and later name the wait events of extensions, and one
 * that is not registered makes pg_stat_activity fail ("could not find
 * custom name for wait event information"): there it is registered as
 * Extension:IobenchSampler.  Before 17 other tools show it as
 * Extension:Extension.
 */
extern uint32 iob_sampler_wait_event(void);
#define IOB_SAMPLER_WAIT_EVENT	iob_sampler_wait_event()

typedef struct IobWaitSampler IobWaitSampler;

extern IobWaitSampler *iob_wait_sampler_create(const int *pids, int npids);
extern void iob_wait_sampler_destroy(IobWaitSampler *sampler);
extern void iob_wait_sampler_read_always(IobWaitSampler *sampler,
										 const int *pids, int npids);
extern void iob_wait_sampler_add_type(IobWaitSampler *sampler, int btype);
extern bool iob_wait_sampler_has_schedstat(IobWaitSampler *sampler);
extern bool iob_wait_sampler_restricted(IobWaitSampler *sampler);
extern int	iob_wait_sampler_tick(IobWaitSampler *sampler);
extern int	iob_wait_sampler_flush(IobWaitSampler *sampler);
extern int	iob_wait_sampler_close(IobWaitSampler *sampler, uint64 end_ns);
extern const IobWaitDelta *iob_wait_sampler_deltas(IobWaitSampler *sampler,
												   int *ndeltas);
extern void iob_wait_sampler_counts(IobWaitSampler *sampler, uint64 *ticks,
									uint64 *sampled_ns, uint64 *last_ns);

#endif							/* IOBENCH_WAIT_SAMPLER_H */
