# The wait statistics of PostgreSQL's asynchronous I/O (18 and later): a
# session scans a table that is in neither shared_buffers nor the OS page
# cache, first with io_method = worker and then with io_method = io_uring,
# while iobench samples the window.  The AIO waits must show up in the
# class and under the backend type the server gives them, never as idle,
# with the server's description; I/O workers keep rows of their own.
#
# The cache is emptied for real before each scan: shared_buffers is small
# and a sequential scan of a larger table goes through a small ring of
# buffers, and the server itself drops the table's file from the OS page
# cache (COPY TO PROGRAM runs dd with iflag=nocache, posix_fadvise
# DONTNEED) after a checkpoint has written it.  The program reads what COPY
# writes to it first: a program that exits before COPY has written its row
# fails COPY with a broken pipe.
#
# Skipped on servers without io_method (before 18); the io_uring half is
# skipped on a server built without liburing or a kernel that refuses
# io_uring.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('aio_waits');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench'
shared_buffers = 8MB
autovacuum = off
});
$node->start;

if ($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_settings WHERE name = 'io_method'}) eq '0')
{
	my $version = $node->safe_psql('postgres', 'SHOW server_version');
	$node->stop;
	plan skip_all => "PostgreSQL $version has no asynchronous I/O (io_method came with 18)";
}
my $has_uring = $node->safe_psql('postgres',
	q{SELECT 'io_uring' = ANY (enumvals) FROM pg_settings WHERE name = 'io_method'});

$node->safe_psql('postgres', q{
	CREATE EXTENSION iobench;
	CREATE TABLE aio_cold (id int, pad text);
	INSERT INTO aio_cold SELECT g, repeat('x', 200) FROM generate_series(1, 120000) g;
	VACUUM FREEZE aio_cold;
	CHECKPOINT;
});
my $size = $node->safe_psql('postgres',
	q{SELECT pg_relation_size('aio_cold') > 3 * pg_size_bytes(current_setting('shared_buffers'))});
is($size, 't', 'the table is more than three times shared_buffers');

# Scans of the table, each after dropping its file from the OS page cache
my $scans = q{
DO $$
DECLARE
	f text := current_setting('data_directory') || '/' || pg_relation_filepath('aio_cold');
BEGIN
	FOR i IN 1..10 LOOP
		EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
		               format('cat >/dev/null && dd if=%s iflag=nocache count=0 status=none', f));
		PERFORM count(*) FROM aio_cold;
	END LOOP;
END
$$};

# Sample the instance for a window while the scans run; the raw rows land
# in table waits_<method> (one row, an iobench.wait_raw[] "raw").
sub sample_scans
{
	my ($method) = @_;
	my $bg = $node->background_psql('postgres');
	$bg->query_until(qr/sampling/,
		"\\echo sampling\nCREATE TABLE waits_$method AS SELECT ARRAY(SELECT r FROM iobench.sample_waits_raw('4s', '1ms') r) AS raw;\n");
	$node->safe_psql('postgres', $scans);
	$bg->query_safe('SELECT 1');	# the window is over
	$bg->quit;
	diag("io_method = $method, per backend type:\n" . $node->safe_psql('postgres', qq{
		SELECT rpad(coalesce(backend_type, '?'), 18) || rpad(wait_type, 32) ||
		       to_char(wait_s, '990.999') || ' s' || lpad(wait_count::text, 6) ||
		       CASE WHEN benign THEN '  benign' ELSE '' END
		FROM iobench.wait_table_by_backend((SELECT raw FROM waits_$method))
		WHERE backend_type IN ('client backend', 'io worker')
		ORDER BY backend_type, wait_s DESC, wait_type}));
}

