#!/bin/bash
# sql_limits.sh HEADER... < SQL > SQL
#
# The C limits, in SQL: replaces every @NAME@ in the SQL read from stdin by
# the value of "#define NAME expression" in the C headers named, evaluated
# as a 64-bit integer (INT64CONST()/UINT64CONST() and a trailing comment are
# allowed), so that the CHECKs of the install script hold the very limits
# the C code enforces.  The Makefile runs it when it builds the install and
# upgrade scripts.  Fails, naming it, on a placeholder that no header
# defines.
set -euo pipefail

script=
while read -r name expr; do
	expr=${expr%%/\**}
	expr=$(sed -E 's/U?INT64CONST\(([0-9]+)\)/\1/g' <<< "$expr")
	arith='^[-0-9()*<+[:space:]]+$'
	[[ $expr =~ $arith ]] || continue
	script+="s/@$name@/$((expr))/g;"
done < <(sed -nE 's/^#define[[:space:]]+(IOB_[A-Z0-9_]+)[[:space:]]+(.+)$/\1 \2/p' "$@")

sed -e "$script" |
	awk '/@IOB_[A-Z0-9_]+@/ { print "sql_limits.sh: no C definition for a placeholder in: " $0 > "/dev/stderr"; bad = 1 }
		{ print }
		END { exit bad }'
