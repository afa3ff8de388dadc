/*-------------------------------------------------------------------------
 *
 * wait_sampler.c
 *	  The tick: what every PGPROC waits on, weighted by real time and split
 *	  with Linux schedstat, as deltas for a wait table (see wait_sampler.h).
 *
 * A tick walks ProcGlobal->allProcs (MaxBackends + auxiliary processes +
 * prepared-transaction dummies) without taking any lock: wait_event_info
 * and pid are single aligned 32-bit fields that their owner writes with a
 * plain store, exactly what pg_stat_activity reads.  For every live process
 * it reads the second field of /proc/<pid>/schedstat (run_delay: time spent
 * runnable but not running) with pread() on a descriptor held per PGPROC
 * slot, reopened when the pid in the slot changes.  A held descriptor of a
 * process that has exited answers ESRCH, so a recycled pid cannot mislead
 * it.  Only some ticks look at every slot: the others look at the slots of
 * the processes they follow and of the auxiliary processes, since a new
 * process takes its PGPROC from a free list, which those ticks watch (see
 * IOB_FULL_SCAN_MAX_NS).
 *
 * The interval (t[k-1], t[k]] of a process is attributed to the state seen
 * at t[k-1], with the real length of the interval as weight, together with
 * the run_delay increase over that interval (the signal time).  When the
 * state at t[k-1] was "not waiting", a run_delay increase is time the
 * process was preempted while on CPU work; it goes to CPU:Preempted.  An
 * interval counts only when the same process is there at both ends; the
 * last interval of a process that exits is lost (sampling is a lower bound
 * for short-lived processes anyway).  An entry into a wait is counted when
 * a process is seen in a wait it was not in at the previous tick, or in a
 * wait when it is seen for the first time.
 *
 * Schedstat is read when a process's state changed since the previous tick,
 * and otherwise at least every IOB_SCHEDSTAT_MAX_DEFER_NS (outside waits) or
 * IOB_SCHEDSTAT_MAX_DEFER_WAIT_NS (in one wait): while the state
 * stays the same every interval belongs to it, so the increase can be read
 * later in one piece with the same result, for a fraction of the reads.
 * iob_wait_sampler_flush() reads what is pending at the end of a window;
 * processes named with iob_wait_sampler_read_always() are read at every
 * tick, so nothing of theirs is pending when they exit.
 * iob_wait_sampler_close() ends a window at a given time, for callers that
 * cannot tick at the very end.
 *
 * Nothing is allocated on the tick path: the per-slot state and the delta
 * buffer are sized when the sampler is created.
 *
 * The tick and the static helpers it calls per process (schedstat reads,
 * the deltas it emits, the free-list fingerprint) are in this file so that
 * they inline into the collector's hot loop.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/proc.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "wait_backend_type.h"
#include "wait_sampler.h"

/*
 * Longest time a process's schedstat reading may be put off while its state
 * does not change: bounds how stale the signal time of the collector's
 * totals can be, and what is lost when a process exits in between.  A
 * process outside any wait is on a CPU or runnable, and its preemption
 * (CPU:Preempted) grows all the time: 50 ms.  A process that stays in one
 * wait is asleep, and its run_delay grows only when it is woken, which
 * nearly always changes its state and so reads it at once: one second,
 * which keeps the reads of a thousand idle sessions at about one per tick.
 */
#define IOB_SCHEDSTAT_MAX_DEFER_NS	(UINT64CONST(50) * 1000000)
#define IOB_SCHEDSTAT_MAX_DEFER_WAIT_NS	(UINT64CONST(1000) * 1000000)

/*
 * Longest time between two ticks that look at every PGPROC slot.  The other
 * ticks look only at the slots of the processes already followed and of the
 * auxiliary processes (which take no PGPROC from a free list): a new
 * process takes its PGPROC from a free list, so a tick looks at every slot
 * when a free list changed, and at each tick within IOB_FULL_SCAN_SETTLE_NS
 * after (a process sets its pid shortly after taking its PGPROC).  The
 * bound catches the one start a free list can hide, a PGPROC taken while
 * others were taken and given back in the same period.  Most slots of a
 * large max_connections are free, and reading each one's pid (a cache line
 * apiece, a page for every few) is most of a scan 10 ms after the last.
 */
