"""validators/python/op_harness.py: the layers after import, on ops registered
from Python (`torch.library`) with CPU kernels, run on the CPU. Each layer
gets a correct op and a planted fault that only it must catch. Needs the
pinned torch (scripts/torch-version, installed by scripts/install-deps.sh);
without it the tests skip and say why."""

import json
import os
import tempfile
import textwrap
import unittest

from helper_loader import SOURCE_DIR, HarnessServer

SCRIPT = os.path.join(SOURCE_DIR, "validators/python/op_harness.py")


def pinned_torch_dir():
    if os.environ.get("OPMIG_TORCH_DIR"):
        return os.environ["OPMIG_TORCH_DIR"]
    with open(os.path.join(SOURCE_DIR, "scripts/torch-version")) as version:
        name = f"torch-{version.read().strip()}-full"
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    return os.path.join(cache, "opmig", name)


TORCH_DIR = pinned_torch_dir()
HAVE_TORCH = os.path.isdir(os.path.join(TORCH_DIR, "torch"))

# Ops `h::<name>` with CPU kernels (registered for CUDA too, so that the api
# layer finds one), each fake registered as `_fake_<name>`.
OPS_MODULE = textwrap.dedent(
    """\
    import torch

    LIB = torch.library.Library("h", "DEF")


    def define(name, schema, kernel, fake):
        LIB.define(name + schema)
        LIB.impl(name, kernel, "CPU")
        LIB.impl(name, kernel, "CUDA")
        if fake is not None:
            def forward(*args, fake=fake):
                return fake(*args)

            forward.__name__ = "_fake_" + name
            torch.library.register_fake("h::" + name, forward, lib=LIB)


    def checked(x, y):
        torch._check(x.dtype in (torch.float32, torch.float16), lambda: f"x: bad dtype {x.dtype}")
        torch._check(x.dim() == 2, lambda: f"x: rank {x.dim()}, expected 2")
        torch._check(y.shape == x.shape, lambda: f"y: shape {tuple(y.shape)} is not x's")
        torch._check(y.dtype == x.dtype, lambda: "y: dtype differs from x's")
        torch._check(x.is_contiguous() and y.is_contiguous(), lambda: "x and y must be contiguous")
        torch._check(x.device == y.device, lambda: "x and y on different devices")


    def scale_add(x, y, alpha):
        checked(x, y)
        return x + alpha * y


    def fake_scale_add(x, y, alpha):
        checked(x, y)
        return torch.empty_like(x)


    define("scale_add", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add, fake_scale_add)
    define("wrong_fake", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add,
           lambda x, y, alpha: torch.empty(x.shape[0], dtype=x.dtype, device=x.device))
    define("no_fake", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add, None)
    define("lenient_fake", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add,
           lambda x, y, alpha: torch.empty_like(x))
    define("off", "(Tensor x, Tensor y, float alpha) -> Tensor",
           lambda x, y, alpha: scale_add(x, y, alpha) + 1e-2, fake_scale_add)
    define("no_dtype_check", "(Tensor x, Tensor y, float alpha) -> Tensor",
           lambda x, y, alpha: x + alpha * y, fake_scale_add)


    def scale_into(out, x, alpha):
        torch._check(out.shape == x.shape, lambda: "out: shape is not x's")
        out.copy_(x * alpha)


    def scale_into_past_end(out, x, alpha):
        scale_into(out, x, alpha)
        if x.shape[-1] % 2:
            out.as_strided((out.numel() + 1,), (1,))[-1] = 0.0


    define("scale_into", "(Tensor(a!) out, Tensor x, float alpha) -> ()", scale_into,
           lambda out, x, alpha: None)
    define("scale_into_past_end", "(Tensor(a!) out, Tensor x, float alpha) -> ()",
           scale_into_past_end, lambda out, x, alpha: None)
    """
)

REFERENCE_MODULE = textwrap.dedent(
    """\
    def scale_add(x, y, alpha):
        return x + alpha * y


    def scale_into(out, x, alpha):
        out.copy_(x * alpha)
    """
)

# The "upstream build" of some of those ops, as `hu::<name>`: scale_add and
# scale_into as the migrated ones compute them, and `off` as scale_add (the
# migrated `h::off` adds 1e-2).
UPSTREAM_MODULE = textwrap.dedent(
    """\
    import torch

    LIB = torch.library.Library("hu", "DEF")


    def scale_add(x, y, alpha):
        return x + alpha * y


    def scale_into(out, x, alpha):
        out.copy_(x * alpha)


    for name, schema, kernel in (
        ("scale_add", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add),
        ("off", "(Tensor x, Tensor y, float alpha) -> Tensor", scale_add),
        ("scale_into", "(Tensor(a!) out, Tensor x, float alpha) -> ()", scale_into),
    ):
        LIB.define(name + schema)
        LIB.impl(name, kernel, "CPU")
        LIB.impl(name, kernel, "CUDA")
    """
)

