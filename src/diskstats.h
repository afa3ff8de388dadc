/*-------------------------------------------------------------------------
 *
 * diskstats.h
 *	  What the block device saw during a run, second by second.
 *
 * The launcher samples /proc/diskstats once a second of the measured
 * period for the block device under the run's tablespace: the whole disk
 * for a partition, the device itself for dm and md devices, and their
 * members where /sys/block/<dev>/slaves lists them.  The samples stay in
 * the launcher's memory; once the run is stored, iob_disk_store() writes
 * the differences of consecutive samples into iobench.run_disk_seconds,
 * where generated columns turn them into iostat's figures (r/s, w/s,
 * rMB/s, wMB/s, areq-sz, aqu-sz, r_await, w_await, %util, d/s, f/s).
 *
 * A tablespace on a file system without a block device (tmpfs, NFS,
 * overlay) has no sampler: the run says so in one NOTICE and its device
 * columns stay NULL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_DISKSTATS_H
#define IOBENCH_DISKSTATS_H

#include "postgres.h"

/* The device itself plus this many members (dm, md) at most */
#define IOB_DISK_MAX_DEVICES	17

/*
 * The counters of one /proc/diskstats line after the device name, in the
 * kernel's order (Documentation/admin-guide/iostats.rst): reads, reads
 * merged, sectors read, ms reading, writes, writes merged, sectors
 * written, ms writing, I/Os in flight, ms doing I/O, weighted ms; since
 * 4.18 discards, merged, sectors, ms; since 5.5 flushes and ms flushing.
 */
#define IOB_DISK_NFIELDS		17

typedef struct IobDiskCounters
{
	uint64		f[IOB_DISK_NFIELDS];
} IobDiskCounters;

typedef struct IobDiskDevice
{
	char		name[32];		/* kernel name, e.g. "vda", "dm-0" */
	bool		member;			/* a member of the first device (slaves) */
	int			nfields;		/* counters the kernel has for it */
} IobDiskDevice;

/* A run's sampler, in the launcher's memory */
typedef struct IobDiskSampler
{
	int			ndevices;
	IobDiskDevice devices[IOB_DISK_MAX_DEVICES];
	int			nsamples;		/* samples taken */
	int			maxsamples;		/* room in the arrays */
	int64	   *at_ns;			/* [maxsamples] clock of each sample */
	IobDiskCounters *counters;	/* [maxsamples][ndevices] */
} IobDiskSampler;

/*
 * The sampler for the storage under directory "dir" (of tablespace
 * "spcname"), or NULL with a NOTICE when no block device is found there.
 */
extern IobDiskSampler *iob_disk_open(const char *dir, const char *spcname);

/*
 * Take the samples due at "now": one at the start of the measured period
 * and one at each full second after it, the last at its end.  Returns how
 * many milliseconds the caller may sleep before the next one is due (at
 * most max_sleep_ms).  A NULL sampler does nothing.
 */
extern long iob_disk_poll(IobDiskSampler *s, int64 now, int64 measure_start_ns,
						  int64 end_ns, long max_sleep_ms);

/*
 * Take the last sample of a run whose launcher stopped polling before the
 * end of the measured period was sampled ("end_ns": the end, or the stop
 * of a cancelled run): the workers finished the moment the period ended,
 * or the run was cancelled.
 */
extern void iob_disk_finish(IobDiskSampler *s, int64 end_ns);

/* The first device's figures over the whole measured period */
typedef struct IobDiskSummary
{
	bool		valid;			/* false: no device, or under two samples */
	char		name[32];
	double		r_s;			/* reads per second */
	double		w_s;
	double		rmb_s;			/* MB (10^6 bytes) read per second */
	double		wmb_s;
	double		aqu_sz;			/* average queue size */
	double		util_pct;		/* share of time with I/O in flight */
} IobDiskSummary;

extern void iob_disk_summarize(const IobDiskSampler *s, IobDiskSummary *out);

/* Insert the per-second rows of run "run_id" (iobench.run_disk_seconds) */
extern void iob_disk_store(int64 run_id, const IobDiskSampler *s);

#endif							/* IOBENCH_DISKSTATS_H */
