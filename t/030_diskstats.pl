# What the device saw: a run on a tablespace on an otherwise idle loop
# device (tools/run-tests.sh makes it as root) samples the device's own
# counters once a second, and for direct I/O they agree with iobench's own
# op counts over the same seconds.  Buffered reads of a cached file do not
# reach the device at all.  A tablespace on tmpfs has no block device: one
# NOTICE, NULL columns, no rows, no error.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my ($loop_dir, $loop_dev) = iob_need_rigs(
	'the loop-device rig',
	qw(IOBENCH_TEST_LOOP_DIR IOBENCH_TEST_LOOP_DEV));
(my $loop_name = $loop_dev) =~ s{^/dev/}{};

my $node = iob_base_node('diskstats');
mkdir "$loop_dir/ts" or die "mkdir $loop_dir/ts: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE loopts LOCATION '$loop_dir/ts'");

# A run at a fixed rate, so that a few milliseconds between the device's
# sample and iobench's second boundary are a small share of the ops.
sub run_on
{
	my ($spc, $args) = @_;
	return $node->safe_psql('postgres',
		"SELECT run_id FROM iobench.run(tablespace => '$spc', duration => '3s', "
		  . "file_size => '16MB', workers => 2, iodepth => 4, rate_iops => 1000, $args)");
}

# Direct random reads: the device completes one read per iobench read.
my $r = run_on('loopts', "rw => 'randread', direct => true");
is($node->safe_psql('postgres', "SELECT disk FROM iobench.runs WHERE run_id = $r"),
	$loop_name, 'the run names the loop device');
# (a device sample taken late adds time without reads after the run's
# end: each second's distance from 1 s may move the rate by its share)
is( $node->safe_psql('postgres', qq{
		SELECT abs(r.disk_r_s - r.read_iops) <= 0.03 * r.read_iops + r.read_iops * d.off / d.secs
		   AND r.disk_w_s < 0.03 * r.read_iops
		  FROM iobench.runs r,
		       (SELECT sum(abs(interval_s - 1)) AS off, sum(interval_s) AS secs
		          FROM iobench.run_disk_seconds WHERE run_id = $r AND NOT member) d
		 WHERE r.run_id = $r}),
	't', 'direct reads: device reads/s within 3 % of iobench reads/s');
is( $node->safe_psql('postgres', qq{
		SELECT abs(d.reads / d.secs - s.ops / r.measured_s) / (s.ops / r.measured_s) < 0.03 + d.off / d.secs
		  FROM (SELECT sum(reads) AS reads, sum(interval_s) AS secs, sum(abs(interval_s - 1)) AS off
		          FROM iobench.run_disk_seconds
		         WHERE run_id = $r AND NOT member) d,
		       (SELECT sum(ops) AS ops FROM iobench.run_seconds
		         WHERE run_id = $r AND op = 'read') s,
		       iobench.runs r WHERE r.run_id = $r}),
	't', 'direct reads: the device seconds add up to iobench\'s seconds (as rates over each one\'s own time)');
# 8 kB reads are 16 sectors each.  The kernel adds a request's sectors as
# its data completes and counts the request when it ends, so a sample taken
# in between puts them in different seconds: at each end of the run up to
# the 8 requests in flight (2 workers x iodepth 4) may be split so.
is( $node->safe_psql('postgres', qq{
		SELECT count(*) = 3 AND bool_and(interval_s BETWEEN 0.5 AND 1.5)
		   AND abs(sum(read_sectors) - 16 * sum(reads)) <= 2 * 8 * 16
		   AND bool_and(r_await_ms >= 0)
		   AND bool_and(util_pct BETWEEN 0 AND 100)
		  FROM iobench.run_disk_seconds WHERE run_id = $r}),
	't', 'three seconds of about one second each, 8 kB reads')
  or diag($node->safe_psql('postgres',
	"SELECT d::text FROM iobench.run_disk_seconds d WHERE run_id = $r ORDER BY second"));
# second by second too, as rates: a launcher that woke late on a busy
# machine takes its sample late (the clock of each sample is its own, the
# seconds are iobench's; at rate_iops each second of iobench's is its rate)
is( $node->safe_psql('postgres', qq{
		SELECT bool_and(abs(d.reads / d.interval_s - s.ops) <= 0.1 * s.ops)
		  FROM iobench.run_disk_seconds d
		  JOIN iobench.run_seconds s USING (run_id, second)
		 WHERE run_id = $r AND s.op = 'read'}),
	't', 'direct reads: each second of the device within 10 % of iobench\'s');

