"""auditors/python/checks.py: the facts behind the `python` rules of `opmig
audit`. Each test sends the helper a request as PythonAstBridge.cpp builds it
(`files`, then `tasks` with `rule`, `check`, `params` and file indexes; the
params PythonChecker.cpp passes, `argument` and `guard-names` always) and
reads the records it answers, before opmig applies any rule regex."""

import os
import shutil
import tempfile
import textwrap
import unittest

from helper_loader import load, run_embedded

SCRIPT = "auditors/python/checks.py"
checks = load(SCRIPT, "checks")


class HelperTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="opmig-checks-test-")
        self.addCleanup(shutil.rmtree, self.root)
        self.paths = []

    def file(self, name, text):
        """Writes a file of the request and returns its index."""
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(text))
        self.paths.append(path)
        return len(self.paths) - 1

    def ask(self, tasks):
        request = {"files": self.paths, "tasks": tasks}
        return run_embedded(SCRIPT, [], checks.json.dumps(request).encode())

    def records(self, check, files, **params):
        """The records of one task over `files`."""
        params.setdefault("argument", 0)
        params.setdefault("guard-names", [])
        task = {"rule": "r", "check": check, "params": params, "files": files}
        answer = self.ask([task])
        self.assertEqual(answer["unparsable"], [])
        [result] = answer["results"]
        self.assertEqual(result["rule"], "r")
        return result["records"]

    def captures(self, check, files, key, **params):
        return [record["captures"][key] for record in self.records(check, files, **params)]


class RequestTest(HelperTest):
    def test_every_task_gets_its_records_with_file_line_and_column(self):
        first = self.file("a.py", "import torch\nlib = torch.library.Library('ns', 'DEF')\n")
        second = self.file("b.py", "x = 1\n")
        answer = self.ask(
            [
                {
                    "rule": "lib",
                    "check": "call-string-argument",
                    "params": {"call": "torch.library.Library", "argument": 0},
                    "files": [first, second],
                },
                {"rule": "state", "check": "module-state", "params": {}, "files": [second]},
            ]
        )
        self.assertEqual([result["rule"] for result in answer["results"]], ["lib", "state"])
        [library] = answer["results"][0]["records"]
        # Columns are 1-based, at the string argument.
        self.assertEqual((library["file"], library["line"], library["column"]), (first, 2, 29))
        self.assertEqual(library["captures"]["argument"], "ns")
        [state] = answer["results"][1]["records"]
        self.assertEqual((state["file"], state["line"]), (second, 1))
        self.assertEqual(state["captures"]["name"], "x")

    def test_unparsable_files_are_reported_once_and_skipped(self):
        good = self.file("good.py", "x = 1\n")
        bad = self.file("bad.py", "def f(:\n")
        answer = self.ask(
            [
                {"rule": "a", "check": "module-state", "params": {}, "files": [good, bad]},
                {"rule": "b", "check": "forbidden-names", "params": {}, "files": [bad]},
            ]
        )
        self.assertEqual(len(answer["results"][0]["records"]), 1)
        self.assertEqual(answer["results"][1]["records"], [])
        [failure] = answer["unparsable"]
        self.assertEqual((failure["file"], failure["line"]), (bad, 1))
        self.assertTrue(failure["message"])

    def test_a_missing_file_is_unparsable_not_a_crash(self):
        self.paths.append(os.path.join(self.root, "gone.py"))
        answer = self.ask([{"rule": "a", "check": "module-state", "params": {}, "files": [0]}])
        [failure] = answer["unparsable"]
        self.assertEqual((failure["file"], failure["line"], failure["column"]), (0, 0, 0))

    def test_many_files_split_between_workers_keep_file_order(self):
        # Above FILES_PER_WORKER files per core the helper forks; the merged
        # answer must not depend on it.
        count = 2 * checks.FILES_PER_WORKER + 1
        for number in range(count):
            self.file(f"m{number:04}.py", f"value_{number} = {number}\n")
        names = self.captures("module-state", list(range(count)), "name")
        self.assertEqual(names, [f"value_{number}" for number in range(count)])


