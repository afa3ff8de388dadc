# Per-second figures are never lost silently (src/run/second_ring.h): whatever
# happens to a run's recorder (a lock held on its table, a cancel, a
# termination, a stop) or to one of its workers (stuck longer than the
# recorder waits for it), the run's totals equal the sums of its rows in
# iobench.run_seconds, and no live row is left behind.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $shm_mark = iob_shm_mark();
my $node = iob_node('seconds_kept');

# Start a run in the background, labelled $label; returns the psql session
sub start_run
{
	my ($label, $duration, $workers) = @_;
	my $h = $node->background_psql('postgres', on_error_stop => 0);
	$h->query_until(qr/start/, qq{\\echo start
SELECT run_id FROM iobench.run(duration => '$duration', file_size => '16MB', workers => $workers,
                               engine => 'psync', rate_iops => 400, label => '$label');
});
	# the recorder has its live row and a second stored (the workers,
	# rate-limited, are seldom seen in their I/O wait events)
	$node->poll_query_until('postgres',
		"SELECT EXISTS (SELECT FROM iobench.running_runs WHERE state = 'running' AND seconds_stored > 0)")
	  or die "the run stored no second";
	return $h;
}

sub recorder_pid
{
	return iob_sql_value($node,
		"SELECT pid FROM pg_stat_activity WHERE backend_type = 'iobench recorder'");
}

# The run labelled $label is stored, complete, adds up, and left no live row
sub check_run
{
	my ($h, $label, $what) = @_;
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 1 FROM iobench.runs WHERE label = '$label'"),
		"$what: the run is stored");
	$h->quit;
	my $id = iob_sql_value($node, "SELECT run_id FROM iobench.runs WHERE label = '$label'");
	is(iob_sql_value($node, "SELECT status FROM iobench.runs WHERE run_id = $id"),
		'completed', "$what: completed");
	is(iob_sql_value($node, IobFault::iob_adds_up_sql($id)), 't',
		"$what: the totals equal the sums of run_seconds");
	ok(iob_sql_value($node,
			"SELECT count(DISTINCT second) >= 7 FROM iobench.run_seconds WHERE run_id = $id") eq 't',
		"$what: the seconds after the recorder's trouble are stored");
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM iobench.live_runs"),
		"$what: no live row left");
	iob_assert_clean($node, $what, $shm_mark);
}

# the recorder cancelled, then terminated, 2 s into the run
foreach my $how ('pg_cancel_backend', 'pg_terminate_backend')
{
	my $h = start_run($how, '12s', 2);
	my $pid = recorder_pid();
	iob_sql_value($node, "SELECT $how($pid)");
	check_run($h, $how, "recorder hit by $how");
}

# the recorder stopped (SIGSTOP) for the rest of the run: the launcher
# waits for it a bounded time, then stores the seconds itself
{
	my $h = start_run('stopped recorder', '12s', 2);
	my $pid = recorder_pid();
	kill 'STOP', $pid;
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 1 FROM iobench.runs WHERE label = 'stopped recorder'"),
		'stopped recorder: the run is stored while the recorder is stopped');
	kill 'CONT', $pid;
	check_run($h, 'stopped recorder', 'stopped recorder');
	ok($node->log_contains(qr/iobench recorder of run \d+ did not finish within 10000 ms/),
		'stopped recorder: the server log says the launcher took over');
}

# another session holds an ACCESS EXCLUSIVE lock on live_seconds from 2 s
# into the run until 10 s after its end (the issue's lock lasted 45 s; any
# lock that outlasts the run shows the same): the recorder cannot store, the
# launcher stores every second once the lock goes
{
	my $h = start_run('locked', '12s', 2);
	my $l = $node->background_psql('postgres', on_error_stop => 0);
	$l->query_until(qr/locked/, q{BEGIN;
LOCK TABLE iobench.live_seconds IN ACCESS EXCLUSIVE MODE;
\echo locked
SELECT pg_sleep(20);
COMMIT;
});
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 1 FROM iobench.runs WHERE label = 'locked'"),
		'lock held: the run is stored');
	$l->quit;
	check_run($h, 'locked', 'lock held on live_seconds');
}

# a worker stopped for longer than the recorder waits for it: the others'
# seconds are stored meanwhile, and the stopped worker's second, added
# after the recorder closed it, goes to its late ring and is stored too
{
	# (20 s: the recorder gives up on the worker 10 s after the stop, 2 s
	# in, and three seconds of the others are seen stored after that)
	my $h = start_run('stopped worker', '20s', 2);
	my @pids = iob_worker_pids($node);
	kill 'STOP', $pids[0];
	my $at = iob_sql_value($node, "SELECT max(second) FROM iobench.live_seconds");
	# the recorder waits 10 s for a stuck worker (it waited 200 s, and the
	# stuck worker's second, added after, was lost): give it 60
	my $moved = 'f';
	for (my $i = 0; $i < 600 && $moved ne 't'; $i++)
	{
		usleep(100_000);
		$moved = iob_sql_value($node,
			"SELECT max(second) >= $at + 3 FROM iobench.live_seconds");
	}
	is($moved, 't', 'stopped worker: the seconds of the others are stored meanwhile');
	# its second closed by now: what it adds goes to its late ring
	sleep(2);
	kill 'CONT', $pids[0];
	check_run($h, 'stopped worker', 'stopped worker');
}

# with steady_state, seconds are stored as they go, not a steady_window
# later (a 40 s window that a 0.001 % band never reaches); once that is
# seen the run is cancelled, and its stored part adds up too
{
	my $h = $node->background_psql('postgres', on_error_stop => 0);
	$h->query_until(qr/start/, q{\echo start
SELECT run_id FROM iobench.run(duration => '40s', file_size => '16MB', engine => 'psync',
                               rate_iops => 400, steady_state => 'iops', steady_band => 0.001,
                               steady_window => '40s', label => 'steady');
});
	$node->poll_query_until('postgres',
		"SELECT EXISTS (SELECT FROM iobench.live_runs)")
	  or die "the steady run did not start";
	my $stored = 'f';
	for (my $i = 0; $i < 200 && $stored ne 't'; $i++)
	{
		usleep(100_000);
		$stored = iob_sql_value($node,
			"SELECT coalesce(max(seconds_stored) >= 3, false) FROM iobench.running_runs WHERE state = 'running'");
	}
	is($stored, 't', 'steady_state: seconds are stored while the run goes');
	iob_sql_value($node, q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	                        WHERE query LIKE '%label => ''steady''%' AND pid <> pg_backend_pid()});
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM iobench.runs WHERE label = 'steady'");
	$h->quit;
	my $id = iob_sql_value($node, "SELECT run_id FROM iobench.runs WHERE label = 'steady'");
	is(iob_sql_value($node, IobFault::iob_adds_up_sql($id)), 't',
		'steady_state: the totals equal the sums of run_seconds');
}

$node->stop;
done_testing();
