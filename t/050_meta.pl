# META.json, iobench's PGXN metadata (meta spec 1.0.0), cannot go stale:
# its version and the version it provides for the extension iobench are
# iobench.control's default_version (as a semantic version: 0.2 is 0.2.0),
# and the fields PGXN requires are there, with files that exist.
use strict;
use warnings;

use FindBin;
use JSON::PP;
use Test::More;

my $top = "$FindBin::RealBin/..";

# The content of a file of the checkout.
sub slurp
{
	my ($name) = @_;
	open my $fh, '<', "$top/$name" or die "could not open $top/$name: $!";
	local $/;
	return scalar <$fh>;
}

my $control = slurp('iobench.control');
my ($default) = $control =~ /^default_version\s*=\s*'([^']+)'\s*$/m;
ok(defined $default, "iobench.control has a default_version");

# PGXN versions are semantic versions: 0.2 is 0.2.0
my $semver = $default;
$semver .= '.0' while ($semver =~ tr/.//) < 2;

my $meta = JSON::PP->new->relaxed(0)->decode(slurp('META.json'));

is($meta->{'meta-spec'}{version}, '1.0.0', 'META.json follows PGXN meta spec 1.0.0');
is($meta->{name}, 'iobench', 'the distribution is iobench');
is($meta->{version}, $semver,
	"META.json's version is iobench.control's default_version $default");
ok(exists $meta->{provides}{iobench}, 'META.json provides the extension iobench');
is($meta->{provides}{iobench}{version}, $semver,
	"the version it provides for iobench is default_version $default");
for my $key (qw(abstract maintainer license provides))
{
	ok(defined $meta->{$key} && $meta->{$key} ne '', "META.json has \"$key\", which PGXN requires");
}
for my $key (qw(file docfile))
{
	my $file = $meta->{provides}{iobench}{$key};
	ok(defined $file && -f "$top/$file", "provides.iobench.$key names a file of the checkout");
}
# The licence: the PostgreSQL License, said the same way in LICENSE,
# META.json and the machine-readable debian/copyright (DEP-5).
is($meta->{license}, 'postgresql', 'META.json says the PostgreSQL License (PGXN\'s "postgresql")');
like(slurp('LICENSE'), qr/PostgreSQL License.*Copyright \(c\) \d{4}, the iobench developers.*Permission to use, copy, modify, and distribute/s,
	'LICENSE holds the PostgreSQL License text naming the iobench developers');
my $copyright = slurp('debian/copyright');
like($copyright, qr{^Format: https://www\.debian\.org/doc/packaging-manuals/copyright-format/1\.0/}m,
	'debian/copyright is machine-readable (DEP-5)');
like($copyright, qr/^Files: \*\nCopyright: .*the iobench developers\nLicense: PostgreSQL$/m,
	'debian/copyright puts every file under the PostgreSQL License');
my @sources = map { s{^\Q$top/\E}{}r } glob("$top/src/*.[ch] $top/sql/install/*/*.sql");
ok(@sources > 40, 'the sources are found (' . scalar(@sources) . ' files)');
is(join(', ', grep { slurp($_) =~ /\b(GPL|General Public License|Apache License|MIT License)\b/ } @sources),
	'', 'no source file claims another licence');
like($meta->{release_status}, qr/^(stable|testing|unstable)$/, 'release_status is one PGXN knows');
is($meta->{prereqs}{runtime}{requires}{PostgreSQL}, '15.0.0',
	'it requires PostgreSQL 15 or later, the oldest release iobench builds on');

done_testing();
