#!/usr/bin/env bash
# Counts the public surface of the library modules: per module, the public types (class,
# struct, enum, protocol, typealias, actor) and all public symbols, from symbol graphs.
#
#   .ci/shape/public-api.sh [module ...]   (default: the library modules below)
#
# Builds the workspace first (`swift build`), so run it from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(Tracking TrackingTestKit DataQuality Dispatcher DispatcherTestKit Analytics)
swift build >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for module in "${modules[@]}"; do
    mkdir -p "$out/$module"
    swift symbolgraph-extract -module-name "$module" -I .build/debug/Modules \
        -I Modules/Dispatcher/Sources/CSQLite -I Modules/Dispatcher/Sources/CCurl -I Modules/Dispatcher/Sources/CZlib \
        -target x86_64-unknown-linux-gnu -minimum-access-level public -output-dir "$out/$module"
done
python3 .ci/shape/count_symbols.py "$out" "${modules[@]}"
