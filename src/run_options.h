/*-------------------------------------------------------------------------
 *
 * run_options.h
 *	  The settings of one benchmark run, and their validation.
 *
 * IobRunParams is everything a run is: the arguments of iobench.run(), and
 * nothing else; presets express themselves in these settings.  This file
 * owns their limits (also the CHECKs of the SQL, see the Makefile), their
 * names as the arguments spell them, and the one validation every run
 * passes before anything is created (iob_validate_params()).
 *
 * IobRunParams is plain data (no pointers) because it is copied into the
 * run's dynamic shared memory segment for the workers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_OPTIONS_H
#define IOBENCH_RUN_OPTIONS_H

#include "postgres.h"

#include "datatype/timestamp.h"

#include "engine.h"

/* Access patterns, named as fio names them ("rw") */
typedef enum IobPattern
{
	IOB_RW_RANDREAD = 0,
	IOB_RW_RANDWRITE,
	IOB_RW_RANDRW,
	IOB_RW_READ,
	IOB_RW_WRITE,
	IOB_RW_READWRITE
} IobPattern;

/*
 * Limits of the arguments; the error messages quote them.  The CHECKs of
 * iobench.suite_tests (sql/install/schema/20_suites.sql) take the block
 * size, iodepth, files and buffer limits from here when the install script
 * is built (@IOB_MAX_IODEPTH@ there, see the Makefile); an installed
 * version keeps its CHECKs, so a changed limit also needs an upgrade step.
 */
#define IOB_MIN_BLOCK_SIZE		512
#define IOB_MAX_BLOCK_SIZE		(16 * 1024 * 1024)
#define IOB_MAX_IODEPTH			1024
#define IOB_MAX_FILES			1024
#define IOB_MAX_FILE_SIZE		(INT64CONST(1) << 50)	/* 1024 TB per file */
#define IOB_MAX_DURATION_S		(7 * 24 * 3600) /* a week of per-second rows */
#define IOB_MIN_DURATION_US		(100 * 1000)	/* 100 ms: a shorter run may
												 * complete no I/O at all, and
												 * stores no meaningful rate */
#define IOB_MAX_WARMUP_S		(24 * 3600)	/* a day */
#define IOB_MAX_STALL_THRESHOLD_S	3600	/* an hour: longer is no stall */
#define IOB_MAX_PROGRESS_INTERVAL_S 3600	/* an hour */
#define IOB_MAX_START_AT_S		3600	/* start_at within an hour of the call */
#define IOB_DIRECT_ALIGN		4096	/* O_DIRECT buffer and offset alignment */

/*
 * I/O buffers: each worker allocates iodepth * block_size bytes in its own
 * memory and fills them with random data before the run, so all of it is
 * resident for the whole run.  One worker's buffers must stay well inside
 * what one process may allocate; the sum over all workers is capped too,
 * because 64 workers of 1 GB each would be 64 GB, enough to send the
 * server into the OOM killer.  4 GB still allows the deepest queue of
 * 64 kB blocks (1024 * 64 kB) for 64 workers.
 */
#define IOB_MAX_WORKER_BUFFERS	(UINT64CONST(1) << 30)	/* 1 GB per worker */
#define IOB_MAX_RUN_BUFFERS		(UINT64CONST(4) << 30)	/* 4 GB per run */

/*
 * How writes are made durable, as PostgreSQL's wal_sync_method names it:
 * a sync call after writes (fsync_every), or files opened with O_DSYNC or
 * O_SYNC so that each write returns once it is durable.
 */
typedef enum IobSyncMethod
{
	IOB_SYNC_FSYNC = 0,
	IOB_SYNC_FDATASYNC,
	IOB_SYNC_OPEN_DATASYNC,		/* O_DSYNC */
	IOB_SYNC_OPEN_SYNC			/* O_SYNC */
} IobSyncMethod;

/* What steady-state detection looks at (steady_state.h) */
typedef enum IobSteadyMetric
{
	IOB_STEADY_NONE = 0,		/* no detection: the run lasts its duration */
	IOB_STEADY_IOPS,			/* IOPS of data I/O per second */
	IOB_STEADY_LATENCY			/* mean latency of data I/O per second */
} IobSteadyMetric;

#define IOB_MAX_GROUP			8	/* tablespaces of a group */
#define IOB_MIN_STEADY_WINDOW_S	2	/* a single second cannot be steady */
#define IOB_MAX_STEADY_WINDOW_S	180 /* the launcher keeps a sample per second
									 * of the window (steady_state.h) */