# What every method must show: names and classes as the server has them,
# backend types the server reports, AIO waits never idle, descriptions.
sub check_common
{
	my ($method) = @_;
	my $w = "waits_$method";

	is( $node->safe_psql('postgres', qq{
			SELECT count(*) FROM $w, unnest(raw) w
			WHERE w.wait_type NOT IN ('CPU:Preempted', 'Client:ClientRead (idle in transaction)')
			  AND NOT EXISTS (SELECT 1 FROM pg_wait_events e
			                  WHERE e.type || ':' || e.name = w.wait_type)}),
		'0', "$method: every wait type is named as pg_wait_events names it");
	# (pg_stat_activity shows a background worker under its own type name,
	# the server's backend type of them all is "background worker")
	is( $node->safe_psql('postgres', qq{
			SELECT string_agg(b.backend_type, ', ') FROM
			       (SELECT DISTINCT w.backend_type FROM $w, unnest(raw) w
			        WHERE w.backend_type <> 'background worker') b
			WHERE b.backend_type NOT IN (SELECT backend_type FROM pg_stat_activity
			                             WHERE backend_type IS NOT NULL)}),
		'', "$method: every backend type is one pg_stat_activity shows");
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) > 0 AND bool_and(NOT t.benign) AND bool_and(t.percentage > 0)
			       AND bool_and(t.description = e.description)
			FROM iobench.wait_table_all((SELECT raw FROM $w)) t
			JOIN pg_wait_events e ON e.type || ':' || e.name = t.wait_type
			WHERE e.type = 'IO' AND e.name LIKE 'Aio%'}),
		't', "$method: AIO waits sampled, in class IO, not benign, with the server's description");
}

# Whether a backend type waited in any of the given wait types
sub waited
{
	my ($method, $btype, @wait_types) = @_;
	my $list = join(', ', map { "'$_'" } @wait_types);
	return $node->safe_psql('postgres', qq{
		SELECT coalesce(sum(w.wait_s) > 0, false) FROM waits_$method, unnest(raw) w
		WHERE w.backend_type = '$btype' AND w.wait_type IN ($list)});
}

# io_method = worker: the session waits for the I/O workers, which read
$node->append_conf('postgresql.conf', "io_method = worker\n");
$node->restart;
is($node->safe_psql('postgres', 'SHOW io_method'), 'worker', 'io_method is worker');
sample_scans('worker');
check_common('worker');
is(waited('worker', 'client backend', 'IO:AioIoCompletion'), 't',
	'worker: the scanning session waits in IO:AioIoCompletion');
is(waited('worker', 'io worker', 'IO:DataFileRead'), 't',
	'worker: the I/O workers read, under their own backend type');
is( $node->safe_psql('postgres', q{
		SELECT benign FROM iobench.wait_table_by_backend((SELECT raw FROM waits_worker))
		WHERE backend_type = 'io worker' AND wait_type = 'Activity:IoWorkerMain'}),
	't', 'worker: the idle loop of the I/O workers is benign');

SKIP:
{
	skip 'this server was built without liburing (no io_method = io_uring)', 5
	  unless $has_uring eq 't';

	# io_method = io_uring: the session submits and waits for the kernel.
	# Which of the two holds it depends on the kernel and the disk: with
	# buffered reads of a fast disk the kernel does most of the work inside
	# io_uring_enter() (AioIoUringSubmit: about 50 samples a window here,
	# AioIoUringExecution 0 to 3), so the check takes io_uring's own waits
	# together.
	$node->append_conf('postgresql.conf', "io_method = io_uring\n");
	$node->restart(fail_ok => 1)
	  or skip 'the server could not start with io_method = io_uring (io_uring refused here?)', 5;
	is($node->safe_psql('postgres', 'SHOW io_method'), 'io_uring', 'io_method is io_uring');
	sample_scans('io_uring');
	check_common('io_uring');
	is(waited('io_uring', 'client backend', 'IO:AioIoUringSubmit', 'IO:AioIoUringExecution'), 't',
		'io_uring: the scanning session waits in io_uring\'s own waits (AioIoUringSubmit, AioIoUringExecution)');
}

$node->stop;
done_testing();
