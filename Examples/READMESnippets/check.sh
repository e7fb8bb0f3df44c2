#!/bin/sh
# Compiles every complete ```swift block of the README (or of the Markdown files given, paths
# relative to the repository) in a new package created in a fresh temporary folder, which
# depends on the workspace's modules by path. Exits non-zero if a block does not compile.
#
# Each block becomes a target of its own, depending on the modules it imports: an executable
# target (the block is its main.swift), or a test target when it imports Testing. A block whose
# first line starts with "// Fragment" is not complete on purpose and is skipped, and so is a
# package manifest (first line "// swift-tools-version"): Examples/AdoptByURL builds the README's.
#
#   Examples/READMESnippets/check.sh
#   Examples/READMESnippets/check.sh README.md Modules/Dispatcher/Sources/Dispatcher/Dispatcher.docc/GettingStarted.md
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
package=$(mktemp -d)
trap 'rm -rf "$package"' EXIT
[ $# -gt 0 ] || set -- README.md

# The package that provides each importable module; modules of the toolchain map to nothing.
package_of() {
    case "$1" in
        Tracking|TrackingTestKit|DataQuality) echo Tracking ;;
        Dispatcher|DispatcherTestKit) echo Dispatcher ;;
        Analytics|Basket|Onboarding|Wishlist) echo "$1" ;;
        Foundation|FoundationNetworking|Dispatch|Testing|Glibc|Darwin) echo "" ;;
        *) echo "?" ;;
    esac
}

count=0
skipped=0
targets=""
for file in "$@"; do
    [ -f "$repo/$file" ] || { echo "check.sh: no file $file in the repository" >&2; exit 1; }
    # Split the file's ```swift blocks into block-<n>.swift files, verbatim.
    rm -rf "$package/blocks" && mkdir -p "$package/blocks"
    awk -v dir="$package/blocks" '
        /^```swift$/ { n++; out = sprintf("%s/block-%03d.swift", dir, n); printf "" > out; next }
        out != "" && /^```$/ { close(out); out = ""; next }
        out != "" { print >> out }
    ' "$repo/$file"
    for block in "$package"/blocks/block-*.swift; do
        [ -f "$block" ] || continue
        if head -n 1 "$block" | grep -q '^// Fragment\|^// swift-tools-version'; then
            skipped=$((skipped + 1))
            continue
        fi
        count=$((count + 1))
        name="Snippet$count"
        echo "$name: $file, swift block $(basename "$block" .swift | sed 's/block-0*//')"
        dependencies=""
        for module in $(sed -n 's/^import \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$block"); do
            owner=$(package_of "$module")
            if [ "$owner" = "?" ]; then
                echo "check.sh: $file imports $module, which is not a workspace module" >&2
                exit 1
            fi
            [ -n "$owner" ] || continue
            dependencies="$dependencies .product(name: \"$module\", package: \"$owner\"),"
        done
        if grep -q '^import Testing' "$block"; then
            mkdir -p "$package/Tests/$name"
            cp "$block" "$package/Tests/$name/$name.swift"
            targets="$targets        .testTarget(name: \"$name\", dependencies: [$dependencies], path: \"Tests/$name\"),
"
        else
            mkdir -p "$package/Sources/$name"
            cp "$block" "$package/Sources/$name/main.swift"
            targets="$targets        .executableTarget(name: \"$name\", dependencies: [$dependencies], path: \"Sources/$name\"),
"
        fi
    done
done
if [ "$count" -eq 0 ]; then
    echo "check.sh: no complete \`\`\`swift block in $*" >&2
    exit 1
fi

cat > "$package/Package.swift" <<PACKAGE
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Snippets",
    platforms: [.macOS(.v12)],
    dependencies: [
        .package(path: "$repo/Modules/Tracking"),
        .package(path: "$repo/Modules/Dispatcher"),
        .package(path: "$repo/Modules/Analytics"),
        .package(path: "$repo/Modules/Basket"),
        .package(path: "$repo/Modules/Onboarding"),
        .package(path: "$repo/Modules/Wishlist"),
    ],
    targets: [
$targets    ],
    swiftLanguageModes: [.v6]
)
PACKAGE

echo "compiling $count blocks ($skipped fragments skipped)"
if ! swift build --package-path "$package" --build-tests >"$package/build.log" 2>&1; then
    grep -E 'error:' "$package/build.log" | sed "s|$package/||" | sort -u >&2 || true
    tail -n 5 "$package/build.log" >&2
    exit 1
fi
echo "all $count blocks compile"
