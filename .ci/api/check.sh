#!/bin/sh
# Compares the public API of the root package's library products with the last release tag
# (`git describe --tags --abbrev=0`) through `swift package diagnose-api-breaking-changes`,
# which builds the tag in a temporary folder and compares every module of a library product
# the tag vends. Exits non-zero on a breaking change, or when the comparison takes more than
# CHECK_API_TIMEOUT seconds (default 1800). With no tag yet, says so and passes.
# CI checkouts must fetch tags (`git fetch --tags`, or a full clone) for the tag to be found.
set -eu
cd "$(dirname "$0")/../.."
if ! tag=$(git describe --tags --abbrev=0 2>/dev/null); then
    echo "no release tag yet: API breakage check skipped"
    exit 0
fi
echo "public API against $tag ($(git rev-parse --short "$tag^{commit}"))"
baseline=$(mktemp -d)
trap 'rm -rf "$baseline"' EXIT
timeout "${CHECK_API_TIMEOUT:-1800}" swift package diagnose-api-breaking-changes "$tag" --baseline-dir "$baseline"
