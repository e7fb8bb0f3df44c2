#!/usr/bin/env python3
"""Fails when Swift code references an API newer than the Apple platform floor.

Reads every reference from an index store (built on Linux), looks up the referenced
declaration's Apple availability in the toolchain's symbol graphs, and reports each reference
that needs a newer OS than the floor (platforms.FLOOR) and is not inside an `#available` check
or an `@available` declaration that raises that platform high enough (swiftscan).

usage: check.py --store DIR --symbol-graphs DIR [--root DIR] [--under PATH ...]
exit status: 0 no offence, 1 offences, 2 the check itself could not run.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import indexstore  # noqa: E402
from platforms import APPLE, FLOOR, NEVER, format_version  # noqa: E402
from swiftscan import ScanError, SourceFile  # noqa: E402
from symbolgraph import SymbolGraphs  # noqa: E402

# Implicit references the compiler makes only when the deployment target has them, and
# otherwise replaces with an older declaration: `for await` calls `next(isolation:)` (SE-0421)
# from Swift 6.0's OSes on, and `next()` below them.
AVAILABILITY_AWARE_IMPLICIT = {"next(isolation:)"}

# An accessor's USR ends in v<kind> (a property) or i<kind> (a subscript); its symbol graph
# entry is the property's or subscript's, ending in vp / ip.
ACCESSOR = re.compile(r"^(s:.*[vi])[gsMrwWaluxXi]$")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--store", required=True, help="the index store (…/index/store)")
    parser.add_argument("--symbol-graphs", required=True, help="directory of *.symbols.json")
    parser.add_argument("--root", default=".", help="paths are printed relative to it (default: .)")
    parser.add_argument("--under", action="append", default=[],
                        help="check only source files under this path, relative to --root (repeatable)")
    parser.add_argument("--list-unchecked", action="store_true",
                        help="also list the #if branches only Apple platforms compile (not checked)")
    parser.add_argument("--naive", action="store_true",
                        help="(self-test) ignore #available, @available, #if, twins and implicit calls")
    return parser.parse_args(argv)


def main(argv):
    options = parse_arguments(argv)
    root = os.path.realpath(options.root)
    unders = [os.path.realpath(os.path.join(root, u)) + os.sep for u in options.under] or [root + os.sep]

    graphs = SymbolGraphs(options.symbol_graphs)

    # Every source file's record, once (a file compiled in two units has one record per unit).
    records = {}
    with indexstore.IndexStore(options.store) as store:
        for unit in store.unit_names():
            _module, unit_records, written = store.records_of_unit(unit)
            for path, record in unit_records:
                real = os.path.realpath(path)
                if not (real.endswith(".swift") and any(real.startswith(u) for u in unders)):
                    continue
                if not os.path.exists(real):
                    continue  # a unit left from a file since deleted
                if os.path.getmtime(real) > written + 1:
                    raise RuntimeError(f"{os.path.relpath(real, root)} changed after it was indexed: "
                                       "rebuild the index store")
                records.setdefault(real, set()).add(record)
        occurrences = []
        for path, names in sorted(records.items()):
            seen = set()
            for name in sorted(names):
                for occurrence in store.occurrences(path, name):
                    key = (occurrence.line, occurrence.column, occurrence.usr)
                    if key not in seen:
                        seen.add(key)
                        occurrences.append(occurrence)

    # Every Swift file on disk under the checked paths must be in the index: a target left out
    # of the build would otherwise pass unchecked.
    on_disk = set()
    for under in unders:
        for directory, _subdirectories, files in os.walk(under):
            on_disk.update(os.path.join(directory, f) for f in files if f.endswith(".swift"))
    missing = sorted(os.path.relpath(p, root) for p in on_disk - set(records))
    if missing:
        print(f"availability: {len(missing)} Swift file(s) not in the index store (not built?): "
              + ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else ""), file=sys.stderr)
        return 2

    sources = {}
    for path in records:
        with open(path, "rb") as handle:
            sources[path] = SourceFile(handle.read(), name=os.path.relpath(path, root))

    checked = 0
    checked_resolved = 0
    resolved = set()
    twins_used = 0
    offences = []
    for occurrence in occurrences:
        roles = occurrence.roles
        if not roles & (indexstore.ROLE_REFERENCE | indexstore.ROLE_CALL):
            continue
        if roles & (indexstore.ROLE_DECLARATION | indexstore.ROLE_DEFINITION):
            continue
        if (roles & indexstore.ROLE_IMPLICIT and occurrence.name in AVAILABILITY_AWARE_IMPLICIT
                and not options.naive):
            continue
        checked += 1
        usr = occurrence.usr
        if graphs.lookup(usr) is None:
            accessor = ACCESSOR.match(usr)
            usr = accessor.group(1) + "p" if accessor else usr
            if graphs.lookup(usr) is None:
                continue
        resolved.add(usr)
        checked_resolved += 1
        source = sources[occurrence.path]
        try:
            context = source.context_at(occurrence.line, occurrence.column)
            if options.naive:
                context = dict(FLOOR)
        except IndexError:
            raise SystemExit(f"availability: {source.name}:{occurrence.line} is past the end of the file; "
                             "the index is older than the source, rebuild it")
        exceeded = _exceeded(graphs.requirements(usr), context)
        if not exceeded:
            continue
        # The index may name a newer declaration that has an older twin with the same path and
        # signature (a protocol requirement beside its default implementation): the code
        # compiles against the twin there.
        if not options.naive and any(not _exceeded(graphs.requirements(twin), context)
                                     for twin in graphs.twins(usr)):
            twins_used += 1
            continue
        offences.append((source.name, occurrence.line, occurrence.column, usr, exceeded, context))

    for name, line, column, usr, exceeded, context in sorted(offences):
        symbol = graphs.lookup(usr)
        title = ".".join(symbol.path) or symbol.name
        print(f"{name}:{line}:{column}: error: {title} needs {_describe(exceeded, context)}")

    unchecked = []
    for path in sorted(sources):
        for branch in sources[path].apple_only_branches():
            unchecked.append(f"{sources[path].name}:{branch.line}")
    if options.list_unchecked:
        for location in unchecked:
            print(f"{location}: note: #if branch compiled only for Apple platforms, not checked")

    print(f"availability: {checked} references checked in {len(sources)} files "
          f"({checked_resolved} of them to {len(resolved)} symbols resolved in the toolchain's symbol graphs, "
          f"{twins_used} allowed by an older twin), "
          f"{len(unchecked)} Apple-only #if branches unchecked, "
          f"{len(offences)} offences")
    return 1 if offences else 0


def _exceeded(requirements, context):
    """{platform: version} of the requirements the context does not meet."""
    return {p: v for p, v in requirements.items() if p in context and v > context[p]}


def _describe(exceeded, context):
    parts = []
    for platform in APPLE:
        if platform not in exceeded:
            continue
        # Mac Catalyst repeats iOS when it only inherits iOS's availability and context.
        if (platform == "macCatalyst" and "iOS" in exceeded and exceeded["iOS"] == exceeded[platform]
                and context["iOS"] == context[platform]):
            continue
        need, here = exceeded[platform], context[platform]
        where = f"floor {format_version(here)}" if here == FLOOR[platform] else f"here {format_version(here)}"
        if need == NEVER:
            parts.append(f"{platform}, where it is unavailable")
        else:
            parts.append(f"{platform} {format_version(need)} ({where})")
    return ", ".join(parts)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (RuntimeError, ScanError, OSError) as error:
        print(f"availability: {error}", file=sys.stderr)
        sys.exit(2)
