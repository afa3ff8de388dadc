/*-------------------------------------------------------------------------
 *
 * diskstats.c
 *	  The block device's own counters during a run (/proc/diskstats).
 *
 * Which device: the device number of the run's directory names a block
 * device in /sys/dev/block; a partition (it has a "partition" file) is
 * replaced by its disk, because the disk's queue is what saturates; dm
 * and md devices are kept as they are and their members come from
 * /sys/block/<dev>/slaves.  A device number of major 0 is an anonymous
 * device (tmpfs, NFS, overlay, btrfs subvolumes): no block device to
 * sample.
 *
 * When: the first sample is the launcher's (run_launcher.c), taken the
 * moment the measured period starts: just before the "go" when there is
 * no warm-up, so that second 0 of the device and second 0 of iobench's
 * own series cover the same I/O (the recorder is still starting then).
 * The others are the recorder's: iob_disk_poll() is called from its loop
 * (recorder.c) and tells it how long it may sleep, so samples land within
 * a scheduler tick of each second boundary; each sample records its own
 * clock, and the rates divide by the real interval.  Only the last sample
 * is kept: each new one turns the difference into a row for
 * iobench.live_disk_seconds (in "pending", which the recorder commits), so
 * memory does not grow with the duration.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/timestamp.h"

#include "base/base.h"
#include "diskstats.h"

/* Samples are taken this often during the measured period */
#define SAMPLE_EVERY_NS		IOB_NS_PER_SEC


/* Column names of iobench.run_disk_seconds, in IobDiskCounters order */
static const char *const field_names[IOB_DISK_NFIELDS] = {
	"reads", "read_merges", "read_sectors", "read_ms",
	"writes", "write_merges", "write_sectors", "write_ms",
	"in_flight", "io_ms", "queue_ms",
	"discards", "discard_merges", "discard_sectors", "discard_ms",
	"flushes", "flush_ms"
};

/* Index of the counters in IobDiskCounters */
#define F_READS			0
#define F_READ_SECTORS	2
#define F_WRITES		4
#define F_WRITE_SECTORS	6
#define F_IN_FLIGHT		8
#define F_IO_MS			9
#define F_QUEUE_MS		10
#define F_DISCARDS		11		/* first of the 4.18 fields */
#define F_FLUSHES		15		/* first of the 5.5 fields */

/* Add device "name" to the sampler unless it is full or already there */
static void
add_device(IobDiskSampler *s, const char *name, bool member)
{
	int			i;

	if (s->ndevices >= IOB_DISK_MAX_DEVICES)
		return;
	for (i = 0; i < s->ndevices; i++)
		if (strcmp(s->devices[i].name, name) == 0)
			return;
	strlcpy(s->devices[s->ndevices].name, name, sizeof(s->devices[0].name));
	s->devices[s->ndevices].member = member;
	s->devices[s->ndevices].nfields = 0;
	s->ndevices++;
}

/*
 * The kernel name of the block device (a whole disk, or a dm/md device)
 * holding the file system of "dir"; false when there is none.
 */
static bool
find_disk(const char *dir, char *name, size_t namelen)
{
	struct stat st;
	char		link[64];
	char		sysdir[PATH_MAX];
	char		probe[PATH_MAX + 16];
	char	   *slash;

	if (stat(dir, &st) != 0 || major(st.st_dev) == 0)
		return false;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
			 major(st.st_dev), minor(st.st_dev));
	if (realpath(link, sysdir) == NULL)
		return false;

	/* a partition: its disk is the directory above it */
	snprintf(probe, sizeof(probe), "%s/partition", sysdir);
	if (access(probe, F_OK) == 0)
	{
		slash = strrchr(sysdir, '/');
		if (slash == NULL)
			return false;
		*slash = '\0';
	}
	slash = strrchr(sysdir, '/');
	strlcpy(name, slash ? slash + 1 : sysdir, namelen);
	return name[0] != '\0';
}

/* Add the members of device "name" listed in /sys/block/<name>/slaves */
static void
add_members(IobDiskSampler *s, const char *name)
{
	char		path[MAXPGPATH];
	DIR		   *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", name);
	d = AllocateDir(path);
	if (d == NULL)
		return;
	while ((de = ReadDirExtended(d, path, DEBUG1)) != NULL)
	{
		if (de->d_name[0] == '.')
			continue;
		add_device(s, de->d_name, true);
	}
	FreeDir(d);
}

/*
 * Read the counters of every device of the sampler from /proc/diskstats
 * into "out" (one IobDiskCounters per device); a device missing from the
 * file keeps zeros.  Records how many counters the kernel has.
 */
static void
read_counters(IobDiskSampler *s, IobDiskCounters *out)
{
	FILE	   *f;
	char		line[512];

	memset(out, 0, sizeof(IobDiskCounters) * s->ndevices);
	f = AllocateFile("/proc/diskstats", "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		char		name[64];
		int			pos = 0;
		int			i;
		int			d;
		char	   *p;

		if (sscanf(line, "%*u %*u %63s %n", name, &pos) != 1 || pos == 0)
			continue;
		for (d = 0; d < s->ndevices; d++)
			if (strcmp(s->devices[d].name, name) == 0)
				break;
		if (d == s->ndevices)
			continue;
		p = line + pos;
		for (i = 0; i < IOB_DISK_NFIELDS; i++)
		{
			char	   *end;
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			out[d].f[i] = (uint64) v;
			p = end;
		}
		s->devices[d].nfields = i;
	}
	FreeFile(f);
}