UPSTREAM = {"path": None, "module": "upstream_ops", "namespace": "hu"}

TENSOR = {"tensor": True, "type": "Tensor", "contiguous": True, "range": [-1, 1]}
ALPHA = {"name": "alpha", "type": "float", "tensor": False, "range": None}


def scale_add_op(name):
    return {
        "name": name,
        "schema": "(Tensor x, Tensor y, float alpha) -> Tensor",
        "inputs": [
            dict(TENSOR, name="x", shape=["rows", "cols"]),
            dict(TENSOR, name="y", shape=["rows", "cols"]),
            ALPHA,
        ],
        "outputs": [{"result": 0}],
        "reference": "reference_ops:scale_add",
        "tolerances": {
            "float32": {"atol": 1e-5, "rtol": 1.3e-6},
            "float16": {"atol": 1e-5, "rtol": 1e-3},
        },
        "cases": [case("odd", 7, 33, "float32"), case("half", 4, 64, "float16")],
        "bad_cases": [
            dict(
                case("x-float64", 3, 5, "float32"),
                what="x as float64",
                expect="raise",
                overrides={"x": {"dtype": "float64"}, "y": {"dtype": "float64"}},
            ),
            dict(
                case("x-rank-3", 3, 5, "float32"),
                what="x of rank 3",
                expect="raise",
                overrides={"x": {"shape": [2, 3, 5]}},
            ),
            dict(
                case("y-mismatch", 3, 5, "float32"),
                what="y of another shape",
                expect="raise",
                overrides={"y": {"shape": [3, 6]}},
            ),
            dict(
                case("x-strided", 3, 5, "float32"),
                what="a non-contiguous x",
                expect="raise",
                overrides={"x": {"contiguous": False}},
            ),
            dict(case("empty", 0, 5, "float32"), what="empty tensors", expect="raise-or-return"),
        ],
    }


def with_shape_bad_cases(op):
    """The op as the fake layer gets it: only the bad cases about shapes."""
    shapes = [bad for bad in op["bad_cases"] if bad["name"] in ("x-rank-3", "y-mismatch")]
    return dict(op, bad_cases=shapes)


def scale_into_op(name):
    return {
        "name": name,
        "schema": "(Tensor(a!) out, Tensor x, float alpha) -> ()",
        "inputs": [
            dict(TENSOR, name="out", shape=["rows", "cols"]),
            dict(TENSOR, name="x", shape=["rows", "cols"]),
            ALPHA,
        ],
        "outputs": [{"argument": "out", "in_place": False}],
        "reference": "reference_ops:scale_into",
        "tolerances": {"float32": {"atol": 1e-5, "rtol": 1.3e-6}},
        "cases": [
            case("even", 4, 8, "float32", tensors=("out", "x")),
            case("odd", 3, 7, "float32", tensors=("out", "x")),
        ],
        "bad_cases": [],
    }


# A module that builds its extension on first use, as a veomni cuda_impl.py
# does; the "built" extension is a Python file standing in for the .so.
JIT_MODULE = textwrap.dedent(
    """\
    import os

    import torch

    _CSRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")
    _module = None
    LIB = torch.library.Library("j", "DEF")


    def _extension():
        global _module
        if _module is None:
            from torch.utils.cpp_extension import load

            _module = load(name="jit_ext", sources=[os.path.join(_CSRC, "scale.cu")])
        return _module


    def scale(x, alpha):
        return _extension().scale(x, alpha)


    LIB.define("scale(Tensor x, float alpha) -> Tensor")
    LIB.impl("scale", scale, "CPU")
    """
)

BUILT_EXTENSION = "def scale(x, alpha):\n    return x * alpha\n"


def scale_op():
    return {
        "name": "scale",
        "schema": "(Tensor x, float alpha) -> Tensor",
        "inputs": [dict(TENSOR, name="x", shape=["rows", "cols"]), ALPHA],
        "outputs": [{"result": 0}],
        "reference": None,
        "tolerances": {},
        "cases": [case("odd", 3, 7, "float32", tensors=("x",))],
        "bad_cases": [],
    }


