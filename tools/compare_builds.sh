#!/usr/bin/env bash
# The diagnosis must not depend on how gpudoctor was built: every testdata
# scenario replayed by two binaries (e.g. the plain and the static build)
# must give the same JSON report, the second run with an empty environment.
# Also checks that the second binary is fully static when asked to (--static).
# usage: compare_builds.sh GPUDOCTOR_A GPUDOCTOR_B TESTDATA [--static]
set -u
a=$1 b=$2 testdata=$3
if [ "${4:-}" = "--static" ] && ldd "$b" >/dev/null 2>&1; then
  echo "FAIL: $b is not a static executable:"; ldd "$b"; exit 1
fi
differ=0 total=0
for scenario in "$testdata"/snapshots/*/; do
  total=$((total + 1))
  # B runs with an empty environment, as a binary COPY-ed into a bare image would.
  if ! cmp -s <("$a" check --replay "$scenario" --format json) <(env -i "$b" check --replay "$scenario" --format json); then
    echo "FAIL: $(basename "$scenario"): the two builds disagree"
    differ=$((differ + 1))
  fi
done
echo "compare_builds: $total scenarios, $differ differ"
[ "$differ" = 0 ]
