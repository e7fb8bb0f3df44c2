"""End to end: compiles fixture/Fixture.swift with an index store and asserts exactly what the
check reports (fixture/expected.txt), and that it reports every line marked REPORTED, no other.

Needs the symbol graphs: AVAILABILITY_SYMBOL_GRAPHS (check.sh sets it)."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixture")


@unittest.skipUnless(os.environ.get("AVAILABILITY_SYMBOL_GRAPHS"), "AVAILABILITY_SYMBOL_GRAPHS is not set")
class FixtureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temporary = tempfile.TemporaryDirectory()
        store = os.path.join(cls.temporary.name, "store")
        subprocess.run(
            ["swiftc", "-typecheck", "-index-store-path", store, "-index-ignore-system-modules",
             "-module-name", "Fixture", "Fixture.swift"],
            cwd=FIXTURE, check=True)
        command = [sys.executable, os.path.join(HERE, "check.py"), "--store", store,
                   "--symbol-graphs", os.environ["AVAILABILITY_SYMBOL_GRAPHS"], "--root", FIXTURE]
        cls.result = subprocess.run(command, capture_output=True, text=True)
        cls.naive = subprocess.run(command + ["--naive"], capture_output=True, text=True)
        unbuilt = os.path.join(cls.temporary.name, "Unbuilt")
        os.makedirs(unbuilt)
        with open(os.path.join(unbuilt, "Unbuilt.swift"), "w") as handle:
            handle.write("let x: Int128 = 0\n")
        cls.unbuilt = subprocess.run(command + ["--under", unbuilt], capture_output=True, text=True)

    @classmethod
    def tearDownClass(cls):
        cls.temporary.cleanup()

    def test_exit_status_is_one(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr)

    def test_output_is_exactly_the_expected(self):
        with open(os.path.join(FIXTURE, "expected.txt"), encoding="utf-8") as handle:
            expected = handle.read()
        self.assertEqual(self.result.stdout, expected)

    def test_reports_the_lines_marked_reported_and_no_other(self):
        self.assertEqual(_reported_lines(self.result.stdout), _marked_lines("REPORTED"))

    def test_every_case_references_a_newer_api(self):
        # With the guards off, the lines marked "passes" are reported too: each case does
        # exercise a guard, and is not passing for want of a newer reference.
        self.assertEqual(self.naive.returncode, 1, self.naive.stderr)
        self.assertEqual(_reported_lines(self.naive.stdout), _marked_lines("REPORTED") | _marked_lines("passes"))

    def test_a_file_missing_from_the_index_fails_the_check(self):
        self.assertEqual(self.unbuilt.returncode, 2)
        self.assertIn("1 Swift file(s) not in the index store", self.unbuilt.stderr)
        self.assertIn("Unbuilt.swift", self.unbuilt.stderr)


def _marked_lines(marker):
    with open(os.path.join(FIXTURE, "Fixture.swift"), encoding="utf-8") as handle:
        return {number for number, line in enumerate(handle, 1) if re.search(r"\S.*// " + marker, line)}


def _reported_lines(output):
    return {int(m.group(1)) for m in re.finditer(r"^Fixture\.swift:(\d+):", output, re.M)}


if __name__ == "__main__":
    unittest.main()
