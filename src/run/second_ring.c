/*-------------------------------------------------------------------------
 *
 * second_ring.c
 *	  The ring of seconds and the workers' late rings (second_ring.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "base/base.h"
#include "second_ring.h"

/* A worker: put one kind of one second in its late ring, or count it lost */
static void
add_late(IobWorkerState *ws, int sec, int kind, uint64 ops, uint64 bytes,
		 uint64 lat_sum_ns, uint64 lat_max_ns)
{
	uint64		head = pg_atomic_read_u64(&ws->late_head);
	IobLateSecond *e;

	if (head - pg_atomic_read_u64(&ws->late_stored) >= IOB_LATE_RING)
	{
		ws->lost_ops += ops;
		return;
	}
	e = &ws->late[head % IOB_LATE_RING];
	e->second = sec;
	e->kind = kind;
	e->ops = ops;
	e->bytes = bytes;
	e->lat_sum_ns = lat_sum_ns;
	e->lat_max_ns = lat_max_ns;
	pg_write_barrier();
	pg_atomic_write_u64(&ws->late_head, head + 1);
}

/* See second_ring.h */
void
iob_ring_add(IobRunShared *run, IobSecondSlot *seconds, IobWorkerState *ws,
			 int sec, uint64 *ops, uint64 *bytes, uint64 *lat_sum_ns,
			 uint64 *lat_max_ns)
{
	uint32		closed;
	uint32		stored;
	bool		in_ring;
	int			kind;

	pg_atomic_write_u32(&ws->flushing, (uint32) sec + 1);
	pg_memory_barrier();
	closed = pg_atomic_read_u32(&run->seconds_drained);
	stored = pg_atomic_read_u32(&run->seconds_stored);
	in_ring = (uint32) sec >= closed && (uint32) sec < stored + IOB_SECOND_RING;
	for (kind = 0; kind < IOB_NUM_OP_KINDS; kind++)
	{
		if (ops[kind] == 0)
			continue;
		if (in_ring)
		{
			IobSecondSlot *slot = iob_second_slot(seconds, sec, (IobOpKind) kind);
			uint64		old_max;

			pg_atomic_fetch_add_u64(&slot->ops, ops[kind]);
			pg_atomic_fetch_add_u64(&slot->bytes, bytes[kind]);
			pg_atomic_fetch_add_u64(&slot->lat_sum_ns, lat_sum_ns[kind]);
			old_max = pg_atomic_read_u64(&slot->lat_max_ns);
			while (lat_max_ns[kind] > old_max &&
				   !pg_atomic_compare_exchange_u64(&slot->lat_max_ns, &old_max,
												   lat_max_ns[kind]))
				;
		}
		else
			add_late(ws, sec, kind, ops[kind], bytes[kind], lat_sum_ns[kind],
					 lat_max_ns[kind]);
		ops[kind] = bytes[kind] = lat_sum_ns[kind] = lat_max_ns[kind] = 0;
	}
	pg_memory_barrier();
	pg_atomic_write_u32(&ws->flushing, 0);
}

/* See second_ring.h */
void
iob_ring_reader_init(IobRingReader *rd, int nworkers)
{
	rd->taken = 0;
	rd->late_taken = palloc0(sizeof(uint64) * Max(nworkers, 1));
}

/* Append one row to a JSON array under construction */
static void
append_row(StringInfo rows, int w, uint64 n, int sec, int kind, uint64 ops,
		   uint64 bytes, uint64 lat_sum_ns, uint64 lat_max_ns)
{
	appendStringInfo(rows, "%s{\"w\": %d, \"n\": " UINT64_FORMAT ", \"second\": %d, "
					 "\"op\": \"%s\", \"ops\": " UINT64_FORMAT ", \"bytes\": " UINT64_FORMAT
					 ", \"lat_sum_us\": %.3f, \"lat_max_us\": %.3f}",
					 rows->len > 1 ? "," : "", w, n, sec, iob_op_names[kind], ops, bytes,
					 (double) lat_sum_ns / 1000.0, (double) lat_max_ns / 1000.0);
}

/* Append the non-empty op kinds of ring second "sec" */
static void
append_ring_second(StringInfo rows, IobSecondSlot *seconds, int sec)
{
	int			k;

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		IobSecondSlot *slot = iob_second_slot(seconds, sec, (IobOpKind) k);
		uint64		ops = pg_atomic_read_u64(&slot->ops);

		if (ops > 0)
			append_row(rows, -1, (uint64) sec, sec, k, ops,
					   pg_atomic_read_u64(&slot->bytes),
					   pg_atomic_read_u64(&slot->lat_sum_ns),
					   pg_atomic_read_u64(&slot->lat_max_ns));
	}
}

/*
 * Close every second that is due: every worker is past it (and steady-state
 * detection, when on, has looked at it), or it is too old to wait for.
 */
