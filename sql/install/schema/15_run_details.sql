-- Details of runs new in 0.2: what the block device saw each second, and
-- the figures of each tablespace of a tablespace group.

-- What the block device under the tablespace saw, second by second of the
-- measured period (/proc/diskstats): the disk (for a partition, its whole
-- disk; a dm or md device itself) and, where the kernel lists them, its
-- members (member = true).  The counters are the differences over the
-- second (in_flight is the level at its end); the generated columns are
-- iostat's figures.  Discards and flushes are NULL where the kernel has
-- no such counters.  A run on a file system without a block device has no
-- rows here.  MB is 10^6 bytes; sectors are 512 bytes.
CREATE TABLE iobench.run_disk_seconds (
    run_id          bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    device          text NOT NULL,
    member          boolean NOT NULL,
    second          integer NOT NULL,
    interval_s      double precision NOT NULL CHECK (interval_s > 0),
    reads           bigint NOT NULL,
    read_merges     bigint NOT NULL,
    read_sectors    bigint NOT NULL,
    read_ms         bigint NOT NULL,
    writes          bigint NOT NULL,
    write_merges    bigint NOT NULL,
    write_sectors   bigint NOT NULL,
    write_ms        bigint NOT NULL,
    in_flight       bigint NOT NULL,
    io_ms           bigint NOT NULL,
    queue_ms        bigint NOT NULL,
    discards        bigint,
    discard_merges  bigint,
    discard_sectors bigint,
    discard_ms      bigint,
    flushes         bigint,
    flush_ms        bigint,
    r_s             double precision GENERATED ALWAYS AS (reads / interval_s) STORED,
    w_s             double precision GENERATED ALWAYS AS (writes / interval_s) STORED,
    rmb_s           double precision GENERATED ALWAYS AS (read_sectors * 512 / 1e6 / interval_s) STORED,
    wmb_s           double precision GENERATED ALWAYS AS (write_sectors * 512 / 1e6 / interval_s) STORED,
    areq_kb         double precision GENERATED ALWAYS AS (
                        CASE WHEN reads + writes + coalesce(discards, 0) > 0
                             THEN (read_sectors + write_sectors + coalesce(discard_sectors, 0)) / 2.0
                                  / (reads + writes + coalesce(discards, 0)) END) STORED,
    aqu_sz          double precision GENERATED ALWAYS AS (queue_ms / 1000.0 / interval_s) STORED,
    r_await_ms      double precision GENERATED ALWAYS AS (
                        CASE WHEN reads > 0 THEN read_ms::double precision / reads END) STORED,
    w_await_ms      double precision GENERATED ALWAYS AS (
                        CASE WHEN writes > 0 THEN write_ms::double precision / writes END) STORED,
    util_pct        double precision GENERATED ALWAYS AS (
                        LEAST(io_ms / 10.0 / interval_s, 100)) STORED,
    d_s             double precision GENERATED ALWAYS AS (discards / interval_s) STORED,
    f_s             double precision GENERATED ALWAYS AS (flushes / interval_s) STORED,
    PRIMARY KEY (run_id, device, second)
);
COMMENT ON TABLE iobench.run_disk_seconds IS 'per-second /proc/diskstats of the block device under each run''s tablespace, with iostat''s figures';
SELECT pg_catalog.pg_extension_config_dump('iobench.run_disk_seconds', '');


-- Each tablespace of a tablespace group (run(tablespaces => ...)): where
-- its files lay and its figures, the same columns as the run's own in
-- iobench.runs (which are the aggregate), from per-tablespace histograms.
CREATE TABLE iobench.run_tablespaces (
    run_id      bigint NOT NULL REFERENCES iobench.runs ON DELETE CASCADE,
    tablespace  name NOT NULL,
    position    integer NOT NULL,            -- in the group, from 1
    device      text,
    filesystem  text,
    mount_point text,
    files       integer NOT NULL,
    ops bigint,
    bytes bigint,
    mb_per_s double precision,
    mib_per_s double precision,
    iops double precision,
    lat_avg_us double precision,
    lat_p50_us double precision,
    lat_p90_us double precision,
    lat_p99_us double precision,
    lat_p999_us double precision,
    lat_max_us double precision,
    read_ops bigint,
    read_bytes bigint,
    read_mb_per_s double precision,
    read_mib_per_s double precision,
    read_iops double precision,
    read_lat_avg_us double precision,
    read_lat_p50_us double precision,
    read_lat_p90_us double precision,
    read_lat_p99_us double precision,
    read_lat_p999_us double precision,
    read_lat_max_us double precision,
    write_ops bigint,
    write_bytes bigint,
    write_mb_per_s double precision,
    write_mib_per_s double precision,
    write_iops double precision,
    write_lat_avg_us double precision,
    write_lat_p50_us double precision,
    write_lat_p90_us double precision,
    write_lat_p99_us double precision,
    write_lat_p999_us double precision,
    write_lat_max_us double precision,
    fsync_ops bigint,
    fsync_iops double precision,
    fsync_lat_avg_us double precision,
    fsync_lat_p50_us double precision,
    fsync_lat_p90_us double precision,
    fsync_lat_p99_us double precision,
    fsync_lat_p999_us double precision,
    fsync_lat_max_us double precision,
    PRIMARY KEY (run_id, tablespace)
);
COMMENT ON TABLE iobench.run_tablespaces IS 'per-tablespace figures of runs on a tablespace group';
SELECT pg_catalog.pg_extension_config_dump('iobench.run_tablespaces', '');
