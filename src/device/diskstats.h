/*-------------------------------------------------------------------------
 *
 * diskstats.h
 *	  What the block device saw during a run, second by second.
 *
 * The run's recorder (recorder.h) samples /proc/diskstats once a second
 * of the measured period, from a first sample that the launcher takes at
 * the start of that period, for the block device under the run's tablespace,
 * or under each tablespace of its group (every distinct device once): the
 * whole disk for a partition, the device itself for dm and md devices,
 * and their members where /sys/block/<dev>/slaves lists them.  The
 * difference of consecutive samples is a row of iobench.live_disk_seconds,
 * committed as the run goes; when the run is stored they move to
 * iobench.run_disk_seconds, where generated columns turn them into
 * iostat's figures (r/s, w/s, rMB/s, wMB/s, areq-sz, aqu-sz, r_await,
 * w_await, %util, d/s, f/s), and runs.disk_* sum them up.
 *
 * A tablespace on a file system without a block device (tmpfs, NFS,
 * overlay) is not sampled: the run says so in a NOTICE (the launcher opens
 * a sampler first to find out); when none of its tablespaces has one there
 * is no sampler and its device columns stay NULL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_DISKSTATS_H
#define IOBENCH_DISKSTATS_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "port/atomics.h"

/*
 * Devices sampled at most: the disks of a group's tablespaces
 * (IOB_MAX_GROUP) and their members (dm, md); members past it are left out.
 */
#define IOB_DISK_MAX_DEVICES	32

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
	bool		member;			/* a member of a tablespace's device (slaves) */
	int			nfields;		/* counters the kernel has for it */
} IobDiskDevice;

/*
 * A run's devices in its shared segment (run_shared.h), with their first
 * sample.  The first sample belongs to the start of the measured period,
 * which the launcher marks, so the launcher takes it: the recorder may
 * still be starting up then.
 *
 * Rules: the launcher fills ndevices and devices before the recorder
 * starts (iob_disk_share()), and nothing changes them afterwards.  At the
 * start of the measured period it writes first_at_ns and first, then,
 * after a write barrier, sets first_taken (iob_disk_take_first()); the
 * recorder reads them once it sees first_taken, after a read barrier.
 */
typedef struct IobDiskShared
{
	int			ndevices;		/* 0: no block device to sample */
	IobDiskDevice devices[IOB_DISK_MAX_DEVICES];
	pg_atomic_uint32 first_taken;	/* first_at_ns and first are set */
	int64		first_at_ns;	/* clock of the first sample */
	IobDiskCounters first[IOB_DISK_MAX_DEVICES];
} IobDiskShared;

/* A run's sampler: the last two samples, and the rows not yet taken */
typedef struct IobDiskSampler
{
	int			ndevices;
	IobDiskDevice devices[IOB_DISK_MAX_DEVICES];
	int			nsamples;		/* samples taken */
	int64		at_ns[2];		/* clock of the previous and the last sample */
	IobDiskCounters counters[2][IOB_DISK_MAX_DEVICES];
	StringInfoData pending;		/* JSON array of rows not yet taken */
	IobDiskShared *shared;		/* the recorder's: where its first sample
								 * comes from (iob_disk_attach()) */
} IobDiskSampler;

/*
 * The sampler for the storage under the run's tablespace, or under each
 * tablespace of its group: the "n" directories "dirs" of tablespaces
 * "spcnames".  Every distinct block device found there (each a row per
 * second, "member" false) and their members; NULL when none of them has a
 * block device.  With "notice", a NOTICE names each tablespace without one.
 */
extern IobDiskSampler *iob_disk_open_run(int n, const char *const *dirs,
										 const char *const *spcnames,
										 bool notice);

/*
 * The launcher's: write the devices of sampler "s" (NULL: none) into the
 * run's shared segment, before the recorder starts.
 */
extern void iob_disk_share(const IobDiskSampler *s, IobDiskShared *shared);

/*
 * The launcher's: take the first sample and publish it in "shared" once
 * "now" has reached the start of the measured period (called just before
 * the "go" when there is no warm-up, so that no I/O of the period comes
 * before it).  Returns how many milliseconds the launcher may sleep before
 * it is due (at most max_sleep_ms).  A NULL sampler does nothing.
 */
extern long iob_disk_take_first(IobDiskSampler *s, IobDiskShared *shared,
								int64 now, int64 measure_start_ns,
								long max_sleep_ms);

/*
 * The recorder's sampler of the devices the launcher shared, whose first
 * sample is the launcher's; NULL when there are none.
 */
extern IobDiskSampler *iob_disk_attach(IobDiskShared *shared);

/*
 * Take the samples due at "now": the first (the launcher's, for a sampler
 * of iob_disk_attach()) at the start of the measured period and one at
 * each full second after it, the last at its end.  Returns how many
 * milliseconds the caller may sleep before the next one is due (at most
 * max_sleep_ms).  A NULL sampler does nothing.
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

/*
 * The rows of the samples taken since the last call, as a JSON array of
 * iobench.live_disk_seconds rows (keys: iob_disk_columns()), or NULL.
 */
extern char *iob_disk_take_pending(IobDiskSampler *s);

/* The columns of those rows, comma-separated */
extern const char *iob_disk_columns(void);

#endif							/* IOBENCH_DISKSTATS_H */
