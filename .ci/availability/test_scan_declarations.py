"""Unit tests of the source scanner: the context at marked positions in `@available` declarations."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from platforms import FLOOR, NEVER  # noqa: E402
from swiftscan_testing import NEW, RAISED, contexts  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
