/*-------------------------------------------------------------------------
 *
 * wait_timer.c
 *	  The periodic schedule of a sampler's ticks (see wait_timer.h).
 *
 * With a timerfd (Linux, once the timer has slept), the kernel keeps the
 * schedule and a read returns how many periods have passed, so skipped
 * ticks are counted exactly.  Without one, the schedule is kept here: the
 * next tick is due one period after the previous due time, and the periods
 * a late tick skipped are counted.
 *
 * Two ways to sleep.  iob_wait_timer_sleep() waits in a WaitEventSet (the
 * latch, postmaster death and the timer), so a backend answers a cancel at
 * once.  iob_wait_timer_sleep_plain() blocks in a read of the timer alone:
 * one system call per tick instead of two (epoll_wait, then the read that
 * clears the timer), for the collector, whose only interrupts are its own
 * SIGTERM and SIGHUP flags, seen at the next tick.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>
#ifdef __linux__
#include <sys/timerfd.h>
#endif

#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/pmsignal.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "wait_sampler.h"
#include "wait_timer.h"

struct IobWaitTimer
{
	MemoryContext cxt;			/* holds the timer; deleting it cleans up */
	MemoryContextCallback cleanup;
	int			period_ms;
	uint64		period_ns;
	uint64		last_ns;		/* time of the previous tick; 0 = none yet */
	uint64		next_due_ns;	/* schedule when no timer descriptor is used */
	uint64		missed;			/* scheduled ticks that were skipped */

	/* set up by the first sleep */
	WaitEventSet *wes;
	int			timerfd;		/* periodic timer, or -1 */
	bool		blocking;		/* timerfd reads block (plain sleeps) */
};

/* Memory-context callback: close the timer descriptor and the wait set */
static void
iob_wait_timer_cleanup(void *arg)
{
	IobWaitTimer *t = (IobWaitTimer *) arg;

	if (t->wes != NULL)
		FreeWaitEventSet(t->wes);
	t->wes = NULL;
	if (t->timerfd >= 0)
	{
		close(t->timerfd);
		ReleaseExternalFD();
	}
	t->timerfd = -1;
}

/*
 * A timer of period_ms in a new child of CurrentMemoryContext; deleting
 * the parent (an error, the end of the query) closes its descriptor.
 */
IobWaitTimer *
iob_wait_timer_create(int period_ms)
{
	MemoryContext cxt;
	IobWaitTimer *t;

	cxt = AllocSetContextCreate(CurrentMemoryContext, "iobench wait timer",
								ALLOCSET_SMALL_SIZES);
	t = MemoryContextAllocZero(cxt, sizeof(IobWaitTimer));
	t->cxt = cxt;
	t->timerfd = -1;
	iob_wait_timer_set_period(t, period_ms);
	t->cleanup.func = iob_wait_timer_cleanup;
	t->cleanup.arg = t;
	MemoryContextRegisterResetCallback(cxt, &t->cleanup);
	return t;
}

/* Close everything the timer holds and free it */
void
iob_wait_timer_destroy(IobWaitTimer *t)
{
	MemoryContextDelete(t->cxt);
}

/* Change the period (an armed timer descriptor follows at once) */
void
iob_wait_timer_set_period(IobWaitTimer *t, int period_ms)
{
	Assert(period_ms >= 1);
	t->period_ms = period_ms;
	t->period_ns = (uint64) period_ms * 1000000;
	if (t->last_ns != 0)
		t->next_due_ns = t->last_ns + t->period_ns;
#ifdef __linux__
	if (t->timerfd >= 0)
	{
		struct itimerspec its;

		its.it_interval.tv_sec = period_ms / 1000;
		its.it_interval.tv_nsec = (long) (period_ms % 1000) * 1000000;
		its.it_value = its.it_interval;
		if (timerfd_settime(t->timerfd, 0, &its, NULL) != 0)
			elog(ERROR, "timerfd_settime failed: %m");
	}
#endif
}

/* The period in milliseconds */
int
iob_wait_timer_period_ms(IobWaitTimer *t)
{
	return t->period_ms;
}

/*
 * Set up the wait: the latch, postmaster death and, on Linux, a periodic
 * timer descriptor so ticks land on a fixed schedule that does not drift
 * and late wake-ups are counted exactly (a timer read returns how many
 * periods have passed).  blocking: reads of the timer descriptor block
 * (iob_wait_timer_sleep_plain()).
 */
