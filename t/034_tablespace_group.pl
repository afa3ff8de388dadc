# Several tablespaces in one run (seed 004: RAID 10 against 2 x RAID 1):
# the files of one run spread over two tablespaces on two different file
# systems (the loop-device ext4 rig and a tmpfs, tools/run-tests.sh as
# root), every worker's I/O to both in one measured period, with the
# aggregate in iobench.runs and each tablespace's figures, from its own
# histograms, in iobench.run_tablespaces; with the second loop-device rig,
# the block device of every tablespace sampled second by second.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($loop_dir, $tmpfs, $loop2_dir) = iob_need_rigs(
	'the two loop-device rigs and the tmpfs rig',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_TMPFS_DIR IOBENCH_TEST_LOOP2_DIR));
my @loop_devs = sort map { m{([^/]+)$} } ($ENV{IOBENCH_TEST_LOOP_DEV}, $ENV{IOBENCH_TEST_LOOP2_DEV});

my $node = iob_base_node('tablespace_group');
mkdir "$loop_dir/ts_group" or die "mkdir: $!";
mkdir "$tmpfs/ts_group" or die "mkdir: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE disk_a LOCATION '$loop_dir/ts_group'");
$node->safe_psql('postgres', "CREATE TABLESPACE ram_b LOCATION '$tmpfs/ts_group'");

my ($ret, $out, $err);

# buffered, so that tmpfs takes it on every kernel; reads kept cold
my $run = $node->safe_psql('postgres', q{
	SELECT run_id FROM iobench.run(tablespaces => ARRAY['disk_a', 'ram_b'], rw => 'randrw',
	                               files => 4, workers => 2, file_size => '4MB',
	                               duration => '2s', direct => false, cold_reads => true,
	                               rate_iops => 2000)});

is( $node->safe_psql('postgres', qq{
		SELECT tablespace || ':' || array_to_string(tablespaces, ',')
		  FROM iobench.runs WHERE run_id = $run}),
	'disk_a:disk_a,ram_b', 'the run names its group, the first as its tablespace');
is( $node->safe_psql('postgres', qq{
		SELECT string_agg(format('%s:%s:%s', tablespace, position, files), ' ' ORDER BY position)
		  FROM iobench.run_tablespaces WHERE run_id = $run}),
	'disk_a:1:2 ram_b:2:2', 'the files are spread one by one');
is( $node->safe_psql('postgres', qq{
		SELECT count(DISTINCT filesystem) = 2 AND bool_and(ops > 0 AND read_ops > 0 AND write_ops > 0)
		  FROM iobench.run_tablespaces WHERE run_id = $run}),
	't', 'two file systems, both read and written in the one measured period');
is( $node->safe_psql('postgres', qq{
		SELECT sum(t.ops) = r.ops AND sum(t.read_ops) = r.read_ops AND sum(t.write_ops) = r.write_ops
		   AND sum(t.bytes) = r.bytes
		   AND abs(sum(t.iops) - r.iops) < 0.001 * r.iops
		   AND max(t.lat_max_us) = r.lat_max_us
		   AND min(t.lat_p50_us) <= r.lat_p50_us AND max(t.lat_p50_us) >= r.lat_p50_us
		  FROM iobench.run_tablespaces t JOIN iobench.runs r USING (run_id)
		 WHERE run_id = $run GROUP BY r.run_id, r.ops, r.read_ops, r.write_ops, r.bytes,
		       r.iops, r.lat_max_us, r.lat_p50_us}),
	't', 'the tablespaces add up to the run, and its median lies between theirs');
like($node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM iobench.report($run) r"),
	qr/Tablespace group \(disk_a, ram_b\).*\n.*\n\s+disk_a .*\n\s+ram_b /,
	'report() shows each tablespace');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_tablespace t, LATERAL pg_ls_tmpdir(t.oid) f
		 WHERE t.spcname IN ('disk_a', 'ram_b') AND f.name LIKE '%iobench%'}),
	'0', 'the files are gone from both');

# Device statistics: every distinct block device of the group's
# tablespaces, each with its own rows (direct I/O, so that reads reach them)
mkdir "$loop2_dir/ts_group" or die "mkdir: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE disk_c LOCATION '$loop2_dir/ts_group'");
my $run3 = $node->safe_psql('postgres', q{
	SELECT run_id FROM iobench.run(tablespaces => ARRAY['disk_a', 'disk_c'], rw => 'randread',
	                               files => 2, workers => 2, file_size => '4MB', duration => '2s',
	                               rate_iops => 1000)});
is( $node->safe_psql('postgres', qq{
		SELECT string_agg(device, ' ' ORDER BY device COLLATE "C")
		  FROM (SELECT device FROM iobench.run_disk_seconds
		         WHERE run_id = $run3 AND NOT member
		         GROUP BY device HAVING count(*) >= 2 AND sum(reads) > 0) d}),
	join(' ', @loop_devs), 'both loop devices have rows of every second, with their reads')
  or diag($node->safe_psql('postgres', qq{
		SELECT device, member, count(*), sum(reads), sum(writes) FROM iobench.run_disk_seconds
		 WHERE run_id = $run3 GROUP BY device, member}));
is($node->safe_psql('postgres', "SELECT disk FROM iobench.runs WHERE run_id = $run3"),
	join('+', @loop_devs), 'the run names both disks');
