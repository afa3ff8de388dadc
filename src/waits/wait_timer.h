/*-------------------------------------------------------------------------
 *
 * wait_timer.h
 *	  Wait statistics, layer 3: the periodic schedule of a sampler's ticks,
 *	  and the count of the ticks it had to skip (see wait_table.h for the
 *	  layers).
 *
 * Two ways to use it:
 *	- a loop of its own (a window, the collector): iob_wait_timer_sleep()
 *	  until a tick is due (or iob_wait_timer_sleep_plain(), for a process
 *	  that needs no latch); on Linux a timerfd keeps the ticks on a fixed
 *	  schedule that does not drift, and counts late wake-ups exactly;
 *	- inside someone else's loop (a run's launcher): tick when
 *	  iob_wait_timer_timeout_ms() is 0 and bound the loop's sleep by it.
 * Either way, call iob_wait_timer_ticked() after each tick.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_TIMER_H
#define IOBENCH_WAIT_TIMER_H

#include "postgres.h"

typedef struct IobWaitTimer IobWaitTimer;

extern IobWaitTimer *iob_wait_timer_create(int period_ms);
extern void iob_wait_timer_destroy(IobWaitTimer *timer);
extern void iob_wait_timer_set_period(IobWaitTimer *timer, int period_ms);
extern int	iob_wait_timer_period_ms(IobWaitTimer *timer);
extern bool iob_wait_timer_sleep(IobWaitTimer *timer);
extern bool iob_wait_timer_sleep_plain(IobWaitTimer *timer);
extern long iob_wait_timer_timeout_ms(IobWaitTimer *timer);
extern void iob_wait_timer_ticked(IobWaitTimer *timer, uint64 at_ns);
extern void iob_wait_timer_closed(IobWaitTimer *timer, uint64 end_ns);
extern uint64 iob_wait_timer_missed(IobWaitTimer *timer);

#endif							/* IOBENCH_WAIT_TIMER_H */