/*
 * The tablespaces whose missing device this statement has been told of
 * already: a suite or a latency search runs many tests in one call, and
 * says it once per tablespace (a longer list than fits is told again).
 */
static TimestampTz noticed_statement = 0;
static NameData noticed_spc[16];
static int	noticed_nspc = 0;

/* Is the NOTICE about "spcname" due in this statement?  Remembers it. */
static bool
device_notice_due(const char *spcname)
{
	TimestampTz statement = GetCurrentStatementStartTimestamp();
	int			i;

	if (statement != noticed_statement)
	{
		noticed_statement = statement;
		noticed_nspc = 0;
	}
	for (i = 0; i < noticed_nspc; i++)
		if (strcmp(NameStr(noticed_spc[i]), spcname) == 0)
			return false;
	if (noticed_nspc < (int) lengthof(noticed_spc))
		namestrcpy(&noticed_spc[noticed_nspc++], spcname);
	return true;
}

/*
 * Add the disk under "dir" (of tablespace "spcname") to the sampler, if
 * there is one the kernel lists; a NOTICE when not and "notice".  True
 * when the tablespace has a device to sample.
 */
static bool
add_tablespace_disk(IobDiskSampler *s, const char *dir, const char *spcname,
					bool notice)
{
	char		disk[32];
	IobDiskSampler probe;

	if (!find_disk(dir, disk, sizeof(disk)))
	{
		ereport(notice && device_notice_due(spcname) ? NOTICE : DEBUG1,
				(errmsg("no block device under tablespace \"%s\": the device statistics of this run are not collected there",
						spcname),
				 errdetail("Directory \"%s\" is on a file system without a block device of its own (such as tmpfs or a network file system).",
						   dir)));
		return false;
	}

	/* the kernel must list the device, or there is nothing to sample */
	memset(&probe, 0, sizeof(probe));
	add_device(&probe, disk, false);
	read_counters(&probe, probe.counters[0]);
	if (probe.devices[0].nfields < F_DISCARDS)
	{
		ereport(notice && device_notice_due(spcname) ? NOTICE : DEBUG1,
				(errmsg("block device \"%s\" under tablespace \"%s\" is not in /proc/diskstats: the device statistics of this run are not collected there",
						disk, spcname)));
		return false;
	}
	add_device(s, disk, false);
	return true;
}

/*
 * See diskstats.h.  The tablespaces' disks come first, so that their
 * members never crowd one of them out.
 */
IobDiskSampler *
iob_disk_open_run(int n, const char *const *dirs, const char *const *spcnames,
				  bool notice)
{
	IobDiskSampler *s = palloc0(sizeof(IobDiskSampler));
	int			ndisks;
	int			g;
	int			d;

	for (g = 0; g < n; g++)
		(void) add_tablespace_disk(s, dirs[g], spcnames[g], notice);
	if (s->ndevices == 0)
	{
		pfree(s);
		return NULL;
	}
	ndisks = s->ndevices;
	for (d = 0; d < ndisks; d++)
		add_members(s, s->devices[d].name);
	initStringInfo(&s->pending);
	appendStringInfoChar(&s->pending, '[');
	return s;
}

/* Append the JSON object of device d's second between the two samples */
static void
second_json(IobDiskSampler *s, int d)
{
	const IobDiskDevice *dev = &s->devices[d];
	int			k;

	appendStringInfo(&s->pending, "%s{\"device\":", s->pending.len > 1 ? "," : "");
	escape_json(&s->pending, dev->name);
	appendStringInfo(&s->pending, ",\"member\":%s,\"second\":%d,\"interval_s\":%.9f",
					 dev->member ? "true" : "false", s->nsamples - 2,
					 (double) (s->at_ns[1] - s->at_ns[0]) / IOB_NS_PER_SEC);
	for (k = 0; k < IOB_DISK_NFIELDS; k++)
	{
		uint64		a = s->counters[0][d].f[k];
		uint64		b = s->counters[1][d].f[k];

		/* discards and flushes are NULL where the kernel lacks them */
		if (k >= dev->nfields)
			break;
		/* in_flight is a level, not a counter; counters never go back */
		appendStringInfo(&s->pending, ",\"%s\":" UINT64_FORMAT, field_names[k],
						 k == F_IN_FLIGHT ? b : (b >= a ? b - a : 0));
	}
	appendStringInfoChar(&s->pending, '}');
}

/*
 * Take one sample; from the second on, the difference to the one before is
 * a row per device in "pending".  Its clock is read just before the file,
 * so that late wake-ups of the caller do not skew the interval.
 */
