-- Runs through the server's own read path (engine 'postgres', new in 0.3):
-- what shaped the path and what the buffer manager saw.

-- One row per run of engine 'postgres': the read path, what else shaped
-- it, the relation read, and the counts that show whether every block the
-- workers obtained was read from the disk.  The server's I/O settings are
-- in the run's row (iobench.runs: io_method, io_workers, io_min_workers,
-- io_max_workers, and effective_io_concurrency and io_combine_limit as the
-- run's workers had them).
-- blocks = the blocks the workers obtained in the measured period;
-- buffer_hits of them were found in shared buffers, buffer_reads were read
-- by the server (PostgreSQL's shared_blks_hit and shared_blks_read of the
-- workers over that period).
CREATE TABLE iobench.run_server_reads (
    run_id          bigint PRIMARY KEY REFERENCES iobench.runs ON DELETE CASCADE,
    read_path       text NOT NULL CHECK (read_path IN ('read_stream', 'prefetch')),
    shared_buffers  bigint NOT NULL CHECK (shared_buffers > 0),
    debug_io_direct text,
    relation        text NOT NULL,
    relation_bytes  bigint NOT NULL CHECK (relation_bytes > 0),
    blocks          bigint NOT NULL CHECK (blocks >= 0),
    buffer_hits     bigint NOT NULL CHECK (buffer_hits >= 0),
    buffer_reads    bigint NOT NULL CHECK (buffer_reads >= 0),
    page_cache_dropped boolean NOT NULL
);
COMMENT ON TABLE iobench.run_server_reads IS 'the server''s read path of each run of engine postgres: its I/O settings and what shared buffers saw';
SELECT pg_catalog.pg_extension_config_dump('iobench.run_server_reads', '');
