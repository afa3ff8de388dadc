/*-------------------------------------------------------------------------
 *
 * run_store.c
 *	  Storing a finished run: iobench.runs, run_seconds, run_latency,
 *	  run_stalls, and the device's seconds (diskstats.c).
 *
 * The summary row is handed to SQL as one jsonb object whose keys are the
 * column names of iobench.runs, and inserted with jsonb_populate_record:
 * adding a column to the table then needs one line here and no change to
 * a long positional INSERT.  The time series and the histogram go in as
 * arrays through unnest.  All statements run as the owner of the iobench
 * schema: callers of iobench.run() need no write access to the tables.
 * jsonb_populate_record fills a missing key with NULL, not the column's
 * default: every NOT NULL column is given here (run_uuid in the INSERT).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "device/device.h"
#include "engine/engine.h"
#include "base/base.h"
#include "run_store.h"

/* Start a key of the JSON object under construction */
static void
json_key(StringInfo buf, const char *key)
{
	if (buf->len > 1)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
}

/* Add a string member (NULL becomes JSON null) */
static void
json_str(StringInfo buf, const char *key, const char *value)
{
	json_key(buf, key);
	if (value == NULL || value[0] == '\0')
		appendStringInfoString(buf, "null");
	else
		escape_json(buf, value);
}

/* Add an integer member */
static void
json_int(StringInfo buf, const char *key, int64 value)
{
	json_key(buf, key);
	appendStringInfo(buf, INT64_FORMAT, value);
}

/* Add a floating-point member; "valid" false stores null */
static void
json_num(StringInfo buf, const char *key, double value, bool valid)
{
	json_key(buf, key);
	if (!valid || isnan(value) || isinf(value))
		appendStringInfoString(buf, "null");
	else
		appendStringInfo(buf, "%.*g", DBL_DIG, value);
}

/*
 * Add the figures of one histogram: ops, bytes, rates and latency
 * percentiles in microseconds, each key prefixed (e.g. "read_").
 */
static void
json_figures(StringInfo buf, const char *prefix, const IobHistogram *h,
			 uint64 bytes, double measured_s, bool with_bytes)
{
	char		key[64];
	bool		any = h->count > 0;
	bool		timed = measured_s > 0;
	static const struct
	{
		const char *name;
		double		pct;
	}			pcts[] = {
		{"lat_p50_us", 50.0}, {"lat_p90_us", 90.0}, {"lat_p99_us", 99.0},
		{"lat_p999_us", 99.9}
	};
	int			i;

#define KEY(name) (snprintf(key, sizeof(key), "%s%s", prefix, name), key)
	json_int(buf, KEY("ops"), (int64) h->count);
	if (with_bytes)
	{
		json_int(buf, KEY("bytes"), (int64) bytes);
		json_num(buf, KEY("mb_per_s"), (double) bytes / 1e6 / measured_s, timed);
		json_num(buf, KEY("mib_per_s"), (double) bytes / 1048576.0 / measured_s, timed);
	}
	json_num(buf, KEY("iops"), (double) h->count / measured_s, timed);
	json_num(buf, KEY("lat_avg_us"), iob_hist_mean(h) / 1000.0, any);
	for (i = 0; i < (int) lengthof(pcts); i++)
		json_num(buf, KEY(pcts[i].name), iob_hist_percentile(h, pcts[i].pct) / 1000.0, any);
	json_num(buf, KEY("lat_max_us"), (double) h->max_ns / 1000.0, any);
#undef KEY
}

/*
 * Add the figures of every kind of I/O: the data I/O (reads and writes
 * together, without prefix), then "read_", "write_" and "fsync_" (no bytes)
 */
