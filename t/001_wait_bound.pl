# The bound on the wait collector's shared memory: a server started with a
# small iobench.max_wait_types keeps that many wait types and adds every
# other one to the row Overflow:OtherWaitTypes, losing no time and going on
# sampling.  Sessions wait on distinct things to make more wait types than
# fit: a sleep, an advisory lock, a row lock (a transaction id), and a
# client read inside a transaction.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bound = 3;

my $node = PostgreSQL::Test::Cluster->new('wait_bound');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench'
iobench.max_wait_types = $bound
iobench.sample_period = 10ms
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');
$node->safe_psql('postgres',
	'CREATE TABLE bound_rows (id int PRIMARY KEY); INSERT INTO bound_rows VALUES (1)');

is($node->safe_psql('postgres', 'SELECT max_wait_types FROM iobench.wait_collector'),
	$bound, 'the bound is the server setting');

# Sessions that hold what others wait for
my $holder = $node->background_psql('postgres');
$holder->query_safe('SELECT pg_advisory_lock(1)');
$holder->query_safe('BEGIN');
$holder->query_safe('UPDATE bound_rows SET id = 1');

# Waiters, each on something else (one of them is the holder itself: its
# open transaction waits for its client in ClientRead)
my @waiters;
foreach my $sql ('SELECT pg_sleep(600)',
	'SELECT pg_advisory_lock(1)',
	'UPDATE bound_rows SET id = 1')
{
	my $s = $node->background_psql('postgres');
	$s->query_until(qr/waiting/, "\\echo waiting\n$sql;\n");
	push @waiters, $s;
}

my $waiting_sql = q{
	SELECT count(*) FROM pg_stat_activity
	WHERE (wait_event_type, wait_event) IN (('Timeout', 'PgSleep'),
		('Lock', 'advisory'), ('Lock', 'transactionid'))
	   OR state = 'idle in transaction'};
ok($node->poll_query_until('postgres', $waiting_sql, '4'),
	'four sessions wait on four different things');

# From now on every tick sees at least those four waits
$node->safe_psql('postgres', 'SELECT iobench.reset_waits()');
my ($ticks0, $sampled0) = split /\|/,
  $node->safe_psql('postgres', 'SELECT ticks, sampled_s FROM iobench.wait_collector');
ok( $node->poll_query_until('postgres',
		"SELECT ticks >= $ticks0 + 50 FROM iobench.wait_collector"),
	'the collector keeps ticking');
my $sampled1 =
  $node->safe_psql('postgres', 'SELECT sampled_s FROM iobench.wait_collector');

is( $node->safe_psql('postgres',
		'SELECT wait_types = max_wait_types AND overflow_samples > 0 FROM iobench.wait_collector'),
	't', 'the table is full and samples went to overflow');
is( $node->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE wait_type <> 'Overflow:OtherWaitTypes') || ',' ||
		         count(*) FILTER (WHERE wait_type = 'Overflow:OtherWaitTypes' AND wait_s > 0)
		  FROM iobench.waits_raw()}),
	"$bound,1", 'as many named rows as the bound, and one overflow row with time');
is( $node->safe_psql('postgres',
		q{SELECT count(*) FROM iobench.wait_stats_all
		  WHERE wait_type = 'Overflow:OtherWaitTypes' AND NOT benign}),
	'1', 'the overflow row is in the wait table');

# Nothing lost: the four waits alone account for four times the sampled time
is( $node->safe_psql('postgres',
		"SELECT sum(wait_s) >= 4 * ($sampled1 - $sampled0) - 0.001 FROM iobench.waits_raw()"),
	't', 'no wait time is lost to the bound');

# A reset empties the overflow too
my $overflow =
  $node->safe_psql('postgres', 'SELECT overflow_samples FROM iobench.wait_collector');
$node->safe_psql('postgres', 'SELECT iobench.reset_waits()');
is( $node->safe_psql('postgres',
		"SELECT overflow_samples < $overflow AND wait_types <= $bound FROM iobench.wait_collector"),
	't', 'reset clears the overflow');

# Stopping the server ends the sessions, and their psql exits (writing
# the quit command to a psql that has gone fails; nothing is left to do)
$node->stop('fast');
eval { $_->quit } foreach @waiters, $holder;

done_testing();
