# IobFault.pm — shared helpers of the TAP tests: a node with iobench
# preloaded for every test (iob_base_node), and what the fault tests
# (t/01*.pl) check.
#
# A fault test starts a cluster of its own with iobench preloaded, breaks a
# run in some way, and then asserts what iobench promises after any ending:
# no benchmark file left (in any pgsql_tmp directory of the data directory
# and its tablespaces), no iobench process left, and no dynamic shared
# memory segment left in /dev/shm.
package IobFault;

use strict;
use warnings;

use File::Find;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

our @EXPORT = qw(iob_need_rigs iob_base_node iob_node iob_shm_mark iob_assert_clean iob_leftover_files iob_sql_value
  iob_worker_pids iob_wait_for_workers iob_avail_bytes iob_adds_up_sql
  iob_wait_stderr iob_poll_after_crash iob_cgroup_write iob_small_fs iob_latency_disk iob_latency_disk_set
  iob_latency_disk_status);
use Exporter 'import';

# The values of the environment variables that name the storage rigs a
# test needs (tools/run-tests.sh makes them as root); when one is unset,
# the test is skipped with the reason "needs $what", followed by why each
# missing rig is missing (the runner's IOBENCH_RIG_WHY)
sub iob_need_rigs
{
	my ($what, @vars) = @_;
	my @values = map { $ENV{$_} } @vars;
	my @missing = grep { !$ENV{$_} } @vars;
	return @values unless @missing;

	my %why = map { /^(\w+): (.*)$/ ? ($1 => $2) : () } split /\n/, ($ENV{IOBENCH_RIG_WHY} // '');
	my %said;
	my @reasons = grep { !$said{$_}++ } map { $why{$_} // () } @missing;
	my @unset = grep { !exists $why{$_} } @missing;
	push @reasons, join(', ', @unset) . (@unset > 1 ? ' are' : ' is')
	  . ' not set (tools/run-tests.sh sets them when it can make the rigs)'
	  if @unset;
	plan skip_all => "needs $what: " . join('; ', @reasons);
	return @values;
}

# A started node with iobench preloaded (worker slots to spare, no progress
# NOTICEs, then $extra_conf) and the extension created, unless
# $no_extension (a test that sets the server up first)
sub iob_base_node
{
	my ($name, $extra_conf, $no_extension) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench'
max_worker_processes = 16
iobench.progress = off
} . ($extra_conf // ''));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION iobench') unless $no_extension;
	return $node;
}

# A node for a fault test: small shared buffers, segments in /dev/shm
# (where iob_assert_clean looks), restarts after a crash, pids in the log
sub iob_node
{
	my ($name, $extra_conf) = @_;
	return iob_base_node($name, q{shared_buffers = 16MB
dynamic_shared_memory_type = posix
restart_after_crash = on
log_line_prefix = '%m [%p] %b: '
} . ($extra_conf // ''));
}

# Benchmark files under the data directory, its tablespaces included
sub iob_leftover_files
{
	my ($node) = @_;
	my @left;
	find({ wanted => sub { push @left, $File::Find::name if /^pgsql_tmp.*iobench/ },
		follow => 1, no_chdir => 0 }, $node->data_dir);
	return @left;
}

# Write one line into file $file of cgroup directory $cgroup (a blkio
# throttle rule, or a pid into cgroup.procs)
sub iob_cgroup_write
{
	my ($cgroup, $file, $line) = @_;
	open(my $fh, '>', "$cgroup/$file") or die "open $cgroup/$file: $!";
	print $fh "$line\n" or die "write $cgroup/$file: $!";
	close($fh) or die "close $cgroup/$file: $!";
}

# One value of a query
sub iob_sql_value
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

# The pids of the run's workers (as pg_stat_activity shows them)
sub iob_worker_pids
{
	my ($node) = @_;
	my $out = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE backend_type = 'iobench worker' ORDER BY pid");
	return grep { length } split /\n/, $out;
}

# Wait until n workers run and have measured for a moment
sub iob_wait_for_workers
{
	my ($node, $n) = @_;
	# a worker seen in its I/O loop (it reports the data-file wait events
	# there only) is measuring
	$node->poll_query_until('postgres', qq{
		SELECT count(*) >= $n AND bool_or(wait_event IN ('DataFileRead', 'DataFileWrite', 'DataFileSync'))
		  FROM pg_stat_activity WHERE backend_type = 'iobench worker'})
	  or die "the workers did not start";
	usleep(300_000);
}

# poll_query_until() across a crash restart of the server: psql may exit
# before it reads its query (connections are refused while the server
# restarts), and IPC::Run then dies writing the query to it ("ack Broken
# pipe"); such a try is repeated.  Returns poll_query_until()'s answer.
sub iob_poll_after_crash
{
	my ($node, $sql, $expected) = @_;
	$expected = 't' unless defined $expected;
	foreach my $try (1 .. 20)
	{
		my $ok = eval { $node->poll_query_until('postgres', $sql, $expected) };
		return $ok if defined $ok;
		note("poll_query_until died while the server restarted: $@");
		usleep(100_000);
	}
	return 0;
}

# Wait (up to 10 s) until a background psql's stderr matches
sub iob_wait_stderr
{
	my ($h, $re) = @_;
	for (my $i = 0; $i < 1000 && $h->{stderr} !~ $re; $i++)
	{
		eval { $h->{run}->pump_nb; };
		usleep(10_000);
	}
	return $h->{stderr} =~ $re;
}

# Free bytes of the file system under a directory, as an unprivileged
# process may use them (statvfs f_bavail)
sub iob_avail_bytes
{
	my ($dir) = @_;
	my $out = `df -B1 --output=avail '$dir' 2>/dev/null`;
	my @lines = split /\n/, $out;
	return $lines[-1] + 0;
}

# The small file system the free-space tests fill (IOBENCH_SMALL_FS, 64 MB
# to 1 GB, writable; as root, tools/run-tests.sh mounts a tmpfs for it):
# returns its directory, its size in bytes and the safety margin iobench
# keeps free on it (1 %, at least 32 MB: files.c); skips the test without it
sub iob_small_fs
{
	my $fs = $ENV{IOBENCH_SMALL_FS} // '';
	plan skip_all => 'needs a small file system: set IOBENCH_SMALL_FS to a writable directory on one (tools/run-tests.sh mounts a tmpfs when run as root)'
	  unless $fs ne '' && -d $fs && -w $fs;

	my $total = (split /\n/, `df -B1 --output=size '$fs'`)[-1] + 0;
	plan skip_all => "IOBENCH_SMALL_FS has $total bytes; 64 MB to 1 GB are needed"
	  if $total < 64 * 1024 * 1024 || $total > 1024 * 1024 * 1024;

	my $MB = 1024 * 1024;
	my $margin = $total / 100 > 32 * $MB ? $total / 100 : 32 * $MB;
	return ($fs, $total, $margin);
}

# The latency disk (tools/latency_disk.sh, made by tools/run-tests.sh as
# root): returns its ext4 directory, its loop device and its control file.
# Skips the test where FUSE or loop devices are missing (the reason from
# iob_need_rigs); fails it where both are there and the rig could not be
# made (IOBENCH_TEST_LATENCY_FAILED): CI must not pass without it.
sub iob_latency_disk
{
	if ($ENV{IOBENCH_TEST_LATENCY_FAILED})
	{
		fail("the latency disk could be made: $ENV{IOBENCH_TEST_LATENCY_FAILED}");
		done_testing();
		exit 1;
	}
	return iob_need_rigs('the latency disk (tools/latency_disk.sh: FUSE and a loop device)',
		qw(IOBENCH_TEST_LATENCY_DIR IOBENCH_TEST_LATENCY_DEV IOBENCH_TEST_LATENCY_CONTROL));
}

# Set the latency disk's settings ("slots=8 latency_us=10000", "reset")
# through its control file
sub iob_latency_disk_set
{
	my ($control, $settings) = @_;
	open(my $fh, '>', $control) or die "open $control: $!";
	print $fh "$settings\n" or die "write $control: $!";
	close($fh) or die "set \"$settings\" through $control: $!";
}

# The latency disk's settings and counters, as a hash (slots, latency_us,
# reads, max_outstanding...: tools/latency_disk/latency_disk.c)
sub iob_latency_disk_status
{
	my ($control) = @_;
	open(my $fh, '<', $control) or die "open $control: $!";
	my %status = map { /^(\w+) (\d+)$/ ? ($1 => $2) : () } <$fh>;
	close $fh;
	return \%status;
}

# SQL that is true when run :id's totals equal its per-second sums and its
# histogram sums, for every op kind
sub iob_adds_up_sql
{
	my ($id) = @_;
	return qq{
	SELECT bool_and(coalesce(t.ops, 0) = coalesce(s.ops, 0)
	                AND coalesce(t.ops, 0) = coalesce(h.ops, 0)
	                AND coalesce(t.bytes, 0) = coalesce(s.bytes, 0))
	  FROM iobench.runs r
	 CROSS JOIN LATERAL (VALUES ('read', r.read_ops, r.read_bytes),
	                            ('write', r.write_ops, r.write_bytes),
	                            ('fsync', r.fsync_ops, 0::bigint)) AS t(op, ops, bytes)
	  LEFT JOIN (SELECT op, sum(ops) AS ops, sum(bytes) AS bytes
	               FROM iobench.run_seconds WHERE run_id = $id GROUP BY op) s USING (op)
	  LEFT JOIN (SELECT op, sum(count) AS ops
	               FROM iobench.run_latency WHERE run_id = $id GROUP BY op) h USING (op)
	 WHERE r.run_id = $id};
}

# The names of the /dev/shm/PostgreSQL.* segments there are now: what
# iob_assert_clean leaves out (pass it the result, taken before the
# cluster under test starts)
sub iob_shm_mark
{
	opendir(my $shm, '/dev/shm') or return {};
	my %names = map { $_ => 1 } grep { /^PostgreSQL\.\d+$/ } readdir $shm;
	closedir $shm;
	return \%names;
}

# The handles a DSM control segment /dev/shm/$name registers (every
# 32-bit word after its header), or undef when it is not one (its first
# word is not PG_DYNSHMEM_CONTROL_MAGIC; only that word is read then)
sub control_handles
{
	my ($name) = @_;
	open(my $f, '<:raw', "/dev/shm/$name") or return undef;
	my $head = '';
	my $ok = read($f, $head, 12) == 12 && unpack('L', $head) == 0x9a503d32;
	my $bytes = '';
	if ($ok)
	{
		local $/;
		$bytes = <$f> // '';
	}
	close $f;
	return undef unless $ok;
	return { map { $_ => 1 } unpack('L*', substr($bytes, 0, length($bytes) - length($bytes) % 4)) };
}

# The segments of /dev/shm that processes map now, and of them the
# segment handles each cluster's DSM control segment registers: a
# control segment (magic PG_DYNSHMEM_CONTROL_MAGIC) is mapped by the
# postmaster and every backend of its cluster and lists a handle per
# slot (slot layouts differ between releases: every 32-bit word after the
# header is taken, and a handle is a random 32-bit number, so another
# word matches a given one with a chance of about one in a million).  Returns a hash of the
# mapped names and a hash of control segment name => { handle => 1 }.
sub shm_state
{
	my (%mapped, %registered);
	opendir(my $proc, '/proc') or return ({}, {});
	foreach my $pid (grep { /^\d+$/ } readdir $proc)
	{
		open(my $maps, '<', "/proc/$pid/maps") or next;
		while (<$maps>)
		{
			$mapped{$1} = 1 if m{/dev/shm/(PostgreSQL\.\d+)};
		}
		close $maps;
	}
	closedir $proc;
	foreach my $name (keys %mapped)
	{
		my $handles = control_handles($name);
		$registered{$name} = $handles if $handles;
	}
	return (\%mapped, \%registered);
}

# The name of the DSM control segment of $node's running postmaster
sub control_segment
{
	my ($node) = @_;
	open(my $pidfile, '<', $node->data_dir . '/postmaster.pid') or return '';
	my $pid = <$pidfile>;
	close $pidfile;
	chomp $pid;
	open(my $maps, '<', "/proc/$pid/maps") or return '';
	my $name = '';
	while (<$maps>)
	{
		$name = $1 if m{/dev/shm/(PostgreSQL\.\d+)} && control_handles($1);
	}
	close $maps;
	return $name;
}

# Segments of $node's cluster that no process maps: PostgreSQL.* segments
# new since $mark (iob_shm_mark) that are mapped by no process and
# registered in no other running cluster's control segment (those of
# another cluster on the machine, which may be between its creation and
# its first mapping, or its last unmapping and removal).  A segment that
# $node's own control segment registers, or that no running cluster does
# (left from before a crash restart), counts.
sub unmapped_segments
{
	my ($node, $mark) = @_;
	my $ours = control_segment($node);
	my ($mapped, $registered) = shm_state();
	opendir(my $shm, '/dev/shm') or return ();
	my @unmapped = grep {
		my $name = $_;
		my ($handle) = $name =~ /^PostgreSQL\.(\d+)$/;
		defined $handle && !$mark->{$name} && !$mapped->{$name}
		  && !grep { $_ ne $ours && $registered->{$_}{$handle} } keys %$registered;
	} readdir $shm;
	closedir $shm;
	return @unmapped;
}

# Assert that nothing of a run is left: files, iobench processes, segments
# of the cluster new since $mark (iob_shm_mark) that no process maps any
# more
sub iob_assert_clean
{
	my ($node, $what, $mark) = @_;
	my @files = iob_leftover_files($node);
	is(scalar(@files), 0, "$what: no benchmark file left") or diag("@files");
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'iobench %'"),
		"$what: no iobench process left");
	# a segment being created or removed is briefly mapped by no one (and a
	# list of /dev/shm taken after the scan of /proc can show one created
	# since): only one unmapped at every one of five looks over 1.2 s counts
	my %left = map { $_ => 1 } unmapped_segments($node, $mark);
	foreach my $try (2 .. 5)
	{
		last unless %left;
		usleep(300_000);
		my %now = map { $_ => 1 } unmapped_segments($node, $mark);
		%left = map { $_ => 1 } grep { $now{$_} } keys %left;
	}
	my @segs = sort keys %left;
	is(scalar(@segs), 0, "$what: no shared memory segment left in /dev/shm")
	  or diag("@segs");
}

1;
