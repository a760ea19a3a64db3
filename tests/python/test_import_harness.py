"""validators/python/import_harness.py: the import layer's cases, on
hand-written packages shaped like a cache-dit domain module and a veomni op
package (no real torch: the cases import stand-ins)."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from helper_loader import SOURCE_DIR, load

SCRIPT = "validators/python/import_harness.py"
harness = load(SCRIPT, "import_harness")

DOMAIN_MODULE = textwrap.dedent(
    """\
    import importlib

    _cached = None
    _error = None


    def _load():
        global _cached, _error
        if _cached is None and _error is None:
            try:
                _cached = importlib.import_module("pkg._C_dom")
            except ImportError as error:
                _error = error
        return _cached


    def dom_extension_is_available():
        return _load() is not None


    def dom_get_load_error():
        _load()
        return _error


    def _call_scale(x, alpha):
        module = _load()
        if module is None:
            raise RuntimeError("pkg._C_dom is missing; build it with `BUILD_DOM=1 pip install`")
        return module.scale(x, alpha)
    """
)


def run_case(case, request):
    """The harness as opmig runs it: a child process, the request on stdin."""
    completed = subprocess.run(
        [sys.executable, os.path.join(SOURCE_DIR, SCRIPT), case],
        input=json.dumps(request).encode(),
        capture_output=True,
        check=False,
    )
    return completed.returncode, completed.stdout.decode().splitlines()


class HarnessTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.TemporaryDirectory()
        self.addCleanup(self.root.cleanup)
        self.write("pkg/__init__.py", "")
        self.write("pkg/kernels/__init__.py", "")
        self.write("pkg/kernels/_dom.py", DOMAIN_MODULE)

    def write(self, relative, text):
        path = os.path.join(self.root.name, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)

    def hidden(self, **changes):
        request = {
            "path": self.root.name,
            "module": "pkg.kernels._dom",
            "extension": "pkg._C_dom",
            "domain": "dom",
            "ops": ["scale"],
            "build_command": "BUILD_DOM=1 pip install",
            **changes,
        }
        code, lines = run_case("hidden", request)
        self.assertEqual(code, 0, lines)
        return json.loads(lines[-1])

    def test_a_domain_that_degrades_passes_every_hidden_check(self):
        answer = self.hidden()
        self.assertTrue(answer["imports"]["ok"], answer)
        self.assertTrue(answer["unavailable"]["ok"], answer)
        self.assertIn("hidden by opmig validate", answer["unavailable"]["detail"])
        self.assertTrue(answer["build_command"]["ok"], answer)

    def test_the_extension_is_hidden_even_when_it_is_built_in_place(self):
        self.write("pkg/_C_dom.py", "def scale(x, alpha):\n    return x\n")
        self.assertTrue(self.hidden()["unavailable"]["ok"])

    def test_a_loader_that_raises_at_import_fails_the_import(self):
        self.write("pkg/kernels/_dom.py", "import pkg._C_dom\n" + DOMAIN_MODULE)
        answer = self.hidden()
        self.assertFalse(answer["imports"]["ok"])
        self.assertIn("ModuleNotFoundError", answer["imports"]["detail"])
        self.assertNotIn("unavailable", answer)

    def test_an_error_without_the_build_command_fails_that_check(self):
        answer = self.hidden(build_command="CACHE_DIT_BUILD_DOM=1 pip install -e .")
        self.assertFalse(answer["build_command"]["ok"])
        self.assertIn("does not name `", answer["build_command"]["detail"])

    def test_a_built_extension_in_the_build_folder_loads(self):
        self.write("torch/__init__.py", "")
        build = tempfile.TemporaryDirectory()
        self.addCleanup(build.cleanup)
        with open(os.path.join(build.name, "_C_dom.py"), "w") as out:
            out.write("def scale(x, alpha):\n    return x\n")
        code, lines = run_case(
            "built",
            {
                "path": self.root.name,
                "package": "pkg",
                "build_dir": build.name,
                "extension": "pkg._C_dom",
                "module": "pkg.kernels._dom",
                "domain": "dom",
            },
        )
        self.assertEqual(code, 0, lines)
        answer = json.loads(lines[-1])
        self.assertTrue(answer["loads"]["ok"], answer)
        self.assertTrue(answer["available"]["ok"], answer)


CUDA_IMPL = textwrap.dedent(
    """\
    _cached_module = None
    _cached_error = None


    def _load_extension_module():
        global _cached_module, _cached_error
        if _cached_module is None and _cached_error is None:
            try:
                from torch.utils.cpp_extension import load

                _cached_module = load(name="veomni_dom_cuda", sources=[])
            except (ImportError, OSError, RuntimeError) as error:
                _cached_error = error
        return _cached_module


    def _call_scale(x, alpha):
        module = _load_extension_module()
        if module is None:
            raise RuntimeError("could not be built from veomni/ops/dom/csrc") from _cached_error
        return module.scale(x, alpha)
    """
)


class JitHarnessTest(unittest.TestCase):
    """A veomni op package whose cuda_impl.py builds its extension on first use."""

    def setUp(self):
        self.root = tempfile.TemporaryDirectory()
        self.addCleanup(self.root.cleanup)
        self.write("torch/__init__.py", "")
        self.write("torch/utils/__init__.py", "")
        # A JIT build that ran would leave its mark.
        marker = os.path.join(self.root.name, "built")
        self.write(
            "torch/utils/cpp_extension.py",
            f"def load(name, sources):\n    open({marker!r}, 'w').close()\n",
        )
        self.marker = marker
        self.write("veomni/__init__.py", "")
        self.write("veomni/ops/__init__.py", "from . import dom\n")
        self.write("veomni/ops/dom/__init__.py", "")
        self.write("veomni/ops/dom/cuda_impl.py", CUDA_IMPL)

    def write(self, relative, text):
        path = os.path.join(self.root.name, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)

    def hidden(self):
        code, lines = run_case(
            "jit-hidden",
            {
                "path": self.root.name,
                "package": "veomni.ops",
                "module": "veomni.ops.dom",
                "impl": "veomni.ops.dom.cuda_impl",
                "ops": ["scale"],
                "native_dir": "veomni/ops/dom/csrc",
            },
        )
        self.assertEqual(code, 0, lines)
        return json.loads(lines[-1])

    def test_a_domain_that_keeps_its_failed_build_passes_every_check(self):
        answer = self.hidden()
        for key in ("imports", "unavailable", "build_command"):
            self.assertTrue(answer[key]["ok"], answer)
        self.assertEqual(
            answer["unavailable"]["detail"], "the failed build is kept: load() ran once for 2 calls"
        )
        self.assertFalse(os.path.exists(self.marker), "the JIT build must not run")

    def test_a_domain_that_retries_the_build_on_every_call_fails_unavailable(self):
        self.write(
            "veomni/ops/dom/cuda_impl.py", CUDA_IMPL.replace("_cached_error = error", "pass")
        )
        answer = self.hidden()
        self.assertFalse(answer["unavailable"]["ok"], answer)
        self.assertIn("load() ran 2 times for 2 calls", answer["unavailable"]["detail"])

    def test_an_op_package_that_builds_at_import_fails_the_import(self):
        self.write(
            "veomni/ops/dom/__init__.py",
            "from .cuda_impl import _load_extension_module\n_load_extension_module().scale\n",
        )
        answer = self.hidden()
        self.assertFalse(answer["imports"]["ok"], answer)
        self.assertNotIn("unavailable", answer)

    def test_the_built_extension_file_loads_under_its_name(self):
        self.write("ext/veomni_dom_cuda.py", "def scale(x, alpha):\n    return x\n")
        sys_path_request = {
            "extension": "veomni_dom_cuda",
            "library": os.path.join(self.root.name, "ext/veomni_dom_cuda.py"),
        }
        env = dict(os.environ, PYTHONPATH=self.root.name)
        completed = subprocess.run(
            [sys.executable, os.path.join(SOURCE_DIR, SCRIPT), "extension-file"],
            input=json.dumps(sys_path_request).encode(),
            capture_output=True,
            check=False,
            env=env,
        )
        answer = json.loads(completed.stdout.decode().splitlines()[-1])
        self.assertTrue(answer["loads"]["ok"], answer)


class UndefinedSymbolTest(unittest.TestCase):
    def test_the_loaders_symbol_is_found_in_the_cause(self):
        try:
            try:
                raise OSError("/t/lib.so: undefined symbol: _ZN2tl1fEv")
            except OSError as cause:
                raise OSError("Could not load this library: /t/lib.so") from cause
        except OSError as error:
            failure = harness.load_failure(error)
        self.assertFalse(failure["ok"])
        self.assertEqual(failure["undefined_symbol"], "_ZN2tl1fEv")
        self.assertIn("caused by OSError", failure["detail"])


if __name__ == "__main__":
    unittest.main()
