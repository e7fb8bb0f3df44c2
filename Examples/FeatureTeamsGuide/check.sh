#!/usr/bin/env bash
# Walks docs/FeatureTeams.md as a new feature team would, in a fresh clone of the repository
# (in a temporary folder, removed at exit), and fails on any error or warning.
#
# The guide's example feature is Basket, which the repository already has: the walk starts from
# the clone with Modules/Basket removed, so every file the feature needs must come from the
# guide. Each fenced block of the guide is preceded by a marker line that says what to do with it:
#
#   <!-- file: PATH -->   the block is the whole content of PATH (created or replaced)
#   <!-- edit: PATH -->   each line of the block replaces the line of PATH that declares the
#                         same name (`let features = [...]` replaces the line starting `let features =`)
#   <!-- run: DIR -->     the block's commands run, in order, with `sh -eu` in DIR; they must
#                         succeed and print no `warning:`
#   <!-- fragment -->     part of a file shown for reading; not applied
#
# A ```swift or ```sh block without a marker is an error; other blocks (sample output) are text.
# Blocks apply in the guide's order, paths relative to the repository's root. At the end, the
# root package must still load, with the feature's test target in it.
#
#   Examples/FeatureTeamsGuide/check.sh [docs/FeatureTeams.md]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
guide=${1:-docs/FeatureTeams.md}
feature=Basket
[ -f "$repo/$guide" ] || { echo "check.sh: no file $guide in the repository" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
clone="$work/clone"
# The commit checked out in the repository, whatever branch (or none, in CI) it is on.
git clone --quiet --no-checkout "$repo" "$clone"
git -C "$clone" checkout --quiet --detach "$(git -C "$repo" rev-parse HEAD)"
# The guide as it is in the working tree, which may be ahead of the last commit.
cp "$repo/$guide" "$clone/$guide"
rm -rf "$clone/Modules/$feature"
# The root manifest as a team finds it before the guide: without the feature in `features`, so
# the guide's one shared edit must put it there for the check below to pass.
sed -i "s/^let features = \\[\\(.*\\)\"$feature\", \\{0,1\\}\\(.*\\)\\]$/let features = [\\1\\2]/; s/, \\]$/]/" "$clone/Package.swift"
if grep -q "^let features = .*\"$feature\"" "$clone/Package.swift"; then
    echo "check.sh: could not take $feature out of the root features list before the walk" >&2
    exit 1
fi

# Fails, listing them, when the log $1 of what $2 names holds a warning.
refuse_warnings() {
    if grep -q 'warning:' "$1"; then
        grep 'warning:' "$1" | sed "s|$clone/||g" | sort -u >&2
        echo "check.sh: $2 printed warnings" >&2
        exit 1
    fi
}

# Split the guide into blocks: blocks/<n> holds a block's text, blocks/index one line per block:
# <n> <line> <language> <kind> <argument>   (kind "none" when no marker precedes the fence).
mkdir -p "$work/blocks"
awk -v dir="$work/blocks" '
    BEGIN { kind = "none"; argument = "-" }
    out == "" && /^<!-- (file|edit|run): [^ ]+ -->$/ {
        kind = substr($2, 1, length($2) - 1); argument = $3; next
    }
    out == "" && /^<!-- fragment -->$/ { kind = "fragment"; argument = "-"; next }
    out == "" && /^```/ {
        n++; language = substr($0, 4); if (language == "") language = "text"
        out = sprintf("%s/%03d", dir, n); printf "" > out
        printf "%03d %d %s %s %s\n", n, NR, language, kind, argument >> (dir "/index")
        kind = "none"; argument = "-"; next
    }
    out != "" && /^```$/ { close(out); out = ""; next }
    out != "" { print >> out; next }
    /[^ ]/ { kind = "none"; argument = "-" }
' "$repo/$guide"
[ -s "$work/blocks/index" ] || { echo "check.sh: no fenced block in $guide" >&2; exit 1; }

inside() {   # a relative path that stays inside the clone
    case "$1" in /* | ../* | */../* | .. | */..) return 1 ;; esac
}

