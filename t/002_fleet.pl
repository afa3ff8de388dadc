# Many servers from one session: three clusters on private sockets, the
# first coordinating the other two (and itself) through postgres_fdw server
# names.  The oltp suite runs on all three at once; the runs are gathered
# (with their device seconds, and a tablespace group run with its
# tablespaces), compared and merged; runs are exported from one cluster and
# imported into another, with a real fio json+ result; a cluster stopped halfway through
# a call gives one error row beside the others' results; a cancel stops
# every server; a role runs remotely with its remote rights only.
use strict;
use warnings;

use File::Basename qw(dirname);
use POSIX qw(ceil);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Each cluster preloads iobench, as test/regress.conf does
my @nodes;
foreach my $name ('coord', 'second', 'third')
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'iobench'
max_worker_processes = 16
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION iobench');
	push @nodes, $node;
}
my ($coord, $second, $third) = @nodes;
$coord->safe_psql('postgres', 'CREATE EXTENSION dblink; CREATE EXTENSION postgres_fdw');
my $i = 0;
foreach my $node (@nodes)
{
	$i++;
	my ($host, $port) = ($node->host, $node->port);
	$coord->safe_psql('postgres', qq{
CREATE SERVER s$i FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER s$i;
});
}

# The oltp suite on all three at once.  The checks below need I/O in every
# run; a stall of the shared disk (the fresh clusters' writeback) can leave
# a 300 ms test without any on all three at once, so the suite runs again
# (up to five times) until every run did some, and the tries without are
# removed from every server.
my $fleet;
foreach my $try (1 .. 5)
{
	$fleet = $coord->safe_psql('postgres', q{
SELECT DISTINCT fleet_id FROM iobench.fleet_suite('oltp', ARRAY['s1', 's2', 's3'],
    duration => '300ms', file_size => '1MB', start_delay => '1s')});
	last if $fleet !~ /^\d+$/;
	last if $coord->safe_psql('postgres', qq{
SELECT coalesce(bool_and(r.ops > 0), false)
  FROM iobench.fleet_runs f LEFT JOIN iobench.runs r USING (run_id) WHERE f.fleet_id = $fleet}) eq 't';
	last if $try == 5;
	diag("try $try of the suite: a run did no I/O, running it again");
	$coord->safe_psql('postgres', qq{
DELETE FROM iobench.runs WHERE run_id IN (SELECT run_id FROM iobench.fleet_runs WHERE fleet_id = $fleet);
DELETE FROM iobench.fleets WHERE fleet_id = $fleet});
	$_->safe_psql('postgres', q{DELETE FROM iobench.runs WHERE label LIKE 'oltp: %'}) foreach @nodes;
}
like($fleet, qr/^\d+$/, 'the suite ran on three servers');
is($coord->safe_psql('postgres', qq{
SELECT count(*) FILTER (WHERE r.status = 'completed'), count(*)
  FROM iobench.fleet_runs f LEFT JOIN iobench.runs r USING (run_id)
 WHERE f.fleet_id = $fleet}), '12|12', 'four tests on three servers, all completed and gathered');
is($coord->safe_psql('postgres', qq{
SELECT string_agg(f.server || '=' || n, ',' ORDER BY f.server)
  FROM (SELECT server, count(*) AS n FROM iobench.fleet_runs WHERE fleet_id = $fleet GROUP BY server) f}),
	's1=4,s2=4,s3=4', 'each server ran every test');
foreach my $node ($second, $third)
{
	is($node->safe_psql('postgres',
		q{SELECT count(*) FROM iobench.runs WHERE label LIKE 'oltp: %' AND status = 'completed'}),
		'4', $node->name . ' stored its own runs');
}
is($coord->safe_psql('postgres', qq{
SELECT count(DISTINCT r.system_identifier)
  FROM iobench.fleet_runs f JOIN iobench.runs r USING (run_id) WHERE f.fleet_id = $fleet}),
	'3', 'the gathered runs keep the system identifier of the server they ran on');
is($coord->safe_psql('postgres', qq{
SELECT bool_and(f.go_at >= f.start_at) AND count(DISTINCT f.start_at) = 4
  FROM iobench.fleet_runs f WHERE f.fleet_id = $fleet}),
	't', 'per test one common start, which every server waited for');

# The start skew: how far apart the three servers' workers started, per test
my $skews = $coord->safe_psql('postgres', qq{
SELECT test_no, round(max(skew_us)::numeric / 1000, 3),
       round(max(extract(epoch FROM go_at - start_at))::numeric * 1000, 3)
  FROM iobench.fleet_runs WHERE fleet_id = $fleet GROUP BY test_no ORDER BY test_no});
foreach my $line (split /\n/, $skews)
{
	my ($t, $skew, $late) = split /\|/, $line;
	diag("oltp test $t: start skew between the three servers $skew ms, latest start $late ms after start_at");
}

