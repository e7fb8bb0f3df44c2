#!/usr/bin/env bash
# Type-checks the SDK's Apple-only sources on Linux, against stub modules of the Apple
# frameworks they use (.ci/apple-sdk/<Module>.swift, each holding only the declarations the code
# uses, with Apple's exact Swift signatures), so a wrong label, type or optionality fails here.
#
# Convention: every Apple-only file lives in a folder named Apple/ under a target's Sources/,
# is wrapped in `#if canImport(<Framework>)`, and references only the stdlib, Foundation,
# Dispatch, the frameworks it imports, and the platform-neutral files of its own target named in
# a header line `// apple-typecheck: with ../Path/File.swift ...` (paths relative to the file).
#
# A platform-neutral file choosing among Apple/ adapters says so in a header line
# `// apple-typecheck: compose <paths or globs relative to the file>` and is checked with them.
#
# Usage: .ci/apple-sdk/typecheck.sh            check every Modules/*/Sources/**/Apple/*.swift
#        .ci/apple-sdk/typecheck.sh --self-test also prove that a wrong call fails
# Exits non-zero on any error or warning.
set -euo pipefail
cd "$(dirname "$0")/../.."
stubs_dir=.ci/apple-sdk
swiftc=${SWIFTC:-swiftc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-swift-version 6 -parse-as-library -enable-upcoming-feature ExistentialAny
       -enable-upcoming-feature MemberImportVisibility -warnings-as-errors -I "$work")

# Stubs import only Foundation, Dispatch and Glibc, so their order does not matter.
for stub in "$stubs_dir"/*.swift; do
    module=$(basename "$stub" .swift)
    # Library evolution, as Apple builds its frameworks (so @unknown default is needed, not
    # warned about); its notes about Foundation and Dispatch not being built so are silenced.
    "$swiftc" -emit-module -parse-as-library -swift-version 6 -enable-library-evolution -suppress-warnings \
        -module-name "$module" -emit-module-path "$work/$module.swiftmodule" "$stub"
    echo "stub module: $module"
done

# Type-checks one Apple/ file with its `apple-typecheck: with` files as part of `module`.
check() {
    local file=$1 module=$2 dir sources=("$1")
    dir=$(dirname "$file")
    local with
    with=$(sed -n 's|^// apple-typecheck: with ||p' "$file" | head -n 1)
    for extra in $with; do sources+=("$dir/$extra"); done
    "$swiftc" -typecheck "${flags[@]}" -module-name "$module" "${sources[@]}"
}

failures=0
checked=0
while IFS= read -r file; do
    # The target is the folder under Sources/: Modules/<Package>/Sources/<Target>/.../Apple/X.swift
    module=$(echo "$file" | sed -E 's|^Modules/[^/]+/Sources/([^/]+)/.*|\1|')
    if check "$file" "$module"; then
        echo "ok: $file (module $module$(sed -n 's|^// apple-typecheck: with | with |p' "$file" | head -n 1))"
    else
        echo "FAILED: $file" >&2
        failures=$((failures + 1))
    fi
    checked=$((checked + 1))
done < <(find Modules -path '*/Sources/*' -path '*/Apple/*' -name '*.swift' | sort)

# A platform-neutral file that picks among Apple/ adapters under `#if canImport(...)` names them
# in a header line `// apple-typecheck: compose <paths or globs relative to the file>`: it is
# type-checked with them, so its Apple-only branches are checked too.
while IFS= read -r file; do
    module=$(echo "$file" | sed -E 's|^Modules/[^/]+/Sources/([^/]+)/.*|\1|')
    dir=$(dirname "$file")
    sources=("$file")
    for pattern in $(sed -n 's|^// apple-typecheck: compose ||p' "$file" | head -n 1); do
        for extra in "$dir"/$pattern; do sources+=("$extra"); done
    done
    if "$swiftc" -typecheck "${flags[@]}" -module-name "$module" "${sources[@]}"; then
        echo "ok: $file (module $module, composed with ${#sources[@]} files)"
    else
        echo "FAILED: $file" >&2
        failures=$((failures + 1))
    fi
    checked=$((checked + 1))
done < <(grep -rl --include='*.swift' '^// apple-typecheck: compose ' Modules/*/Sources | sort)

if [ "$checked" -eq 0 ]; then
    echo "no Apple/ sources found" >&2
    exit 1
fi

if [ "${1:-}" = "--self-test" ]; then
    # The right call must pass and each wrong one must fail, or the stubs prove nothing.
    for snippet in "$stubs_dir"/selftest/good-*.swift; do
        if "$swiftc" -typecheck "${flags[@]}" -module-name SelfTest "$snippet" 2>"$work/out"; then
            echo "self-test ok: $(basename "$snippet") passes"
        else
            cat "$work/out" >&2
            echo "SELF-TEST FAILED: $(basename "$snippet") should pass" >&2
            failures=$((failures + 1))
        fi
    done
    for snippet in "$stubs_dir"/selftest/bad-*.swift; do
        if "$swiftc" -typecheck "${flags[@]}" -module-name SelfTest "$snippet" 2>"$work/out"; then
            echo "SELF-TEST FAILED: $(basename "$snippet") should not type-check" >&2
            failures=$((failures + 1))
        else
            echo "self-test ok: $(basename "$snippet") is refused: $(grep -m1 'error:' "$work/out" | sed 's|.*error: ||')"
        fi
    done
fi

echo "checked $checked Apple/ files; $failures failed"
[ "$failures" -eq 0 ]
