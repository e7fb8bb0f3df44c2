"""Unit tests of the source scanner: the context at marked positions in `#if` branches."""

import os
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from platforms import FLOOR, NEVER  # noqa: E402
from swiftscan import SourceFile  # noqa: E402
from swiftscan_testing import contexts  # noqa: E402


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
