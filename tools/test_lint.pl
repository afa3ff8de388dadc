#!/usr/bin/env perl
# test_lint.pl — fail on test checks whose result cannot differ, and on TAP
# test files that share a number.
#
#   tools/test_lint.pl            check the checkout this script is in
#   tools/test_lint.pl DIR        check the checkout at DIR
#
# A check that passes whatever the code does, short of an error, tests
# nothing: "count(*) >= 0" is true of every result a query can return.
# Scanned: the pg_regress tests (sql/*.sql, but the extension's scripts
# sql/iobench--*.sql), the isolation specs (specs/*.spec) and the TAP tests
# (t/*.pl, whose queries are strings).  A statement may span lines: the
# patterns allow any white space, and the line reported is where the match
# begins.  Flagged:
#   count(...) >= 0        a count is never negative
#   <name>_count >= 0      counters (stall_count, wait_count, ...) neither
#   OR <column> >= 0       the tail of "x IS NULL OR x >= 0"-style checks
#                          (also "OR (<column> >= 0 AND ...)")
#   <function>(...) >= 0 AS   a function's result as the whole check
#   <column> >= 0 AS       a column compared with 0 as the whole check
# A check that matches and can fail all the same (a figure the code
# computes and could get negative) says why on the same line, in a comment
# that starts "lint: can fail:" and gives the reason; a marker without a
# reason is itself an error.
#
# TAP tests run in the order of their names and are named by their number
# in the docs and CI's lists: t/NNN_name.pl numbers must be unique.
#
# Exit status 0 when the tree is clean, 1 with one line per finding
# ("file:line: what"), 2 on a usage error.
use strict;
use warnings;

use File::Basename qw(dirname basename);
use File::Spec;

my $top = @ARGV ? shift @ARGV : File::Spec->catdir(dirname(File::Spec->rel2abs($0)), '..');
die "usage: $0 [CHECKOUT]\n" if @ARGV || !-d "$top/sql";

my $NUM = qr/0(?![.\d])/;    # a zero that is not 0.5, 0.95, 00
my @rules = (
	[ qr/\bcount\s*\(\s*[^()]*\)\s*>=\s*$NUM/i,                 'count(...) >= 0 cannot be false' ],
	[ qr/\b\w*_count\s*>=\s*$NUM/i,                             '<name>_count >= 0 cannot be false for a counter' ],
	[ qr/\bOR\s+\(?\s*[a-z_][\w.]*\s*>=\s*$NUM/i,              '"OR <column> >= 0" lets any value through' ],
	[ qr/\b\w+\s*\([^()]*\)\s*>=\s*$NUM\s*\)?\s+AS\b/i,        '<function>(...) >= 0 AS: a result compared with 0 as the whole check' ],
	[ qr/\b[a-z_][\w.]*\s*>=\s*$NUM\s+AS\b/i,                   '<column> >= 0 AS: a column compared with 0 as the whole check' ],
);

my @findings;

# The line number of offset $pos in $text
sub line_at
{
	my ($text, $pos) = @_;
	return 1 + (substr($text, 0, $pos) =~ tr/\n//);
}

# The whole line $n (1-based) of $text
sub line_text
{
	my ($text, $n) = @_;
	return (split /\n/, $text, -1)[ $n - 1 ] // '';
}

# Scan one test file for checks that cannot fail
sub scan_file
{
	my ($path, $rel) = @_;
	open my $fh, '<', $path or die "$path: $!\n";
	my $text = do { local $/; <$fh> };
	close $fh;
	my %seen;
	for my $rule (@rules)
	{
		my ($re, $what) = @$rule;
		while ($text =~ /$re/g)
		{
			my $n = line_at($text, $-[0]);
			next if $seen{$n}++;
			my $line = line_text($text, $n);
			if ($line =~ /lint:\s*can fail:\s*(.*)$/)
			{
				my $why = $1;
				$why =~ s/[\s*\/]*$//;
				next if length($why) >= 10;
				push @findings, "$rel:$n: \"lint: can fail:\" needs a reason (ten characters or more)";
				next;
			}
			(my $shown = $line) =~ s/^\s+//;
			push @findings, "$rel:$n: $what: $shown";
		}
	}
}

my @files = (
	(grep { basename($_) !~ /^iobench--/ } glob("$top/sql/*.sql")),
	glob("$top/specs/*.spec"),
	glob("$top/t/*.pl"));
for my $f (sort @files)
{
	(my $rel = $f) =~ s{^\Q$top\E/}{};
	scan_file($f, $rel);
}

# TAP numbers: one file each
my %by_number;
for my $f (sort glob("$top/t/*.pl"))
{
	my $name = basename($f);
	if ($name !~ /^(\d+)_\w+\.pl$/)
	{
		push @findings, "t/$name:1: a TAP test is named t/NNN_name.pl";
		next;
	}
	push @{ $by_number{$1} }, "t/$name";
}
for my $n (sort keys %by_number)
{
	my @same = @{ $by_number{$n} };
	next if @same == 1;
	push @findings, "$_:1: TAP number $n is used by " . scalar(@same) . " files: @same" for @same;
}

if (@findings)
{
	# by file, then line
	my $key = sub { my ($f, $n) = $_[0] =~ /^([^:]*):(\d+):/; sprintf('%s:%09d', $f, $n) };
	print STDERR "$_\n" for sort { $key->($a) cmp $key->($b) } @findings;
	printf STDERR "test_lint: %d finding%s: a check must be able to fail (see tools/test_lint.pl)\n",
	  scalar(@findings), @findings == 1 ? '' : 's';
	exit 1;
}
exit 0;
