# Engine 'postgres' (issue 27) on a device whose read rate the kernel sets:
# the loop device capped by a cgroup-v1 blkio throttle at $cap reads/s.
# Random 8 kB reads through the buffer manager reach the cap, every one of
# them reaches the device (the device's reads are the server's reads, the
# shared-buffer hits are the few a buffer still held can give), and a
# sequential read of 128 kB ops reads at least its bytes from the device.
# A cancel while the relation is being filled leaves it at the size it
# reserved before the fill, listed, and no file that no relation owns, and
# no process.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my ($loop_dir, $loop_dev, $cgroup) = iob_need_rigs(
	'the loop-device and blkio cgroup rigs',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV IOBENCH_TEST_BLKIO_CGROUP));
(my $loop_name = $loop_dev) =~ s{^/dev/}{};
my $majmin = slurp_file("/sys/block/$loop_name/dev");
chomp $majmin;

my $node = iob_base_node('server_read_cap');
my $version = $node->safe_psql('postgres', "SELECT current_setting('server_version_num')::int");
mkdir "$loop_dir/ts_server_read" or die "mkdir $loop_dir/ts_server_read: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE loopts LOCATION '$loop_dir/ts_server_read'");

# The relation, made and filled by a first run before the cap: 128 MB,
# 16384 blocks (half the loop device)
my $rel_blocks = 16384;
$node->safe_psql('postgres',
	"SELECT iobench.run(engine => 'postgres', tablespace => 'loopts', duration => '200ms', "
	  . "file_size => '128MB')");

# Every process of the server in the group: the postmaster, and its
# children already started (18's I/O workers read for the others)
my $cap = 400;
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin $cap");
my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
iob_cgroup_write($cgroup, 'cgroup.procs', $pm_pid);
foreach my $stat (glob '/proc/[0-9]*/stat')
{
	my $line = eval { slurp_file($stat) } // next;
	my ($pid, $ppid) = $line =~ /^(\d+) \(.*\) \S+ (\d+)/s or next;
	iob_cgroup_write($cgroup, 'cgroup.procs', $pid) if $ppid == $pm_pid;
}

# Random 8 kB reads, two workers, effective_io_concurrency 8: 16 reads in
# flight at most, enough to keep the throttle's queue full.  A warm-up
# second lets the throttle settle (an idle group dispatches a slice of its
# budget at once, blk-throttle's 100 ms: 40 reads at 400/s).
my $eic = 8;
# A machine busy with other work can leave the workers off the CPU long
# enough to fall short of the cap (365 reads/s seen beside other test
# suites on two cores): up to three tries, the first that reaches 95 % of
# the cap kept.  Above the cap is never retried: nothing but a broken
# throttle or a hidden cache makes it.
my $r;
foreach my $try (1 .. 3)
{
	$r = $node->safe_psql('postgres', qq{
		SELECT run_id FROM iobench.run(engine => 'postgres', tablespace => 'loopts', rw => 'randread',
		                               workers => 2, effective_io_concurrency => $eic,
		                               warmup => '1s', duration => '4s', file_size => '128MB')});
	my $iops = $node->safe_psql('postgres', "SELECT read_iops FROM iobench.runs WHERE run_id = $r");
	last if $iops >= 0.95 * $cap;
	note("try $try: $iops reads/s, below 95 % of the cap; per second: "
		  . $node->safe_psql('postgres',
			"SELECT string_agg(ops::text, ' ' ORDER BY second) FROM iobench.run_seconds WHERE run_id = $r AND op = 'read'"));
}
my $figures = qq{
	SELECT r.read_iops, r.ops, s.blocks, s.buffer_hits, s.buffer_reads,
	       (SELECT sum(d.reads) FROM iobench.run_disk_seconds d
	         WHERE d.run_id = r.run_id AND NOT d.member) AS device_reads,
	       (SELECT sum(abs(d.interval_s - 1)) FROM iobench.run_disk_seconds d
	         WHERE d.run_id = r.run_id AND NOT d.member) AS interval_off,
	       s.read_path, r.io_method, r.effective_io_concurrency, r.io_combine_limit
	  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id) WHERE run_id = };
note("read_iops, ops, blocks, hits, reads, device reads, interval_off, path, method, eic, combine:\n"
	  . $node->safe_psql('postgres', "$figures $r"));

