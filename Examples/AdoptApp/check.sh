#!/bin/sh
# Builds and runs Examples/AdoptApp/main.swift, the README's "Adopt it in an app" main.swift, in a
# new executable package created outside the workspace (a fresh temporary folder) that depends
# on the modules by path. Exits non-zero if it does not compile, if its run fails, if its last
# line is not `persisted N of N, delivered N` (every event sent persisted and delivered, counted
# by the API), or if the README's block is not this file, verbatim.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cp "$here/main.swift" "$app/Sources/App/main.swift"

cat > "$app/Package.swift" <<PACKAGE
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v12)],
    dependencies: [
        .package(path: "$repo/Modules/Tracking"),
        .package(path: "$repo/Modules/Analytics"),
        .package(path: "$repo/Modules/Basket"),
    ],
    targets: [
        .executableTarget(name: "App", dependencies: [
            .product(name: "Tracking", package: "Tracking"),
            .product(name: "Analytics", package: "Analytics"),
            .product(name: "Basket", package: "Basket"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
PACKAGE

# The app runs in its own folder, so the relative paths in the snippet land there.
cd "$app"
swift build --package-path "$app" 2>&1 | tail -n 3
"$(swift build --package-path "$app" --show-bin-path)/App" > "$app/run.log"
cat "$app/run.log"

# Its last line counts what the API reports: as many persisted and delivered as were sent.
last=$(tail -n 1 "$app/run.log")
counts=$(echo "$last" | sed -n 's/^persisted \([0-9][0-9]*\) of \([0-9][0-9]*\), delivered \([0-9][0-9]*\)$/\1 \2 \3/p')
set -- $counts
if [ $# -ne 3 ] || [ "$1" -eq 0 ] || [ "$1" -ne "$2" ] || [ "$3" -ne "$2" ]; then
    echo "the app's last line is not 'persisted N of N, delivered N' (N > 0): $last" >&2
    exit 1
fi

# The first ```swift block after the "## Adopt it in an app" heading is this main.swift, verbatim.
awk '
    /^## / { in_section = ($0 == "## Adopt it in an app") }
    in_section && !done && /^```swift$/ { in_block = 1; next }
    in_block && /^```$/ { in_block = 0; done = 1; next }
    in_block { print }
' "$repo/README.md" > "$app/readme-main.swift"
if ! cmp -s "$app/readme-main.swift" "$here/main.swift"; then
    echo "README.md's \`\`\`swift block under '## Adopt it in an app' is not Examples/AdoptApp/main.swift:" >&2
    diff "$app/readme-main.swift" "$here/main.swift" >&2 || true
    exit 1
fi
