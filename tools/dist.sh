#!/usr/bin/env bash
# dist.sh — the PGXN release bundle of iobench: iobench-X.Y.Z.zip.
#
#   tools/dist.sh [DIR]           make DIR/iobench-X.Y.Z.zip (DIR: the checkout)
#                                 from the commit HEAD; `make dist` runs this
#   tools/dist.sh check-meta META.json [iobench.control]
#                                 check a META.json only (against the
#                                 checkout's iobench.control unless named)
#
# The bundle is `git archive` of HEAD under one top directory
# iobench-X.Y.Z/, as PGXN wants it: every tracked file (META.json, README.md,
# LICENSE, CHANGELOG.md, the Makefile, iobench.control, src/, the frozen
# scripts and sql/install/, the tests and their outputs, doc/, tools/) and
# nothing built or ignored.  Uncommitted changes are not in it: it says so
# and names them.  X.Y.Z is iobench.control's default_version as a
# semantic version (0.3 is 0.3.0).
#
# Before anything is written, HEAD's META.json is checked against the PGXN
# meta spec 1.0.0 (https://pgxn.org/spec/): the fields it requires (name,
# abstract, version, maintainer, license, provides, each provided extension
# with its file and version, meta-spec with its version) are there, the
# versions are semantic versions, the version and the one provided for the
# extension iobench are default_version's, and the files it names are in the
# bundle.  A missing or wrong field stops it, named.  The members the
# bundle must have are checked the same way.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=

# The files a PGXN bundle of iobench must hold (a build and its tests need them).
REQUIRED=(META.json README.md LICENSE CHANGELOG.md Makefile iobench.control
	src/base/compat.h sql/install/upgrade/finish.sql test/regress.conf tools/pg_dirs.sh
	tools/sql_limits.sh doc/iobench.md doc/reference.md)

# Print an error and exit.
die() { echo "dist: ERROR: $*" >&2; exit 1; }

# Print a progress line.
say() { echo "dist: $*"; }

