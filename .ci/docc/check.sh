#!/usr/bin/env bash
# Builds the DocC documentation of every library module under Modules/ (each folder of
# Modules/*/Sources/ that holds Swift files) with `docc convert --warnings-as-errors`: from the
# module's own symbol graph (public symbols, the module's own declarations and its extensions of
# other modules' types), plus its catalog (Sources/<Module>/<Module>.docc) when it has one.
# Archives go to a temporary folder, removed at exit.
#
# Fails on any DocC warning or error, and when an archive documents a module other than its own
# (a dependency's symbols leaking into it). Prints one summary line:
#   docc: 9 modules, 4 catalogs, 0 warnings
#
#   .ci/docc/check.sh                    builds the workspace first (`swift build`, incremental)
#   .ci/docc/check.sh --no-build         uses the products already in .build
#   .ci/docc/check.sh --output .build-docs   also keeps the archives, <Module>.doccarchive, there
#                                        (a folder inside the repository; replaced)
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

build=yes
output=""
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=no; shift ;;
        --output)
            [ $# -ge 2 ] || { echo "docc: --output needs a folder" >&2; exit 2; }
            case "$2" in
                "" | /* | .. | ../* | */.. | */../* | . | ./) echo "docc: --output must be a folder inside the repository" >&2; exit 2 ;;
            esac
            output=$2; shift 2
            # Only archives are ever replaced there: a folder holding anything else is refused.
            if [ -d "$output" ] && [ -n "$(find "$output" -mindepth 1 -maxdepth 1 ! -name '*.doccarchive' -print -quit)" ]; then
                echo "docc: --output $output holds other files than .doccarchive folders; give a new or an archives-only folder" >&2
                exit 2
            fi ;;
        *) echo "usage: .ci/docc/check.sh [--no-build] [--output FOLDER]" >&2; exit 2 ;;
    esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

if [ "$build" = yes ]; then
    if ! timeout 1200 swift build >"$work/build.log" 2>&1; then
        tail -n 20 "$work/build.log" >&2
        echo "docc: swift build failed" >&2
        exit 1
    fi
fi

# Where the built modules are: .build/<configuration>/Modules (SwiftPM 6) or the folder itself.
bin=$(swift build --show-bin-path)
modules_dir="$bin/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)
[ -n "$triple" ] || { echo "docc: no target triple from swift -print-target-info" >&2; exit 1; }
sdk_args=()
if [ "$(uname)" = Darwin ]; then
    sdk_args=(-sdk "$(xcrun --show-sdk-path)")
fi

# The C modules the Swift modules import (system libraries with a module map of their own).
include_args=(-I "$modules_dir")
for map in Modules/*/Sources/*/module.modulemap; do
    include_args+=(-I "$(dirname "$map")")
done

modules=()
for folder in Modules/*/Sources/*/; do
    folder=${folder%/}
    if [ -n "$(find "$folder" -name '*.swift' -print -quit)" ]; then
        modules+=("$folder")
    fi
done
[ ${#modules[@]} -gt 0 ] || { echo "docc: no library module under Modules/" >&2; exit 1; }

# Every catalog must belong to a module this script documents.
for catalog in Modules/*/Sources/*/*.docc; do
    [ -d "$catalog" ] || continue
    expected="$(dirname "$catalog")/$(basename "$(dirname "$catalog")").docc"
    if [ "$catalog" != "$expected" ]; then
        echo "docc: $catalog is not named after its module ($expected)" >&2
        exit 1
    fi
done

catalogs=0
diagnostics=0
failed=0
for folder in "${modules[@]}"; do
    module=$(basename "$folder")
    graphs="$work/graphs/$module"
    mkdir -p "$graphs"
    if ! timeout 300 swift symbolgraph-extract -module-name "$module" -target "$triple" "${sdk_args[@]}" \
        "${include_args[@]}" -minimum-access-level public -emit-extension-block-symbols \
        -output-dir "$graphs" >"$work/$module.extract.log" 2>&1; then
        cat "$work/$module.extract.log" >&2
        echo "docc: symbolgraph-extract failed for $module" >&2
        exit 1
    fi
    # The module's own graph and its extensions of other modules (<Module>@<Other>); with
    # extension block symbols, those are documented under this module, not as modules of their own.
    for graph in "$graphs"/*.symbols.json; do
        name=$(basename "$graph" .symbols.json)
        case "$name" in
            "$module" | "$module@"*) ;;
            *) echo "docc: unexpected symbol graph $name for $module" >&2; exit 1 ;;
        esac
    done

    catalog_args=()
    if [ -d "$folder/$module.docc" ]; then
        catalog_args=("$folder/$module.docc")
        catalogs=$((catalogs + 1))
    fi
    archive="$work/$module.doccarchive"
    status=0
    timeout 300 docc convert "${catalog_args[@]}" \
        --additional-symbol-graph-dir "$graphs" \
        --output-dir "$archive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "sdk.tracking.$module" \
        --no-transform-for-static-hosting \
        --warnings-as-errors >"$work/$module.docc.log" 2>&1 || status=$?
    found=$(grep -cE '(warning|error):' "$work/$module.docc.log" || true)
    diagnostics=$((diagnostics + found))
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        failed=$((failed + 1))
        echo "docc: $module: $found diagnostics (docc exit $status)" >&2
        sed "s|$PWD/||g" "$work/$module.docc.log" >&2
        continue
    fi

    # The archive documents this module only: one module page at the top of documentation/.
    lowered=$(printf '%s' "$module" | tr '[:upper:]' '[:lower:]')
    others=$(find "$archive/data/documentation" -mindepth 1 -maxdepth 1 -name '*.json' \
        ! -name "$lowered.json" -exec basename {} .json \; | sort | tr '\n' ' ')
    if [ -n "$others" ]; then
        failed=$((failed + 1))
        echo "docc: the $module archive documents other modules: $others" >&2
    fi
done

echo "docc: ${#modules[@]} modules, $catalogs catalogs, $diagnostics warnings"
[ "$failed" -eq 0 ] || exit 1
if [ -n "$output" ]; then
    mkdir -p "$output"
    for archive in "$work"/*.doccarchive; do
        rm -rf "${output:?}/$(basename "$archive")"
        cp -R "$archive" "$output"/
    done
    echo "docc: archives in $output/"
fi
