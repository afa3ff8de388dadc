/*-------------------------------------------------------------------------
 *
 * campaign.h
 *	  The campaigns subsystem: many runs toward one answer (a suite, a
 *	  latency search, a fleet call), orchestrated in PL/pgSQL and framed
 *	  here.
 *
 * Which runs a campaign takes, in which order and what a step's result
 * decides next is PL/pgSQL (sql/install/code: a campaign's "body"), which
 * composes iobench.run() calls and reads as a DBA reads SQL.  The frame is
 * C, one path for every campaign (campaign.c): it stores the campaign and
 * its steps as the owner of the iobench schema, runs the body as the
 * caller in a subtransaction of its own, and when a step ends in an error
 * (a cancel above all) keeps what was done through a storer worker
 * (run/store_worker.h) and raises that error, with its SQLSTATE.  The
 * checks of a suite's and a search's arguments are C too (suite.c:
 * suite_plan(), search.c: search_plan()), through the same readers as
 * iobench.run()'s, so that nothing runs before every step is known to be
 * valid; a fleet call's are few, and checked in SQL (60_fleet.sql).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_CAMPAIGN_H
#define IOBENCH_CAMPAIGN_H

#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"

#include "results/results.h"

/* The body of a campaign: body(campaign_id bigint, plan jsonb) RETURNS jsonb */
#define IOB_CAMPAIGN_BODY_NARGS	2

/*
 * Refuse a campaign of a kind ("suite", "search", ...) that could not be
 * stored or may not sample its waits
 */
extern void iob_campaign_check_allowed(const char *kind);

/*
 * Building a campaign's plan (jsonb text): "name": value members of an
 * object being built (a text value NULL is JSON null), and a run's settings
 * as the arguments of iobench.run() that make them (seed null unless
 * seed_given: a new seed per run)
 */
extern void iob_json_text(StringInfo buf, const char *name, const char *value);
extern void iob_json_int(StringInfo buf, const char *name, int64 value);
extern void iob_json_run_args(StringInfo buf, const IobRunParams *params,
							  bool seed_given);

#endif							/* IOBENCH_CAMPAIGN_H */