typedef struct IobRunParams
{
	Oid			tablespace_oid;
	NameData	tablespace;
	IobPattern	rw;
	uint32		block_size;		/* bytes */
	int			workers;
	int			iodepth;
	int64		duration_us;	/* measured period */
	int64		warmup_us;		/* excluded from the figures */
	uint64		file_size;		/* bytes per file, a multiple of block_size */
	int			files;
	int			read_pct;		/* share of reads in mixed patterns */
	int			fsync_every;	/* sync a file after every N writes to it; 0 = never */
	IobSyncMethod sync_method;	/* the call fsync_every makes, or the
								 * open flag of every file */
	bool		direct;			/* O_DIRECT */
	IobEngineKind engine;		/* as requested */
	int			rate_iops;		/* total over all workers; 0 = unlimited */
	uint64		seed;
	int			rewrite_pct;	/* share of reads followed by a rewrite of
								 * the same block (0 = never) */
	bool		cold_reads;		/* buffered: drop each block from the page
								 * cache once read (and each file once
								 * synced), so every read goes to the device */
	int64		stall_threshold_us; /* a write (plus the sync it triggers)
									 * slower than this is a stall; 0 = not
									 * tracked */
	int			progress_interval_s;	/* seconds between progress NOTICEs */
	TimestampTz start_at;		/* the workers, once ready, wait for this
								 * wall-clock time (a common start on many
								 * servers); 0 = start at once */

	IobSteadyMetric steady_state;	/* end the run once steady */
	double		steady_band_pct;	/* every second within this % of the
									 * window's mean */
	int			steady_window_s;	/* over this many seconds */

	/*
	 * A tablespace group (tablespace_group.h): file i lies in tablespace
	 * group_oids[i % ngroup]; 0 for a run on one tablespace.  tablespace
	 * and tablespace_oid are then the group's first.
	 */
	int			ngroup;
	Oid			group_oids[IOB_MAX_GROUP];
	NameData	group_names[IOB_MAX_GROUP];

	/*
	 * Engine "postgres" (server_read.h): the server's I/O settings the
	 * workers set for themselves, when given (else the tablespace's or the
	 * server's own apply)
	 */
	bool		io_concurrency_given;
	int			io_concurrency; /* effective_io_concurrency */
	bool		io_combine_given;
	int			io_combine_blocks;	/* io_combine_limit, in blocks */
} IobRunParams;

/*
 * Names as the arguments spell them, indexed by their enums; the engine's
 * are engine.h's iob_engine_names
 */
extern const char *const iob_pattern_names[IOB_RW_READWRITE + 1];
extern const char *const iob_steady_names[IOB_STEADY_LATENCY + 1];
extern const char *const iob_sync_method_names[IOB_SYNC_OPEN_SYNC + 1];

extern const char *iob_pattern_name(IobPattern rw);
extern bool iob_pattern_is_random(IobPattern rw);
extern bool iob_pattern_is_mixed(IobPattern rw);
extern bool iob_pattern_reads(IobPattern rw);
extern bool iob_pattern_writes(IobPattern rw);
extern const char *iob_sync_method_name(IobSyncMethod method);
extern const char *iob_steady_name(IobSteadyMetric metric);
extern bool iob_sync_method_by_name(const char *name, IobSyncMethod *method);
extern bool iob_sync_method_is_open(IobSyncMethod method);
extern bool iob_params_commits(const IobRunParams *p);

/*
 * Check the settings of a run as a whole: every range, and every rule that
 * ties one setting to another (block_size a multiple of 512 bytes, buffer
 * memory per worker and per run, file_size a multiple of block_size,
 * read_pct only for the mixed patterns, fsync_every only with writes,
 * sync_method open_datasync/open_sync only with writes and without
 * fsync_every, rewrite_pct only with reads, cold_reads only with buffered
 * I/O, rate_iops at least one per worker, files within what a worker may
 * keep open).  iobench.run(), iobench.pgiosim() and iobench.suite() (for
 * each of its tests) call it before anything is created; raises an ERROR
 * for the first rule broken.
 */
extern void iob_validate_params(const IobRunParams *params);

/* steady_band: a share of the mean, more than 0 and at most 100 % */
extern void iob_check_steady_band(double band);

#endif							/* IOBENCH_RUN_OPTIONS_H */