#define IOB_FULL_SCAN_MAX_NS	(UINT64CONST(100) * 1000000)
#define IOB_FULL_SCAN_SETTLE_NS	(UINT64CONST(10) * 1000000)

/* The sampler's own wait event, as a key: never credited */
#define IOB_KEY_SAMPLER		IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, IOB_SAMPLER_WAIT_EVENT)
/* iobench's launcher and recorder waiting on a run (base/settings.h): the same */
#define IOB_KEY_RUN			IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, IOB_RUN_WAIT_EVENT)

/* Is key a wait of iobench's own, which no table counts? */
#define IOB_KEY_IS_OWN(key) \
	(IOB_WAIT_KEY_EVENT(key) == IOB_KEY_SAMPLER || IOB_WAIT_KEY_EVENT(key) == IOB_KEY_RUN)

/*
 * The sampler's wait event (see wait_sampler.h), registered on first use in
 * each process where releases name them (compat.h).
 */
uint32
iob_sampler_wait_event(void)
{
	static uint32 event = 0;

	if (event == 0)
		event = iob_wait_event_extension("IobenchSampler", 0x10BE);
	return event;
}

/* The free lists of PGPROCs as iob_free_list_print() sees them */
#define IOB_FREE_LIST_WORDS		8
typedef struct IobFreeListPrint
{
	uintptr_t	word[IOB_FREE_LIST_WORDS];
} IobFreeListPrint;

/* What a sampler remembers about the process in one PGPROC slot */
typedef struct IobProcSlot
{
	int			pid;			/* process seen at the previous tick; 0 = none */
	int			fd;				/* held /proc/<pid>/schedstat, or -1 */
	uint64		key;			/* its state at the previous tick; 0 = not waiting */
	int			btype;			/* its backend type; 0 (B_INVALID) = unknown */
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
	int			also_btype;		/* and every process of this backend type
								 * (0: none), see iob_wait_sampler_add_type() */
	bool		have_schedstat; /* /proc/self/schedstat exists */

	int			aux_first;		/* slots of the auxiliary processes: */
	int			aux_end;		/* [aux_first, aux_end) */
	IobFreeListPrint free_lists;	/* the free lists at the last tick */
	uint64		settle_ns;		/* look at every slot until this time */
	int			settle_ticks;	/* and at this many more ticks at least */
	uint64		full_scan_ns;	/* last tick that looked at every slot */

	uint64		first_ns;		/* time of the first tick; 0 = none yet */
	uint64		last_ns;		/* time of the previous tick */
	uint64		ticks;			/* ticks taken after the first */

	IobWaitDelta *deltas;		/* the last tick's deltas */
	int			ndeltas;
	int			maxdeltas;
};

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
	slot->btype = 0;
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
iob_slot_attach(IobWaitSampler *s, IobProcSlot *slot, int pid, uint64 key,
				int btype)
{
	char		path[64];

	slot->pid = pid;
	slot->key = key;
	slot->btype = btype;
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

/*
 * The pid of the process that uses a PGPROC, 0 when none does.  Before 17,
 * ProcKill() leaves an exited backend's pid in its PGPROC and only disowns
 * the latch, so an unowned latch marks a free slot too (on every release:
 * one load of the same PGPROC).  Following such a slot would read a dead
 * or recycled pid: no schedstat, an unknown backend type that sends the
 * backend type lookup back to the status snapshot, or another process's
 * preemption counted a second time.
 */
static inline int
iob_proc_pid(PGPROC *proc)
{
	int			pid = *(volatile int *) &proc->pid;

	if (pid != 0 && *(volatile int *) &proc->procLatch.owner_pid == 0)
		return 0;
	return pid;
}

/*
 * Key of a process's current state, with its backend type; 0 when it is
 * not waiting
 */
static inline uint64
iob_classify(PGPROC *proc, uint32 info, int btype)
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
		return IOB_WAIT_KEY_WITH_BTYPE(IOB_WAIT_KEY(IOB_FLAVOUR_IN_XACT, info), btype);

	return IOB_WAIT_KEY_WITH_BTYPE(IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, info), btype);
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
 * caller and other iobench samplers).
 * Deleting the parent context (an error, the end of the query) closes
 * every descriptor it holds.
 */