# Direct random writes: one device write per iobench write (the file
# system's own journal adds a few at most)
my $w = run_on('loopts', "rw => 'randwrite', direct => true");
is( $node->safe_psql('postgres', qq{
		SELECT abs(disk_w_s - write_iops) / write_iops < 0.03
		  FROM iobench.runs WHERE run_id = $w}),
	't', 'direct writes: device writes/s within 3 % of iobench writes/s');

# Buffered reads of a small file that the warm-up has read into the page
# cache are cache hits: the device sees (next to) none of them.
my $b = $node->safe_psql('postgres',
	"SELECT run_id FROM iobench.run(tablespace => 'loopts', rw => 'randread', "
	  . "direct => false, file_size => '2MB', warmup => '1s', duration => '2s', "
	  . "rate_iops => 1000)");
is( $node->safe_psql('postgres', qq{
		SELECT disk_r_s < 0.1 * read_iops FROM iobench.runs WHERE run_id = $b}),
	't', 'buffered reads of a cached file do not reach the device');

# report() and run_json() show the device
like($node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM iobench.report($r) r"),
	qr/Device \Q$loop_name\E .*\n.*r\/s.*%util.*\n\s+\Q$loop_name\E avg/,
	'report() shows the device averages');
is( $node->safe_psql('postgres', qq{
		SELECT j->'disk_util'->0->>'name' = '$loop_name'
		   AND (j->'disk_util'->0->>'read_ios')::bigint > 0
		   AND (j->'disk_util'->0->>'util')::float8 BETWEEN 0 AND 100
		  FROM iobench.run_json($r) j}),
	't', 'run_json() puts the device in disk_util, as fio does');

# Other load.  The runs above had the device to themselves: report() says
# nothing of other load.  A dd reading a file of the same file system with
# O_DIRECT, over and over during a run, makes the device read far more than
# iobench did: report() says so, and by how much.
foreach my $alone ($r, $w)
{
	unlike($node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM iobench.report($alone) r"),
		qr/OTHER LOAD/, "run $alone alone on the device: no other load reported");
}
my $other = "$loop_dir/other_load";
system('dd', 'if=/dev/zero', "of=$other", 'bs=1M', 'count=32', 'oflag=direct', 'status=none') == 0
  or die "dd: $?";
my $flag = "$other.on";
open my $flag_fh, '>', $flag or die "could not create $flag: $!";
close $flag_fh;
my $dd = IPC::Run::start(
	[ 'sh', '-c', 'while [ -e "$1" ]; do dd if="$2" of=/dev/null bs=1M iflag=direct status=none; done',
	  'sh', $flag, $other ]);
