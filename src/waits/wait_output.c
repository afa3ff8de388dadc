/*-------------------------------------------------------------------------
 *
 * wait_output.c
 *	  A wait table as SQL rows, and its storage as a run's wait statistics
 *	  (see wait_output.h).
 *
 * Both go through one row builder, so a window, the collector and a run
 * name their wait types and place their exact figures alike.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"
#include "utils/wait_event.h"

#include "base/base.h"
#include "wait_output.h"

/* One row of iobench.wait_raw, before it becomes a tuple or an SPI array */
typedef struct IobWaitRow
{
	char		name[IOB_WAIT_NAME_LEN];
	int			btype;			/* backend type (0: unknown) */
	double		wait_s;
	double		signal_s;
	bool		signal_null;	/* part of the wait had no schedstat reading */
	int64		count;			/* sampled entries */
	bool		exact_null;		/* no exact figures */
	int64		exact_count;
	double		exact_s;
	bool		exact_s_null;	/* counted but not timed */
} IobWaitRow;

/* The name of a key as the tables show it: "type:event" */
void
iob_wait_key_name(uint64 key, char *buf, size_t buflen)
{
	uint32		info = IOB_WAIT_KEY_INFO(key);

	switch (IOB_WAIT_KEY_FLAVOUR(key))
	{
		case IOB_FLAVOUR_PLAIN:
			{
				const char *type = pgstat_get_wait_event_type(info);
				const char *event = pgstat_get_wait_event(info);

				snprintf(buf, buflen, "%s:%s",
						 type ? type : "Unknown", event ? event : "unknown");
				break;
			}
		case IOB_FLAVOUR_IN_XACT:
			snprintf(buf, buflen, "Client:ClientRead (idle in transaction)");
			break;
		case IOB_FLAVOUR_PREEMPTED:
			snprintf(buf, buflen, "CPU:Preempted");
			break;
		case IOB_FLAVOUR_OVERFLOW:
			snprintf(buf, buflen, "Overflow:OtherWaitTypes");
			break;
		default:
			snprintf(buf, buflen, "Unknown:0x%08x", info);
			break;
	}
}

/*
 * The server's name of a backend type, or NULL when unknown (or a key that
 * no process waited in, the overflow row)
 */
const char *
iob_wait_key_backend_type(uint64 key)
{
	int			btype = IOB_WAIT_KEY_BTYPE(key);

	if (btype == 0 || IOB_WAIT_KEY_FLAVOUR(key) == IOB_FLAVOUR_OVERFLOW)
		return NULL;
	return GetBackendTypeDesc((BackendType) btype);
}

/*
 * Add the exact figures of every entry of "exact" for key's wait event to
 * a row, those not yet given to another row (used[]): exact figures count
 * every process, so they go to one row of their wait type whatever the
 * backend types of its rows, and the rows' sum is right.
 */
static void
iob_wait_row_add_exact(IobWaitRow *row, uint64 key,
					   const IobWaitExact *exact, int nexact, bool *used)
{
	int			j;

	for (j = 0; j < nexact; j++)
	{
		if (used[j] ||
			IOB_WAIT_KEY_EVENT(key) != IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, exact[j].wait_event_info))
			continue;
		used[j] = true;
		if (row->exact_null)
		{
			row->exact_null = false;
			row->exact_count = 0;
			row->exact_s = 0;
			row->exact_s_null = false;
		}
		row->exact_count += (int64) exact[j].count;
		row->exact_s += exact[j].sum_ns / 1e9;
		if (!exact[j].time_known)
			row->exact_s_null = true;
	}
}

/*
 * Whether a key is a wait of one of the server's I/O workers (18 and
 * later), which a run of engine "postgres" keeps apart (IOB_IO_WORKER_LABEL)
 */
static bool
iob_wait_key_io_worker(uint64 key)
{
#ifdef IOB_HAVE_IO_WORKERS
	return IOB_WAIT_KEY_FLAVOUR(key) != IOB_FLAVOUR_OVERFLOW &&
		IOB_WAIT_KEY_BTYPE(key) == IOB_BTYPE_IO_WORKER;
#else
	return false;
#endif
}

/*
 * The rows of a table (its entries, then the overflow entry if used), then
 * a row for each wait event with exact figures that the table lacks.  With
 * io_workers_apart the rows of I/O workers are named with
 * IOB_IO_WORKER_LABEL after the wait type and take no exact figures: those
 * count the run's own waits.  Returns the number of rows, in a palloc'd
 * array.
 */