IobWaitSampler *
iob_wait_sampler_create(const int *pids, int npids)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	IobWaitSampler *s;
	int			i;

	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"iobench wait sampler",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);

	/*
	 * registers the sampler's wait event and the runs' now, not in the
	 * middle of a tick
	 */
	(void) IOB_SAMPLER_WAIT_EVENT;
	(void) IOB_RUN_WAIT_EVENT;

	s = palloc0(sizeof(IobWaitSampler));
	s->cxt = cxt;
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
	s->aux_first = Min(MaxBackends, s->nprocs);
	s->aux_end = Min(MaxBackends + NUM_AUXILIARY_PROCS, s->nprocs);
	s->have_schedstat = iobench_sample_signal &&
		access("/proc/self/schedstat", R_OK) == 0;

	/* at most two deltas per process: its last interval and an entry */
	s->maxdeltas = 2 * s->nprocs;
	s->deltas = palloc(sizeof(IobWaitDelta) * s->maxdeltas);

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

/*
 * Sample every process of backend type btype too, beside the pids the
 * sampler is restricted to: a run of engine "postgres" has the server's
 * I/O workers do its reads.  Only where the type is read directly from
 * shared memory (IOB_HAVE_PROC_BACKEND_TYPE, compat.h), which costs one
 * load per process; the type is read for processes outside the pids only
 * when a tick looks at their slot (every tick for auxiliary processes, such
 * as I/O workers, and the full scans for the others), so a tick stays
 * bounded by the slots it looks at anyway.  Call before the first tick.
 */
void
iob_wait_sampler_add_type(IobWaitSampler *s, int btype)
{
	Assert(s->first_ns == 0);
#ifdef IOB_HAVE_PROC_BACKEND_TYPE
	s->also_btype = btype;
#endif
}

/* Whether the sampler reads schedstat (signal time known) */
bool
iob_wait_sampler_has_schedstat(IobWaitSampler *sampler)
{
	return sampler->have_schedstat;
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
	d->key = IOB_WAIT_KEY_WITH_BTYPE(IOB_KEY_PREEMPTED, slot->btype);
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

	if (key == 0 || IOB_KEY_IS_OWN(key))
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
static pg_attribute_always_inline void
iob_emit_interval(IobWaitSampler *s, IobProcSlot *slot, uint64 dt,
				  uint64 rd, bool rd_known)
{
	if (slot->key != 0 &&
		!IOB_KEY_IS_OWN(slot->key))
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
 * the signal time as deltas (iob_wait_sampler_deltas()): call after the
 * last tick of a window, so nothing is left pending.  Returns the number
 * of deltas.
 */
int
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
			!IOB_KEY_IS_OWN(slot->key))
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
	return s->ndeltas;
}

/*
 * Read a followed process's schedstat if it is due: when its state
 * changed, or when the last reading is getting old.  While the state stays
 * the same, every interval since the last reading belongs to that state,
 * so the run_delay increase can be read later in one piece and attributed
 * the same way; this saves most reads of idle processes.  Sets *rd_known
 * when *rd was read.  Returns false when the process held has exited (and
 * another one reuses its pid).
 */
static inline bool
iob_slot_read(IobProcSlot *slot, uint64 key, uint64 now, uint64 *rd,
			  bool *rd_known)
{
	int			err;

	*rd_known = false;
	if (slot->fd < 0 ||
		(key == slot->key && !slot->read_always &&
		 now - slot->read_ns < (key != 0 ? IOB_SCHEDSTAT_MAX_DEFER_WAIT_NS :
								IOB_SCHEDSTAT_MAX_DEFER_NS)))
		return true;

	err = iob_read_run_delay(slot->fd, rd);
	if (err == 0)
	{
		*rd_known = true;
		slot->read_ns = now;
	}
	else if (err == ESRCH)
		return false;
	else
	{
		/* unreadable from now on: its signal time is unknown */
		close(slot->fd);
		ReleaseExternalFD();
		slot->fd = -1;
	}
	return true;
}

