/*-------------------------------------------------------------------------
 *
 * campaign.c
 *	  iobench_internal.campaign(): the frame every campaign runs in.
 *
 * A campaign is a row of its kind's table (iobench.suites, searches,
 * fleets, tunings) and a row per step in its steps table (suite_runs,
 * search_steps, fleet_runs, tuning_runs), each step naming the run it took
 * (or, for a fleet, the run it gathered from a server).  The frame, one call:
 *
 *	1. inserts the campaign's row, status "running" (as the schema owner:
 *	   the caller needs no write access to the tables, owner_spi.h);
 *	2. calls the campaign's body, a function body(campaign_id, plan) of
 *	   iobench_internal run as the caller (PL/pgSQL, or SQL composing
 *	   PL/pgSQL with what only bound SQL may call, as the tuning calls'
 *	   scans), which takes the steps with iobench.run() and returns them
 *	   as jsonb: {"steps": [rows of the steps table],
 *	   "campaign": {columns of the campaign's row to set at the end},
 *	   "status": "completed" or "cancelled"} and, when a step ended in an
 *	   error (the body catches it, a cancel included, and takes no more
 *	   steps), "error": {sqlstate, message, detail, hint} and "failed_step":
 *	   the step that failed, without its run;
 *	3. stores the steps and finishes the row.  After an error the failed
 *	   step is listed with the partial run its run stored (if it stored
 *	   one: iob_take_kept_run_id()), the campaign is marked "cancelled", its
 *	   rows are read out, everything the campaign wrote is rolled back (it
 *	   all lies in a subtransaction of its own) and a storer worker stores
 *	   those rows in a transaction that commits on its own
 *	   (store_worker.h); then the step's error is raised with its SQLSTATE
 *	   (57014 stays a cancel), its DETAIL saying what was kept.
 *
 * An error of the body itself, not of a step, is raised as it is and keeps
 * nothing: the campaign's subtransaction is rolled back.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"

#include "campaign.h"
#include "base/base.h"
#include "engine/engine.h"
#include "run/run.h"

PG_FUNCTION_INFO_V1(iobench_campaign);

/* Argument positions of iobench_internal.campaign() */
enum
{
	CA_ARG_KIND = 0,
	CA_ARG_ROW,
	CA_ARG_PLAN,
	CA_ARG_BODY
};

/* Where a kind of campaign is stored, and how its errors name it */
typedef struct CampaignKind
{
	const char *kind;			/* iobench_internal.campaign()'s "kind" */
	const char *table;			/* its row: iobench.<table> */
	const char *steps;			/* its steps: iobench.<steps> */
	const char *key;			/* the id column of both */
	const char *noun;			/* "The <noun> is kept as ..." */
	const char *id_noun;		/* "... as <id_noun> <id>" */
	const char *kept_steps;		/* "the ... done before" */
	const char *signature;		/* the API function, whose grant it takes */
} CampaignKind;

static const CampaignKind campaign_kinds[] = {
	{
		"suite", "suites", "suite_runs", "suite_id",
		"suite", "suite", "runs done before",
		"iobench.suite(text, name[], integer, interval, interval, text, boolean, text, bigint, "
		"text, text)"
	},
	{
		"search", "searches", "search_steps", "search_id",
		"search", "search", "steps done before",
		"iobench.latency_search(name, interval, double precision, text, text, integer, integer, "
		"interval, interval, text, integer, boolean, text, bigint, text)"
	},
	{
		"fleet_run", "fleets", "fleet_runs", "fleet_id",
		"fleet call", "fleet", "runs gathered before",
		"iobench.fleet_run(text[], jsonb, boolean, interval, text)"
	},
	{
		"fleet_suite", "fleets", "fleet_runs", "fleet_id",
		"fleet call", "fleet", "runs gathered before",
		"iobench.fleet_suite(text, text[], name, interval, interval, text, boolean, text, bigint, "
		"boolean, interval, text)"
	},
	{
		"server_vs_disk", "tunings", "tuning_runs", "tuning_id",
		"tuning call", "tuning", "runs done before",
		"iobench.server_vs_disk(name, integer[], interval, text, integer, text)"
	},
	{
		"tune_tablespace", "tunings", "tuning_runs", "tuning_id",
		"tuning call", "tuning", "runs done before",
		"iobench.tune_tablespace(name, integer[], integer[], double precision, interval, text, "
		"integer, text)"
	},
	{
		"sweep_io_workers", "tunings", "tuning_runs", "tuning_id",
		"tuning call", "tuning", "runs done before",
		"iobench.sweep_io_workers(name, integer[], text, text, integer, interval, text, integer, "
		"text)"
	},
};

