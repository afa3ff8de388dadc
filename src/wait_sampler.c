/*-------------------------------------------------------------------------
 *
 * wait_sampler.c
 *	  Wait-event sampling shared by sample_waits(), the run launcher and the
 *	  always-on collector.
 *
 * A tick walks ProcGlobal->allProcs (MaxBackends + auxiliary processes +
 * prepared-transaction dummies) without taking any lock: wait_event_info
 * and pid are single aligned 32-bit fields that their owner writes with a
 * plain store, exactly what pg_stat_activity reads.  For every live process
 * it reads the second field of /proc/<pid>/schedstat (run_delay: time spent
 * runnable but not running) with pread() on a descriptor held per PGPROC
 * slot, reopened when the pid in the slot changes.  A held descriptor of a
 * process that has exited answers ESRCH, so a recycled pid cannot mislead
 * it.
 *
 * The interval (t[k-1], t[k]] of a process is attributed to the state seen
 * at t[k-1], with the real length of the interval as weight, together with
 * the run_delay increase over that interval (the signal time).  When the
 * state at t[k-1] was "not waiting", a run_delay increase is time the
 * process was preempted while on CPU work; it goes to CPU:Preempted.  An
 * interval counts only when the same process is there at both ends; the
 * last interval of a process that exits is lost (sampling is a lower bound
 * for short-lived processes anyway).
 *
 * Schedstat is read when a process's state changed since the previous tick,
 * and otherwise at least every IOB_SCHEDSTAT_MAX_DEFER_NS: while the state
 * stays the same every interval belongs to it, so the increase can be read
 * later in one piece with the same result, for a fraction of the reads.
 * iob_wait_sampler_flush() reads what is pending at the end of a window;
 * processes named with iob_wait_sampler_read_always() are read at every
 * tick, so nothing of theirs is pending when they exit.
 * iob_wait_sampler_close() ends a window at a given time, for callers that
 * cannot tick at the very end.
 *
 * Nothing is allocated on the tick path: the per-slot state, the delta
 * buffer and the table are sized when the sampler is created.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/timerfd.h>
#endif

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/wait_event.h"

#include "compat.h"
#include "engine.h"
#include "owner_spi.h"
#include "wait_collector.h"
#include "wait_sampler.h"

/*
 * Longest time a process's schedstat reading may be put off while its state
 * does not change: bounds how stale the signal time of the collector's
 * totals can be, and what is lost when a process exits in between.
 */
#define IOB_SCHEDSTAT_MAX_DEFER_NS	(UINT64CONST(50) * 1000000)

/* What a sampler remembers about the process in one PGPROC slot */
typedef struct IobProcSlot
{
	int			pid;			/* process seen at the previous tick; 0 = none */
	int			fd;				/* held /proc/<pid>/schedstat, or -1 */
	uint64		key;			/* its state at the previous tick; 0 = not waiting */
	uint64		run_delay;		/* run_delay at the last reading (fd >= 0) */
	uint64		read_ns;		/* time of the last reading */
	bool		preempted;		/* runnable outside waits in the last interval */
	bool		read_always;	/* read at every tick, never put off */
} IobProcSlot;

struct IobWaitSampler
{
	MemoryContext cxt;			/* holds the sampler; deleting it cleans up */
	MemoryContextCallback cleanup;
	int			nprocs;			/* slots: ProcGlobal->allProcCount */
	IobProcSlot *slots;
	bool	   *followed;		/* slots[i].pid != 0, packed: a tick looks at
								 * this rather than at every slot */
	int		   *pids;			/* sorted set of pids to sample, or NULL */
	int			npids;
	int		   *always_pids;	/* sorted set of pids read at every tick */
	int			nalways;
	bool		have_schedstat; /* /proc/self/schedstat exists */

	int			period_ms;
	uint64		period_ns;
	uint64		first_ns;		/* time of the first tick; 0 = none yet */
	uint64		last_ns;		/* time of the previous tick */
	uint64		next_due_ns;	/* schedule when no timer descriptor is used */
	uint64		ticks;			/* ticks taken after the first */
	uint64		missed;			/* scheduled ticks that were skipped */

	IobWaitDelta *deltas;		/* the last tick's deltas */
	int			ndeltas;
	int			maxdeltas;

	IobWaitTable *table;		/* totals of this sampler's own ticks */

	/* set up by the first iob_wait_sampler_sleep() */
	WaitEventSet *wes;
	int			timerfd;		/* periodic timer, or -1 */
};

/* ----------------------------------------------------------------
 * Tables
 * ----------------------------------------------------------------
 */

/* Index slots for a capacity: a power of two, at least twice the capacity */
static int
iob_wait_table_nslots(int capacity)
{
	int			nslots = 16;

	while (nslots < 2 * capacity)
		nslots <<= 1;
	return nslots;
}

/* Bytes needed by a table of "capacity" entries, header included */
Size
iob_wait_table_size(int capacity)
{
	Size		size;

	size = MAXALIGN(sizeof(IobWaitTable));
	size = add_size(size, MAXALIGN(mul_size(sizeof(IobWaitEntry), capacity)));
	size = add_size(size, mul_size(sizeof(int32),
								   iob_wait_table_nslots(capacity)));
	return size;
}

