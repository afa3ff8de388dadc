/*-------------------------------------------------------------------------
 *
 * wait_table.h
 *	  Wait statistics, layer 1: the wait table, a fixed-capacity table of
 *	  totals per wait type.  A data structure only: it reads no process and
 *	  runs no SQL.
 *
 * Owns the wait keys, the totals of one key (IobWaitEntry), the table
 * (IobWaitTable) and the unit a sampler tick hands over (IobWaitDelta).
 * The table has no pointers, so it can live in shared memory (the
 * collector's, wait_collector.c) as well as in private memory (a window or
 * a run); keys that do not fit are added to one overflow entry, so its
 * memory never grows.
 *
 * Layers of the wait statistics, each header including only those below:
 *	wait_table.h	this table
 *	wait_sampler.h	the tick: PGPROCs and schedstat into deltas (with
 *					wait_backend_type.h: each process's backend type)
 *	wait_timer.h	the periodic schedule of the ticks
 *	wait_output.h	tables into SQL rows and into iobench.run_waits
 *	drivers			wait_window.c (sample_waits), wait_run.h (a run),
 *					wait_collector.h (the preloaded collector)
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_TABLE_H
#define IOBENCH_WAIT_TABLE_H

#include "postgres.h"

/*
 * A wait key: the 32-bit wait_event_info in the low half; above it a
 * flavour (8 bits) for the rows PostgreSQL has no wait event for, and the
 * backend type of the process that waited (8 bits, the server's
 * BackendType; 0 = B_INVALID, unknown), so that the waits of, say, I/O
 * worker processes keep their own totals.  Rows people read sum the
 * backend types of one wait type.
 */
#define IOB_FLAVOUR_PLAIN		0	/* an ordinary wait event */
#define IOB_FLAVOUR_IN_XACT		1	/* ClientRead of a session in a transaction */
#define IOB_FLAVOUR_PREEMPTED	2	/* runnable while outside any wait */
#define IOB_FLAVOUR_OVERFLOW	3	/* keys that did not fit in a table */

#define IOB_WAIT_KEY(flavour, info)	(((uint64) (flavour) << 32) | (uint32) (info))
#define IOB_WAIT_KEY_FLAVOUR(key)	((uint32) (((key) >> 32) & 0xFF))
#define IOB_WAIT_KEY_INFO(key)		((uint32) (key))
#define IOB_WAIT_KEY_BTYPE(key)		((int) (((key) >> 40) & 0xFF))
/* the key without its backend type: what the wait is */
#define IOB_WAIT_KEY_EVENT(key)		((key) & UINT64CONST(0xFFFFFFFFFF))
#define IOB_WAIT_KEY_WITH_BTYPE(key, btype) \
	(IOB_WAIT_KEY_EVENT(key) | ((uint64) ((btype) & 0xFF) << 40))

#define IOB_KEY_PREEMPTED	IOB_WAIT_KEY(IOB_FLAVOUR_PREEMPTED, 0)
#define IOB_KEY_OVERFLOW	IOB_WAIT_KEY(IOB_FLAVOUR_OVERFLOW, 0)

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
 * table holds no lock: its owner decides (see wait_collector.h).
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

extern Size iob_wait_table_size(int capacity);
extern void iob_wait_table_init(IobWaitTable *table, int capacity);
extern IobWaitTable *iob_wait_table_create(int capacity);
extern void iob_wait_table_clear(IobWaitTable *table);
extern void iob_wait_table_apply(IobWaitTable *table,
								 const IobWaitDelta *deltas, int ndeltas);
extern IobWaitEntry *iob_wait_table_entries(IobWaitTable *table);

#endif							/* IOBENCH_WAIT_TABLE_H */
