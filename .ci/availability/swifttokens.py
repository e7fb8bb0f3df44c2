"""The tokens of a Swift source file, for swiftscan: identifiers, `#` and `@` words,
punctuation, string, number and regex literals, with comments and whitespace dropped.
Offsets are characters of the Latin-1 text, which are its bytes."""

from dataclasses import dataclass, field


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
