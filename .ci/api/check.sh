#!/bin/sh
# Compares the public API of the root package's library products with the last release tag
# (the newest tag named X.Y.Z reachable from HEAD) through
# `swift package diagnose-api-breaking-changes`, which builds the tag in a temporary folder and
# compares every module of a library product the tag vends.
#
# A breaking change fails the check, unless TrackingLibrary.version already announces a release
# that may break (a higher major than the tag's, or a higher minor while the major is 0): then
# the breaks are printed and allowed, as the README's release steps say. Also fails when the
# comparison takes more than CHECK_API_TIMEOUT seconds (default 1800). With no release tag yet,
# says so and passes; in a shallow clone (whose tags may be missing) it fails instead, so CI
# checkouts must fetch the history and tags (`fetch-depth: 0`).
set -eu
cd "$(dirname "$0")/../.."
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    echo "api: this clone is shallow, so release tags may be missing: fetch the full history and tags" >&2
    exit 1
fi
if ! tag=$(git describe --tags --abbrev=0 --match '[0-9]*.[0-9]*.[0-9]*' 2>/dev/null); then
    echo "no release tag yet: API breakage check skipped"
    exit 0
fi
version=$(sed -n 's/^ *public static let version = "\([0-9.]*\)"$/\1/p' Modules/Tracking/Sources/Tracking/Events/TrackingLibrary.swift)
[ -n "$version" ] || { echo "api: no TrackingLibrary.version found" >&2; exit 1; }
# Whether `version` may break the API of `tag` under Semantic Versioning.
may_break=$(python3 - "$tag" "$version" <<'PYTHON'
import sys
tag, version = ([int(part) for part in text.split(".")[:3]] for text in sys.argv[1:3])
print("yes" if version[0] > tag[0] or (version[0] == tag[0] == 0 and version[1] > tag[1]) else "no")
PYTHON
)
echo "public API of $version against $tag ($(git rev-parse --short "$tag^{commit}"))"
baseline=$(mktemp -d)
trap 'rm -rf "$baseline"' EXIT
trap 'exit 1' INT TERM HUP
status=0
timeout "${CHECK_API_TIMEOUT:-1800}" swift package diagnose-api-breaking-changes "$tag" --baseline-dir "$baseline" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$may_break" = yes ]; then
    echo "api: the changes above break $tag's API; allowed, as $version is a breaking release (list them under Changed or Removed)"
    exit 0
fi
exit "$status"
