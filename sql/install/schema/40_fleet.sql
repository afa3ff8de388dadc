-- Runs on many servers: one row per fleet call, one per server and test.

-- One row per call of iobench.fleet_run() or iobench.fleet_suite().
CREATE TABLE iobench.fleets (
    fleet_id     bigserial PRIMARY KEY,
    suite        text,                       -- NULL: one workload (fleet_run)
    settings     jsonb NOT NULL,             -- the run() arguments sent to every server
    servers      text[] NOT NULL,            -- foreign server names, in the order given
    concurrent   boolean NOT NULL,           -- all at once (true) or one after another
    start_delay  interval,                   -- concurrent: from sending to the common start
    status       text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
    label        text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz                 -- NULL while running
);
COMMENT ON TABLE iobench.fleets IS 'one row per run of a workload or suite on many servers';
SELECT pg_catalog.pg_extension_config_dump('iobench.fleets', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.fleets_fleet_id_seq', '');

-- What each server did for each test of a fleet call: the run gathered
-- from it, or the error it gave.
CREATE TABLE iobench.fleet_runs (
    fleet_id      bigint NOT NULL REFERENCES iobench.fleets ON DELETE CASCADE,
    server        text NOT NULL,
    test_no       integer NOT NULL,          -- 1 for fleet_run()
    test          text NOT NULL,
    run_id        bigint REFERENCES iobench.runs ON DELETE SET NULL, -- the gathered copy
    remote_run_id bigint,                    -- its run_id on the server
    start_at      timestamptz,               -- the common start (concurrent calls)
    go_at         timestamptz,               -- when the server's workers started
    skew_us       double precision,          -- go_at after the test's earliest go_at
    error         text,                      -- NULL: the server ran the test
    sqlstate      text,
    PRIMARY KEY (fleet_id, server, test_no)
);
COMMENT ON TABLE iobench.fleet_runs IS 'per fleet call, server and test: the gathered run or the error';
SELECT pg_catalog.pg_extension_config_dump('iobench.fleet_runs', '');

-- A row of what iobench.fleet_run() and fleet_suite() return: per server
-- and test, the gathered run's headline figures or the error.
CREATE TYPE iobench.fleet_result AS (
    fleet_id      bigint,
    server        text,
    test_no       integer,
    test          text,
    status        text,              -- completed, cancelled (the run's) or failed
    run_id        bigint,            -- the gathered copy, here
    remote_run_id bigint,            -- its run_id on the server
    iops          numeric,
    mb_per_s      numeric,
    lat_p99_us    numeric,
    start_at      timestamptz,
    go_at         timestamptz,
    skew_ms       numeric,           -- go_at after the test's earliest go_at
    error         text);
COMMENT ON TYPE iobench.fleet_result IS 'per server and test of a fleet call: the gathered run''s figures or the error';
