# files => 1024 and the limit on open files (RLIMIT_NOFILE).  Each worker
# keeps every file of the run open.  A server started with a low soft limit
# but a high enough hard limit runs it: the workers raise their soft limit.
# A server whose hard limit is too low refuses the run up front (53400),
# naming files, the limit and what to change, before creating a file.
use strict;
use warnings;

use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $hard = `bash -c 'ulimit -Hn'`;
chomp $hard;
plan skip_all => "the hard limit on open files here ($hard) is below 2048"
  if $hard ne 'unlimited' && $hard < 2048;

# Start a node through a pg_ctl that lowers the limits first (the server
# inherits them from pg_ctl)
sub start_with_limits
{
	my ($node, $ulimit) = @_;
	my ($real) = grep { -x "$_/pg_ctl" } split(/:/, $ENV{PATH});
	$real .= "/pg_ctl";
	my $wrap = PostgreSQL::Test::Utils::tempdir();
	open(my $f, '>', "$wrap/pg_ctl") or die;
	print $f "#!/bin/bash\nulimit $ulimit || exit 1\nexec '$real' \"\$@\"\n";
	close $f;
	chmod 0755, "$wrap/pg_ctl";
	local $ENV{PATH} = "$wrap:$ENV{PATH}";
	$node->restart;
}

my $shm_mark = iob_shm_mark();
my $node = iob_node('fd_limit');
my $run = q{SELECT status, files, ops > 0 FROM iobench.run(duration => '300ms', file_size => '8kB',
                          files => 1024, workers => 2, engine => 'psync', direct => false)};

# soft limit 256, hard limit as it is: the run happens
start_with_limits($node, '-Sn 256');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server up with a soft limit of 256');
my ($ret, $out, $err) = $node->psql('postgres', $run);
is($out, 'completed|1024|t', 'files => 1024 runs under a soft limit of 256') or diag($err);
iob_assert_clean($node, 'files => 1024, soft limit', $shm_mark);

# hard limit 512: refused before anything is created
start_with_limits($node, '-n 512');
($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$run");
like($err, qr/ERROR:  53400: files 1024 is more than a worker can keep open/,
	'refused up front with 53400');
like($err, qr/the server's limit on open files \(RLIMIT_NOFILE\) is 512/, 'the limit is named');
like($err, qr/HINT:  Use at most 448 files, or raise the limit the server starts with/,
	'what to change is named');
iob_assert_clean($node, 'files => 1024, hard limit', $shm_mark);

$node->stop;
done_testing();