my $o = run_on('loopts', "rw => 'randread', direct => true");
unlink $flag;
$dd->finish;
unlink $other;
my $report = $node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM iobench.report($o) r");
my ($shown) = $report =~ /^(  OTHER LOAD: .*)$/m;
note($shown // 'no OTHER LOAD line');
like($report, qr/^  OTHER LOAD: the device read [\d.]+ MB\/s, [\d.]+x iobench's own [\d.]+ MB\/s: another process used it/m,
	'a run beside a dd on the same device: report() says other load was present');
# by how much: the device's bytes over the run's, as stored
is( $node->safe_psql('postgres', qq{
		SELECT round((d.b / (r.read_bytes / r.measured_s))::numeric, 2)
		  FROM iobench.runs r,
		       (SELECT sum(read_sectors) * 512 / sum(interval_s) AS b
		          FROM iobench.run_disk_seconds WHERE run_id = $o AND NOT member) d
		 WHERE r.run_id = $o}),
	($shown // '') =~ /, ([\d.]+)x iobench/ ? $1 : 'none',
	'the factor it gives is the device\'s read bytes over the run\'s');

# Second by second as counts, second 0 included, on a device whose rate
# the kernel sets: the loop device capped at 300 reads/s (a cgroup-v1 blkio
# throttle, tools/run-tests.sh) and read at that pace with no warm-up.  The
# device's first sample is taken as the measured period starts, so each of
# its seconds counts the reads of iobench's same second: they differ by
# the reads in flight at each boundary and those a late sample of the
# next boundary adds (a few at this pace), plus, on a loaded machine, the
# reads of the time a sample came late or early (the second's interval_s
# off 1 s: at the cap, $cap reads a second).  A first sample taken once the
# recorder is up (tens to a hundred ms late) left 10-20 % of second 0 out.
SKIP:
{
	my $cgroup = $ENV{IOBENCH_TEST_BLKIO_CGROUP};
	skip 'no blkio cgroup rig (run as root on a cgroup-v1 system)', 3 unless $cgroup;
	my $cap = 300;
	my $majmin = slurp_file("/sys/block/$loop_name/dev");
	chomp $majmin;
	# the server, and every worker it starts from now on, in the group
	iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin $cap");
	my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
	iob_cgroup_write($cgroup, 'cgroup.procs', $pm_pid);
	my $t = $node->safe_psql('postgres',
		"SELECT run_id FROM iobench.run(tablespace => 'loopts', rw => 'randread', direct => true, "
		  . "duration => '3s', file_size => '16MB', workers => 1, iodepth => 4)");
	# leave the rule to no other test
	iob_cgroup_write($cgroup, 'blkio.throttle.read_iops_device', "$majmin 0");
	my $per_second = qq{
		SELECT d.second, d.reads, s.ops, round(d.interval_s::numeric, 4) AS interval_s
		  FROM iobench.run_disk_seconds d
		  JOIN iobench.run_seconds s USING (run_id, second)
		 WHERE run_id = $t AND s.op = 'read' AND NOT d.member ORDER BY d.second};
	note("second, device reads, iobench reads, interval_s:\n"
		  . $node->safe_psql('postgres', $per_second));
	# The throttle lets a group that was idle dispatch one slice of its
	# budget at once (blk-throttle's slice is 100 ms: 30 reads at 300/s), so
	# one second may count up to 10 % over the cap (330 seen in second 0,
	# the device counting the same 330); the three seconds together stay
	# at the cap.
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) = 3 AND bool_and(s.ops BETWEEN 0.8 * $cap AND 1.12 * $cap)
			   AND sum(s.ops) <= 1.05 * 3 * $cap
			  FROM iobench.run_seconds s WHERE run_id = $t AND s.op = 'read'}),
		't', "throttled: iobench reads at the cap of $cap/s")
	  or diag($node->safe_psql('postgres', $per_second));
	is( $node->safe_psql('postgres', qq{
			SELECT abs(d.reads - s.ops) <= 0.03 * s.ops + $cap * abs(d.interval_s - 1)
			  FROM iobench.run_disk_seconds d
			  JOIN iobench.run_seconds s USING (run_id, second)
			 WHERE run_id = $t AND s.op = 'read' AND NOT d.member AND d.second = 0}),
		't', 'throttled: second 0 of the device counts the reads of iobench\'s second 0, within 3 %')
	  or diag($node->safe_psql('postgres', $per_second));
	# Past second 0 a slice's reads may land on either side of a sample
	# (seen: 300, 330, 274 on the device against 300 a second of iobench's),
	# so each later second may differ by one slice, and the seconds together
	# by 3 %.
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) = 3
			   AND bool_and(abs(d.reads - s.ops) <= 0.03 * s.ops + $cap / 10 + $cap * abs(d.interval_s - 1))
			   AND abs(sum(d.reads) - sum(s.ops)) <= 0.03 * sum(s.ops)
			  FROM iobench.run_disk_seconds d
			  JOIN iobench.run_seconds s USING (run_id, second)
			 WHERE run_id = $t AND s.op = 'read' AND NOT d.member}),
		't', 'throttled: every second of the device counts the reads of iobench\'s, within a slice, and all within 3 %')
	  or diag($node->safe_psql('postgres', $per_second));
}

# No block device: one NOTICE, NULL columns, no rows, no error
SKIP:
{
	my $tmpfs = $ENV{IOBENCH_TEST_TMPFS_DIR};
	skip 'no tmpfs rig (run as root)', 3 unless $tmpfs;
	mkdir "$tmpfs/ts" or die "mkdir $tmpfs/ts: $!";
	$node->safe_psql('postgres', "CREATE TABLESPACE memts LOCATION '$tmpfs/ts'");
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT run_id FROM iobench.run(tablespace => 'memts', duration => '1s', "
		  . "file_size => '4MB', direct => false, rate_iops => 500)");
	is($ret, 0, 'a run on tmpfs succeeds');
	my @notices = ($err =~ /NOTICE:  no block device under tablespace "memts"/g);
	is(scalar(@notices), 1, 'one NOTICE says there is no block device');
	is( $node->safe_psql('postgres', qq{
			SELECT disk IS NULL AND disk_r_s IS NULL AND disk_util_pct IS NULL
			   AND NOT EXISTS (SELECT FROM iobench.run_disk_seconds d WHERE d.run_id = r.run_id)
			   AND (SELECT jsonb_array_length(j->'disk_util') FROM iobench.run_json(r.run_id) j) = 0
			  FROM iobench.runs r WHERE run_id = $out}),
		't', 'no block device: NULL columns, no rows, empty disk_util');
}

$node->stop('fast');
done_testing();