/*
 * A fingerprint of the four free lists of PGPROCs that changes when a
 * process takes a PGPROC from one of them (a tick scans every slot only
 * then).  Dlists (IOB_HAVE_FREE_PROCS_DLIST, compat.h), taken from the head
 * and given back at the tail: their heads and tails.  Stacks linked through
 * links.next: the top two entries of each.  Read without ProcStructLock:
 * aligned pointers, and every entry is a PGPROC, so a stale one is still
 * one to read.
 */
static inline void
iob_free_list_print(IobFreeListPrint *print)
{
#ifdef IOB_HAVE_FREE_PROCS_DLIST
	dlist_head *lists[4] = {&ProcGlobal->freeProcs, &ProcGlobal->autovacFreeProcs,
	&ProcGlobal->bgworkerFreeProcs, &ProcGlobal->walsenderFreeProcs};

	for (int i = 0; i < 4; i++)
	{
		print->word[2 * i] = (uintptr_t) *(dlist_node *volatile *) &lists[i]->head.next;
		print->word[2 * i + 1] = (uintptr_t) *(dlist_node *volatile *) &lists[i]->head.prev;
	}
#else
	PGPROC	  **lists[4] = {&ProcGlobal->freeProcs, &ProcGlobal->autovacFreeProcs,
	&ProcGlobal->bgworkerFreeProcs, &ProcGlobal->walsenderFreeProcs};

	for (int i = 0; i < 4; i++)
	{
		PGPROC	   *top = *(PGPROC *volatile *) lists[i];

		print->word[2 * i] = (uintptr_t) top;
		print->word[2 * i + 1] = top == NULL ? 0 :
			(uintptr_t) *(SHM_QUEUE *volatile *) &top->links.next;
	}
#endif
}

/*
 * Whether this tick looks at every PGPROC slot (see IOB_FULL_SCAN_MAX_NS):
 * when a free list changed since the last tick, at the next tick and any
 * other within the settling time after, and at least every
 * IOB_FULL_SCAN_MAX_NS.  The first tick does.
 */
static inline bool
iob_full_scan_due(IobWaitSampler *s, uint64 now)
{
	IobFreeListPrint print;

	iob_free_list_print(&print);
	if (memcmp(&print, &s->free_lists, sizeof(print)) != 0)
	{
		s->free_lists = print;
		s->settle_ns = now + IOB_FULL_SCAN_SETTLE_NS;
		s->settle_ticks = 2;	/* this tick and the next, at least */
	}
	if (s->settle_ticks > 0)
		s->settle_ticks--;
	else if (now > s->settle_ns && now - s->full_scan_ns < IOB_FULL_SCAN_MAX_NS)
		return false;
	s->full_scan_ns = now;
	return true;
}

/*
 * Take one sample now: read every wanted PGPROC and turn the interval
 * since the previous tick into deltas (see iob_wait_sampler_deltas()).
 * The first tick sets baselines and counts the waits it finds.  Returns
 * the number of deltas.
 *
 * This is the collector's hot loop over every PGPROC, which keeps what it
 * reads in locals the stores cannot alias (see the comment at the loop);
 * each step of one process is a helper (iob_slot_read(),
 * iob_emit_interval(), iob_emit_entry()).
 */