static void
take_sample(IobDiskSampler *s)
{
	int			d;

	if (s->nsamples > 0)
	{
		s->at_ns[0] = s->at_ns[1];
		memcpy(s->counters[0], s->counters[1], sizeof(IobDiskCounters) * s->ndevices);
	}
	s->at_ns[1] = iob_now_ns();
	read_counters(s, s->counters[1]);
	s->nsamples++;
	if (s->nsamples >= 2)
		for (d = 0; d < s->ndevices; d++)
			second_json(s, d);
}

/* See diskstats.h */
void
iob_disk_share(const IobDiskSampler *s, IobDiskShared *shared)
{
	shared->ndevices = s ? s->ndevices : 0;
	if (s)
		memcpy(shared->devices, s->devices, sizeof(IobDiskDevice) * s->ndevices);
	shared->first_at_ns = 0;
	pg_atomic_init_u32(&shared->first_taken, 0);
}

/* See diskstats.h */
long
iob_disk_take_first(IobDiskSampler *s, IobDiskShared *shared, int64 now,
					int64 measure_start_ns, long max_sleep_ms)
{
	int64		wait_ms;

	if (s == NULL || s->nsamples > 0)
		return max_sleep_ms;
	if (now < measure_start_ns)
	{
		wait_ms = (measure_start_ns - now + 999999) / 1000000;
		return (long) Max(Min(wait_ms, (int64) max_sleep_ms), 1);
	}
	take_sample(s);
	shared->first_at_ns = s->at_ns[1];
	memcpy(shared->first, s->counters[1], sizeof(IobDiskCounters) * s->ndevices);
	pg_write_barrier();
	pg_atomic_write_u32(&shared->first_taken, 1);
	return max_sleep_ms;
}

/* See diskstats.h */
IobDiskSampler *
iob_disk_attach(IobDiskShared *shared)
{
	IobDiskSampler *s;

	if (shared->ndevices <= 0)
		return NULL;
	s = palloc0(sizeof(IobDiskSampler));
	s->ndevices = Min(shared->ndevices, IOB_DISK_MAX_DEVICES);
	memcpy(s->devices, shared->devices, sizeof(IobDiskDevice) * s->ndevices);
	s->shared = shared;
	initStringInfo(&s->pending);
	appendStringInfoChar(&s->pending, '[');
	return s;
}

/*
 * A recorder's sampler without a sample yet: take the launcher's first
 * sample as its own once the launcher has published it.  True when it has.
 */
static bool
adopt_first(IobDiskSampler *s)
{
	if (s->nsamples > 0 || s->shared == NULL)
		return s->nsamples > 0;
	if (pg_atomic_read_u32(&s->shared->first_taken) == 0)
		return false;
	pg_read_barrier();
	s->at_ns[1] = s->shared->first_at_ns;
	memcpy(s->counters[1], s->shared->first, sizeof(IobDiskCounters) * s->ndevices);
	s->nsamples = 1;
	return true;
}

/* See diskstats.h */
void
iob_disk_finish(IobDiskSampler *s, int64 end_ns)
{
	if (s == NULL || !adopt_first(s) || s->at_ns[1] >= end_ns)
		return;
	take_sample(s);
}

/* See diskstats.h */
long
iob_disk_poll(IobDiskSampler *s, int64 now, int64 measure_start_ns,
			  int64 end_ns, long max_sleep_ms)
{
	int64		due;
	int64		wait_ms;

	if (s == NULL)
		return max_sleep_ms;
	/* the first sample is the launcher's: wait for it once it is due */
	if (s->shared != NULL && !adopt_first(s))
	{
		wait_ms = (measure_start_ns - now + 999999) / 1000000;
		return (long) Max(Min(wait_ms, (int64) max_sleep_ms), 1);
	}
	/* after the sample at the end of the measured period: done */
	if (s->nsamples > 0 && s->at_ns[1] >= end_ns)
		return max_sleep_ms;

	due = Min(measure_start_ns + (int64) s->nsamples * SAMPLE_EVERY_NS, end_ns);
	if (now >= due)
	{
		take_sample(s);
		if (now >= end_ns)
			return max_sleep_ms;
		due = Min(measure_start_ns + (int64) s->nsamples * SAMPLE_EVERY_NS, end_ns);
	}
	/* round up: waking a little late costs less than waking twice */
	wait_ms = (due - now + 999999) / 1000000;
	return (long) Max(Min(wait_ms, (int64) max_sleep_ms), 1);
}

/* See diskstats.h */
char *
iob_disk_take_pending(IobDiskSampler *s)
{
	char	   *json;

	if (s == NULL || s->pending.len <= 1)
		return NULL;
	appendStringInfoChar(&s->pending, ']');
	json = pstrdup(s->pending.data);
	resetStringInfo(&s->pending);
	appendStringInfoChar(&s->pending, '[');
	return json;
}

/* See diskstats.h */
const char *
iob_disk_columns(void)
{
	static char cols[512];
	int			k;

	if (cols[0] == '\0')
	{
		strlcpy(cols, "device, member, second, interval_s", sizeof(cols));
		for (k = 0; k < IOB_DISK_NFIELDS; k++)
		{
			strlcat(cols, ", ", sizeof(cols));
			strlcat(cols, field_names[k], sizeof(cols));
		}
	}
	return cols;
}
