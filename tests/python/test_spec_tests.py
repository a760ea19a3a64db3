"""The spec tests `opmig migrate` generates (rules/profiles/*/templates/test_spec.py.mustache),
as they come out in the goldens and in kernels/: one engine in every profile, Python that ruff
passes, and, run under pytest against ops registered from Python with CPU kernels, passing for a
correct op and reference and failing in the layer a planted fault belongs to. The CPU runs come
from the spec (`device: cpu`); with `cuda`, as migrate derives it, the kernel layers skip without
a GPU and the fake is checked against the reference. Needs the pinned torch
(scripts/torch-version) and pytest (scripts/install-deps.sh installs both); without them the
runs skip and say why."""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
import unittest.mock
import xml.etree.ElementTree as ElementTree

from helper_loader import SOURCE_DIR
from test_op_harness import HAVE_TORCH, TORCH_DIR

PROFILES = ("cache-dit", "veomni", "generic")
TEMPLATE = "test_spec.py.mustache"
ENGINE_MARK = "# --- The spec's cases, the same in every profile from here on."
GOLDEN = os.path.join(SOURCE_DIR, "tests/golden/migrate")
CACHE_DIT_TEST = os.path.join(GOLDEN, "sample_cache_dit/tests/kernels/test_attn_spec.py")
VEOMNI_TEST = os.path.join(GOLDEN, "sample_veomni/tests/ops/test_cuda_rms_norm_spec.py")
KERNELS_TEST = os.path.join(SOURCE_DIR, "kernels/tests/test_sample_ops_spec.py")


def have_module(name):
    completed = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True)
    return completed.returncode == 0


HAVE_PYTEST = have_module("pytest")
with open(os.path.join(SOURCE_DIR, "scripts/ruff-version")) as version_file:
    RUFF_PIN = version_file.read().strip()

# Ops `spec_t::<name>` with CPU kernels (registered for CUDA too), each with a fake.
OPS = textwrap.dedent(
    """\
    import torch

    LIB = torch.library.Library("spec_t", "DEF")
    SCALE_ADD = "(Tensor x, Tensor y, float alpha) -> Tensor"


    def define(name, schema, kernel, fake):
        LIB.define(name + schema)
        LIB.impl(name, kernel, "CPU")
        LIB.impl(name, kernel, "CUDA")
        torch.library.register_fake("spec_t::" + name, fake, lib=LIB)


    def checked(x, y):
        torch._check(x.dtype in (torch.float32, torch.float16), lambda: f"x: dtype {x.dtype}")
        torch._check(x.dim() == 2, lambda: f"x: rank {x.dim()}, expected 2")
        torch._check(y.shape == x.shape, lambda: f"y: shape {tuple(y.shape)} is not x's")
        torch._check(y.dtype == x.dtype, lambda: "y: dtype differs from x's")
        torch._check(x.is_contiguous() and y.is_contiguous(), lambda: "x, y: not contiguous")
        torch._check(x.device == y.device, lambda: "x, y: on two devices")


    def scale_add(x, y, alpha):
        checked(x, y)
        return x + alpha * y


    def fake_scale_add(x, y, alpha):
        checked(x, y)
        return torch.empty_like(x)


    def scale_into(out, x, alpha):
        checked(out, x)
        out.copy_(x * alpha)


    def checked_rows(x, w):
        torch._check(x.dim() >= 1, lambda: f"x: rank {x.dim()}, expected at least 1")
        torch._check(w.dim() == 1 and w.size(0) == x.size(-1), lambda: "w: not x's last dim")
        torch._check(x.dtype == torch.float32 and w.dtype == x.dtype, lambda: "x, w: dtype")
        torch._check(x.is_contiguous() and x.device == w.device, lambda: "x, w: layout")


    def scale_rows(x, w):
        checked_rows(x, w)
        return x * w


    def fake_scale_rows(x, w):
        checked_rows(x, w)
        return torch.empty_like(x)


    define("scale_add", SCALE_ADD, scale_add, fake_scale_add)
    define("scale_rows", "(Tensor x, Tensor w) -> Tensor", scale_rows, fake_scale_rows)
    define("unchecked", SCALE_ADD, lambda x, y, alpha: x + alpha * y, fake_scale_add)
    define("wrong_fake", SCALE_ADD, scale_add, lambda x, y, alpha: torch.empty_like(x[0]))
    define("scale_into", "(Tensor(a!) out, Tensor x, float alpha) -> ()", scale_into,
           lambda out, x, alpha: None)
    OPS = ("scale_add", "unchecked", "wrong_fake", "scale_into", "scale_rows")
    """
)

