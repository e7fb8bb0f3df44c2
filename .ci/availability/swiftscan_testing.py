"""What the source scanner's unit tests share: the raised context and the contexts at markers."""

import textwrap

from swiftscan import SourceFile

NEW = "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *"
RAISED = {"macOS": (15, 0), "iOS": (18, 0), "macCatalyst": (18, 0), "tvOS": (18, 0),
          "watchOS": (11, 0), "visionOS": (2, 0)}


def contexts(source):
    """{marker: context} for every identifier MARK<n> in the source."""
    source = textwrap.dedent(source)
    scanned = SourceFile(source.encode("utf-8"))
    found = {}
    for token in scanned.tokens:
        if token.kind == "ident" and token.text.startswith("MARK"):
            line = scanned.line_of(token.start)
            column = token.start - scanned.line_starts[line - 1] + 1
            found[token.text] = scanned.context_at(line, column)
    return found