/* The entry array that follows the header */
IobWaitEntry *
iob_wait_table_entries(IobWaitTable *table)
{
	return (IobWaitEntry *) ((char *) table + MAXALIGN(sizeof(IobWaitTable)));
}

/* The index that follows the entries */
static inline int32 *
iob_wait_table_index(IobWaitTable *table)
{
	return (int32 *) ((char *) iob_wait_table_entries(table) +
					  MAXALIGN(sizeof(IobWaitEntry) * table->capacity));
}

/* Set up an empty table in a block of iob_wait_table_size(capacity) bytes */
void
iob_wait_table_init(IobWaitTable *table, int capacity)
{
	table->capacity = capacity;
	table->nslots = iob_wait_table_nslots(capacity);
	iob_wait_table_clear(table);
}

/* Forget every entry and the overflow */
void
iob_wait_table_clear(IobWaitTable *table)
{
	int32	   *index = iob_wait_table_index(table);
	int			i;

	for (i = 0; i < table->nslots; i++)
		index[i] = -1;
	table->nentries = 0;
	table->overflow_deltas = 0;
	memset(&table->overflow, 0, sizeof(IobWaitEntry));
	table->overflow.key = IOB_KEY_OVERFLOW;
}

/* Hash of a key (both halves matter: flavours share wait_event_info 0) */
static inline uint32
iob_wait_key_hash(uint64 key)
{
	return murmurhash32(IOB_WAIT_KEY_INFO(key) ^
						(IOB_WAIT_KEY_FLAVOUR(key) * 0x9E3779B9U));
}

/*
 * The entry of a key, created if there is room; NULL when the table is
 * full.  Linear probing over at most twice as many slots as entries, so a
 * free slot always exists and probes stay short.
 */
static IobWaitEntry *
iob_wait_table_lookup(IobWaitTable *table, uint64 key)
{
	IobWaitEntry *entries = iob_wait_table_entries(table);
	int32	   *index = iob_wait_table_index(table);
	uint32		mask = table->nslots - 1;
	uint32		pos = iob_wait_key_hash(key) & mask;

	for (;;)
	{
		int32		e = index[pos];

		if (e < 0)
			break;
		if (entries[e].key == key)
			return &entries[e];
		pos = (pos + 1) & mask;
	}

	if (table->nentries >= table->capacity)
		return NULL;

	index[pos] = table->nentries;
	memset(&entries[table->nentries], 0, sizeof(IobWaitEntry));
	entries[table->nentries].key = key;
	return &entries[table->nentries++];
}

/* Add a tick's deltas to a table; keys that find no room go to overflow */
void
iob_wait_table_apply(IobWaitTable *table, const IobWaitDelta *deltas,
					 int ndeltas)
{
	int			i;

	for (i = 0; i < ndeltas; i++)
	{
		const IobWaitDelta *d = &deltas[i];
		IobWaitEntry *e = iob_wait_table_lookup(table, d->key);

		if (e == NULL)
		{
			e = &table->overflow;
			table->overflow_deltas++;
		}
		e->wait_ns += d->wait_ns;
		if (d->signal_known)
			e->signal_ns += d->signal_ns;
		else
			e->nosignal_ns += d->wait_ns;
		e->count += d->entries;
	}
}

/* The name of a key as the tables show it: "type:event" */
void
iob_wait_key_name(uint64 key, char *buf, size_t buflen)
{
	uint32		info = IOB_WAIT_KEY_INFO(key);

	switch (IOB_WAIT_KEY_FLAVOUR(key))
	{
		case IOB_FLAVOUR_PLAIN:
			{
				const char *type = pgstat_get_wait_event_type(info);
				const char *event = pgstat_get_wait_event(info);

				snprintf(buf, buflen, "%s:%s",
						 type ? type : "Unknown", event ? event : "unknown");
				break;
			}
		case IOB_FLAVOUR_IN_XACT:
			snprintf(buf, buflen, "Client:ClientRead (idle in transaction)");
			break;
		case IOB_FLAVOUR_PREEMPTED:
			snprintf(buf, buflen, "CPU:Preempted");
			break;
		case IOB_FLAVOUR_PLANTED:
			snprintf(buf, buflen, "Test:Planted%u", info);
			break;
		case IOB_FLAVOUR_OVERFLOW:
			snprintf(buf, buflen, "Overflow:OtherWaitTypes");
			break;
		default:
			snprintf(buf, buflen, "Unknown:0x%08x", info);
			break;
	}
}

/* Append one entry to a tuplestore of iobench.wait_raw rows */
static void
iob_wait_put_entry(const IobWaitEntry *e, Tuplestorestate *tupstore,
				   TupleDesc tupdesc)
{
	Datum		values[6];
	bool		nulls[6];
	char		name[IOB_WAIT_NAME_LEN];

	memset(nulls, 0, sizeof(nulls));
	iob_wait_key_name(e->key, name, sizeof(name));
	values[0] = CStringGetTextDatum(name);
	values[1] = Float8GetDatum(e->wait_ns / 1e9);
	/* Signal time is unknown, not zero, when part of the wait had no reading */
	if (e->nosignal_ns > 0)
		nulls[2] = true;
	else
		values[2] = Float8GetDatum(e->signal_ns / 1e9);
	values[3] = Int64GetDatum((int64) e->count);
	nulls[4] = true;			/* exact_count */
	nulls[5] = true;			/* exact_wait_s */
	tuplestore_putvalues(tupstore, tupdesc, values, nulls);
}

