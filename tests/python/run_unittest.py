"""Runs one unittest module for ctest: run_unittest.py MODULE.

`python3 -m unittest` exits 0 when every test of a module skipped (no torch,
no pytest), and ctest would count that a pass. This runner exits 77, ctest's
skip code (SKIP_RETURN_CODE), when tests ran but none of them ran its
assertions, after printing each skip's reason; a module with no test at all
fails. Otherwise it exits as unittest does, 0 when every test that ran passed,
and says how many skipped and why.
"""

import os
import sys
import unittest

SKIP = 77


def main(argv):
    if len(argv) != 2:
        print("usage: run_unittest.py MODULE", file=sys.stderr)
        return 2
    module = argv[1]
    # As `python3 -m unittest` does: the module is found from the working folder.
    sys.path.insert(0, os.getcwd())
    suite = unittest.defaultTestLoader.loadTestsFromName(module)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.testsRun == 0:
        print(f"error: {module} has no test")
        return 1
    if not result.wasSuccessful():
        return 1
    reasons = "; ".join(sorted({reason for _, reason in result.skipped}))
    if len(result.skipped) == result.testsRun:
        print(f"skipped: every test of {module} skipped: {reasons}")
        return SKIP
    if result.skipped:
        skipped = f"{len(result.skipped)} of {result.testsRun} tests of {module} skipped"
        print(f"note: {skipped}: {reasons}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
