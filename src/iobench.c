/*-------------------------------------------------------------------------
 *
 * iobench.c
 *	  Entry point: module magic, _PG_init and the settings (GUCs).
 *
 * _PG_init defines the GUCs that belong to no single subsystem and calls
 * one init function per subsystem, then reserves the "iobench." prefix.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "iobench.h"
#include "wait_collector.h"

PG_MODULE_MAGIC;

bool		iobench_progress = true;
bool		iobench_force_psync = false;
int			iobench_max_workers_per_run = 64;

void		_PG_init(void);

/* Define the settings and initialise each subsystem */
void
_PG_init(void)
{
	DefineCustomBoolVariable("iobench.progress",
							 "Emits a progress NOTICE about once a second during a benchmark run.",
							 NULL,
							 &iobench_progress,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("iobench.force_psync",
							 "Treats io_uring as unavailable, so engine \"auto\" falls back to psync.",
							 "Meant for testing the fallback path.",
							 &iobench_force_psync,
							 false,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("iobench.max_workers_per_run",
							"Upper bound for the workers argument of a benchmark run.",
							"Each worker is a background worker process; the server's max_worker_processes also limits them.",
							&iobench_max_workers_per_run,
							64, 1, IOB_MAX_WORKERS_PER_RUN,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	iobench_waits_init();

	MarkGUCPrefixReserved("iobench");
}

/* Human-readable size, as pg_size_pretty() prints it */
char *
iob_size_pretty(int64 bytes)
{
	return text_to_cstring(DatumGetTextPP(DirectFunctionCall1(pg_size_pretty,
															  Int64GetDatum(bytes))));
}