/*
 * Append a table's rows (iobench.wait_raw: wait_type, wait_s, signal_s,
 * wait_count, exact_count, exact_wait_s) to a tuplestore.  The caller
 * passes a private copy when the table is shared: names are resolved here.
 */
void
iob_wait_table_put_rows(const IobWaitTable *table, Tuplestorestate *tupstore,
						TupleDesc tupdesc)
{
	IobWaitEntry *entries = iob_wait_table_entries((IobWaitTable *) table);
	int			i;

	for (i = 0; i < table->nentries; i++)
		iob_wait_put_entry(&entries[i], tupstore, tupdesc);
	if (table->overflow_deltas > 0)
		iob_wait_put_entry(&table->overflow, tupstore, tupdesc);
}

/* ----------------------------------------------------------------
 * Per-process state
 * ----------------------------------------------------------------
 */

/*
 * Read run_delay (ns) through a held schedstat descriptor.  Returns 0, or
 * the errno value (ESRCH: the process has exited).
 */
static int
iob_read_run_delay(int fd, uint64 *run_delay)
{
	char		buf[96];
	ssize_t		n;
	char	   *p;
	uint64		v = 0;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return errno;
	buf[n] = '\0';

	/* "<on-cpu ns> <run_delay ns> <timeslices>\n" */
	p = buf;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != ' ')
		return EINVAL;
	p++;
	if (*p < '0' || *p > '9')
		return EINVAL;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	*run_delay = v;
	return 0;
}

/* Close a slot's descriptor and forget its process */
static void
iob_slot_release(IobProcSlot *slot)
{
	if (slot->fd >= 0)
	{
		close(slot->fd);
		ReleaseExternalFD();
	}
	slot->fd = -1;
	slot->pid = 0;
	slot->key = 0;
	slot->preempted = false;
}

/* Is pid in a sorted set of npids pids? */
static inline bool
iob_pid_in(const int *pids, int npids, int pid)
{
	int			lo = 0,
				hi = npids - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (pids[mid] == pid)
			return true;
		if (pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

/*
 * Start following a new process in a slot: open its schedstat and read the
 * baseline.  Without a descriptor (no schedstat, or the descriptor budget
 * that fd.c grants is spent) its signal time stays unknown.
 */
static void
iob_slot_attach(IobWaitSampler *s, IobProcSlot *slot, int pid, uint64 key)
{
	char		path[64];

	slot->pid = pid;
	slot->key = key;
	slot->preempted = false;
	slot->read_always = iob_pid_in(s->always_pids, s->nalways, pid);
	slot->fd = -1;

	if (!s->have_schedstat || !AcquireExternalFD())
		return;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	slot->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (slot->fd < 0)
	{
		ReleaseExternalFD();
		return;
	}
	slot->read_ns = (uint64) iob_now_ns();
	if (iob_read_run_delay(slot->fd, &slot->run_delay) != 0)
	{
		close(slot->fd);
		ReleaseExternalFD();
		slot->fd = -1;
	}
}

/* Key of a process's current state; 0 when it is not waiting */
static inline uint64
iob_classify(PGPROC *proc, uint32 info)
{
	if (info == 0)
		return 0;

	/*
	 * ClientRead of a session inside a transaction block is not idle: the
	 * session holds its locks and snapshot while the client thinks.  The
	 * local transaction id is set from transaction start to end, and read
	 * here without a lock like wait_event_info (a torn view is impossible
	 * for an aligned 32-bit field; a stale one costs one sample).
	 */
	if (info == WAIT_EVENT_CLIENT_READ &&
		*(volatile LocalTransactionId *) &IOB_PROC_LXID(proc) != InvalidLocalTransactionId)
		return IOB_WAIT_KEY(IOB_FLAVOUR_IN_XACT, info);

	return IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, info);
}

/* ----------------------------------------------------------------
 * Samplers
 * ----------------------------------------------------------------
 */

/* Memory-context callback: give back descriptors when the sampler goes */
static void
iob_wait_sampler_cleanup(void *arg)
{
	IobWaitSampler *s = (IobWaitSampler *) arg;
	int			i;

	for (i = 0; i < s->nprocs; i++)
		iob_slot_release(&s->slots[i]);
	if (s->wes != NULL)
		FreeWaitEventSet(s->wes);
	s->wes = NULL;
	if (s->timerfd >= 0)
	{
		close(s->timerfd);
		ReleaseExternalFD();
	}
	s->timerfd = -1;
}

/* Ascending int comparator for qsort */
static int
iob_cmp_int(const void *a, const void *b)
{
	int			x = *(const int *) a;
	int			y = *(const int *) b;

	return (x > y) - (x < y);
}

/* A sorted copy of a set of pids, in CurrentMemoryContext */
static int *
iob_sorted_pids(const int *pids, int npids)
{
	int		   *copy = palloc(sizeof(int) * Max(npids, 1));

	if (npids > 0)
		memcpy(copy, pids, sizeof(int) * npids);
	qsort(copy, npids, sizeof(int), iob_cmp_int);
	return copy;
}

/*
 * Create a sampler in a new child of CurrentMemoryContext.  pids/npids
 * restrict it to those processes (NULL: the whole instance, except the
 * caller and other iobench samplers).  capacity bounds its own table.
 * Deleting the parent context (an error, the end of the query) closes
 * every descriptor it holds.
 */
IobWaitSampler *
iob_wait_sampler_create(const int *pids, int npids, int period_ms,
						int capacity)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	IobWaitSampler *s;
	int			i;

	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"iobench wait sampler",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);

	s = palloc0(sizeof(IobWaitSampler));
	s->cxt = cxt;
	s->timerfd = -1;
	s->nprocs = ProcGlobal->allProcCount;
	s->slots = palloc0(sizeof(IobProcSlot) * s->nprocs);
	s->followed = palloc0(sizeof(bool) * s->nprocs);
	for (i = 0; i < s->nprocs; i++)
		s->slots[i].fd = -1;
	if (pids != NULL)
	{
		s->npids = npids;
		s->pids = iob_sorted_pids(pids, npids);
	}
	s->have_schedstat = iobench_sample_signal &&
		access("/proc/self/schedstat", R_OK) == 0;
	iob_wait_sampler_set_period(s, period_ms);

	/* at most two deltas per process: its last interval and an entry */
	s->maxdeltas = 2 * s->nprocs;
	s->deltas = palloc(sizeof(IobWaitDelta) * s->maxdeltas);

	s->table = palloc(iob_wait_table_size(capacity));
	iob_wait_table_init(s->table, capacity);

	s->cleanup.func = iob_wait_sampler_cleanup;
	s->cleanup.arg = s;
	MemoryContextRegisterResetCallback(cxt, &s->cleanup);

	MemoryContextSwitchTo(oldcxt);
	return s;
}