def case(name, rows, cols, dtype, tensors=("x", "y")):
    return {
        "name": name,
        "dims": {"rows": rows, "cols": cols},
        "dtypes": dict.fromkeys(tensors, dtype),
        "scalars": {"alpha": 0.5},
    }


@unittest.skipUnless(HAVE_TORCH, f"skipped: the pinned torch is not installed at {TORCH_DIR}")
class OpHarnessTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        for name, text in (
            ("harness_ops.py", OPS_MODULE),
            ("reference_ops.py", REFERENCE_MODULE),
            ("upstream_ops.py", UPSTREAM_MODULE),
        ):
            with open(os.path.join(cls.folder.name, name), "w") as file:
                file.write(text)
        # Every layer runs as opmig runs it: forked from a server that
        # imported torch once.
        cls.server = HarnessServer(dict(os.environ, PYTHONPATH=TORCH_DIR))
        ready = cls.server.answer()
        assert ready.get("ready"), ready

    @classmethod
    def tearDownClass(cls):
        cls.server.close()
        cls.folder.cleanup()

    def run_layer(self, layer, ops, **extra):
        request = {
            "load": {"kind": "module", "path": self.folder.name, "module": "harness_ops"},
            "namespace": "h",
            "device": "cpu",
            "reference_paths": [self.folder.name],
            "ops": ops,
            **extra,
        }
        answer, stdout, stderr = self.server.run([SCRIPT, layer], json.dumps(request))
        events = [
            json.loads(line[len("@@opmig ") :])
            for line in stdout.splitlines()
            if line.startswith("@@opmig ")
        ]
        self.assertEqual(answer, {"exit": 0}, stderr[-2000:])
        self.assertEqual(events[-1], {"event": "done"})
        return {event["case"]: event for event in events if event["event"] == "result"}

    def assert_all(self, results, ok):
        self.assertTrue(results)
        for name, result in results.items():
            self.assertIs(result["ok"], ok, f"{name}: {result['detail']}")

    def test_fake_matches_the_kernel_and_catches_a_wrong_shape(self):
        good = self.run_layer("fake", [with_shape_bad_cases(scale_add_op("scale_add"))])
        self.assert_all(good, True)
        self.assertIn("the fake rejects x of rank 3", good["x-rank-3"]["detail"])
        wrong = self.run_layer("fake", [dict(scale_add_op("wrong_fake"), bad_cases=[])])
        self.assert_all(wrong, False)
        self.assertIn("shape [7], expected [7, 33]", wrong["odd"]["detail"])

    def test_fake_must_reject_the_bad_shapes_the_kernel_rejects(self):
        results = self.run_layer("fake", [with_shape_bad_cases(scale_add_op("lenient_fake"))])
        self.assertTrue(results["odd"]["ok"], results["odd"]["detail"])
        self.assertFalse(results["y-mismatch"]["ok"])
        self.assertIn(
            "the fake accepts y of another shape, which the kernel rejects (RuntimeError: y: shape",
            results["y-mismatch"]["detail"],
        )

    def test_parity_measures_the_error(self):
        good = self.run_layer("parity", [scale_add_op("scale_add")])
        self.assert_all(good, True)
        self.assertEqual(good["odd"]["figures"]["result[0]"]["mismatch_share"], 0.0)
        off = self.run_layer("parity", [scale_add_op("off")])
        self.assert_all(off, False)
        self.assertAlmostEqual(off["odd"]["figures"]["result[0]"]["max_abs_error"], 1e-2, places=6)
        self.assertIn("100.00% of elements off", off["odd"]["detail"])

    def test_parity_skips_without_a_reference(self):
        op = dict(scale_add_op("scale_add"), reference=None)
        results = self.run_layer("parity", [op])
        self.assert_all(results, None)
        self.assertEqual(results["odd"]["detail"], "no reference in the spec")

    def test_smoke_runs_every_case(self):
        results = self.run_layer("smoke", [scale_add_op("scale_add")])
        self.assert_all(results, True)
        self.assertIn("result[0] [7, 33]", results["odd"]["detail"])

    def test_boundary_passes_a_checked_op(self):
        results = self.run_layer("boundary", [scale_add_op("scale_add")])
        self.assert_all(results, True)
        self.assertIn("guard-odd", results)

    def test_boundary_catches_a_missing_dtype_check(self):
        results = self.run_layer("boundary", [scale_add_op("no_dtype_check")])
        self.assertFalse(results["x-float64"]["ok"])
        self.assertIn("accepted x as float64 without an error", results["x-float64"]["detail"])
        self.assertTrue(results["y-mismatch"]["ok"], results["y-mismatch"]["detail"])

    def test_boundary_guard_bands_catch_a_write_past_the_end(self):
        self.assert_all(self.run_layer("boundary", [scale_into_op("scale_into")]), True)
        results = self.run_layer("boundary", [scale_into_op("scale_into_past_end")])
        self.assertTrue(results["guard-even"]["ok"])
        self.assertFalse(results["guard-odd"]["ok"])
        self.assertIn(
            "`out` written 1 element(s) past its end (of 21)", results["guard-odd"]["detail"]
        )

    def test_api_finds_a_missing_fake_and_a_schema_that_differs(self):
        good = self.run_layer("api", [scale_add_op("scale_add"), scale_into_op("scale_into")])
        self.assertTrue(good["api-cuda-kernels"]["ok"], good["api-cuda-kernels"]["detail"])
        self.assertTrue(good["api-fake-kernels"]["ok"], good["api-fake-kernels"]["detail"])
        self.assertFalse(good["api-schemas"]["ok"])  # the module registers more ops than these two
        self.assertIn(
            "no_fake is registered but not in the manifest", good["api-schemas"]["detail"]
        )
        no_fake = self.run_layer("api", [scale_add_op("no_fake")])
        self.assertFalse(no_fake["api-fake-kernels"]["ok"])
        differs = dict(
            scale_add_op("scale_add"), schema="(Tensor x, Tensor y, float beta) -> Tensor"
        )
        schemas = self.run_layer("api", [differs])
        self.assertIn(
            "the manifest says `h::scale_add(Tensor x, Tensor y, float beta) -> Tensor`",
            schemas["api-schemas"]["detail"],
        )

    def test_api_reads_the_python_surface(self):
        api = {
            "module": "harness_ops",
            "package_module": "harness_ops",
            "public": ["scale_add", "LIB"],
            "reexports": ["scale_add"],
        }
        results = self.run_layer(
            "api", [scale_add_op("scale_add")], python_api=api, shared_namespace=True
        )
        self.assertTrue(
            results["api-schemas"]["ok"], "other ops of a shared namespace are not extra"
        )
        self.assertTrue(results["api-fake-names"]["ok"], results["api-fake-names"]["detail"])
        self.assertTrue(results["api-reexports"]["ok"], results["api-reexports"]["detail"])
        self.assertFalse(results["api-all"]["ok"])
        self.assertIn("missing ['LIB', 'scale_add']", results["api-all"]["detail"])
        self.assertFalse(results["api-wrappers"]["ok"])
        self.assertIn(
            "scale_add does not call torch.ops.h.scale_add", results["api-wrappers"]["detail"]
        )

    def test_a_jit_module_is_handed_the_built_extension(self):
        for name, text in (("jit_ops.py", JIT_MODULE), ("jit_ext_built.py", BUILT_EXTENSION)):
            with open(os.path.join(self.folder.name, name), "w") as file:
                file.write(text)
        load = {
            "kind": "jit",
            "path": self.folder.name,
            "module": "jit_ops",
            "extension": "jit_ext",
            "sources": ["csrc/scale.cu"],
            "library": os.path.join(self.folder.name, "jit_ext_built.py"),
        }
        results = self.run_layer("smoke", [scale_op()], load=load, namespace="j")
        self.assert_all(results, True)
        other = dict(load, sources=["csrc/other.cu"])
        results = self.run_layer("smoke", [scale_op()], load=other, namespace="j")
        self.assert_all(results, False)
        self.assertIn("opmig built jit_ext from ['csrc/other.cu']", results["odd"]["detail"])

    def upstream(self):
        return dict(UPSTREAM, path=self.folder.name)

    def test_upstream_entries_are_registered_with_the_schemas(self):
        ops = [scale_add_op("scale_add"), scale_add_op("off"), scale_into_op("scale_into")]
        results = self.run_layer("upstream", ops, upstream=self.upstream())
        self.assert_all(results, True)
        extra = self.run_layer("upstream", ops[:1], upstream=self.upstream())
        self.assertFalse(extra["registered"]["ok"])
        self.assertIn("off is registered but not in the manifest", extra["registered"]["detail"])

    def test_diff_passes_bitwise_equal_outputs(self):
        results = self.run_layer("diff", [scale_add_op("scale_add")], upstream=self.upstream())
        self.assert_all(results, True)
        self.assertEqual(results["odd"]["detail"], "bitwise equal to the upstream build's outputs")
        self.assertTrue(results["odd"]["figures"]["result[0]"]["bitwise_equal"])
        in_place = self.run_layer("diff", [scale_into_op("scale_into")], upstream=self.upstream())
        self.assert_all(in_place, True)
        self.assertTrue(in_place["odd"]["figures"]["out"]["bitwise_equal"])

    def test_diff_names_the_first_differing_element(self):
        results = self.run_layer("diff", [scale_add_op("off")], upstream=self.upstream())
        self.assert_all(results, False)
        figures = results["odd"]["figures"]["result[0]"]
        self.assertEqual(figures["differing_share"], 1.0)
        self.assertEqual(figures["first_difference"]["index"], [0, 0])
        self.assertAlmostEqual(figures["max_abs_error"], 1e-2, places=5)
        self.assertIn("100.00% of elements differ from the upstream's", results["odd"]["detail"])
        self.assertIn("bitwise expected", results["odd"]["detail"])

    def test_diff_allows_the_tolerance_the_spec_gives(self):
        allowed = {
            "reason": "the migration adds a bias on purpose",
            "cases": ["odd"],
            "tolerances": {"float32": {"atol": 2e-2, "rtol": 0.0}},
        }
        op = dict(scale_add_op("off"), upstream_tolerances=allowed)
        results = self.run_layer("diff", [op], upstream=self.upstream())
        self.assertTrue(results["odd"]["ok"], results["odd"]["detail"])
        self.assertIn("within the tolerance allowed", results["odd"]["detail"])
        self.assertIn("on purpose", results["odd"]["detail"])
        self.assertFalse(results["half"]["ok"], "a case the spec does not name stays bitwise")

    def test_perf_times_both_builds(self):
        op = dict(scale_add_op("scale_add"), cases=[case("big", 256, 256, "float32")])
        settings = {"warmup": 1, "samples": 5, "min_sample_ms": 0.2, "min_band": 10.0}
        results = self.run_layer("perf", [op], upstream=self.upstream(), perf=settings)
        self.assertTrue(results["big"]["ok"], results["big"]["detail"])
        figures = results["big"]["figures"]
        for key in ("migrated_ms", "upstream_ms", "upstream_again_ms", "ratio", "noise_band"):
            self.assertGreater(figures[key], 0, key)
        self.assertEqual(figures["samples"], 5)
        self.assertEqual(figures["l2"], "warm")

    def test_start_skips_the_cases_already_run(self):
        results = self.run_layer("smoke", [scale_add_op("scale_add")], start=1)
        self.assertEqual(list(results), ["half"])