static void
close_seconds(IobRunShared *run, IobWorkerState *workers, int64 now, bool all)
{
	uint32		sec = pg_atomic_read_u32(&run->seconds_drained);
	int64		lag_s = IOB_SECOND_LATE_AFTER;

	while (sec < (uint32) run->nseconds)
	{
		bool		past = all;
		int			i;

		if (!past)
		{
			past = true;
			for (i = 0; i < run->params.workers; i++)
				if (pg_atomic_read_u32(&workers[i].seconds_done) <= sec)
					past = false;
			if (run->params.steady_state != IOB_STEADY_NONE &&
				pg_atomic_read_u32(&run->seconds_checked) <= sec)
				past = false;
			if (now >= run->measure_start_ns + (sec + 1 + lag_s) * IOB_NS_PER_SEC)
				past = true;
		}
		if (!past)
			break;
		sec++;
	}
	pg_atomic_write_u32(&run->seconds_drained, sec);
	pg_memory_barrier();
}

/* See second_ring.h */
void
iob_ring_take(IobRingReader *rd, IobRunShared *run, IobWorkerState *workers,
			  IobSecondSlot *seconds, int64 now, bool all, StringInfo rows)
{
	uint32		closed;
	int			i;

	close_seconds(run, workers, now, all);
	closed = pg_atomic_read_u32(&run->seconds_drained);
	while (rd->taken < closed)
	{
		bool		busy = false;

		for (i = 0; i < run->params.workers; i++)
			if (pg_atomic_read_u32(&workers[i].flushing) == rd->taken + 1)
				busy = true;
		if (busy)
			break;
		pg_read_barrier();
		append_ring_second(rows, seconds, (int) rd->taken);
		rd->taken++;
	}
	for (i = 0; i < run->params.workers; i++)
	{
		IobWorkerState *ws = &workers[i];
		uint64		head = pg_atomic_read_u64(&ws->late_head);

		pg_read_barrier();
		for (; rd->late_taken[i] < head; rd->late_taken[i]++)
		{
			IobLateSecond *e = &ws->late[rd->late_taken[i] % IOB_LATE_RING];

			append_row(rows, i, rd->late_taken[i], e->second, e->kind, e->ops,
					   e->bytes, e->lat_sum_ns, e->lat_max_ns);
		}
	}
}

/* See second_ring.h */
char *
iob_ring_late_text(IobRingReader *rd, int nworkers)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (i = 0; i < nworkers; i++)
		appendStringInfo(&buf, "%s" UINT64_FORMAT, i > 0 ? "," : "", rd->late_taken[i]);
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* See second_ring.h */
void
iob_ring_committed(IobRingReader *rd, IobRunShared *run, IobWorkerState *workers,
				   IobSecondSlot *seconds)
{
	uint32		sec;
	int			i;
	int			k;

	for (sec = pg_atomic_read_u32(&run->seconds_stored); sec < rd->taken; sec++)
		for (k = 0; k < IOB_NUM_OP_KINDS; k++)
		{
			IobSecondSlot *slot = iob_second_slot(seconds, (int) sec, (IobOpKind) k);

			pg_atomic_write_u64(&slot->ops, 0);
			pg_atomic_write_u64(&slot->bytes, 0);
			pg_atomic_write_u64(&slot->lat_sum_ns, 0);
			pg_atomic_write_u64(&slot->lat_max_ns, 0);
		}
	pg_write_barrier();
	pg_atomic_write_u32(&run->seconds_stored, rd->taken);
	for (i = 0; i < run->params.workers; i++)
		pg_atomic_write_u64(&workers[i].late_stored, rd->late_taken[i]);
}

/* See second_ring.h */
void
iob_ring_uncommitted(IobRingReader *rd, IobRunShared *run, IobWorkerState *workers)
{
	int			i;

	rd->taken = pg_atomic_read_u32(&run->seconds_stored);
	for (i = 0; i < run->params.workers; i++)
		rd->late_taken[i] = pg_atomic_read_u64(&workers[i].late_stored);
}

/* See second_ring.h */
char *
iob_ring_leftovers(shm_toc *toc, int nworkers, uint64 *lost_ops)
{
	IobRunShared *run = shm_toc_lookup(toc, IOB_KEY_RUN, false);
	IobWorkerState *workers = shm_toc_lookup(toc, IOB_KEY_WORKERS, false);
	IobSecondSlot *seconds = shm_toc_lookup(toc, IOB_KEY_SECONDS, false);
	uint32		stored = pg_atomic_read_u32(&run->seconds_stored);
	uint32		sec;
	StringInfoData rows;
	int			i;

	initStringInfo(&rows);
	appendStringInfoChar(&rows, '[');
	*lost_ops = 0;
	pg_read_barrier();
	/* a worker never adds a second beyond the free slots to the ring */
	for (sec = stored; sec < (uint32) run->nseconds && sec < stored + IOB_SECOND_RING; sec++)
		append_ring_second(&rows, seconds, (int) sec);
	for (i = 0; i < nworkers; i++)
	{
		IobWorkerState *ws = &workers[i];
		uint64		head = pg_atomic_read_u64(&ws->late_head);
		uint64		n = pg_atomic_read_u64(&ws->late_stored);

		pg_read_barrier();
		for (; n < head; n++)
		{
			IobLateSecond *e = &ws->late[n % IOB_LATE_RING];

			append_row(&rows, i, n, e->second, e->kind, e->ops, e->bytes,
					   e->lat_sum_ns, e->lat_max_ns);
		}
		*lost_ops += ws->lost_ops;
	}
	appendStringInfoChar(&rows, ']');
	return rows.data;
}
