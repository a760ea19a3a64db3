"""Loads an embedded Python helper of opmig from its source file, and runs it
the way opmig does (tests/README.md, Python helpers)."""

import importlib.util
import json
import os
import subprocess
import sys

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(relative_path, name):
    """The helper at `relative_path` (from the repository root) as a module."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(SOURCE_DIR, relative_path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_embedded(relative_path, args, stdin):
    """Runs the helper as opmig's runPythonHelper() does, `python3 -I -S
    SCRIPT ARGS...` with `stdin` as bytes, and returns its JSON answer."""
    completed = subprocess.run(
        [sys.executable, "-I", "-S", os.path.join(SOURCE_DIR, relative_path), *args],
        input=stdin,
        capture_output=True,
        check=False,
    )
    if completed.returncode != 0:
        raise AssertionError(f"helper failed ({completed.returncode}): {completed.stderr.decode()}")
    return json.loads(completed.stdout)