# Gathered runs compared side by side, each server named
is($coord->safe_psql('postgres', qq{
SELECT count(*) FILTER (WHERE server = '(all servers)'), count(DISTINCT server)
  FROM iobench.fleet_compare($fleet)}), '4|4', 'fleet_compare: three servers and their sum per test');
is($coord->safe_psql('postgres', qq{
SELECT count(*) FROM iobench.compare_runs(
    ARRAY(SELECT run_id FROM iobench.fleet_runs WHERE fleet_id = $fleet AND test_no = 1 ORDER BY server))
 WHERE server IN ('s1', 's2', 's3')}), '3', 'compare_runs names the server of each run');
is($coord->safe_psql('postgres', qq{
SELECT count(*) FROM iobench.fleet_runs f, iobench.report(f.run_id) AS line
 WHERE f.fleet_id = $fleet AND f.server = 's3' AND f.test_no = 1 AND line LIKE '  server "s3": its run % there, imported %'}),
	'1', 'report names the server a gathered run came from');

# The gathered runs carry what their server stored of the block device's
# seconds and of a tablespace group's tablespaces, row for row: the four
# suite runs of each server and a run on a group of two on the second
mkdir $second->basedir . '/fleet_ts' or die "mkdir: $!";
$second->safe_psql('postgres', "CREATE TABLESPACE fleet_ts LOCATION '" . $second->basedir . "/fleet_ts'");
my $group = $coord->safe_psql('postgres', q{
SELECT DISTINCT fleet_id FROM iobench.fleet_run(ARRAY['s2'],
    '{"tablespaces": "{pg_default,fleet_ts}", "files": 2, "duration": "300ms", "file_size": "1MB", "label": "group"}')});

