"""Fills in a validation spec the way a user would (validation-spec.test).

rms_norm gets a Python reference, a range for x, two cases and a user
constraint; scale_rows gets a user shape for x (the code derives none), and
softcap's x a user dtype list where the code derived one.
"""

import json
import sys


def op(spec, name):
    return next(o for o in spec["ops"] if o["name"] == name)


def item(o, name):
    return next(i for i in o["inputs"] if i["name"] == name)


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as handle:
        spec = json.load(handle)
    norm = op(spec, "rms_norm")
    norm["reference"] = {"user": {"python": "tests.reference:rms_norm"}}
    item(norm, "x")["range"] = {"user": [-4, 4]}
    norm["constraints"].append({"user": "rows >= 1"})
    norm["cases"] = {
        "user": [
            {"name": "odd-rows", "dims": {"rows": 7, "hidden": 72}, "scalars": {"eps": 1e-6}},
            {"name": "one-row", "dims": {"rows": 1, "hidden": 8}, "dtypes": ["float16"]},
        ]
    }
    item(op(spec, "scale_rows"), "x")["shape"] = {"user": ["rows", "cols"]}
    item(op(spec, "softcap"), "x")["dtypes"] = {"user": ["float16"]}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=2)


if __name__ == "__main__":
    main()
