/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  The iobench.* settings (GUCs), defined in one place, and the custom
 *	  wait event iobench's own waits are reported under.
 *
 * iob_define_settings() defines every iobench.* setting; _PG_init
 * (iobench.c) calls it first, then each subsystem's init.  settings.h
 * declares the variables so that every file reads them under one name.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc.h"

#include "compat.h"
#include "settings.h"

bool		iobench_progress = true;
bool		iobench_io_uring = true;
int			iobench_max_workers_per_run = -1;
int			iobench_max_workers_total = -1;
int			iobench_max_buffer_memory_total = 4096;	/* MB */
int			iobench_wait_snapshots_keep = 100;
int			iobench_sample_period = 10;
int			iobench_max_wait_types = 512;
int			iobench_run_waits = IOB_RUN_WAITS_WORKERS;
bool		iobench_sample_signal = true;

static const struct config_enum_entry run_waits_options[] = {
	{"workers", IOB_RUN_WAITS_WORKERS, false},
	{"instance", IOB_RUN_WAITS_INSTANCE, false},
	{"off", IOB_RUN_WAITS_OFF, false},
	{NULL, 0, false}
};

/* Define the settings of benchmark runs: progress, engine, limits */
static void
define_run_settings(void)
{
	DefineCustomBoolVariable("iobench.progress",
							 "Emits a progress NOTICE about once a second during a benchmark run.",
							 NULL,
							 &iobench_progress,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("iobench.io_uring",
							 "Lets benchmark runs use the io_uring engine.",
							 "Off: engine \"auto\" runs on psync and engine \"io_uring\" is refused, as on a server where io_uring is forbidden by policy.",
							 &iobench_io_uring,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("iobench.max_workers_per_run",
							"Upper bound for the background worker slots of one benchmark run: one per worker and one for its recorder.",
							"-1 means half of max_worker_processes, leaving the other half to the server's own workers (parallel query, logical replication). Never more than max_worker_processes leaves after the workers started with the server and one slot always left free.",
							&iobench_max_workers_per_run,
							-1, -1, IOB_MAX_WORKERS_PER_RUN,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("iobench.max_workers_total",
							"Upper bound for the background worker slots of all benchmark runs in progress together: one per worker and one per run for its recorder.",
							"-1 means half of max_worker_processes; never more than max_worker_processes leaves after the workers started with the server and one slot always left free. Counted across runs only when iobench is preloaded; otherwise it bounds each run alone.",
							&iobench_max_workers_total,
							-1, -1, IOB_MAX_WORKERS_PER_RUN,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("iobench.max_buffer_memory_total",
							"Upper bound for the I/O buffer memory of all benchmark runs in progress together.",
							"Counted across runs only when iobench is preloaded; otherwise it bounds each run alone.",
							&iobench_max_buffer_memory_total,
							4096, 1, INT_MAX,
							PGC_SUSET,
							GUC_UNIT_MB,
							NULL, NULL, NULL);
}

/* Define the settings of wait statistics: sampling, storage, the table bound */
static void
define_wait_settings(void)
{
	DefineCustomIntVariable("iobench.wait_snapshots_keep",
							"Number of wait snapshots snapshot_waits() keeps; older ones are removed.",
							"0 keeps every snapshot.",
							&iobench_wait_snapshots_keep,
							100, 0, 1000000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("iobench.sample_period",
							"Time between two wait-event samples.",
							"Used by the wait collector, iobench.sample_waits() and benchmark runs.",
							&iobench_sample_period,
							10, 1, 1000,
							PGC_SUSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomBoolVariable("iobench.sample_signal",
							 "Splits wait time into resource and signal time with Linux schedstat.",
							 "Off: no /proc/<pid>/schedstat reads, and Signal_S and Resource_S are NULL.",
							 &iobench_sample_signal,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("iobench.run_waits",
							 "Which processes a benchmark run samples for its wait statistics.",
							 "\"workers\": the run's own workers; \"instance\": every process; \"off\": none.",
							 &iobench_run_waits,
							 IOB_RUN_WAITS_WORKERS,
							 run_waits_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	/*
	 * Only when preloading: a PGC_POSTMASTER setting cannot be defined later
	 * (samplers of a session use the default bound).
	 */
	if (process_shared_preload_libraries_in_progress)
		DefineCustomIntVariable("iobench.max_wait_types",
								"Wait types the wait statistics tables can hold.",
								"Sizes the collector's shared memory at server start; wait types beyond it are summed in one overflow row.",
								&iobench_max_wait_types,
								512, 1, 65536,
								PGC_POSTMASTER,
								0,
								NULL, NULL, NULL);
}

/* Define every iobench.* setting, all of them here */
void
iob_define_settings(void)
{
	define_run_settings();
	define_wait_settings();
}

/*
 * See settings.h: Extension:IobenchRun, registered on first use in each
 * process where releases name them (compat.h)
 */
uint32
iob_run_wait_event(void)
{
	static uint32 event = 0;

	if (event == 0)
		event = iob_wait_event_extension("IobenchRun", 0x10BF);
	return event;
}
