/*-------------------------------------------------------------------------
 *
 * run_params.h
 *	  The settings of one benchmark run, IobRunParams, and their names.
 *
 * IobRunParams is everything a run is: the arguments of iobench.run(), and
 * nothing else; presets express themselves in these settings.  It is part
 * of every run's record (run_record.h), so it lives with the results; the
 * run subsystem owns the limits of the settings and their validation
 * (run/run_validate.h).
 *
 * IobRunParams is plain data (no pointers) because it is copied into the
 * run's dynamic shared memory segment for the workers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_RUN_PARAMS_H
#define IOBENCH_RUN_PARAMS_H

#include "postgres.h"

#include "datatype/timestamp.h"

#include "engine/engine.h"

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
	 * Engine "postgres" (engine_postgres.h): the server's I/O settings the
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

/* Tablespaces of the run: 1 for a single one */
static inline int
iob_group_size(const IobRunParams *params)
{
	return params->ngroup > 0 ? params->ngroup : 1;
}

/* Files of the run in member g of the group */
static inline int
iob_group_files(const IobRunParams *params, int g)
{
	int			n = iob_group_size(params);

	return params->files / n + (g < params->files % n ? 1 : 0);
}

#endif							/* IOBENCH_RUN_PARAMS_H */
