# A stall count the test decides.  A run writes to the loop device, whose
# writes a cgroup-v1 blkio throttle caps at $cap a second, so the run's one
# worker spends nearly all its time inside a write; stopped (SIGSTOP) for
# $stop_s s, twice, that write returns $stop_s s late.  With a stall
# threshold of 1 s and no sync (a write alone is the stall event), the run
# has exactly two stalls: counted in runs.stall_count, listed in
# iobench.run_stalls, each at least the stop long, and followed live in
# iobench.running_runs (the only run going on).  The same run without
# stops has none.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my ($loop_dir, $loop_dev, $cgroup) = iob_need_rigs(
	'the loop-device and blkio cgroup rigs',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV IOBENCH_TEST_BLKIO_CGROUP));
(my $loop_name = $loop_dev) =~ s{^/dev/}{};
my $majmin = slurp_file("/sys/block/$loop_name/dev");
chomp $majmin;

my $node = iob_base_node('stall_count');
mkdir "$loop_dir/ts_stall_count" or die "mkdir $loop_dir/ts_stall_count: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE loopts LOCATION '$loop_dir/ts_stall_count'");

# The server in the group (its workers, started later, are the
# postmaster's children), with no cap yet: the run's files are written
# before it measures, uncapped
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin 0");
iob_cgroup_write($cgroup, 'blkio.throttle.write_iops_device', "$majmin 0");
my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
iob_cgroup_write($cgroup, 'cgroup.procs', $pm_pid);

my $cap = 10;
my $stop_s = 3;
my $run_sql = q{SELECT run_id FROM iobench.run(tablespace => 'loopts', rw => 'randwrite', direct => true,
                               fsync_every => 0, workers => 1, iodepth => 1, engine => 'psync',
                               stall_threshold => '1s', file_size => '4MB', label => '%s', duration => '%s')};

# Direct writes of one worker, capped: each waits about 1/$cap s in the
# throttle, so a stop lands inside a write (and delays its return) but
# for the few microseconds between two writes
my $h = $node->background_psql('postgres');
$h->query_until(qr/started/, "\\echo started\n" . sprintf($run_sql, 'stopped', '16s') . ";\n");
iob_wait_for_workers($node, 1);
iob_cgroup_write($cgroup, 'blkio.throttle.write_iops_device', "$majmin $cap");
my ($worker) = iob_worker_pids($node);
usleep(1_500_000);
foreach my $stop (1 .. 2)
{
	kill 'STOP', $worker;
	usleep($stop_s * 1_000_000);
	kill 'CONT', $worker;
	# the write returns, and the recorder stores the stall with its second
	ok( $node->poll_query_until('postgres',
			"SELECT stalls = $stop FROM iobench.running_runs"),
		"stop $stop: the run's live row counts $stop stall(s)");
	usleep(1_000_000);
}
$h->quit;

my $r = $node->safe_psql('postgres',
	"SELECT max(run_id) FROM iobench.runs WHERE label = 'stopped'");
is($node->safe_psql('postgres', "SELECT status || ' ' || stall_count FROM iobench.runs WHERE run_id = $r"),
	'completed 2', 'the run completed with two stalls counted');
is( $node->safe_psql('postgres', qq{
		SELECT count(*) || ' ' || bool_and(write_us >= $stop_s * 1e6 AND sync_us = 0)
		  FROM iobench.run_stalls WHERE run_id = $r}),
	'2 true', 'both listed, each a write alone that took the stop or longer');

# The same run, not stopped: no stall
my $quiet = $node->safe_psql('postgres', sprintf($run_sql, 'not stopped', '3s'));
is( $node->safe_psql('postgres', qq{
		SELECT stall_count || ' ' || (SELECT count(*) FROM iobench.run_stalls s WHERE s.run_id = r.run_id)
		       || ' ' || (r.write_ops > 0)
		  FROM iobench.runs r WHERE r.run_id = $quiet}),
	'0 0 true', 'a run of capped writes without stops has no stall');

iob_cgroup_write($cgroup, 'blkio.throttle.write_iops_device', "$majmin 0");
$node->stop('fast');
done_testing();