class CallAndDecoratorTest(HelperTest):
    def test_call_string_argument_through_aliases_and_constants(self):
        index = self.file(
            "ops.py",
            """\
            from torch import library as lib
            import torch.library

            NS = "cache_dit_cuda_ops"
            OP = NS + "::gelu"
            torch.library.define(OP, "(Tensor x) -> Tensor")
            lib.define(f"{NS}::silu", "(Tensor x) -> Tensor")
            lib.define(schema="(Tensor x) -> Tensor", qualname="ns::relu")
            torch.library.define(make_name(), "()")
            """,
        )
        records = self.records(
            "call-string-argument", [index], call="torch.library.define", keyword="qualname"
        )
        self.assertEqual(
            [(r["line"], r["captures"]["namespace"], r["captures"]["op"]) for r in records],
            [
                (6, "cache_dit_cuda_ops", "gelu"),
                (7, "cache_dit_cuda_ops", "silu"),
                (8, "ns", "relu"),
            ],
        )

    def test_a_name_bound_twice_is_no_constant(self):
        index = self.file(
            "ops.py",
            """\
            import torch
            NAME = "a::x"
            NAME = "b::x"
            torch.library.define(NAME, "()")
            """,
        )
        self.assertEqual(
            self.records("call-string-argument", [index], call="torch.library.define"), []
        )

    def test_decorated_function_name_and_decorator_argument(self):
        index = self.file(
            "ops.py",
            """\
            import torch

            @torch.library.register_fake("ns::gelu")
            def _fake_gelu(x):
                return x

            @torch.library.impl("ns::silu", ["CUDA", "CPU"])
            def silu_impl(x):
                return x

            @other("ns::gelu")
            def unrelated(x):
                return x
            """,
        )
        [fake] = self.records(
            "decorated-function-name", [index], decorator="torch.library.register_fake"
        )
        self.assertEqual(fake["line"], 4)
        self.assertEqual(
            fake["captures"],
            {
                "name": "_fake_gelu",
                "decorator": "torch.library.register_fake",
                "namespace": "ns",
                "op": "gelu",
            },
        )
        [impl] = self.records(
            "decorator-argument", [index], decorator="torch.library.impl", argument=1
        )
        self.assertEqual(impl["captures"]["argument"], "CUDA, CPU")
        self.assertEqual((impl["captures"]["name"], impl["captures"]["op"]), ("silu_impl", "silu"))


class ModuleSurfaceTest(HelperTest):
    def test_all_equals_public_names(self):
        index = self.file(
            "mod.py",
            """\
            from .impl import gelu, _private
            import os

            __all__ = ["gelu", "silu", "gelu"]
            __all__ += ["missing"]

            def silu(x):
                return x

            def extra(x):
                return x
            """,
        )
        problems = [
            (r["captures"]["name"], r["captures"]["problem"])
            for r in self.records("all-equals-public-names", [index])
        ]
        self.assertEqual(
            problems,
            [
                ("gelu", "listed twice in __all__"),
                ("missing", "listed in __all__ but not a public name of the module"),
                ("extra", "a public name missing from __all__"),
            ],
        )

    def test_an_all_it_cannot_read_is_not_judged(self):
        index = self.file("mod.py", "__all__ = list_names()\ndef f(): pass\n")
        self.assertEqual(self.records("all-equals-public-names", [index]), [])

    def test_no_partial_alias(self):
        index = self.file(
            "mod.py",
            """\
            import functools
            from functools import partial
            gelu_tanh = functools.partial(gelu, approximate="tanh")
            _private = partial(gelu)
            silu = partial(act, kind="silu")
            """,
        )
        self.assertEqual(self.captures("no-partial-alias", [index], "name"), ["gelu_tanh", "silu"])

    def test_forbidden_names_and_section_order(self):
        index = self.file(
            "mod.py",
            """\
            import torch
            _EXTENSION = "x"

            @torch.compile
            def kernel(x):
                return x

            class Backend:
                pass

            register()
            """,
        )
        self.assertEqual(
            self.captures("forbidden-names", [index], "name"), ["_EXTENSION", "kernel", "Backend"]
        )
        items = self.records("section-order", [index])
        self.assertEqual(
            [(r["captures"]["name"], r["captures"]["kind"], r["keys"]) for r in items],
            [
                ("_EXTENSION", "assignment", ["_EXTENSION"]),
                ("kernel", "function", ["kernel", "@torch.compile"]),
                ("Backend", "class", ["Backend"]),
                ("register", "call", ["register"]),
            ],
        )

    def test_module_state_looks_into_module_level_blocks_only(self):
        index = self.file(
            "mod.py",
            """\
            _cache = None
            if True:
                _loaded = False
            try:
                a, (b, *c) = 1, (2, 3)
            except ImportError:
                pass
            def f():
                local = 1
            """,
        )
        self.assertEqual(
            self.captures("module-state", [index], "name"), ["_cache", "_loaded", "a", "b", "c"]
        )

    def test_public_wrapper_calls(self):
        index = self.file(
            "wrappers.py",
            """\
            import torch

            def gelu(x):
                return torch.ops.ns.gelu(x)

            def silu(x):
                return _call_silu(x)

            def relu(x):
                return torch.ops.ns.other(x)

            def helper(x):
                return x
            """,
        )
        problems = [
            (r["captures"]["name"], r["captures"]["problem"])
            for r in self.records("public-wrapper-calls", [index], prefix="torch.ops.ns.")
        ]
        self.assertEqual(
            problems,
            [
                ("silu", "calls the bridge `_call_silu` directly"),
                ("silu", "does not call `torch.ops.ns.silu`"),
                ("relu", "does not call `torch.ops.ns.relu`"),
            ],
        )


