#!/bin/sh
# check_gen.sh fails when the committed Python code under bots/python/orrery/ differs from what
# gen.sh makes from proto/ now. CI runs it; fix a failure by running bots/python/gen.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/gen.sh" "$tmp"
if ! diff -r -u "$here/orrery" "$tmp/orrery"; then
	echo "check_gen.sh: bots/python/orrery is stale; run bots/python/gen.sh and commit the result" >&2
	exit 1
fi
echo "check_gen.sh: bots/python/orrery matches proto/"
