# The load a disk carries within a latency target, on a disk whose answer
# is known in advance: the loop-device rig throttled to 400 read IOPS by a
# cgroup-v1 blkio limit (tools/run-tests.sh makes both as root).  Past the
# cap every I/O in flight waits its turn, so by Little's law the mean
# latency at N outstanding I/Os is N / 400 s: 2.5, 5, 10, 20 ms for queue
# depths 1, 2, 4, 8.  A 14 ms target on the mean is met up to depth 4 and
# missed at 8, where the search stops (about 30 % of margin either side:
# depth 4 meets it unless a loaded machine keeps the run 29 % under the
# cap, depth 8 misses it unless the throttle lets 30 % more through); the best step gives the cap's IOPS
# (which of depths 1, 2 and 4 is best is measurement noise: all run at the
# cap).  Steady-state detection ends runs on the same disk within seconds.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($loop_dir, $loop_dev, $cgroup) = iob_need_rigs(
	'the loop-device and blkio cgroup rigs',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV IOBENCH_TEST_BLKIO_CGROUP));
(my $loop_name = $loop_dev) =~ s{^/dev/}{};
my $cap = 400;

# the extension once the server is in the cgroup (below)
my $node = iob_base_node('latency_search', undef, 1);

# The server and every worker it starts from now on go in the group
my $majmin = slurp_file("/sys/block/$loop_name/dev");
chomp $majmin;
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin $cap");
my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
iob_cgroup_write($cgroup, 'cgroup.procs', $pm_pid);

$node->safe_psql('postgres', 'CREATE EXTENSION iobench');
mkdir "$loop_dir/ts_search" or die "mkdir: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE throttled LOCATION '$loop_dir/ts_search'");

my $steps = $node->safe_psql('postgres', q{
	SELECT string_agg(format('%s:%s', iodepth, met_target), ' ' ORDER BY step)
	  FROM iobench.latency_search(tablespace => 'throttled', latency_target => '14ms',
	                              latency_percentile => NULL, max_iodepth => 64,
	                              step_duration => '2s', file_size => '16MB')});
is($steps, '1:t 2:t 4:t 8:f',
	'depths 1, 2, 4 meet the 14 ms mean, 8 misses it and ends the search');
# Each step's worker keeps its depth in flight but for the moments between
# reaping an I/O and submitting the next, when it is on a CPU or waiting
# for one (schedstat's run_delay, the signal time of its waits): with
# "busy" that share of the measured period, at most that share of its
# slots is idle, so the mean latency is between (1 - busy) * N / IOPS and
# N / IOPS (Little's law), and the throttle is starved at most that share
# of the time.  On a quiet machine busy is a few %; on a loaded one the
# bounds widen by what the worker measurably lost, and by no more.
my $steps_busy = q{
	SELECT s.*, least(1, ((r.cpu_user_pct + r.cpu_sys_pct) / 100 * r.measured_s
	                      + coalesce(w.delay_s, 0)) / r.measured_s) AS busy
	  FROM iobench.search_results s
	  JOIN iobench.runs r USING (run_id)
	  LEFT JOIN (SELECT run_id, sum(signal_s) AS delay_s FROM iobench.run_waits GROUP BY run_id) w
	 USING (run_id)};
diag($node->safe_psql('postgres', qq{
	SELECT string_agg(format('depth %s: %s IOPS, %s µs, busy %s %%', iodepth, iops, latency_us,
	                         round(busy::numeric * 100, 1)), '; ' ORDER BY step)
	  FROM ($steps_busy) x}));
is( $node->safe_psql('postgres', qq{
		SELECT count(*) = 1 AND bool_and(met_target AND iops BETWEEN 0.9 * (1 - busy) * $cap AND 1.1 * $cap)
		  FROM ($steps_busy) x WHERE best}),
	't', 'the best step is within the target and gives the cap\'s IOPS');

is( $node->safe_psql('postgres', qq{
		SELECT bool_and(iops BETWEEN 0.9 * (1 - busy) * $cap AND 1.1 * $cap)
		   AND bool_and(latency_us BETWEEN 0.9 * (1 - busy) * outstanding * 1e6 / iops
		                               AND 1.1 * outstanding * 1e6 / iops)
		  FROM ($steps_busy) x}),
	't', 'every step runs at the cap, with the mean latency Little\'s law gives');

is( $node->safe_psql('postgres', q{
		SELECT s.status = 'completed' AND s.best_step BETWEEN 1 AND 3
		   AND (SELECT count(*) FROM iobench.search_steps t JOIN iobench.runs r USING (run_id)
		         WHERE t.search_id = s.search_id AND r.tablespace = 'throttled') = 4
		  FROM iobench.searches s}),
	't', 'the search and its four runs are stored');

# Steady state on the same disk: at the cap IOPS are as steady as they
# get, so a 10 % band over 3 s is reached within the first seconds and ends
# a 30 s run there; the latency of a fixed depth at the cap is as steady.
# Not before the window has passed (3 s), and well before the 30 s end even
# on a loaded machine, whose first seconds may be less steady.
foreach my $metric ('iops', 'latency')
{
	is( $node->safe_psql('postgres', qq{
			SELECT steady_reached AND steady_at_s BETWEEN 3 AND 20
			   AND measured_s BETWEEN steady_at_s AND steady_at_s + 1.5
			   AND status = 'completed'
			  FROM iobench.run(tablespace => 'throttled', iodepth => 4, duration => '30s',
			                   steady_state => '$metric', steady_band => 10,
			                   steady_window => '3s', file_size => '16MB')}),
		't', "steady $metric at the cap is reached within seconds and ends the run");
}

$node->stop('fast');
done_testing();
