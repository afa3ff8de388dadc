# A cancelled latency_search() keeps its row and the steps it completed,
# marked "cancelled", as a cancelled suite does: each step runs in a
# subtransaction, and the search's rows are stored by a process that
# commits on its own before the cancel goes on.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $shm_mark = iob_shm_mark();
my $node = iob_node('search_cancel');

# psync keeps the depth at 1: step 1 is one worker, step 2 two
my $h = $node->background_psql('postgres', on_error_stop => 0);
$h->query_until(qr/start/, q{\echo start
\set VERBOSITY verbose
SELECT * FROM iobench.latency_search('pg_default', latency_target => '1h',
                                     max_workers => 2, step_duration => '4s',
                                     file_size => '16MB', engine => 'psync', label => 'cancel me');
});
# step 2 measuring: cancel the search
iob_wait_for_workers($node, 2);
$node->safe_psql('postgres',
	"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%latency_search%cancel me%' AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
iob_wait_stderr($h, qr/DETAIL/);
$h->quit;
like($h->{stderr}, qr/ERROR:  57014: canceling statement due to user request/,
	'the search fails with the cancel');
like($h->{stderr}, qr/The search is kept as search \d+ with status "cancelled" and the steps done before/,
	'the DETAIL names the kept search');

is(iob_sql_value($node, "SELECT status FROM iobench.searches WHERE label = 'cancel me'"),
	'cancelled', 'the search row is kept, cancelled');
is(iob_sql_value($node, q{
	SELECT string_agg(format('%s:%s:%s', t.step, t.workers, r.status), ',' ORDER BY t.step)
	  FROM iobench.searches s JOIN iobench.search_steps t USING (search_id)
	  JOIN iobench.runs r USING (run_id)
	 WHERE s.label = 'cancel me'}),
	'1:1:completed,2:2:cancelled', 'the completed step and the cancelled one are kept');
my $id = iob_sql_value($node, q{
	SELECT t.run_id FROM iobench.searches s JOIN iobench.search_steps t USING (search_id)
	 WHERE s.label = 'cancel me' AND t.step = 1});
is(iob_sql_value($node, IobFault::iob_adds_up_sql($id)), 't',
	'the completed step is whole: its seconds came along');
is(iob_sql_value($node, q{
	SELECT count(*) FROM iobench.runs r
	 WHERE r.label LIKE 'latency search #%'
	   AND NOT EXISTS (SELECT FROM iobench.search_steps t WHERE t.run_id = r.run_id)}),
	'0', 'no run labelled with a search that does not list it');
is(iob_sql_value($node, 'SELECT count(*) FROM iobench.running_runs'), '0',
	'no step is left listed as interrupted');
iob_assert_clean($node, 'cancelled search', $shm_mark);

$node->stop;
done_testing();