# Check META.json file $1 against the PGXN meta spec and iobench.control
# file $2; $3, when given, is a file listing the bundle's members, in which
# the files META.json names must be.  Prints each problem; fails when any.
check_meta() {
	perl -MJSON::PP -e '
		use strict;
		use warnings;
		my ($meta_file, $control_file, $members_file) = @ARGV;
		my @bad;
		my $slurp = sub {
			open my $fh, "<", $_[0] or die "dist: ERROR: could not open $_[0]: $!\n";
			local $/;
			return scalar <$fh>;
		};
		my $meta = eval { JSON::PP->new->decode($slurp->($meta_file)) };
		die "dist: ERROR: $meta_file is not valid JSON: $@" unless ref $meta eq "HASH";
		my ($default) = $slurp->($control_file) =~ /^default_version\s*=\s*\x27([^\x27]+)\x27\s*$/m;
		die "dist: ERROR: no default_version in $control_file\n" unless defined $default;
		my $semver = $default;
		$semver .= ".0" while ($semver =~ tr/.//) < 2;
		my $semver_re = qr/^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+)?$/;
		my %members;
		if (defined $members_file) {
			%members = map { chomp; ($_ => 1) } split /^/, $slurp->($members_file);
		}
		my $str = sub { defined $_[0] && !ref $_[0] && $_[0] ne "" };

		for my $f (qw(name abstract version maintainer license provides meta-spec)) {
			push @bad, "required field \"$f\" is missing" unless exists $meta->{$f};
		}
		push @bad, "\"name\" must be a string of 2 or more characters without / \\\\ or control characters"
			if exists $meta->{name} && !($str->($meta->{name}) && length $meta->{name} >= 2 && $meta->{name} !~ m{[/\\\x00-\x1f]});
		push @bad, "\"abstract\" must be a non-empty string"
			if exists $meta->{abstract} && !$str->($meta->{abstract});
		if (exists $meta->{version}) {
			if (!$str->($meta->{version}) || $meta->{version} !~ $semver_re) {
				push @bad, "\"version\" \"" . ($meta->{version} // "") . "\" is not a semantic version (X.Y.Z)";
			} elsif ($meta->{version} ne $semver) {
				push @bad, "\"version\" is \"$meta->{version}\", but iobench.control\x27s default_version $default is $semver";
			}
		}
		if (exists $meta->{maintainer}) {
			my $m = $meta->{maintainer};
			push @bad, "\"maintainer\" must be a string or a non-empty list of strings"
				unless $str->($m) || (ref $m eq "ARRAY" && @$m && !grep { !$str->($_) } @$m);
		}
		if (exists $meta->{license}) {
			my $l = $meta->{license};
			push @bad, "\"license\" must be a string, a list of strings or an object of name => URL"
				unless $str->($l) || (ref $l eq "ARRAY" && @$l && !grep { !$str->($_) } @$l)
				|| (ref $l eq "HASH" && %$l);
		}
		if (exists $meta->{provides}) {
			my $p = $meta->{provides};
			if (ref $p ne "HASH" || !%$p) {
				push @bad, "\"provides\" must be an object naming at least one extension";
			} else {
				push @bad, "\"provides\" does not name the extension iobench" unless exists $p->{iobench};
				for my $ext (sort keys %$p) {
					my $e = $p->{$ext};
					if (ref $e ne "HASH") { push @bad, "\"provides.$ext\" must be an object"; next; }
					for my $f (qw(file version)) {
						push @bad, "required field \"provides.$ext.$f\" is missing" unless $str->($e->{$f});
					}
					if ($str->($e->{version})) {
						if ($e->{version} !~ $semver_re) {
							push @bad, "\"provides.$ext.version\" \"$e->{version}\" is not a semantic version (X.Y.Z)";
						} elsif ($ext eq "iobench" && $e->{version} ne $semver) {
							push @bad, "\"provides.iobench.version\" is \"$e->{version}\", but iobench.control\x27s default_version $default is $semver";
						}
					}
					for my $f (qw(file docfile)) {
						push @bad, "\"provides.$ext.$f\" names $e->{$f}, which is not in the bundle"
							if defined $members_file && $str->($e->{$f}) && !$members{$e->{$f}};
					}
				}
			}
		}
		if (exists $meta->{"meta-spec"}) {
			my $ms = $meta->{"meta-spec"};
			if (ref $ms ne "HASH" || !$str->($ms->{version})) {
				push @bad, "required field \"meta-spec.version\" is missing";
			} elsif ($ms->{version} !~ /^1\.0\.\d+$/) {
				push @bad, "\"meta-spec.version\" is \"$ms->{version}\"; this checks meta spec 1.0";
			}
		}
		if (exists $meta->{release_status} && ($meta->{release_status} // "") !~ /^(stable|testing|unstable)$/) {
			push @bad, "\"release_status\" must be stable, testing or unstable";
		}
		print "dist: ERROR: META.json: $_\n" for @bad;
		exit(@bad ? 1 : 0);
	' "$@" >&2
}

# Print iobench.control's default_version in file $1 as a semantic version.
semver_of() {
	local v
	v=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$1")
	[ -n "$v" ] || die "no default_version in $1"
	while [ "$(tr -cd . <<<"$v" | wc -c)" -lt 2 ]; do v+=.0; done
	echo "$v"
}

# "check-meta": check a META.json file.
cmd_check_meta() {
	local meta=${1:-} control=${2:-$SRC/iobench.control}
	[ -n "$meta" ] || die "check-meta: name the META.json to check"
	check_meta "$meta" "$control" || die "$meta does not meet the PGXN meta spec (above)"
	say "$meta meets the PGXN meta spec 1.0.0; version $(semver_of "$control")"
}

# Make DIR/iobench-X.Y.Z.zip from HEAD.
cmd_dist() {
	local dir=${1:-$SRC} tmp version name f dirty rc=0
	command -v git >/dev/null || die "git is needed: the bundle is git archive of HEAD"
	git -C "$SRC" rev-parse --verify -q HEAD >/dev/null || die "$SRC is not a git checkout with a commit"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	TMP=$(mktemp -d)
	tmp=$TMP
	trap 'rm -rf "$TMP"' EXIT
	git -C "$SRC" show HEAD:META.json >"$tmp/META.json" 2>/dev/null || die "HEAD has no META.json"
	git -C "$SRC" show HEAD:iobench.control >"$tmp/iobench.control" 2>/dev/null || die "HEAD has no iobench.control"
	git -C "$SRC" ls-tree -r --name-only HEAD >"$tmp/members"
	version=$(semver_of "$tmp/iobench.control")
	name=iobench-$version
	for f in "${REQUIRED[@]}"; do
		grep -qxF "$f" "$tmp/members" || { echo "dist: ERROR: HEAD has no $f, which the bundle needs" >&2; rc=1; }
	done
	grep -q '^sql/iobench--[^-]*\.sql$' "$tmp/members" ||
		{ echo "dist: ERROR: HEAD has no frozen script sql/iobench--X.sql" >&2; rc=1; }
	check_meta "$tmp/META.json" "$tmp/iobench.control" "$tmp/members" || rc=1
	[ "$rc" -eq 0 ] || die "no bundle made: fix the above and commit"
	dirty=$(git -C "$SRC" --no-optional-locks status --porcelain --untracked-files=no)
	[ -z "$dirty" ] || say "WARNING: the bundle is HEAD's; these uncommitted changes are not in it:
$dirty"
	rm -f "$dir/$name.zip"
	git -C "$SRC" archive --format=zip --prefix="$name/" -o "$dir/$name.zip" HEAD ||
		die "git archive failed"
	say "made $dir/$name.zip from $(git -C "$SRC" rev-parse --short HEAD): $(wc -l <"$tmp/members") files, $(du -k "$dir/$name.zip" | cut -f1) kB"
}

case ${1:-} in
-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" ;;
check-meta) shift; cmd_check_meta "$@" ;;
*) cmd_dist "$@" ;;
esac
