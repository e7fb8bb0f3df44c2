"""Unit tests of the source scanner: the context (lowest OS per platform) at marked positions."""

import os
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from platforms import FLOOR, NEVER  # noqa: E402
from swiftscan import Lexer, SourceFile  # noqa: E402

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


class AvailableConditionTest(unittest.TestCase):
    def test_if_available_raises_its_body_only(self):
        found = contexts(f"""
            func f() {{
                MARK0()
                if #available({NEW}) {{
                    MARK1()
                    if x {{ MARK2() }}
                }} else {{
                    MARK3()
                }}
                MARK4()
            }}
            """)
        self.assertEqual(found["MARK0"], FLOOR)
        self.assertEqual(found["MARK1"], RAISED)
        self.assertEqual(found["MARK2"], RAISED)
        self.assertEqual(found["MARK3"], FLOOR)
        self.assertEqual(found["MARK4"], FLOOR)

    def test_later_conditions_of_the_same_list_are_raised(self):
        found = contexts(f"""
            if let a = b(c: {{ MARK0 }}), #available({NEW}), let d = MARK1(), e {{ MARK2() }}
            """)
        self.assertEqual(found["MARK0"], FLOOR)
        self.assertEqual(found["MARK1"], RAISED)
        self.assertEqual(found["MARK2"], RAISED)

    def test_else_if_available(self):
        found = contexts(f"""
            if a {{ MARK0() }} else if #available({NEW}) {{ MARK1() }} else {{ MARK2() }}
            """)
        self.assertEqual((found["MARK0"], found["MARK1"], found["MARK2"]), (FLOOR, RAISED, FLOOR))

    def test_guard_available_raises_the_rest_of_the_block(self):
        found = contexts(f"""
            func f() {{
                MARK0()
                do {{
                    guard #available({NEW}), MARK1() else {{ MARK2(); return }}
                    MARK3()
                    if y {{ MARK4() }}
                }}
                MARK5()
            }}
            func g() {{ MARK6() }}
            """)
        self.assertEqual(found["MARK0"], FLOOR)
        self.assertEqual(found["MARK1"], RAISED)
        self.assertEqual(found["MARK2"], FLOOR)
        self.assertEqual(found["MARK3"], RAISED)
        self.assertEqual(found["MARK4"], RAISED)
        self.assertEqual(found["MARK5"], FLOOR)
        self.assertEqual(found["MARK6"], FLOOR)

    def test_guard_in_a_switch_case_covers_that_case(self):
        found = contexts(f"""
            switch x {{
            case .a:
                guard #available({NEW}) else {{ return }}
                if case .b = y {{ MARK0() }}
                MARK1()
            @unknown default:
                MARK2()
            }}
            """)
        self.assertEqual((found["MARK0"], found["MARK1"], found["MARK2"]), (RAISED, RAISED, FLOOR))

    def test_unavailable_raises_the_else_branch(self):
        found = contexts(f"""
            if #unavailable({NEW[:-3]}) {{ MARK0() }} else if z {{ MARK1() }} else {{ MARK2() }}
            MARK3()
            guard #unavailable({NEW[:-3]}) else {{ MARK4(); return }}
            MARK5()
            """)
        self.assertEqual(found["MARK0"], FLOOR)
        self.assertEqual(found["MARK1"], RAISED)
        self.assertEqual(found["MARK2"], RAISED)
        self.assertEqual(found["MARK3"], FLOOR)
        self.assertEqual(found["MARK4"], RAISED)
        self.assertEqual(found["MARK5"], FLOOR)

    def test_ios_check_covers_catalyst_but_not_visionos(self):
        found = contexts("if #available(iOS 18, *) { MARK0() }")
        self.assertEqual(found["MARK0"], dict(FLOOR, iOS=(18, 0), macCatalyst=(18, 0)))

    def test_while_available(self):
        found = contexts(f"while #available({NEW}) {{ MARK0() }}; MARK1()")
        self.assertEqual((found["MARK0"], found["MARK1"]), (RAISED, FLOOR))

    def test_text_that_looks_like_a_check(self):
        found = contexts(f"""
            let s = "if #available({NEW}) {{"
            // guard #available({NEW}) else {{ return }}
            MARK0()
            """)
        self.assertEqual(found["MARK0"], FLOOR)