# The cap, within 5 %: above it by one throttle slice at most (1 % of the
# 1600 reads of the 4 s), below it by the dispatch of a loaded machine
is( $node->safe_psql('postgres',
		"SELECT read_iops BETWEEN 0.95 * $cap AND 1.05 * $cap FROM iobench.runs WHERE run_id = $r"),
	't', "random reads through the server reach the cap of $cap reads/s, within 5 %");

# The device's reads are the server's reads.  They differ by the reads in
# flight at each end of the period (the server counts a read when it asks
# for the block, the device when it completes it; at most the read path's
# lookahead per worker: effective_io_concurrency reads on 15/16, the read
# stream's pinned buffers on 17+, bounded by the same figure as the
# regression test's), and by the reads of the time a device sample came
# late or early (interval_s off 1 s, at $cap reads/s), as in t/030.
# (runs r and run_server_reads s of the run; runs.io_combine_limit is as
# SHOW prints it)
my $lookahead = "CASE WHEN s.read_path = 'prefetch' THEN r.effective_io_concurrency
                      ELSE (r.effective_io_concurrency + 1)
                           * greatest(pg_size_bytes(r.io_combine_limit) / 8192, 4) END";
is( $node->safe_psql('postgres', qq{
		SELECT abs(d.reads - s.buffer_reads) <= 2 * 2 * $lookahead + $cap * d.off + 0.01 * s.buffer_reads
		  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id),
		       (SELECT sum(reads) AS reads, sum(abs(interval_s - 1)) AS off
		          FROM iobench.run_disk_seconds WHERE run_id = $r AND NOT member) d
		 WHERE r.run_id = $r}),
	't', 'the device read what the server read');

# Few hits: a block is in shared buffers only while a worker holds it or
# its ring does (15/16: a BAS_BULKREAD ring of 32 buffers; 17+: a buffer
# is evicted once released, so only the stream's pinned ones), so a random
# block is a hit with a chance of (2 workers x those buffers) / 16384
# blocks: 0.4 % on 15/16.  Three times that share, and 10 for the edges.
is( $node->safe_psql('postgres', qq{
		SELECT s.buffer_hits <= 3 * s.blocks * 2 * greatest(32, $lookahead) / $rel_blocks + 10
		  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id) WHERE run_id = $r}),
	't', 'few shared-buffer hits')
  or diag($node->safe_psql('postgres', "$figures $r"));

# Every block obtained was a hit or a read, but for the ops at the edges
# (blocks are counted per op in the period, hits and reads over it)
is( $node->safe_psql('postgres', qq{
		SELECT abs(s.blocks - s.buffer_hits - s.buffer_reads) <= 2 * (1 + $lookahead)
		  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id) WHERE run_id = $r}),
	't', 'blocks = buffer hits + buffer reads');
is( $node->safe_psql('postgres', "SELECT ops = blocks FROM iobench.runs JOIN iobench.run_server_reads USING (run_id) WHERE run_id = $r"),
	't', '8 kB ops are blocks');

# Sequential 128 kB ops: the device reads at least the run's bytes (the
# kernel's read-ahead may read more, a cache would read less: a page cache
# kept across the 10 or so passes over the relation would leave the device
# a tenth of them), less what was read before the period for blocks
# obtained in it: the kernel's read-ahead, up to two windows of the
# device's read_ahead_kb (the window read and the asynchronous one ahead
# of it), and the read path's lookahead; and less 1 % of them, what a run
# may take from memory before it is stored "invalid" (CI's 17 saw the
# device read 7.4 MB less than 1.49 GB, 2.5 MB past the other terms)
my $ra_kb = slurp_file("/sys/block/$loop_name/queue/read_ahead_kb");
chomp $ra_kb;
my $q = $node->safe_psql('postgres', qq{
	SELECT run_id FROM iobench.run(engine => 'postgres', tablespace => 'loopts', rw => 'read',
	                               block_size => '128kB', warmup => '1s', duration => '3s',
	                               file_size => '128MB')});
note("sequential: read_iops, ops, blocks, hits, reads, device reads, interval_off, path, method, eic, combine:\n"
	  . $node->safe_psql('postgres', "$figures $q"));
