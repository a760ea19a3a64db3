"""Loads an embedded Python helper of opmig from its source file, and runs it
the way opmig does (tests/README.md, Python helpers)."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile

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


class HarnessServer:
    """validators/python/harness_server.py as opmig runs it (validators/lib/HarnessServer.h):
    started once with `env`, it imports torch; each `run` is a case forked from it."""

    SCRIPT = os.path.join(SOURCE_DIR, "validators/python/harness_server.py")

    def __init__(self, env):
        self.folder = tempfile.TemporaryDirectory()
        self.process = subprocess.Popen(
            [sys.executable, self.SCRIPT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.count = 0

    def answer(self):
        """The server's next line: `ready` first, then one per case."""
        return json.loads(self.process.stdout.readline())

    def run(self, argv, stdin="", timeout=300):
        """(answer, stdout, stderr) of what `python3 ARGV...` would do."""
        self.count += 1
        paths = {
            name: os.path.join(self.folder.name, f"{self.count}.{name}")
            for name in ("stdin", "stdout", "stderr")
        }
        with open(paths["stdin"], "w") as out:
            out.write(stdin)
        request = {"argv": list(argv), "timeout": timeout, **paths}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.answer()
        outputs = []
        for name in ("stdout", "stderr"):
            with open(paths[name]) as text:
                outputs.append(text.read())
        return answer, *outputs

    def close(self):
        """Ends the server (end of its input); its exit status."""
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        self.process.stdout.close()
        self.folder.cleanup()
        return status
