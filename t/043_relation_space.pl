# Engine 'postgres' takes its relation's space before filling it (issue 35,
# finding 4): under the file system's space lock the raw files take too
# (files.h), the free-space check with the safety margin, then the relation
# extended to its full size with allocated blocks, then filled.  So:
# - a run of another engine started on the same file system while the
#   relation is being filled is refused up front, with the free-space
#   error, and the file system never drops below the safety margin (the
#   two did not fit together; before, the second passed a check made
#   before the relation had grown, and the two filled the disk);
# - the relation kept for reuse is listed with its size in read_targets,
#   and is all that stays; drop_read_targets() gives the space back;
# - a run of engine 'postgres' that does not fit is refused before the
#   relation grows, with the free-space error's detail and hint (finding
#   10b: the preparer's hint reached the caller no more).
#
# Needs a small file system (64 MB to 1 GB) writable by the user running
# the test, given as IOBENCH_SMALL_FS (iob_small_fs()).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my ($fs, $total, $margin) = iob_small_fs();

my $shm_mark = iob_shm_mark();
my $node = iob_node('relation_space');
my $ts = "$fs/ts_" . $$;
mkdir $ts or die "mkdir $ts: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE small LOCATION '$ts'");

my $MB = 1024 * 1024;
my $avail = iob_avail_bytes($ts);
# each fits alone, not both: 60 % of what the margin leaves, each
my $size_mb = int(($avail - $margin) * 0.6 / $MB);

# the second session is connected first, so that it starts at once
my @s = map { $node->background_psql('postgres', on_error_stop => 0) } 1 .. 2;
$_->query_until(qr/ready/, "\\echo ready\n") foreach @s;
$s[0]->{stdin} .= qq{\\set VERBOSITY verbose
SELECT status FROM iobench.run(tablespace => 'small', engine => 'postgres', file_size => '${size_mb}MB',
             duration => '1s', rw => 'randread');
\\echo done
};
$s[0]->{run}->pump_nb;
# once the relation takes space, the run of engine psync
my $min_avail = $avail;
my $started = 0;
for (my $i = 0; $i < 3000 && !$started; $i++)
{
	my $a = iob_avail_bytes($ts);
	$min_avail = $a if $a < $min_avail;
	$started = $a < $avail - $MB;
	$s[0]->{run}->pump_nb;
	usleep(2_000) unless $started;
}
ok($started, 'the relation of engine postgres takes space');
$s[1]->{stdin} .= qq{\\set VERBOSITY verbose
SELECT status FROM iobench.run(tablespace => 'small', file_size => '${size_mb}MB',
             duration => '1s', engine => 'psync', direct => false);
\\echo done
};
$s[1]->{run}->pump_nb;
for (my $i = 0; $i < 6000; $i++)
{
	my $a = iob_avail_bytes($ts);
	$min_avail = $a if $a < $min_avail;
	last unless grep { $_->{stdout} !~ /done/ } @s;
	$_->{run}->pump_nb foreach @s;
	usleep(10_000);
}
like($s[0]->{stdout}, qr/completed/, 'the run of engine postgres ran')
  or diag($s[0]->{stderr});
like($s[1]->{stderr}, qr/ERROR:  53100: not enough free space in tablespace "small" for the benchmark files/,
	'the run started while its relation was filled is refused up front with the free-space error')
  or diag("stdout: $s[1]->{stdout}");
cmp_ok($min_avail, '>=', $margin, 'the file system never dropped below the margin');
$_->quit foreach @s;
iob_assert_clean($node, 'two runs on one file system', $shm_mark);
my $bytes = $node->safe_psql('postgres', q{
	SELECT bytes FROM iobench.read_targets WHERE tablespace = 'small'});
is($bytes, $size_mb * $MB, 'the relation kept for reuse is listed with its size');

# a run of engine postgres that does not fit: refused with the detail and
# hint of the free-space error, the relation as it was
my $big_mb = int(iob_avail_bytes($ts) / $MB) + $size_mb;
my ($ret, $o, $e) = $node->psql('postgres', qq{\\set VERBOSITY verbose
SELECT status FROM iobench.run(tablespace => 'small', engine => 'postgres', file_size => '${big_mb}MB',
             duration => '1s')});
like($e, qr/ERROR:  53100: could not prepare the relation of engine "postgres": not enough free space in tablespace "small"/,
	'a run of engine postgres that does not fit is refused');
like($e, qr/DETAIL:  Relation iobench_internal\.read_target_\d+ needs /, 'with the detail');
like($e, qr/HINT:  Use a smaller "file_size"/, 'and the hint of the free-space error');
is( $node->safe_psql('postgres', q{SELECT bytes FROM iobench.read_targets WHERE tablespace = 'small'}),
	$bytes, 'the relation did not grow');
iob_assert_clean($node, 'a relation that does not fit', $shm_mark);

# drop_read_targets() gives the space back
is($node->safe_psql('postgres', q{SELECT iobench.drop_read_targets('small')}), '1',
	'drop_read_targets() removes the relation');
$node->safe_psql('postgres', 'CHECKPOINT');
cmp_ok(iob_avail_bytes($ts), '>=', $avail - 2 * $MB, 'and its space is free again');

$node->safe_psql('postgres', 'DROP TABLESPACE small');
$node->stop;
done_testing();
