"""A small Swift source scanner: which OS versions a position in a file is guaranteed to run on.

It finds the availability *contexts* the Swift compiler would build for Apple platforms:

* `if #available(...) { here }`, `while #available(...) { here }`, and the conditions that
  follow the `#available` in the same condition list;
* `guard #available(...) else { ... }` followed by `here` up to the end of the enclosing block;
* `if #unavailable(...) { ... } else { here }` and `guard #unavailable(...) else { here }`;
* declarations annotated `@available(...)` (types, extensions, functions, properties, ...),
  from the attribute to the end of the declaration;
* `#if` branches that no Apple platform compiles (`#if os(Linux)`, `#if canImport(Glibc)`):
  there the context is NEVER for the platforms that skip the branch.

Positions are byte offsets (the index store's columns count UTF-8 bytes), so the text is read as
Latin-1: every byte is one character, and Swift's syntax is all ASCII.

It is a scanner, not a parser: it understands comments (nested), string literals (multi-line,
raw, with interpolations), `#/regex/#` literals and balanced brackets, and it leans towards
*smaller* regions when unsure, so a doubt shows up as a reported reference, not a silent pass.
Bare `/regex/` literals are not recognised.
"""

from platforms import FLOOR
from scan_conditions import AvailabilityConditions
from scan_declarations import AvailableAttributes
from scan_directives import ConditionalCompilation
from swifttokens import ConditionalBranch, Lexer, Region, ScanError, Token

__all__ = ["ConditionalBranch", "Lexer", "Region", "ScanError", "SourceFile", "Token"]


class SourceFile(ConditionalCompilation, AvailabilityConditions, AvailableAttributes):
    def __init__(self, text_bytes, name="<source>"):
        self.name = name
        self.text = text_bytes.decode("latin-1")
        self.line_starts = [0]
        for index, ch in enumerate(self.text):
            if ch == "\n":
                self.line_starts.append(index + 1)
        self.tokens = Lexer(self.text).run()
        self._match = self._match_brackets()
        self.regions = []
        self.branches = []
        self._conditional_compilation()
        self._availability_conditions()
        self._available_attributes()

    # --- positions ---------------------------------------------------------------------------
    def offset(self, line, column):
        return self.line_starts[line - 1] + column - 1

    def line_of(self, offset):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def context_at(self, line, column):
        """{platform: the lowest OS version code at this position can run on (NEVER: does not)}."""
        offset = self.offset(line, column)
        context = dict(FLOOR)
        for region in self.regions:
            if region.start <= offset < region.end:
                for platform, version in region.context.items():
                    if version > context[platform]:
                        context[platform] = version
        return context

    # --- brackets ----------------------------------------------------------------------------
    def _match_brackets(self):
        """Token index -> index of its partner, for (), [] and {}; unmatched ones map to None."""
        pairs = {")": "(", "]": "[", "}": "{"}
        match, stack = {}, []
        for index, token in enumerate(self.tokens):
            if token.kind != "punct":
                continue
            if token.text in "([{":
                stack.append(index)
            elif token.text in pairs:
                # Pop to the nearest opener of the right kind; openers skipped are unmatched.
                while stack and self.tokens[stack[-1]].text != pairs[token.text]:
                    match[stack.pop()] = None
                if stack:
                    opener = stack.pop()
                    match[opener] = index
                    match[index] = opener
                else:
                    match[index] = None
        for opener in stack:
            match[opener] = None
        return match

    def _is(self, index, kind, text=None):
        if index < 0 or index >= len(self.tokens):
            return False
        token = self.tokens[index]
        return token.kind == kind and (text is None or token.text == text)

    def _end_of_group(self, index):
        """The token index after a balanced group opening at index (or index+1 if unmatched)."""
        partner = self._match.get(index)
        return (partner + 1) if partner is not None else index + 1

    def _enclosing_block_end(self, index):
        """Offset of the '}' closing the innermost brace block around token index (EOF if none)."""
        depth = 0
        for j in range(index - 1, -1, -1):
            token = self.tokens[j]
            if token.kind != "punct":
                continue
            if token.text == "}":
                depth += 1
            elif token.text == "{":
                if depth == 0:
                    partner = self._match.get(j)
                    return self.tokens[partner].start if partner is not None else len(self.text)
                depth -= 1
        return len(self.text)