class GuardedImportTest(HelperTest):
    def guarded(self, text):
        index = self.file("mod.py", text)
        records = self.records(
            "guarded-import",
            [index],
            guard="is_torch_npu_available",
            **{"guard-names": ["IS_NPU_AVAILABLE"]},
        )
        return [(r["line"], r["captures"]["module"], r["captures"]["function"]) for r in records]

    def test_imports_outside_the_guard_are_candidates(self):
        found = self.guarded(
            """\
            import torch_npu
            from veomni.utils import is_torch_npu_available, IS_NPU_AVAILABLE

            if is_torch_npu_available():
                import npu_kernels

            if IS_NPU_AVAILABLE and True:
                from npu import op

            def factory():
                return importlib.import_module("npu_impl")

            # Everything below runs only with the guard.
            if not is_torch_npu_available():
                raise ImportError("needs an NPU")
            import torch_npu.contrib
            """
        )
        self.assertEqual(
            found,
            [
                (1, "torch_npu", ""),
                (2, "veomni.utils", ""),
                (11, "npu_impl", "factory"),
            ],
        )

    # An early `return` inside a def guards what follows it, as at module
    # level above.
    def test_an_early_return_guards_the_rest_of_a_function(self):
        found = self.guarded(
            """\
            def patch():
                if not is_torch_npu_available():
                    return
                import torch_npu.contrib
            """
        )
        self.assertEqual(found, [])

    def test_a_module_skipped_without_the_guard_imports_freely(self):
        found = self.guarded(
            """\
            import pytest
            pytestmark = pytest.mark.skipif(not is_torch_npu_available(), reason="npu")
            import torch_npu
            """
        )
        self.assertEqual(found, [])

    # `guard-device-type`: a torch.device of type "npu" exists only once
    # torch_npu is loaded, so comparing a `.type` with it guards; a local
    # name bound only to such a comparison does too. Any other string
    # comparison, or a local also bound to something else, does not.
    def test_a_device_type_comparison_guards_when_the_rule_names_the_type(self):
        text = """\
            def load(self, forced):
                on_npu = self.device.type == "npu"
                if on_npu:
                    import torch_npu
                if self.backend == "npu":
                    import torch_npu.contrib
                flag = self.device.type == "npu"
                flag = flag or forced
                if flag:
                    import npu_ops
            """
        index = self.file("mod.py", text)
        records = self.records(
            "guarded-import",
            [index],
            guard="is_torch_npu_available",
            **{"guard-device-type": "npu"},
        )
        self.assertEqual(
            [(r["line"], r["captures"]["module"]) for r in records],
            [(6, "torch_npu.contrib"), (10, "npu_ops")],
        )
        # Without the parameter, the device check is no guard.
        without = self.records("guarded-import", [index], guard="is_torch_npu_available")
        self.assertEqual(len(without), 3)


