"""`#available` / `#unavailable` conditions of a source file, for swiftscan's SourceFile."""

from swiftattributes import _parse_specs
from swifttokens import Region


class AvailabilityConditions:
    """SourceFile's `if`/`guard`/`while #available` part: adds the regions they guard."""

    def _availability_conditions(self):
        for index, token in enumerate(self.tokens):
            if token.kind != "pound" or token.text not in ("#available", "#unavailable"):
                continue
            if not self._is(index + 1, "punct", "("):
                continue
            close = self._match.get(index + 1)
            if close is None:
                continue
            specs = _parse_specs(self.tokens[index + 2:close], runtime_query=True)
            if not specs:
                continue
            statement = self._condition_owner(index)
            if statement is None:
                continue
            keyword = self.tokens[statement].text
            reason = f"{token.text} at line {self.line_of(token.start)}"
            if keyword in ("if", "while"):
                body = self._find_at_depth(close + 1, "{")
                if body is None or self._match.get(body) is None:
                    continue
                body_end = self._match[body]
                if token.text == "#available":
                    self.regions.append(Region(self.tokens[close].end, self.tokens[body_end].end, specs, reason))
                elif keyword == "if" and self._is(body_end + 1, "ident", "else"):
                    else_end = self._else_clause_end(body_end + 1)
                    self.regions.append(Region(self.tokens[body_end + 1].start, else_end, specs, reason))
            elif keyword == "guard":
                else_index = self._find_at_depth(close + 1, "else", kind="ident")
                if else_index is None or not self._is(else_index + 1, "punct", "{"):
                    continue
                else_close = self._match.get(else_index + 1)
                if else_close is None:
                    continue
                if token.text == "#available":
                    self.regions.append(Region(self.tokens[close].end, self.tokens[else_index].start, specs, reason))
                    self.regions.append(Region(self.tokens[else_close].end,
                                               self._scope_end_after(statement, else_close + 1), specs, reason))
                else:
                    self.regions.append(Region(self.tokens[else_index + 1].start,
                                               self.tokens[else_close].end, specs, reason))

    def _condition_owner(self, index):
        """The `if`/`guard`/`while` whose condition list holds token index, or None."""
        j = index - 1
        while j >= 0:
            token = self.tokens[j]
            if token.kind == "punct" and token.text in ")]":
                opener = self._match.get(j)
                if opener is None:
                    return None
                j = opener - 1
                continue
            if token.kind == "punct" and token.text in "{}([;":
                return None
            if token.kind == "ident" and token.text in ("if", "guard", "while"):
                return j
            j -= 1
        return None

    def _find_at_depth(self, index, text, kind="punct"):
        """The first token `text` at bracket depth 0 from index; None past a '{', '}' or ';'."""
        j = index
        while j < len(self.tokens):
            token = self.tokens[j]
            if token.kind == kind and token.text == text:
                return j
            if token.kind == "punct" and token.text in "([":
                j = self._end_of_group(j)
                continue
            if token.kind == "punct" and token.text in "{};":
                return None
            j += 1
        return None

    def _scope_end_after(self, statement, index):
        """Where the statements that follow token index, in the block holding token statement,
        end: the enclosing block's '}', or the next `case`/`default` label of a switch."""
        limit = self._enclosing_block_end(statement)
        j = index
        while j < len(self.tokens) and self.tokens[j].start < limit:
            token = self.tokens[j]
            if token.kind == "punct" and token.text in "([{":
                j = self._end_of_group(j)
                continue
            if token.kind == "ident" and token.text in ("case", "default") and (
                    token.newline_before or self._is(j - 1, "punct", ";")
                    or self._is(j - 1, "at")):
                return token.start if not self._is(j - 1, "at") else self.tokens[j - 1].start
            j += 1
        return limit

    def _else_clause_end(self, else_index):
        """End offset of `else { ... }` or `else if ... { ... } [else ...]` starting at else_index."""
        nxt = else_index + 1
        if self._is(nxt, "punct", "{"):
            partner = self._match.get(nxt)
            return self.tokens[partner].end if partner is not None else self.tokens[nxt].end
        if self._is(nxt, "ident", "if"):
            body = self._find_at_depth(nxt + 1, "{")
            if body is None or self._match.get(body) is None:
                return self.tokens[nxt].end
            body_end = self._match[body]
            if self._is(body_end + 1, "ident", "else"):
                return self._else_clause_end(body_end + 1)
            return self.tokens[body_end].end
        return self.tokens[else_index].end