/* What the body said of a step that ended in an error */
typedef struct StepError
{
	int			sqlerrcode;
	char	   *message;
	char	   *detail;
	char	   *hint;
} StepError;

/* Look up a kind of campaign by name */
static const CampaignKind *
campaign_kind(const char *name)
{
	int			i;

	for (i = 0; i < (int) lengthof(campaign_kinds); i++)
		if (strcmp(campaign_kinds[i].kind, name) == 0)
			return &campaign_kinds[i];
	elog(ERROR, "unknown kind of campaign \"%s\"", name);
	return NULL;				/* keep compiler quiet */
}

/* The API function of a kind, for errors: "iobench.suite()" */
static const char *
campaign_entry(const CampaignKind *k)
{
	return psprintf("%.*s()", (int) strcspn(k->signature, "("), k->signature);
}

/*
 * Insert the campaign's row: "row" (jsonb, the table's columns but the id,
 * status and started_at) with a new id; returns the id.
 */
static int64
insert_campaign(const CampaignKind *k, Datum row)
{
	Oid			types[1] = {JSONBOID};
	Datum		values[1] = {row};
	bool		isnull;

	return DatumGetInt64(iob_owner_value(psprintf(
		"INSERT INTO iobench.%s SELECT (pg_catalog.jsonb_populate_record(NULL::iobench.%s, "
		"$1 OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object("
		"'%s', pg_catalog.nextval(pg_catalog.pg_get_serial_sequence('iobench.%s', '%s')), "
		"'status', 'running', 'started_at', pg_catalog.clock_timestamp()))).* "
		"RETURNING %s",
		k->table, k->table, k->key, k->table, k->key, k->key),
		1, types, values, NULL, SPI_OK_INSERT_RETURNING, &isnull));
}

/* Insert step rows (a jsonb array of the steps table's rows, without the id) */
static void
insert_steps(const CampaignKind *k, int64 id, Jsonb *steps)
{
	Oid			types[2] = {INT8OID, JSONBOID};
	Datum		values[2];

	if (steps == NULL)
		return;
	values[0] = Int64GetDatum(id);
	values[1] = JsonbPGetDatum(steps);
	iob_owner_run(psprintf(
		"INSERT INTO iobench.%s SELECT x.* FROM pg_catalog.jsonb_populate_recordset(NULL::iobench.%s, "
		"(SELECT pg_catalog.jsonb_agg(s OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('%s', $1)) "
		"   FROM pg_catalog.jsonb_array_elements($2) s)) x",
		k->steps, k->steps, k->key),
		2, types, values, NULL, SPI_OK_INSERT);
}

/*
 * Finish the campaign's row: its status, finished_at, and the columns
 * that "fields" (a jsonb object, or NULL) names, but its id.
 */
