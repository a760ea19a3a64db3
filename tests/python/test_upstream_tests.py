"""validators/python/upstream_tests.py: the shapes an upstream tree's pytest
files call an op with, read with `ast` (UpstreamTestCases.cpp maps them onto
the spec's dims). The tree is tests/fixtures/upstream_tests."""

import ast
import json
import os
import shutil
import tempfile
import textwrap
import unittest

from helper_loader import SOURCE_DIR, load, run_embedded

SCRIPT = "validators/python/upstream_tests.py"
reader = load(SCRIPT, "upstream_tests")
TREE = os.path.join(SOURCE_DIR, "tests", "fixtures", "upstream_tests")


def shapes_of(found):
    """Each reading as (line, [positional shapes or values])."""
    return [
        (item["line"], [a and (a.get("shape") or a.get("value")) for a in item["args"]])
        for item in found
    ]


class FixtureTreeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        request = {
            "root": TREE,
            "ops": {"rms_norm": ["rms_norm"], "merge_attn_states": ["merge_attn_states"]},
        }
        cls.answer = run_embedded(SCRIPT, [], json_bytes(request))

    def test_both_files_are_read(self):
        self.assertEqual(self.answer["files"], 2)

    def test_a_literal_tuple_and_empty_like_give_every_argument(self):
        norm = self.answer["ops"]["rms_norm"]
        first = norm["found"][0]
        self.assertEqual(first["path"], "tests/test_norm.py")
        self.assertEqual(first["line"], 19)
        self.assertEqual(
            first["args"],
            [{"shape": [7, 64]}, {"shape": [7, 64]}, {"shape": [64]}, {"value": 1e-6}],
        )

    def test_parametrize_gives_one_reading_per_combination(self):
        norm = self.answer["ops"]["rms_norm"]
        at_27 = [item for item in norm["found"] if item["line"] == 27]
        self.assertEqual(len(at_27), 4, "two (rows, hidden) times two dtypes")
        self.assertEqual(
            sorted({tuple(item["args"][1]["shape"]) for item in at_27}), [(1, 128), (33, 256)]
        )
        self.assertEqual(at_27[0]["args"][2], {"shape": [at_27[0]["args"][1]["shape"][1]]})
        self.assertEqual(at_27[0]["kwargs"], {"eps": {"value": 1e-5}}, "a module constant")

    def test_module_constants_and_a_size_keyword(self):
        norm = self.answer["ops"]["rms_norm"]
        self.assertIn((34, [[5, 72], [5, 72], [72], 1e-5]), shapes_of(norm["found"]))

    def test_a_shape_computed_at_run_time_is_counted_but_gives_none(self):
        norm = self.answer["ops"]["rms_norm"]
        self.assertEqual(norm["calls"], 4, "layer_norm's call is not counted")
        self.assertEqual(norm["with_shapes"], 3)
        self.assertNotIn(40, [item["line"] for item in norm["found"]])

    def test_torch_ops_calls_scaled_tensors_and_pytest_param(self):
        merge = self.answer["ops"]["merge_attn_states"]
        self.assertEqual(merge["calls"], 4, "the helper's own call counts too")
        self.assertEqual(merge["with_shapes"], 2, "neither the helper's *args nor the loop")
        literal = [item for item in merge["found"] if item["line"] == 16][0]
        self.assertEqual(
            [a["shape"] for a in literal["args"]], [[9, 4, 64], [9, 4], [9, 4, 64], [9, 4]]
        )
        param = [item["args"] for item in merge["found"] if item["line"] == 23]
        self.assertEqual([args[0]["shape"] for args in param], [[3, 2, 16], [2, 8, 128]])
        self.assertIsNone(param[0][1], "shape[:2] is not read")
        self.assertEqual(param[0][2], {"shape": [3, 2, 16]}, "v.clone() keeps v's shape")


