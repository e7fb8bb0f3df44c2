#!/usr/bin/env bash
# Proves, on Linux, that the library sources under Modules/ use no API of the toolchain's modules
# (Swift, _Concurrency, Synchronization, Foundation, Dispatch, ...) newer than the Apple platform
# floor: iOS 15, macOS 12, Mac Catalyst 15, tvOS 15, watchOS 8, visionOS 1 (see README.md).
#
#   .ci/availability/check.sh              self-test, build the Modules/ targets, check them
#   .ci/availability/check.sh --self-test  the self-test only
#   .ci/availability/check.sh --no-build   check the index store as it is: for a scratch path
#                                          the caller has just built in debug (`swift build
#                                          --build-tests` indexes every target on Linux)
#
# AVAILABILITY_SCRATCH is the SwiftPM scratch path (default .build-index). Exits non-zero when
# the self-test fails, when a reference is newer than the floor, or when the check cannot run
# (among others: a Swift file under Modules/*/Sources missing from the index, or newer than it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export PYTHONDONTWRITEBYTECODE=1

scratch=${AVAILABILITY_SCRATCH:-.build-index}
self_test_only=false
build=true
case "${1:-}" in
    "") ;;
    --self-test) self_test_only=true ;;
    --no-build) build=false ;;
    *) echo "usage: $0 [--self-test | --no-build]" >&2; exit 2 ;;
esac

# The toolchain's own modules whose Apple availability the check knows.
modules="Swift _Concurrency _StringProcessing RegexBuilder Synchronization Observation Distributed
         Dispatch FoundationEssentials FoundationInternationalization Foundation FoundationNetworking FoundationXML"

triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')
toolchain_key=$( { swift --version 2>&1; echo "$triple $modules"; } | sha256sum | cut -c1-16)
graphs="$scratch/availability/symbolgraphs-$toolchain_key"
if ! [ -f "$graphs/.complete" ]; then
    rm -rf "$graphs"
    mkdir -p "$graphs"
    for module in $modules; do
        swift symbolgraph-extract -module-name "$module" -target "$triple" -output-dir "$graphs" \
            -minimum-access-level public -skip-synthesized-members -skip-inherited-docs
    done
    touch "$graphs/.complete"
fi

echo "-- availability self-test"
if ! AVAILABILITY_SYMBOL_GRAPHS="$graphs" python3 -m unittest discover --start-directory "$here" --pattern 'test_*.py'; then
    echo "availability: the self-test failed" >&2
    exit 1
fi
$self_test_only && exit 0

echo "-- availability of the toolchain's APIs used in Modules/"
# Every library target under Modules/ (one `swift build` each: --target takes one name; the
# ones already built as dependencies take a fraction of a second).
mkdir -p "$scratch/availability"
log="$scratch/availability/build.log"
under=()
for target_dir in Modules/*/Sources/*/; do
    [ -n "$(find "$target_dir" -name '*.swift' -print -quit)" ] || continue  # a system library target
    under+=(--under "$target_dir")
    if $build && ! swift build --scratch-path "$scratch" --enable-index-store --target "$(basename "$target_dir")" > "$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
done
python3 "$here/check.py" --store "$scratch/$triple/debug/index/store" --symbol-graphs "$graphs" "${under[@]}"