# The device's seconds and tablespaces of the runs given (a list of ids),
# one line per row, numbered by the run's place in the list
sub children_of
{
	my ($node, $ids) = @_;
	return $node->safe_psql('postgres', qq{
SELECT c.n || ' ' || c.what || ' ' || c.row
  FROM (SELECT x.n, 'disk' AS what, d.device AS k, d.second AS k2, (to_jsonb(d) - 'run_id')::text AS row
          FROM unnest(ARRAY[$ids]::bigint[]) WITH ORDINALITY x(id, n)
          JOIN iobench.run_disk_seconds d ON d.run_id = x.id
        UNION ALL
        SELECT x.n, 'tablespace', '', t.position, (to_jsonb(t) - 'run_id')::text
          FROM unnest(ARRAY[$ids]::bigint[]) WITH ORDINALITY x(id, n)
          JOIN iobench.run_tablespaces t ON t.run_id = x.id) c
 ORDER BY c.n, c.what, c.k, c.k2});
}
foreach my $s ('s2', 's3')
{
	my $node = $s eq 's2' ? $second : $third;
	my $which = "server = '$s' AND (fleet_id = $fleet OR fleet_id = $group)";
	my $here = $coord->safe_psql('postgres',
		"SELECT string_agg(run_id::text, ',' ORDER BY fleet_id, test_no) FROM iobench.fleet_runs WHERE $which");
	my $there = $coord->safe_psql('postgres',
		"SELECT string_agg(remote_run_id::text, ',' ORDER BY fleet_id, test_no) FROM iobench.fleet_runs WHERE $which");
	my $want = children_of($node, $there);
	is(children_of($coord, $here), $want, "the runs gathered from $s have its device seconds and tablespaces");
	is($node->safe_psql('postgres', qq{
SELECT bool_and(EXISTS (SELECT FROM iobench.run_disk_seconds d WHERE d.run_id = r.run_id) OR r.disk IS NULL)
  FROM iobench.runs r WHERE r.run_id = ANY (ARRAY[$there]::bigint[])}),
		't', "$s stored device seconds for each run with a block device");
}
like(children_of($second, $second->safe_psql('postgres', q{SELECT run_id FROM iobench.runs WHERE label = 'group'})),
	qr/^1 tablespace \{.*"tablespace": "pg_default".*\n1 tablespace \{.*"tablespace": "fleet_ts"/m,
	'the group run on the second has its two tablespaces');

# Merged percentiles equal those of one histogram of all the samples: the
# buckets of each server's own run (read on that server), summed here in
# Perl, and the percentile rule of iobench's histogram (the midpoint of the
# bucket holding the rank, clamped to the maximum)
my %bucket;
my $max_us = 0;
my $n = 0;
$i = 0;
foreach my $node (@nodes)
{
	$i++;
	my $remote_id = $coord->safe_psql('postgres', qq{
SELECT remote_run_id FROM iobench.fleet_runs WHERE fleet_id = $fleet AND test_no = 1 AND server = 's$i'});
	foreach my $row (split /\n/, $node->safe_psql('postgres', qq{
SELECT lower_us, upper_us, count FROM iobench.run_latency WHERE run_id = $remote_id AND op IN ('read', 'write')}))
	{
		my ($lo, $hi, $c) = split /\|/, $row;
		$bucket{$lo}{hi} = $hi;
		$bucket{$lo}{n} += $c;
		$n += $c;
	}
	my $m = $node->safe_psql('postgres', "SELECT lat_max_us FROM iobench.runs WHERE run_id = $remote_id");
	$max_us = $m if $m > $max_us;
}
my %want;
foreach my $pct (50, 99)
{
	my $rank = ceil($pct / 100 * $n - 1e-9);
	$rank = 1 if $rank < 1;
	my $seen = 0;
	foreach my $lo (sort { $a <=> $b } keys %bucket)
	{
		$seen += $bucket{$lo}{n};
		if ($seen >= $rank)
		{
			my $mid = ($lo * 1000 + $bucket{$lo}{hi} * 1000 - 1) / 2 / 1000;
			$want{$pct} = sprintf('%.4f', $mid < $max_us ? $mid : $max_us);
			last;
		}
	}
}
is($coord->safe_psql('postgres', qq{
SELECT to_char(lat_p50_us, 'FM999999990.0000') || '|' || to_char(lat_p99_us, 'FM999999990.0000')
  FROM iobench.merged_latency(ARRAY(SELECT run_id FROM iobench.fleet_runs WHERE fleet_id = $fleet AND test_no = 1))}),
	"$want{50}|$want{99}", 'merged p50 and p99 of the three servers equal those of all their samples in one histogram');

# Export from one cluster, import into another: stored once however often
my $doc = $second->safe_psql('postgres', q{
SELECT iobench.export_runs(ARRAY(SELECT run_id FROM iobench.runs WHERE label LIKE 'oltp: %'))});
my $quoted = $doc =~ s/'/''/gr;
is($third->safe_psql('postgres', qq{SELECT count(*) FILTER (WHERE imported) FROM iobench.import_runs('$quoted', 'second')}),
	'4', 'four runs imported from the second cluster into the third');
is($third->safe_psql('postgres', qq{SELECT count(*) FILTER (WHERE imported) FROM iobench.import_runs('$quoted', 'second')}),
	'0', 'importing them again stores nothing');
is($third->safe_psql('postgres', q{
SELECT count(*) FROM iobench.runs r
 WHERE r.server = 'second' AND r.system_identifier <> (SELECT system_identifier FROM pg_control_system())
   AND EXISTS (SELECT FROM iobench.run_latency l WHERE l.run_id = r.run_id)
   AND (EXISTS (SELECT FROM iobench.run_disk_seconds d WHERE d.run_id = r.run_id) OR r.disk IS NULL)}),
	'4', 'the imported runs keep their origin, histograms and device seconds');

# A real fio json+ result beside them
my $fio_file = dirname(__FILE__) . '/../data/fio_randread.json';
my $fio = slurp_file($fio_file) =~ s/'/''/gr;
is($third->safe_psql('postgres', qq{
SELECT tool || ' ' || rw || ' ' || block_size || ' ' || (read_ops > 0) || ' ' || (read_lat_p99_us > 0)
  FROM iobench.import_fio('$fio', server => 'fio box')}),
	'fio-3.33 randread 8192 true true', 'a fio json+ result imported as a run');
is($third->safe_psql('postgres', q{
SELECT count(*) > 1 FROM iobench.fleet_comparison WHERE rw = 'randread' AND block_size = 8192 AND iodepth = 1}),
	't', 'the fio run sits in the fleet comparison beside iobench runs of its pattern');

# A server stopped halfway: the other two return their runs, it an error
my $bg = $coord->background_psql('postgres');
$bg->query_until(qr/started/, q{\echo started
SELECT server || '|' || status || '|' || (error IS NOT NULL) FROM iobench.fleet_run(ARRAY['s1', 's2', 's3'],
    '{"duration": "4s", "file_size": "1MB", "label": "halfway"}', start_delay => '500ms') ORDER BY server;
\echo finished
});
ok($third->poll_query_until('postgres',
	q{SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'iobench worker'}),
	'the third cluster is running its part');
$third->stop('fast');
my $out = $bg->query_until(qr/finished/, '');
like($out, qr/s1\|completed\|false\ns2\|completed\|false\ns3\|failed\|true/,
	'two servers return their runs and the stopped one an error row');
$third->start;

# Cancel stops every server; the partial runs are gathered as cancelled,
# the call kept as cancelled with them, and the statement fails with 57014
# like any statement's
$bg->{stderr} = '';
$bg->query_until(qr/started/, q{\set ON_ERROR_STOP 0
\set VERBOSITY verbose
\echo started
SELECT string_agg(status, ',' ORDER BY server) FROM iobench.fleet_run(ARRAY['s2', 's3'],
    '{"duration": "60s", "file_size": "1MB", "label": "cancelled"}', start_delay => '200ms');
\echo finished
});
# (once both measure: a run cancelled before it measured stores nothing)
foreach my $node ($second, $third)
{
	$node->poll_query_until('postgres', q{
SELECT count(*) > 0 FROM pg_stat_activity
 WHERE backend_type = 'iobench worker' AND wait_event = 'DataFileRead'});
}
$coord->safe_psql('postgres', q{
SELECT pg_cancel_backend(pid) FROM pg_stat_activity
 WHERE query LIKE '%fleet_run%cancelled%' AND pid <> pg_backend_pid()});
$out = $bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/ERROR:  57014: canceling statement due to user request/,
	'a cancelled fleet call fails with 57014');
like($bg->{stderr},
	qr/DETAIL:  The runs on every server were cancelled; .* The fleet call is kept as fleet (\d+) with status "cancelled" and the runs gathered before\./,
	'its DETAIL says what was kept');
is($coord->safe_psql('postgres', q{
SELECT f.status || ':' || string_agg(r.status, ',' ORDER BY fr.server)
  FROM iobench.fleets f JOIN iobench.fleet_runs fr USING (fleet_id) JOIN iobench.runs r USING (run_id)
 WHERE f.settings ->> 'label' = 'cancelled' GROUP BY f.status}),
	'cancelled:cancelled,cancelled', 'a cancel stops the runs on every server, and the call is kept with them');
is($coord->safe_psql('postgres', q{
SELECT count(*) FROM iobench.run_seconds s JOIN iobench.fleet_runs fr USING (run_id)
  JOIN iobench.fleets f USING (fleet_id) WHERE f.settings ->> 'label' = 'cancelled'}) > 0 ? 1 : 0,
	1, 'the kept runs came with their per-second rows');
foreach my $node ($second, $third)
{
	is($node->safe_psql('postgres', q{
SELECT status FROM iobench.runs WHERE label = 'cancelled'}), 'cancelled', $node->name . ' stored its run as cancelled');
	ok($node->poll_query_until('postgres',
		q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'iobench worker'}),
		$node->name . ' has no workers left');
}
$bg->quit;

