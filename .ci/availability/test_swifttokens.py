"""Unit tests of the lexer: the tokens of strings, comments, regexes and `#`/`@` words."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from swiftscan import Lexer  # noqa: E402


class LexerTest(unittest.TestCase):
    def kinds(self, source):
        return [(t.kind, t.text) for t in Lexer(source).run()]

    def test_string_with_interpolation_is_one_token(self):
        tokens = self.kinds('let s = "a \\(f("}", { x in "{" }(1))) b" + c')
        self.assertEqual(tokens[3], ("string", '"a \\(f("}", { x in "{" }(1))) b"'))
        self.assertEqual(tokens[-1], ("ident", "c"))

    def test_raw_and_multiline_strings(self):
        source = 'a = #"say "hi" \\(no) \\#(yes)"#\nb = """\n  "{" \\(x) }\n  """\nc'
        texts = [t for k, t in self.kinds(source) if k == "string"]
        self.assertEqual(texts, ['#"say "hi" \\(no) \\#(yes)"#', '"""\n  "{" \\(x) }\n  """'])
        self.assertEqual(self.kinds(source)[-1], ("ident", "c"))

    def test_comments_nest_and_hide_code(self):
        tokens = self.kinds("a /* x /* { */ } */ b // #available(macOS 15, *) {\nc")
        self.assertEqual(tokens, [("ident", "a"), ("ident", "b"), ("ident", "c")])

    def test_regex_literal(self):
        tokens = self.kinds('let r = #/a"{b/#\nd')
        self.assertEqual(tokens[3], ("regex", '#/a"{b/#'))

    def test_pound_and_at_words(self):
        self.assertEqual(self.kinds("@available(macOS 15.0.1, *)")[:4],
                         [("at", "@available"), ("punct", "("), ("ident", "macOS"), ("number", "15.0.1")])


if __name__ == "__main__":
    unittest.main()
