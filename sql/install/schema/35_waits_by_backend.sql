-- The waits of each backend type (iobench.wait_table_by_backend()), new in
-- 0.2 (the upgrade from 0.1 runs this file as it is).
CREATE TYPE iobench.wait_backend_row AS (
    backend_type text,              -- NULL: unknown
    wait_type    text,
    wait_s       double precision,
    resource_s   double precision,
    signal_s     double precision,
    wait_count   bigint,            -- sampled entries (a lower bound)
    percentage   double precision,  -- of all non-benign wait time
    benign       boolean,
    description  text);
