"""Prints public type and symbol counts per module from symbol graph directories.

Usage: count_symbols.py DIR MODULE...   (DIR/MODULE holds MODULE.symbols.json and any
MODULE@Other.symbols.json, the extensions MODULE declares on other modules' types.)
"""
import json
import pathlib
import sys

TYPE_KINDS = {"swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


def count(directory: pathlib.Path, module: str) -> tuple[int, int, list[str]]:
    types = symbols = 0
    extended = []
    for graph in sorted(directory.glob(f"{module}*.symbols.json")):
        data = json.loads(graph.read_text())
        found = [s for s in data["symbols"] if s["accessLevel"] in ("public", "open")]
        if graph.name != f"{module}.symbols.json":
            other = graph.name[len(module) + 1:-len(".symbols.json")]
            extended += [f"{other}: {'.'.join(s['pathComponents'])}" for s in found]
        symbols += len(found)
        types += sum(1 for s in found if s["kind"]["identifier"] in TYPE_KINDS)
    return types, symbols, extended


def main() -> None:
    root = pathlib.Path(sys.argv[1])
    print(f"{'module':<20} {'types':>6} {'symbols':>8}")
    for module in sys.argv[2:]:
        types, symbols, extended = count(root / module, module)
        print(f"{module:<20} {types:>6} {symbols:>8}")
        for line in extended:
            print(f"    extends {line}")


if __name__ == "__main__":
    main()
