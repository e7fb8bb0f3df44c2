"""The platform lists inside `#available(...)` and `@available(...)`, for swiftscan."""

from platforms import APPLE, NEVER, SPELLINGS, infer_requirements, parse_version


def _parse_specs(tokens, runtime_query):
    """`macOS 15, iOS 18.0, *` (a #available list) -> {platform: version}."""
    explicit = {}
    for group in _split_commas(tokens):
        if len(group) >= 2 and group[0].kind == "ident" and group[1].kind == "number":
            platform = SPELLINGS.get(group[0].text)
            if platform:
                explicit[platform] = parse_version(group[1].text)
    return infer_requirements(explicit, runtime_query=runtime_query)


def _parse_available_attribute(tokens):
    """The arguments of one `@available(...)` -> {platform: version or NEVER} it requires."""
    groups = _split_commas(tokens)
    if not groups or not groups[0]:
        return {}
    head = groups[0]
    if head[0].text == "*":
        if any(len(g) == 1 and g[0].text == "unavailable" for g in groups[1:]):
            return {p: NEVER for p in APPLE}
        return {}
    if len(head) == 1 and head[0].kind == "ident":
        # Long form: @available(macOS, introduced: 15.0, deprecated: ...) / (iOS, unavailable)
        platform = SPELLINGS.get(head[0].text)
        if not platform:
            return {}
        for group in groups[1:]:
            if len(group) == 1 and group[0].text == "unavailable":
                return {platform: NEVER}
            if (len(group) >= 3 and group[0].text == "introduced" and group[1].text == ":"
                    and group[2].kind == "number"):
                return {platform: parse_version(group[2].text)}
        return {}
    # Short form: @available(macOS 15, iOS 18, *)
    explicit = {}
    for group in groups:
        if len(group) >= 2 and group[0].kind == "ident" and group[1].kind == "number":
            platform = SPELLINGS.get(group[0].text)
            if platform:
                explicit[platform] = parse_version(group[1].text)
    return explicit


def _split_commas(tokens):
    groups, current, depth = [], [], 0
    for token in tokens:
        if token.kind == "punct" and token.text in "([{":
            depth += 1
        elif token.kind == "punct" and token.text in ")]}":
            depth -= 1
        if token.kind == "punct" and token.text == "," and depth == 0:
            groups.append(current)
            current = []
        else:
            current.append(token)
    groups.append(current)
    return groups
