/*-------------------------------------------------------------------------
 *
 * run_params.c
 *	  The names of a run's settings as the arguments spell them, and what
 *	  each access pattern does (run_params.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "run_params.h"

/*
 * Names as the arguments spell them, in the order of their enums (the
 * sizes declared in run_params.h make a missing name a compile error)
 */
const char *const iob_pattern_names[] = {
	"randread", "randwrite", "randrw", "read", "write", "readwrite"
};
const char *const iob_steady_names[] = {"none", "iops", "latency"};
const char *const iob_sync_method_names[] = {
	"fsync", "fdatasync", "open_datasync", "open_sync"
};

/* Name of a steady-state metric, as "steady_state" spells it */
const char *
iob_steady_name(IobSteadyMetric metric)
{
	return iob_steady_names[metric];
}

/* Name of a sync method, as "sync_method" (and wal_sync_method) spell it */
const char *
iob_sync_method_name(IobSyncMethod method)
{
	return iob_sync_method_names[method];
}

/* The sync method of that name; false when there is none */
bool
iob_sync_method_by_name(const char *name, IobSyncMethod *method)
{
	int			i;

	for (i = 0; i < (int) lengthof(iob_sync_method_names); i++)
		if (strcmp(iob_sync_method_names[i], name) == 0)
		{
			*method = (IobSyncMethod) i;
			return true;
		}
	return false;
}

/* Does the method open the files with O_DSYNC or O_SYNC (no sync calls)? */
bool
iob_sync_method_is_open(IobSyncMethod method)
{
	return method == IOB_SYNC_OPEN_DATASYNC || method == IOB_SYNC_OPEN_SYNC;
}

/* Name of an access pattern, as "rw" spells it */
const char *
iob_pattern_name(IobPattern rw)
{
	return iob_pattern_names[rw];
}

/* Does the pattern pick offsets at random? */
bool
iob_pattern_is_random(IobPattern rw)
{
	return rw == IOB_RW_RANDREAD || rw == IOB_RW_RANDWRITE || rw == IOB_RW_RANDRW;
}

/* Does the pattern mix reads and writes? */
bool
iob_pattern_is_mixed(IobPattern rw)
{
	return rw == IOB_RW_RANDRW || rw == IOB_RW_READWRITE;
}

/* Does the pattern read at all? */
bool
iob_pattern_reads(IobPattern rw)
{
	return rw != IOB_RW_RANDWRITE && rw != IOB_RW_WRITE;
}

/* Does the pattern write at all? */
bool
iob_pattern_writes(IobPattern rw)
{
	return rw != IOB_RW_RANDREAD && rw != IOB_RW_READ;
}

/*
 * Does the run measure commits, as a WAL flush is one: at iodepth 1, a
 * write and the sync that follows it (fsync_every 1), or a write alone
 * when the files are opened with O_DSYNC or O_SYNC (no sync calls).  The
 * commit's latency is the write's plus the sync's.
 */
bool
iob_params_commits(const IobRunParams *p)
{
	if (p->iodepth != 1 || !iob_pattern_writes(p->rw))
		return false;
	if (p->fsync_every == 1)
		return true;
	return p->fsync_every == 0 && iob_sync_method_is_open(p->sync_method);
}