static void
finish_campaign(const CampaignKind *k, int64 id, const char *status, Jsonb *fields)
{
	Oid			types[3] = {INT8OID, TEXTOID, JSONBOID};
	Datum		values[3];
	char		nulls[3] = {' ', ' ', ' '};
	Datum		cols;
	bool		isnull;
	char	   *set = "";

	values[0] = Int64GetDatum(id);
	values[1] = CStringGetTextDatum(status);
	values[2] = fields ? JsonbPGetDatum(fields) : (Datum) 0;
	if (fields == NULL)
		nulls[2] = 'n';
	else
	{
		/* the columns "fields" sets: only the table's own */
		cols = iob_owner_value(psprintf(
			"SELECT pg_catalog.string_agg(pg_catalog.format('%%I = (f.p).%%I', a.attname, a.attname), ', ') "
			"  FROM pg_catalog.pg_attribute a "
			" WHERE a.attrelid = 'iobench.%s'::pg_catalog.regclass AND a.attnum OPERATOR(pg_catalog.>) 0 "
			"   AND NOT a.attisdropped "
			"   AND a.attname OPERATOR(pg_catalog.<>) ALL ('{%s,status,started_at,finished_at}'::pg_catalog.name[]) "
			"   AND $1 OPERATOR(pg_catalog.?) a.attname::pg_catalog.text",
			k->table, k->key),
			1, &types[2], &values[2], NULL, SPI_OK_SELECT, &isnull);
		if (!isnull)
			set = psprintf(", %s", TextDatumGetCString(cols));
	}
	iob_owner_run(psprintf(
		"UPDATE iobench.%s t SET status = $2, finished_at = pg_catalog.clock_timestamp()%s "
		"  FROM (SELECT pg_catalog.jsonb_populate_record(x, coalesce($3, '{}')) AS p "
		"          FROM iobench.%s x WHERE x.%s OPERATOR(pg_catalog.=) $1) f "
		" WHERE t.%s OPERATOR(pg_catalog.=) $1",
		k->table, set, k->table, k->key, k->key),
		3, types, values, nulls, SPI_OK_UPDATE);
}

/* See campaign.h */
void
iob_json_text(StringInfo buf, const char *name, const char *value)
{
	char		last = buf->len > 0 ? buf->data[buf->len - 1] : '{';

	appendStringInfo(buf, "%s\"%s\": ", last == '{' ? "" : ", ", name);
	if (value == NULL)
		appendStringInfoString(buf, "null");
	else
		escape_json(buf, value);
}

/* See campaign.h */
void
iob_json_int(StringInfo buf, const char *name, int64 value)
{
	char		last = buf->len > 0 ? buf->data[buf->len - 1] : '{';

	appendStringInfo(buf, "%s\"%s\": " INT64_FORMAT, last == '{' ? "" : ", ",
					 name, value);
}

/* See campaign.h */
void
iob_json_run_args(StringInfo buf, const IobRunParams *p, bool seed_given)
{
	int			i;

	appendStringInfoChar(buf, '{');
	if (p->ngroup > 0)
	{
		appendStringInfoString(buf, "\"tablespaces\": [");
		for (i = 0; i < p->ngroup; i++)
		{
			if (i > 0)
				appendStringInfoString(buf, ", ");
			escape_json(buf, NameStr(p->group_names[i]));
		}
		appendStringInfoChar(buf, ']');
	}
	else
		iob_json_text(buf, "tablespace", NameStr(p->tablespace));
	iob_json_text(buf, "rw", iob_pattern_name(p->rw));
	iob_json_int(buf, "block_size", p->block_size);
	iob_json_int(buf, "workers", p->workers);
	iob_json_int(buf, "iodepth", p->iodepth);
	iob_json_text(buf, "duration", psprintf(INT64_FORMAT " microseconds", p->duration_us));
	iob_json_text(buf, "warmup", psprintf(INT64_FORMAT " microseconds", p->warmup_us));
	iob_json_int(buf, "file_size", (int64) p->file_size);
	iob_json_int(buf, "files", p->files);
	if (iob_pattern_is_mixed(p->rw))
		iob_json_int(buf, "read_pct", p->read_pct);
	else
		iob_json_text(buf, "read_pct", NULL);
	iob_json_int(buf, "fsync_every", p->fsync_every);
	iob_json_text(buf, "sync_method", iob_sync_method_name(p->sync_method));
	iob_json_text(buf, "direct", p->direct ? "true" : "false");
	iob_json_text(buf, "engine", iob_engine_kind_name(p->engine));
	if (seed_given)
		iob_json_int(buf, "seed", (int64) p->seed);
	else
		iob_json_text(buf, "seed", NULL);
	appendStringInfoChar(buf, '}');
}