static void
json_op_figures(StringInfo buf, const IobHistogram *hist, const uint64 *bytes,
				double measured_s)
{
	IobHistogram *data = palloc(sizeof(IobHistogram));

	iob_hist_reset(data);
	iob_hist_merge(data, &hist[IOB_OP_READ]);
	iob_hist_merge(data, &hist[IOB_OP_WRITE]);
	json_figures(buf, "", data, bytes[IOB_OP_READ] + bytes[IOB_OP_WRITE], measured_s, true);
	json_figures(buf, "read_", &hist[IOB_OP_READ], bytes[IOB_OP_READ], measured_s, true);
	json_figures(buf, "write_", &hist[IOB_OP_WRITE], bytes[IOB_OP_WRITE], measured_s, true);
	json_figures(buf, "fsync_", &hist[IOB_OP_FSYNC], 0, measured_s, false);
	pfree(data);
}

/*
 * The server settings that shape I/O, stored with each run under their own
 * names (columns of iobench.runs).  A server without a setting
 * (io_combine_limit before 17, io_method before 18, io_min_workers before
 * 19) leaves its column NULL.
 */
static const char *const io_settings[] = {
	"io_method", "io_workers", "io_min_workers", "io_max_workers",
	"io_combine_limit", "effective_io_concurrency", "maintenance_io_concurrency",
	"wal_sync_method", "full_page_writes"
};

/*
 * Add the server's I/O settings that exist, as SHOW prints them; where the
 * run's engine read with a value of its own (engine "postgres": the
 * effective_io_concurrency and io_combine_limit its workers set), that one
 */
static void
json_io_settings(StringInfo buf, const IobRunSummary *s)
{
	const IobEngineOps *ops = iob_engine_ops(s->engine);
	int			i;

	for (i = 0; i < (int) lengthof(io_settings); i++)
	{
		char	   *value = GetConfigOptionByName(io_settings[i], NULL, true);

		if (value != NULL && ops->setting)
		{
			char	   *own = ops->setting(&s->engine_shared, io_settings[i]);

			if (own != NULL)
				value = own;
		}

		if (value != NULL)
			json_str(buf, io_settings[i], value);
	}
}

/*
 * Add what identifies the run: status, label, when and where it ran (the
 * server, its I/O settings, the storage), its start
 */
static void
json_run_origin(StringInfo buf, const IobRunSummary *s)
{
	const IobRunParams *p = s->params;
	char		host[256];
	char		num[64];

	json_str(buf, "status", s->status);
	json_str(buf, "label", s->label);
	json_str(buf, "started_at", timestamptz_to_str(s->started_at));
	json_str(buf, "finished_at", timestamptz_to_str(s->finished_at));
	json_str(buf, "tablespace", NameStr(p->tablespace));
	if (p->ngroup > 0)
	{
		int			g;

		json_key(buf, "tablespaces");
		appendStringInfoChar(buf, '[');
		for (g = 0; g < p->ngroup; g++)
		{
			if (g > 0)
				appendStringInfoChar(buf, ',');
			escape_json(buf, NameStr(p->group_names[g]));
		}
		appendStringInfoChar(buf, ']');
	}
	json_str(buf, "device", s->storage.device);
	json_str(buf, "filesystem", s->storage.filesystem);
	json_str(buf, "mount_point", s->storage.mount_point);
	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	json_str(buf, "host", host);
	snprintf(num, sizeof(num), UINT64_FORMAT, GetSystemIdentifier());
	json_str(buf, "system_identifier", num);
	json_str(buf, "pg_version", PG_VERSION);
	json_io_settings(buf, s);
	json_str(buf, "tool", "iobench");
	if (p->start_at != 0)
		json_str(buf, "start_at", timestamptz_to_str(p->start_at));
	if (s->go_at != 0)
		json_str(buf, "go_at", timestamptz_to_str(s->go_at));
}

