/*-------------------------------------------------------------------------
 *
 * iobench.c
 *	  Entry point: module magic, _PG_init and the settings (GUCs).
 *
 * Every iobench.* setting is defined here, in iob_define_settings(), and
 * declared in iobench.h.  _PG_init defines them, calls one init function
 * per subsystem that has start-up work, then reserves the "iobench."
 * prefix.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "compat.h"
#include "iobench.h"
#include "run_limits.h"
#include "wait_collector.h"

PG_MODULE_MAGIC;

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

void		_PG_init(void);

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
static void
iob_define_settings(void)
{
	define_run_settings();
	define_wait_settings();
}

/* Define the settings, initialise each subsystem, reserve the prefix */
void
_PG_init(void)
{
	iob_define_settings();
	iob_run_limits_init();
	iob_wait_collector_init();
	MarkGUCPrefixReserved("iobench");
}

/*
 * A size for messages, in pg_size_pretty()'s units (bytes, kB, MB, GB, TB,
 * 1024-based as PostgreSQL's), in the largest unit it reaches: a whole
 * number when that unit divides it (2 GB, where pg_size_pretty() says
 * 2048 MB, and what a user typed as '2GB' reads as), else one decimal
 * (2.5 GB, 68.3 GB).
 */
char *
iob_size_pretty(int64 bytes)
{
	static const struct
	{
		int64		size;
		const char *name;
	}			units[] = {
		{INT64CONST(1) << 40, "TB"},
		{INT64CONST(1) << 30, "GB"},
		{INT64CONST(1) << 20, "MB"},
		{INT64CONST(1) << 10, "kB"},
	};
	int			i;

	for (i = 0; i < (int) lengthof(units); i++)
	{
		if (bytes < units[i].size)
			continue;
		if (bytes % units[i].size == 0)
			return psprintf(INT64_FORMAT " %s", bytes / units[i].size, units[i].name);
		return psprintf("%.1f %s", (double) bytes / units[i].size, units[i].name);
	}
	return psprintf(INT64_FORMAT " bytes", bytes);
}

/*
 * See iobench.h: Extension:IobenchRun, registered on first use in each
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