is( $node->safe_psql('postgres', qq{
		SELECT d.bytes >= 0.99 * r.ops * r.block_size - 2 * $ra_kb * 1024 - $lookahead * 8192
		  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id),
		       (SELECT sum(read_sectors) * 512 AS bytes
		          FROM iobench.run_disk_seconds WHERE run_id = $q AND NOT member) d
		 WHERE r.run_id = $q}),
	't', 'sequential reads: the device read at least the run\'s bytes')
  or diag("read_ahead_kb $ra_kb; device bytes " . $node->safe_psql('postgres',
	"SELECT sum(read_sectors) * 512 FROM iobench.run_disk_seconds WHERE run_id = $q AND NOT member"));

# Random 128 kB ops without a prefetch (effective_io_concurrency 0): the
# kernel reads ahead of each op's consecutive reads, and what it read past
# the op must not stay cached for a later op to find.  The device's bytes
# cannot show it under the cap (its read-ahead reads more than the ops
# need), the page cache can: once the run is over, what is cached of the
# relation (fincore) is at most the read-ahead of the last op, two windows
# and a folio of 2 MB (it was 57 MB of 128 MB when only the op's blocks
# were dropped).  And the device read at least the run's bytes, less the
# read-ahead before the period and 1 %, as the sequential run.
my $z = $node->safe_psql('postgres', qq{
	SELECT run_id FROM iobench.run(engine => 'postgres', tablespace => 'loopts', rw => 'randread',
	                               block_size => '128kB', effective_io_concurrency => 0,
	                               warmup => '1s', duration => '3s', file_size => '128MB')});
note("random 128 kB, no prefetch: read_iops, ops, blocks, hits, reads, device reads, interval_off, path, method, eic, combine:\n"
	  . $node->safe_psql('postgres', "$figures $z"));
is( $node->safe_psql('postgres', qq{
		SELECT d.bytes >= 0.99 * r.ops * r.block_size - 2 * $ra_kb * 1024 - $lookahead * 8192
		  FROM iobench.runs r JOIN iobench.run_server_reads s USING (run_id),
		       (SELECT sum(read_sectors) * 512 AS bytes
		          FROM iobench.run_disk_seconds WHERE run_id = $z AND NOT member) d
		 WHERE r.run_id = $z}),
	't', 'random 128 kB reads without a prefetch: the device read at least the run\'s bytes')
  or diag("device bytes " . $node->safe_psql('postgres',
	"SELECT sum(read_sectors) * 512 FROM iobench.run_disk_seconds WHERE run_id = $z AND NOT member"));
SKIP:
{
	my $fincore = `sh -c 'command -v fincore'`;
	chomp $fincore;
	skip 'no fincore (util-linux)', 1 unless $fincore;
	my $file = $node->data_dir . '/' . $node->safe_psql('postgres', q{
		SELECT pg_relation_filepath(relation) FROM iobench.read_targets WHERE tablespace = 'loopts'});
	my $cached = `$fincore --bytes --noheadings --output RES '$file'`;
	chomp $cached;
	$cached =~ s/\s//g;
	ok($cached =~ /^\d+$/ && $cached <= 2 * $ra_kb * 1024 + 2 * 1024 * 1024,
		"random 128 kB reads without a prefetch leave the relation out of the page cache ($cached bytes cached)");
}

# tune_tablespace() on the capped disk: random reads are flat at the cap
# whatever the concurrency once it is reached, and a throttle lets through
# more now and then (426 reads/s against 400 seen), which a knee within 5 %
# of the best took for a gain (4, then 1 on the next call).  Its best step
# is measured twice and the margin is at least 10 %, else twice the spread
# of those two runs: two calls recommend the same, and say the spread.
# (random_page_cost is a ratio of two measurements: it moves with them.)
# Steps up to 4 and runs of 2 s: a step reads about 800 blocks, so the
# reads the server asked for that the device completes after the period
# (up to the concurrency) stay under the 1 % that makes a run "invalid",
# which tune_tablespace() refuses to recommend from (eic 8 in 1 s did, on
# 18, and the step of the value in effect, 16 there: 17 of 856 blocks).
# The values in effect are set low for that reason (and reset after).
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET effective_io_concurrency = 1;
	ALTER SYSTEM SET maintenance_io_concurrency = 2;
	SELECT pg_reload_conf()});
$node->poll_query_until('postgres',
	"SELECT current_setting('effective_io_concurrency') = '1' AND current_setting('maintenance_io_concurrency') = '2'")
  or die 'the reload did not reach new sessions';
