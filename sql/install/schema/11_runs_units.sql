-- The units of the columns of iobench.runs whose names leave them open,
-- new in 0.2 (the upgrade from 0.1 runs this file as it is, after adding
-- the *_mib_per_s columns).
COMMENT ON COLUMN iobench.runs.block_size IS 'bytes';
COMMENT ON COLUMN iobench.runs.file_size IS 'bytes per file (file_size => ''256MB'' is 256 MiB, 268435456 bytes)';
COMMENT ON COLUMN iobench.runs.bytes IS 'bytes of data I/O (reads and writes) in the measured period';
COMMENT ON COLUMN iobench.runs.mb_per_s IS 'data I/O throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.read_mb_per_s IS 'read throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.write_mb_per_s IS 'write throughput in MB/s: 10^6 bytes per second (decimal)';
COMMENT ON COLUMN iobench.runs.mib_per_s IS 'data I/O throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.read_mib_per_s IS 'read throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
COMMENT ON COLUMN iobench.runs.write_mib_per_s IS 'write throughput in MiB/s: 2^20 bytes per second (binary, as PostgreSQL''s MB)';
