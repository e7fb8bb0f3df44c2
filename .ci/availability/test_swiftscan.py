"""Unit tests of the source scanner: the context (lowest OS per platform) at marked positions
under `#available` and `#unavailable` conditions."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from platforms import FLOOR  # noqa: E402
from swiftscan_testing import NEW, RAISED, contexts  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
