# Progress and stall NOTICEs of a run: each progress line labels the last
# interval and the total; a second in which a worker was stopped (SIGSTOP)
# gets a stall NOTICE as it happens, naming a second that iobench.stalls()
# also finds afterwards.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('progress_stall');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'iobench'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');

# A 7-second run in the background; its NOTICEs land on psql's stderr
my $run = $node->background_psql('postgres');
$run->query_until(qr/started/, q{\echo started
SELECT run_id FROM iobench.run(duration => '7s', file_size => '16MB', engine => 'psync');
});

ok( $node->poll_query_until(
		'postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'iobench worker'"),
	'the worker runs');
my $pid = $node->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE backend_type = 'iobench worker'");

# let it run 3 s (the stall check needs 2 s of rate), then stop it for 2.5 s
usleep(3_000_000);
kill 'STOP', $pid;
usleep(2_500_000);
kill 'CONT', $pid;
$run->quit;
my $notices = $run->{stderr};
note $notices;

like(
	$notices,
	qr{NOTICE:  iobench: \d+/7 s: last 1 s \d+ IOPS, [\d.]+ MiB/s \([\d.]+ MB/s\), p99 [^;]+; total \d+ IOPS, [\d.]+ MiB/s \([\d.]+ MB/s\), p99 \S+ \S+\n},
	'progress lines label the last interval and the total');

my @stalled = $notices =~ /NOTICE:  iobench: stall in second (\d+): 0 IOPS, 0 % of the \d+ IOPS so far/g;
ok(@stalled >= 1, 'a second without I/O is reported as a stall while the run goes on');

my %after = map { $_ => 1 } split /\n/,
  $node->safe_psql('postgres',
	'SELECT second FROM iobench.stalls((SELECT max(run_id) FROM iobench.runs))');
is_deeply([ grep { !$after{$_} } @stalled ], [],
	'iobench.stalls() afterwards finds the seconds the NOTICEs named');

$node->stop;
done_testing();
