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

from dataclasses import dataclass, field

from platforms import APPLE, FLOOR, NEVER, SPELLINGS, infer_requirements, parse_version

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


@dataclass
class Token:
    kind: str          # ident, pound (#available, #if...), at (@available...), punct, string, number, regex
    text: str
    start: int
    end: int
    newline_before: bool = False


@dataclass
class Region:
    start: int
    end: int
    context: dict              # {platform: version or NEVER}: the OS the code here runs on at least
    reason: str = ""


@dataclass
class ConditionalBranch:
    start: int                 # the directive's offset
    end: int                   # the next directive's offset
    line: int
    live_on_linux: bool
    dead_on: frozenset = field(default_factory=frozenset)   # Apple platforms that skip it
    code: bool = False         # holds something besides import declarations


class ScanError(Exception):
    pass


def _is_ident_char(ch):
    return ch.isalnum() or ch == "_" or ord(ch) >= 0x80


class Lexer:
    def __init__(self, text):
        self.text = text
        self.n = len(text)
        self.tokens = []
        self.silent = 0

    def run(self):
        self._code(0, None)
        return self.tokens

    def _code(self, i, closer):
        """Lex code from i; with closer=')' stop at the unbalanced ')' that ends a string
        interpolation."""
        text, n = self.text, self.n
        depth = 0
        newline = True
        while i < n:
            ch = text[i]
            if ch == "\n":
                newline = True
                i += 1
                continue
            if ch in " \t\r\f\v":
                i += 1
                continue
            if text.startswith("//", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
                continue
            if text.startswith("/*", i):
                i = self._block_comment(i)
                continue
            start = i
            if ch == '"' or (ch == "#" and self._raw_string_at(i)):
                i = self._string(i)
                self._add("string", start, i, newline)
            elif ch == "#" and self._raw_regex_at(i):
                i = self._regex(i)
                self._add("regex", start, i, newline)
            elif ch == "#" and i + 1 < n and _is_ident_char(text[i + 1]):
                i += 1
                while i < n and _is_ident_char(text[i]):
                    i += 1
                self._add("pound", start, i, newline)
            elif ch == "@" and i + 1 < n and _is_ident_char(text[i + 1]):
                i += 1
                while i < n and _is_ident_char(text[i]):
                    i += 1
                self._add("at", start, i, newline)
            elif ch == "`":
                j = text.find("`", i + 1)
                i = n if j < 0 else j + 1
                self._add("ident", start, i, newline)
            elif ch == "$" or _is_ident_char(ch):
                kind = "number" if ch.isdigit() else "ident"
                i += 1
                while i < n and (_is_ident_char(text[i]) or (kind == "number" and text[i] == "."
                                                              and i + 1 < n and text[i + 1].isdigit())):
                    i += 1
                self._add(kind, start, i, newline)
            else:
                if closer and ch == "(":
                    depth += 1
                elif closer and ch == ")":
                    if depth == 0:
                        return i + 1
                    depth -= 1
                i += 1
                self._add("punct", start, i, newline)
            newline = False
        if closer:
            raise ScanError("unterminated string interpolation")
        return i

    def _add(self, kind, start, end, newline):
        if self.silent:
            return  # inside a string interpolation: the whole literal is one opaque token
        self.tokens.append(Token(kind, self.text[start:end], start, end, newline))

    def _block_comment(self, i):
        depth = 0
        n = self.n
        while i < n:
            if self.text.startswith("/*", i):
                depth += 1
                i += 2
            elif self.text.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        raise ScanError("unterminated block comment")

    def _raw_string_at(self, i):
        j = i
        while j < self.n and self.text[j] == "#":
            j += 1
        return j < self.n and self.text[j] == '"'

    def _raw_regex_at(self, i):
        j = i
        while j < self.n and self.text[j] == "#":
            j += 1
        return j > i and j < self.n and self.text[j] == "/"

    def _string(self, i):
        """Skips a string literal starting at i (at its leading '#'s or '"'); returns its end."""
        text, n = self.text, self.n
        hashes = 0
        while text[i] == "#":
            hashes += 1
            i += 1
        multiline = text.startswith('"""', i)
        quote = '"""' if multiline else '"'
        i += len(quote)
        terminator = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(terminator, i):
                return i + len(terminator)
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    self.silent += 1
                    try:
                        i = self._code(i + 1, ")")
                    finally:
                        self.silent -= 1
                else:
                    i += 1
                continue
            if text[i] == "\n" and not multiline:
                raise ScanError("unterminated string literal")
            i += 1
        raise ScanError("unterminated string literal")

    def _regex(self, i):
        text, n = self.text, self.n
        hashes = 0
        while text[i] == "#":
            hashes += 1
            i += 1
        i += 1  # the '/'
        terminator = "/" + "#" * hashes
        while i < n:
            if text[i] == "\\":
                i += 2
                continue
            if text.startswith(terminator, i):
                return i + len(terminator)
            i += 1
        raise ScanError("unterminated regex literal")


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


class SourceFile:
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

    # --- #if ---------------------------------------------------------------------------------
    def _conditional_compilation(self):
        groups, stack = [], []
        for index, token in enumerate(self.tokens):
            if token.kind != "pound" or token.text not in ("#if", "#elseif", "#else", "#endif"):
                continue
            if token.text == "#if":
                stack.append([index])
                continue
            if not stack:
                raise ScanError(f"{self.name}:{self.line_of(token.start)}: {token.text} without #if")
            stack[-1].append(index)
            if token.text == "#endif":
                groups.append(stack.pop())
        if stack:
            raise ScanError(f"{self.name}: #if without #endif")
        groups.sort()
        for group in groups:
            taken = {p: False for p in APPLE + ("Linux",)}   # False / True / None (cannot tell)
            for position, index in enumerate(group[:-1]):
                token = self.tokens[index]
                end = self.tokens[group[position + 1]].start
                if token.text == "#else":
                    values = {p: True for p in taken}
                else:
                    condition = self._directive_condition(index)
                    values = {p: _evaluate(condition, p) for p in taken}
                # Skipped on p if an earlier branch is certainly taken there, or if its own
                # condition is certainly false there.
                dead = {p for p in taken if taken[p] is True or values[p] is False}
                for p in taken:
                    if taken[p] is not True and values[p] is not False:
                        taken[p] = values[p] if taken[p] is False else (True if values[p] is True else None)
                body_start = self._directive_condition_end(index)
                self.branches.append(ConditionalBranch(
                    start=token.start, end=end, line=self.line_of(token.start),
                    live_on_linux="Linux" not in dead,
                    dead_on=frozenset(p for p in APPLE if p in dead),
                    code=self._has_code(body_start, end)))
        # A branch nested in a branch a platform skips is skipped there too.
        for branch in self.branches:
            for outer in self.branches:
                if outer.start < branch.start < outer.end:
                    branch.live_on_linux = branch.live_on_linux and outer.live_on_linux
                    branch.dead_on = branch.dead_on | outer.dead_on
        for branch in self.branches:
            if branch.dead_on:
                self.regions.append(Region(branch.start, branch.end, {p: NEVER for p in branch.dead_on},
                                           f"#if branch at line {branch.line} not compiled there"))

    def apple_only_branches(self):
        """#if branches with code that some Apple platform compiles but Linux does not: the index
        has nothing from them, so they are not checked."""
        return [b for b in self.branches if not b.live_on_linux and b.code and len(b.dead_on) < len(APPLE)]

    def _directive_condition(self, index):
        line = self.line_of(self.tokens[index].start)
        condition = []
        for token in self.tokens[index + 1:]:
            if self.line_of(token.start) != line:
                break
            condition.append(token)
        return condition

    def _directive_condition_end(self, index):
        condition = self._directive_condition(index)
        return condition[-1].end if condition else self.tokens[index].end

    def _has_code(self, start, end):
        """True if [start, end) holds tokens other than `import X` lines."""
        tokens = [t for t in self.tokens if start <= t.start < end]
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.kind == "ident" and token.text == "import":
                line = self.line_of(token.start)
                while i < len(tokens) and self.line_of(tokens[i].start) == line:
                    i += 1
                continue
            if token.kind == "at" and i + 1 < len(tokens) and tokens[i + 1].text == "import":
                i += 1  # @_exported import, @preconcurrency import
                continue
            return True
        return False

    # --- #available / #unavailable ------------------------------------------------------------
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

    # --- @available ----------------------------------------------------------------------------
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


# --- #if conditions ------------------------------------------------------------------------------

_OS_NAMES = {
    "macOS": {"macOS", "OSX"},
    "iOS": {"iOS"},
    "macCatalyst": {"iOS"},
    "tvOS": {"tvOS"},
    "watchOS": {"watchOS"},
    "visionOS": {"visionOS", "xrOS"},
    "Linux": {"Linux"},
}
_NOT_ON_APPLE = {"Glibc", "Musl", "WinSDK", "ucrt", "CRT", "Android", "Bionic", "WASILibc",
                 "FoundationNetworking", "FoundationXML", "wasi_pthread"}
_APPLE_ONLY = {"Darwin", "ObjectiveC", "os", "CoreFoundation", "UIKit", "AppKit", "SwiftUI", "Combine",
               "CryptoKit", "Network", "OSLog", "Security", "CoreGraphics", "WatchKit", "UserNotifications"}
_ON_LINUX = {"Glibc", "Foundation", "FoundationNetworking", "FoundationXML", "Dispatch",
             "FoundationEssentials", "Synchronization", "Testing", "XCTest"}


def _evaluate(tokens, platform):
    """True / False / None (cannot tell) for a #if condition on a platform."""
    parser = _ConditionParser(tokens, platform)
    try:
        value = parser.expression()
    except (IndexError, ValueError):
        return None
    return value if parser.at_end() else None


class _ConditionParser:
    def __init__(self, tokens, platform):
        self.tokens = tokens
        self.i = 0
        self.platform = platform

    def at_end(self):
        return self.i >= len(self.tokens)

    def peek(self, offset=0):
        index = self.i + offset
        return self.tokens[index].text if index < len(self.tokens) else None

    def expression(self):
        value = self.conjunction()
        while self.peek() == "|" and self.peek(1) == "|":
            self.i += 2
            right = self.conjunction()
            value = True if (value is True or right is True) else (False if value is False and right is False else None)
        return value

    def conjunction(self):
        value = self.unary()
        while self.peek() == "&" and self.peek(1) == "&":
            self.i += 2
            right = self.unary()
            value = False if (value is False or right is False) else (True if value is True and right is True else None)
        return value

    def unary(self):
        if self.peek() == "!":
            self.i += 1
            value = self.unary()
            return None if value is None else not value
        if self.peek() == "(":
            self.i += 1
            value = self.expression()
            if self.peek() != ")":
                raise ValueError("expected )")
            self.i += 1
            return value
        name = self.peek()
        if name is None:
            raise ValueError("expected a condition")
        self.i += 1
        if name in ("true", "false"):
            return name == "true"
        if self.peek() != "(":
            return None  # DEBUG, a custom flag, $Feature
        depth, args = 0, []
        while True:
            text = self.peek()
            if text is None:
                raise ValueError("unbalanced")
            self.i += 1
            if text == "(":
                depth += 1
                if depth == 1:
                    continue
            elif text == ")":
                depth -= 1
                if depth == 0:
                    break
            args.append(text)
        argument = "".join(args)
        linux = self.platform == "Linux"
        if name == "os":
            return argument in _OS_NAMES[self.platform]
        if name == "canImport":
            module = argument.split(",")[0].split(".")[0]
            if linux:
                if module in _ON_LINUX:
                    return True
                if module in _APPLE_ONLY:
                    return False
                return None
            if module in _NOT_ON_APPLE:
                return False
            if module in ("Darwin", "Foundation", "Dispatch", "ObjectiveC"):
                return True
            return None
        if name == "targetEnvironment":
            if argument == "macCatalyst":
                return self.platform == "macCatalyst"
            return False if linux else None
        if name == "_runtime":
            return not linux if argument == "_ObjC" else None
        return None  # arch, compiler, swift, hasFeature, hasAttribute, _endian, _pointerBitWidth ...