class VeomniRegistryTest(HelperTest):
    def test_function_pointer_pattern(self):
        index = self.file(
            "ops/gelu/__init__.py",
            """\
            _gelu = None

            def gelu(x):
                if _gelu is None:
                    raise NotImplementedError("no kernel")
                return _gelu(x)

            def gelu_unchecked(x):
                return _gelu(x)

            def apply_veomni_gelu_patch():
                global _gelu
                _gelu = impl
            """,
        )
        records = self.records("function-pointer-pattern", [index], raises="NotImplementedError")
        self.assertEqual(
            [(r["line"], r["captures"]["name"]) for r in records], [(9, "gelu_unchecked")]
        )
        self.assertIn("before this call", records[0]["captures"]["missing"])

    def test_a_check_inside_a_with_block_covers_the_calls_after_it(self):
        index = self.file(
            "ops/gelu/__init__.py",
            """\
            _gelu = None

            def gelu(x):
                with torch.no_grad():
                    if _gelu is None:
                        raise NotImplementedError("no kernel")
                    return _gelu(x)

            def gelu_late(x):
                with torch.no_grad():
                    y = _gelu(x)
                    if _gelu is None:
                        raise NotImplementedError("no kernel")
                    return y

            def apply_veomni_gelu_patch():
                global _gelu
                _gelu = impl
            """,
        )
        records = self.records("function-pointer-pattern", [index], raises="NotImplementedError")
        self.assertEqual([(r["line"], r["captures"]["name"]) for r in records], [(11, "gelu_late")])

    # A patch function with no pointer in __init__.py is judged with the
    # package's other modules: a pointer there (None or a default
    # implementation, called or declared global) is the package's.
    def test_a_pointer_beside_init_belongs_to_the_package(self):
        patch = """\
            def apply_veomni_attn_patch():
                REGISTRY.register("attn", attn)
            """
        with_pointer = self.file("ops/attn/__init__.py", patch)
        flash = "_kernel = hf.flash\n\ndef flash(q):\n    return _kernel(q)\n"
        self.file("ops/attn/flash.py", flash)
        without = self.file("ops/rope/__init__.py", patch)
        helpers = "_TABLE = None\n_HALF = 2\n\ndef rotate(x):\n    return x\n"
        self.file("ops/rope/helpers.py", helpers)
        self.file("ops/rope/sub/__init__.py", "_unused = None\n")
        records = self.records(
            "function-pointer-pattern", [with_pointer, without], raises="NotImplementedError"
        )
        self.assertEqual([(r["file"], r["line"]) for r in records], [(without, 1)])

    def test_registered_in_and_exported_in(self):
        registry = self.file(
            "veomni/ops/__init__.py",
            """\
            from .gelu import gelu
            from . import silu

            __all__ = ["gelu", "ghost"]

            def build_ALL_OPS():
                return [gelu.apply_veomni_gelu_patch, silu]
            """,
        )
        source = """\
            _{op} = None

            def {op}(x):
                if _{op} is None:
                    raise NotImplementedError
                return _{op}(x)

            def apply_veomni_{op}_patch():
                global _{op}
                _{op} = impl
            """
        gelu = self.file("veomni/ops/gelu/__init__.py", source.format(op="gelu"))
        relu = self.file("veomni/ops/relu/__init__.py", source.format(op="relu"))
        registry_file = self.paths[registry]
        unregistered = self.records(
            "registered-in",
            [gelu, relu],
            function="build_ALL_OPS",
            file=registry_file,
            file_index=registry,
        )
        self.assertEqual([r["captures"]["package"] for r in unregistered], ["relu"])
        exports = self.records(
            "exported-in", [registry, gelu, relu], file=registry_file, file_index=registry
        )
        self.assertEqual(
            [(r["file"], r["captures"]["name"]) for r in exports],
            [(registry, "ghost"), (relu, "relu")],
        )


