# A tablespace without a block device of its own (tmpfs): the NOTICE that
# its device statistics are not collected comes once per call, not once
# per test of a suite or per step of a latency search.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($tmpfs) = iob_need_rigs('a tmpfs directory', 'IOBENCH_TEST_TMPFS_DIR');
my $node = iob_base_node('device_notice');
mkdir "$tmpfs/notice_ts" or die "mkdir $tmpfs/notice_ts: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE memts LOCATION '$tmpfs/notice_ts'");

# the oltp suite: four tests, buffered (tmpfs takes no direct I/O on 6.1)
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT count(*) FROM iobench.suite('oltp', ARRAY['memts'], duration => '200ms',
	                                   file_size => '1MB', direct => false)});
ok($out > 1, "a suite of $out tests on tmpfs runs") or diag($err);
my @notices = ($err =~ /NOTICE:  no block device under tablespace "memts"/g);
is(scalar(@notices), 1, 'one NOTICE for the whole suite');

# the next call says it again (a search of two steps: psync steps the
# workers)
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT count(*) FROM iobench.latency_search('memts', latency_target => '1h', max_workers => 2,
	                                            step_duration => '200ms', file_size => '1MB',
	                                            direct => false, engine => 'psync')});
is($out, '2', 'a latency search on tmpfs runs its two steps') or diag($err);
@notices = ($err =~ /NOTICE:  no block device under tablespace "memts"/g);
is(scalar(@notices), 1, 'one NOTICE for the next call too');

$node->stop('fast');
done_testing();
