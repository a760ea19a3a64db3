"""validators/python/upstream_tests.py: the shapes an upstream tree's pytest
files call an op with, read with `ast` (UpstreamTestCases.cpp maps them onto
the spec's dims). The tree is tests/fixtures/upstream_tests."""

import json
import os
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


def json_bytes(value):
    return json.dumps(value).encode()


if __name__ == "__main__":
    unittest.main()
