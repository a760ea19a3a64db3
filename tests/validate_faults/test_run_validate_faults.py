"""run_validate_faults.py without opmig: the table is consistent, the spec is filled as the
user's, and a report is compared with a fixture's row layer by layer and check by check."""

import copy
import fnmatch
import json
import re
import unittest

import run_validate_faults as faults

TABLE = faults.load_table()
FIXTURES = {fixture["name"]: fixture for fixture in TABLE["fixtures"]}


def report_for(fixture, gpu):
    """The report the fixture's row describes: one check per expected failure pattern."""
    layers = []
    failures = faults.expected_failures(fixture, gpu)
    for name, status in faults.expected_layers(fixture, gpu).items():
        checks = [{"name": f"{name}-fine", "status": "pass", "reason": "fine"}]
        for pattern in failures.get(name, []):
            reason = " ".join(
                text
                for key, text in fixture.get("reasons", {}).items()
                if fnmatch.fnmatchcase(pattern.replace("*", "x"), key)
            )
            checks.append({"name": pattern.replace("*", "x"), "status": "fail", "reason": reason})
        layers.append({"name": name, "status": status, "reason": status, "checks": checks})
    passed = all(layer["status"] != "fail" for layer in layers)
    return {"passed": passed, "layers": layers}


def layer_of(report, name):
    return next(layer for layer in report["layers"] if layer["name"] == name)


class TableTest(unittest.TestCase):
    def test_the_table_is_consistent(self):
        self.assertEqual(faults.table_problems(TABLE), [])

    def test_each_fault_fails_its_layers_and_only_them(self):
        for fixture in TABLE["fixtures"]:
            failing = {layer for layer, status in fixture["expect"].items() if status == "fail"}
            if "from" in fixture or fixture["name"].startswith("correct-"):
                continue
            self.assertTrue(failing, fixture["name"])
            self.assertTrue(failing <= set(faults.GPU_LAYERS), fixture["name"])
            # A GPU layer's fault runs here only when a check without a GPU (perf's
            # static ones) sees it.
            if fixture["cpu"]:
                self.assertTrue(faults.expected_failures(fixture, gpu=False), fixture["name"])

    def test_every_layer_has_a_fault(self):
        caught = {
            layer
            for fixture in TABLE["fixtures"]
            for layer, status in fixture["expect"].items()
            if status == "fail"
        }
        self.assertEqual(caught, set(faults.LAYERS + faults.UPSTREAM_LAYERS) - {"build"})

    def test_the_entries_and_ops_exist(self):
        fills = json.loads((faults.HERE / TABLE["spec_fill"]).read_text())
        for fixture in TABLE["fixtures"]:
            upstream = faults.ROOT / faults.upstream_of(TABLE, fixture)
            bindings = (upstream / "csrc/torch_bindings.cpp").read_text()
            defined = set(re.findall(r'm\.def\("(\w+)\(', bindings))
            self.assertTrue(set(fixture["entries"]) <= defined, fixture["name"])
            for entry in fixture["entries"]:
                self.assertIn(fixture.get("ops", {}).get(entry, entry), fills, entry)

    def test_a_planted_edit_starts_from_a_migrated_fixture(self):
        self.assertEqual(
            faults.origin(FIXTURES, FIXTURES["wrong-all"])["name"], "correct-cache-dit"
        )
        self.assertEqual(FIXTURES["wrong-all"]["domain"], "scale_ops")

    def test_fixtures_starting_from_each_other_are_an_error(self):
        fixtures = {"a": {"name": "a", "from": "b"}, "b": {"name": "b", "from": "a"}}
        with self.assertRaisesRegex(faults.FixtureError, "cycle: a -> b"):
            faults.origin(fixtures, fixtures["a"])


class UpstreamFixturesTest(unittest.TestCase):
    """The fixtures of diff and perf validate with --source and their own layers."""

    def test_they_inherit_the_upstream_and_the_layers(self):
        fixture = FIXTURES["bf16-fallback"]
        self.assertEqual(fixture["upstream"], "tests/fixtures/upstream/diff_ops")
        self.assertEqual(faults.layers_of(fixture), faults.LAYERS + faults.UPSTREAM_LAYERS)
        arguments = faults.validate_arguments(fixture, "t", "r.json")
        self.assertIn("--source", arguments)
        self.assertEqual(arguments[arguments.index("--source") + 1], ".upstream/diff_ops")
        self.assertNotIn("--layers", arguments, "a named layer's skip would be a failure")
        self.assertNotIn("--source", faults.validate_arguments(FIXTURES["wrong-all"], "t", "r"))

    def test_a_timing_may_fail_beside_the_static_check(self):
        fixture = FIXTURES["no-o3"]
        report = report_for(fixture, gpu=True)
        layer_of(report, "perf")["checks"].append(
            {"name": "perf:gelu_tanh/odd/float32", "status": "fail", "reason": "slower"}
        )
        self.assertEqual(faults.compare(fixture, report, True), [])
        layer_of(report, "perf")["checks"].append(
            {"name": "diff-like", "status": "fail", "reason": "other"}
        )
        self.assertIn(
            "perf: diff-like failed (other), which no planted fault explains",
            faults.compare(fixture, report, True),
        )


