/*-------------------------------------------------------------------------
 *
 * store_worker.c
 *	  The storer: the background worker that keeps a run, suite or search
 *	  whose statement failed, in a transaction of its own.
 *
 * See store_worker.h for who stores which run.  The storer is one dynamic
 * background worker per failed run; it connects to the launcher's
 * database, stores the run through iob_store_run() (as the schema owner,
 * like the launcher) in a transaction of its own, and exits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/memutils.h"
#include "utils/builtins.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "base/base.h"
#include "run_limits.h"
#include "engine/engine.h"
#include "results/results.h"
#include "store_worker.h"
#include "run_summary.h"
#include "second_ring.h"

PGDLLEXPORT void iobench_store_main(Datum main_arg);

/*
 * The tables that hold a run's rows besides iobench.runs: all of them come
 * along with a campaign's kept runs (iob_export_campaign_rows()), and the
 * storer inserts them after the runs (import_rows())
 */
static const char *const run_child_tables[] = {
	"run_seconds", "run_latency", "run_stalls", "run_disk_seconds",
	"run_tablespaces", "run_waits", "run_wait_sampling", "run_server_reads"
};

/* A campaign's row, inserted before its runs, and its steps, after them */
static const char *const campaign_tables[] = {"suites", "searches", "fleets", "tunings"};
static const char *const campaign_step_tables[] = {"suite_runs", "search_steps", "fleet_runs",
"tuning_runs"};

/* How long the launcher waits for the storer before giving up on it */
#define STORE_WAIT_MS		30000

/* See store_worker.h */
bool
iob_store_detached(dsm_segment *seg, IobRunStoreInfo *info, const char **why)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	int			waited_ms = 0;
	pid_t		pid;

	iob_dynworker_prepare(&worker, "iobench_store_main", "iobench storer", seg);
	snprintf(worker.bgw_name, BGW_MAXLEN, "iobench storer of run by PID %d", MyProcPid);
	info->launcher_procno = GetNumberFromPGProc(MyProc);

	/* the run's workers just exited: their slots may take a moment to free */
	while (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		if (waited_ms >= 1000)
		{
			*why = "no background worker slot was free for the process that stores it";
			return false;
		}
		pg_usleep(10 * 1000L);
		waited_ms += 10;
	}
	waited_ms = 0;

	/*
	 * Wait without CHECK_FOR_INTERRUPTS: this runs while an error is being
	 * handled, or while this backend exits.  The segment must stay mapped
	 * until the storer is done with it.
	 */
	while (pg_atomic_read_u32(&info->done) == 0 && waited_ms < STORE_WAIT_MS)
	{
		if (GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
			break;
		pg_usleep(10 * 1000L);
		waited_ms += 10;
	}
	if (pg_atomic_read_u32(&info->done) == 0)
	{
		*why = waited_ms >= STORE_WAIT_MS ?
			"the process that stores it did not finish in time" :
			"the process that stores it exited without storing it";
		if (waited_ms >= STORE_WAIT_MS)
			TerminateBackgroundWorker(handle);
		return false;
	}
	pg_read_barrier();
	if (info->error_message[0] != '\0')
	{
		/* a copy: the segment may go before the caller reads it */
		*why = pstrdup(info->error_message);
		return false;
	}
	return true;
}

/* See store_worker.h */
bool
iob_store_rows_detached(const char *json, const char **why)
{
	shm_toc_estimator e;
	dsm_segment *seg;
	dsm_segment *rows;
	shm_toc    *toc;
	IobRunStoreInfo *info;
	Size		len = strlen(json) + 1;
	bool		stored;

	/* its slot counts against iobench.max_workers_total, as a run's do */
	if (!iob_limits_try_slot())
	{
		*why = "the background worker slots iobench may hold are all taken by runs in progress";
		return false;
	}
	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(IobRunStoreInfo) + 1);
	shm_toc_estimate_keys(&e, 1);
	seg = dsm_create(shm_toc_estimate(&e), 0);
	toc = shm_toc_create(IOB_STORE_MAGIC, dsm_segment_address(seg), shm_toc_estimate(&e));
	info = shm_toc_allocate(toc, sizeof(IobRunStoreInfo) + 1);
	memset(info, 0, sizeof(IobRunStoreInfo) + 1);
	pg_atomic_init_u32(&info->done, 0);
	shm_toc_insert(toc, IOB_KEY_STORE, info);

	rows = dsm_create(len, 0);
	memcpy(dsm_segment_address(rows), json, len);
	info->rows_handle = dsm_segment_handle(rows);

	stored = iob_store_detached(seg, info, why);
	dsm_detach(rows);
	dsm_detach(seg);
	iob_limits_release_slot();
	return stored;
}

