# Burn-ins that last: a run stores its seconds and stalls as it goes (its
# recorder commits them), so another session follows it in
# iobench.running_runs, and a crash of the server keeps what was stored
# up to the crash.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = iob_base_node('burn_in', "restart_after_crash = on\n");

# A long run with a sync after every write, each write a stall (1 µs)
my $runner = $node->background_psql('postgres');
$runner->query_until(qr/started/, q{\echo started
SELECT iobench.run(rw => 'randwrite', fsync_every => 1, rate_iops => 20,
                   stall_threshold => '1 microsecond', duration => '10min',
                   file_size => '4MB', direct => false, label => 'burn-in');
});

ok( $node->poll_query_until('postgres', q{
		SELECT state = 'running' AND last_second >= 2 AND stalls > 0
		  FROM iobench.running_runs}),
	'another session sees the run going: its seconds and stalls so far');
is( $node->safe_psql('postgres', q{
		SELECT count(*) = 0 FROM iobench.runs}),
	't', 'while the run is not stored yet');

# Crash: the launcher dies by SIGKILL, the postmaster resets the server
my $launcher = $node->safe_psql('postgres', 'SELECT launcher_pid FROM iobench.running_runs');
my $stored = $node->safe_psql('postgres', 'SELECT seconds_stored FROM iobench.running_runs');
kill 'KILL', $launcher;
ok(iob_poll_after_crash($node, q{SELECT state FROM iobench.running_runs}, 'interrupted'),
	'after the crash the run shows as interrupted');
is( $node->safe_psql('postgres', qq{
		SELECT seconds_stored >= $stored AND last_second >= 2 AND stalls > 0
		   AND (SELECT count(*) FROM iobench.live_seconds) > 0
		  FROM iobench.running_runs}),
	't', 'the seconds and stalls stored up to the crash are kept');
is($node->safe_psql('postgres', 'SELECT count(*) FROM iobench.runs'),
	'0', 'the run itself was never stored');
# The device's seconds so far have iostat's columns as run_disk_seconds does
# (no rows where pg_default has no block device: then only the columns)
is( $node->safe_psql('postgres', q{
		SELECT bool_and(r_s = reads / interval_s AND w_s = writes / interval_s
		                AND util_pct IS NOT NULL) IS NOT FALSE
		  FROM iobench.live_disk_seconds}),
	't', 'the live device seconds have the generated iostat columns');
eval { $runner->quit };

# A run that completes leaves no live rows: its seconds moved to run_seconds
my $done = $node->safe_psql('postgres',
	q{SELECT run_id FROM iobench.run(duration => '2s', rate_iops => 50, file_size => '1MB')});
is( $node->safe_psql('postgres', qq{
		SELECT r.status = 'completed'
		   AND (SELECT count(*) FROM iobench.run_seconds s WHERE s.run_id = r.run_id) = 2
		   AND (SELECT sum(ops) FROM iobench.run_seconds s WHERE s.run_id = r.run_id) = r.ops
		   AND NOT EXISTS (SELECT FROM iobench.live_runs l WHERE l.run_id = r.run_id)
		  FROM iobench.runs r WHERE r.run_id = $done}),
	't', 'a stored run moves its live seconds into run_seconds');

# The files of the interrupted run went with the crash (the server removes
# temporary files when it restarts)
is(scalar(grep { /iobench/ } glob($node->data_dir . '/base/pgsql_tmp/*')), 0,
	'no files are left of the interrupted run');

$node->stop('fast');
done_testing();