class ReaderTest(unittest.TestCase):
    def read(self, source, names=("op",)):
        answer = {"files": 0, "ops": {"op": {"calls": 0, "with_shapes": 0, "found": []}}}
        reader.read_file(textwrap.dedent(source), "t.py", {"op": set(names)}, answer)
        return answer["ops"]["op"]

    def test_the_last_assignment_before_the_call_counts(self):
        found = self.read(
            """\
            def test_f():
                x = torch.randn(2, 3)
                op(x)
                x = torch.randn(4, 5)
                op(x)
            """
        )["found"]
        self.assertEqual([item["args"][0]["shape"] for item in found], [[2, 3], [4, 5]])

    def test_randint_reads_its_size_not_its_bounds(self):
        found = self.read("def test_f():\n    op(torch.randint(0, 10, (6, 2)))\n")["found"]
        self.assertEqual(found[0]["args"][0], {"shape": [6, 2]})

    def test_arithmetic_on_bound_ints(self):
        found = self.read(
            "H = 8\ndef test_f():\n    d = H * 16 + 1\n    op(torch.ones(d // 2, H))\n"
        )["found"]
        self.assertEqual(found[0]["args"][0], {"shape": [64, 8]})

    def test_a_file_that_does_not_parse_is_skipped(self):
        answer = {"files": 0, "ops": {"op": {"calls": 0, "with_shapes": 0, "found": []}}}
        self.assertFalse(reader.read_file("def (:\n", "t.py", {"op": {"op"}}, answer))


