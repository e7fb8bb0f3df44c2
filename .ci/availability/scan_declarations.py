"""`@available` declarations of a source file, for swiftscan's SourceFile."""

from platforms import infer_requirements
from swiftattributes import _parse_available_attribute
from swifttokens import Region

# Words that begin a declaration.
BLOCK_DECLS = {"class", "struct", "enum", "protocol", "extension", "actor", "func", "init",
               "deinit", "subscript", "macro"}
LINE_DECLS = {"typealias", "associatedtype", "case", "import", "operator", "precedencegroup"}
VALUE_DECLS = {"var", "let"}
DECL_KEYWORDS = BLOCK_DECLS | LINE_DECLS | VALUE_DECLS
MODIFIERS = {"public", "private", "fileprivate", "internal", "package", "open", "final", "static",
             "class", "override", "required", "convenience", "mutating", "nonmutating", "lazy",
             "weak", "unowned", "dynamic", "optional", "indirect", "nonisolated", "isolated",
             "consuming", "borrowing", "distributed", "prefix", "postfix", "infix", "async",
             "__consuming", "sending"}



class AvailableAttributes:
    """SourceFile's `@available` part: adds a region from each attribute to its declaration's end."""

    def _available_attributes(self):
        index = 0
        tokens = self.tokens
        while index < len(tokens):
            if not (tokens[index].kind == "at" and tokens[index].text == "@available"):
                index += 1
                continue
            first = index
            explicit_sets = []
            j = index
            # The attribute list and modifiers, up to the declaration keyword.
            while j < len(tokens):
                token = tokens[j]
                if token.kind == "at":
                    arguments = None
                    nxt = j + 1
                    if self._is(nxt, "punct", "(") and (tokens[nxt].start == token.end
                                                        or token.text == "@available"):
                        arguments = nxt
                    if token.text == "@available" and arguments is not None and self._match.get(arguments):
                        explicit_sets.append(_parse_available_attribute(tokens[arguments + 1:self._match[arguments]]))
                    j = self._end_of_group(arguments) if arguments is not None else j + 1
                    continue
                if token.kind == "ident" and token.text in MODIFIERS and not (
                        token.text == "class" and self._next_is_decl_name(j)):
                    j += 1
                    if self._is(j, "punct", "(") and tokens[j].start == tokens[j - 1].end:
                        j = self._end_of_group(j)
                    continue
                break
            if j >= len(tokens) or tokens[j].kind != "ident" or tokens[j].text not in DECL_KEYWORDS:
                index = j if j > index else index + 1
                continue
            explicit = {}
            for attribute in explicit_sets:
                for platform, version in attribute.items():
                    # Two attributes naming one platform: keep the lower (the safer guess).
                    explicit[platform] = min(version, explicit.get(platform, version))
            context = infer_requirements(explicit, runtime_query=False)
            if context:
                end = self._declaration_end(j)
                self.regions.append(Region(tokens[first].start, end, context,
                                           f"@available at line {self.line_of(tokens[first].start)}"))
            index = j + 1

    def _next_is_decl_name(self, index):
        """`class Foo` (a declaration) rather than `class func` (a modifier)."""
        nxt = index + 1
        return nxt < len(self.tokens) and not (
            self.tokens[nxt].kind == "ident" and (self.tokens[nxt].text in DECL_KEYWORDS or
                                                  self.tokens[nxt].text in MODIFIERS))

    def _starts_declaration(self, index):
        token = self.tokens[index]
        if token.kind in ("at", "pound"):
            return True
        return token.kind == "ident" and (token.text in DECL_KEYWORDS or token.text in MODIFIERS)

    def _declaration_end(self, keyword_index):
        """End offset of the declaration whose keyword is at keyword_index."""
        tokens = self.tokens
        keyword = tokens[keyword_index].text
        j = keyword_index + 1
        last_end = tokens[keyword_index].end
        while j < len(tokens):
            token = tokens[j]
            if token.kind == "punct" and token.text in "};":
                return last_end
            if j > keyword_index + 1 and token.newline_before:
                if self._starts_declaration(j):
                    return last_end
                if keyword not in BLOCK_DECLS and not self._continues(j):
                    return last_end
            if token.kind == "punct" and token.text == "{":
                partner = self._match.get(j)
                if partner is None:
                    return last_end
                last_end = tokens[partner].end
                if keyword in BLOCK_DECLS:
                    return last_end
                j = partner + 1
                continue
            if token.kind == "punct" and token.text in "([":
                partner = self._match.get(j)
                if partner is None:
                    return last_end
                last_end = tokens[partner].end
                j = partner + 1
                continue
            last_end = token.end
            j += 1
        return last_end

    def _continues(self, index):
        """Whether the line starting at token index continues the previous line's expression."""
        token, previous = self.tokens[index], self.tokens[index - 1]
        if token.kind == "punct" and token.text in ".+-*/%&|^?:=<>,{":
            return True
        if token.kind == "ident" and token.text in ("where", "throws", "rethrows", "async", "as", "is"):
            return True
        if previous.kind == "punct" and previous.text in ".+-*/%&|^?:=<>,([":
            return True
        return False
