# The upgrade window: this library with a database whose extension is still
# a released older version (README's order: install the new version, then
# ALTER EXTENSION iobench UPDATE).  For each release, every function of that
# version that is LANGUAGE C or reaches C code (through the SQL and PL/pgSQL
# functions that call it, found in pg_proc), and every view that does, is
# called with small arguments.  Each call either succeeds or fails with the
# error that says the library and the database's extension differ; none
# reads arguments its SQL definition did not pass, and the server never
# restarts.  After ALTER EXTENSION iobench UPDATE a run works.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('old_sql');
$node->init;
if (defined $ENV{IOBENCH_REGRESS_CONF})
{
	$node->append_conf('postgresql.conf', slurp_file($ENV{IOBENCH_REGRESS_CONF}));
}
else
{
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'iobench'\nmax_worker_processes = 32\n");
}
$node->start;

my $library = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'iobench'});
my $started = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

# Small values for arguments of these names, passed even when they have a
# default: tiny durations, small files, one worker
my %by_name = (
	duration      => q{'100ms'},
	step_duration => q{'100ms'},
	warmup        => q{'0s'},
	file_size     => q{'1MB'},
	workers       => '1',
	files         => '1',
	max_iodepth   => '2',
	max_workers   => '1',
	repeat        => '1',
	wait_s        => '0.01',
	name          => q{'oltp'},
	snapshot_name => q{'s1'},
	from_snapshot => q{'s1'});

# A value for an argument without a default that %by_name does not know
sub value_of_type
{
	my ($type) = @_;
	return q{'pg_default'} if $type eq 'name';
	return q{ARRAY['pg_default']::name[]} if $type eq 'name[]';
	return q{'100ms'::interval} if $type eq 'interval';
	return '1' if $type eq 'integer';
	return q{'pg_catalog.now()'::regprocedure} if $type eq 'regprocedure';
	return "NULL::$type";
}

# The functions of the extension that are LANGUAGE C or call one that
# reaches C (by name, in their definition: a body in BEGIN ATOMIC has no
# prosrc)
my $reach = q{
	WITH RECURSIVE fn AS (
		SELECT p.oid, p.proname, p.prolang, pg_get_functiondef(p.oid) AS def
		  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
		 WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
		   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')),
	reach AS (
		SELECT fn.oid, fn.proname FROM fn
		 WHERE fn.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
		UNION
		SELECT f.oid, f.proname FROM fn f JOIN reach r ON f.def ~ ('\m' || r.proname || '\s*\('))
};

# Those functions with their input arguments, one a line: "schema.name",
# how many have no default, their names, their types
my $functions_reaching_c = $reach . q{
	SELECT p.pronamespace::regnamespace || '.' || p.proname || '|'
	       || p.pronargs - p.pronargdefaults || '|'
	       || coalesce((SELECT string_agg(coalesce(n, ''), ',' ORDER BY i)
	                      FROM unnest(p.proargnames, p.proargmodes) WITH ORDINALITY AS a(n, m, i)
	                     WHERE a.m IS NULL OR a.m IN ('i', 'b')), '') || '|'
	       || coalesce((SELECT string_agg(format_type(t, NULL), ';' ORDER BY i)
	                      FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, i)), '')
	  FROM pg_proc p WHERE p.oid IN (SELECT oid FROM reach)
	 ORDER BY p.proname, p.oid};

# The extension's views whose query calls one of them
my $views_reaching_c = $reach . q{
	SELECT c.oid::regclass FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
	 WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'v'
	   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
	   AND EXISTS (SELECT FROM pg_rewrite w
	                 JOIN pg_depend x ON x.classid = 'pg_rewrite'::regclass AND x.objid = w.oid
	                WHERE w.ev_class = c.oid AND x.refclassid = 'pg_proc'::regclass
	                  AND x.refobjid IN (SELECT oid FROM reach))
	 ORDER BY 1};

# The call of one function with small arguments
sub call_of
{
	my ($row) = @_;
	my ($fn, $required, $names, $types) = split /\|/, $row, 4;
	my @names = split /,/, $names, -1;
	my @types = split /;/, $types;
	my @args;
	for my $i (0 .. $#types)
	{
		my $n = $names[$i] // '';
		if ($n ne '' && exists $by_name{$n})
		{
			push @args, "$n => $by_name{$n}";
		}
		elsif ($i < $required)
		{
			push @args, ($n ne '' ? "$n => " : '') . value_of_type($types[$i]);
		}
	}
	return "SELECT count(*) FROM $fn(" . join(', ', @args) . ')';
}

for my $version ('0.1', '0.2')
{
	my $db = 'v' . ($version =~ s/\.//r);
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION iobench VERSION '$version'");

	my @functions = split /\n/, $node->safe_psql($db, $functions_reaching_c);
	my @views = split /\n/, $node->safe_psql($db, $views_reaching_c);
	ok(scalar(grep { /^iobench\.(run|suite|pgiosim)\|/ } @functions) == 3,
		"$version: the functions reaching C include run(), pgiosim() and suite()")
	  or diag(join("\n", @functions));

	my (%checked, %outcome);
	my @calls = ((map { [ (split /\|/)[0], call_of($_) ] } @functions),
		(map { [ $_, "SELECT count(*) FROM $_" ] } @views));
	for my $call (@calls)
	{
		my ($what, $sql) = @$call;
		my ($ret, $out, $err) = $node->psql($db, $sql, timeout => 120);
		# an error of the library's check, or one the old PL/pgSQL raised
		# itself (its own argument checks, before any C code)
		ok( $ret == 0
			  || $err =~ /ERROR:  iobench's library is \Q$library\E but this database's extension is \Q$version\E\n(.*\n)*?HINT:  Run ALTER EXTENSION iobench UPDATE\./
			  || $err =~ /\nCONTEXT:  PL\/pgSQL function [^\n]* at RAISE(\n|$)/,
			"$version: $sql: succeeds or says to update")
		  or diag("returned $ret: $err");
		$outcome{$what} = $ret == 0 ? 'succeeded' : $err =~ /iobench's library is/ ? 'refused' : 'raised';
		$checked{ $outcome{$what} }++;
	}
	note("$version: " . join(', ', map { "$_ $checked{$_}" } sort keys %checked));
	is(join(' ', map { $outcome{"iobench.$_"} // 'not called' } qw(run pgiosim suite)),
		'refused refused refused', "$version: run(), pgiosim() and suite() are refused");

	# the server is still the one started above
	is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'),
		$started, "$version: the server did not restart");
	ok(!$node->log_contains(qr/terminated by signal/),
		"$version: no process was terminated by a signal");

	# after the update, a run works
	$node->safe_psql($db, 'ALTER EXTENSION iobench UPDATE');
	is( $node->safe_psql($db,
			q{SELECT status FROM iobench.run(duration => '100ms', file_size => '1MB')}),
		'completed', "$version: after ALTER EXTENSION iobench UPDATE, run() works");
}

$node->stop('fast');
done_testing();
