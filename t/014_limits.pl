# Cluster-wide caps on the background worker slots and buffer memory of
# runs in progress (iobench.max_workers_total, iobench.max_buffer_memory_total).
# A run holds a slot per worker and one for its recorder (later its
# storer).  Preloaded, they are counted across concurrent runs in shared
# memory: a run that would pass one is refused up front, and what a run
# held is given back however it ends.  Without preload each cap bounds
# each run alone.  Either way iobench leaves a slot of max_worker_processes
# free, after the workers the server starts with.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $shm_mark = iob_shm_mark();
# max_worker_processes 16: by default 8 workers and a recorder, 9 slots
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

# a run of 6 workers holds 7 slots and leaves 2 for others
my $a = $node->background_psql('postgres', on_error_stop => 0);
$a->query_until(qr/start/, "\\echo start\n" . run_sql(6, '', 'six') . ";\n\\echo done\n");
iob_wait_for_workers($node, 6);
my ($ret, $out, $err) = $node->psql('postgres', run_sql(2, '', 'two'));
like($err, qr/ERROR:  the run's 3 background worker slots would exceed iobench.max_workers_total/,
	'a second run that would pass the cap is refused: it needs a slot for its recorder too');
like($err, qr/DETAIL:  A run holds a slot per worker and one for its recorder. Runs in progress hold 7; the limit is 9, so 2 are free\.\n/,
	'the error says how many are free');
($ret, $out, $err) = $node->psql('postgres', run_sql(1, '', 'one'));
is($out, 'completed', 'a run within what is free runs beside it') or diag($err);
like($a->query_until(qr/done/, ''), qr/completed/, 'the first run completes');
$a->quit;
($ret, $out, $err) = $node->psql('postgres', run_sql(8, '', 'eight', '300ms'));
is($out, 'completed', 'once it ended, its slots are free again') or diag($err);

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
iob_assert_clean($node, 'caps, preloaded', $shm_mark);
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
iob_assert_clean($plain, 'caps, not preloaded', $shm_mark);
$plain->stop;

# Few slots: max_worker_processes 6, of which the logical replication
# launcher and iobench's wait collector take 2 and one stays free, so runs
# may hold 3 (not the default 4, half of 6 and a recorder): 2 workers and a
# recorder.  Counting only the I/O workers would let a run of 3 workers
# (half of 6) take the last slot.
$shm_mark = iob_shm_mark();
my $small = iob_node('limits_small', "max_worker_processes = 6\n");
($ret, $out, $err) = $small->psql('postgres', run_sql(3, '', 'three', '300ms'));
like($err, qr/ERROR:  3 is out of range for argument "workers"\nDETAIL:  Valid values are between 1 and 2\./,
	'a run may not have as many workers as the cap has slots: its recorder needs one');
$small->safe_psql('postgres', q{
	CREATE TABLE par AS SELECT g FROM generate_series(1, 10000) g;
	ALTER TABLE par SET (parallel_workers = 1);
	ANALYZE par});
$a = $small->background_psql('postgres', on_error_stop => 0);
$a->query_until(qr/start/, "\\echo start\n" . run_sql(2, '', 'two of few') . ";\n\\echo done\n");
iob_wait_for_workers($small, 2);
($ret, $out, $err) = $small->psql('postgres', run_sql(1, '', 'one of few', '300ms'));
like($err, qr/ERROR:  the run's 2 background worker slots would exceed iobench.max_workers_total\nDETAIL:  A run holds a slot per worker and one for its recorder. Runs in progress hold 3; the limit is 3, so 0 are free\. The limit is what max_worker_processes \(6\) leaves after the 2 workers started with the server and one slot always left free\.\n/,
	'a second run is refused: the first holds every slot iobench may take');
($ret, $out, $err) = $small->psql('postgres',
	"SET iobench.max_workers_total = 6;\n" . run_sql(1, '', 'one more of few', '300ms'));
like($err, qr/Runs in progress hold 3; the limit is 3, so 0 are free\./,
	'a setting above what max_worker_processes leaves is held to it');
like($small->safe_psql('postgres', q{
		SET max_parallel_workers_per_gather = 1; SET parallel_setup_cost = 0;
		SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
		EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM par}),
	qr/Workers Launched: 1/, 'while runs hold all they may, a parallel query still gets a worker');
like($a->query_until(qr/done/, ''), qr/completed/, 'the run beside it completes');
$a->quit;
($ret, $out, $err) = $small->psql('postgres',
	"\\set VERBOSITY default\nSET iobench.max_workers_per_run = 1;\n" . run_sql(1, '', 'none fits', '300ms'));
like($err, qr/ERROR:  too few background worker slots for a benchmark run\nDETAIL:  A run needs 2 slots at least, one per worker and one for its recorder; iobench may hold 1:/,
	'a cap too small for one worker and its recorder says so');

# Slots the caps cannot see, taken by parallel query: with n parallel
# workers sleeping, a run finds fewer slots than its cap allows
sub hold_parallel_workers
{
	my ($n) = @_;
	my $h = $small->background_psql('postgres', on_error_stop => 0);
	$h->query_until(qr/start/, qq{\\echo start
SET max_parallel_workers_per_gather = $n; SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SELECT count(*) FROM par WHERE pg_sleep(0.003) IS NOT NULL;
});
	$small->poll_query_until('postgres', qq{
		SELECT count(*) = $n FROM pg_stat_activity WHERE backend_type = 'parallel worker'})
	  or die "the parallel workers did not start";
	return $h;
}

# Stop the parallel query of hold_parallel_workers()
sub release_parallel_workers
{
	my ($h) = @_;
	$small->safe_psql('postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		 WHERE query LIKE '%pg_sleep(0.003)%' AND backend_type = 'client backend'
		   AND pid <> pg_backend_pid()});
	iob_wait_stderr($h, qr/canceling statement/);
	$h->quit;
	$small->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
}

$small->safe_psql('postgres', 'ALTER TABLE par SET (parallel_workers = 4)');
# 4 held: not even the recorder finds a slot, and the run is refused
# before a file is made
my $h = hold_parallel_workers(4);
($ret, $out, $err) = $small->psql('postgres', run_sql(1, '', 'no slot for the recorder', '300ms'));
like($err, qr/ERROR:  could not register the recorder of the benchmark run/,
	'no slot for the recorder: refused');
is(scalar(iob_leftover_files($small)), 0, 'no file is left');
release_parallel_workers($h);
# 3 held: the recorder takes the last slot, the worker finds none; the
# run's files and its recorder go
$h = hold_parallel_workers(3);
($ret, $out, $err) = $small->psql('postgres', run_sql(1, '', 'no slot for the worker', '300ms'));
like($err, qr/ERROR:  could not register background worker for the benchmark run\nDETAIL:  Only 0 background worker slots were free for the 1 workers of the run\./,
	'no slot for the worker: refused, saying so');
release_parallel_workers($h);
($ret, $out, $err) = $small->psql('postgres', run_sql(2, '', 'after the parallel query', '300ms'));
is($out, 'completed', 'then the slots are free again') or diag($err);
is($small->safe_psql('postgres', 'SELECT count(*) FROM iobench.live_runs'), '0',
	'refused runs leave no live row');
iob_assert_clean($small, 'few slots', $shm_mark);
$small->stop;

done_testing();