/* Close everything the sampler holds and free it */
void
iob_wait_sampler_destroy(IobWaitSampler *sampler)
{
	MemoryContextDelete(sampler->cxt);
}

/*
 * Read the schedstat of these processes at every tick instead of putting it
 * off while their state stays the same: nothing of theirs is pending when
 * they exit, which a benchmark run's workers do right after the end of the
 * window.  Costs one read per process and tick; meant for a few processes.
 * Call before the first tick.
 */
void
iob_wait_sampler_read_always(IobWaitSampler *s, const int *pids, int npids)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(s->cxt);

	Assert(s->first_ns == 0);
	s->nalways = npids;
	s->always_pids = iob_sorted_pids(pids, npids);
	MemoryContextSwitchTo(oldcxt);
}

/* Change the period (the timer, when armed, follows at its next wait) */
void
iob_wait_sampler_set_period(IobWaitSampler *s, int period_ms)
{
	Assert(period_ms >= 1);
	s->period_ms = period_ms;
	s->period_ns = (uint64) period_ms * 1000000;
	if (s->last_ns != 0)
		s->next_due_ns = s->last_ns + s->period_ns;
#ifdef __linux__
	if (s->timerfd >= 0)
	{
		struct itimerspec its;

		its.it_interval.tv_sec = period_ms / 1000;
		its.it_interval.tv_nsec = (long) (period_ms % 1000) * 1000000;
		its.it_value = its.it_interval;
		if (timerfd_settime(s->timerfd, 0, &its, NULL) != 0)
			elog(ERROR, "timerfd_settime failed: %m");
	}
#endif
}

/* Whether the sampler reads schedstat (signal time known) */
bool
iob_wait_sampler_has_schedstat(IobWaitSampler *sampler)
{
	return sampler->have_schedstat;
}

/* The period in milliseconds */
int
iob_wait_sampler_period_ms(IobWaitSampler *sampler)
{
	return sampler->period_ms;
}

/*
 * A process outside any wait got a run_delay increase: it was preempted
 * while on CPU work.  Emit it as CPU:Preempted (Wait_S = Signal_S); an
 * entry is counted when the previous interval had no such delay.
 */
static void
iob_emit_preempted(IobWaitSampler *s, IobProcSlot *slot, uint64 rd)
{
	IobWaitDelta *d;

	if (rd <= slot->run_delay)
	{
		slot->preempted = false;
		return;
	}
	d = &s->deltas[s->ndeltas++];
	d->key = IOB_KEY_PREEMPTED;
	d->wait_ns = rd - slot->run_delay;
	d->signal_ns = d->wait_ns;
	d->signal_known = true;
	d->entries = slot->preempted ? 0 : 1;
	slot->preempted = true;
}

/*
 * Count an observed entry into the wait of key (nothing for "not waiting"
 * or the sampler's own wait event).  A process seen for the first time
 * while it already waits counts too: the sampler saw that wait, and a
 * session that connects and blocks at once would otherwise never count.
 */