# How each profile's test reaches the ops: cache-dit through the domain module's public
# wrappers, veomni through cuda_impl's cuda_<op>.
CACHE_DIT_MODULE = OPS + textwrap.dedent(
    """\
    for _name in OPS:
        globals()[_name] = getattr(torch.ops.spec_t, _name)
    """
)
VEOMNI_MODULE = OPS + textwrap.dedent(
    """\
    for _name in OPS:
        globals()["cuda_" + _name] = getattr(torch.ops.spec_t, _name)
    """
)

REFERENCE = textwrap.dedent(
    """\
    def scale_add(x, y, alpha):
        return x + alpha * y


    def scale_add_off(x, y, alpha):
        return x + alpha * y + 1e-2


    def scale_into(out, x, alpha):
        out.copy_(x * alpha)


    def scale_rows(x, w):
        return x * w
    """
)


def tensor_input(name, dtypes, device):
    at = {"at": "csrc/ops.cu:3:3"}
    return {
        "name": name,
        "type": "Tensor(a!)" if name == "out" else "Tensor",
        "shape": dict(at, code=["rows", "cols"]),
        "dtypes": dict(at, code=dtypes),
        "contiguous": dict(at, code=True),
        "device": {"user": device},
        "range": {"user": [-1, 1]},
    }


def scale_add_op(name, device, reference="reference_ops:scale_add"):
    """A spec entry as migrate writes it, filled in: odd-sized float32 and float16 cases."""
    return {
        "name": name,
        "schema": "(Tensor x, Tensor y, float alpha) -> Tensor",
        "inputs": [
            tensor_input("x", ["float32", "float16"], device),
            tensor_input("y", {"same_as": "x"}, device),
            {"name": "alpha", "type": "float", "range": {"user": [0.5, 0.5]}},
        ],
        "constraints": [],
        "outputs": [{"result": 0}],
        "reference": {"user": {"python": reference}} if reference else "TODO",
        "tolerances": {"default": {"float32": {"atol": 1e-5, "rtol": 1.3e-6}}},
        "cases": {
            "user": [
                {"name": "odd", "dims": {"rows": 7, "cols": 33}},
                {
                    "name": "one-row",
                    "dims": {"rows": 1, "cols": 8},
                    "dtypes": ["float32"],
                    "scalars": {"alpha": 2.0},
                },
            ]
        },
    }


def scale_into_op(device):
    return {
        "name": "scale_into",
        "schema": "(Tensor(a!) out, Tensor x, float alpha) -> ()",
        "inputs": [
            tensor_input("out", {"same_as": "x"}, device),
            tensor_input("x", ["float32"], device),
            {"name": "alpha", "type": "float", "range": {"user": [0.5, 2.0]}},
        ],
        "constraints": [],
        "outputs": [{"argument": "out", "in_place": {"user": False}}],
        "reference": {"user": {"python": "reference_ops:scale_into"}},
        "tolerances": "TODO",
        "cases": {"user": [{"name": "even", "dims": {"rows": 4, "cols": 8}}]},
    }


def scale_rows_op(device):
    """An op over the last dim of a tensor of any rank, as migrate derives it (`...` first)."""
    x, w = tensor_input("x", ["float32"], device), tensor_input("w", {"same_as": "x"}, device)
    x["shape"]["code"], w["shape"]["code"] = ["...", "hidden"], ["hidden"]
    del w["contiguous"]
    return {
        "name": "scale_rows",
        "schema": "(Tensor x, Tensor w) -> Tensor",
        "inputs": [x, w],
        "constraints": [],
        "outputs": [{"result": 0}],
        "reference": {"user": {"python": "reference_ops:scale_rows"}},
        "tolerances": "TODO",
        "cases": {
            "user": [
                {"name": "rows", "dims": {"...": 5, "hidden": 33}},
                {"name": "flat", "dims": {"hidden": 8}},
            ]
        },
    }


def spec(*ops):
    return {"schema": "opmig.validation-spec/1", "domain": "attn", "ops": list(ops)}


