# Crashes and shutdowns in the middle of a run: kill -9 of a worker (the
# server restarts after the crash and the caller gets an error), and
# pg_ctl stop -m fast and -m immediate, each followed by a start.  After
# each: no benchmark file, no iobench process, no shared memory left.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $shm_mark = iob_shm_mark();
my $node = iob_node('crash');
my $run = q{SELECT run_id FROM iobench.run(duration => '20s', file_size => '8MB',
             workers => 2, engine => 'psync')};

# kill -9 of a worker: crash restart, the caller's session is lost with it
my ($stdout, $stderr) = ('', '');
my $h = $node->background_psql('postgres', on_error_stop => 0);
$h->query_until(qr/start/, "\\echo start\n$run;\n");
iob_wait_for_workers($node, 2);
my ($victim) = iob_worker_pids($node);
kill 'KILL', $victim;
# the caller's connection dies in the crash restart, with an error
iob_wait_stderr($h, qr/connection|crash/);
eval { $h->quit; };
like($h->{stderr}, qr/terminating connection because of crash of another server process|server closed the connection unexpectedly/,
	"the caller's error");
ok(iob_poll_after_crash($node, 'SELECT true'), 'server back after the crash');
ok($node->log_contains(qr/background worker "iobench worker" \(PID $victim\) was terminated by signal 9/),
	'the server saw the worker killed');
ok($node->log_contains(qr/terminating any other active server processes/),
	'crash restart');
iob_assert_clean($node, 'kill -9 of a worker', $shm_mark);
is(iob_sql_value($node, 'SELECT count(*) FROM iobench.runs'), '0',
	'a crash stores no run');

# pg_ctl stop -m fast, then -m immediate, mid-run; then start
foreach my $mode ('fast', 'immediate')
{
	my $s = $node->background_psql('postgres', on_error_stop => 0);
	$s->query_until(qr/start/, "\\echo start\n$run;\n");
	iob_wait_for_workers($node, 2);
	$node->stop($mode);
	eval { $s->quit; };
	$node->start;
	iob_assert_clean($node, "pg_ctl stop -m $mode mid-run", $shm_mark);
}

$node->stop;
done_testing();
