"""validators/python/harness_server.py: cases forked from one interpreter end as they would in
an interpreter of their own (exit status, a signal, a hang killed at its limit, what they print),
and the server answers only once torch imports. A stand-in `torch` package keeps this fast; the
op harness' tests (tests/unit/validate/OpHarnessTest.cpp) run the server with the real one."""

import os
import tempfile
import textwrap
import time
import unittest

from helper_loader import HarnessServer

CASE = textwrap.dedent(
    """\
    import os
    import signal
    import sys
    import time

    import torch

    request = sys.stdin.read()
    print("argv", sys.argv[1:], "request", request, "torch", torch.IMPORTS)
    print("to stderr", file=sys.stderr)
    kind = sys.argv[1]
    if kind == "exit":
        sys.exit(int(sys.argv[2]))
    if kind == "message":
        sys.exit("stopped: " + request)
    if kind == "raise":
        raise ValueError("raised")
    if kind == "crash":
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if kind == "hang":
        sys.stdout.flush()
        time.sleep(600)
    if kind == "name":
        print(__name__, sys.path[0] == os.path.dirname(os.path.abspath(sys.argv[0])))
    """
)


def serve(torch_source):
    """A server whose `torch` is a stand-in with `torch_source`, and the case script beside it."""
    folder = tempfile.TemporaryDirectory()
    os.makedirs(os.path.join(folder.name, "lib", "torch"))
    with open(os.path.join(folder.name, "lib", "torch", "__init__.py"), "w") as out:
        out.write(torch_source)
    case = os.path.join(folder.name, "case.py")
    with open(case, "w") as out:
        out.write(CASE)
    server = HarnessServer(dict(os.environ, PYTHONPATH=os.path.join(folder.name, "lib")))
    return server, case, folder


class ReadyServerTest(unittest.TestCase):
    def setUp(self):
        # The stand-in counts its imports: a forked case must not import it again.
        source = "__version__ = '9.9.9'\nIMPORTS = 1\nprint('torch says hi')\n"
        self.server, case, folder = serve(source)
        self.addCleanup(folder.cleanup)
        self.addCleanup(self.server.close)
        self.run_case = lambda args, **extra: self.server.run([case, *args], **extra)

    def test_it_answers_ready_with_the_torch_version_and_nothing_else(self):
        self.assertEqual(self.server.answer(), {"ready": True, "torch": "9.9.9"})

    def test_a_case_gets_its_argv_stdin_and_files_and_torch_already_imported(self):
        self.server.answer()
        answer, out, err = self.run_case(["exit", "0"], stdin="{}")
        self.assertEqual(answer, {"exit": 0})
        self.assertEqual(out, "argv ['exit', '0'] request {} torch 1\n")
        self.assertEqual(err, "to stderr\n")

    def test_exit_statuses_are_the_interpreters(self):
        self.server.answer()
        self.assertEqual(self.run_case(["exit", "3"])[0], {"exit": 3})
        answer, _, err = self.run_case(["message"], stdin="x")
        self.assertEqual(answer, {"exit": 1})
        self.assertTrue(err.endswith("stopped: x\n"), err)
        answer, _, err = self.run_case(["raise"])
        self.assertEqual(answer, {"exit": 1})
        self.assertIn("Traceback", err)
        self.assertTrue(err.endswith("ValueError: raised\n"), err)

    def test_a_crash_is_its_signal_and_the_next_case_still_runs(self):
        self.server.answer()
        answer, out, _ = self.run_case(["crash"])
        self.assertEqual(answer["signal"], 11)
        self.assertIn("argv ['crash']", out)
        self.assertEqual(self.run_case(["exit", "0"])[0], {"exit": 0})

    def test_a_hang_is_killed_at_its_limit(self):
        self.server.answer()
        start = time.monotonic()
        answer, out, _ = self.run_case(["hang"], timeout=1)
        self.assertEqual(answer, {"timed_out": True})
        self.assertLess(time.monotonic() - start, 20)
        self.assertIn("argv ['hang']", out)
        self.assertEqual(self.run_case(["exit", "0"])[0], {"exit": 0})

    def test_the_case_is_main_with_its_own_folder_first_on_the_path(self):
        self.server.answer()
        _, out, _ = self.run_case(["name"])
        self.assertTrue(out.endswith("__main__ True\n"), out)

    def test_end_of_input_ends_the_server(self):
        self.server.answer()
        self.server.process.stdin.close()
        self.assertEqual(self.server.process.wait(timeout=30), 0)


class UnreadyServerTest(unittest.TestCase):
    def test_a_torch_that_does_not_import_is_the_answer_and_the_end(self):
        source = "raise ImportError('libtorch_cuda.so: cannot open shared object file')\n"
        server, _, folder = serve(source)
        self.addCleanup(folder.cleanup)
        answer = server.answer()
        self.assertEqual(answer["ready"], False)
        self.assertEqual(
            answer["detail"], "ImportError: libtorch_cuda.so: cannot open shared object file"
        )
        self.assertEqual(server.close(), 1)


if __name__ == "__main__":
    unittest.main()
