#!/usr/bin/env perl
# reference_skeleton.pl — print the mechanical part of doc/reference.md
# from the catalog of a database that has iobench installed: a section per
# function (overloads together), table, view and setting of schema iobench,
# with its description, signatures, arguments (type, default; range and
# meaning taken from doc/iobench.md's parameter tables where it has one),
# result columns, who may use it and the release that added it (0.1 when
# sql/iobench--0.1.sql has it).  Examples, units and ranges of the rest are
# written by hand in doc/reference.md; t/060_reference.pl checks that the
# two agree on which objects exist and on every signature.
#
#   tools/reference_skeleton.pl [psql connection options] > /tmp/skeleton.md
use strict;
use warnings;
use FindBin;

my $top = "$FindBin::RealBin/..";

# Rows of a query, each an array of its fields (psql unaligned, \x1f and \x1e)
sub query
{
	my ($sql) = @_;
	open my $ph, '-|', 'psql', '-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1',
	  '-F', "\x1f", '-R', "\x1e", @ARGV, '-c', $sql
	  or die "could not run psql: $!";
	local $/;
	my $out = <$ph>;
	close $ph or die "psql failed\n";
	$out =~ s/\n$//;
	return map { [ split /\x1f/, $_, -1 ] } grep { length } split /\x1e/, $out;
}

# The contents of a file of the checkout
sub slurp
{
	my ($name) = @_;
	open my $fh, '<', "$top/$name" or die "could not open $top/$name: $!";
	local $/;
	return scalar <$fh>;
}

