# doc/reference.md, checked against the catalog: every function (each
# overload), table, view and setting of iobench has a section there, under
# the heading "### iobench.<name>" (a setting whose name a table also has:
# "### iobench.<name> (setting)"); every such heading names an object that
# exists; and each function's "Signature:" lines are exactly its overloads'
# argument lists as pg_get_function_identity_arguments() gives them.  So
# the reference cannot drift from what CREATE EXTENSION installs.
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

done_testing();
