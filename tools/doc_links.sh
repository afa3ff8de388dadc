#!/usr/bin/env bash
# tools/doc_links.sh — check the local links of the documentation.
#
# Reads README.md, CONTRIBUTING.md, CHANGELOG.md and every *.md under doc/
# and bench/, and checks each Markdown link that is not a URL: the file it
# names exists (relative to the linking file), and its #anchor, if any, is a
# heading of that file (or of the linking file, for a bare #anchor), with
# anchors made as GitHub makes them: lower case, punctuation other than "-"
# and "_" dropped, spaces as "-", a repeated heading suffixed -1, -2, ...
# Links inside fenced code blocks and `code spans` are not links.
#
# Links into doc/reference.md are listed apart and do not fail the check
# while that file does not exist (it is written by another change); once it
# exists they are checked as any other.
#
#   tools/doc_links.sh          # prints each broken link; exit 1 if any
#   tools/doc_links.sh -v       # also every link checked
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
verbose=0
[ "${1:-}" = "-v" ] && verbose=1

files=(README.md CONTRIBUTING.md CHANGELOG.md)
while IFS= read -r f; do files+=("$f"); done < <(find doc bench -name '*.md' | sort)

exec perl -CSD -Mutf8 -e '
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

my ($verbose, @files) = @ARGV;
my %anchors;    # file => { anchor => 1 }

# The anchors of a Markdown file, as GitHub makes them from its headings.
sub anchors_of
{
	my ($file) = @_;
	return $anchors{$file} if $anchors{$file};
	my %seen;
	my %set;
	open my $fh, "<:encoding(UTF-8)", $file or return $anchors{$file} = {};
	my $fence = 0;
	while (my $line = <$fh>)
	{
		if ($line =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
		next if $fence;
		next unless $line =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
		my $a = lc $1;
		$a =~ s/[^\w\- ]//g;
		$a =~ s/ /-/g;
		my $n = $seen{$a}++;
		$set{$n ? "$a-$n" : $a} = 1;
	}
	return $anchors{$file} = \%set;
}

# Normalise a path: drop "." and resolve ".." textually.
sub norm
{
	my @out;
	for my $p (split m{/}, $_[0])
	{
		next if $p eq "." || $p eq "";
		if ($p eq "..") { pop @out; next; }
		push @out, $p;
	}
	return join "/", @out;
}

my ($broken, $checked, @deferred) = (0, 0);
my $have_reference = -f "doc/reference.md";
for my $file (@files)
{
	open my $fh, "<:encoding(UTF-8)", $file or die "$file: $!\n";
	my $fence = 0;
	while (my $line = <$fh>)
	{
		if ($line =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
		next if $fence;
		(my $text = $line) =~ s/`[^`]*`//g;
		while ($text =~ /\]\(([^)\s]+)\)/g)
		{
			my $target = $1;
			next if $target =~ m{^[a-z]+:}i;    # http:, https:, mailto:
			my ($path, $anchor) = split /#/, $target, 2;
			my $dest = $path eq "" ? $file : norm(dirname($file) . "/" . $path);
			my $where = "$file:$.: ($target)";
			if ($dest eq "doc/reference.md" && !$have_reference)
			{
				push @deferred, $where;
				next;
			}
			$checked++;
			my $problem;
			if (!-e $dest) { $problem = "no file $dest"; }
			elsif (defined $anchor && $anchor ne "")
			{
				$problem = "no heading for #$anchor in $dest"
				  if !-f $dest || !anchors_of($dest)->{$anchor};
			}
			if ($problem) { print "broken: $where $problem\n"; $broken++; }
			elsif ($verbose) { print "ok: $where\n"; }
		}
	}
}
if (@deferred)
{
	printf "not checked: %d links into doc/reference.md, which does not exist here:\n", scalar @deferred;
	print "  $_\n" for @deferred;
}
printf "doc_links: %d links checked, %d broken\n", $checked, $broken;
exit($broken ? 1 : 0);
' "$verbose" "${files[@]}"
