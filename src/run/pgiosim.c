/*-------------------------------------------------------------------------
 *
 * pgiosim.c
 *	  iobench.pgiosim(): pgiosim's workload as a preset of iobench.run().
 *
 * Random 8 kB buffered reads from a cold cache over several files, a share
 * of them followed by a rewrite of the same block and an fsync, with write
 * stalls (write + fsync over a threshold) counted and listed and a progress
 * line every 10 seconds, as the original tool printed.  Every one of those
 * is a setting of iobench.run() (run_validate.h); this file only reads
 * pgiosim's arguments, fixes the rest of the settings and runs it, as the
 * caller, exactly as iobench.run() would.  It is one run, another entry
 * to the run subsystem with pgiosim's settings and progress line, not a
 * campaign of many (campaigns/campaign.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "base/base.h"
#include "run/run.h"

PG_FUNCTION_INFO_V1(iobench_pgiosim);

/* pgiosim reads and rewrites PostgreSQL-sized pages */
#define PGIOSIM_BLOCK_SIZE	8192

/* pgiosim's own default number of threads, taken when the cap allows */
#define PGIOSIM_DEFAULT_WORKERS	10

/* Argument positions of iobench.pgiosim() */
enum
{
	PG_ARG_TABLESPACE = 0,
	PG_ARG_FILES,
	PG_ARG_WORKERS,
	PG_ARG_WRITE_PCT,
	PG_ARG_FSYNC,
	PG_ARG_STALL_THRESHOLD,
	PG_ARG_DURATION,
	PG_ARG_FILE_SIZE,
	PG_ARG_WARMUP,
	PG_ARG_SYNC_METHOD,
	PG_ARG_PROGRESS_INTERVAL,
	PG_ARG_SEED,
	PG_ARG_LABEL
};

/*
 * The workers of a call that gives none: pgiosim's 10, or as many as a run
 * may have here when that is fewer (4 on a stock server, whose
 * max_worker_processes is 8), with a NOTICE saying so, so that the
 * defaults run on every server.
 */
static int
default_workers(void)
{
	int			max = iob_max_workers_per_run();

	if (max >= PGIOSIM_DEFAULT_WORKERS)
		return PGIOSIM_DEFAULT_WORKERS;
	ereport(NOTICE,
			(errmsg("pgiosim runs %d workers, not its default of %d", max,
					PGIOSIM_DEFAULT_WORKERS),
			 errdetail("A run may have %d workers here: iobench.max_workers_per_run and iobench.max_workers_total bound the background worker slots of runs, one per worker and one for the run's recorder, and each defaults to half of max_worker_processes (%d here).",
					   max, max_worker_processes),
			 errhint("Pass workers => N to choose, or raise max_worker_processes (which needs a restart) for more.")));
	return max;
}

/*
 * SQL entry point: iobench.pgiosim(...).  Validates the arguments, builds
 * the run's settings and runs it; returns the stored iobench.runs row.
 */
Datum
iobench_pgiosim(PG_FUNCTION_ARGS)
{
	IobRunParams params;
	IobRunResult result;
	bool		fsync;
	char	   *label;

	IOB_SQL_ENTRY(13);
	iob_require_grant(fcinfo->flinfo->fn_oid);
	memset(&params, 0, sizeof(params));
	iob_tablespace_arg(fcinfo, PG_ARG_TABLESPACE, &params);
	params.files = iob_int_arg(fcinfo, PG_ARG_FILES, "files", 1, IOB_MAX_FILES);
	params.workers = PG_ARGISNULL(PG_ARG_WORKERS) ? default_workers() :
		iob_workers_arg(fcinfo, PG_ARG_WORKERS);
	params.rewrite_pct = iob_int_arg(fcinfo, PG_ARG_WRITE_PCT, "write_pct", 0, 100);
	iob_require_arg(fcinfo, PG_ARG_FSYNC, "fsync");
	fsync = PG_GETARG_BOOL(PG_ARG_FSYNC);
	params.stall_threshold_us = iob_stall_threshold_arg(fcinfo, PG_ARG_STALL_THRESHOLD);
	params.duration_us = iob_duration_arg(fcinfo, PG_ARG_DURATION);
	params.file_size = iob_size_arg(fcinfo, PG_ARG_FILE_SIZE, "file_size",
									PGIOSIM_BLOCK_SIZE, IOB_MAX_FILE_SIZE);
	if (params.file_size % PGIOSIM_BLOCK_SIZE != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is not a multiple of %d bytes",
						params.file_size, PGIOSIM_BLOCK_SIZE),
				 errdetail("pgiosim reads and writes whole 8 kB blocks.")));
	params.warmup_us = iob_warmup_arg(fcinfo, PG_ARG_WARMUP);
	params.sync_method = iob_sync_method_arg(fcinfo, PG_ARG_SYNC_METHOD);
	params.progress_interval_s = iob_progress_interval_arg(fcinfo, PG_ARG_PROGRESS_INTERVAL);
	params.seed = iob_seed_arg(fcinfo, PG_ARG_SEED);
	label = iob_label_arg(fcinfo, PG_ARG_LABEL);

	/* the workload: what pgiosim -w W -y does, with reads made cold */
	params.rw = IOB_RW_RANDREAD;
	params.read_pct = 100;
	params.block_size = PGIOSIM_BLOCK_SIZE;
	params.iodepth = 1;
	/*
	 * counts writes: a sync per rewrite; without rewrites nothing to sync.
	 * open_datasync and open_sync make every rewrite durable by itself.
	 */
	params.fsync_every = (fsync && params.rewrite_pct > 0 &&
						  !iob_sync_method_is_open(params.sync_method)) ? 1 : 0;
	params.direct = false;
	params.cold_reads = true;	/* reads stay cold: pgiosim's IOPS climbed as
								 * the page cache warmed */
	params.engine = IOB_ENGINE_PSYNC;	/* pread/pwrite, as pgiosim */

	iob_validate_params(&params);
	iob_execute_run(&params, label, IOB_PROGRESS_COUNTS, &result);
	PG_RETURN_DATUM(result.row);
}
