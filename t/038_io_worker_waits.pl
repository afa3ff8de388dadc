# The waits of a run of engine 'postgres' include the server's I/O workers
# (18 and later, io_method = worker): the run's workers hand their reads to
# the I/O workers and wait for them (IO:AioIoCompletion), while an I/O
# worker waits in IO:DataFileRead for the same read.  On the loop-device
# rig capped at 300 read IOPS by a cgroup-v1 blkio limit (tools/run-tests.sh
# makes both as root), with 8 reads in flight, the three I/O workers are
# busy reading the whole run: the run's waits must show their
# IO:DataFileRead under the label ' (io worker)' and the backend type
# 'io worker', beside the run's own workers' waits, outside the run's
# Percentage base (src/run/wait_run.c has the rule).  A run of the raw engine
# on the same server has no I/O worker rows.
#
# Skipped on servers without io_method (before 18).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the extension once the server is set up (below)
my $node = iob_base_node('io_worker_waits', undef, 1);
if ($node->safe_psql('postgres', 'SHOW server_version_num') < 180000)
{
	my $version = $node->safe_psql('postgres', 'SHOW server_version');
	$node->stop;
	plan skip_all => "PostgreSQL $version has no I/O workers (io_method came with 18)";
}
my ($loop_dir, $loop_dev, $cgroup) = iob_need_rigs(
	'the loop-device and blkio cgroup rigs',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV IOBENCH_TEST_BLKIO_CGROUP));
(my $loop_name = $loop_dev) =~ s{^/dev/}{};
my $cap = 300;

# three I/O workers: io_workers on 18, a fixed pool of 19's dynamic one
my $pool = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_settings WHERE name = 'io_workers'}) eq '1'
  ? 'io_workers = 3' : "io_min_workers = 3\nio_max_workers = 3";
$node->append_conf('postgresql.conf', qq{
io_method = worker
$pool
shared_buffers = 16MB
});
$node->restart;

# The server and every process it starts from now on go in the group, and
# so do the I/O workers, which it started before it was moved
my $majmin = slurp_file("/sys/block/$loop_name/dev");
chomp $majmin;
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin $cap");
my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
iob_cgroup_write($cgroup, 'cgroup.procs', $pm_pid);
my @io_workers = split /\n/, $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'io worker'});
is(scalar(@io_workers), 3, 'the server runs three I/O workers');
iob_cgroup_write($cgroup, 'cgroup.procs', $_) foreach @io_workers;

$node->safe_psql('postgres', 'CREATE EXTENSION iobench');
mkdir "$loop_dir/ts_io_workers" or die "mkdir: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE slow LOCATION '$loop_dir/ts_io_workers'");

my $run = $node->safe_psql('postgres', q{
	SELECT run_id FROM iobench.run(engine => 'postgres', tablespace => 'slow',
	                               rw => 'randread', duration => '2s', file_size => '32MB',
	                               effective_io_concurrency => 8)});
my $raw = $node->safe_psql('postgres', q{
	SELECT run_id FROM iobench.run(tablespace => 'slow', rw => 'randread', direct => true,
	                               duration => '1s', file_size => '16MB', iodepth => 8)});
# leave the rule to no other test
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin 0");

is($node->safe_psql('postgres',
		"SELECT io_method FROM iobench.runs WHERE run_id = $run"),
	'worker', 'the run went through the I/O workers');
note $node->safe_psql('postgres',
	"SELECT wait_type, round(wait_s::numeric, 3), wait_count, exact_count FROM iobench.run_waits "
	  . "WHERE run_id = $run ORDER BY wait_s DESC");

# At the cap with 8 reads queued every I/O worker is in a read nearly all
# the time: their IO:DataFileRead is several times the measured period;
# half of it is a margin for a loaded machine.
is( $node->safe_psql('postgres', qq{
		SELECT w.wait_s > 0.5 * r.measured_s
		  FROM iobench.run_waits w JOIN iobench.runs r USING (run_id)
		 WHERE run_id = $run AND w.wait_type = 'IO:DataFileRead (io worker)'}),
	't', "the run's waits hold the I/O workers' reads, labelled");
# The run's own worker waits for them the whole time, in rows of its own
is( $node->safe_psql('postgres', qq{
		SELECT w.wait_s > 0.5 * r.measured_s AND w.exact_count IS NULL
		  FROM iobench.run_waits w JOIN iobench.runs r USING (run_id)
		 WHERE run_id = $run AND w.wait_type = 'IO:AioIoCompletion'}),
	't', "the run's own worker's waits for the I/O workers are still there");
is( $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE wait_type LIKE '% (io worker)' AND exact_count IS NOT NULL),
		       count(*) FILTER (WHERE wait_type = 'IO:DataFileRead' AND exact_count > 0)
		  FROM iobench.run_waits WHERE run_id = $run}),
	'0|1', "the run's exact read figures stay with its own rows");

# No read counted twice: the I/O workers' rows are beside the Percentage,
# shown with their backend type, and the run's own rows make up 100 %
is( $node->safe_psql('postgres', qq{
		SELECT percentage IS NULL AND in_top_95 AND NOT benign
		       AND backend_types = '{io worker}' AND description IS NOT NULL
		  FROM iobench.run_wait_stats_all($run)
		 WHERE wait_type = 'IO:DataFileRead (io worker)'}),
	't', 'the I/O workers\' reads: no Percentage, kept in the table, backend type io worker');
is( $node->safe_psql('postgres', qq{
		SELECT round(sum(percentage)::numeric, 6) = 100
		       AND bool_and(backend_types IS NULL)
		  FROM iobench.run_wait_stats_all($run)
		 WHERE wait_type NOT LIKE '% (io worker)' AND NOT benign}),
	't', "the run's own rows make up the Percentage");
is( $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE "WaitType" = 'IO:DataFileRead (io worker)'
		                          AND "Percentage" IS NULL),
		       count(*) FILTER (WHERE "WaitType" = 'Activity:IoWorkerMain (io worker)')
		  FROM iobench.run_wait_stats($run)}),
	'1|0', 'run_wait_stats() shows the I/O workers\' reads and leaves their idle waits out');

# The raw engine reads by itself: no I/O worker rows
is( $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE wait_type LIKE '% (io worker)'),
		       count(*) FILTER (WHERE wait_type = 'IO:DataFileRead' AND wait_s > 0)
		  FROM iobench.run_waits WHERE run_id = $raw}),
	'0|1', 'a run of the raw engine has no I/O worker rows');

$node->stop;
done_testing();