static inline void
iob_emit_entry(IobWaitSampler *s, uint64 key)
{
	IobWaitDelta *d;

	if (key == 0 || key == IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, IOB_SAMPLER_WAIT_EVENT))
		return;
	d = &s->deltas[s->ndeltas++];
	d->key = key;
	d->wait_ns = 0;
	d->signal_ns = 0;
	d->signal_known = true;
	d->entries = 1;
}

/*
 * Credit an interval of dt ns that just ended to the state the process was
 * seen in at the previous tick: its wait, with the run_delay increase as
 * signal time (known when schedstat covers it, now or in one piece at a
 * later reading), or CPU:Preempted when it was runnable outside any wait.
 * The sampler's own wait event is never credited.
 */
static void
iob_emit_interval(IobWaitSampler *s, IobProcSlot *slot, uint64 dt,
				  uint64 rd, bool rd_known)
{
	if (slot->key != 0 &&
		slot->key != IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, IOB_SAMPLER_WAIT_EVENT))
	{
		IobWaitDelta *d = &s->deltas[s->ndeltas++];

		d->key = slot->key;
		d->wait_ns = dt;
		d->signal_known = (slot->fd >= 0);
		d->signal_ns = rd_known ? rd - slot->run_delay : 0;
		d->entries = 0;
		slot->preempted = false;
	}
	else if (slot->key == 0 && rd_known)
		iob_emit_preempted(s, slot, rd);
}

/*
 * Read the schedstat of every process whose reading was put off and add
 * the signal time to the sampler's own table: call after the last tick of
 * a window, so nothing is left pending.
 */
void
iob_wait_sampler_flush(IobWaitSampler *s)
{
	int			i;

	s->ndeltas = 0;
	for (i = 0; i < s->nprocs; i++)
	{
		IobProcSlot *slot = &s->slots[i];
		uint64		rd;

		if (slot->pid == 0 || slot->fd < 0 || slot->read_ns >= s->last_ns)
			continue;
		if (iob_read_run_delay(slot->fd, &rd) != 0)
			continue;
		slot->read_ns = s->last_ns;
		if (slot->key != 0 &&
			slot->key != IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, IOB_SAMPLER_WAIT_EVENT))
		{
			IobWaitDelta *d = &s->deltas[s->ndeltas++];

			d->key = slot->key;
			d->wait_ns = 0;
			d->signal_ns = rd - slot->run_delay;
			d->signal_known = true;
			d->entries = 0;
		}
		else if (slot->key == 0)
			iob_emit_preempted(s, slot, rd);
		slot->run_delay = rd;
	}
	iob_wait_table_apply(s->table, s->deltas, s->ndeltas);
	s->ndeltas = 0;
}

/*
 * Take one sample now: read every wanted PGPROC and turn the interval
 * since the previous tick into deltas (see iob_wait_sampler_deltas()).
 * The first tick only sets baselines.  Returns the number of deltas.
 */
int
iob_wait_sampler_tick(IobWaitSampler *s)
{
	uint64		now = (uint64) iob_now_ns();
	uint64		dt = (s->last_ns != 0 && now > s->last_ns) ? now - s->last_ns : 0;
	int			n = Min(s->nprocs, (int) ProcGlobal->allProcCount);
	int			mine = (MyProc != NULL) ? GetNumberFromPGProc(MyProc) : -1;
	int			i;

	s->ndeltas = 0;

	for (i = 0; i < n; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		IobProcSlot *slot = &s->slots[i];
		int			pid;
		uint32		info;
		uint64		key;
		uint64		rd = 0;
		bool		rd_known = false;

		pid = *(volatile int *) &proc->pid;
		if (pid == 0 || i == mine ||
			(s->pids != NULL && !iob_pid_in(s->pids, s->npids, pid)))
		{
			if (s->followed[i])
			{
				iob_slot_release(slot);
				s->followed[i] = false;
			}
			continue;
		}
		s->followed[i] = true;

		info = *(volatile uint32 *) &proc->wait_event_info;
		key = iob_classify(proc, info);

		if (slot->pid != pid)
		{
			/* a new process in this slot: start following it */
			iob_slot_release(slot);
			iob_slot_attach(s, slot, pid, key);
			iob_emit_entry(s, key);
			continue;
		}

		/*
		 * Read schedstat when the state changed, or when the last reading is
		 * getting old.  While the state stays the same, every interval since
		 * the last reading belongs to that state, so the run_delay increase
		 * can be read later in one piece and attributed the same way; this
		 * saves most reads of idle processes.
		 */
		if (slot->fd >= 0 &&
			(key != slot->key || slot->read_always ||
			 now - slot->read_ns >= IOB_SCHEDSTAT_MAX_DEFER_NS))
		{
			int			err = iob_read_run_delay(slot->fd, &rd);

			if (err == 0)
			{
				rd_known = true;
				slot->read_ns = now;
			}
			else if (err == ESRCH)
			{
				/* the process we held exited; another reuses its pid */
				iob_slot_release(slot);
				iob_slot_attach(s, slot, pid, key);
				iob_emit_entry(s, key);
				continue;
			}
			else
			{
				/* unreadable from now on: its signal time is unknown */
				close(slot->fd);
				ReleaseExternalFD();
				slot->fd = -1;
			}
		}

		/* the interval belongs to the state seen at the previous tick */
		iob_emit_interval(s, slot, dt, rd, rd_known);

		/* an observed entry into a wait */
		if (key != slot->key)
			iob_emit_entry(s, key);

		if (rd_known)
			slot->run_delay = rd;
		slot->key = key;
	}

	if (s->first_ns == 0)
		s->first_ns = now;
	else
		s->ticks++;

	/* without a timer, count the ticks the schedule skipped */
	if (s->timerfd < 0)
	{
		if (s->next_due_ns != 0 && now >= s->next_due_ns + s->period_ns)
		{
			uint64		skipped = (now - s->next_due_ns) / s->period_ns;

			s->missed += skipped;
			s->next_due_ns += skipped * s->period_ns;
		}
		if (s->next_due_ns == 0 || now >= s->next_due_ns)
			s->next_due_ns = (s->next_due_ns == 0 ? now : s->next_due_ns) +
				s->period_ns;
	}
	s->last_ns = now;
	return s->ndeltas;
}