/* Add the settings of the run */
static void
json_run_settings(StringInfo buf, const IobRunSummary *s)
{
	const IobRunParams *p = s->params;
	char		num[64];

	json_str(buf, "rw", iob_pattern_name(p->rw));
	json_int(buf, "block_size", p->block_size);
	json_int(buf, "workers", p->workers);
	json_int(buf, "iodepth", p->iodepth);
	snprintf(num, sizeof(num), INT64_FORMAT " microseconds", p->duration_us);
	json_str(buf, "duration", num);
	snprintf(num, sizeof(num), INT64_FORMAT " microseconds", p->warmup_us);
	json_str(buf, "warmup", num);
	json_int(buf, "file_size", (int64) p->file_size);
	json_int(buf, "files", p->files);
	if (iob_pattern_is_mixed(p->rw))
		json_int(buf, "read_pct", p->read_pct);
	json_int(buf, "fsync_every", p->fsync_every);
	json_str(buf, "sync_method", iob_sync_method_name(p->sync_method));
	json_key(buf, "direct");
	appendStringInfoString(buf, p->direct ? "true" : "false");
	json_str(buf, "engine", iob_engine_kind_name(s->engine));
	json_int(buf, "rate_iops", p->rate_iops);
	json_int(buf, "seed", (int64) p->seed);
	json_int(buf, "rewrite_pct", p->rewrite_pct);
	json_key(buf, "cold_reads");
	appendStringInfoString(buf, p->cold_reads ? "true" : "false");
	if (p->stall_threshold_us > 0)
	{
		snprintf(num, sizeof(num), INT64_FORMAT " microseconds", p->stall_threshold_us);
		json_str(buf, "stall_threshold", num);
		json_int(buf, "stall_count", (int64) s->stall_count);
	}
}

/* The iobench.runs row of the summary, as a JSON object */
static char *
summary_json(const IobRunSummary *s)
{
	const IobRunParams *p = s->params;
	StringInfoData buf;
	char		num[64];

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	json_run_origin(&buf, s);
	json_run_settings(&buf, s);
	json_num(&buf, "measured_s", s->measured_s, true);
	json_op_figures(&buf, s->hist, s->bytes, s->measured_s);
	/* a commit is a write and its sync (iob_params_commits): its figures */
	if (iob_params_commits(p))
		json_figures(&buf, "commit_", &s->commit_hist, 0, s->measured_s, false);

	json_num(&buf, "cpu_user_pct", 100.0 * s->cpu_user_s / s->measured_s, s->measured_s > 0);
	json_num(&buf, "cpu_sys_pct", 100.0 * s->cpu_sys_s / s->measured_s, s->measured_s > 0);
	snprintf(num, sizeof(num), "%016" PRIx64, s->offset_digest);
	json_str(&buf, "offset_digest", num);
	if (p->steady_state != IOB_STEADY_NONE)
	{
		json_str(&buf, "steady_state", iob_steady_name(p->steady_state));
		json_num(&buf, "steady_band", p->steady_band_pct, true);
		snprintf(num, sizeof(num), "%d seconds", p->steady_window_s);
		json_str(&buf, "steady_window", num);
		json_key(&buf, "steady_reached");
		appendStringInfoString(&buf, s->steady_reached ? "true" : "false");
		if (s->steady_reached)
			json_int(&buf, "steady_at_s", s->steady_at_s);
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* See run_store.h */
void
iob_take_live_rows(IobRunSummary *s)
{
	IobOwnerScope scope;
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	bool		isnull;
	Datum		d;
	MemoryContext cxt = CurrentMemoryContext;

	values[0] = Int64GetDatum(s->run_id);
	iob_owner_begin(&scope);
	iob_owner_exec("SELECT l.ring_stored, l.late_stored::text, "
				   "  (SELECT pg_catalog.jsonb_agg(x)::text FROM iobench.live_seconds x "
				   "    WHERE x.run_id = l.run_id), "
				   "  (SELECT pg_catalog.jsonb_agg(x)::text FROM iobench.live_disk_seconds x "
				   "    WHERE x.run_id = l.run_id) "
				   "FROM iobench.live_runs l WHERE l.run_id = $1",
				   1, types, values, NULL, SPI_OK_SELECT);
	if (SPI_processed == 1)
	{
		s->live_taken = true;
		s->ring_stored = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0],
													 SPI_tuptable->tupdesc, 1, &isnull));
		s->late_stored = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull);
		s->live_seconds = isnull ? NULL : SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4, &isnull);
		s->live_disk_seconds = isnull ? NULL : SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4);
		(void) d;
		/* out of SPI's memory, which iob_owner_end() frees */
		s->late_stored = MemoryContextStrdup(cxt, s->late_stored);
		if (s->live_seconds)
			s->live_seconds = MemoryContextStrdup(cxt, s->live_seconds);
		if (s->live_disk_seconds)
			s->live_disk_seconds = MemoryContextStrdup(cxt, s->live_disk_seconds);
	}
	iob_owner_end(&scope);
}

