# Engine 'postgres' is cache-friendly by construction (issue 35, finding 3):
# the fill of its relation and its reads go through buffer rings, so a run
# takes no more of shared buffers than its rings, whatever it reads.  With
# shared buffers (32 MB) full of another database's table, a granted user's
# run that makes, fills and reads a relation twice the size of shared
# buffers leaves at least 90 % of that table's buffers in place (without
# the rings it evicted most of them: the fill took a 16 MB ring per 64 MB
# step, capped at an eighth of shared buffers, and random reads on 17+
# took every buffer from the clock sweep).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = iob_base_node('buffer_ring', "shared_buffers = 32MB\n");
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_buffercache;
	CREATE ROLE alice LOGIN;
	GRANT iobench_user TO alice;
	CREATE DATABASE other;
});
# 40 MB: more than shared buffers, so once it is read, its blocks fill
# them and no buffer is free
$node->safe_psql('other', q{
	CREATE EXTENSION pg_prewarm;
	CREATE TABLE big (id int, pad text) WITH (fillfactor = 100);
	INSERT INTO big SELECT g, repeat('x', 900) FROM generate_series(1, 5120 * 8) g;
	VACUUM big;
});
my $count = q{
	SELECT count(*) FROM pg_buffercache b
	  JOIN pg_database d ON d.oid = b.reldatabase AND d.datname = 'other'
	 WHERE b.relfilenode = %s AND b.relforknumber = 0};
my $filenode = $node->safe_psql('other', q{SELECT pg_relation_filenode('big')});
$node->safe_psql('other', q{SELECT pg_prewarm('big')});
my $before = $node->safe_psql('postgres', sprintf($count, $filenode));
my $nbuffers = $node->safe_psql('postgres', q{SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers'});
cmp_ok($before, '>=', $nbuffers * 0.85, "the other database's table fills shared buffers ($before of $nbuffers)");

# a granted user's run: the relation made and filled (64 MB, twice shared
# buffers), then 2 s of random reads
my $status = $node->safe_psql('postgres', q{
	SELECT status FROM iobench.run(engine => 'postgres', file_size => '64MB',
	                               duration => '2s', rw => 'randread')},
	extra_params => [ '-U', 'alice' ]);
# (on 17 and later the kernel's read-ahead may serve more than 1 % of the
# reads from the page cache: the run is then stored "invalid", its
# buffers' fate the same)
like($status, qr/^(completed|invalid)$/, 'the granted user\'s run ran to its end');
my $blocks = $node->safe_psql('postgres', q{SELECT blocks FROM iobench.run_server_reads});
cmp_ok($blocks, '>', $nbuffers, "the run read more blocks ($blocks) than shared buffers hold");
my $after = $node->safe_psql('postgres', sprintf($count, $filenode));
cmp_ok($after, '>=', $before * 0.9,
	"at least 90 % of the other table's buffers survive the run ($after of $before)");

# a second run that makes the relation anew costs no more
$node->safe_psql('postgres', q{SELECT iobench.drop_read_targets()}, extra_params => [ '-U', 'alice' ]);
$node->safe_psql('other', q{SELECT pg_prewarm('big')});
$before = $node->safe_psql('postgres', sprintf($count, $filenode));
$node->safe_psql('postgres', q{
	SELECT status FROM iobench.run(engine => 'postgres', file_size => '64MB',
	                               duration => '1s', rw => 'read')},
	extra_params => [ '-U', 'alice' ]);
$after = $node->safe_psql('postgres', sprintf($count, $filenode));
cmp_ok($after, '>=', $before * 0.9,
	"and of a sequential run after drop_read_targets() ($after of $before)");

$node->stop('fast');
done_testing();
