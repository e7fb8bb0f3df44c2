"""Apple platforms, their floors, versions, and how Swift lets one platform's availability stand
for another's."""

# The platform floor: the oldest OS each Apple platform must build and run for.
FLOOR = {
    "macOS": (12, 0),
    "iOS": (15, 0),
    "macCatalyst": (15, 0),
    "tvOS": (15, 0),
    "watchOS": (8, 0),
    "visionOS": (1, 0),
}

APPLE = tuple(FLOOR)

# A version no OS reaches: "unavailable on this platform" (as a requirement), or "this code is
# never compiled / never runs on this platform" (as a context).
NEVER = (1 << 30,)

# Spellings accepted in `@available` / `#available` (PlatformKinds.def, plus the old aliases).
# Application-extension platforms only apply to extension builds, so they raise nothing here.
SPELLINGS = {
    "macOS": "macOS", "OSX": "macOS",
    "iOS": "iOS",
    "macCatalyst": "macCatalyst",
    "tvOS": "tvOS",
    "watchOS": "watchOS",
    "visionOS": "visionOS", "xrOS": "visionOS",
}


def parse_version(value):
    """'15', '15.0.1', {'major': 15, 'minor': 0} -> (15, 0, ...) without trailing zeros beyond minor."""
    if isinstance(value, dict):
        parts = [value.get("major", 0), value.get("minor", 0), value.get("patch", 0)]
    else:
        parts = [int(p) for p in str(value).split(".")]
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    while len(parts) < 2:
        parts.append(0)
    return tuple(parts)


def format_version(version):
    if version == NEVER:
        return "never"
    return ".".join(str(p) for p in version)


def visionos_from_ios(version):
    """The visionOS release that shipped alongside an iOS release (visionOS 1.0 = iOS 17.0)."""
    if version == NEVER:
        return NEVER
    major, minor = version[0], version[1]
    if major < 17:
        return (1, 0)
    if major == 17:
        return (1, max(0, minor - 3)) if minor >= 4 else (1, 0)
    if major < 26:
        return (major - 16, minor)
    return (major, minor)


def infer_requirements(explicit, runtime_query):
    """Fills in the platforms Swift derives from iOS when they are not named.

    Mac Catalyst takes iOS's availability, in attributes and in `#available` queries alike.
    visionOS takes iOS's availability in `@available` attributes (remapped to visionOS
    versions), but *not* in `#available` queries: there the iOS entry is inactive on visionOS
    and the `*` (the deployment target) applies (swift/lib/AST/PlatformKindUtils.cpp,
    `isPlatformActiveForTarget(..., ForRuntimeQuery)`).
    """
    result = dict(explicit)
    if "iOS" in explicit:
        result.setdefault("macCatalyst", explicit["iOS"])
        if not runtime_query:
            result.setdefault("visionOS", visionos_from_ios(explicit["iOS"]))
    return result