/*
 * The recorder's progress through the shared seconds (second_ring.h), from
 * its live_runs row: locked when it can be, so that the recorder can
 * commit no more (its next transaction updates the row first).  Returns
 * whether the row was locked; a row locked by a recorder stopped inside
 * its transaction is read as committed, without waiting.  No row: nothing
 * was stored.
 */
static bool
lock_live_run(int64 run_id, int32 *ring_stored, char **late_stored)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	bool		isnull;
	int			pass;

	values[0] = Int64GetDatum(run_id);
	*ring_stored = 0;
	*late_stored = NULL;
	for (pass = 0; pass < 2; pass++)
	{
		iob_owner_exec(pass == 0 ?
					   "SELECT l.ring_stored, l.late_stored::text FROM iobench.live_runs l "
					   "WHERE l.run_id = $1 FOR UPDATE SKIP LOCKED" :
					   "SELECT l.ring_stored, l.late_stored::text FROM iobench.live_runs l "
					   "WHERE l.run_id = $1",
					   1, types, values, NULL, SPI_OK_SELECT);
		if (SPI_processed == 1)
		{
			*ring_stored = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0],
													   SPI_tuptable->tupdesc, 1, &isnull));
			*late_stored = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
			return pass == 0;
		}
	}
	return true;				/* no row: nothing to lock */
}

/*
 * The per-second time series: the recorder stored it in
 * iobench.live_seconds as the run went (recorder.h); store it in
 * iobench.run_seconds with the seconds it did not store (s's leftovers,
 * those its live_runs row does not count), and the device's seconds
 * (diskstats.h) in iobench.run_disk_seconds.  The live rows come from "s"
 * when the launcher read them from a recorder that deletes them itself;
 * else from the tables, and the live rows are deleted in this transaction.
 * A recorder stopped inside a transaction keeps its live rows locked: they
 * stay (running_runs does not list a stored run).
 */