class AvailableAttributeTest(unittest.TestCase):
    def test_type_and_its_members(self):
        found = contexts(f"""
            @available({NEW})
            public final class A: MARK0 {{
                func f() {{ MARK1() }}
            }}
            class B {{ MARK2 }}
            """)
        self.assertEqual((found["MARK0"], found["MARK1"], found["MARK2"]), (RAISED, RAISED, FLOOR))

    def test_between_attributes_and_modifiers(self):
        found = contexts(f"""
            struct S {{
                @MainActor @available({NEW}) @discardableResult
                nonisolated(unsafe) public static func f(x: MARK0 = {{ 1 }}()) -> MARK1 {{ MARK2 }}
                func g() -> MARK3 {{ }}
                @available({NEW}) class func h() {{ MARK4 }}
                @available({NEW}) class var c: Int {{ MARK5 }}
            }}
            """)
        for mark in ("MARK0", "MARK1", "MARK2", "MARK4", "MARK5"):
            self.assertEqual(found[mark], RAISED, mark)
        self.assertEqual(found["MARK3"], FLOOR)

    def test_bodiless_requirements_end_at_the_next_declaration(self):
        found = contexts(f"""
            protocol P {{
                @available({NEW})
                func f(
                    a: MARK0
                ) -> MARK1
                    where T: MARK2
                func g() -> MARK3
                @available({NEW}) var v: MARK4 {{ get }}
                var w: MARK5 {{ get }}
            }}
            """)
        for mark in ("MARK0", "MARK1", "MARK2", "MARK4"):
            self.assertEqual(found[mark], RAISED, mark)
        self.assertEqual((found["MARK3"], found["MARK5"]), (FLOOR, FLOOR))

    def test_stored_property_ends_with_its_line(self):
        found = contexts(f"""
            func f() {{
                @available({NEW}) let a = [1, 2].map {{ MARK0 }}
                    .filter {{ MARK1 }}
                MARK2()
            }}
            """)
        self.assertEqual((found["MARK0"], found["MARK1"], found["MARK2"]), (RAISED, RAISED, FLOOR))

    def test_long_form_unavailable_and_deprecated(self):
        found = contexts("""
            @available(macOS, introduced: 13.0)
            @available(iOS, introduced: 16.4, deprecated: 17)
            func a() { MARK0 }
            @available(watchOS, unavailable)
            func b() { MARK1 }
            @available(*, unavailable)
            func c() { MARK2 }
            @available(*, deprecated, message: "no")
            func d() { MARK3 }
            @available(swift 5.9)
            func e() { MARK4 }
            """)
        self.assertEqual(found["MARK0"], dict(FLOOR, macOS=(13, 0), iOS=(16, 4), macCatalyst=(16, 4)))
        self.assertEqual(found["MARK1"], dict(FLOOR, watchOS=NEVER))
        self.assertEqual(found["MARK2"], {p: NEVER for p in FLOOR})
        self.assertEqual(found["MARK3"], FLOOR)
        self.assertEqual(found["MARK4"], FLOOR)

    def test_ios_attribute_covers_catalyst_and_visionos(self):
        found = contexts("""
            @available(iOS 18, *) func a() { MARK0 }
            @available(iOS 18, visionOS 1.1, *) func b() { MARK1 }
            """)
        self.assertEqual(found["MARK0"], dict(FLOOR, iOS=(18, 0), macCatalyst=(18, 0), visionOS=(2, 0)))
        self.assertEqual(found["MARK1"], dict(FLOOR, iOS=(18, 0), macCatalyst=(18, 0), visionOS=(1, 1)))

    def test_nested_raises_take_the_highest(self):
        found = contexts("""
            @available(macOS 13, *)
            extension E {
                @available(macOS 15, iOS 17, *)
                func f() { if #available(macOS 14, tvOS 16, *) { MARK0 } }
            }
            """)
        self.assertEqual(found["MARK0"], dict(FLOOR, macOS=(15, 0), iOS=(17, 0), macCatalyst=(17, 0),
                                              tvOS=(16, 0)))


class ConditionalCompilationTest(unittest.TestCase):
    def test_branches_apple_platforms_skip(self):
        found = contexts("""
            #if os(Linux)
            MARK0()
            #elseif canImport(Darwin)
            MARK1()
            #else
            MARK2()
            #endif
            #if canImport(Glibc) || os(Windows)
            MARK3()
            #endif
            #if DEBUG
            MARK4()
            #endif
            #if os(iOS) && !targetEnvironment(macCatalyst)
            MARK5()
            #endif
            """)
        never = {p: NEVER for p in FLOOR}
        self.assertEqual(found["MARK0"], never)
        self.assertEqual(found["MARK1"], FLOOR)
        self.assertEqual(found["MARK2"], never)
        self.assertEqual(found["MARK3"], never)
        self.assertEqual(found["MARK4"], FLOOR)
        self.assertEqual(found["MARK5"], dict(never, iOS=FLOOR["iOS"]))

    def test_nested_and_apple_only_branches(self):
        source = textwrap.dedent("""
            #if os(macOS)
              #if DEBUG
              import Darwin
              #else
              MARK0()
              #endif
            #elseif os(Linux)
            MARK1()
            #endif
            #if canImport(Darwin)
            import Darwin
            #endif
            #if os(Windows)
              #if DEBUG
              MARK2()
              #endif
            #endif
            """)
        found = contexts(source)
        self.assertEqual(found["MARK0"], dict({p: NEVER for p in FLOOR}, macOS=FLOOR["macOS"]))
        self.assertEqual(found["MARK1"], {p: NEVER for p in FLOOR})
        self.assertEqual(found["MARK2"], {p: NEVER for p in FLOOR})
        apple_only = [b.line for b in SourceFile(source.encode()).apple_only_branches()]
        self.assertEqual(apple_only, [2, 5])  # the #if os(macOS) and its nested #else (imports don't count)


if __name__ == "__main__":
    unittest.main()
