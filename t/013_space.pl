# Free space on a small file system.  The free-space check and the space
# it grants are one step (iob_allocate_files: a lock per file system, then
# posix_fallocate of every file), so:
# - two runs started at the same moment that fit one at a time but not
#   together: one runs, the other is refused up front with 53100, and the
#   file system never drops below the safety margin;
# - a file system that fills up while a run's files are being made and
#   used does not fail the run: its space was taken first;
# - a run that does not fit is refused before anything is written.
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
my $node = iob_node('space');
my $ts = "$fs/ts_" . $$;
mkdir $ts or die "mkdir $ts: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE small LOCATION '$ts'");

my $MB = 1024 * 1024;
my $avail = iob_avail_bytes($ts);
# one run fits, two do not
my $size_mb = int(($avail - $margin) * 0.6 / $MB);
my $run = qq{SELECT status FROM iobench.run(tablespace => 'small', file_size => '${size_mb}MB',
             duration => '1s', engine => 'psync', direct => false)};

# two runs at the same moment
my @s = map { $node->background_psql('postgres', on_error_stop => 0) } 1 .. 2;
$_->query_until(qr/ready/, "\\echo ready\n") foreach @s;
$_->{stdin} .= "\\set VERBOSITY verbose\n$run;\n\\echo done\n" foreach @s;
$_->{run}->pump_nb foreach @s;
my $min_avail = $avail;
for (my $i = 0; $i < 600; $i++)
{
	my $a = iob_avail_bytes($ts);
	$min_avail = $a if $a < $min_avail;
	last unless grep { $_->{stdout} !~ /done/ } @s;
	$_->{run}->pump_nb foreach @s;
	usleep(10_000);
}
my $out = join('', map { $_->{stdout} } @s);
my $err = join('', map { $_->{stderr} } @s);
$_->quit foreach @s;
is(scalar(() = $out =~ /completed/g), 1, 'one of the two runs ran');
is(scalar(() = $err =~ /ERROR:  53100: not enough free space/g), 1,
	'the other was refused up front with the free-space error');
cmp_ok($min_avail, '>=', $margin, 'the file system never dropped below the margin');
iob_assert_clean($node, 'two runs at once', $shm_mark);

# the file system fills up while a run's files are made and used
my $filler = "$ts/filler";
my $h = $node->background_psql('postgres', on_error_stop => 0);
$h->query_until(qr/start/, qq{\\echo start
SELECT status FROM iobench.run(tablespace => 'small', rw => 'randwrite', file_size => '${size_mb}MB',
             duration => '2s', engine => 'psync', direct => false);
\\echo done
});
# once the file has its full size, fill what is left
my $allocated = 0;
for (my $i = 0; $i < 1000 && !$allocated; $i++)
{
	$allocated = grep { -s $_ >= $size_mb * $MB } iob_leftover_files($node);
	usleep(5_000) unless $allocated;
}
ok($allocated, 'the run allocated its file');
system("dd if=/dev/zero of='$filler' bs=1M 2>/dev/null");
is(iob_avail_bytes($ts), 0, 'the file system is full');
my $res = $h->query_until(qr/done/, '');
like($res, qr/completed/, 'the run completes on the full file system') or diag($h->{stderr});
$h->quit;
iob_assert_clean($node, 'full file system during the run', $shm_mark);

# does not fit: refused before anything is written
my ($ret, $o, $e) = $node->psql('postgres', "\\set VERBOSITY verbose\n$run");
like($e, qr/ERROR:  53100: not enough free space/, 'a run that does not fit is refused');
iob_assert_clean($node, 'refused on a full file system', $shm_mark);
unlink $filler;

$node->safe_psql('postgres', 'DROP TABLESPACE small');
$node->stop;
done_testing();
