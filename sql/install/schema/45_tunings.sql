-- Server tuning calls (iobench.server_vs_disk(), tune_tablespace(),
-- sweep_io_workers()) and the runs each took: campaigns like suites and
-- searches, stored by the campaign frame (src/campaigns/campaign.c).

-- One row per call: its arguments, and the rows it returned.
CREATE TABLE iobench.tunings (
    tuning_id    bigserial PRIMARY KEY,
    call         text NOT NULL CHECK (call IN ('server_vs_disk', 'tune_tablespace', 'sweep_io_workers')),
    status       text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
    label        text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    tablespace   name NOT NULL,
    arguments    jsonb NOT NULL,              -- its other arguments, as checked; durations in seconds
    result       jsonb                        -- the rows it returned (NULL: cancelled)
);
COMMENT ON TABLE iobench.tunings IS 'server tuning calls: server_vs_disk(), tune_tablespace() and sweep_io_workers(), their arguments and the rows they returned';
SELECT pg_catalog.pg_extension_config_dump('iobench.tunings', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.tunings_tuning_id_seq', '');

-- One row per run a call took, in the order taken.
CREATE TABLE iobench.tuning_runs (
    tuning_id    bigint NOT NULL REFERENCES iobench.tunings ON DELETE CASCADE,
    step         integer NOT NULL,
    run_id       bigint NOT NULL UNIQUE REFERENCES iobench.runs ON DELETE CASCADE,
    measures     text NOT NULL,               -- what the run measured, as its label says
    PRIMARY KEY (tuning_id, step)
);
COMMENT ON TABLE iobench.tuning_runs IS 'the runs of each server tuning call, in the order taken';
SELECT pg_catalog.pg_extension_config_dump('iobench.tuning_runs', '');
