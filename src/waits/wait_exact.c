/*-------------------------------------------------------------------------
 *
 * wait_exact.c
 *	  PostgreSQL's exact counts of data-file reads and WAL writes and syncs,
 *	  read at both ends of a window (see wait_exact.h).
 *
 * The views differ by version (compat.h); the one place that depends on it
 * is iob_wait_counters_sql().  They are read through the owner-SPI path, after
 * clearing the statistics snapshot, which would otherwise return the same
 * figures for the whole transaction.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pgstat.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "wait_exact.h"

/* The wait event of each kind of counter, in IobWaitCounters order */
static const uint32 iob_counter_events[IOB_WAIT_EXACT_KINDS] = {
	WAIT_EVENT_DATA_FILE_READ,
	WAIT_EVENT_WAL_WRITE,
	WAIT_EVENT_WAL_SYNC,
};

/*
 * The query giving, in IobWaitCounters order, each count, its time in ms
 * and whether that time is measured: reads, WAL writes, WAL syncs.
 */
static const char *
iob_wait_counters_sql(void)
{
#if defined(IOB_HAVE_PG_STAT_IO_WAL)
	return "SELECT r.n, r.ms, t.io, w.writes, w.wms, t.wal, w.syncs, w.sms, t.wal "
		"FROM (SELECT pg_catalog.sum(reads)::float8 AS n, "
		"             pg_catalog.sum(read_time)::float8 AS ms "
		"      FROM pg_catalog.pg_stat_io WHERE object <> 'wal') r, "
		"     (SELECT pg_catalog.sum(writes)::float8 AS writes, "
		"             pg_catalog.sum(write_time)::float8 AS wms, "
		"             pg_catalog.sum(fsyncs)::float8 AS syncs, "
		"             pg_catalog.sum(fsync_time)::float8 AS sms "
		"      FROM pg_catalog.pg_stat_io WHERE object = 'wal') w, "
		"     (SELECT (pg_catalog.current_setting('track_io_timing')::bool)::int::float8 AS io, "
		"             (pg_catalog.current_setting('track_wal_io_timing')::bool)::int::float8 AS wal) t";
#elif defined(IOB_HAVE_PG_STAT_IO)
	return "SELECT r.n, r.ms, t.io, w.wal_write::float8, w.wal_write_time, t.wal, "
		"       w.wal_sync::float8, w.wal_sync_time, t.wal "
		"FROM (SELECT pg_catalog.sum(reads)::float8 AS n, "
		"             pg_catalog.sum(read_time)::float8 AS ms "
		"      FROM pg_catalog.pg_stat_io) r, "
		"     pg_catalog.pg_stat_wal w, "
		"     (SELECT (pg_catalog.current_setting('track_io_timing')::bool)::int::float8 AS io, "
		"             (pg_catalog.current_setting('track_wal_io_timing')::bool)::int::float8 AS wal) t";
#else
	return "SELECT r.n, r.ms, t.io, w.wal_write::float8, w.wal_write_time, t.wal, "
		"       w.wal_sync::float8, w.wal_sync_time, t.wal "
		"FROM (SELECT pg_catalog.sum(blks_read)::float8 AS n, "
		"             pg_catalog.sum(blk_read_time)::float8 AS ms "
		"      FROM pg_catalog.pg_stat_database) r, "
		"     pg_catalog.pg_stat_wal w, "
		"     (SELECT (pg_catalog.current_setting('track_io_timing')::bool)::int::float8 AS io, "
		"             (pg_catalog.current_setting('track_wal_io_timing')::bool)::int::float8 AS wal) t";
#endif
}

/* Read the counters now */
void
iob_wait_counters_read(IobWaitCounters *c)
{
	double		v[3 * IOB_WAIT_EXACT_KINDS];
	bool		nulls[3 * IOB_WAIT_EXACT_KINDS];
	int			k;

	pgstat_clear_snapshot();
	iob_owner_select_float8s(iob_wait_counters_sql(), 3 * IOB_WAIT_EXACT_KINDS,
							 v, nulls);
	for (k = 0; k < IOB_WAIT_EXACT_KINDS; k++)
	{
		c->count[k] = v[3 * k];
		c->ms[k] = v[3 * k + 1];
		c->timed[k] = !nulls[3 * k + 2] && v[3 * k + 2] != 0;
	}
}

/*
 * The exact figures of the window from start to end, one per kind, into
 * exact[IOB_WAIT_EXACT_KINDS].  A time is known only when timing was on at
 * both ends.  Returns the number of entries.
 */
int
iob_wait_counters_diff(const IobWaitCounters *start, const IobWaitCounters *end,
					   IobWaitExact *exact)
{
	int			k;

	for (k = 0; k < IOB_WAIT_EXACT_KINDS; k++)
	{
		double		n = end->count[k] - start->count[k];
		double		ms = end->ms[k] - start->ms[k];

		exact[k].wait_event_info = iob_counter_events[k];
		exact[k].count = (n > 0) ? (uint64) n : 0;
		exact[k].sum_ns = (ms > 0) ? (uint64) (ms * 1e6) : 0;
		exact[k].time_known = start->timed[k] && end->timed[k];
	}
	return IOB_WAIT_EXACT_KINDS;
}