/*
 * End the window at end_ns (an iob_now_ns() time, not after now), for
 * callers that cannot be sure to tick at the very end of their window: the
 * run launcher stops waiting as soon as its workers are done, which may be
 * before it wakes for a last tick, and a run may be cancelled.  Do not tick
 * afterwards.
 *
 * The interval from the previous tick to end_ns is attributed to the state
 * seen at that tick, as a tick would, and every followed process's
 * schedstat is read once more, so nothing is pending.  Unlike a tick, the
 * interval also counts for a process that has left since: the window is
 * closed late, when a run's workers, which stop at end_ns, may have exited;
 * another process that left within the interval gets less than one period
 * too much, where a tick would give it too little.  A process that has left
 * cannot be read any more, and the signal time of its last interval is
 * missing (less than one period; nothing older is missing for processes
 * named with iob_wait_sampler_read_always()).  A reading taken after end_ns
 * is capped at the time from the previous reading to end_ns.  No entries
 * are counted and no new process is followed.
 */
void
iob_wait_sampler_close(IobWaitSampler *s, uint64 end_ns)
{
	uint64		now = (uint64) iob_now_ns();
	uint64		dt;
	int			i;

	if (s->first_ns == 0)
		return;					/* no tick, no window */
	end_ns = Min(end_ns, now);
	dt = (end_ns > s->last_ns) ? end_ns - s->last_ns : 0;

	s->ndeltas = 0;
	for (i = 0; i < s->nprocs; i++)
	{
		IobProcSlot *slot = &s->slots[i];
		uint64		rd = 0;
		bool		rd_known = false;

		if (slot->pid == 0)
			continue;

		/* the held descriptor reads this process, or fails once it is gone */
		if (slot->fd >= 0 && iob_read_run_delay(slot->fd, &rd) == 0)
		{
			uint64		span = (end_ns > slot->read_ns) ? end_ns - slot->read_ns : 0;

			rd = Max(rd, slot->run_delay);
			rd = Min(rd, slot->run_delay + span);
			rd_known = true;
		}

		iob_emit_interval(s, slot, dt, rd, rd_known);

		if (rd_known)
		{
			slot->run_delay = rd;
			slot->read_ns = end_ns;
		}
	}
	iob_wait_table_apply(s->table, s->deltas, s->ndeltas);
	s->ndeltas = 0;

	if (dt == 0)
		return;
	s->ticks++;
	/* without a timer, count the ticks the schedule skipped, as a tick does */
	if (s->timerfd < 0 && s->next_due_ns != 0 &&
		end_ns >= s->next_due_ns + s->period_ns)
		s->missed += (end_ns - s->next_due_ns) / s->period_ns;
	s->last_ns = end_ns;
}

/* The deltas of the last tick */
const IobWaitDelta *
iob_wait_sampler_deltas(IobWaitSampler *s, int *ndeltas)
{
	*ndeltas = s->ndeltas;
	return s->deltas;
}

/*
 * Set up the wait: the latch, postmaster death and, on Linux, a periodic
 * timer descriptor so ticks land on a fixed schedule that does not drift
 * and late wake-ups are counted exactly (a timer read returns how many
 * periods have passed).
 */
static void
iob_wait_sampler_setup_wait(IobWaitSampler *s)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(s->cxt);

#ifdef __linux__
	if (AcquireExternalFD())
	{
		s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (s->timerfd < 0)
			ReleaseExternalFD();
	}