class RegistryChecksTest(HelperTest):
    """registered-in over several registries, imports-every-package."""

    PATCHED = """\
        _{op} = None

        def apply_veomni_{op}_patch():
            global _{op}
            _{op} = impl
        """

    def test_a_patch_called_from_either_registry_is_registered(self):
        ops = self.file(
            "veomni/ops/__init__.py",
            """\
            from .kernels import attn

            def apply_ops_patch():
                attn.apply_veomni_attn_patch()

            def unrelated():
                from .kernels.rope import apply_veomni_rope_patch
                apply_veomni_rope_patch()
            """,
        )
        auto = self.file(
            "veomni/models/auto.py",
            """\
            def _bind():
                from ..ops.kernels.moe import apply_veomni_moe_patch
                apply_veomni_moe_patch()

            def build_foundation_model():
                _bind()
            """,
        )
        packages = [
            self.file(f"veomni/ops/kernels/{op}/__init__.py", self.PATCHED.format(op=op))
            for op in ("attn", "moe", "rope")
        ]
        registries = [
            {"file": "veomni/ops/__init__.py", "function": "apply_ops_patch", "file_index": ops},
            {"file": "veomni/models/auto.py", "function": "build_foundation_model",
             "file_index": auto},
        ]
        records = self.records(
            "registered-in", packages, registries=registries, registers="patch"
        )
        self.assertEqual([r["captures"]["patch"] for r in records], ["apply_veomni_rope_patch"])
        self.assertEqual(
            records[0]["captures"]["registries"],
            "apply_ops_patch() in veomni/ops/__init__.py or "
            "build_foundation_model() in veomni/models/auto.py",
        )

    def test_a_package_is_imported_through_the_packages_between(self):
        registry = self.file("veomni/ops/__init__.py", "from . import kernels\n")
        self.file("veomni/ops/kernels/__init__.py", "from . import attn\nfrom .moe.x import y\n")
        packages = [
            self.file(f"veomni/ops/kernels/{op}/__init__.py", self.PATCHED.format(op=op))
            for op in ("attn", "moe", "rope")
        ]
        library = self.file("veomni/ops/kernels/gemm/__init__.py", "def gemm(a, b):\n    pass\n")
        records = self.records(
            "imports-every-package",
            packages + [library],
            file="veomni/ops/__init__.py",
            file_index=registry,
        )
        self.assertEqual([r["captures"]["package"] for r in records], ["kernels.rope"])


class ModuleSurfaceChecksTest(HelperTest):
    def test_required_names_answers_every_name_bound(self):
        index = self.file(
            "_attn.py",
            """\
            from types import ModuleType
            import importlib
            _EXTENSION_MODULE_NAME = "cache_dit._C_attn"
            try:
                _cached = None
            except ImportError:
                pass
            def attn_get_load_error():
                return None
            """,
        )
        [only] = self.records("required-names", [index])
        self.assertEqual((only["line"], only["column"]), (0, 0))
        self.assertEqual(
            only["captures"]["defined"].split("\n"),
            ["ModuleType", "_EXTENSION_MODULE_NAME", "_cached", "attn_get_load_error",
             "importlib"],
        )

    def test_all_lists_public_functions_ignores_imports_and_allows_private(self):
        index = self.file(
            "_comm.py",
            """\
            from types import ModuleType
            __all__ = ["quant", "_call_quant"]
            def quant(x):
                pass
            def _call_quant(x):
                pass
            def dequant(x):
                pass
            """,
        )
        records = self.records("all-lists-public-functions", [index])
        self.assertEqual([r["captures"]["name"] for r in records], ["dequant"])

    def test_calls_know_whether_their_result_is_returned(self):
        index = self.file(
            "_comm.py",
            """\
            import torch
            def _call_x(a):
                scratch = torch.zeros(4)
                out: torch.Tensor = a.new_empty(2)
                kernel(a, scratch, out)
                return out
            """,
        )
        records = self.records("no-calls-in", [index])
        self.assertEqual(
            [(r["captures"]["call"], r["captures"]["returned"]) for r in records],
            [("torch.zeros", ""), ("a.new_empty", "1"), ("kernel", "")],
        )

    def test_each_define_needs_a_fake_of_its_op(self):
        index = self.file(
            "_attn.py",
            """\
            import torch
            from torch.library import register_fake
            torch.library.define("ns::a", "(Tensor x) -> Tensor")
            torch.library.define("ns::b(Tensor x) -> Tensor")
            torch.library.define("ns::c", "(Tensor x) -> Tensor")
            register_fake("ns::a")(lambda x: x)
            @torch.library.register_fake("c")
            def _fake_c(x):
                return x
            """,
        )
        records = self.records("defines-have-fakes", [index])
        self.assertEqual([r["captures"]["qualname"] for r in records], ["ns::b"])

    def test_raises_of_the_function_and_the_helpers_it_calls(self):
        index = self.file(
            "_attn.py",
            """\
            def _required():
                raise RuntimeError(f"{NAME} missing: run "
                                   "`CACHE_DIT_BUILD_ATTN=1 pip install`")
            def _get_required_ops_module():
                if _required() is None:
                    raise ImportError
                return 1
            """,
        )
        [found] = self.records("raises-with-message", [index], function="_get_required_ops_module")
        self.assertEqual(
            found["captures"]["raises"].split("\n"),
            ["ImportError\t", "RuntimeError\tmissing: run `CACHE_DIT_BUILD_ATTN=1 pip install`"],
        )

    def test_string_constant_and_imports(self):
        index = self.file(
            "_attn.py",
            """\
            import importlib
            from .. import _C_attn, other
            NAME = "cache_dit._C_" + "attn"
            def load():
                return importlib.import_module(NAME)
            """,
        )
        [constant] = self.records("value-follows-file", [index], name="NAME")
        self.assertEqual(constant["captures"]["value"], "cache_dit._C_attn")
        imports = self.records("forbidden-import", [index])
        self.assertEqual(
            [(r["captures"]["module"], r["captures"]["function"], r["captures"]["statement"])
             for r in imports],
            [("importlib", "", "1"), ("..", "", "2"), (".._C_attn", "", "2"),
             ("..other", "", "2"), ("cache_dit._C_attn", "load", "5")],
        )