/* The value of member "name" of a jsonb object, or NULL when it has none */
static JsonbValue *
find_member(Jsonb *obj, const char *name)
{
	JsonbValue	key;

	if (obj == NULL || !JB_ROOT_IS_OBJECT(obj))
		return NULL;
	key.type = jbvString;
	key.val.string.val = (char *) name;
	key.val.string.len = strlen(name);
	return findJsonbValueFromContainer(&obj->root, JB_FOBJECT, &key);
}

/* A text member of a jsonb object, or NULL */
static char *
jsonb_text_member(Jsonb *obj, const char *name)
{
	JsonbValue *v = find_member(obj, name);

	if (v == NULL || v->type != jbvString)
		return NULL;
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* A member of a jsonb object as jsonb, or NULL (absent or JSON null) */
static Jsonb *
jsonb_member(Jsonb *obj, const char *name)
{
	JsonbValue *v = find_member(obj, name);

	if (v == NULL || v->type == jbvNull)
		return NULL;
	return JsonbValueToJsonb(v);
}

/* The error the body reported for a step, or NULL when none ended in one */
static StepError *
step_error(Jsonb *result)
{
	Jsonb	   *e = jsonb_member(result, "error");
	StepError  *err;
	char	   *state;

	if (e == NULL)
		return NULL;
	err = palloc0(sizeof(StepError));
	state = jsonb_text_member(e, "sqlstate");
	if (state == NULL || strlen(state) != 5)
		state = "XX000";
	err->sqlerrcode = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
	err->message = jsonb_text_member(e, "message");
	if (err->message == NULL)
		err->message = "a step of the campaign failed";
	err->detail = jsonb_text_member(e, "detail");
	err->hint = jsonb_text_member(e, "hint");
	if (err->detail && err->detail[0] == '\0')
		err->detail = NULL;
	if (err->hint && err->hint[0] == '\0')
		err->hint = NULL;
	return err;
}

/*
 * After a step's error: list the failed step with the partial run its run
 * stored (none: the step is not listed), mark the campaign cancelled and
 * read its rows out for the storer.
 */
static char *
keep_failed_campaign(const CampaignKind *k, int64 id, Jsonb *result)
{
	int64		run_id = iob_take_kept_run_id();
	Jsonb	   *failed = jsonb_member(result, "failed_step");

	if (run_id > 0 && failed != NULL)
	{
		Oid			types[2] = {JSONBOID, INT8OID};
		Datum		values[2] = {JsonbPGetDatum(failed), Int64GetDatum(run_id)};
		bool		isnull;
		Datum		steps;

		steps = iob_owner_value("SELECT pg_catalog.jsonb_build_array($1 OPERATOR(pg_catalog.||) "
								"pg_catalog.jsonb_build_object('run_id', $2))",
								2, types, values, NULL, SPI_OK_SELECT, &isnull);
		insert_steps(k, id, DatumGetJsonbP(steps));
	}
	finish_campaign(k, id, "cancelled", jsonb_member(result, "campaign"));
	return iob_export_campaign_rows(k->table, k->steps, k->key, id, run_id);
}

/*
 * Raise the step's error after the campaign's subtransaction was rolled
 * back: its rows ("kept", NULL when they could not be read) stored from a
 * process that commits on its own, the DETAIL saying what was kept.
 */
static void
raise_step_error(const CampaignKind *k, int64 id, const StepError *err,
				 const char *kept)
{
	const char *why = NULL;
	char	   *sentence;

	if (kept != NULL && iob_store_rows_detached(kept, &why))
		sentence = psprintf("The %s is kept as %s " INT64_FORMAT " with status \"cancelled\" and the %s.",
							k->noun, k->id_noun, id, k->kept_steps);
	else
		sentence = psprintf("The %s could not be kept: %s.", k->noun,
							why ? why : "its rows could not be read");
	ereport(ERROR,
			(errcode(err->sqlerrcode),
			 errmsg_internal("%s", err->message),
			 errdetail_internal("%s%s%s", err->detail ? err->detail : "",
								err->detail ? " " : "", sentence),
			 err->hint ? errhint("%s", err->hint) : 0));
}

/*
 * Refuse a campaign of kind "kind" that could not be stored or whose waits
 * the caller may not sample: its plan function calls this before it says
 * anything (a NOTICE of the plan would otherwise precede the refusal), and
 * the frame again before the first run.
 */
void
iob_campaign_check_allowed(const char *kind)
{
	const char *entry = campaign_entry(campaign_kind(kind));

	iob_check_run_waits_scope();
	/* a campaign is its stored rows: unlike run(), it needs a writable server */
	PreventCommandDuringRecovery(entry);
	PreventCommandIfReadOnly(entry);
}

/*
 * SQL entry point: iobench_internal.campaign(kind, row, plan, body).  Runs
 * the campaign as the top of this file says; returns its id.
 */
Datum
iobench_campaign(PG_FUNCTION_ARGS)
{
	const CampaignKind *k;
	Datum		row;
	Datum		plan;
	Oid			body;
	IobSubxact	sx;
	MemoryContext cxt = CurrentMemoryContext;
	volatile int64 id = 0;
	StepError  *volatile err = NULL;	/* set in PG_TRY, read after it */
	char	   *volatile kept = NULL;

	IOB_SQL_ENTRY(4);
	if (PG_ARGISNULL(CA_ARG_KIND) || PG_ARGISNULL(CA_ARG_ROW) ||
		PG_ARGISNULL(CA_ARG_PLAN) || PG_ARGISNULL(CA_ARG_BODY))
		elog(ERROR, "iobench_internal.campaign() takes no NULL argument");
	k = campaign_kind(text_to_cstring(PG_GETARG_TEXT_PP(CA_ARG_KIND)));
	row = PG_GETARG_DATUM(CA_ARG_ROW);
	plan = PG_GETARG_DATUM(CA_ARG_PLAN);
	body = PG_GETARG_OID(CA_ARG_BODY);
	/* a body is one of iobench's own */
	if (get_func_namespace(body) != get_namespace_oid("iobench_internal", false))
		elog(ERROR, "the body of a campaign must be a function of schema iobench_internal");
	/* the caller may make this kind of campaign (its API function checks it too) */
	iob_require_grant(DatumGetObjectId(DirectFunctionCall1(regprocedurein,
														   CStringGetDatum(k->signature))));
	iob_campaign_check_allowed(k->kind);

	iob_subxact_begin(&sx);
	PG_TRY();
	{
		Jsonb	   *result;
		char	   *status;

		id = insert_campaign(k, row);
		(void) iob_take_kept_run_id();
		/* the steps, as the caller */
		result = DatumGetJsonbP(OidFunctionCall2(body, Int64GetDatum(id), plan));
		insert_steps(k, id, jsonb_member(result, "steps"));
		/* the subtransaction keeps the caller's memory context (subxact.h) */
		err = step_error(result);
		if (err != NULL)
			kept = keep_failed_campaign(k, id, result);
		else
		{
			status = jsonb_text_member(result, "status");
			finish_campaign(k, id,
							status && strcmp(status, "cancelled") == 0 ? "cancelled" : "completed",
							jsonb_member(result, "campaign"));
		}
	}
	PG_CATCH();
	{
		/* an error of the body, or while storing: nothing is kept */
		ErrorData  *edata = iob_subxact_catch(&sx, cxt);

		if (err == NULL)
			ReThrowError(edata);
		raise_step_error(k, id, err, NULL);
	}
	PG_END_TRY();

	if (err != NULL)
	{
		iob_subxact_rollback(&sx);
		raise_step_error(k, id, err, kept);
	}
	iob_subxact_commit(&sx);
	PG_RETURN_INT64(id);
}