def outcomes(junit):
    """{test id: (passed | failure | error | skipped, message)} from pytest's JUnit XML."""
    found = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        state, message = "passed", ""
        for child in case:
            if child.tag == "skipped":
                state, message = "skipped", child.get("message") or ""
            elif child.tag in ("failure", "error"):
                state, message = child.tag, (child.get("message") or "") + (child.text or "")
        found[case.get("name")] = (state, message)
    return found


class TheSameEngineEverywhere(unittest.TestCase):
    def test_every_profile_has_the_same_engine(self):
        engines = {}
        for profile in PROFILES:
            path = os.path.join(SOURCE_DIR, "rules/profiles", profile, "templates", TEMPLATE)
            with open(path) as template:
                text = template.read()
            self.assertIn(ENGINE_MARK, text, path)
            engines[profile] = text[text.index(ENGINE_MARK) :]
        self.assertEqual(engines["veomni"], engines["cache-dit"])
        self.assertEqual(engines["generic"], engines["cache-dit"])
        # The generated lines of ops' names and fakes may be long; the engine's are not.
        long = [line for line in engines["cache-dit"].splitlines() if len(line) > 100]
        self.assertEqual(long, [])


class GeneratedTestsAreValidPython(unittest.TestCase):
    def generated_tests(self):
        """(target root, test file) of every generated test in the goldens and kernels/."""
        found = [(SOURCE_DIR, KERNELS_TEST)]
        for case in sorted(glob.glob(os.path.join(GOLDEN, "*/"))):
            for path in sorted(glob.glob(os.path.join(case, "**/test_*.py"), recursive=True)):
                found.append((case, path))
        return found

    def test_they_compile(self):
        for _, path in self.generated_tests():
            with open(path) as file:
                compile(file.read(), path, "exec")

    def test_ruff_passes_them(self):
        version = subprocess.run(
            [sys.executable, "-m", "ruff", "--version"], capture_output=True, text=True
        )
        if version.stdout.strip() != f"ruff {RUFF_PIN}":
            self.skipTest(f"skipped: no ruff {RUFF_PIN} (scripts/ruff-version) for python3")
        for root, path in self.generated_tests():
            # The target's own rules are unknown: the project's, but the line length (an op's
            # name or fake can make a generated line long), run from the target's root so that
            # its packages count as first-party imports.
            completed = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "ruff",
                    "check",
                    "--isolated",
                    "--no-cache",
                    "--select",
                    "E,F,W,I,B,UP",
                    "--ignore",
                    "E501",
                    "--target-version",
                    "py38",
                    os.path.relpath(path, root),
                ],
                cwd=root,
                capture_output=True,
                text=True,
            )
            self.assertEqual(completed.returncode, 0, completed.stdout + completed.stderr)


