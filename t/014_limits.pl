# Cluster-wide caps on the workers and buffer memory of runs in progress
# (iobench.max_workers_total, iobench.max_buffer_memory_total).  Preloaded,
# they are counted across concurrent runs in shared memory: a run that
# would pass one is refused up front, and what a run held is given back
# however it ends.  Without preload each cap bounds each run alone.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $since = time();
# max_worker_processes 16: by default 8 for iobench
my $node = iob_node('limits', "iobench.max_buffer_memory_total = '48MB'\n");
is($node->safe_psql('postgres', "SELECT current_setting('iobench.max_workers_total')"),
	'-1', 'max_workers_total defaults to half of max_worker_processes');

sub run_sql
{
	my ($workers, $extra, $label, $duration) = @_;
	$duration //= '3s';
	return qq{SELECT status FROM iobench.run(duration => '$duration', file_size => '16MB',
	          workers => $workers, engine => 'psync' $extra, label => '$label')};
}

# a run holding 6 workers leaves 2 for others
my $a = $node->background_psql('postgres', on_error_stop => 0);
$a->query_until(qr/start/, "\\echo start\n" . run_sql(6, '', 'six') . ";\n\\echo done\n");
iob_wait_for_workers($node, 6);
my ($ret, $out, $err) = $node->psql('postgres', run_sql(4, '', 'four'));
like($err, qr/ERROR:  the run's 4 workers would exceed iobench.max_workers_total/,
	'a second run that would pass the worker cap is refused');
like($err, qr/DETAIL:  Runs in progress hold 6; the limit is 8, so 2 are free/,
	'the error says how many are free');
($ret, $out, $err) = $node->psql('postgres', run_sql(2, '', 'two'));
is($out, 'completed', 'a run within what is free runs beside it') or diag($err);
like($a->query_until(qr/done/, ''), qr/completed/, 'the first run completes');
$a->quit;
($ret, $out, $err) = $node->psql('postgres', run_sql(8, '', 'eight', '300ms'));
is($out, 'completed', 'once it ended, its workers are free again') or diag($err);

# buffer memory: 2 workers of 16 MB blocks hold 32 MB of the 48 MB
$a = $node->background_psql('postgres', on_error_stop => 0);
$a->query_until(qr/start/, "\\echo start\n"
	  . run_sql(2, ", block_size => '16MB'", 'big blocks') . ";\n\\echo done\n");
iob_wait_for_workers($node, 2);
($ret, $out, $err) = $node->psql('postgres', run_sql(2, ", block_size => '16MB'", 'more big blocks'));
like($err, qr/ERROR:  the run's buffer memory of 32 MB would exceed iobench.max_buffer_memory_total/,
	'a second run that would pass the buffer cap is refused');
# cancel the first: what it held is given back
$node->safe_psql('postgres',
	"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%big blocks%' AND backend_type = 'client backend' AND pid <> pg_backend_pid()");
iob_wait_stderr($a, qr/canceling statement/);
$a->quit;
($ret, $out, $err) = $node->psql('postgres',
	run_sql(2, ", block_size => '16MB'", 'big blocks again', '300ms'));
is($out, 'completed', 'after a cancel, its buffer memory is free again') or diag($err);
iob_assert_clean($node, 'caps, preloaded', $since);
$node->stop;

# without preload: each run alone
my $plain = PostgreSQL::Test::Cluster->new('limits_plain');
$plain->init;
$plain->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$plain->start;
$plain->safe_psql('postgres', 'CREATE EXTENSION iobench');
($ret, $out, $err) = $plain->psql('postgres',
	"\\set VERBOSITY default\nSET iobench.max_workers_per_run = 12;\n" . run_sql(9, '', 'nine', '300ms'));
like($err, qr/ERROR:  9 is out of range for argument "workers"\nDETAIL:  Valid values are between 1 and 8/,
	'without preload a run alone is held to the cap');
$a = $plain->background_psql('postgres', on_error_stop => 0);
$a->query_until(qr/start/, "\\echo start\n" . run_sql(6, '', 'six') . ";\n\\echo done\n");
iob_wait_for_workers($plain, 6);
($ret, $out, $err) = $plain->psql('postgres', run_sql(2, '', 'two more', '300ms'));
is($out, 'completed', 'without preload concurrent runs are not counted together') or diag($err);
$a->query_until(qr/done/, '');
$a->quit;
iob_assert_clean($plain, 'caps, not preloaded', $since);
$plain->stop;

done_testing();
