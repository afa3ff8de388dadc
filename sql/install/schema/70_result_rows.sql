------------------------------------------------------------------------
-- The row types of the API's functions that return rows (new in 0.3)
--
-- A function of the API that returns rows and has its body in
-- iobench_internal (the entry point in iobench checks the grant first,
-- then calls the body: code/90_privileges.sql) returns one composite type
-- of this file, as its body does, so that the columns are written once.
-- The types are in schema iobench: they are part of the API (psql's \df
-- shows "SETOF iobench.compare_row", and a caller may declare a variable
-- of the type), and every caller has USAGE on iobench, none on
-- iobench_internal.  As a table's, a change of a type's columns is a step
-- of the upgrade file (sql/install/upgrade/).
------------------------------------------------------------------------

-- A row of iobench.compare()
CREATE TYPE iobench.compare_row AS (
    test_no         integer,
    test            text,
    base_tablespace name,
    tablespace      name,
    base_iops       numeric,
    iops            numeric,
    iops_ratio      numeric,
    base_mb_per_s   numeric,
    mb_per_s        numeric,
    mb_per_s_ratio  numeric,
    base_p99_us     numeric,
    p99_us          numeric,
    p99_ratio       numeric,
    note            text);
COMMENT ON TYPE iobench.compare_row IS 'a row of iobench.compare(): per test and tablespace of a suite: its figures beside the baseline tablespace''s, with ratios';

-- A row of iobench.compare_runs()
CREATE TYPE iobench.compare_runs_row AS (
    run_id                   bigint,
    server                   text,
    label                    text,
    tablespace               name,
    rw                       text,
    block_size               integer,
    workers                  integer,
    iodepth                  integer,
    engine                   text,
    io_method                text,
    effective_io_concurrency integer,
    baseline_run             bigint,
    base_iops                numeric,
    iops                     numeric,
    iops_ratio               numeric,
    base_mb_per_s            numeric,
    mb_per_s                 numeric,
    mb_per_s_ratio           numeric,
    base_p99_us              numeric,
    p99_us                   numeric,
    p99_ratio                numeric);
COMMENT ON TYPE iobench.compare_runs_row IS 'a row of iobench.compare_runs(): per run compared: its settings and figures beside the baseline run''s, with ratios';

-- A row of iobench.stalls()
CREATE TYPE iobench.stalls_row AS (
    second         integer,
    iops           numeric,
    median_iops    numeric,
    fraction       numeric,
    max_latency_us numeric,
    max_latency_op text,
    reason         text);
COMMENT ON TYPE iobench.stalls_row IS 'a row of iobench.stalls(): a second of a run where throughput collapsed or latency spiked, and why';

-- A row of iobench.disk_stats()
CREATE TYPE iobench.disk_stats_row AS (
    device     text,
    member     boolean,
    kind       text,
    second     integer,
    r_s        double precision,
    w_s        double precision,
    rmb_s      double precision,
    wmb_s      double precision,
    areq_kb    double precision,
    aqu_sz     double precision,
    r_await_ms double precision,
    w_await_ms double precision,
    util_pct   double precision,
    d_s        double precision,
    f_s        double precision);
COMMENT ON TYPE iobench.disk_stats_row IS 'a row of iobench.disk_stats(): per block device of a run: its iostat figures, average or busiest second';

-- A row of iobench.wait_event_descriptions()
CREATE TYPE iobench.wait_event_descriptions_row AS (
    wait_type   text,
    description text);
COMMENT ON TYPE iobench.wait_event_descriptions_row IS 'a row of iobench.wait_event_descriptions(): a wait event as "type:event" and the server''s description of it';

-- A row of iobench.merged_latency()
CREATE TYPE iobench.merged_latency_row AS (
    runs        integer,
    ops         bigint,
    lat_avg_us  double precision,
    lat_p50_us  double precision,
    lat_p90_us  double precision,
    lat_p99_us  double precision,
    lat_p999_us double precision,
    lat_max_us  double precision);
COMMENT ON TYPE iobench.merged_latency_row IS 'a row of iobench.merged_latency(): the latency of runs taken together, from their merged histograms';

-- A row of iobench.fleet_compare()
CREATE TYPE iobench.fleet_compare_row AS (
    test_no         integer,
    test            text,
    server          text,
    base_server     text,
    iops            numeric,
    iops_ratio      numeric,
    mb_per_s        numeric,
    mb_per_s_ratio  numeric,
    p99_us          numeric,
    p99_ratio       numeric,
    ratio_to_median numeric,
    skew_ms         numeric,
    run_id          bigint,
    error           text);
COMMENT ON TYPE iobench.fleet_compare_row IS 'a row of iobench.fleet_compare(): per test and server of a fleet: its figures with ratios to the baseline server and to the median';

-- A row of iobench.server_vs_disk()
CREATE TYPE iobench.server_vs_disk_row AS (
    pattern            text,
    block_size         integer,
    concurrency        integer,
    raw_run_id         bigint,
    server_run_id      bigint,
    raw_iops           double precision,
    server_iops        double precision,
    raw_mb_per_s       double precision,
    server_mb_per_s    double precision,
    raw_lat_p99_us     double precision,
    server_lat_p99_us  double precision,
    ratio              double precision,
    server_buffer_hits bigint,
    scan_blocks        bigint,
    scan_blocks_per_s  double precision,
    scan_mb_per_s      double precision,
    scan_read_blocks   bigint,
    scan_hit_blocks    bigint,
    scan_ratio         double precision,
    scan_disk_ratio    double precision,
    limiting_layer     text,
    summary            text);
COMMENT ON TYPE iobench.server_vs_disk_row IS 'a row of iobench.server_vs_disk(): per pattern and concurrency: the raw disk run, the server run and the executor''s cold scan, their figures and ratios, and the layer that limits';

-- A row of iobench.tune_tablespace()
CREATE TYPE iobench.tune_tablespace_row AS (
    setting     text,
    recommended text,
    in_effect   text,
    basis       text,
    run_ids     bigint[],
    steps       jsonb,
    statement   text,
    applies     text);
COMMENT ON TYPE iobench.tune_tablespace_row IS 'a row of iobench.tune_tablespace(): per setting: the recommended value, the value in effect, the basis, the runs, and the statement that applies it';