int
iob_wait_sampler_tick(IobWaitSampler *s)
{
	uint64		now = (uint64) iob_now_ns();
	uint64		dt = (s->last_ns != 0 && now > s->last_ns) ? now - s->last_ns : 0;
	int			n = Min(s->nprocs, (int) ProcGlobal->allProcCount);
	int			mine = (MyProc != NULL) ? GetNumberFromPGProc(MyProc) : -1;
	PGPROC	   *procs = ProcGlobal->allProcs;
	IobProcSlot *slots = s->slots;
	bool	   *followed = s->followed;
	const int  *pids = s->pids;
	int			npids = s->npids;
	int			also_btype = s->also_btype;
	bool		full = iob_full_scan_due(s, now);
	int			aux_first = s->aux_first;
	int			aux_end = s->aux_end;
	int			i;

	s->ndeltas = 0;

	/*
	 * Most slots of a large max_connections are empty: a tick that need not
	 * look at every slot passes theirs on the "followed" flag alone, and a
	 * full one tests them with one load of the pid; everything else is in
	 * locals the stores below cannot alias.
	 */
	for (i = 0; i < n; i++)
	{
		PGPROC	   *proc = &procs[i];
		IobProcSlot *slot;
		int			pid;
		uint32		info;
		uint64		key;
		int			btype;
		uint64		rd = 0;
		bool		rd_known = false;

		if (!full && !followed[i] && (i < aux_first || i >= aux_end))
			continue;
		pid = iob_proc_pid(proc);
		if (pid == 0 || i == mine ||
			(pids != NULL && !iob_pid_in(pids, npids, pid) &&
			 (also_btype == 0 ||
			  iob_wait_backend_type(proc, i, pid, 0, false, now) != also_btype)))
		{
			if (followed[i])
			{
				iob_slot_release(&slots[i]);
				followed[i] = false;
			}
			continue;
		}
		followed[i] = true;
		slot = &slots[i];

		info = *(volatile uint32 *) &proc->wait_event_info;
		btype = iob_wait_backend_type(proc, i, pid,
									  slot->pid == pid ? slot->btype : 0,
									  slot->pid != pid ||
									  IOB_WAIT_KEY_INFO(slot->key) != info,
									  now);
		key = iob_classify(proc, info, btype);

		/* a new process in this slot (or its pid reused): follow it */
		if (slot->pid != pid || !iob_slot_read(slot, key, now, &rd, &rd_known))
		{
			iob_slot_release(slot);
			iob_slot_attach(s, slot, pid, key, btype);
			iob_emit_entry(s, key);
			continue;
		}

		/* the interval belongs to the state seen at the previous tick */
		iob_emit_interval(s, slot, dt, rd, rd_known);

		/*
		 * an observed entry into a wait (not a backend type that became
		 * known while the process stayed in its wait)
		 */
		if (IOB_WAIT_KEY_EVENT(key) != IOB_WAIT_KEY_EVENT(slot->key))
			iob_emit_entry(s, key);

		if (rd_known)
			slot->run_delay = rd;
		slot->key = key;
		slot->btype = btype;
	}

	if (s->first_ns == 0)
		s->first_ns = now;
	else
		s->ticks++;
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
 * are counted and no new process is followed.  Returns the number of
 * deltas (iob_wait_sampler_deltas()).
 */
int
iob_wait_sampler_close(IobWaitSampler *s, uint64 end_ns)
{
	uint64		now = (uint64) iob_now_ns();
	uint64		dt;
	int			i;

	s->ndeltas = 0;
	if (s->first_ns == 0)
		return 0;				/* no tick, no window */
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

	if (dt > 0)
	{
		s->ticks++;
		s->last_ns = end_ns;
	}
	return s->ndeltas;
}

/* The deltas of the last tick */
const IobWaitDelta *
iob_wait_sampler_deltas(IobWaitSampler *s, int *ndeltas)
{
	*ndeltas = s->ndeltas;
	return s->deltas;
}

/*
 * Ticks taken after the first, the time they covered, and the time of the
 * last one (0 before the first)
 */
void
iob_wait_sampler_counts(IobWaitSampler *s, uint64 *ticks, uint64 *sampled_ns,
						uint64 *last_ns)
{
	*ticks = s->ticks;
	*sampled_ns = (s->first_ns != 0) ? s->last_ns - s->first_ns : 0;
	*last_ns = s->last_ns;
}

/* Whether the sampler is restricted to a set of pids (scope "workers") */
bool
iob_wait_sampler_restricted(IobWaitSampler *s)
{
	return s->pids != NULL;
}