static void
store_seconds(int64 run_id, const IobRunSummary *s)
{
	Oid			types[5] = {INT8OID, TEXTOID, INT4OID, TEXTOID, TEXTOID};
	Datum		values[5];
	char		nulls[5] = {' ', ' ', ' ', ' ', ' '};
	int32		ring_stored;
	char	   *late_stored;
	bool		locked = false;
	const char *live;

	if (s->live_taken)
	{
		ring_stored = s->ring_stored;
		late_stored = s->late_stored;
		live = "SELECT x.second, x.op, x.ops, x.bytes, x.lat_mean_us * x.ops, x.lat_max_us "
			"FROM pg_catalog.jsonb_populate_recordset(NULL::iobench.live_seconds, "
			"  $5::pg_catalog.jsonb) AS x";
	}
	else
	{
		locked = lock_live_run(run_id, &ring_stored, &late_stored);
		live = "SELECT l.second, l.op, l.ops, l.bytes, l.lat_mean_us * l.ops, l.lat_max_us "
			"FROM iobench.live_seconds l WHERE l.run_id = $1 AND $5 IS NULL";
	}
	values[0] = Int64GetDatum(run_id);
	values[1] = CStringGetTextDatum(s->leftover_seconds ? s->leftover_seconds : "[]");
	values[2] = Int32GetDatum(ring_stored);
	if (late_stored)
		values[3] = CStringGetTextDatum(late_stored);
	else
		nulls[3] = 'n';
	if (s->live_taken && s->live_seconds)
		values[4] = CStringGetTextDatum(s->live_seconds);
	else
		nulls[4] = 'n';
	if (!s->live_taken || s->live_seconds)
		iob_owner_exec(psprintf("INSERT INTO iobench.run_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us) "
								"SELECT $1, u.second, u.op, sum(u.ops), sum(u.bytes), "
								"  sum(u.lat_sum_us) / sum(u.ops), max(u.lat_max_us) "
								"FROM (%s "
								"      UNION ALL "
								"      SELECT x.second, x.op, x.ops, x.bytes, x.lat_sum_us, x.lat_max_us "
								"        FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(w integer, "
								"             n bigint, second integer, op text, ops bigint, bytes bigint, "
								"             lat_sum_us double precision, lat_max_us double precision) "
								"       WHERE CASE WHEN x.w < 0 THEN x.n >= $3 "
								"                  ELSE x.n >= COALESCE(($4::bigint[])[x.w + 1], 0) END) "
								"     AS u(second, op, ops, bytes, lat_sum_us, lat_max_us) "
								"WHERE u.ops > 0 "
								"GROUP BY u.second, u.op", live),
					   5, types, values, nulls, SPI_OK_INSERT);
	else
		iob_owner_exec("INSERT INTO iobench.run_seconds (run_id, second, op, ops, bytes, lat_mean_us, lat_max_us) "
					   "SELECT $1, x.second, x.op, sum(x.ops), sum(x.bytes), "
					   "  sum(x.lat_sum_us) / sum(x.ops), max(x.lat_max_us) "
					   "FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS x(w integer, "
					   "     n bigint, second integer, op text, ops bigint, bytes bigint, "
					   "     lat_sum_us double precision, lat_max_us double precision) "
					   "WHERE x.ops > 0 AND CASE WHEN x.w < 0 THEN x.n >= $3 "
					   "          ELSE x.n >= COALESCE(($4::bigint[])[x.w + 1], 0) END "
					   "GROUP BY x.second, x.op",
					   4, types, values, nulls, SPI_OK_INSERT);
	if (s->live_taken)
	{
		if (s->live_disk_seconds)
		{
			values[1] = CStringGetTextDatum(s->live_disk_seconds);
			iob_owner_exec(psprintf("INSERT INTO iobench.run_disk_seconds (run_id, %s) "
									"SELECT $1, %s FROM pg_catalog.jsonb_populate_recordset("
									"NULL::iobench.live_disk_seconds, $2::pg_catalog.jsonb)",
									iob_disk_columns(), iob_disk_columns()),
						   2, types, values, NULL, SPI_OK_INSERT);
		}
	}
	else
		iob_owner_exec(psprintf("INSERT INTO iobench.run_disk_seconds (run_id, %s) "
								"SELECT l.run_id, %s FROM iobench.live_disk_seconds l WHERE l.run_id = $1",
								iob_disk_columns(), iob_disk_columns()),
					   1, types, values, NULL, SPI_OK_INSERT);
	if (locked)
		iob_owner_exec("DELETE FROM iobench.live_runs WHERE run_id = $1",
					   1, types, values, NULL, SPI_OK_DELETE);
	if (s->lost_ops > 0)
		ereport(WARNING,
				(errmsg("iobench: " UINT64_FORMAT " I/Os of run " INT64_FORMAT " are missing from its per-second figures",
						s->lost_ops, run_id),
				 errdetail("The run's recorder was stuck for longer than the shared memory holds seconds; the run's totals count them, iobench.run_seconds does not."),
				 errhint("Look for what held the recorder up (a lock on the iobench.live_* tables, a stopped process) in the server log.")));
}

