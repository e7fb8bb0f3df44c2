"""Apple availability of the toolchain's own modules, from `swift symbolgraph-extract` output.

A symbol graph lists, for every public declaration, its `availability`: one entry per domain
(`macOS`, `iOS`, `tvOS`, `watchOS`, `visionOS`, `macCatalyst`, `*`, `Swift`, ...) with an
`introduced` version and/or `isUnconditionallyUnavailable`. The index store names declarations by
USR, which is the symbol graph's `identifier.precise`.
"""

import glob
import json
import os

from platforms import APPLE, NEVER, infer_requirements, parse_version


class Symbol:
    __slots__ = ("usr", "name", "kind", "path", "declaration", "own", "parent", "module")

    def __init__(self, usr, name, kind, path, declaration, own, module):
        self.usr = usr
        self.name = name
        self.kind = kind
        self.path = path
        self.declaration = declaration
        self.own = own            # {platform: version tuple or NEVER}, as annotated on this symbol
        self.parent = None        # USR of the type or protocol it is a member of
        self.module = module


def _own_requirements(availability):
    explicit = {}
    for entry in availability or ():
        domain = entry.get("domain")
        if domain == "*":
            if entry.get("isUnconditionallyUnavailable"):
                # Unavailable everywhere: cannot have compiled on Linux, so nothing to say.
                pass
            continue
        if domain not in APPLE and domain not in ("xrOS",):
            continue
        domain = "visionOS" if domain == "xrOS" else domain
        if entry.get("isUnconditionallyUnavailable"):
            explicit[domain] = NEVER
        elif "introduced" in entry:
            explicit[domain] = parse_version(entry["introduced"])
    return infer_requirements(explicit, runtime_query=False)


def _declaration_text(symbol):
    text = "".join(fragment.get("spelling", "") for fragment in symbol.get("declarationFragments", ()))
    return " ".join(text.split())


class SymbolGraphs:
    CACHE = "availability-cache.json"
    CACHE_FORMAT = 1

    def __init__(self, directory):
        self.by_usr = {}
        self.by_signature = {}
        self._effective = {}
        files = sorted(glob.glob(os.path.join(directory, "*.symbols.json")))
        if not files:
            raise RuntimeError("no *.symbols.json under " + directory)
        cache = os.path.join(directory, self.CACHE)
        if not self._load_cache(cache, files):
            for file in files:
                self._load_graph(file)
            self._write_cache(cache)
        for symbol in self.by_usr.values():
            self.by_signature.setdefault(self._signature(symbol), []).append(symbol.usr)

    def _load_graph(self, file):
        module = os.path.basename(file)[: -len(".symbols.json")]
        with open(file, encoding="utf-8") as handle:
            graph = json.load(handle)
        for raw in graph.get("symbols", ()):
            usr = raw["identifier"]["precise"]
            symbol = Symbol(
                usr=usr,
                name=raw.get("names", {}).get("title", ""),
                kind=raw.get("kind", {}).get("identifier", ""),
                path=tuple(raw.get("pathComponents", ())),
                declaration=_declaration_text(raw),
                own=_own_requirements(raw.get("availability")),
                module=module,
            )
            previous = self.by_usr.get(usr)
            if previous is not None:
                # The same declaration seen from two graphs (e.g. a re-export): keep the stricter.
                symbol.own = _stricter(previous.own, symbol.own)
                symbol.parent = previous.parent
            self.by_usr[usr] = symbol
        for relation in graph.get("relationships", ()):
            if relation.get("kind") == "memberOf":
                member = self.by_usr.get(relation["source"])
                if member is not None and member.parent is None:
                    member.parent = relation["target"]

    def _load_cache(self, cache, files):
        """The symbols as a previous run distilled them, if no graph is newer than the cache."""
        try:
            stamp = os.path.getmtime(cache)
            if any(os.path.getmtime(f) > stamp for f in files):
                return False
            with open(cache, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            return False
        if data.get("format") != self.CACHE_FORMAT or data.get("files") != [os.path.basename(f) for f in files]:
            return False
        for usr, (name, kind, path, declaration, own, parent, module) in data["symbols"].items():
            symbol = Symbol(usr, name, kind, tuple(path), declaration,
                            {p: tuple(v) for p, v in own.items()}, module)
            symbol.parent = parent
            self.by_usr[usr] = symbol
        return True

    def _write_cache(self, cache):
        files = sorted(os.path.basename(f) for f in glob.glob(os.path.join(os.path.dirname(cache), "*.symbols.json")))
        data = {"format": self.CACHE_FORMAT, "files": files, "symbols": {
            s.usr: [s.name, s.kind, list(s.path), s.declaration, {p: list(v) for p, v in s.own.items()},
                    s.parent, s.module] for s in self.by_usr.values()}}
        try:
            temporary = cache + ".tmp"
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump(data, handle, separators=(",", ":"))
            os.replace(temporary, cache)
        except OSError:
            pass  # a read-only directory: no cache, same answers

    @staticmethod
    def _signature(symbol):
        return (symbol.path, symbol.kind, symbol.declaration)

    def __len__(self):
        return len(self.by_usr)

    def lookup(self, usr):
        return self.by_usr.get(usr)

    def requirements(self, usr):
        """{platform: version or NEVER} the declaration needs, its enclosing types' included."""
        cached = self._effective.get(usr)
        if cached is not None:
            return cached
        symbol = self.by_usr.get(usr)
        if symbol is None:
            return None
        self._effective[usr] = {}  # cycle guard
        needs = dict(symbol.own)
        seen = {usr}
        parent = symbol.parent
        while parent and parent not in seen and parent in self.by_usr:
            seen.add(parent)
            needs = _stricter(needs, self.by_usr[parent].own)
            parent = self.by_usr[parent].parent
        self._effective[usr] = needs
        return needs

    def twins(self, usr):
        """Other declarations with the same path, kind and declaration text: a protocol
        requirement and its default implementation, say (`FixedWidthInteger.&*`)."""
        symbol = self.by_usr.get(usr)
        if symbol is None:
            return []
        return [other for other in self.by_signature.get(self._signature(symbol), ()) if other != usr]


def _stricter(a, b):
    merged = dict(a)
    for platform, version in b.items():
        if platform not in merged or version > merged[platform]:
            merged[platform] = version
    return merged