# Every marker is checked before anything is applied.
runs=0
while read -r n line language kind argument; do
    where="$guide:$line"
    case "$kind" in
        none)
            case "$language" in
                swift | sh | bash | shell) echo "check.sh: $where: a $language block without a marker (file, edit, run or fragment)" >&2; exit 1 ;;
            esac ;;
        fragment) ;;
        file | edit | run)
            inside "$argument" || { echo "check.sh: $where: $argument leaves the repository" >&2; exit 1; }
            [ "$kind" != run ] || runs=$((runs + 1)) ;;
        *) echo "check.sh: $where: unknown marker $kind" >&2; exit 1 ;;
    esac
done <"$work/blocks/index"
[ "$runs" -gt 0 ] || { echo "check.sh: $guide runs no command (no <!-- run: DIR --> block)" >&2; exit 1; }

files=0
edits=0
runs=0
while read -r n line language kind argument; do
    where="$guide:$line"
    case "$kind" in
        file)
            mkdir -p "$(dirname "$clone/$argument")"
            cp "$work/blocks/$n" "$clone/$argument"
            files=$((files + 1))
            echo "file $argument ($where)" ;;
        edit)
            [ -f "$clone/$argument" ] || { echo "check.sh: $where: no file $argument to edit" >&2; exit 1; }
            while IFS= read -r replacement; do
                key=${replacement%% = *}
                [ "$key" != "$replacement" ] || { echo "check.sh: $where: '$replacement' declares no name" >&2; exit 1; }
                matches=$(grep -c -F -e "$key = " "$clone/$argument" || true)
                [ "$matches" -eq 1 ] || { echo "check.sh: $where: $argument has $matches lines starting '$key = '" >&2; exit 1; }
                awk -v key="$key = " -v replacement="$replacement" \
                    'index($0, key) == 1 { print replacement; next } { print }' \
                    "$clone/$argument" >"$work/edited" && cp "$work/edited" "$clone/$argument"
            done <"$work/blocks/$n"
            edits=$((edits + 1))
            echo "edit $argument ($where)" ;;
        run)
            [ -d "$clone/$argument" ] || { echo "check.sh: $where: no folder $argument to run in" >&2; exit 1; }
            echo "run in $argument ($where):"
            sed 's/^/    /' "$work/blocks/$n"
            if ! (cd "$clone/$argument" && timeout 1200 sh -eu "$work/blocks/$n") >"$work/run-$n.log" 2>&1; then
                grep -E '(error|warning):' "$work/run-$n.log" | sed "s|$clone/||g" | sort -u >&2 || true
                tail -n 10 "$work/run-$n.log" | sed "s|$clone/||g" >&2
                echo "check.sh: $where: the commands failed" >&2
                exit 1
            fi
            refuse_warnings "$work/run-$n.log" "$where: the commands"
            grep "Test run with" "$work/run-$n.log" | tail -n 1 || true
            runs=$((runs + 1)) ;;
    esac
done <"$work/blocks/index"

# The one shared edit took: the root package loads and has the feature's test target.
if ! (cd "$clone" && timeout 300 swift package describe --type json) >"$work/describe.json" 2>"$work/describe.log"; then
    tail -n 20 "$work/describe.log" >&2
    echo "check.sh: the root package does not load after the guide's edits" >&2
    exit 1
fi
if ! grep -q "\"path\" : \"Modules/$feature/Tests/${feature}Tests\"" "$work/describe.json"; then
    echo "check.sh: the root package has no test target on Modules/$feature/Tests/${feature}Tests" >&2
    exit 1
fi
# ... and builds it, from the root, with no warning.
if ! (cd "$clone" && timeout 900 swift build --target "${feature}Tests") >"$work/root-build.log" 2>&1; then
    tail -n 20 "$work/root-build.log" >&2
    echo "check.sh: the root package's ${feature}Tests target does not build after the guide's edits" >&2
    exit 1
fi
refuse_warnings "$work/root-build.log" "the root build of ${feature}Tests"
echo "$guide: $files files, $edits edits, $runs command blocks: the feature builds and its tests pass, with no warning"