# Split an argument list at its top-level commas
sub split_args
{
	my ($s) = @_;
	my @parts;
	my ($cur, $depth, $quote) = ("", 0, 0);
	for my $c (split //, $s)
	{
		$quote = !$quote if $c eq "'";
		$depth++ if !$quote && ($c eq '(' || $c eq '[');
		$depth-- if !$quote && ($c eq ')' || $c eq ']');
		if ($c eq ',' && !$quote && $depth == 0) { push @parts, $cur; $cur = ''; next; }
		$cur .= $c;
	}
	push @parts, $cur if $cur =~ /\S/;
	s/^\s+|\s+$//g for @parts;
	return @parts;
}

# Escape a table cell
sub cell { my ($s) = @_; $s //= ''; $s =~ s/\|/\\|/g; $s =~ s/\n/ /g; return $s; }

my $release01 = slurp('sql/iobench--0.1.sql');
my %in01;
$in01{$1} = 1 while $release01 =~ /CREATE (?:OR REPLACE )?(?:FUNCTION|TABLE|VIEW) iobench\.(\w+)/g;

# Parameter tables of doc/iobench.md: for each function named in a
# heading, the first table whose header starts with "| parameter"
my %params;
{
	my ($fn, $table);
	for my $line (split /\n/, slurp('doc/iobench.md'))
	{
		if ($line =~ /^#+ .*`iobench\.(\w+)\(\)`/) { $fn = $1; $table = undef; next; }
		if ($line =~ /^#/) { $fn = undef; next; }
		next unless $fn && !$params{$fn};
		if ($line =~ /^\| parameter \|(.*)\|\s*$/) { $table = [ map { s/^\s+|\s+$//gr } split /\|/, $1 ]; next; }
		if ($table && $line =~ /^\| ((?:`\w+`(?:, )?)+) \|(.*)\|\s*$/)
		{
			my ($names, $rest) = ($1, $2);
			my @c = map { s/^\s+|\s+$//gr } split /(?<!\\)\|/, $rest;
			my %row; @row{@$table} = @c;
			$params{"$fn.$_"} = { range => $row{'range / values'} // $row{range} // '', meaning => $row{meaning} // '' }
			  for $names =~ /`(\w+)`/g;
		}
		elsif ($table && $line !~ /^\|/) { $params{$fn} = 1; $table = undef; }
	}
}

my $grantees = q{CASE WHEN %1$s IS NULL THEN 'PUBLIC' ELSE coalesce((
    SELECT string_agg(DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END, ', ')
      FROM aclexplode(%1$s) a WHERE a.privilege_type = '%2$s' AND a.grantee <> %3$s), '') END};

print "## Functions\n\n";
my @funcs = query(sprintf(q{
SELECT p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_arguments(p.oid),
       pg_get_function_result(p.oid), coalesce(obj_description(p.oid, 'pg_proc'), ''), %s,
       coalesce((SELECT string_agg(format('%%s|%%s', a.attname, format_type(a.atttypid, a.atttypmod)), ';' ORDER BY a.attnum)
                   FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped
                  WHERE t.oid = p.prorettype AND t.typtype = 'c' AND t.typrelid <> 'iobench.runs'::regclass), '')
  FROM pg_proc p WHERE p.pronamespace = 'iobench'::regnamespace
 ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)},
	sprintf($grantees, 'p.proacl', 'EXECUTE', 'p.proowner')));
my %byname;
push @{ $byname{ $_->[0] } }, $_ for @funcs;
for my $name (sort keys %byname)
{
	my @o = @{ $byname{$name} };
	print "### iobench.$name\n\n";
	my %seen;
	print join('', map { "$_\n\n" } grep { length && !$seen{$_}++ } map { ucfirst $_->[4] } @o);
	printf "Added in %s. EXECUTE: %s.\n\n", $in01{$name} ? '0.1' : '0.2', $o[0][5] || 'the owner only';
	for my $f (@o)
	{
		my ($ident, $args, $result, $cols) = @$f[ 1, 2, 3, 6 ];
		print "Signature: `iobench.$name($ident)`\n\n";
		my @in = grep { !/^(OUT|TABLE)\b/ } split_args($args);
		if (@in)
		{
			print "| argument | type | default | range, unit | meaning |\n|---|---|---|---|---|\n";
			for my $a (@in)
			{
				my ($n, $rest) = $a =~ /^(?:IN\s+|VARIADIC\s+)?(\w+)\s+(.*)$/ or next;
				my ($type, $def) = split / DEFAULT /, $rest, 2;
				my $p = $params{"$name.$n"} // {};
				printf "| `%s` | %s | %s | %s | %s |\n", $n, cell($type),
				  defined $def ? '`' . cell($def) . '`' : '', cell($p->{range}), cell($p->{meaning});
			}
			print "\n";
		}
		# result columns: TABLE, the composite type's, or OUT arguments
		# (names unquoted, as the catalog has them); the meanings are
		# written by hand, and t/060_reference.pl fails while one is empty
		my @out = map { /^OUT\s+(.*)$/ ? ($1) : () } split_args($args);
		if ($result =~ /^TABLE\((.*)\)$/s || length $cols || @out)
		{
			my @c = length $cols ? map { [ split /\|/ ] } split /;/, $cols
			  : map { [ /^(\S+)\s+(.*)$/ ] } ($result =~ /^TABLE\((.*)\)$/s ? split_args($1) : @out);
			$_->[0] =~ s/^"(.*)"$/$1/ for @c;
			print "Returns ", ($result =~ /^SETOF/ ? "rows ($result)" : $result eq 'record' ? 'a row' : 'rows'),
			  ":\n\n| column | type | meaning |\n|---|---|---|\n";
			printf "| `%s` | %s |  |\n", $_->[0], cell($_->[1]) for @c;
			print "\n";
		}
		else { print "Returns `$result`.\n\n"; }
	}
}

print "## Tables and views\n\n";
for my $r (query(sprintf(q{
SELECT c.relname, CASE c.relkind WHEN 'v' THEN 'view' ELSE 'table' END,
       coalesce(obj_description(c.oid, 'pg_class'), ''), %s,
       (SELECT string_agg(format('%%s|%%s|%%s', a.attname, format_type(a.atttypid, a.atttypmod),
                                 coalesce(col_description(c.oid, a.attnum), '')), chr(2) ORDER BY a.attnum)
          FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)
  FROM pg_class c WHERE c.relnamespace = 'iobench'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
 ORDER BY c.relname}, sprintf($grantees, 'c.relacl', 'SELECT', 'c.relowner'))))
{
	my ($name, $kind, $descr, $who, $cols) = @$r;
	print "### iobench.$name\n\n", ucfirst($descr), " ($kind)\n\n";
	printf "Added in %s. SELECT: %s.\n\n", $in01{$name} ? '0.1' : '0.2', $who || 'the owner only';
	print "| column | type | meaning |\n|---|---|---|\n";
	printf "| `%s` | %s | %s |\n", map { cell($_) } split /\|/, $_, 3 for split /\x02/, $cols;
	print "\n";
}

print "## Settings\n\n";
for my $g (query(q{
SELECT name, vartype, coalesce(unit, ''), boot_val, coalesce(min_val, ''), coalesce(max_val, ''),
       context, short_desc, coalesce(array_to_string(enumvals, ', '), '')
  FROM pg_settings WHERE name LIKE 'iobench.%' ORDER BY name}))
{
	my ($name, $type, $unit, $boot, $min, $max, $context, $descr, $enum) = @$g;
	print "### $name\n\n$descr\n\n";
	printf "Type %s%s, default `%s`%s. Set by: %s.\n\n", $type, $unit ? " (unit $unit)" : '', $boot,
	  length $enum ? ", one of $enum" : length $min ? ", from $min to $max" : '',
	  { user => 'anyone (SET)', superuser => 'a superuser (SET, ALTER SYSTEM, postgresql.conf)',
		postmaster => 'postgresql.conf, at server start' }->{$context} // $context;
}
