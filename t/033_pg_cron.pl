# Recurring burn-ins with pg_cron (Debian's postgresql-15-cron): a run
# scheduled every minute stores its row and its seconds, as a run from
# psql does.  pg_cron runs the job in a background worker
# (cron.use_background_workers), from which iobench starts its own.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# pg_cron is a package of its own (postgresql-15-cron); tools/deps.sh
# installs it for Debian's PostgreSQL packages
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
plan skip_all => "pg_cron is not installed in $pkglibdir (Debian: postgresql-N-cron)"
  unless -f "$pkglibdir/pg_cron.so";

my $node = PostgreSQL::Test::Cluster->new('pg_cron');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench,pg_cron'
cron.database_name = 'postgres'
cron.use_background_workers = on
max_worker_processes = 16
iobench.progress = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');
$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron');

$node->safe_psql('postgres', q{
	SELECT cron.schedule('iobench burn-in', '* * * * *',
		$$SELECT run_id FROM iobench.run(duration => '2s', rate_iops => 100,
		                                 file_size => '1MB', label => 'scheduled burn-in')$$)});

# the job fires at the next full minute
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM iobench.runs
		 WHERE label = 'scheduled burn-in' AND status = 'completed'}),
	'the scheduled run is stored');
is( $node->safe_psql('postgres', q{
		SELECT r.ops > 0 AND (SELECT sum(s.ops) FROM iobench.run_seconds s WHERE s.run_id = r.run_id) = r.ops
		  FROM iobench.runs r WHERE label = 'scheduled burn-in' ORDER BY run_id LIMIT 1}),
	't', 'with its seconds');
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM cron.job_run_details WHERE status = 'succeeded'}),
	'pg_cron records the job as succeeded');
$node->safe_psql('postgres', q{SELECT cron.unschedule('iobench burn-in')});

$node->stop('fast');
done_testing();
