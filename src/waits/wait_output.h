/*-------------------------------------------------------------------------
 *
 * wait_output.h
 *	  Wait statistics, layer 4: a wait table as SQL, the rows of type
 *	  iobench.wait_raw that every SQL wait function returns, and the
 *	  storage of a run's table in iobench.run_waits and
 *	  iobench.run_wait_sampling (through owner_spi.h, the one path iobench
 *	  writes SQL by).  See wait_table.h for the layers.
 *
 * Beside the sampled figures a row can carry exact ones, where something
 * counted every wait: iobench's workers time each of their I/Os, and
 * PostgreSQL counts data-file reads and WAL writes and syncs
 * (wait_exact.h).  Wait types with exact figures that the sampler never
 * saw get a row of their own.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAIT_OUTPUT_H
#define IOBENCH_WAIT_OUTPUT_H

#include "postgres.h"

#include "funcapi.h"
#include "utils/tuplestore.h"

#include "wait_table.h"

/* Longest name iob_wait_key_name() produces, with the terminator */
#define IOB_WAIT_NAME_LEN		128

/*
 * What a run of engine "postgres" adds to the wait type of the server's
 * I/O workers' rows (iobench.run_waits), keeping them apart from the run's
 * own workers' rows; iobench.wait_table_all() leaves such rows out of the
 * Percentage base (wait_run.c has the rule).
 */
#define IOB_IO_WORKER_LABEL		" (io worker)"

/* Exact figures of one wait event over the sampled window */
typedef struct IobWaitExact
{
	uint32		wait_event_info;
	uint64		count;			/* waits counted */
	uint64		sum_ns;			/* their summed time, when time_known */
	bool		time_known;		/* false: counted but not timed */
} IobWaitExact;

/* How a run's waits were sampled (iobench.run_wait_sampling) */
typedef struct IobWaitSampling
{
	int			period_ms;
	uint64		ticks;
	uint64		missed;
	uint64		sampled_ns;
	const char *scope;			/* "workers" or "instance" */
	bool		io_workers_apart;	/* I/O workers' rows labelled, see
									 * IOB_IO_WORKER_LABEL */
} IobWaitSampling;

extern void iob_wait_key_name(uint64 key, char *buf, size_t buflen);
extern const char *iob_wait_key_backend_type(uint64 key);
extern void iob_wait_put_rows(const IobWaitTable *table, bool have_schedstat,
							  const IobWaitExact *exact, int nexact,
							  Tuplestorestate *tupstore, TupleDesc tupdesc);
extern void iob_wait_store_run(const IobWaitTable *table, bool have_schedstat,
							   const IobWaitExact *exact, int nexact,
							   int64 run_id, const IobWaitSampling *sampling);

#endif							/* IOBENCH_WAIT_OUTPUT_H */