@unittest.skipUnless(HAVE_TORCH, f"skipped: the pinned torch is not installed at {TORCH_DIR}")
@unittest.skipUnless(HAVE_PYTEST, "skipped: no pytest for python3 (scripts/install-deps.sh)")
class GeneratedTestsRunTheSpec(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def target(self, profile, the_spec):
        """A tiny target of the profile, its ops registered from Python, with `the_spec` (a dict,
        or text) and the golden spec test; returns (root, test path, PYTHONPATH entry)."""
        root = self.folder.name
        if profile == "cache-dit":
            files = {
                "src/cache_dit/__init__.py": "",
                "src/cache_dit/kernels/__init__.py": "",
                "src/cache_dit/kernels/_attn.py": CACHE_DIT_MODULE,
                "src/cache_dit/_C_attn.py": "",  # the extension, built
                "csrc/kernels/attn/reference_ops.py": REFERENCE,
            }
            spec_path, golden, test = "csrc/kernels/attn", CACHE_DIT_TEST, "tests/kernels"
            path = os.path.join(root, "src")
        else:
            files = {
                "veomni/__init__.py": "",
                "veomni/ops/__init__.py": "",
                "veomni/ops/cuda_rms_norm/__init__.py": "",
                "veomni/ops/cuda_rms_norm/cuda_impl.py": VEOMNI_MODULE,
                "veomni/ops/cuda_rms_norm/csrc/reference_ops.py": REFERENCE,
            }
            spec_path, golden, test = "veomni/ops/cuda_rms_norm/csrc", VEOMNI_TEST, "tests/ops"
            path = root
        text = the_spec if isinstance(the_spec, str) else json.dumps(the_spec, indent=2)
        files[spec_path + "/opmig-validation-spec.json"] = text
        for name, content in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w") as file:
                file.write(content)
        os.makedirs(os.path.join(root, test))
        test_path = shutil.copy(golden, os.path.join(root, test))
        return root, test_path, path

    def run_pytest(self, test_path, cwd, path, gpu=None):
        """Runs the test file under pytest; its outcomes by test id."""
        junit = os.path.join(self.folder.name, "junit.xml")
        environment = dict(
            os.environ, PYTHONPATH=os.pathsep.join([TORCH_DIR, path]), PYTHONDONTWRITEBYTECODE="1"
        )
        if gpu is False:
            environment["CUDA_VISIBLE_DEVICES"] = ""
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-rs",
                "-p",
                "no:cacheprovider",
                "--junitxml",
                junit,
                test_path,
            ],
            cwd=cwd,
            capture_output=True,
            text=True,
            env=environment,
            timeout=600,
        )
        self.assertIn(completed.returncode, (0, 1), completed.stdout[-4000:] + completed.stderr)
        return outcomes(junit)

    def run_spec(self, the_spec, profile="cache-dit", gpu=None):
        root, test_path, path = self.target(profile, the_spec)
        return self.run_pytest(test_path, root, path, gpu)

    def assert_states(self, results, prefix, state):
        chosen = {name: result for name, result in results.items() if name.startswith(prefix)}
        self.assertTrue(chosen, f"no test {prefix}* in {sorted(results)}")
        for name, (have, message) in chosen.items():
            self.assertEqual(have, state, f"{name}: {message}")

    def test_a_correct_op_passes_every_layer(self):
        results = self.run_spec(spec(scale_add_op("scale_add", "cpu"), scale_into_op("cpu")))
        self.assert_states(results, "test_", "passed")
        self.assertIn("test_parity_with_the_reference[scale_add/odd/float16]", results)
        self.assertIn("test_smoke_runs_each_case[scale_into/even/float32]", results)
        self.assertIn("test_boundary_bad_input_raises[scale_add/x-float64]", results)
        self.assertIn("test_boundary_bad_input_raises[scale_add/y-cols-mismatch]", results)
        self.assertIn("test_boundary_bad_input_raises[scale_into/x-rows-mismatch]", results)
        # fake, smoke, parity: 3 cases of scale_add and 1 of scale_into; boundary: 7 bad inputs
        # of each (no `on-cpu` ones: the spec runs them on the CPU).
        self.assertEqual(len(results), 3 * 3 + 3 * 1 + 7 + 7, sorted(results))

    def test_leading_dims_run_with_one_dim_or_none_and_a_rank_below_the_least(self):
        results = self.run_spec(spec(scale_rows_op("cpu")))
        self.assert_states(results, "test_", "passed")
        names = " ".join(results)
        for case in ("rows/float32", "flat/float32", "x-rank-0", "w-hidden-mismatch"):
            self.assertIn(case, names)

    def test_a_wrong_reference_fails_parity_only(self):
        op = scale_add_op("scale_add", "cpu", reference="reference_ops:scale_add_off")
        results = self.run_spec(spec(op))
        self.assert_states(results, "test_parity", "failure")
        self.assertIn(
            "result[0]: Tensor-likes are not close!",
            results["test_parity_with_the_reference[scale_add/odd/float32]"][1],
        )
        for layer in ("test_fake", "test_smoke", "test_boundary"):
            self.assert_states(results, layer, "passed")

    def test_a_missing_dtype_check_fails_boundary(self):
        results = self.run_spec(spec(scale_add_op("unchecked", "cpu")))
        state, message = results["test_boundary_bad_input_raises[unchecked/x-float64]"]
        self.assertEqual(state, "failure")
        self.assertIn("accepted x as float64 (it takes float32, float16) without an error", message)
        # A shape that cannot broadcast still raises in torch; a non-contiguous x is handled.
        self.assertEqual(
            results["test_boundary_bad_input_raises[unchecked/y-cols-mismatch]"][0], "passed"
        )
        self.assertEqual(
            results["test_boundary_bad_input_raises[unchecked/x-non-contiguous]"][0], "passed"
        )
        self.assert_states(results, "test_parity", "passed")

    def test_without_a_gpu_the_fake_is_checked_against_the_reference(self):
        ops = (scale_add_op("scale_add", "cuda"), scale_add_op("wrong_fake", "cuda"))
        results = self.run_spec(spec(*ops), gpu=False)
        for layer in ("test_smoke", "test_parity", "test_boundary"):
            self.assert_states(results, layer, "skipped")
        smoke = results["test_smoke_runs_each_case[scale_add/odd/float32]"]
        self.assertEqual(smoke, ("skipped", "needs a CUDA GPU"))
        self.assertIn("test_boundary_bad_input_raises[scale_add/x-on-cpu]", results)
        self.assert_states(results, "test_fake_gives_the_kernels_shapes[scale_add", "passed")
        state, message = results["test_fake_gives_the_kernels_shapes[wrong_fake/odd/float32]"]
        self.assertEqual(state, "failure")
        self.assertIn("result[0]: shape [33], expected [7, 33]", message)

    def test_on_a_gpu_a_cuda_spec_runs_every_layer_there(self):
        results = self.run_spec(spec(scale_add_op("scale_add", "cuda"), scale_into_op("cuda")))
        smoke = results["test_smoke_runs_each_case[scale_add/odd/float32]"]
        if smoke == ("skipped", "needs a CUDA GPU"):
            self.skipTest("skipped: no CUDA GPU for the kernel layers of a cuda spec")
        self.assert_states(results, "test_", "passed")
        self.assertIn("test_boundary_bad_input_raises[scale_into/out-on-cpu]", results)

    def test_what_the_spec_leaves_to_fill_skips_with_where(self):
        no_reference = scale_add_op("scale_add", "cpu", reference=None)
        no_shapes = scale_add_op("unchecked", "cpu")
        no_shapes["inputs"][1]["shape"] = "TODO"
        no_cases = scale_add_op("wrong_fake", "cpu")
        no_cases["cases"] = "TODO"
        results = self.run_spec(spec(no_reference, no_shapes, no_cases))
        where = " in csrc/kernels/attn/opmig-validation-spec.json"
        self.assertEqual(
            results["test_parity_with_the_reference[scale_add/odd/float32]"],
            ("skipped", "scale_add: fill `reference`" + where),
        )
        self.assert_states(results, "test_smoke_runs_each_case[scale_add/", "passed")
        self.assertEqual(
            results["test_smoke_runs_each_case[unchecked]"],
            ("skipped", "unchecked: fill `y.shape`" + where),
        )
        self.assertEqual(
            results["test_boundary_bad_input_raises[wrong_fake]"],
            ("skipped", "wrong_fake: fill `cases`" + where),
        )

    def test_a_broken_spec_fails_every_layer(self):
        results = self.run_spec('{"schema": "opmig.validation-spec/1", ')
        self.assertEqual(len(results), 4)
        self.assert_states(results, "test_", "failure")
        self.assertIn(
            "opmig-validation-spec.json does not parse",
            results["test_smoke_runs_each_case[spec]"][1],
        )

    def test_the_veomni_test_calls_the_cuda_implementation(self):
        results = self.run_spec(spec(scale_add_op("scale_add", "cpu")), profile="veomni")
        self.assert_states(results, "test_", "passed")
        self.assertIn("test_parity_with_the_reference[scale_add/one-row/float32]", results)

    def test_kernels_spec_test_skips_without_the_built_library(self):
        environment = {
            key: value for key, value in os.environ.items() if key != "OPMIG_SAMPLE_OPS_LIB"
        }
        with unittest.mock.patch.dict(os.environ, environment, clear=True):
            results = self.run_pytest(KERNELS_TEST, SOURCE_DIR, SOURCE_DIR, gpu=False)
        self.assert_states(results, "test_", "skipped")
        self.assertIn(
            "set OPMIG_SAMPLE_OPS_LIB to the built libopmig_sample_ops.so",
            results["test_fake_gives_the_kernels_shapes[rms_norm/odd-rows/float32]"][1],
        )
        self.assertIn(
            "needs a CUDA GPU",
            results["test_parity_with_the_reference[rms_norm/odd-rows/float32]"][1],
        )


if __name__ == "__main__":
    unittest.main()