/*
 * The disk_* columns of the run: the disks' figures over the measured
 * period, from their seconds; for the disks of a tablespace group
 * ("loop0+loop1", by name) the rates and queue sizes add up and %util is
 * the busiest disk's.  Returns the updated row, or NULL when the run has
 * no device seconds (no block device): its disk_* columns stay NULL.
 */
static HeapTupleHeader
store_disk_summary(int64 run_id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1];

	values[0] = Int64GetDatum(run_id);
	iob_owner_exec("UPDATE iobench.runs r SET disk = d.devices, "
				   "  disk_r_s = d.r_s, disk_w_s = d.w_s, disk_rmb_s = d.rmb_s, disk_wmb_s = d.wmb_s, "
				   "  disk_aqu_sz = d.aqu_sz, disk_util_pct = d.util_pct "
				   "FROM (SELECT pg_catalog.string_agg(y.device, '+' ORDER BY y.device) AS devices, "
				   "        sum(y.reads / y.secs) AS r_s, sum(y.writes / y.secs) AS w_s, "
				   "        sum(y.rsect * 512 / 1e6 / y.secs) AS rmb_s, "
				   "        sum(y.wsect * 512 / 1e6 / y.secs) AS wmb_s, "
				   "        sum(y.queue_ms / 1000.0 / y.secs) AS aqu_sz, "
				   "        max(least(y.io_ms / 10.0 / y.secs, 100)) AS util_pct "
				   "        FROM (SELECT x.device, sum(x.reads) AS reads, sum(x.writes) AS writes, "
				   "                sum(x.read_sectors) AS rsect, sum(x.write_sectors) AS wsect, "
				   "                sum(x.queue_ms) AS queue_ms, sum(x.io_ms) AS io_ms, "
				   "                sum(x.interval_s) AS secs "
				   "                FROM iobench.run_disk_seconds x WHERE x.run_id = $1 AND NOT x.member "
				   "               GROUP BY x.device) y "
				   "      HAVING count(*) > 0) d "
				   "WHERE r.run_id = $1 RETURNING r.*",
				   1, types, values, NULL, SPI_OK_UPDATE_RETURNING);
	if (SPI_processed != 1)
		return NULL;
	return SPI_returntuple(SPI_tuptable->vals[0], SPI_tuptable->tupdesc);
}

/* See run_store.h */
int64
iob_reserve_run_id(void)
{
	bool		isnull;

	return DatumGetInt64(iob_owner_value("SELECT pg_catalog.nextval('iobench.runs_run_id_seq'::pg_catalog.regclass)",
										 0, NULL, NULL, NULL, SPI_OK_SELECT, &isnull));
}

/*
 * Insert the figures of each tablespace of a group (iobench.run_tablespaces),
 * the same columns as the run's own figures in iobench.runs.
 */
static void
store_group(int64 run_id, const IobRunSummary *s)
{
	const IobRunParams *p = s->params;
	Oid			types[2] = {TEXTOID, INT8OID};
	Datum		values[2];
	int			g;

	for (g = 0; g < p->ngroup; g++)
	{
		const IobGroupStats *gs = &s->group[g];
		IobStorageInfo storage;
		StringInfoData buf;
		char		dir[MAXPGPATH];

		TempTablespacePath(dir, p->group_oids[g]);
		iob_describe_storage(dir, &storage);
		initStringInfo(&buf);
		appendStringInfoChar(&buf, '{');
		json_str(&buf, "tablespace", NameStr(p->group_names[g]));
		json_int(&buf, "position", g + 1);
		json_str(&buf, "device", storage.device);
		json_str(&buf, "filesystem", storage.filesystem);
		json_str(&buf, "mount_point", storage.mount_point);
		json_int(&buf, "files", iob_group_files(p, g));
		json_op_figures(&buf, gs->hist, gs->bytes, s->measured_s);
		appendStringInfoChar(&buf, '}');
		values[0] = CStringGetTextDatum(buf.data);
		values[1] = Int64GetDatum(run_id);
		iob_owner_exec("INSERT INTO iobench.run_tablespaces "
					   "SELECT r.* FROM pg_catalog.jsonb_populate_record(NULL::iobench.run_tablespaces, "
					   "  $1::pg_catalog.jsonb || pg_catalog.jsonb_build_object('run_id', $2)) AS r",
					   2, types, values, NULL, SPI_OK_INSERT);
	}
}

