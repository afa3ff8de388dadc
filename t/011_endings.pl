# Endings of a run that pg_regress cannot produce: an error in a worker (a
# file truncated under it: a short read), and the termination of the
# calling session.  Each stores a run whose totals equal the sums of its
# per-second rows and of its histogram buckets, and leaves nothing behind.
# (statement_timeout, a cancelled and a terminated worker: sql/run_cancel.sql)
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $shm_mark = iob_shm_mark();
my $node = iob_node('endings');

# an error in a worker: its SQLSTATE and message reach the caller, whose
# DETAIL names the stored run
my $h = $node->background_psql('postgres', on_error_stop => 0);
$h->query_until(qr/start/, qq{\\echo start
\\set VERBOSITY verbose
SELECT run_id FROM iobench.run(duration => '20s', file_size => '8MB', workers => 2,
                               engine => 'psync', label => 'worker error');
});
iob_wait_for_workers($node, 2);
my @files = iob_leftover_files($node);
ok(@files >= 1, 'the run has files');
truncate($files[0], 0) or die "truncate: $!";
ok($node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM iobench.runs WHERE label = 'worker error' AND status = 'failed'"),
	'the failed run is stored');
iob_wait_stderr($h, qr/DETAIL/);
$h->quit;
like($h->{stderr}, qr/ERROR:  XX001: iobench worker \d failed: could not read file .*: read 0 of 8192 bytes/,
	"the worker's SQLSTATE and message");
like($h->{stderr}, qr/DETAIL:  The partial run is stored as run \d+ with status "failed"/,
	'the DETAIL names the stored run');
my $id = iob_sql_value($node, "SELECT run_id FROM iobench.runs WHERE label = 'worker error'");
is(iob_sql_value($node, IobFault::iob_adds_up_sql($id)), 't', 'worker error: the run adds up');
iob_assert_clean($node, 'error in a worker', $shm_mark);

# the caller terminated mid-run: its exit stores the run
my $c = $node->background_psql('postgres', on_error_stop => 0);
$c->query_until(qr/start/, qq{\\echo start
SELECT run_id FROM iobench.run(duration => '20s', file_size => '8MB', workers => 2,
                               engine => 'psync', label => 'caller terminated');
});
iob_wait_for_workers($node, 2);
# its first second stored with I/O in it (a stalled disk may complete none
# for a while), so that the stored run has I/O to show
$node->poll_query_until('postgres', q{
	SELECT EXISTS (SELECT FROM iobench.live_seconds s JOIN iobench.live_runs r USING (run_id)
	                 JOIN pg_stat_activity a ON a.pid = r.recorder_pid
	                WHERE s.ops > 0)})
  or die "the run stored no second with I/O";
$node->safe_psql('postgres',
	"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%caller terminated%' AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
iob_wait_stderr($c, qr/terminating/);
eval { $c->quit; };
like($c->{stderr}, qr/terminating connection due to administrator command/,
	'the caller is terminated');
ok($node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM iobench.runs WHERE label = 'caller terminated' AND status = 'cancelled' AND ops > 0"),
	'the run of the terminated caller is stored');
# (the line is written once the storer has committed, so it may follow
# the row that the poll above saw)
ok($node->wait_for_log(qr/benchmark run of a terminated session stored as run \d+/),
	'the server log names it');
$id = iob_sql_value($node, "SELECT run_id FROM iobench.runs WHERE label = 'caller terminated'");
is(iob_sql_value($node, IobFault::iob_adds_up_sql($id)), 't', 'caller terminated: the run adds up');
iob_assert_clean($node, 'caller terminated', $shm_mark);

# 20 rapid cancels: each a stored run or nothing, never a leak
my $stored_before = iob_sql_value($node, 'SELECT count(*) FROM iobench.runs');
foreach my $i (1 .. 20)
{
	my $ms = 30 + 25 * ($i % 8);
	my ($ret, $out, $err) = $node->psql('postgres', qq{SET statement_timeout = '${ms}ms';
SELECT run_id FROM iobench.run(duration => '10s', file_size => '1MB', engine => 'psync', label => 'rapid');});
	like($err, qr/canceling statement due to statement timeout/, "rapid cancel $i fails with the cancel");
}
ok(iob_sql_value($node,
		"SELECT bool_and(status = 'cancelled') FROM iobench.runs WHERE label = 'rapid'") ne 'f',
	'rapid cancels: only cancelled runs stored');
foreach my $rid (split /\n/,
	iob_sql_value($node, "SELECT run_id FROM iobench.runs WHERE label = 'rapid'"))
{
	is(iob_sql_value($node, IobFault::iob_adds_up_sql($rid)), 't', "rapid cancel run $rid adds up");
}
iob_assert_clean($node, '20 rapid cancels', $shm_mark);
# nothing stays counted against the cluster-wide caps either
my ($r, $o, $e) = $node->psql('postgres',
	"SELECT status FROM iobench.run(duration => '300ms', file_size => '1MB', workers => 8, engine => 'psync')");
is($o, 'completed', 'after the cancels a run may take every iobench worker slot') or diag($e);

$node->stop;
done_testing();