class CompareTest(unittest.TestCase):
    def test_a_report_as_the_row_says_matches(self):
        for fixture in TABLE["fixtures"]:
            for gpu in (True, False):
                with self.subTest(fixture=fixture["name"], gpu=gpu):
                    self.assertEqual(faults.compare(fixture, report_for(fixture, gpu), gpu), [])

    def test_without_a_gpu_the_gpu_layers_skip(self):
        expect = faults.expected_layers(FIXTURES["parity-bias"], gpu=False)
        self.assertEqual(expect["parity"], "skip")
        self.assertEqual(faults.expected_failures(FIXTURES["parity-bias"], gpu=False), {})
        self.assertEqual(faults.expected_layers(FIXTURES["fake-raises"], gpu=True)["api"], "fail")
        self.assertEqual(faults.expected_layers(FIXTURES["fake-raises"], gpu=False)["api"], "pass")

    def test_a_layer_with_another_status_differs(self):
        fixture = FIXTURES["schema-drift"]
        report = report_for(fixture, False)
        layer_of(report, "api")["status"] = "pass"
        self.assertIn("api: pass (fail), expected fail", faults.compare(fixture, report, False)[0])

    def test_a_failure_no_fault_explains_differs(self):
        fixture = FIXTURES["schema-drift"]
        report = report_for(fixture, False)
        layer_of(report, "api")["checks"].append(
            {"name": "api-all", "status": "fail", "reason": "missing ['x']"}
        )
        self.assertIn(
            "api: api-all failed (missing ['x']), which no planted fault explains",
            faults.compare(fixture, report, False),
        )

    def test_an_expected_failure_that_did_not_happen_differs(self):
        fixture = FIXTURES["no-shape-check"]
        report = report_for(fixture, True)
        layer_of(report, "boundary")["checks"][-1]["status"] = "pass"
        self.assertIn(
            "boundary: no failing check matches 'boundary:scale_add_any_shape/y-cols-mismatch'",
            faults.compare(fixture, report, True),
        )

    def test_a_failure_for_another_reason_differs(self):
        fixture = FIXTURES["empty-hang"]
        report = report_for(fixture, True)
        layer_of(report, "boundary")["checks"][-1]["reason"] = "accepted empty tensors"
        self.assertIn(
            "boundary:scale_add_spins_on_empty/empty-rows: reason 'accepted empty "
            "tensors' does not say 'hung: timed out after 60 s'",
            faults.compare(fixture, report, True),
        )

    def test_a_missing_layer_and_a_wrong_verdict_differ(self):
        fixture = FIXTURES["correct-generic"]
        report = report_for(fixture, True)
        report["layers"] = [layer for layer in report["layers"] if layer["name"] != "fake"]
        report["passed"] = False
        self.assertEqual(
            faults.compare(fixture, report, True),
            ["fake: not in the report", "passed is False, expected True"],
        )


class FillTest(unittest.TestCase):
    SPEC = {
        "ops": [
            {
                "name": "twin",
                "inputs": [
                    {"name": "out", "shape": "TODO"},
                    {"name": "x", "shape": {"code": ["n"]}},
                ],
                "outputs": [{"argument": "out", "in_place": "TODO"}, {"result": 0}],
                "constraints": [{"code": "n > 0", "at": "a.cu:1:1"}],
                "reference": "TODO",
                "cases": "TODO",
            }
        ]
    }
    FILLS = {
        "op": {
            "inputs": {"out": {"shape": ["n"]}, "x": {"range": [-1, 1]}},
            "outputs": {"out": {"in_place": False}},
            "constraints": ["n % 2 == 0"],
            "reference": {"python": "m:f"},
            "cases": [{"name": "c", "dims": {"n": 3}}],
        }
    }

    def test_values_are_the_users(self):
        spec = faults.fill_spec(self.SPEC, self.FILLS, {"twin": "op"})
        op = spec["ops"][0]
        self.assertEqual(op["inputs"][0]["shape"], {"user": ["n"]})
        self.assertEqual(
            op["inputs"][1], {"name": "x", "shape": {"code": ["n"]}, "range": {"user": [-1, 1]}}
        )
        self.assertEqual(
            op["outputs"], [{"argument": "out", "in_place": {"user": False}}, {"result": 0}]
        )
        self.assertEqual(op["constraints"][1], {"user": "n % 2 == 0"})
        self.assertEqual(op["reference"], {"user": {"python": "m:f"}})
        self.assertEqual(op["cases"], {"user": [{"name": "c", "dims": {"n": 3}}]})
        self.assertEqual(self.SPEC["ops"][0]["reference"], "TODO", "the input is not changed")

    def test_an_op_without_values_is_an_error(self):
        with self.assertRaisesRegex(faults.FixtureError, "nothing for op twin"):
            faults.fill_spec(self.SPEC, self.FILLS, {})
        fills = copy.deepcopy(self.FILLS)
        fills["op"]["inputs"]["y"] = {}
        with self.assertRaisesRegex(faults.FixtureError, "no input y"):
            faults.fill_spec(self.SPEC, fills, {"twin": "op"})


if __name__ == "__main__":
    unittest.main()
