#!/bin/sh
# Builds and runs the README's "Adopt it in an app" main.swift, as-is, in a new executable
# package created outside the workspace (a fresh temporary folder) that depends on the modules
# by path. Exits non-zero if the block is missing, does not compile, or its run fails.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"

# The first ```swift block after the "## Adopt it in an app" heading, verbatim.
awk '
    /^## / { in_section = ($0 == "## Adopt it in an app") }
    in_section && !done && /^```swift$/ { in_block = 1; next }
    in_block && /^```$/ { in_block = 0; done = 1; next }
    in_block { print }
' "$repo/README.md" > "$app/Sources/App/main.swift"
if ! [ -s "$app/Sources/App/main.swift" ]; then
    echo "README.md has no \`\`\`swift block under '## Adopt it in an app'" >&2
    exit 1
fi

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
"$(swift build --package-path "$app" --show-bin-path)/App"