# each disk's own series: a row for each of the 2 seconds, about 1 s long,
# and (direct I/O) the reads iobench made on the tablespace above it
is( $node->safe_psql('postgres', qq{
		SELECT string_agg(format('%s:%s', t.tablespace,
		                         d.n = 2 AND d.shortest > 0.5 AND d.longest < 1.5
		                         AND d.reads > 0 AND abs(d.reads - t.read_ops) <= 0.03 * t.read_ops), ' '
		                  ORDER BY t.position)
		  FROM iobench.run_tablespaces t
		  JOIN (SELECT device, count(*) AS n, min(interval_s) AS shortest, max(interval_s) AS longest,
		               sum(reads) AS reads
		          FROM iobench.run_disk_seconds WHERE run_id = $run3 AND NOT member
		         GROUP BY device) d USING (device)
		 WHERE t.run_id = $run3}),
	'disk_a:t disk_c:t', 'each disk\'s seconds count the reads of its tablespace')
  or diag($node->safe_psql('postgres', qq{
		SELECT t.tablespace, t.device, t.read_ops, d.second, d.reads, d.interval_s
		  FROM iobench.run_tablespaces t JOIN iobench.run_disk_seconds d USING (run_id, device)
		 WHERE t.run_id = $run3 ORDER BY t.position, d.second}));
# report() shows each disk's averages and busiest second
my $report3 = $node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM iobench.report($run3) r");
foreach my $dev (@loop_devs)
{
	like($report3, qr/^\s+\Q$dev\E avg\s+[\d.]+/m, "report() shows the averages of $dev");
	like($report3, qr/^\s+\Q$dev\E busiest s \d+\s/m, "report() shows the busiest second of $dev");
}
is( $node->safe_psql('postgres', qq{
		SELECT string_agg(format('%s:%s', t.tablespace,
		                         EXISTS (SELECT 1 FROM iobench.run_disk_seconds d
		                                  WHERE d.run_id = t.run_id AND d.device = t.device)), ' '
		                  ORDER BY t.position)
		  FROM iobench.run_tablespaces t WHERE t.run_id = $run3}),
	'disk_a:t disk_c:t', 'each tablespace finds its device\'s rows');

# tmpfs first: it has no device, the next one's is sampled all the same
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT run_id FROM iobench.run(tablespaces => ARRAY['ram_b', 'disk_a'], rw => 'randread',
	                               files => 2, workers => 1, file_size => '4MB', duration => '1s',
	                               direct => false, rate_iops => 1000)});
my $run4 = $out;
like($err, qr/NOTICE:  no block device under tablespace "ram_b": the device statistics of this run are not collected there/,
	'a tablespace without a block device is named in a NOTICE');
unlike($err, qr/disk_a/, 'the other has its device');
is( $node->safe_psql('postgres', qq{
		SELECT string_agg(DISTINCT device, ' ') FROM iobench.run_disk_seconds
		 WHERE run_id = $run4 AND NOT member}),
	$ENV{IOBENCH_TEST_LOOP_DEV} =~ s{.*/}{}r, 'the second tablespace\'s device has rows');

# A group is one contender of a suite, written 'disk_a+ram_b'
$node->safe_psql('postgres', q{
	INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers, iodepth, files)
	VALUES ('group test', 1, '8 kB random read', 'randread', '8kB', 2, 1, 1)});
is( $node->safe_psql('postgres', q{
		SELECT string_agg(format('%s:%s', tablespace, runs), ' ' ORDER BY tablespace_no)
		  FROM iobench.suite('group test', ARRAY['disk_a', 'disk_a+ram_b'], duration => '1s',
		                     file_size => '4MB', direct => false)}),
	'disk_a:1 disk_a+ram_b:1', 'a suite runs a group as one contender');
is( $node->safe_psql('postgres', q{
		SELECT r.tablespaces = ARRAY['disk_a', 'ram_b']::name[] AND r.files = 2
		   AND (SELECT count(*) FROM iobench.run_tablespaces t WHERE t.run_id = r.run_id) = 2
		  FROM iobench.suite_runs sr JOIN iobench.runs r USING (run_id)
		 WHERE sr.tablespace = 'disk_a+ram_b'}),
	't', 'its run spreads the files over the group, one file per tablespace at least');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(format('%s/%s', tablespace, base_tablespace), ' ' ORDER BY tablespace)
		  FROM iobench.compare((SELECT max(suite_id) FROM iobench.suites), baseline => 'disk_a+ram_b')}),
	'disk_a/disk_a+ram_b disk_a+ram_b/disk_a+ram_b', 'compare() takes the group as baseline');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT * FROM iobench.suite('group test', ARRAY['disk_a+disk_a'])});
like($err, qr/ERROR:  tablespace "disk_a" appears more than once in tablespace group "disk_a\+disk_a"/,
	'a group with a tablespace twice is refused');

# bad input, refused before anything is made
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT iobench.run(tablespaces => ARRAY['disk_a', 'ram_b'], files => 1)});
like($err, qr/ERROR:  files 1 is fewer than the 2 tablespaces of argument "tablespaces"/,
	'a group needs a file per tablespace');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT iobench.run(tablespace => 'disk_a', tablespaces => ARRAY['ram_b'])});
like($err, qr/ERROR:  arguments "tablespace" and "tablespaces" cannot both be given/,
	'tablespace or tablespaces, not both');

$node->stop('fast');
done_testing();
