# Every SQL example of README.md, the guide (doc/iobench.md), the
# methodology (doc/methodology.md) and the reference (doc/reference.md) runs
# on a server that has the objects the examples name, so that no example a
# DBA copies fails with an error the docs did not mean.
#
# An example is
#   - each statement of a ```sql block (a statement ends with the line that
#     ends in ";", or at a psql \crosstabview; a psql meta-command line such
#     as \copy, \pset or \t is one by itself; comment lines between
#     statements are skipped; an example's output pasted below it, its
#     header or "---+---" line first, ends the block's statements);
#   - the statement after "postgres=#" (and its "postgres-#" lines) in a
#     plain ``` block;
#   - an inline `code` span of the prose that starts with an SQL keyword and
#     ends in ";" (README's task index, "`ALTER EXTENSION iobench UPDATE;`"):
#     a complete statement.  A span without ";" ("`DROP EXTENSION`",
#     "`SELECT * FROM iobench.runs`") names a command in a sentence and is
#     not an example.
#
# Each example runs as the superuser in database "postgres", through psql
# (so the meta-commands work), one psql per example, in the order of the
# files; a \copy writes into this test's directory.  It runs
#   - for real, when it is cheap (queries of stored runs, suites, fleets and
#     searches, reports, snapshots, grants, settings, tablespaces);
#   - under EXPLAIN when it calls a function that measures for seconds to
#     hours (run(), suite(), pgiosim(), latency_search(), server_vs_disk(),
#     tune_tablespace(), sweep_io_workers(), fleet_run(), fleet_suite(),
#     sample_waits(), sample_waits_all(), sample_waits_by_backend()):
#     the server resolves every function, argument name, type, column and
#     cast of the statement without executing it (a query given as a
#     $$-quoted string, cron.schedule()'s command, is resolved so too);
#   - with two rewrites, stated here: a server-side path under /tmp/ reads
#     this test's directory instead (the file is made there beforehand or by
#     the \copy example before it), and CREATE TABLESPACE's LOCATION
#     ('/srv/...') is a directory of this test;
#   - in a new, empty database when it is "CREATE EXTENSION x" and the
#     fixture database has x already (as a DBA's new database would not).
# An example that cannot run here is in %listed below with its reason; an
# example neither run successfully nor listed fails, naming its file and
# line, and so does a listed reason that no example matches any more.
#
# The fixture: tablespaces fast_ssd, raid1a, raid1b and data (raid10 and ssd
# are made by the guide's own CREATE TABLESPACE example), roles alice and
# bench, loopback postgres_fdw servers for every server name the fleet
# examples use (but replica1, which the guide's example creates), and real
# tiny runs (300 ms on 1 MB files) stored with the ids the examples use:
# runs 1, 3, 42 (two tablespaces), 43 (pgiosim), 101-103, 205 and 309;
# suites 3 and 7; fleets 1 and 7; search 5; the runs of a server_vs_disk()
# call; the wait snapshot "after batch" (taken when an example first names
# it).  Where pg_cron is installed it is preloaded, for the guide's nightly
# burn-in (its job removed at once); settings the examples change with
# ALTER SYSTEM are reset at the end.
use strict;
use warnings;

use File::Copy qw(copy);
use FindBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# t/.. is the checkout, or tools/run-tests.sh's copy of the files read here
my $top = "$FindBin::RealBin/..";
my @docs = ('README.md', 'doc/iobench.md', 'doc/methodology.md', 'doc/reference.md');

# SQL keywords an example starts with
my $keyword = qr/(?:SELECT|WITH|INSERT|UPDATE|DELETE|GRANT|REVOKE|CREATE|ALTER|DROP|SET|RESET|EXPLAIN|CALL|TABLE|COPY|VACUUM|ANALYZE)\b/;