static void
iob_wait_timer_setup_wait(IobWaitTimer *t, bool blocking)
{
#ifdef __linux__
	if (AcquireExternalFD())
	{
		t->timerfd = timerfd_create(CLOCK_MONOTONIC,
									(blocking ? 0 : TFD_NONBLOCK) | TFD_CLOEXEC);
		if (t->timerfd < 0)
			ReleaseExternalFD();
		else
			t->blocking = blocking;
	}
#endif
	t->wes = CreateWaitEventSet(NULL, 3);
	AddWaitEventToSet(t->wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(t->wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	if (t->timerfd >= 0)
	{
		AddWaitEventToSet(t->wes, WL_SOCKET_READABLE, t->timerfd, NULL, NULL);
		iob_wait_timer_set_period(t, t->period_ms);
	}
}

/* Milliseconds until the next tick is due (0: due now) */
long
iob_wait_timer_timeout_ms(IobWaitTimer *t)
{
	uint64		now = (uint64) iob_now_ns();

	if (t->last_ns == 0 || now >= t->next_due_ns)
		return 0;
	return (long) ((t->next_due_ns - now + 999999) / 1000000);
}

/*
 * Sleep until the next tick is due or the latch is set, reporting the
 * samplers' own wait event.  Returns true when a tick is due; false when
 * woken by the latch (the caller checks for interrupts and calls again).
 * Exits if the postmaster dies.
 */
bool
iob_wait_timer_sleep(IobWaitTimer *t)
{
	WaitEvent	ev;
	int			rc;

	if (t->wes == NULL)
		iob_wait_timer_setup_wait(t, false);
	Assert(!t->blocking);

	if (t->timerfd >= 0)
	{
		rc = WaitEventSetWait(t->wes, -1, &ev, 1, IOB_SAMPLER_WAIT_EVENT);
		if (rc > 0 && (ev.events & WL_LATCH_SET))
		{
			ResetLatch(MyLatch);
			return false;
		}
		if (rc > 0 && (ev.events & WL_SOCKET_READABLE))
		{
			uint64		expirations = 0;

			if (read(t->timerfd, &expirations, sizeof(expirations)) ==
				sizeof(expirations) && expirations > 1)
				t->missed += expirations - 1;
			return true;
		}
		return false;
	}

	rc = WaitEventSetWait(t->wes, iob_wait_timer_timeout_ms(t), &ev, 1,
						  IOB_SAMPLER_WAIT_EVENT);
	if (rc > 0 && (ev.events & WL_LATCH_SET))
	{
		ResetLatch(MyLatch);
		return false;
	}
	return iob_wait_timer_timeout_ms(t) == 0;
}

/*
 * Sleep until the next tick is due in a blocking read of the timer
 * descriptor, reporting the samplers' own wait event.  Signal handlers run
 * during the sleep but do not end it (PostgreSQL installs them with
 * SA_RESTART): their flags are seen when the next tick is due, at most a
 * period later.  Exits if the postmaster has died.  Returns true when a
 * tick is due.  Without a timer descriptor, the same as
 * iob_wait_timer_sleep().  Use one way of sleeping per timer.
 */
bool
iob_wait_timer_sleep_plain(IobWaitTimer *t)
{
	uint64		expirations = 0;
	ssize_t		n;

	if (t->wes == NULL)
		iob_wait_timer_setup_wait(t, true);
	if (!t->blocking)
		return iob_wait_timer_sleep(t);

	pgstat_report_wait_start(IOB_SAMPLER_WAIT_EVENT);
	n = read(t->timerfd, &expirations, sizeof(expirations));
	pgstat_report_wait_end();
	if (!PostmasterIsAlive())
		proc_exit(1);
	if (n != sizeof(expirations))
		return false;			/* EINTR: the caller looks at its flags */
	if (expirations > 1)
		t->missed += expirations - 1;
	return true;
}

/*
 * A tick was taken at at_ns: without a timer descriptor, advance the
 * schedule and count the ticks it skipped.
 */
void
iob_wait_timer_ticked(IobWaitTimer *t, uint64 at_ns)
{
	if (t->timerfd < 0)
	{
		if (t->next_due_ns != 0 && at_ns >= t->next_due_ns + t->period_ns)
		{
			uint64		skipped = (at_ns - t->next_due_ns) / t->period_ns;

			t->missed += skipped;
			t->next_due_ns += skipped * t->period_ns;
		}
		if (t->next_due_ns == 0 || at_ns >= t->next_due_ns)
			t->next_due_ns = (t->next_due_ns == 0 ? at_ns : t->next_due_ns) +
				t->period_ns;
	}
	t->last_ns = at_ns;
}

/*
 * The window was closed at end_ns (iob_wait_sampler_close()): count the
 * ticks the schedule skipped up to then, as a tick does.
 */
void
iob_wait_timer_closed(IobWaitTimer *t, uint64 end_ns)
{
	if (t->timerfd < 0 && t->next_due_ns != 0 &&
		end_ns >= t->next_due_ns + t->period_ns)
		t->missed += (end_ns - t->next_due_ns) / t->period_ns;
}

/* Scheduled ticks that were skipped */
uint64
iob_wait_timer_missed(IobWaitTimer *t)
{
	return t->missed;
}