#endif
	s->wes = CreateWaitEventSet(NULL, 3);
	AddWaitEventToSet(s->wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(s->wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	if (s->timerfd >= 0)
	{
		AddWaitEventToSet(s->wes, WL_SOCKET_READABLE, s->timerfd, NULL, NULL);
		iob_wait_sampler_set_period(s, s->period_ms);
	}
	MemoryContextSwitchTo(oldcxt);
}

/* Milliseconds until the next tick is due (0: due now) */
long
iob_wait_sampler_timeout_ms(IobWaitSampler *s)
{
	uint64		now = (uint64) iob_now_ns();

	if (s->last_ns == 0 || now >= s->next_due_ns)
		return 0;
	return (long) ((s->next_due_ns - now + 999999) / 1000000);
}

/*
 * Sleep until the next tick is due or the latch is set.  Returns true when
 * a tick is due; false when woken by the latch (the caller checks for
 * interrupts and calls again).  Exits if the postmaster dies.
 */
bool
iob_wait_sampler_sleep(IobWaitSampler *s)
{
	WaitEvent	ev;
	int			rc;

	if (s->wes == NULL)
		iob_wait_sampler_setup_wait(s);

	if (s->timerfd >= 0)
	{
		rc = WaitEventSetWait(s->wes, -1, &ev, 1, IOB_SAMPLER_WAIT_EVENT);
		if (rc > 0 && (ev.events & WL_LATCH_SET))
		{
			ResetLatch(MyLatch);
			return false;
		}
		if (rc > 0 && (ev.events & WL_SOCKET_READABLE))
		{
			uint64		expirations = 0;

			if (read(s->timerfd, &expirations, sizeof(expirations)) ==
				sizeof(expirations) && expirations > 1)
				s->missed += expirations - 1;
			return true;
		}
		return false;
	}

	rc = WaitEventSetWait(s->wes, iob_wait_sampler_timeout_ms(s), &ev, 1,
						  IOB_SAMPLER_WAIT_EVENT);
	if (rc > 0 && (ev.events & WL_LATCH_SET))
	{
		ResetLatch(MyLatch);
		return false;
	}
	return iob_wait_sampler_timeout_ms(s) == 0;
}

/*
 * For callers with a wait loop of their own (the run launcher): take a
 * tick if one is due and add it to the sampler's table.  Call it on every
 * iteration and bound the loop's sleep by iob_wait_sampler_timeout_ms().
 * Returns true if a tick was taken.
 */
bool
iob_wait_sampler_poll(IobWaitSampler *s)
{
	int			n;

	if (s->last_ns != 0 && iob_wait_sampler_timeout_ms(s) > 0)
		return false;
	n = iob_wait_sampler_tick(s);
	iob_wait_table_apply(s->table, s->deltas, n);
	return true;
}

/*
 * Sample for duration_us into the sampler's own table, from this backend.
 * Honours cancel and statement_timeout (CHECK_FOR_INTERRUPTS between
 * ticks).
 */
void
iob_wait_sampler_run(IobWaitSampler *s, int64 duration_us)
{
	uint64		duration_ns = (uint64) duration_us * 1000;
	int			n;

	n = iob_wait_sampler_tick(s);
	iob_wait_table_apply(s->table, s->deltas, n);

	for (;;)
	{
		bool		due = iob_wait_sampler_sleep(s);

		CHECK_FOR_INTERRUPTS();
		if (!due)
			continue;
		n = iob_wait_sampler_tick(s);
		iob_wait_table_apply(s->table, s->deltas, n);
		if (s->last_ns - s->first_ns >= duration_ns)
			break;
	}
	iob_wait_sampler_flush(s);
}

/* The sampler's own table */
IobWaitTable *
iob_wait_sampler_table(IobWaitSampler *s)
{
	return s->table;
}

/* Ticks taken and skipped, and the time the ticks covered */
void
iob_wait_sampler_counts(IobWaitSampler *s, uint64 *ticks, uint64 *missed,
						uint64 *sampled_ns)
{
	*ticks = s->ticks;
	*missed = s->missed;
	*sampled_ns = (s->first_ns != 0) ? s->last_ns - s->first_ns : 0;
}

/*
 * Store the sampler's table as the wait statistics of a run, with the
 * exact figures the caller measured beside the sampled ones (wait types
 * the sampler never saw get a row of their own).  Uses SPI; the caller is
 * in a transaction, and iobench.runs has the run.
 */
void
iob_wait_sampler_store_run(IobWaitSampler *s, int64 run_id,
						   const IobWaitExact *exact, int nexact)
{
	IobWaitTable *t = s->table;
	IobWaitEntry *entries = iob_wait_table_entries(t);
	int			nrows = t->nentries + 1 + nexact;
	Datum	   *names = palloc(sizeof(Datum) * nrows);
	Datum	   *wait_s = palloc(sizeof(Datum) * nrows);
	Datum	   *signal_s = palloc(sizeof(Datum) * nrows);
	bool	   *signal_null = palloc0(sizeof(bool) * nrows);
	Datum	   *counts = palloc(sizeof(Datum) * nrows);
	Datum	   *exact_count = palloc(sizeof(Datum) * nrows);
	Datum	   *exact_s = palloc(sizeof(Datum) * nrows);
	bool	   *exact_null = palloc(sizeof(bool) * nrows);
	Datum		args[7];
	Oid			argtypes[7] = {INT8OID, TEXTARRAYOID, FLOAT8ARRAYOID,
		FLOAT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, FLOAT8ARRAYOID};
	Datum		sargs[6];
	Oid			stypes[6] = {INT8OID, INT4OID, INT8OID, INT8OID, FLOAT8OID, TEXTOID};
	char		name[IOB_WAIT_NAME_LEN];
	int			n = 0;
	int			i,
				j;
	int			ret;
	uint64		ticks,
				missed,
				sampled_ns;
	IobOwnerScope scope;

	for (i = 0; i <= t->nentries; i++)
	{
		IobWaitEntry *e = (i < t->nentries) ? &entries[i] : &t->overflow;

		if (i == t->nentries && t->overflow_deltas == 0)
			break;
		iob_wait_key_name(e->key, name, sizeof(name));
		names[n] = CStringGetTextDatum(name);
		wait_s[n] = Float8GetDatum(e->wait_ns / 1e9);
		signal_s[n] = Float8GetDatum(e->signal_ns / 1e9);
		signal_null[n] = (e->nosignal_ns > 0);
		counts[n] = Int64GetDatum((int64) e->count);
		exact_null[n] = true;
		exact_count[n] = exact_s[n] = (Datum) 0;
		for (j = 0; j < nexact; j++)
		{
			if (e->key == IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, exact[j].wait_event_info))
			{
				exact_null[n] = false;
				exact_count[n] = Int64GetDatum((int64) exact[j].count);
				exact_s[n] = Float8GetDatum(exact[j].sum_ns / 1e9);
			}
		}
		n++;
	}
	for (j = 0; j < nexact; j++)
	{
		uint64		key = IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, exact[j].wait_event_info);
		bool		seen = false;

		for (i = 0; i < t->nentries; i++)
			if (entries[i].key == key)
				seen = true;
		if (seen || exact[j].count == 0)
			continue;
		iob_wait_key_name(key, name, sizeof(name));
		names[n] = CStringGetTextDatum(name);
		wait_s[n] = Float8GetDatum(0.0);
		signal_s[n] = Float8GetDatum(0.0);
		signal_null[n] = !s->have_schedstat;
		counts[n] = Int64GetDatum(0);
		exact_null[n] = false;
		exact_count[n] = Int64GetDatum((int64) exact[j].count);
		exact_s[n] = Float8GetDatum(exact[j].sum_ns / 1e9);
		n++;
	}

	iob_wait_sampler_counts(s, &ticks, &missed, &sampled_ns);

	/*
	 * Write as the owner of the iobench schema, as the run itself is stored
	 * (results.c): users who may run benchmarks cannot write the result
	 * tables directly.  Every name in the statements is schema-qualified.
	 */
	iob_owner_begin(&scope);

	if (n > 0)
	{
		args[0] = Int64GetDatum(run_id);
		args[1] = iob_array_datum(names, NULL, n, TEXTOID);
		args[2] = iob_array_datum(wait_s, NULL, n, FLOAT8OID);
		args[3] = iob_array_datum(signal_s, signal_null, n, FLOAT8OID);
		args[4] = iob_array_datum(counts, NULL, n, INT8OID);
		args[5] = iob_array_datum(exact_count, exact_null, n, INT8OID);
		args[6] = iob_array_datum(exact_s, exact_null, n, FLOAT8OID);

		/* rows of one name (extension wait events share one) are summed */
		ret = SPI_execute_with_args("INSERT INTO iobench.run_waits "
									"(run_id, wait_type, wait_s, signal_s, wait_count, "
									" exact_count, exact_wait_s) "
									"SELECT $1, u.n, pg_catalog.sum(u.w), "
									"       CASE WHEN pg_catalog.count(u.s) = pg_catalog.count(*) "
									"            THEN pg_catalog.sum(u.s) END, "
									"       pg_catalog.sum(u.c), pg_catalog.sum(u.ec), pg_catalog.sum(u.es) "
									"FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), "
									"               pg_catalog.unnest($4), pg_catalog.unnest($5), "
									"               pg_catalog.unnest($6), pg_catalog.unnest($7)) "
									"     AS u(n, w, s, c, ec, es) "
									"GROUP BY u.n",
									7, argtypes, args, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "could not store the wait statistics of run " INT64_FORMAT ": %s",
				 run_id, SPI_result_code_string(ret));
	}

	sargs[0] = Int64GetDatum(run_id);
	sargs[1] = Int32GetDatum(s->period_ms);
	sargs[2] = Int64GetDatum((int64) ticks);
	sargs[3] = Int64GetDatum((int64) missed);
	sargs[4] = Float8GetDatum(sampled_ns / 1e9);
	sargs[5] = CStringGetTextDatum(s->pids != NULL ? "workers" : "instance");
	ret = SPI_execute_with_args("INSERT INTO iobench.run_wait_sampling "
								"(run_id, period_ms, ticks, missed_ticks, sampled_s, scope) "
								"VALUES ($1, $2, $3, $4, $5, $6)",
								6, stypes, sargs, NULL, false, 0);
	if (ret != SPI_OK_INSERT)
		elog(ERROR, "could not store the wait sampling of run " INT64_FORMAT ": %s",
			 run_id, SPI_result_code_string(ret));

	iob_owner_end(&scope);
}