class TestFunctionsTest(HelperTest):
    def test_tests_with_what_they_use_through_helpers(self):
        index = self.file(
            "test_gelu.py",
            """\
            import pytest
            import torch

            def _reference(x):
                return torch.nn.functional.gelu(x)

            def test_matches_reference():
                assert close(gelu(x), _reference(x), "fp16")

            class TestGelu:
                @pytest.mark.skip(reason="later")
                def test_backward(self):
                    pass
            """,
        )
        records = self.records("test-functions", [index])
        self.assertEqual(
            [(r["captures"]["name"], r["captures"]["placeholder"]) for r in records],
            [("test_matches_reference", ""), ("TestGelu::test_backward", "1")],
        )
        uses = records[0]["captures"]["uses"].split("\n")
        self.assertIn("torch.nn.functional.gelu", uses)
        self.assertIn("gelu", uses)
        self.assertEqual(records[0]["captures"]["strings"], "fp16")
        self.assertEqual(records[0]["captures"]["imports"], "pytest\ntorch")


class StringEvaluationTest(unittest.TestCase):
    """Module.string(), which every string capture goes through."""

    def value(self, source, expression):
        tree = checks.ast.parse(textwrap.dedent(source) + "\n_ = " + expression + "\n")
        module = checks.Module(tree, b"", 0)
        return module.string(tree.body[-1].value)

    def test_literals_constants_sums_and_f_strings(self):
        self.assertEqual(self.value("", "'a'"), "a")
        self.assertEqual(self.value("A = 'x'", "A + '::' + 'y'"), "x::y")
        self.assertEqual(self.value("A = 'x'", "f'{A}::y'"), "x::y")

    def test_what_it_cannot_evaluate_is_none(self):
        self.assertIsNone(self.value("", "name()"))
        self.assertIsNone(self.value("A = 'x'", "f'{A!r}'"))
        self.assertIsNone(self.value("A = 'x'", "f'{A:>4}'"))
        self.assertIsNone(self.value("", "1 + 'a'"))

    def test_split_qualname(self):
        self.assertEqual(checks.split_qualname("ns::op::x"), ("ns", "op::x"))
        self.assertEqual(checks.split_qualname("op"), ("", "op"))
        self.assertEqual(checks.split_qualname(None), (None, None))


if __name__ == "__main__":
    unittest.main()
