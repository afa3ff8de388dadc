-- Latency-target searches (iobench.latency_search()) and their steps.

-- One row per search: what it looked for, and its best step.
CREATE TABLE iobench.searches (
    search_id          bigserial PRIMARY KEY,
    status             text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
    label              text,
    started_at         timestamptz NOT NULL,
    finished_at        timestamptz,
    tablespace         name NOT NULL,
    latency_target     interval NOT NULL,
    latency_percentile double precision,      -- NULL: the mean latency
    rw                 text NOT NULL,
    block_size         integer NOT NULL,
    max_iodepth        integer NOT NULL,
    max_workers        integer NOT NULL,
    step_duration      interval NOT NULL,
    file_size          bigint NOT NULL,
    engine             text NOT NULL,         -- as requested
    best_step          integer                -- most IOPS within the target; NULL: none
);
COMMENT ON TABLE iobench.searches IS 'latency-target searches: the most load a disk carries within a latency target';
SELECT pg_catalog.pg_extension_config_dump('iobench.searches', '');
SELECT pg_catalog.pg_extension_config_dump('iobench.searches_search_id_seq', '');

-- One row per step taken: a run at one workers x iodepth.
CREATE TABLE iobench.search_steps (
    search_id   bigint NOT NULL REFERENCES iobench.searches ON DELETE CASCADE,
    step        integer NOT NULL,
    run_id      bigint REFERENCES iobench.runs ON DELETE SET NULL,
    workers     integer NOT NULL,
    iodepth     integer NOT NULL,
    iops        double precision,
    latency_us  double precision,             -- the search's percentile (or mean) of data I/O
    met_target  boolean NOT NULL,
    PRIMARY KEY (search_id, step)
);
COMMENT ON TABLE iobench.search_steps IS 'the steps of each latency-target search, each a stored run';
SELECT pg_catalog.pg_extension_config_dump('iobench.search_steps', '');
