#!/usr/bin/env bash
# Checks the privacy manifests (PrivacyInfo.xcprivacy) of the library targets; see README.md here.
# 1. `plutil -lint` every manifest under Modules/.
# 2. Self-test: scan.py runs on each fixture in fixtures/ and must pass or fail as its `expect`
#    file says (first line `pass` or `fail`, then text its output must contain), so a scanner
#    that stopped finding anything fails here instead of passing everything.
# 3. scan.py on the repository: every required-reason API the code uses is declared, nothing
#    declared is unused, every manifest is a resource of its target, the values are Apple's.
# Exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."

if ! command -v plutil >/dev/null; then
    echo "privacy check: plutil not found (it ships with the Swift toolchain and Xcode)" >&2
    exit 1
fi
manifests=()
while IFS= read -r manifest; do manifests+=("$manifest"); done < <(
    find Modules -name .build -prune -o -name PrivacyInfo.xcprivacy -print | sort)
if [ ${#manifests[@]} -eq 0 ]; then
    echo "privacy check: no PrivacyInfo.xcprivacy under Modules/" >&2
    exit 1
fi
echo "-- plutil -lint"
plutil -lint "${manifests[@]}"

echo "-- the scanner's self-test on fixtures/"
failures=0
for fixture in "$here"/fixtures/*/; do
    name=$(basename "$fixture")
    expected=$(head -n 1 "$fixture/expect")
    status=0
    output=$(python3 "$here/scan.py" --root "$fixture" 2>&1) || status=$?
    outcome=pass
    [ "$status" -eq 0 ] || outcome=fail
    if [ "$status" -gt 1 ]; then
        outcome="crash (exit $status)"
    fi
    missing=""
    while IFS= read -r text; do
        [ -z "$text" ] || grep -qF -- "$text" <<<"$output" || missing="$missing
    expected in the output: $text"
    done < <(tail -n +2 "$fixture/expect")
    if [ "$outcome" != "$expected" ] || [ -n "$missing" ]; then
        echo "FAIL $name: expected $expected, got $outcome$missing" >&2
        sed 's/^/    /' <<<"$output" >&2
        failures=$((failures + 1))
    else
        echo "ok   $name ($expected)"
    fi
done
if [ "$failures" -gt 0 ]; then
    echo "privacy check: the scanner failed $failures of its self-tests" >&2
    exit 1
fi

echo "-- required-reason APIs against the manifests"
python3 "$here/scan.py"
