-- Checks of the arguments that name stored runs, shared by the functions
-- that read them (the API calls them before its bodies: 20_presets.sql on).

-- The stored run run_id, for the functions that read one; the errors name
-- their argument "run_id".
CREATE OR REPLACE FUNCTION iobench_internal.existing_run(run_id bigint)
RETURNS iobench.runs
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r iobench.runs;
BEGIN
    IF existing_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT * INTO r FROM iobench.runs x WHERE x.run_id = existing_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', existing_run.run_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN r;
END
$$;
COMMENT ON FUNCTION iobench_internal.existing_run(bigint) IS 'the stored run of that id; an error when there is none';

-- Check an argument "run_ids" of the functions that read several runs: no
-- nulls, every run stored, and (when required) at least one run.
CREATE OR REPLACE FUNCTION iobench_internal.check_run_ids(run_ids bigint[], required boolean)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    missing bigint;
BEGIN
    IF check_run_ids.required
       AND (check_run_ids.run_ids IS NULL OR cardinality(check_run_ids.run_ids) = 0) THEN
        RAISE EXCEPTION 'argument "run_ids" must name at least one run'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(check_run_ids.run_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "run_ids" must not contain nulls'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT u.id INTO missing
      FROM unnest(check_run_ids.run_ids) u(id)
     WHERE NOT EXISTS (SELECT FROM iobench.runs r WHERE r.run_id = u.id)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % does not exist', missing
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;
COMMENT ON FUNCTION iobench_internal.check_run_ids(bigint[], boolean) IS 'check an argument run_ids: no nulls, every run stored, at least one when required';
