/*-------------------------------------------------------------------------
 *
 * run_validate.c
 *	  The one validation every run's settings pass (run_validate.h).
 *
 * A broken rule gets an ERROR that names the setting, quotes its value
 * and states the allowed range, as the argument readers (run_args.c) do.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "base/base.h"
#include "run_limits.h"
#include "run_validate.h"

/*
 * Raise the error for a setting outside [min, max]; "sizes" shows the
 * limits as pg_size_pretty() has them
 */
static void
check_range(const char *name, int64 value, int64 min, int64 max, bool sizes)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s " INT64_FORMAT " is out of range", name, value),
				 sizes ?
				 errdetail("Valid values are between %s and %s.",
						   iob_size_pretty(min), iob_size_pretty(max)) :
				 errdetail("Valid values are between " INT64_FORMAT " and " INT64_FORMAT ".",
						   min, max)));
}

/* The same for a span in microseconds, the limits in seconds */
static void
check_us_range(const char *name, int64 us, int64 min_us, int64 max_us,
			   bool min_exclusive)
{
	if (us < min_us || us > max_us || (min_exclusive && us == min_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s of " INT64_FORMAT " microseconds is out of range", name, us),
				 iob_errdetail_seconds(min_us, max_us, min_exclusive)));
}

/*
 * A whole number of GB, MB or kB for a limit in a message ("4 GB");
 * pg_size_pretty() would say "4096 MB".
 */
static char *
exact_size(uint64 bytes)
{
	if (bytes >= (UINT64CONST(1) << 30) && bytes % (UINT64CONST(1) << 30) == 0)
		return psprintf(UINT64_FORMAT " GB", bytes >> 30);
	if (bytes >= (UINT64CONST(1) << 20) && bytes % (UINT64CONST(1) << 20) == 0)
		return psprintf(UINT64_FORMAT " MB", bytes >> 20);
	if (bytes >= 1024 && bytes % 1024 == 0)
		return psprintf(UINT64_FORMAT " kB", bytes >> 10);
	return psprintf(UINT64_FORMAT " bytes", bytes);
}

/* See run_validate.h */
void
iob_check_steady_band(double band)
{
	if (!(band > 0 && band <= 100))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady_band %g is out of range", band),
				 errdetail("Valid values are greater than 0 and at most 100 (per cent of the window's mean).")));
}

/*
 * A group needs a file in each of its tablespaces at least.  An engine
 * without the run's files (postgres) takes no group at all: its own rules
 * (iob_check_engine_params()) say so, alone, rather than a hint here to
 * add files that it would refuse.
 */
static void
check_group(const IobRunParams *params)
{
	if (!(iob_engine_ops(params->engine)->flags & IOB_ENGINE_RUN_FILES))
		return;
	if (params->ngroup > 0 && params->files < params->ngroup)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("files %d is fewer than the %d tablespaces of argument \"tablespaces\"",
						params->files, params->ngroup),
				 errdetail("The files are spread over the tablespaces, one by one: each needs one at least."),
				 errhint("Use files => %d or more.", params->ngroup)));
}

/* iob_validate_params(): each setting on its own */
static void
check_each_setting(const IobRunParams *params)
{
	if ((int) params->rw < 0 || params->rw > IOB_RW_READWRITE)
		elog(ERROR, "invalid access pattern %d", (int) params->rw);

	check_range("block_size", params->block_size,
				IOB_MIN_BLOCK_SIZE, IOB_MAX_BLOCK_SIZE, true);
	if (params->block_size % IOB_MIN_BLOCK_SIZE != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size %u is not a multiple of %d bytes",
						params->block_size, IOB_MIN_BLOCK_SIZE),
				 errdetail("Storage transfers whole sectors; direct I/O refuses anything else.")));
	check_range("workers", params->workers, 1, iob_max_workers_per_run(), false);
	check_range("iodepth", params->iodepth, 1, IOB_MAX_IODEPTH, false);
	check_range("files", params->files, 1, IOB_MAX_FILES, false);
	check_us_range("duration", params->duration_us, IOB_MIN_DURATION_US,
				   (int64) IOB_MAX_DURATION_S * USECS_PER_SEC, false);
	check_us_range("warmup", params->warmup_us, 0,
				   (int64) IOB_MAX_WARMUP_S * USECS_PER_SEC, false);
	check_range("read_pct", params->read_pct, 0, 100, false);
	check_range("rewrite_pct", params->rewrite_pct, 0, 100, false);
	check_range("fsync_every", params->fsync_every, 0, PG_INT32_MAX, false);
	check_range("rate_iops", params->rate_iops, 0, PG_INT32_MAX, false);
	check_us_range("stall_threshold", params->stall_threshold_us, 0,
				   (int64) IOB_MAX_STALL_THRESHOLD_S * USECS_PER_SEC, false);
	check_range("progress_interval", params->progress_interval_s, 1,
				IOB_MAX_PROGRESS_INTERVAL_S, false);
	if (params->steady_state != IOB_STEADY_NONE)
	{
		iob_check_steady_band(params->steady_band_pct);
		check_range("steady_window", params->steady_window_s,
					IOB_MIN_STEADY_WINDOW_S, IOB_MAX_STEADY_WINDOW_S, false);
		if ((int64) params->steady_window_s * USECS_PER_SEC > params->duration_us)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("steady_window of %d seconds is longer than duration",
							params->steady_window_s),
					 errdetail("Steady state is looked for over whole seconds of the measured period."),
					 errhint("Use a longer duration or a shorter steady_window.")));
	}
}

