/*-------------------------------------------------------------------------
 *
 * results.h
 *	  The results subsystem's public header: what a run leaves.
 *
 * A run's settings (run_params.h) and its record (run_record.h:
 * everything known about a run once its workers are gone), the latency
 * histograms it is measured in (histogram.h), and the writing of the
 * iobench.runs tables (run_store.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RESULTS_H
#define IOBENCH_RESULTS_H

#include "histogram.h"
#include "run_params.h"
#include "run_record.h"
#include "run_store.h"

#endif							/* IOBENCH_RESULTS_H */
