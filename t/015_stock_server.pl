# A stock server: the settings initdb writes and nothing else
# (max_worker_processes 8).  A run may have at most half of
# max_worker_processes workers there (4), so pgiosim()'s defaults, 10
# workers, would be refused: with workers left out, pgiosim() runs as
# many as the server allows and says so in a NOTICE.  The same holds
# preloaded (iobench's wait collector takes a slot from the start) and
# for README's pg_cron line, which pg_cron runs through a connection of
# its own (its default, cron.use_background_workers = off).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# a short pgiosim() with its defaults but for the length and the files' size
my $pgiosim = q{SELECT status || ' ' || workers FROM iobench.pgiosim(duration => '1s', file_size => '8MB', label => 'stock')};

my $node = PostgreSQL::Test::Cluster->new('stock');
$node->init;
$node->start;
is($node->safe_psql('postgres', 'SHOW max_worker_processes'), '8',
	'the stock max_worker_processes');
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');

my ($ret, $out, $err) = $node->psql('postgres', $pgiosim, extra_params => [ '-v', 'VERBOSITY=default' ]);
is($out, 'completed 4', 'pgiosim() with its default workers runs on a stock server, with 4 workers')
  or diag($err);
like($err, qr/NOTICE:  pgiosim runs 4 workers, not its default of 10\nDETAIL:  A run may have 4 workers here: .* half of max_worker_processes \(8 here\)\.\nHINT:  Pass workers => N to choose, or raise max_worker_processes/,
	'a NOTICE says how many workers and why');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT status || ' ' || workers FROM iobench.pgiosim(workers => 2, duration => '300ms', file_size => '8MB')});
is($out, 'completed 2', 'workers given: that many');
unlike($err, qr/pgiosim runs/, 'and no NOTICE');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT iobench.pgiosim(workers => 10, duration => '300ms', file_size => '8MB')});
like($err, qr/ERROR:  10 is out of range for argument "workers"/,
	'10 workers asked for are refused, as before');
$node->stop;

# preloaded, with pg_cron when it is installed
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my $cron = -f "$pkglibdir/pg_cron.so";
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'iobench" . ($cron ? ",pg_cron" : "") . "'\n"
	  . ($cron ? "cron.database_name = 'postgres'\ncron.host = '" . $node->host . "'\n" : ''));
$node->start;
# iobench's wait collector and the logical replication launcher (and
# pg_cron's launcher) hold slots from the start; a run never takes the
# last free one
my $expect = $cron ? 3 : 4;
($ret, $out, $err) = $node->psql('postgres', $pgiosim);
is($out, "completed $expect", "preloaded: $expect workers") or diag($err);
like($err, qr/NOTICE:  pgiosim runs $expect workers, not its default of 10/, 'with the NOTICE');

SKIP:
{
	skip "pg_cron is not installed in $pkglibdir (Debian: postgresql-N-cron)", 2 unless $cron;
	$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron');
	# README's line, every minute and shorter
	$node->safe_psql('postgres', q{
		SELECT cron.schedule('nightly burn-in', '* * * * *',
			$$SELECT iobench.pgiosim(duration => '2s', file_size => '8MB', label => 'nightly')$$)});
	ok( $node->poll_query_until('postgres', q{
			SELECT count(*) > 0 FROM cron.job_run_details WHERE status IN ('succeeded', 'failed')}),
		'the scheduled pgiosim() ran');
	is( $node->safe_psql('postgres', q{
			SELECT string_agg(status || ': ' || coalesce(return_message, ''), '; ')
			  FROM cron.job_run_details}) . ' / '
		  . $node->safe_psql('postgres', q{
			SELECT string_agg(status || ' ' || workers, ', ') FROM iobench.runs WHERE label = 'nightly'}),
		'succeeded: 1 row / completed 3', 'pg_cron records it as succeeded, and the run is stored');
	$node->safe_psql('postgres', q{SELECT cron.unschedule('nightly burn-in')});
}

$node->stop('fast');
done_testing();
