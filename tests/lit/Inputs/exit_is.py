"""Runs a command and fails unless it exits with the given code.

`not` only tells zero from nonzero; opmig's exit codes mean different things
(1: a check failed, 2: bad input, 3: internal error), so a test that expects
one says which. The command's stdout and stderr pass through, so it can sit
at the head of a pipe.

Usage: exit_is.py CODE COMMAND [ARG...]
"""

import subprocess
import sys


def main():
    expected = int(sys.argv[1])
    command = sys.argv[2:]
    code = subprocess.run(command).returncode
    if code != expected:
        sys.stdout.flush()
        shown = " ".join(command)
        print(f"exit_is: expected exit {expected}, got {code}: {shown}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
