"""Runs one unittest module for ctest: run_unittest.py [--skip-if TEXT] MODULE.

`python3 -m unittest` exits 0 when every test of a module skipped (no torch,
no pytest), and ctest would count that a pass. This runner exits 77, ctest's
skip code (SKIP_RETURN_CODE), when tests ran but none of them ran its
assertions, after printing each skip's reason; a module with no test at all
fails. Otherwise it exits as unittest does, 0 when every test that ran passed,
and says how many skipped and why. With --skip-if TEXT (a module of the
`torch` tier: `--skip-if "pinned torch"`), one test skipped for a reason that
says TEXT is enough to exit 77: ctest then says the tier did not run instead
of counting the few tests that need no torch as the module's pass.
"""

import os
import sys
import unittest

SKIP = 77


def main(argv):
    args = argv[1:]
    skip_if = None
    if len(args) == 3 and args[0] == "--skip-if":
        skip_if, args = args[1], args[2:]
    if len(args) != 1:
        print("usage: run_unittest.py [--skip-if TEXT] MODULE", file=sys.stderr)
        return 2
    module = args[0]
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
    telling = [reason for _, reason in result.skipped if skip_if and skip_if in reason]
    if telling:
        print(f"skipped: {len(telling)} of {result.testsRun} tests of {module}: {telling[0]}")
        return SKIP
    if result.skipped:
        skipped = f"{len(result.skipped)} of {result.testsRun} tests of {module} skipped"
        print(f"note: {skipped}: {reasons}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