/* See store_worker.h; runs as the schema owner */
char *
iob_export_run_waits(int64 run_id)
{
	const char *sql =
		"SELECT pg_catalog.jsonb_build_object("
		"'run_waits', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(w)), '[]') "
		"  FROM iobench.run_waits w WHERE w.run_id = $1), "
		"'run_wait_sampling', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(s)), '[]') "
		"  FROM iobench.run_wait_sampling s WHERE s.run_id = $1))::pg_catalog.text";
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	bool		isnull;

	values[0] = Int64GetDatum(run_id);
	return TextDatumGetCString(iob_owner_value(sql, 1, types, values, NULL,
											   SPI_OK_SELECT, &isnull));
}

/*
 * See store_worker.h: the rows of a campaign that an error ended, as
 * iob_store_rows_detached() takes them: the parent row (table "parent",
 * key "key" = id), its link rows ("links"), the runs they name but
 * failed_run_id (which its storer has already committed) with all their
 * children.  Read as the schema owner.
 */
char *
iob_export_campaign_rows(const char *parent, const char *links, const char *key,
						 int64 id, int64 failed_run_id)
{
	StringInfoData sql;
	Oid			types[2] = {INT8OID, INT8OID};
	Datum		values[2];
	bool		isnull;
	int			i;

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "WITH r AS (SELECT l.run_id FROM iobench.%s l "
					 "  WHERE l.%s = $1 AND l.run_id <> $2) "
					 "SELECT pg_catalog.jsonb_build_object("
					 "'%s', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]') "
					 "  FROM iobench.%s x WHERE x.%s = $1), "
					 "'%s', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]') "
					 "  FROM iobench.%s x WHERE x.%s = $1), "
					 "'runs', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]') "
					 "  FROM iobench.runs x WHERE x.run_id IN (SELECT r.run_id FROM r))",
					 links, key, parent, parent, key, links, links, key);
	for (i = 0; i < (int) lengthof(run_child_tables); i++)
		appendStringInfo(&sql,
						 ", '%s', (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x)), '[]') "
						 "  FROM iobench.%s x WHERE x.run_id IN (SELECT r.run_id FROM r))",
						 run_child_tables[i], run_child_tables[i]);
	appendStringInfoString(&sql, ")::pg_catalog.text");

	values[0] = Int64GetDatum(id);
	values[1] = Int64GetDatum(failed_run_id);
	return TextDatumGetCString(iob_owner_value(sql.data, 2, types, values, NULL,
											   SPI_OK_SELECT, &isnull));
}

/*
 * Which of a table's rows import_table() inserts.  A run a campaign names
 * but did not store (a fleet's server that is this database, or
 * sweep_io_workers()'s loopback connection, stored it and committed) is
 * stored already, whole: its row of iobench.runs is skipped (ON CONFLICT)
 * and so are its other rows.
 */
typedef enum ImportRows
{
	IMPORT_ALL,					/* every row */
	IMPORT_NEW_RUNS,			/* iobench.runs: the runs not stored yet */
	IMPORT_OF_NEW_RUNS			/* a run's other rows: of runs that have none yet */
} ImportRows;

/*
 * Insert the rows of member "table" of "rows" (iob_store_rows_detached()'s
 * format, as text) into iobench.<table>, those "which" says
 */
static void
import_table(Datum rows, const char *table, ImportRows which)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {rows};
	char	   *cols;
	bool		isnull;

	/* the table's columns but generated ones, which take no value */
	iob_owner_exec(psprintf("SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) "
							"FROM pg_catalog.pg_attribute a "
							"WHERE a.attrelid = 'iobench.%s'::pg_catalog.regclass "
							"AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''",
							table),
				   0, NULL, NULL, NULL, SPI_OK_SELECT);
	cols = TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0],
											 SPI_tuptable->tupdesc, 1, &isnull));
	iob_owner_exec(psprintf("INSERT INTO iobench.%s (%s) SELECT %s FROM "
							"pg_catalog.jsonb_populate_recordset(NULL::iobench.%s, "
							"COALESCE($1::pg_catalog.jsonb -> '%s', '[]')) x%s%s",
							table, cols, cols, table, table,
							which == IMPORT_OF_NEW_RUNS ?
							psprintf(" WHERE NOT EXISTS (SELECT FROM iobench.%s o "
									 "WHERE o.run_id OPERATOR(pg_catalog.=) x.run_id)",
									 table) : "",
							which == IMPORT_NEW_RUNS ? " ON CONFLICT DO NOTHING" : ""),
				   1, types, values, NULL, SPI_OK_INSERT);
}