# Privileges: a role reaches the second cluster as a role of its own there,
# by password, and has there only the rights that role has
$second->safe_psql('postgres', q{
CREATE ROLE fleet_remote LOGIN PASSWORD 'fleet secret';
GRANT USAGE ON SCHEMA iobench TO fleet_remote;
GRANT pg_monitor TO fleet_remote});
my $hba = $second->data_dir . '/pg_hba.conf';
my $old_hba = slurp_file($hba);
open(my $fh, '>', $hba) or die "could not write $hba: $!";
print $fh "local all fleet_remote scram-sha-256\n$old_hba";
close $fh;
$second->reload;
$coord->safe_psql('postgres', q{
CREATE ROLE fleet_user LOGIN;
GRANT USAGE ON SCHEMA iobench, iobench_internal TO fleet_user;
GRANT USAGE ON FOREIGN SERVER s2, s3 TO fleet_user;
GRANT EXECUTE ON FUNCTION iobench.fleet_run(text[], jsonb, boolean, interval, text),
    iobench_internal.fleet_execute(text, jsonb, text[], boolean, interval, text, jsonb),
    iobench.import_runs(jsonb, text) TO fleet_user;
CREATE USER MAPPING FOR fleet_user SERVER s2 OPTIONS (user 'fleet_remote', password 'fleet secret')});
my $call = q{SET ROLE fleet_user;
SELECT status || '|' || coalesce(error, '') FROM iobench.fleet_run(ARRAY['s2'], '{"duration": "200ms", "file_size": "1MB", "label": "as fleet_remote"}')};
like($coord->safe_psql('postgres', $call), qr/^failed\|permission denied for function run/,
	'without EXECUTE on run() there, the remote run is refused');
$second->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION iobench.run TO fleet_remote');
like($coord->safe_psql('postgres', $call), qr/^completed\|$/, 'with it, the run happens there');
my ($rc, $stdout, $stderr) = $coord->psql('postgres', q{SET ROLE fleet_user;
SELECT * FROM iobench.fleet_run(ARRAY['s2', 's3'], '{"duration": "200ms", "file_size": "1MB", "label": "not sent"}')});
like($stderr, qr/user mapping not found for user "fleet_user", server "s3"/,
	'a server the user mapping does not reach refuses the call');
foreach my $node ($second, $third)
{
	is($node->safe_psql('postgres', q{SELECT count(*) FROM iobench.runs WHERE label = 'not sent'}),
		'0', 'and nothing was sent to ' . $node->name);
}

$_->stop foreach @nodes;
done_testing();