def load_harness():
    """op_harness.py as a module, for the parts that need no torch."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("op_harness", SCRIPT)
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    return harness


class PerfVerdictTest(unittest.TestCase):
    """The noise band and the verdict, from sample times alone (no torch)."""

    @classmethod
    def setUpClass(cls):
        cls.harness = load_harness()

    SETTINGS = {"min_band": 0.05, "band_factor": 3.0}

    def test_equal_times_pass(self):
        times = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.0]
        ok, detail, figures = self.harness.perf_verdict(times, times, times, self.SETTINGS)
        self.assertTrue(ok, detail)
        self.assertEqual(figures["ratio"], 1.0)
        self.assertEqual(figures["noise_band"], 0.05)

    def test_a_slower_migration_outside_the_band_fails(self):
        upstream = [1.0] * 8
        ok, detail, figures = self.harness.perf_verdict(
            [1.4] * 8, upstream, upstream, self.SETTINGS
        )
        self.assertFalse(ok)
        self.assertIn("slower than the upstream beyond the noise", detail)
        self.assertAlmostEqual(figures["ratio"], 1.4)

    def test_the_band_widens_with_the_upstreams_own_noise(self):
        # The upstream against itself differs by 10%: a 20% difference is noise.
        ok, detail, figures = self.harness.perf_verdict(
            [1.2] * 8, [1.0] * 8, [1.1] * 8, self.SETTINGS
        )
        self.assertTrue(ok, detail)
        self.assertAlmostEqual(figures["noise_band"], 0.3)


class PerfFloorTest(unittest.TestCase):
    """The absolute floor of the noise band: a fraction of a microsecond per call."""

    @classmethod
    def setUpClass(cls):
        cls.harness = load_harness()

    SETTINGS = {"min_band": 0.05, "band_factor": 3.0, "min_abs_ms": 0.00025}

    def test_a_fifth_of_a_microsecond_on_a_tiny_kernel_is_noise(self):
        # correct-diff's odd/float64 on the H200: 0.003819 ms against 0.003633 ms.
        ok, detail, figures = self.harness.perf_verdict(
            [0.003819] * 8, [0.003633] * 8, [0.003633] * 8, self.SETTINGS
        )
        self.assertTrue(ok, detail)
        self.assertAlmostEqual(figures["noise_band"], 0.00025 / 0.003633)

    def test_a_microsecond_and_a_half_is_not(self):
        # bf16-fallback's odd/bfloat16: 0.003319 ms against 0.001855 ms.
        ok, detail, _ = self.harness.perf_verdict(
            [0.003319] * 8, [0.001855] * 8, [0.001855] * 8, self.SETTINGS
        )
        self.assertFalse(ok, detail)

    def test_the_floor_is_nothing_for_a_long_kernel(self):
        ok, _, figures = self.harness.perf_verdict([1.4] * 8, [1.0] * 8, [1.0] * 8, self.SETTINGS)
        self.assertFalse(ok)
        self.assertEqual(figures["noise_band"], 0.05)


class ScriptedCuda:
    """`torch.cuda` as the Timer uses it, with a GPU whose start event is reached before the
    host has queued the calls while the sleep is shorter than `needed_cycles`."""

    def __init__(self, needed_cycles, cycles_per_ms=1000.0):
        self.needed_cycles = needed_cycles
        self.cycles_per_ms = cycles_per_ms
        self.sleeps = []
        cuda = self

        class Event:
            def __init__(self, enable_timing):
                self.sleep = 0

            def record(self):
                self.sleep = cuda.sleeps[-1] if cuda.sleeps else 0

            def query(self):
                return self.sleep < cuda.needed_cycles

            def synchronize(self):
                pass

            def elapsed_time(self, end):
                return end.sleep / cuda.cycles_per_ms or 1.0

        self.Event = Event

    def _sleep(self, cycles):
        self.sleeps.append(cycles)

    def synchronize(self):
        pass


class TimerTest(unittest.TestCase):
    """The Timer's check that a sample timed the kernels, not the host (no GPU: a scripted
    `torch.cuda`; the real one is run on the GPU machine, docs/gpu-runs.md)."""

    @classmethod
    def setUpClass(cls):
        cls.harness = load_harness()

    def timer(self, cuda):
        torch = type("Torch", (), {"cuda": cuda})
        return self.harness.Timer(torch, "cuda:0", 0)

    def test_a_sleep_too_short_is_doubled_until_the_calls_are_queued(self):
        cuda = ScriptedCuda(needed_cycles=500)
        timer = self.timer(cuda)
        cuda.sleeps.clear()
        timer.time(lambda: None, 10, False, host_ms=0.1)
        # 1000 cycles/ms x (margin x 0.1 ms + 0.05 ms): 250, then 450, then 850 (queued).
        self.assertEqual(cuda.sleeps, [250, 450, 850])
        self.assertEqual(timer.host_bound, 0)
        self.assertEqual(timer.margin, 8.0, "later samples keep the longer sleep")

    def test_a_sample_never_queued_counts_as_host_bound(self):
        cuda = ScriptedCuda(needed_cycles=10**9)
        timer = self.timer(cuda)
        cuda.sleeps.clear()
        timer.time(lambda: None, 10, False, host_ms=0.1)
        # margins 2, 4, ... 64: six tries, then the sample is taken as it is.
        self.assertEqual(len(cuda.sleeps), 6)
        self.assertEqual(timer.host_bound, 1)
        cuda.sleeps.clear()
        timer.time(lambda: None, 10, False, host_ms=0.1)
        self.assertEqual(cuda.sleeps, [6450], "the margin stops growing: one try at the cap")
        self.assertEqual(timer.host_bound, 2)

    def test_calibration_keeps_the_fastest_rate_after_a_warm_up(self):
        rates = iter([250.0, 1000.0, 800.0])  # the first timed sleep was stretched by the host

        class Cuda(ScriptedCuda):
            def __init__(self):
                super().__init__(needed_cycles=0)
                Event = self.Event

                class Timed(Event):
                    def elapsed_time(self, end):
                        return 1_000_000 / next(rates)

                self.Event = Timed

        cuda = Cuda()
        timer = self.timer(cuda)
        self.assertEqual(cuda.sleeps[0], 1000, "the kernel is loaded before it is timed")
        self.assertEqual(timer.cycles_per_ms, 1000.0)


if __name__ == "__main__":
    unittest.main()
