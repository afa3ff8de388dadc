# Engine 'postgres' under each io_method (18 and later): for sync, worker
# and io_uring (where the server has it and the kernel allows it) the
# cluster is restarted with the method, and a random and a sequential run
# through the server's read path must record (in its row of iobench.runs)
# that method and the I/O worker settings as the release has them, read through read streams,
# account for every block it obtained as a shared-buffer hit or a read
# (but those in flight at the period's edges), and show in its waits the
# I/O waits the method makes: IO:DataFileRead for sync (the worker reads
# itself), the AIO waits for worker and io_uring.
#
# Skipped on servers without io_method (before 18); the io_uring part is
# skipped on a server built without liburing or a kernel that refuses
# io_uring.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('io_method');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench'
shared_buffers = 16MB
max_worker_processes = 16
autovacuum = off
iobench.progress = off
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
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');

# The I/O waits each method makes the run's workers wait in (any one of
# them: under io_uring, reads through the page cache of a fast disk are
# done by the kernel mostly inside io_uring_enter(), so the worker waits
# in AioIoUringSubmit and only now and then in AioIoUringExecution; see
# t/003_aio_waits.pl)
my %expected_waits = (
	sync => ['IO:DataFileRead'],
	worker => ['IO:AioIoCompletion'],
	io_uring => [ 'IO:AioIoUringSubmit', 'IO:AioIoUringExecution', 'IO:AioIoCompletion' ],);

# A run of engine 'postgres' under the current method; returns its run_id
sub server_run
{
	my ($rw, $block_size) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT run_id FROM iobench.run(engine => 'postgres', rw => '$rw',
		       block_size => '$block_size', file_size => '16MB', duration => '1s',
		       effective_io_concurrency => 8)});
}

# The checks of one run under method "method"
sub check_run
{
	my ($method, $what, $run_id) = @_;
	my $r = "$method, $what";

	is( $node->safe_psql('postgres', qq{
			SELECT io_method FROM iobench.runs WHERE run_id = $run_id}),
		$method, "$r: the run's io_method is the method");
	is( $node->safe_psql('postgres', qq{
			SELECT io_workers IS NOT DISTINCT FROM current_setting('io_workers', true)::int
			   AND io_min_workers IS NOT DISTINCT FROM current_setting('io_min_workers', true)::int
			   AND io_max_workers IS NOT DISTINCT FROM current_setting('io_max_workers', true)::int
			   AND num_nonnulls(io_workers, io_min_workers, io_max_workers) > 0
			FROM iobench.runs WHERE run_id = $run_id}),
		't', "$r: the I/O worker settings are recorded as this release has them");
	is( $node->safe_psql('postgres', qq{
			SELECT s.read_path || ' ' || r.effective_io_concurrency || ' ' || s.page_cache_dropped
			FROM iobench.run_server_reads s JOIN iobench.runs r USING (run_id) WHERE run_id = $run_id}),
		'read_stream 8 true', "$r: read through a read stream at the concurrency given, cold");

	# Blocks the workers obtained against hits + reads: a read stream reads
	# ahead (up to effective_io_concurrency I/Os of io_combine_limit blocks)
	# blocks obtained after the period, and the period's first blocks may
	# have been read before it
	my ($blocks, $hits, $reads, $slack) = split /\|/, $node->safe_psql('postgres', qq{
		SELECT s.blocks, s.buffer_hits, s.buffer_reads, 2 * r.effective_io_concurrency * (pg_size_bytes(r.io_combine_limit) / 8192)
		FROM iobench.run_server_reads s JOIN iobench.runs r USING (run_id) WHERE run_id = $run_id});
	cmp_ok($blocks, '>', 0, "$r: blocks obtained ($blocks)");
	cmp_ok(abs($blocks - $hits - $reads), '<=', $slack,
		"$r: blocks ($blocks) = buffer_hits ($hits) + buffer_reads ($reads) within $slack in flight");
	cmp_ok($hits, '<=', 0.02 * $blocks + $slack, "$r: nearly every block read from the disk");

	my $waits = $node->safe_psql('postgres', qq{
		SELECT string_agg(wait_type, ' ' ORDER BY wait_type)
		FROM iobench.run_waits WHERE run_id = $run_id AND wait_type LIKE 'IO:%'});
	diag("$r: the run's IO waits: $waits");
	my $want = $expected_waits{$method};
	ok((grep { $waits =~ /(^| )\Q$_\E( |$)/ } @$want),
		"$r: the run's waits show " . join(' or ', @$want));
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) > 0 FROM iobench.run_wait_stats($run_id)
			WHERE "WaitType" IN (} . join(', ', map { "'$_'" } @$want) . ')'),
		't', "$r: run_wait_stats shows them");
}

# Restart under a method and check a random and a sequential run
sub check_method
{
	my ($method) = @_;
	is($node->safe_psql('postgres', 'SHOW io_method'), $method, "io_method is $method");
	check_run($method, 'randread', server_run('randread', '8kB'));
	check_run($method, 'read', server_run('read', '128kB'));
}

foreach my $method ('sync', 'worker')
{
	$node->append_conf('postgresql.conf', "io_method = $method\n");
	$node->restart;
	check_method($method);
}

SKIP:
{
	skip 'this server was built without liburing (no io_method = io_uring)', 17
	  unless $has_uring eq 't';
	$node->append_conf('postgresql.conf', "io_method = io_uring\n");
	$node->restart(fail_ok => 1)
	  or skip 'the server could not start with io_method = io_uring (io_uring refused here?)', 17;
	check_method('io_uring');
}

$node->stop;
done_testing();