static int
iob_wait_rows(const IobWaitTable *t, bool have_schedstat,
			  const IobWaitExact *exact, int nexact, bool io_workers_apart,
			  IobWaitRow **rows_out)
{
	IobWaitEntry *entries = iob_wait_table_entries((IobWaitTable *) t);
	IobWaitRow *rows = palloc0(sizeof(IobWaitRow) * (t->nentries + 1 + nexact));
	bool	   *used = palloc0(sizeof(bool) * Max(nexact, 1));
	int			n = 0;
	int			i,
				j;

	for (i = 0; i <= t->nentries; i++)
	{
		const IobWaitEntry *e = (i < t->nentries) ? &entries[i] : &t->overflow;
		IobWaitRow *row = &rows[n];

		if (i == t->nentries && t->overflow_deltas == 0)
			break;
		iob_wait_key_name(e->key, row->name, sizeof(row->name));
		row->btype = (iob_wait_key_backend_type(e->key) != NULL) ?
			IOB_WAIT_KEY_BTYPE(e->key) : 0;
		row->wait_s = e->wait_ns / 1e9;
		row->signal_s = e->signal_ns / 1e9;
		/*
		 * signal time is unknown, not zero, when part of it had no reading,
		 * and for every row of a sampler without schedstat (a process seen
		 * entering a wait at the last tick has no time at all yet)
		 */
		row->signal_null = !have_schedstat || e->nosignal_ns > 0;
		row->count = (int64) e->count;
		row->exact_null = true;
		if (io_workers_apart && iob_wait_key_io_worker(e->key))
			strlcat(row->name, IOB_IO_WORKER_LABEL, sizeof(row->name));
		else
			iob_wait_row_add_exact(row, e->key, exact, nexact, used);
		n++;
	}
	/* wait events with exact figures that no row (of any backend type) took */
	for (j = 0; j < nexact; j++)
	{
		uint64		key = IOB_WAIT_KEY(IOB_FLAVOUR_PLAIN, exact[j].wait_event_info);
		IobWaitRow *row = &rows[n];

		if (used[j] || exact[j].count == 0)
			continue;
		iob_wait_key_name(key, row->name, sizeof(row->name));
		row->signal_null = !have_schedstat;
		row->exact_null = true;
		iob_wait_row_add_exact(row, key, exact, nexact, used);
		n++;
	}
	pfree(used);
	*rows_out = rows;
	return n;
}

/*
 * Append a table's rows (iobench.wait_raw: wait_type, wait_s, signal_s,
 * wait_count, exact_count, exact_wait_s, backend_type) to a tuplestore,
 * with exact figures beside them.  The caller passes a private copy when
 * the table is shared: names are resolved here.
 */
void
iob_wait_put_rows(const IobWaitTable *table, bool have_schedstat,
				  const IobWaitExact *exact, int nexact,
				  Tuplestorestate *tupstore, TupleDesc tupdesc)
{
	IobWaitRow *rows;
	int			n = iob_wait_rows(table, have_schedstat, exact, nexact, false,
								  &rows);
	int			i;

	for (i = 0; i < n; i++)
	{
		Datum		values[7];
		bool		nulls[7];

		memset(nulls, 0, sizeof(nulls));
		values[0] = CStringGetTextDatum(rows[i].name);
		values[1] = Float8GetDatum(rows[i].wait_s);
		values[2] = Float8GetDatum(rows[i].signal_s);
		nulls[2] = rows[i].signal_null;
		values[3] = Int64GetDatum(rows[i].count);
		values[4] = Int64GetDatum(rows[i].exact_count);
		nulls[4] = rows[i].exact_null;
		values[5] = Float8GetDatum(rows[i].exact_s);
		nulls[5] = rows[i].exact_null || rows[i].exact_s_null;
		if (rows[i].btype != 0)
			values[6] = CStringGetTextDatum(GetBackendTypeDesc((BackendType) rows[i].btype));
		else
			nulls[6] = true;
		tuplestore_putvalues(tupstore, tupdesc, values, nulls);
	}
	pfree(rows);
}