/*
 * Insert the rows of iob_store_rows_detached()'s format from segment
 * "handle", table by table in an order that satisfies the foreign keys:
 * campaigns, runs, the runs' other rows, the campaigns' steps.
 */
static void
import_rows(dsm_handle handle)
{
	dsm_segment *seg = dsm_attach(handle);
	IobOwnerScope scope;
	Datum		rows;
	int			i;

	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not map dynamic shared memory segment of the rows to store")));
	rows = CStringGetTextDatum((char *) dsm_segment_address(seg));
	iob_owner_begin(&scope);
	for (i = 0; i < (int) lengthof(campaign_tables); i++)
		import_table(rows, campaign_tables[i], IMPORT_ALL);
	import_table(rows, "runs", IMPORT_NEW_RUNS);
	for (i = 0; i < (int) lengthof(run_child_tables); i++)
		import_table(rows, run_child_tables[i], IMPORT_OF_NEW_RUNS);
	for (i = 0; i < (int) lengthof(campaign_step_tables); i++)
		import_table(rows, campaign_step_tables[i], IMPORT_ALL);
	iob_owner_end(&scope);
	dsm_detach(seg);
}

/*
 * Store the run of the segment's toc in a transaction of its own, with its
 * row of iobench.run_server_reads for engine "postgres" (the launcher
 * stores that row for a completed run), so that every stored run of that
 * engine has one and exports and imports like a completed run
 */
static int64
store_in_own_transaction(shm_toc *toc)
{
	IobRunStoreInfo *info = shm_toc_lookup(toc, IOB_KEY_STORE, false);
	IobRunSummary summary;
	Datum		row;
	int64		run_id;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "storing a benchmark run");

	/* a segment of iob_store_rows_detached() has no run */
	if (shm_toc_lookup(toc, IOB_KEY_RUN, true) != NULL)
	{
		iob_summarize_run(&summary, toc);
		if (info->fixed_run_id > 0)
			summary.run_id = info->fixed_run_id;
		row = iob_store_run(&summary);
		run_id = iob_run_row_id(row, NULL);
		/*
		 * what the engine adds (postgres: its read path), counted as far as
		 * the run got
		 */
		{
			const IobEngineOps *ops = iob_engine_ops(summary.engine);

			if (ops->store)
				row = ops->store(run_id, &summary.engine_shared, &summary.engine_counts,
								 summary.bytes[IOB_OP_READ], row);
		}
	}
	else
		run_id = 0;
	if (info->rows_handle != DSM_HANDLE_INVALID)
		import_rows(info->rows_handle);

	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
	return run_id;
}

/* Background worker entry point; main_arg is the run's DSM handle */
void
iobench_store_main(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	IobRunStoreInfo *info;

	iob_dynworker_connect("iobench");
	CurrentResourceOwner = ResourceOwnerCreate(NULL, "iobench storer");
	/* a run's segment, or one of iob_store_rows_detached() */
	toc = iob_dynworker_attach(main_arg, IOB_SHM_MAGIC, IOB_STORE_MAGIC, &seg);
	info = shm_toc_lookup(toc, IOB_KEY_STORE, false);

	PG_TRY();
	{
		info->run_id = store_in_own_transaction(toc);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		strlcpy(info->error_message, edata->message, sizeof(info->error_message));
		pg_write_barrier();
		pg_atomic_write_u32(&info->done, 1);
		SetLatch(&GetPGProcByNumber(info->launcher_procno)->procLatch);
		PG_RE_THROW();
	}
	PG_END_TRY();

	pg_write_barrier();
	pg_atomic_write_u32(&info->done, 1);
	SetLatch(&GetPGProcByNumber(info->launcher_procno)->procLatch);
	dsm_detach(seg);
	proc_exit(0);
}
