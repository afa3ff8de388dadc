# doc/reference.md, checked against the catalog: every function (each
# overload), table, view and setting of iobench has a section there, under
# the heading "### iobench.<name>" (a setting whose name a table also has:
# "### iobench.<name> (setting)"); every such heading names an object that
# exists; and each function's "Signature:" lines are exactly its overloads'
# argument lists as pg_get_function_identity_arguments() gives them.  The
# column tables ("| column | type | meaning |") too: a table's or view's
# lists exactly its columns in order with their types (format_type), and a
# function that returns rows or a record of columns has, after its overloads'
# Signature lines, a table listing exactly its result columns (OUT and TABLE
# arguments, or the attributes of the composite type it returns) unless it
# returns rows of a table or view of iobench, named by a link; no meaning
# cell is empty.  So the reference cannot drift from what CREATE EXTENSION
# installs.
use strict;
use warnings;

use FindBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
my $reference = 'doc/reference.md';

# Sections of the reference: heading => the lines under it
my (%sections, @order, $current);
open my $fh, '<', "$top/$reference" or die "could not open $top/$reference: $!";
while (my $line = <$fh>)
{
	chomp $line;
	if ($line =~ /^#{1,3} /)
	{
		$current = $line =~ /^### (iobench\.\w+(?: \(setting\))?)\s*$/ ? $1 : undef;
		if (defined $current)
		{
			die "$reference has two sections \"$current\"\n" if $sections{$current};
			$sections{$current} = [];
			push @order, $current;
		}
		elsif ($line =~ /^### /)
		{
			push @order, "unparsed heading: $line";
		}
		next;
	}
	push @{ $sections{$current} }, $line if defined $current;
}
close $fh;

# iobench preloaded, so that every setting is defined
my $node = PostgreSQL::Test::Cluster->new('reference');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'iobench'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION iobench');

# The user-facing objects, from the catalog
my %signatures;
for my $row (split /\n/, $node->safe_psql('postgres', q{
	SELECT p.proname || E'\t' || pg_get_function_identity_arguments(p.oid)
	  FROM pg_proc p WHERE p.pronamespace = 'iobench'::regnamespace}))
{
	my ($name, $args) = split /\t/, $row, 2;
	$signatures{$name}{"iobench.$name($args)"} = 1;
}
my %relations = map { $_ => 1 } split /\n/, $node->safe_psql('postgres', q{
	SELECT c.relname FROM pg_class c
	 WHERE c.relnamespace = 'iobench'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')});
my %settings = map { s/^iobench\.//r => 1 } split /\n/, $node->safe_psql('postgres', q{
	SELECT name FROM pg_settings WHERE name LIKE 'iobench.%'});

# Columns of each relation and of each function result, "name\ttype" in
# order: a relation's attributes; a function's OUT, INOUT and TABLE
# arguments, else the attributes of the composite type it returns
my (%relation_columns, %result_columns, %result_relation);
for my $row (split /\n/, $node->safe_psql('postgres', q{
	SELECT c.relname || E'\t' || a.attname || E'\t' || format_type(a.atttypid, a.atttypmod)
	  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
	 WHERE c.relnamespace = 'iobench'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
	   AND a.attnum > 0 AND NOT a.attisdropped
	 ORDER BY c.relname, a.attnum}))
{
	my ($rel, $col, $type) = split /\t/, $row, 3;
	push @{ $relation_columns{$rel} }, "$col\t$type";
}
for my $row (split /\n/, $node->safe_psql('postgres', q{
	SELECT 'iobench.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
	       || E'\t' || CASE WHEN args.list IS NULL AND r.relnamespace = 'iobench'::regnamespace
	                              AND r.relkind <> 'c' THEN r.relname ELSE '' END
	       || E'\t' || coalesce(args.list, attrs.list)
	  FROM pg_proc p
	  JOIN pg_type t ON t.oid = p.prorettype
	  LEFT JOIN pg_class r ON r.oid = t.typrelid
	  LEFT JOIN LATERAL (
		SELECT string_agg(a.name || E'\x1f' || format_type(a.type, NULL), E'\x1e' ORDER BY a.n) AS list
		  FROM unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY AS a(type, mode, name, n)
		 WHERE a.mode IN ('o', 'b', 't')) args ON true
	  LEFT JOIN LATERAL (
		-- typmods kept: numeric(16,2)
		SELECT string_agg(a.attname || E'\x1f' || format_type(a.atttypid, a.atttypmod), E'\x1e' ORDER BY a.attnum) AS list
		  FROM pg_attribute a
		 WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped) attrs ON true
	 WHERE p.pronamespace = 'iobench'::regnamespace
	   AND (args.list IS NOT NULL OR t.typrelid <> 0)}))
{
	my ($sig, $rel, $list) = split /\t/, $row, 3;
	$result_columns{$sig} = [ map { s/\x1f/\t/r } split /\x1e/, $list ];
	# rows of a table or view of iobench: a link to its section may stand
	# for the list
	$result_relation{$sig} = $rel if $rel ne '';
}
$node->stop;

cmp_ok(scalar keys %signatures, '>=', 40, 'the catalog lists the functions of schema iobench');
cmp_ok(scalar keys %relations, '>=', 20, 'and its tables and views');
cmp_ok(scalar keys %settings, '>=', 8, 'and the settings iobench.*');

# The heading that documents an object
sub heading_of
{
	my ($kind, $name) = @_;
	return "iobench.$name (setting)"
	  if $kind eq 'setting' && ($signatures{$name} || $relations{$name} || $sections{"iobench.$name (setting)"});
	return "iobench.$name";
}

my @undocumented;
push @undocumented, map { "function iobench.$_" } grep { !$sections{ heading_of('function', $_) } } sort keys %signatures;
push @undocumented, map { "relation iobench.$_" } grep { !$sections{ heading_of('relation', $_) } } sort keys %relations;
push @undocumented, map { "setting iobench.$_" } grep { !$sections{ heading_of('setting', $_) } } sort keys %settings;
is(join(', ', @undocumented), '', "every user-facing object has a section in $reference");

my %documents = map { heading_of('function', $_) => 1 } keys %signatures;
$documents{ heading_of('relation', $_) } = 1 for keys %relations;
$documents{ heading_of('setting', $_) } = 1 for keys %settings;
is(join(', ', grep { !$documents{$_} } @order), '', "every section of $reference documents an object that exists");

# Signatures: each function's section lists exactly its overloads
my @wrong;
for my $heading (grep { /^iobench\.\w+$/ } @order)
{
	my ($name) = $heading =~ /^iobench\.(\w+)$/;
	my %documented;
	for my $line (@{ $sections{$heading} })
	{
		next unless $line =~ /^Signature: `(.*)`\s*$/;
		my $sig = $1;
		push @wrong, "\"$sig\" is under the heading $heading" unless $sig =~ /^iobench\.$name\(/;
		$documented{$sig} = 1;
	}
	next unless $signatures{$name};
	push @wrong, map { "no Signature line for $_" } grep { !$documented{$_} } sort keys %{ $signatures{$name} };
	push @wrong, map { "documented signature $_ does not exist" } grep { !$signatures{$name}{$_} } sort keys %documented;
}
is(join("\n", @wrong), '', "every function's signatures in $reference are its argument lists in the catalog");

# Column tables of each section: [ signatures the table is for, rows ], a
# row being [ name, type, meaning ]; a function's table is for the
# Signature lines since the previous table.  Rows of a table that has no
# meaning column have meaning undef.
my (%column_tables, %returns_link);
for my $heading (@order)
{
	next unless $sections{$heading};
	my (@pending, $table);
	for my $line (@{ $sections{$heading} })
	{
		if ($line =~ /^Signature: `(.*)`\s*$/)
		{
			push @pending, $1;
			next;
		}
		if ($line =~ /^Returns (?:a row|rows) of \[`iobench\.(\w+)`\]/)
		{
			$returns_link{$_} = $1 for @pending;
		}
		if ($line =~ /^\| column \| type \|( meaning \|)?\s*$/)
		{
			$table = [ [@pending], [], defined $1 ];
			push @{ $column_tables{$heading} }, $table;
			@pending = ();
			next;
		}
		if ($table && $line =~ /^\|/)
		{
			next if $line =~ /^\|[-|\s]*$/;
			my @cells = map { s/^\s+|\s+$//gr } split /(?<!\\)\|/, $line =~ s/^\|//r, -1;
			pop @cells if @cells && $cells[-1] eq '';
			my ($name, $type, $meaning) = map { $_ // '' } @cells;
			$name =~ s/^`(.*)`$/$1/;
			push @{ $table->[1] }, [ $name, $type, $table->[2] ? ($meaning // '') : undef ];
			next;
		}
		$table = undef;
	}
}

# Compare a documented column table with the catalog's columns: each
# column missing, extra, twice, of another type or out of order is named,
# and each empty meaning
sub compare_columns
{
	my ($what, $rows, $columns, $problems) = @_;
	my (%type, %pos, %seen);
	for my $i (0 .. $#$columns)
	{
		my ($name, $type) = split /\t/, $columns->[$i], 2;
		$type{$name} = $type;
		$pos{$name} = $i;
	}
	my @common;
	for my $row (@$rows)
	{
		my ($name, $type) = @$row;
		if ($seen{$name}++)
		{
			push @$problems, "$what: column \"$name\" is documented twice";
		}
		elsif (!defined $type{$name})
		{
			push @$problems, "$what: documented column \"$name\" is not in the catalog";
		}
		else
		{
			push @$problems, "$what: column \"$name\" is of type $type{$name}, documented as $type"
			  if $type ne $type{$name};
			push @common, $name;
		}
	}
	for my $c (@$columns)
	{
		my ($name, $type) = split /\t/, $c, 2;
		push @$problems, "$what: column \"$name\" ($type) is not documented" unless $seen{$name};
	}
	# the columns both have, in the catalog's order
	for my $i (1 .. $#common)
	{
		next if $pos{ $common[$i] } > $pos{ $common[ $i - 1 ] };
		push @$problems, "$what: column \"$common[$i]\" is documented after \"$common[$i - 1]\", the catalog has it before";
		last;
	}
	for my $row (@$rows)
	{
		push @$problems, "$what: column \"$row->[0]\" has no meaning"
		  if !defined $row->[2] || $row->[2] !~ /\S/;
	}
}

# Tables and views: one column table, the catalog's columns in order
my @column_problems;
for my $rel (sort keys %relations)
{
	my $heading = heading_of('relation', $rel);
	my $tables = $column_tables{$heading} // [];
	if (@$tables != 1)
	{
		push @column_problems, "relation iobench.$rel: " . scalar(@$tables) . " column tables under $heading, not 1";
		next;
	}
	compare_columns("relation iobench.$rel", $tables->[0][1], $relation_columns{$rel}, \@column_problems);
}
is(join("\n", @column_problems), '', "every table's and view's columns in $reference are its columns in the catalog, each with a meaning");

# Functions: each overload's result columns
my @result_problems;
for my $name (sort keys %signatures)
{
	my $heading = heading_of('function', $name);
	my %table_for;
	for my $table (@{ $column_tables{$heading} // [] })
	{
		push @result_problems, "function iobench.$name: a column table that follows no Signature line"
		  unless @{ $table->[0] };
		$table_for{$_} = $table for @{ $table->[0] };
	}
	for my $sig (sort keys %{ $signatures{$name} })
	{
		my $table = $table_for{$sig};
		if (!$result_columns{$sig})
		{
			push @result_problems, "$sig: a column table, though it returns no columns" if $table;
			next;
		}
		if (!$table)
		{
			next if $result_relation{$sig} && ($returns_link{$sig} // '') eq $result_relation{$sig};
			push @result_problems, "$sig: its result columns are not documented"
			  . ($result_relation{$sig} ? " (nor are its rows said to be those of [`iobench.$result_relation{$sig}`])" : '');
			next;
		}
		compare_columns($sig, $table->[1], $result_columns{$sig}, \@result_problems);
	}
}
is(join("\n", @result_problems), '', "every function's result columns in $reference are its result columns in the catalog, each with a meaning");

done_testing();