class WrapperTest(unittest.TestCase):
    """Calls of the upstream package's Python wrappers, followed into the op."""

    def tree(self, files, op="roll_update"):
        root = tempfile.mkdtemp(prefix="upstream-wrappers")
        self.addCleanup(shutil.rmtree, root)
        for relative, text in files.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(textwrap.dedent(text))
        return reader.read_tree({"root": root, "ops": {op: [op]}})

    PACKAGE = {
        "rollpkg/__init__.py": "",
        "rollpkg/api.py": """\
            import torch
            from rollpkg.impl import roll_update_function

            def roll_update(x, state, weight, bias=None, activation=None):
                activation = activation in ["silu"]
                if x.dim() == 2:
                    x = x.unsqueeze(-1)
                return roll_update_function(x, state, weight, bias, activation)
            """,
        "rollpkg/impl.py": """\
            import torch
            import roll_ext

            def roll_update_function(x, state, weight, bias, silu):
                out = torch.empty_like(x)
                _roll_cpp(x=x, state=state, weight=weight, bias_=bias, out=out, silu=silu)
                return out

            def _roll_cpp(x, state, weight, bias_, out, silu):
                roll_ext.roll_update(x, state, weight, bias_, out, silu)
            """,
    }

    def test_a_wrappers_call_is_followed_into_the_ops_own_order(self):
        files = dict(self.PACKAGE)
        files["tests/test_roll.py"] = """\
            import torch
            from rollpkg.api import roll_update

            def test_roll():
                x = torch.randn(4, 3, 32).transpose(-1, -2)
                state_len = torch.randint(2, 9, (1,)).item()
                state = torch.randn(4, state_len, 32).transpose(1, 2)
                weight = torch.randn(32, 3)
                roll_update(x, state, weight, activation="silu")
            """
        roll = self.tree(files)["ops"]["roll_update"]
        self.assertEqual((roll["calls"], roll["with_shapes"], roll["unread"]), (1, 1, []))
        found = roll["found"][0]
        self.assertEqual(
            found["args"],
            [
                {"shape": [4, 32, 3]},
                {"shape": [4, 32, 2]},
                {"shape": [32, 3]},
                None,
                {"shape": [4, 32, 3]},
                None,
            ],
            "out made by the wrapper; randint's low end; the unsqueeze under an `if` not taken",
        )
        self.assertEqual(
            found["through"],
            ["rollpkg/api.py:4", "rollpkg/impl.py:4", "rollpkg/impl.py:9"],
        )

    def test_a_call_that_gives_no_reading_says_why(self):
        files = dict(self.PACKAGE)
        files["tests/test_roll.py"] = """\
            from rollpkg.api import roll_update

            def test_roll(make):
                roll_update(make(1), make(2), make(3), unknown=1)
                roll_update(make(1), make(2), make(3))
            """
        roll = self.tree(files)["ops"]["roll_update"]
        self.assertEqual(roll["found"], [])
        self.assertEqual(
            [(item["line"], item["why"]) for item in roll["unread"]],
            [
                (
                    4,
                    "through roll_update: its arguments do not bind to "
                    "rollpkg/api.py:4's parameters",
                ),
                (5, "no argument's shape was read (tensors made other than by a factory)"),
            ],
        )

    AUTOGRAD = {
        "convpkg/__init__.py": "",
        "convpkg/interface.py": """\
            import torch
            from convpkg.impl import conv_fwd_function

            class ConvFn(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x, weight, bias=None, activation=None):
                    bias = bias.contiguous() if bias is not None else None
                    ctx.silu = activation in ["silu"]
                    return conv_fwd_function(x, weight, bias, ctx.silu)

            def conv_fn(x, weight, bias=None, activation=None):
                return ConvFn.apply(x, weight, bias, activation)
            """,
        "convpkg/impl.py": """\
            import torch
            import conv_ext

            def conv_fwd_function(x, weight, bias, silu):
                out = torch.empty_like(x)
                conv_ext.conv_fwd(x, weight, bias, out, silu)
                return out
            """,
    }

    def test_an_autograd_function_under_another_name_is_followed(self):
        files = dict(self.AUTOGRAD)
        files["tests/test_conv.py"] = """\
            import torch
            from convpkg.interface import conv_fn, ConvFn

            def test_conv():
                x = torch.randn(2, 64 + 128, 16)[:, 64:, :]
                weight = torch.randn(128, 4)
                bias = torch.randn(128)
                conv_fn(x, weight, bias, activation="silu")
                ConvFn.apply(x, weight, None, None)
                model.conv_fn(x)
            """
        conv = self.tree(files, "conv_fwd")["ops"]["conv_fwd"]
        self.assertEqual(conv["calls"], 2, "model.conv_fn is no call of the package's conv_fn")
        self.assertEqual(
            [item["args"][:4] for item in conv["found"]],
            [
                [{"shape": [2, 128, 16]}, {"shape": [128, 4]}, {"shape": [128]},
                 {"shape": [2, 128, 16]}],
                [{"shape": [2, 128, 16]}, {"shape": [128, 4]}, None, {"shape": [2, 128, 16]}],
            ],
            "the slice; bias through `if bias is not None`; out made by the wrapper",
        )  # fmt: skip
        self.assertEqual(
            conv["found"][0]["through"],
            ["convpkg/interface.py:11", "convpkg/interface.py:6", "convpkg/impl.py:4"],
        )

    def test_slices_and_conditional_values(self):
        scope = reader.Scope({"t": reader.Tensor([4, 10, 6])})

        def value(text):
            return scope.value(ast.parse(text, mode="eval").body)

        self.assertEqual(value("t[1:3, ::2]").shape, [2, 5, 6])
        self.assertEqual(value("t[0, -4:]").shape, [4, 6])
        self.assertIsNone(value("t[..., 0]"), "an ellipsis is not worked out")
        self.assertIsNone(value("t[:n]"), "an unread bound")
        self.assertEqual(value("t.t() if t is not None else None"), None, "t() of rank 3")
        self.assertEqual(value("t.clone() if t is not None else None").shape, [4, 10, 6])
        self.assertIsNone(value("u.clone() if u is not None else None"), "u unread: either")

    def test_reshaping_methods(self):
        self.assertEqual(reader.reshaped("permute", [2, 3, 4], [2, 0, 1]), [4, 2, 3])
        self.assertEqual(reader.reshaped("unsqueeze", [2, 3], [-1]), [2, 3, 1])
        self.assertEqual(reader.reshaped("t", [2, 3], []), [3, 2])
        self.assertEqual(reader.reshaped("view", [2, 3], [6]), [6])
        self.assertIsNone(reader.reshaped("view", [2, 3], [-1, 3]), "-1 is not worked out")


def json_bytes(value):
    return json.dumps(value).encode()


if __name__ == "__main__":
    unittest.main()
