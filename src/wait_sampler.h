/*-------------------------------------------------------------------------
 *
 * wait_sampler.h
 *	  Wait-event sampling: what every PGPROC waits on, weighted by real
 *	  time, split into resource and signal time with Linux schedstat.
 *
 * Three callers share this code:
 *	- iobench.sample_waits() samples the instance from the calling backend
 *	  for a window (wait_functions.c);
 *	- the run launcher samples its workers while it waits for them and
 *	  stores the result in iobench.run_waits;
 *	- the always-on collector worker (wait_collector.c) adds every tick to
 *	  a table in shared memory.
 *
 * The pieces:
 *	IobWaitTable	a flat, fixed-capacity table of totals per wait type
 *					(no pointers, so it can live in shared memory); keys
 *					that do not fit are added to one overflow entry
 *	IobWaitSampler	per-sampler private state: one slot per PGPROC with the
 *					state seen at the previous tick and a held descriptor on
 *					/proc/<pid>/schedstat, a tick buffer, the timer
 *
 * A tick reads every PGPROC without locks and turns the interval since the
 * previous tick into "deltas" (key, wait time, signal time, entries) in a
 * preallocated buffer; iob_wait_table_apply() adds them to a table.  The
 * interval (t[k-1], t[k]] of a process is attributed to the state it was
 * in at t[k-1], and so is the increase of its run_delay over the interval:
 * a process that is woken keeps its wait event until it is back on a CPU,
 * so the time it spends runnable after a wake-up belongs to that wait.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_SAMPLER_H
#define IOBENCH_WAIT_SAMPLER_H

#include "postgres.h"

#include "funcapi.h"
#include "utils/tuplestore.h"

/*
 * A wait key: the 32-bit wait_event_info in the low half, a flavour in the
 * high half for the rows PostgreSQL has no wait event for.
 */
#define IOB_FLAVOUR_PLAIN		0	/* an ordinary wait event */
#define IOB_FLAVOUR_IN_XACT		1	/* ClientRead of a session in a transaction */
#define IOB_FLAVOUR_PREEMPTED	2	/* runnable while outside any wait */
#define IOB_FLAVOUR_PLANTED		3	/* made-up keys planted by the tests */
#define IOB_FLAVOUR_OVERFLOW	4	/* keys that did not fit in a table */

#define IOB_WAIT_KEY(flavour, info)	(((uint64) (flavour) << 32) | (uint32) (info))
#define IOB_WAIT_KEY_FLAVOUR(key)	((uint32) ((key) >> 32))
#define IOB_WAIT_KEY_INFO(key)		((uint32) (key))

#define IOB_KEY_PREEMPTED	IOB_WAIT_KEY(IOB_FLAVOUR_PREEMPTED, 0)
#define IOB_KEY_OVERFLOW	IOB_WAIT_KEY(IOB_FLAVOUR_OVERFLOW, 0)

/*
 * The wait event an iobench sampler reports while it sleeps between ticks.
 * Other tools show it as "Extension:Extension"; iobench samplers recognise
 * the exact value and leave each other out of their tables.
 */
#define IOB_SAMPLER_WAIT_EVENT	(PG_WAIT_EXTENSION | 0x10BE)

/* Longest name iob_wait_key_name() produces, with the terminator */
#define IOB_WAIT_NAME_LEN		128

/* Totals of one key */
typedef struct IobWaitEntry
{
	uint64		key;
	uint64		wait_ns;		/* sampled time in the wait */
	uint64		signal_ns;		/* run_delay increase attributed to it */
	uint64		nosignal_ns;	/* part of wait_ns with no schedstat reading */
	uint64		count;			/* observed entries into the wait */
} IobWaitEntry;

/*
 * A fixed-capacity table of IobWaitEntry, in one contiguous block of
 * iob_wait_table_size(capacity) bytes: this header, then "capacity"
 * entries, then an open-addressing index of "nslots" int32 (entry number
 * or -1).  Entries are never removed one by one, only all at once.  The
 * table holds no lock: its owner decides (see wait_collector.c).
 */
typedef struct IobWaitTable
{
	int			capacity;		/* entries that fit */
	int			nslots;			/* index slots, a power of two >= 2 * capacity */
	int			nentries;		/* entries in use */
	uint64		overflow_deltas;	/* deltas of keys that found no room */
	IobWaitEntry overflow;		/* their totals (key IOB_KEY_OVERFLOW) */
} IobWaitTable;

/* What one tick found for one process: added to a table by apply() */
typedef struct IobWaitDelta
{
	uint64		key;
	uint64		wait_ns;
	uint64		signal_ns;
	bool		signal_known;	/* schedstat was read at both ends */
	uint32		entries;		/* 1 when the process entered the wait */
} IobWaitDelta;

typedef struct IobWaitSampler IobWaitSampler;

/* Exact figures a caller measured itself (iobench workers time each I/O) */
typedef struct IobWaitExact
{
	uint32		wait_event_info;
	uint64		count;
	uint64		sum_ns;
} IobWaitExact;

/* --- tables --- */
extern Size iob_wait_table_size(int capacity);
extern void iob_wait_table_init(IobWaitTable *table, int capacity);
extern void iob_wait_table_clear(IobWaitTable *table);
extern void iob_wait_table_apply(IobWaitTable *table,
								 const IobWaitDelta *deltas, int ndeltas);
extern IobWaitEntry *iob_wait_table_entries(IobWaitTable *table);
extern void iob_wait_key_name(uint64 key, char *buf, size_t buflen);
extern void iob_wait_table_put_rows(const IobWaitTable *table,
									Tuplestorestate *tupstore,
									TupleDesc tupdesc);

/* --- samplers --- */
extern IobWaitSampler *iob_wait_sampler_create(const int *pids, int npids,
											   int period_ms, int capacity);
extern void iob_wait_sampler_destroy(IobWaitSampler *sampler);
extern void iob_wait_sampler_read_always(IobWaitSampler *sampler,
										 const int *pids, int npids);
extern void iob_wait_sampler_set_period(IobWaitSampler *sampler, int period_ms);
extern int	iob_wait_sampler_period_ms(IobWaitSampler *sampler);
extern bool iob_wait_sampler_has_schedstat(IobWaitSampler *sampler);
extern int	iob_wait_sampler_tick(IobWaitSampler *sampler);
extern const IobWaitDelta *iob_wait_sampler_deltas(IobWaitSampler *sampler,
												   int *ndeltas);
extern void iob_wait_sampler_flush(IobWaitSampler *sampler);
extern void iob_wait_sampler_close(IobWaitSampler *sampler, uint64 end_ns);
extern bool iob_wait_sampler_sleep(IobWaitSampler *sampler);
extern bool iob_wait_sampler_poll(IobWaitSampler *sampler);
extern long iob_wait_sampler_timeout_ms(IobWaitSampler *sampler);
extern void iob_wait_sampler_run(IobWaitSampler *sampler, int64 duration_us);
extern IobWaitTable *iob_wait_sampler_table(IobWaitSampler *sampler);
extern void iob_wait_sampler_counts(IobWaitSampler *sampler,
									uint64 *ticks, uint64 *missed,
									uint64 *sampled_ns);
extern void iob_wait_sampler_store_run(IobWaitSampler *sampler, int64 run_id,
									   const IobWaitExact *exact, int nexact);

#endif							/* IOBENCH_WAIT_SAMPLER_H */
