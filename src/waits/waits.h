/*-------------------------------------------------------------------------
 *
 * waits.h
 *	  The waits subsystem's public header: wait-event sampling and the SQL Server-style tables.
 *
 * What the other subsystems use of it: the always-on collector's start-up
 * (wait_collector.h, from _PG_init), and the samplers, timers and output
 * of a benchmark run's own waits (run/wait_run.c): wait_sampler.h,
 * wait_timer.h, wait_exact.h, wait_output.h.  wait_table.h and
 * wait_backend_type.h stay inside.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAITS_H
#define IOBENCH_WAITS_H

#include "wait_collector.h"
#include "wait_exact.h"
#include "wait_output.h"
#include "wait_sampler.h"
#include "wait_timer.h"

#endif							/* IOBENCH_WAITS_H */
