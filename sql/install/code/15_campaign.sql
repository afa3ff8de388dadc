-- The frame every campaign runs in (C, src/campaigns/campaign.c): the
-- campaign's row and its steps stored as the owner, its body (a PL/pgSQL
-- function body(campaign_id bigint, plan jsonb) RETURNS jsonb of
-- iobench_internal) run as the caller in a subtransaction of the
-- campaign's own, and after a step's error what was done kept through a
-- storer worker before that error is raised.  "kind" is a line of
-- campaign_kinds in campaign.c (suite, search, fleet_run, fleet_suite,
-- server_vs_disk, tune_tablespace, sweep_io_workers); "campaign" the
-- columns of its row but the id, status and times.
-- Returns the campaign's id.
CREATE OR REPLACE FUNCTION iobench_internal.campaign(kind text, campaign jsonb, plan jsonb,
                                                     body regprocedure)
RETURNS bigint
AS 'MODULE_PATHNAME', 'iobench_campaign'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION iobench_internal.campaign(text, jsonb, jsonb, regprocedure) IS 'run a campaign''s body in the campaign frame: its rows stored, kept after a step''s error';
