-- What a running run has stored so far (its recorder's, src/run/recorder.c):
-- committed as the run goes, so other sessions see it and a crash keeps
-- it.  When the run is stored in iobench.runs its seconds move to
-- iobench.run_seconds and its live rows are deleted, in one transaction;
-- rows whose recorder is gone and whose run is not in iobench.runs are
-- those of a run interrupted (a crash, an error) — delete them at will.

CREATE TABLE iobench.live_runs (
    run_id          bigint PRIMARY KEY,         -- the iobench.runs row it will be
    started_at      timestamptz NOT NULL,
    recorder_pid    integer NOT NULL,
    recorder_start  timestamptz,                -- with the pid, names the process
    launcher_pid    integer NOT NULL,
    tablespace      name NOT NULL,
    rw              text NOT NULL,
    block_size      integer NOT NULL,
    workers         integer NOT NULL,
    iodepth         integer NOT NULL,
    duration        interval NOT NULL,
    -- what of the shared memory's seconds (src/run/second_ring.h) the rows
    -- below hold: seconds of the ring, and each worker's late entries
    ring_stored     integer NOT NULL DEFAULT 0,
    late_stored     bigint[] NOT NULL DEFAULT '{}'
);
COMMENT ON TABLE iobench.live_runs IS 'runs going on (or interrupted), as their recorder stored them';
-- pg_dump keeps them: what a run cut off by a crash measured is in these
-- tables only (it restores as 'interrupted' in iobench.running_runs: no
-- recorder there has the pid and start time of its row).
SELECT pg_catalog.pg_extension_config_dump('iobench.live_runs', '');

-- The rows that move to iobench.run_seconds: its columns, keyed to the
-- live run.
CREATE TABLE iobench.live_seconds (
    LIKE iobench.run_seconds,
    CHECK (op IN ('read', 'write', 'fsync')),
    PRIMARY KEY (run_id, second, op),
    FOREIGN KEY (run_id) REFERENCES iobench.live_runs ON DELETE CASCADE
);
COMMENT ON TABLE iobench.live_seconds IS 'the seconds of runs going on, stored as they end';
SELECT pg_catalog.pg_extension_config_dump('iobench.live_seconds', '');

CREATE TABLE iobench.live_stalls (
    run_id       bigint NOT NULL REFERENCES iobench.live_runs ON DELETE CASCADE,
    at_s         double precision NOT NULL,
    worker       integer NOT NULL,
    file         integer NOT NULL,
    file_offset  bigint NOT NULL,
    write_us     double precision NOT NULL,
    sync_us      double precision NOT NULL
);
CREATE INDEX ON iobench.live_stalls (run_id, at_s);
COMMENT ON TABLE iobench.live_stalls IS 'the write stalls of runs going on, stored as they happen';
SELECT pg_catalog.pg_extension_config_dump('iobench.live_stalls', '');

-- The block device's seconds of runs going on: iobench.run_disk_seconds'
-- columns, iostat's generated ones included, keyed to the live run.
CREATE TABLE iobench.live_disk_seconds (
    LIKE iobench.run_disk_seconds INCLUDING GENERATED,
    CHECK (interval_s > 0),
    PRIMARY KEY (run_id, device, second),
    FOREIGN KEY (run_id) REFERENCES iobench.live_runs ON DELETE CASCADE
);
COMMENT ON TABLE iobench.live_disk_seconds IS 'the block device''s seconds of runs going on';
SELECT pg_catalog.pg_extension_config_dump('iobench.live_disk_seconds', '');
