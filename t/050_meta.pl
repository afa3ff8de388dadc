# META.json, iobench's PGXN metadata (meta spec 1.0.0), cannot go stale:
# its version and the version it provides for the extension iobench are
# iobench.control's default_version (as a semantic version: 0.2 is 0.2.0),
# and the fields PGXN requires are there, with files that exist.  The
# Debian package's version is the same release.  In a git checkout, the
# PGXN bundle that `make dist` (tools/dist.sh) makes holds what a build and
# its tests need and nothing built or ignored, and its META check names a
# missing field.
use strict;
use warnings;

use File::Temp qw(tempdir);
use FindBin;
use IO::Uncompress::Unzip qw(unzip $UnzipError);
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
my @sources = map { s{^\Q$top/\E}{}r } glob("$top/src/*.[ch] $top/src/*/*.[ch] $top/sql/install/*/*.sql");
ok(@sources > 40, 'the sources are found (' . scalar(@sources) . ' files)');
is(join(', ', grep { slurp($_) =~ /\b(GPL|General Public License|Apache License|MIT License)\b/ } @sources),
	'', 'no source file claims another licence');
like($meta->{release_status}, qr/^(stable|testing|unstable)$/, 'release_status is one PGXN knows');
is($meta->{prereqs}{runtime}{requires}{PostgreSQL}, '15.0.0',
	'it requires PostgreSQL 15 or later, the oldest release iobench builds on');

# The Debian package installs this release: debian/changelog's upstream
# version (without epoch and Debian revision) is default_version.
my ($deb_version) = slurp('debian/changelog') =~ /\A\S+ \(([^)]+)\)/;
my $deb_upstream = ($deb_version // '') =~ s/^\d+://r =~ s/-[^-]+$//r;
is($deb_upstream, $default,
	"debian/changelog's newest entry ($deb_version) packages default_version $default");

# The PGXN bundle, made from the checkout's HEAD (tools/run-tests.sh names
# the checkout in IOBENCH_CHECKOUT: t/.. is a copy of a few files there):
# only in a git checkout, which a copy of the files, as the package and
# release-root tests run on, is not.  The tests run as another user than
# the checkout's owner (as root: "postgres"): git is told that the checkout
# is safe to read.
SKIP:
{
	my $checkout = $ENV{IOBENCH_CHECKOUT} // $top;
	local $ENV{GIT_CONFIG_COUNT} = 1;
	local $ENV{GIT_CONFIG_KEY_0} = 'safe.directory';
	local $ENV{GIT_CONFIG_VALUE_0} = '*';
	skip "$checkout is not a git checkout readable here (or git is missing): the bundle is git archive of HEAD", 13
	  unless system("git -C '$checkout' rev-parse --verify -q HEAD >/dev/null 2>&1") == 0;

	my $dir = tempdir(CLEANUP => 1, TMPDIR => 1);
	my $out = `'$checkout/tools/dist.sh' '$dir' 2>&1`;
	is($?, 0, 'tools/dist.sh makes the bundle') or diag($out);
	my $name = "iobench-$semver";
	my $zip = "$dir/$name.zip";
	ok(-f $zip, "the bundle is $name.zip, named after default_version $default");

	# its members: HEAD's tracked files, under one top directory
	my (@members, $status);
	my $u = IO::Uncompress::Unzip->new($zip) or die "cannot read $zip: $UnzipError";
	for ($status = 1; $status > 0; $status = $u->nextStream)
	{
		push @members, $u->getHeaderInfo->{Name};
	}
	$u->close;
	is(scalar(grep { !m{^\Q$name\E/} } @members), 0, "every member is under $name/");
	my @files = sort map { s{^\Q$name\E/}{}r } grep { !m{/$} } @members;
	my @tracked = sort split /\n/, `git -C '$checkout' ls-tree -r --name-only HEAD`;
	is_deeply(\@files, \@tracked, 'the bundle holds every file of HEAD and nothing else ('
		  . scalar(@files) . ' files)');
	my %in = map { $_ => 1 } @files;
	is(join(', ', grep { !$in{$_} } qw(META.json README.md LICENSE CHANGELOG.md Makefile iobench.control
		  src/base/compat.h src/iobench.c sql/install/upgrade/finish.sql specs/wait_counts.spec
		  test/regress.conf t/050_meta.pl doc/iobench.md doc/reference.md
		  tools/pg_dirs.sh tools/deps.sh tools/sql_limits.sh tools/installcheck_check.sh)),
		'', 'it has the metadata, the licence, the build files, the sources, the tests and the docs');
	ok((grep { m{^sql/iobench--[^-]+\.sql$} } @files) && (grep { m{^sql/install/schema/} } @files),
		'it has the frozen scripts and sql/install/');
	ok((grep { m{^expected/.*\.out$} } @files) >= 20, 'it has the expected outputs');
	open my $list, '>', "$dir/files" or die "cannot write $dir/files: $!";
	print $list map { "$_\n" } @files;
	close $list;
	my $ignored = `git -C '$checkout' check-ignore --no-index --stdin <'$dir/files'`;
	is($ignored, '', 'nothing in it is built or ignored (.gitignore)');

	# its META.json is the one checked above, of this version
	my $bundled;
	unzip($zip => \$bundled, Name => "$name/META.json") or die "cannot unzip META.json: $UnzipError";
	my $bmeta = JSON::PP->new->decode($bundled);
	is($bmeta->{version}, $semver, "the bundle's META.json has version $semver");

	# the META check names what is missing or wrong, and refuses
	my $meta_in = JSON::PP->new->decode(slurp('META.json'));
	delete $meta_in->{license};
	delete $meta_in->{provides}{iobench}{file};
	$meta_in->{version} = $default;
	open my $fh, '>', "$dir/META.json" or die "cannot write $dir/META.json: $!";
	print $fh JSON::PP->new->encode($meta_in);
	close $fh;
	$out = `'$checkout/tools/dist.sh' check-meta '$dir/META.json' '$top/iobench.control' 2>&1`;
	isnt($?, 0, 'a META.json short of required fields fails the check');
	like($out, qr/required field "license" is missing/, 'the check names the missing "license"');
	like($out, qr/required field "provides\.iobench\.file" is missing/,
		'and the provided extension without its file');
	like($out, qr/"version" "\Q$default\E" is not a semantic version/,
		'and a version that is not a semantic version');
}

done_testing();