/*
 * Store a run's table as its wait statistics (iobench.run_waits), with the
 * exact figures beside the sampled ones, and how it was sampled
 * (iobench.run_wait_sampling).  The caller is in a transaction, and
 * iobench.runs has the run.  Written as the owner of the iobench schema,
 * as the run itself is stored (run_store.c): users who may run benchmarks
 * cannot write the result tables directly.
 */
void
iob_wait_store_run(const IobWaitTable *table, bool have_schedstat,
				   const IobWaitExact *exact, int nexact,
				   int64 run_id, const IobWaitSampling *sampling)
{
	IobWaitRow *rows;
	int			n = iob_wait_rows(table, have_schedstat, exact, nexact,
								  sampling->io_workers_apart, &rows);
	Datum	   *cols[6];
	bool	   *signal_null = palloc(sizeof(bool) * Max(n, 1));
	bool	   *exact_null = palloc(sizeof(bool) * Max(n, 1));
	bool	   *exact_s_null = palloc(sizeof(bool) * Max(n, 1));
	Datum		args[7];
	Oid			argtypes[7] = {INT8OID, TEXTARRAYOID, FLOAT8ARRAYOID,
		FLOAT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, FLOAT8ARRAYOID};
	Datum		sargs[6];
	Oid			stypes[6] = {INT8OID, INT4OID, INT8OID, INT8OID, FLOAT8OID, TEXTOID};
	IobOwnerScope scope;
	int			i,
				c;

	for (c = 0; c < 6; c++)
		cols[c] = palloc(sizeof(Datum) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		cols[0][i] = CStringGetTextDatum(rows[i].name);
		cols[1][i] = Float8GetDatum(rows[i].wait_s);
		cols[2][i] = Float8GetDatum(rows[i].signal_s);
		signal_null[i] = rows[i].signal_null;
		cols[3][i] = Int64GetDatum(rows[i].count);
		cols[4][i] = Int64GetDatum(rows[i].exact_count);
		exact_null[i] = rows[i].exact_null;
		cols[5][i] = Float8GetDatum(rows[i].exact_s);
		exact_s_null[i] = rows[i].exact_null || rows[i].exact_s_null;
	}

	iob_owner_begin(&scope);

	if (n > 0)
	{
		args[0] = Int64GetDatum(run_id);
		args[1] = iob_array_datum(cols[0], NULL, n, TEXTOID);
		args[2] = iob_array_datum(cols[1], NULL, n, FLOAT8OID);
		args[3] = iob_array_datum(cols[2], signal_null, n, FLOAT8OID);
		args[4] = iob_array_datum(cols[3], NULL, n, INT8OID);
		args[5] = iob_array_datum(cols[4], exact_null, n, INT8OID);
		args[6] = iob_array_datum(cols[5], exact_s_null, n, FLOAT8OID);

		/* rows of one name (extension wait events share one) are summed */
		iob_owner_exec("INSERT INTO iobench.run_waits "
					   "(run_id, wait_type, wait_s, signal_s, wait_count, "
					   " exact_count, exact_wait_s) "
					   "SELECT $1, u.n, pg_catalog.sum(u.w), "
					   "       CASE WHEN pg_catalog.count(u.s) = pg_catalog.count(*) "
					   "            THEN pg_catalog.sum(u.s) END, "
					   "       pg_catalog.sum(u.c), pg_catalog.sum(u.ec), pg_catalog.sum(u.es) "
					   "FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), "
					   "               pg_catalog.unnest($4), pg_catalog.unnest($5), "
					   "               pg_catalog.unnest($6), pg_catalog.unnest($7)) "
					   "     AS u(n, w, s, c, ec, es) "
					   "GROUP BY u.n",
					   7, argtypes, args, NULL, SPI_OK_INSERT);
	}

	sargs[0] = Int64GetDatum(run_id);
	sargs[1] = Int32GetDatum(sampling->period_ms);
	sargs[2] = Int64GetDatum((int64) sampling->ticks);
	sargs[3] = Int64GetDatum((int64) sampling->missed);
	sargs[4] = Float8GetDatum(sampling->sampled_ns / 1e9);
	sargs[5] = CStringGetTextDatum(sampling->scope);
	iob_owner_exec("INSERT INTO iobench.run_wait_sampling "
				   "(run_id, period_ms, ticks, missed_ticks, sampled_s, scope) "
				   "VALUES ($1, $2, $3, $4, $5, $6)",
				   6, stypes, sargs, NULL, SPI_OK_INSERT);

	iob_owner_end(&scope);
}