/* Insert the non-empty histogram buckets of the run */
static void
store_latency(int64 run_id, const IobRunSummary *s)
{
	int			k;

	for (k = 0; k < IOB_NUM_OP_KINDS; k++)
	{
		const IobHistogram *h = &s->hist[k];
		Datum	   *lower;
		Datum	   *upper;
		Datum	   *count;
		int			rows = 0;
		int			b;
		Oid			types[5] = {INT8OID, TEXTOID, FLOAT8ARRAYOID, FLOAT8ARRAYOID, INT8ARRAYOID};
		Datum		values[5];

		if (h->count == 0)
			continue;
		lower = palloc(sizeof(Datum) * IOB_HIST_BUCKETS);
		upper = palloc(sizeof(Datum) * IOB_HIST_BUCKETS);
		count = palloc(sizeof(Datum) * IOB_HIST_BUCKETS);
		for (b = 0; b < IOB_HIST_BUCKETS; b++)
		{
			if (h->buckets[b] == 0)
				continue;
			lower[rows] = Float8GetDatum(iob_hist_bucket_lower(b) / 1000.0);
			upper[rows] = Float8GetDatum(iob_hist_bucket_upper(b) / 1000.0);
			count[rows] = Int64GetDatum((int64) h->buckets[b]);
			rows++;
		}
		values[0] = Int64GetDatum(run_id);
		values[1] = CStringGetTextDatum(iob_op_names[k]);
		values[2] = iob_array_datum(lower, NULL, rows, FLOAT8OID);
		values[3] = iob_array_datum(upper, NULL, rows, FLOAT8OID);
		values[4] = iob_array_datum(count, NULL, rows, INT8OID);
		iob_owner_exec("INSERT INTO iobench.run_latency (run_id, op, lower_us, upper_us, count) "
				 "SELECT $1, $2, u.* FROM ROWS FROM (pg_catalog.unnest($3), "
				 "pg_catalog.unnest($4), pg_catalog.unnest($5)) AS u",
				 5, types, values, NULL, SPI_OK_INSERT);
	}
}

/* Insert the stall events the workers kept (iobench.run_stalls) */
static void
store_stalls(int64 run_id, const IobRunSummary *s)
{
	int			n = s->nstall_events;
	Datum	   *at = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *worker = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *file = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *offset = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *write_us = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *sync_us = palloc(sizeof(Datum) * Max(n, 1));
	Oid			types[7] = {INT8OID, FLOAT8ARRAYOID, INT4ARRAYOID, INT4ARRAYOID,
	INT8ARRAYOID, FLOAT8ARRAYOID, FLOAT8ARRAYOID};
	Datum		values[7];
	int			i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
	{
		const IobStallEvent *ev = &s->stall_events[i];

		at[i] = Float8GetDatum((double) ev->at_ns / 1e9);
		worker[i] = Int32GetDatum(s->stall_workers[i]);
		file[i] = Int32GetDatum(ev->file_index);
		offset[i] = Int64GetDatum((int64) ev->offset);
		write_us[i] = Float8GetDatum((double) ev->write_ns / 1000.0);
		sync_us[i] = Float8GetDatum((double) ev->sync_ns / 1000.0);
	}
	values[0] = Int64GetDatum(run_id);
	values[1] = iob_array_datum(at, NULL, n, FLOAT8OID);
	values[2] = iob_array_datum(worker, NULL, n, INT4OID);
	values[3] = iob_array_datum(file, NULL, n, INT4OID);
	values[4] = iob_array_datum(offset, NULL, n, INT8OID);
	values[5] = iob_array_datum(write_us, NULL, n, FLOAT8OID);
	values[6] = iob_array_datum(sync_us, NULL, n, FLOAT8OID);
	iob_owner_exec("INSERT INTO iobench.run_stalls (run_id, at_s, worker, file, file_offset, write_us, sync_us) "
			 "SELECT $1, u.* FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), "
			 "pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6), "
			 "pg_catalog.unnest($7)) AS u",
			 7, types, values, NULL, SPI_OK_INSERT);
}