/* iob_validate_params(): buffer memory, per worker and over all workers */
static void
check_buffers(const IobRunParams *params)
{
	uint64		worker_buffers;
	uint64		run_buffers;

	worker_buffers = (uint64) params->iodepth * params->block_size;
	if (worker_buffers > IOB_MAX_WORKER_BUFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("iodepth %d with block_size %u needs too much buffer memory per worker",
						params->iodepth, params->block_size),
				 errdetail("iodepth times block_size must not exceed %s.",
						   exact_size(IOB_MAX_WORKER_BUFFERS))));
	run_buffers = worker_buffers * (uint64) params->workers;
	if (run_buffers > IOB_MAX_RUN_BUFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workers %d times iodepth %d times block_size %u is " UINT64_FORMAT " bytes of buffer memory, more than the limit of %s",
						params->workers, params->iodepth, params->block_size,
						run_buffers, exact_size(IOB_MAX_RUN_BUFFERS)),
				 errdetail("Each worker holds iodepth times block_size bytes of buffers for the whole run."),
				 errhint("Use fewer workers, a lower iodepth or a smaller block_size.")));
}

/*
 * iob_validate_params(): the settings fit the pattern (the mix, rewrites,
 * syncs, cold reads) and each other (the rate)
 */
static void
check_pattern_rules(const IobRunParams *params)
{
	bool		writes;

	if (!iob_pattern_is_mixed(params->rw) &&
		params->read_pct != (iob_pattern_reads(params->rw) ? 100 : 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("read_pct %d does not fit rw \"%s\"",
						params->read_pct, iob_pattern_name(params->rw)),
				 errdetail("Only the mixed patterns \"randrw\" and \"readwrite\" take a share of reads.")));
	/* rewrites follow reads, and are writes of a reading pattern */
	if (params->rewrite_pct > 0 && params->read_pct == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rewrite_pct %d needs a pattern that reads", params->rewrite_pct),
				 errdetail("rewrite_pct rewrites a share of the blocks read; rw \"%s\" with read_pct %d issues no reads.",
						   iob_pattern_name(params->rw), params->read_pct)));
	writes = iob_pattern_writes(params->rw) || params->rewrite_pct > 0;
	if (params->fsync_every > 0 && !writes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fsync_every %d needs a pattern that writes", params->fsync_every),
				 errdetail("fsync_every counts writes; rw \"%s\" issues none.",
						   iob_pattern_name(params->rw))));
	/* O_DSYNC/O_SYNC make each write durable: nothing left to sync */
	if (iob_sync_method_is_open(params->sync_method) && !writes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sync_method \"%s\" needs a pattern that writes",
						iob_sync_method_name(params->sync_method)),
				 errdetail("sync_method \"%s\" opens the files for synchronous writes; rw \"%s\" issues none.",
						   iob_sync_method_name(params->sync_method),
						   iob_pattern_name(params->rw))));
	if (iob_sync_method_is_open(params->sync_method) && params->fsync_every > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fsync_every %d does not apply to sync_method \"%s\"",
						params->fsync_every, iob_sync_method_name(params->sync_method)),
				 errdetail("With sync_method \"%s\" every write is durable when it returns, as PostgreSQL's WAL writes are; no sync call follows.",
						   iob_sync_method_name(params->sync_method)),
				 errhint("Use fsync_every => 0, or sync_method \"fsync\" or \"fdatasync\".")));
	if (params->cold_reads && params->direct)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cold_reads applies only to buffered I/O"),
				 errdetail("Direct I/O bypasses the page cache already."),
				 errhint("Use direct => false, or leave cold_reads off.")));
	if (params->rate_iops > 0 && params->rate_iops < params->workers)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate_iops %d is lower than the number of workers %d",
						params->rate_iops, params->workers),
				 errdetail("The rate is shared among the workers; each needs at least 1 I/O per second.")));
}

/* See run_validate.h */
void
iob_validate_params(const IobRunParams *params)
{
	check_each_setting(params);
	check_buffers(params);

	/* the files hold whole blocks */
	check_range("file_size", (int64) params->file_size,
				params->block_size, IOB_MAX_FILE_SIZE, true);
	if (params->file_size % params->block_size != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("file_size " UINT64_FORMAT " is not a multiple of block_size %u",
						params->file_size, params->block_size)));

	check_pattern_rules(params);
	check_group(params);
	/* every worker keeps every file open: they must fit its descriptors */
	iob_check_fd_limit(params->files);
}

/* See run_validate.h */
void
iob_engine_work(const IobRunParams *params, IobEngineWork *work)
{
	memset(work, 0, sizeof(IobEngineWork));
	work->rw_name = iob_pattern_name(params->rw);
	work->random = iob_pattern_is_random(params->rw);
	work->reads_only = params->rw == IOB_RW_RANDREAD || params->rw == IOB_RW_READ;
	work->block_size = params->block_size;
	work->file_size = params->file_size;
	work->files = params->files;
	work->workers = params->workers;
	work->depth = params->iodepth;
	work->tablespace_oid = params->tablespace_oid;
	work->tablespace = NameStr(params->tablespace);
	work->ngroup = params->ngroup;
	work->seed = params->seed;
	work->direct = params->direct;
	work->file_only_arg = params->rate_iops > 0 ? "rate_iops" :
		params->rewrite_pct > 0 ? "rewrite_pct" :
		params->cold_reads ? "cold_reads" : NULL;
	work->io_concurrency_given = params->io_concurrency_given;
	work->io_concurrency = params->io_concurrency;
	work->io_combine_given = params->io_combine_given;
	work->io_combine_blocks = params->io_combine_blocks;
}

/* See run_validate.h */
void
iob_check_engine_params(const IobRunParams *params)
{
	IobEngineWork work;

	iob_engine_work(params, &work);
	iob_engine_ops(params->engine)->check_work(&work);
}
