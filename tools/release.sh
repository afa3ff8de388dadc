#!/usr/bin/env bash
# release.sh VERSION — freeze the SQL scripts of release VERSION.
#
#   tools/release.sh 0.2
#
# Builds, from sql/install/ as the Makefile does, the install script of
# VERSION and the upgrade to it from the last release (the highest X of the
# committed sql/iobench--X.sql), and writes them as the frozen files
# sql/iobench--VERSION.sql and sql/iobench--LAST--VERSION.sql, each with a
# first line that says which release and commit it was frozen from.  Then
# it dates CHANGELOG.md's "## VERSION (unreleased)" section and stages the
# three files (git add); you review and commit ("Release VERSION") and tag.
# From then on `make` builds no SQL for VERSION and checks that sql/install/
# still builds its install script (make frozen-check).
#
# It refuses, changing nothing, when VERSION is not iobench.control's
# default_version or META.json's version, is not past the last release, is
# frozen already, or when sql/install/, the limit headers, iobench.control
# or the Makefile have uncommitted changes (the frozen files must be what a
# commit builds).
#
# After the release, start the next version (see RELEASING in
# CONTRIBUTING.md): default_version and META.json's version to the next
# version, a new "## NEXT (unreleased)" section in CHANGELOG.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$SRC"

# Print an error and exit.
die() { echo "release: ERROR: $*" >&2; exit 1; }

# Print a progress line.
say() { echo "release: $*"; }

[ $# -eq 1 ] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
VERSION=$1
[[ $VERSION =~ ^[0-9]+(\.[0-9]+)+$ ]] || die "version \"$VERSION\" is not of the form N.N"

control=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" iobench.control)
[ "$control" = "$VERSION" ] ||
	die "iobench.control's default_version is \"$control\", not \"$VERSION\"; set it first"
# PGXN versions are semantic versions: 0.2 is 0.2.0 there
semver=$VERSION
while [ "$(tr -cd . <<<"$semver" | wc -c)" -lt 2 ]; do semver+=.0; done
meta=$(sed -n '1,/"provides"/s/^   "version" *: *"\(.*\)",*$/\1/p' META.json)
[ "$meta" = "$semver" ] || die "META.json's version is \"$meta\", not \"$semver\" ($VERSION); set it first"

last=$(find sql -maxdepth 1 -name 'iobench--*.sql' | sed -n 's,^sql/iobench--\([^-]*\)\.sql$,\1,p' | sort -V | tail -n 1)
[ -n "$last" ] || die "no earlier release (sql/iobench--X.sql) to upgrade from"
[ "$last" != "$VERSION" ] || die "release $VERSION is frozen already (sql/iobench--$VERSION.sql)"
[ "$(printf '%s\n' "$last" "$VERSION" | sort -V | tail -n 1)" = "$VERSION" ] ||
	die "version $VERSION is older than the last release $last"

dirty=$(git status --porcelain -- sql/install iobench.control META.json Makefile src/run/run_validate.h src/base/settings.h tools/sql_limits.sh)
[ -z "$dirty" ] || die "uncommitted changes to what builds the scripts; commit them first:
$dirty"
grep -qx "## $VERSION (unreleased)" CHANGELOG.md ||
	die "CHANGELOG.md has no \"## $VERSION (unreleased)\" section"

commit=$(git rev-parse --short=12 HEAD)
install=iobench--$VERSION.sql
upgrade=iobench--$last--$VERSION.sql
say "building $install and $upgrade from sql/install/ at $commit"
rm -f "$install" "$upgrade"
make -s --no-print-directory "$install" "$upgrade" >/dev/null
for f in "$install" "$upgrade"; do
	[ -s "$f" ] || die "make did not build $f"
done

# The frozen file: the built one under a first line that says where it
# came from (the Makefile's frozen-check compares all but that line).
{
	echo "/* $install — full install script of release $VERSION, frozen by tools/release.sh from sql/install/ at $commit; never edited */"
	tail -n +2 "$install"
} >"sql/$install"
{
	echo "/* $upgrade — upgrade from release $last to $VERSION, frozen by tools/release.sh from sql/install/ at $commit; never edited */"
	tail -n +2 "$upgrade"
} >"sql/$upgrade"
rm -f "$install" "$upgrade"

sed -i "s/^## $VERSION (unreleased)\$/## $VERSION ($(date -u +%Y-%m-%d))/" CHANGELOG.md

# Now released: make builds no SQL, and sql/install/ builds the frozen script.
built=$(make -s --no-print-directory -f Makefile -f - print-DATA_built PGXS= <<'EOF'
print-%:
	@echo '$($*)'
EOF
)
[ -z "$built" ] || die "after freezing, the Makefile still builds: $built"
make -s --no-print-directory frozen-check || die "sql/install/ does not build the frozen sql/$install"

git add "sql/$install" "sql/$upgrade" CHANGELOG.md
say "froze release $VERSION: sql/$install, sql/$upgrade (staged with CHANGELOG.md)"
say "next: git commit -m 'Release $VERSION' && git tag v$VERSION; then start the next version (CONTRIBUTING.md, RELEASING)"
