# server_vs_disk()'s scan by the executor takes no other relation's
# buffers beyond its bound (issue 36): a bitmap heap scan reads through no
# buffer ring, so the scan reads at most the buffers on the free list
# (where it drops its own relation's buffers first; 15 to 18) plus 0.5 %
# of shared buffers per call (19, which has no free list: that 0.5 % only).
#
# 1. With another database's table in most of shared buffers (128 MB) and
#    fewer buffers free than the scan would select (one page in eight of
#    128 MB: 2048), a granted user's server_vs_disk() reads fewer pages
#    than that, cold (19: none, its allowance being smaller than the
#    index), and at least 99 % of the other table's buffers survive the
#    whole call (engine runs and raw runs included).
# 2. With shared buffers all in use (a table larger than them), one scan
#    step reads no more than its allowance: at least 99 % survive again.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = iob_base_node('scan_buffers', "shared_buffers = 128MB\n");
my $ts_dir = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pg_buffercache;
	CREATE ROLE alice LOGIN;
	GRANT iobench_user TO alice;
	CREATE DATABASE other;
	CREATE TABLESPACE small_ts LOCATION '$ts_dir';
	GRANT CREATE ON TABLESPACE small_ts TO alice;
});
my $nbuffers = $node->safe_psql('postgres',
	q{SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers'});
# 8 rows of 900 bytes a page
$node->safe_psql('other', q{
	CREATE EXTENSION pg_prewarm;
	CREATE TABLE most (id int, pad text) WITH (fillfactor = 100);
	INSERT INTO most SELECT g, repeat('x', 900) FROM generate_series(1, 14336 * 8) g;
	CREATE TABLE big (id int, pad text) WITH (fillfactor = 100);
	INSERT INTO big SELECT g, repeat('x', 900) FROM generate_series(1, 20480 * 8) g;
	VACUUM most;
	VACUUM big;
});
# an empty buffer pool: what made the tables and read the catalogs gone
$node->restart;
# the buffers of a table of database "other" (pg_buffercache is in "postgres")
sub buffers_of
{
	my ($table) = @_;
	my $filenode = $node->safe_psql('other', "SELECT pg_relation_filenode('$table')");
	return $node->safe_psql('postgres', qq{
		SELECT count(*) FROM pg_buffercache b
		  JOIN pg_database d ON d.oid = b.reldatabase AND d.datname = 'other'
		 WHERE b.relfilenode = $filenode AND b.relforknumber = 0});
}

# 1. most of shared buffers (112 of 128 MB) hold "most"
$node->safe_psql('other', q{SELECT pg_prewarm('most')});
my $before = buffers_of('most');
cmp_ok($before, '>=', 13000, "the other database's table holds most of shared buffers ($before of $nbuffers)");
my $row = $node->safe_psql('postgres', q{
	SELECT scan_blocks, scan_read_blocks, limiting_layer IS NOT NULL OR summary LIKE '%no raw run%', summary
	  FROM iobench.server_vs_disk(concurrencies => '{4}', duration => '1s', file_size => '128MB')
	 WHERE pattern = 'randread'},
	extra_params => [ '-U', 'alice' ]);
my ($pages, $read, $layer, $summary) = split /\|/, $row;
note("the random step: $summary");
if ($node->safe_psql('postgres', 'SHOW server_version_num') < 190000)
{
	cmp_ok($pages, '>=', 64, "the bitmap heap scan ran ($pages pages)");
	cmp_ok($pages, '<', 2048, "on fewer pages than one in eight of the relation: the free buffers ($pages of 2048)");
	is($read, $pages, 'every page it visited was read from the kernel (cold)');
	is($layer, 't', 'the row names the layer that limits');
}
else
{
	# 19 has no free list: the scan may take only its allowance, 0.5 % of
	# shared buffers a call (40 buffers a step here), fewer than its index
	is($pages, '', 'without a free list (19) the scan takes no more than its allowance: none here');
	like($summary, qr/; no scan: shared buffers have 0 free buffers .* and 40 to take from other relations in this step/,
		'and the row says why');
}
my $after = buffers_of('most');
cmp_ok($after, '>=', $before * 0.99,
	"at least 99 % of the other table's buffers survive the call ($after of $before)");

# the small tablespace's scan relation, made while buffers are free
$node->safe_psql('postgres', q{
	SELECT not_measured FROM iobench_internal.scan_step((SELECT oid FROM pg_tablespace WHERE spcname = 'small_ts'),
	                                                    'randread', 4, '8MB', 1, 1000000)});

# 2. shared buffers all in use: one step on a tablespace of its own (an
#    8 MB relation, an index of a few pages) reads within its allowance
$node->safe_psql('other', q{SELECT pg_prewarm('big')});
$before = buffers_of('big');
cmp_ok($before, '>=', $nbuffers * 0.9, "a table larger than shared buffers fills them ($before of $nbuffers)");
$row = $node->safe_psql('postgres', q{
	SELECT s.selected_blocks, s.not_measured IS NULL, s.free_buffers
	  FROM iobench_internal.scan_step((SELECT oid FROM pg_tablespace WHERE spcname = 'small_ts'),
	                                  'randread', 4, '8MB', 1, 1000000) s});
my ($selected, $measured, $free) = split /\|/, $row;
is($measured, 't', "a step reads within its allowance ($selected pages, $free buffers free)");
cmp_ok($selected, '<=', $nbuffers / 200, 'no more pages than 0.5 % of shared buffers');
$after = buffers_of('big');
cmp_ok($after, '>=', $before * 0.99,
	"at least 99 % of the other table's buffers survive the step ($after of $before)");

$node->stop('fast');
done_testing();
