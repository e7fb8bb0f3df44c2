#!/bin/sh
# Adopts the library the way an app does: by URL and version. Clones this repository's HEAD
# (committed work only) into a temporary folder, tags the clone with TrackingLibrary.version,
# then creates an app package outside the repository from the README's "Adopt it in an app"
# blocks, verbatim: its Package.swift (marked <!-- adopt: Package.swift -->, the URL replaced by
# file://<clone>) and its main.swift (marked <!-- adopt: main.swift -->). Builds and runs the
# app, checks what it printed and wrote, and runs a test of the app's own on TrackingTestKit.
# Nothing is fetched from the network; the SwiftPM cache, configuration and build are temporary.
# Exits non-zero on any failure.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

fail() { echo "AdoptByURL: $*" >&2; exit 1; }

# The one version constant (Modules/Tracking/Sources/Tracking/Events/TrackingLibrary.swift).
version=$(sed -n 's/^ *public static let version = "\([0-9.]*\)"$/\1/p' \
    "$repo/Modules/Tracking/Sources/Tracking/Events/TrackingLibrary.swift")
[ -n "$version" ] || fail "no 'public static let version = \"x.y.z\"' in TrackingLibrary.swift"

# The fenced block right after a marker line, verbatim; fails unless the marker appears once.
block() {
    [ "$(grep -cxF "<!-- adopt: $1 -->" "$repo/README.md")" = 1 ] ||
        fail "README.md needs exactly one '<!-- adopt: $1 -->' line before a fenced block"
    awk -v marker="<!-- adopt: $1 -->" '
        $0 == marker { armed = 1; next }
        armed && !inside && /^```/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }
    ' "$repo/README.md"
}

app="$work/app"
mkdir -p "$app/Sources/Shop" "$app/Tests/ShopTests"
block "Package.swift" > "$app/Package.swift.readme"
block "main.swift" > "$app/Sources/Shop/main.swift"
[ -s "$app/Sources/Shop/main.swift" ] || fail "the main.swift block is empty"

# The README's URL gives the package identity (its last component, without .git): the clone
# gets that name, so `.product(name:package:)` in the block resolves against it unchanged.
url=$(sed -n 's/.*\.package(url: "\([^"]*\)".*/\1/p' "$app/Package.swift.readme")
[ "$(printf '%s\n' "$url" | grep -c .)" = 1 ] || fail "the Package.swift block needs exactly one .package(url: \"...\")"
identity=$(basename "$url" .git)
clone="$work/$identity"

git clone --quiet "$repo" "$clone"
head=$(git -C "$repo" rev-parse HEAD)
git -C "$clone" cat-file -e "$head^{commit}" || fail "the clone lacks HEAD ($head)"
git -C "$clone" tag -f "$version" "$head" >/dev/null
sed "s#\.package(url: \"$url\"#.package(url: \"file://$clone\"#" "$app/Package.swift.readme" > "$app/Package.swift"
rm "$app/Package.swift.readme"
grep -q "\.package(url: \"file://$clone\", from: \"" "$app/Package.swift" ||
    fail "the Package.swift block does not read .package(url: \"...\", from: \"...\")"

# A test of the app's own: its events, recorded by TrackingTestKit, through the products alone.
cat > "$app/Tests/ShopTests/ShopTests.swift" <<'SWIFT'
import Testing
import Tracking
import TrackingTestKit

enum Checkout: EventType {
    enum Name: String, Sendable { case checkout }
    enum Action: String, Sendable { case pay }
}

@Test func aPaymentIsRecorded() throws {
    let recorder = RecordingPlugin()
    EventReporter<Checkout>(plugins: [recorder]).send(name: .checkout, action: .pay, userData: ["quantity": 2])
    try recorder.expect(Checkout.self, [(.checkout, .pay)])
    #expect(recorder.events.first?.userData["quantity"] == 2)
}
SWIFT

# A temporary SwiftPM cache, configuration (no mirrors) and security folder of the check's own.
swiftpm="--package-path $app --scratch-path $work/scratch --cache-path $work/cache --config-path $work/config --security-path $work/security"
cd "$app"
# shellcheck disable=SC2086 # $swiftpm is a list of options; mktemp's paths have no spaces.
timeout 1200 swift build $swiftpm > "$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log" >&2; fail "the app did not build against $identity $version by URL"; }
tail -n 1 "$work/build.log"

# The one resolved dependency is the clone (a file:// URL pins as localSourceControl at its
# path), at the tag: nothing came from the network.
python3 - "$app/Package.resolved" "$clone" "$version" <<'PYTHON'
import json, sys
pins = json.load(open(sys.argv[1]))["pins"]
expected = {"kind": "localSourceControl", "location": sys.argv[2], "version": sys.argv[3]}
got = [{"kind": p["kind"], "location": p["location"], "version": p["state"].get("version")} for p in pins]
if got != [expected]:
    sys.exit(f"AdoptByURL: expected one pin, {expected}; got {got}")
PYTHON

# The README's main.swift, run in the app's folder (its relative paths land there).
# shellcheck disable=SC2086
bin=$(swift build $swiftpm --show-bin-path)
timeout 120 "$bin/Shop" > "$work/run.log" 2>&1 || { cat "$work/run.log" >&2; fail "the app's run failed"; }
tail -n 1 "$work/run.log"
grep -qx "persisted 4 of 4, delivered 4" "$work/run.log" || fail "expected 'persisted 4 of 4, delivered 4' from the app"
python3 - "$app/analytics/outbox.ndjson" "$version" <<'PYTHON'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
library = {"name": "swift-tracking", "version": sys.argv[2]}
if len(events) != 4 or any(e["context"].get("library") != library for e in events):
    sys.exit(f"AdoptByURL: expected 4 delivered events with context.library {library}; got {events}")
PYTHON

# shellcheck disable=SC2086
timeout 600 swift test $swiftpm > "$work/test.log" 2>&1 ||
    { tail -n 30 "$work/test.log" >&2; fail "the app's tests failed"; }
grep -q 'Test run with 1 test .*passed' "$work/test.log" || { tail -n 10 "$work/test.log" >&2; fail "the app's test did not run"; }
echo "AdoptByURL: OK, an app depending on $identity from: $version by URL builds, runs and tests"