/* Store the run and its children; see run_store.h */
Datum
iob_store_run(const IobRunSummary *s)
{
	IobOwnerScope scope;
	Oid			types[2] = {TEXTOID, INT8OID};
	Datum		values[2];
	HeapTupleHeader row;
	HeapTupleHeader disk_row;
	bool		isnull;
	int64		run_id;

	values[0] = CStringGetTextDatum(summary_json(s));
	values[1] = Int64GetDatum(s->run_id);

	iob_owner_begin(&scope);
	iob_owner_exec("INSERT INTO iobench.runs "
			 "SELECT r.* FROM pg_catalog.jsonb_populate_record(NULL::iobench.runs, "
			 "  $1::pg_catalog.jsonb || pg_catalog.jsonb_build_object('run_id', "
			 "  COALESCE($2, "
			 "  pg_catalog.nextval('iobench.runs_run_id_seq'::pg_catalog.regclass)), "
			 "  'run_uuid', pg_catalog.gen_random_uuid())) AS r "
			 "RETURNING *",
			 2, types, values, s->run_id > 0 ? NULL : " n", SPI_OK_INSERT_RETURNING);
	run_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										 SPI_tuptable->tupdesc, 1, &isnull));
	row = SPI_returntuple(SPI_tuptable->vals[0], SPI_tuptable->tupdesc);

	store_seconds(run_id, s);
	store_latency(run_id, s);
	store_stalls(run_id, s);
	if (s->group)
		store_group(run_id, s);
	disk_row = store_disk_summary(run_id);
	if (disk_row)
		row = disk_row;
	iob_owner_end(&scope);
	return PointerGetDatum(row);
}

/*
 * The iobench.runs row of a run that is not stored (on a hot standby or in
 * a read-only transaction), with run_id NULL; see run_store.h.
 */
Datum
iob_unstored_run(const IobRunSummary *s)
{
	IobOwnerScope scope;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	HeapTupleHeader row;

	values[0] = CStringGetTextDatum(summary_json(s));

	iob_owner_begin(&scope);
	/* a run_uuid of its own, so importing the row twice stores it once */
	iob_owner_exec("SELECT r.* FROM pg_catalog.jsonb_populate_record(NULL::iobench.runs, "
				   "  $1::pg_catalog.jsonb OPERATOR(pg_catalog.||) "
				   "  pg_catalog.jsonb_build_object('run_uuid', pg_catalog.gen_random_uuid())) AS r",
				   1, types, values, NULL, SPI_OK_SELECT);
	row = SPI_returntuple(SPI_tuptable->vals[0], SPI_tuptable->tupdesc);
	iob_owner_end(&scope);
	return PointerGetDatum(row);
}

/* See run_store.h */
int64
iob_run_row_id(Datum row, bool *completed)
{
	HeapTupleHeader tup = DatumGetHeapTupleHeader(row);
	bool		isnull;
	Datum		id = GetAttributeByName(tup, "run_id", &isnull);

	if (completed)
	{
		Datum		status = GetAttributeByName(tup, "status", completed);

		/*
		 * "incomplete" ran to its end too (its seconds miss I/Os), and
		 * "invalid" (engine "postgres": it read from memory)
		 */
		*completed = !*completed &&
			(strcmp(TextDatumGetCString(status), "completed") == 0 ||
			 strcmp(TextDatumGetCString(status), "incomplete") == 0 ||
			 strcmp(TextDatumGetCString(status), "invalid") == 0);
	}
	return isnull ? 0 : DatumGetInt64(id);
}