my $tune = q{
	SELECT string_agg(setting || '=' || recommended, ' ' ORDER BY setting)
	         FILTER (WHERE setting <> 'random_page_cost'),
	       bool_and(basis ~ 'within [0-9.]+ % of the best .*[(][0-9.]+ %[)]')
	         FILTER (WHERE setting IN ('effective_io_concurrency', 'io_combine_limit')),
	       string_agg(setting || ': ' || basis, E'\n' ORDER BY setting)
	  FROM iobench.tune_tablespace('loopts', concurrencies => '{1,2,4}', duration => '2s',
	                               file_size => '128MB')};
my ($rec1, $shown1, $basis1) = split /\|/, $node->safe_psql('postgres', $tune);
note("first call: $rec1\n$basis1");
my ($rec2, $shown2, $basis2) = split /\|/, $node->safe_psql('postgres', $tune);
note("second call: $rec2\n$basis2");
like($rec1, qr/^effective_io_concurrency=\d+ .*maintenance_io_concurrency=\d+$/,
	'tune_tablespace() recommends on the capped disk');
is($rec2, $rec1, 'and the same again on a second call');
is($shown1 . $shown2, 'tt', 'each says the margin and the spread of its repeated step');
$node->safe_psql('postgres', q{
	ALTER SYSTEM RESET effective_io_concurrency;
	ALTER SYSTEM RESET maintenance_io_concurrency;
	SELECT pg_reload_conf()});

# leave the rule to no other test
iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin 0");

# A cancel while the preparer fills the relation: on a tablespace of its
# own (its directory holds that relation's files only), 1 GB reserved at
# once, then filled in 64 MB transactions, cancelled during the fill.
my $fill_dir = $node->basedir . '/fillts';
mkdir $fill_dir or die "mkdir $fill_dir: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE fillts LOCATION '$fill_dir'");
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, q{
	\echo started
	SELECT iobench.run(engine => 'postgres', tablespace => 'fillts', duration => '1s',
	                   file_size => '1GB');
	\echo finished
});
# (the relation is committed empty first, then takes its full size at
# once, then is filled)
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE 'filling %'}),
	'the preparer is filling the relation');
is( $node->safe_psql('postgres', q{
		SELECT bytes FROM iobench.read_targets WHERE tablespace = 'fillts'}),
	1024 * 1024 * 1024, 'which has its full size, reserved before the fill');
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE '%tablespace => ''fillts''%' AND backend_type = 'client backend'
	   AND pid <> pg_backend_pid()});
$bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/canceling statement due to user request/, 'the run was cancelled');
$bg->quit;
ok( $node->poll_query_until('postgres', q{
		SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'iobench%'}),
	'no preparer or worker left');
$node->safe_psql('postgres', 'CHECKPOINT');
my $bytes = $node->safe_psql('postgres', q{
	SELECT bytes FROM iobench.read_targets WHERE tablespace = 'fillts'});
# (the pages not filled yet stay as new pages, which the next run fills)
is($bytes, 1024 * 1024 * 1024, 'the relation stays at its reserved size, listed by read_targets');
# every file is one of a relation of pg_class (the relation, its TOAST
# table and index): its filenode, with a fork or segment suffix
my %filenodes = map { $_ => 1 } split /\n/, $node->safe_psql('postgres', q{
	SELECT pg_relation_filenode(oid) FROM pg_class
	 WHERE reltablespace = (SELECT oid FROM pg_tablespace WHERE spcname = 'fillts')});
my @files = map { s{.*/}{}r } glob "$fill_dir/PG_*/*/*";
my @stray = grep { !(/^(\d+)(?:\.\d+|_fsm|_vm|_init)?$/ && $filenodes{$1}) } @files;
ok(@files > 0, 'the tablespace holds the relation\'s files');
is_deeply(\@stray, [], 'every file of the tablespace is a relation\'s of pg_class')
  or diag("files: @files; filenodes: " . join(' ', sort keys %filenodes));
is( $node->safe_psql('postgres', q{SELECT iobench.drop_read_targets('fillts')}),
	'1', 'and drop_read_targets() removes it');
$node->safe_psql('postgres', 'CHECKPOINT');
is_deeply([ glob "$fill_dir/PG_*/*/*" ], [], 'and its files, once a checkpoint has passed');

$node->stop('fast');
done_testing();