# The examples: { file, line, sql }
my @examples;
foreach my $doc (@docs)
{
	open my $fh, '<', "$top/$doc" or die "could not open $top/$doc: $!";
	my @lines = <$fh>;
	close $fh;
	chomp @lines;
	my ($lang, $indent, $output, $stmt, $stmt_line, $in_block, $block_line, $block_first);
	my ($blocks, @empty) = (0);
	for my $i (0 .. $#lines)
	{
		my $line = $lines[$i];
		my $no = $i + 1;
		if ($line =~ /^(\s*)```\s*(\S*)\s*$/)
		{
			if (!$in_block)
			{
				($in_block, $indent, $lang, $output, $stmt) = (1, $1, $2, 0, undef);
				($block_line, $block_first) = ($no, scalar @examples);
				$blocks++ if $lang eq 'sql';
			}
			else
			{
				die "$doc:$stmt_line: statement not ended by \";\" before the block's end\n"
				  if defined $stmt;
				push @empty, "$doc:$block_line"
				  if $lang eq 'sql' && @examples == $block_first;
				$in_block = 0;
			}
			next;
		}
		if (!$in_block)
		{
			# inline spans: a complete statement ending in ";"
			while ($line =~ /`($keyword[^`]*;)`/g)
			{
				push @examples, { file => $doc, line => $no, sql => $1, inline => 1 };
			}
			next;
		}
		if ($lang eq '')
		{
			# psql prompt examples in plain blocks
			if ($line =~ /^\s*\w+=# (.*)$/)
			{
				($stmt, $stmt_line) = ($1, $no);
			}
			elsif (defined $stmt && $line =~ /^\s*\w+-# (.*)$/)
			{
				$stmt .= "\n$1";
			}
			if (defined $stmt && $stmt =~ /;\s*$/)
			{
				push @examples, { file => $doc, line => $stmt_line, sql => $stmt };
				$stmt = undef;
			}
			next;
		}
		next if $lang ne 'sql' || $output;
		$line =~ s/^\Q$indent\E//;
		if (!defined $stmt)
		{
			next if $line =~ /^\s*(--.*)?$/;
			if ($line =~ /^\s*\\/)
			{
				push @examples, { file => $doc, line => $no, sql => $line };
				next;
			}
			if ($line =~ /\|/ || $line =~ /^\s*-+\+/)
			{
				$output = 1;    # the example's output, to the block's end
				next;
			}
			die "$doc:$no: a line of an sql block that starts no statement: $line\n"
			  unless $line =~ /^\s*$keyword/;
			($stmt, $stmt_line) = ($line, $no);
		}
		else
		{
			$stmt .= "\n$line";
		}
		if ($line =~ /;\s*(--.*)?$/ || $line =~ /\\crosstabview/)
		{
			push @examples, { file => $doc, line => $stmt_line, sql => $stmt };
			$stmt = undef;
		}
	}
	ok($blocks > 0, "$doc: $blocks sql blocks");
	is(join(', ', @empty), '', "$doc: every sql block has a statement");
}
note(scalar(@examples) . ' examples');

# The functions that measure for seconds or more: their examples run under
# EXPLAIN
my $measuring = qr/\biobench\.(?:run|suite|pgiosim|latency_search|server_vs_disk|tune_tablespace|sweep_io_workers|fleet_run|fleet_suite|sample_waits|sample_waits_all|sample_waits_by_backend)\s*\(/;

my $node = PostgreSQL::Test::Cluster->new('doc_examples');
$node->init;
$node->append_conf('postgresql.conf', slurp_file($ENV{IOBENCH_REGRESS_CONF}))
  if defined $ENV{IOBENCH_REGRESS_CONF};
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
max_connections = 30
iobench.progress = off
});

# pg_cron, for the guide's nightly burn-in, where it is installed
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my $have_cron = -f "$pkglibdir/pg_cron.so";
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'iobench,pg_cron'
cron.database_name = 'postgres'
cron.use_background_workers = on
}) if $have_cron;
$node->start;
my $version = $node->safe_psql('postgres', 'SHOW server_version_num');

# The examples' objects
my $dir = PostgreSQL::Test::Utils::tempdir();
chdir $dir or die "could not enter $dir: $!";
foreach my $ts ('fast_ssd', 'raid1a', 'raid1b', 'data')
{
	mkdir "$dir/$ts" or die "could not create $dir/$ts: $!";
	$node->safe_psql('postgres', "CREATE TABLESPACE $ts LOCATION '$dir/$ts'");
}
$node->safe_psql('postgres', q{
CREATE EXTENSION iobench;
CREATE EXTENSION dblink;
CREATE EXTENSION postgres_fdw;
CREATE ROLE alice LOGIN;
CREATE ROLE bench LOGIN;
});
my ($host, $port) = ($node->host, $node->port);
foreach my $server (qw(db1 db2 db3 replica2 replica3 laptop desktop das san))
{
	$node->safe_psql('postgres', qq{
CREATE SERVER $server FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER $server;
});
}

# Stored runs with the examples' ids: tiny real runs, each given its id by
# the sequence
my $tiny = q{duration => '300ms', file_size => '1MB'};
my %runs = (
	1 => "iobench.run(rw => 'randrw', $tiny)",
	3 => "iobench.run(tablespace => 'fast_ssd', rw => 'randrw', fsync_every => 4, $tiny)",
	42 => "iobench.run(tablespaces => ARRAY['fast_ssd', 'raid1a'], rw => 'randrw', files => 2, $tiny)",
	43 => "iobench.pgiosim('fast_ssd', stall_threshold => '1ms', $tiny)",
	101 => "iobench.run(rw => 'randread', $tiny)",
	102 => "iobench.run(rw => 'randread', $tiny)",
	103 => "iobench.run(rw => 'randread', $tiny)",
	205 => "iobench.run(tablespace => 'fast_ssd', rw => 'randread', $tiny)",
	309 => "iobench.run(tablespace => 'raid1a', rw => 'randread', $tiny)");
foreach my $id (sort { $a <=> $b } keys %runs)
{
	is( $node->safe_psql('postgres', qq{
SELECT pg_catalog.setval('iobench.runs_run_id_seq', $id, false);
SELECT run_id FROM $runs{$id}}), "$id\n$id", "fixture: run $id");
}

# Suites 3 and 7, fleets 1 and 7, search 5: their runs after run 1000
$node->safe_psql('postgres', q{SELECT pg_catalog.setval('iobench.runs_run_id_seq', 1000)});
foreach my $id (3, 7)
{
	is( $node->safe_psql('postgres', qq{
SELECT pg_catalog.setval('iobench.suites_suite_id_seq', $id, false);
SELECT DISTINCT suite_id FROM iobench.suite('oltp', ARRAY['pg_default', 'fast_ssd'], $tiny)}),
		"$id\n$id", "fixture: suite $id");
}
foreach my $id (1, 7)
{
	is( $node->safe_psql('postgres', qq{
SELECT pg_catalog.setval('iobench.fleets_fleet_id_seq', $id, false);
SELECT DISTINCT fleet_id || ' ' || status FROM iobench.fleet_run(ARRAY['db1', 'db2'],
    '{"rw": "randread", "duration": "300ms", "file_size": "1MB"}', start_delay => '1s')}),
		"$id\n$id completed", "fixture: fleet $id");
}
is( $node->safe_psql('postgres', q{
SELECT pg_catalog.setval('iobench.searches_search_id_seq', 5, false);
SELECT DISTINCT search_id FROM iobench.latency_search(latency_target => '10s', max_iodepth => 2,
    step_duration => '300ms', file_size => '1MB')}), "5\n5", 'fixture: search 5');

# server_vs_disk()'s runs, which the guide's io_method comparison compares
# (16 MB: on 17 and later engine 'postgres' refuses a relation too small to
# be read cold in io_combine_limit's blocks; its runs may be stored
# 'invalid', with a WARNING, which does not matter here)
ok( $node->safe_psql('postgres', q{
SELECT count(*) FROM iobench.server_vs_disk('fast_ssd', concurrencies => '{1}', duration => '300ms',
    file_size => '16MB', label => 'worker')}) > 0,
	'fixture: server_vs_disk() runs');

# Objects made just before the first example that names them: the
# reference's snapshot "after batch", compared with its "before batch" (taken
# by an example after its reset_waits() example: a diff across a reset is
# refused), so it is taken when first named, after both
my @just_before = (
	[ qr/'after batch'/ => q{
SELECT iobench.snapshot_waits('after batch')
 WHERE NOT EXISTS (SELECT FROM iobench.wait_snapshots WHERE snapshot_name = 'after batch')} ]);

# The files the import examples read
copy("$top/data/fio_randread.json", "$dir/fio.json") or die "could not copy fio.json: $!";
$node->safe_psql('postgres', "COPY (SELECT iobench.export_runs()) TO '$dir/runs.json'");

# Examples that cannot run here, by a pattern of their text: the reason
my %listed = (
	qr/cron\./ => $have_cron ? undef
	  : "pg_cron is not installed in $pkglibdir (Debian: postgresql-N-cron)",
	qr/^CREATE EXTENSION pg_cron/ => $have_cron ? undef
	  : "pg_cron is not installed in $pkglibdir (Debian: postgresql-N-cron)",
	qr/ALTER SYSTEM SET io_method/ => $version >= 180000 ? undef
	  : 'io_method is a setting of PostgreSQL 18 and later',
	qr/io_combine_limit = \.\.\./ =>
	  'a template: "..." stands for the value tune_tablespace() recommends',
);
my %listed_used;

# and undone just after: the guide's nightly pg_cron job would start an hour
# of pgiosim if the test ran at 02:00
my @just_after = (
	[ qr/cron\.schedule\('nightly burn-in'/ => q{SELECT cron.unschedule('nightly burn-in')} ]);

foreach my $ex (@examples)
{
	my $where = "$ex->{file}:$ex->{line}";
	my $sql = $ex->{sql};
	my ($reason) = grep { $sql =~ $_ && defined $listed{$_} } keys %listed;
	if (defined $reason)
	{
		$listed_used{$reason} = 1;
		note("$where: not run: $listed{$reason}");
		next;
	}
	$listed_used{$_} = 1 foreach grep { $sql =~ $_ } keys %listed;

	# the stated rewrites
	$sql =~ s{'/tmp/}{'$dir/}g;
	$sql =~ s{LOCATION '/srv/(\w+)/pg'}{
		mkdir "$dir/$1" or die "could not create $dir/$1: $!";
		"LOCATION '$dir/$1'"}e;

	foreach my $fixture (@just_before)
	{
		$node->safe_psql('postgres', $fixture->[1]) if $sql =~ $fixture->[0];
	}

	my $db = 'postgres';
	my $how = 'ran';
	if ($sql =~ /^\s*CREATE EXTENSION (\w+)\s*;/
		&& $node->safe_psql('postgres',
			"SELECT count(*) FROM pg_catalog.pg_extension WHERE extname = '$1'") eq '1')
	{
		$node->safe_psql('postgres', 'DROP DATABASE IF EXISTS doc_new; CREATE DATABASE doc_new');
		$db = 'doc_new';
		$how = 'ran in a new database';
	}
	elsif (($sql =~ s/\$\$.*?\$\$//gsr) =~ $measuring && $sql !~ /^\s*(?:GRANT|REVOKE)\b/)
	{
		die "$where: an example that measures is not a query EXPLAIN takes: $sql\n"
		  unless $sql =~ /^\s*(?:SELECT|WITH)\b/;
		$sql = "EXPLAIN $sql";
		$how = 'resolved under EXPLAIN';
	}
	my ($ret, $stdout, $stderr) = $node->psql($db, $sql, on_error_stop => 1);
	ok($ret == 0 && $stderr !~ /ERROR:/, "$where: $how")
	  or diag("$where: $ex->{sql}\n$stderr");

	# a query given as a $$-quoted string (cron.schedule()'s command)
	# resolves too
	while ($sql =~ /\$\$\s*((?:SELECT|WITH)\b.*?)\$\$/gs)
	{
		($ret, $stdout, $stderr) = $node->psql('postgres', "EXPLAIN $1", on_error_stop => 1);
		ok($ret == 0 && $stderr !~ /ERROR:/, "$where: its \$\$-quoted query resolved under EXPLAIN")
		  or diag("$where: $1\n$stderr");
	}

	foreach my $fixture (@just_after)
	{
		$node->safe_psql('postgres', $fixture->[1]) if $sql =~ $fixture->[0];
	}
}
foreach my $pattern (grep { defined $listed{$_} } keys %listed)
{
	ok($listed_used{$pattern}, "listed example still in the docs: $listed{$pattern}");
}

# What the settings examples changed
$node->safe_psql('postgres', 'ALTER SYSTEM RESET ALL; SELECT pg_catalog.pg_reload_conf()');
$node->stop;
done_testing();
