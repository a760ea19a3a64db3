"""Runs one layer of `opmig validate` for one op (or, for `api`, one domain).

opmig embeds this script and runs it as `python3 SCRIPT LAYER` with a JSON
request on stdin, in a child process with a time limit and the user's
environment (their torch). opmig builds the request from the validation
spec: every case is concrete (a size per dim, a dtype per tensor input, a
value per scalar), so nothing here reads the spec or evaluates constraints.

Each case is reported as it ends, one line on stdout:

  @@opmig {"event": "start", "case": NAME}
  @@opmig {"event": "result", "case": NAME, "ok": true|false|null,
           "detail": "...", "figures": {...}}

`ok` null is a skip. A crash or a hang ends the process inside a case: opmig
names that case's failure after the last `start` without a `result`, and
runs the cases after it in a new process (`"start": K` skips the first K,
`"stop": N` ends before case N).
After a CUDA error that poisons the context, the process exits (status 3):
the next case needs a fresh one. When the domain does not load, the only
line is `{"event": "fatal", "detail": ...}` (status 4).

Layers: api (the registration: ops, schemas, kernels, the Python surface,
opcheck), fake (the fake/meta path against the kernel or the reference, and
its bad cases: a bad shape the kernel rejects, the fake must reject too),
smoke (each case runs; outputs have the right shape, dtype and device, and
no NaN/Inf where the reference has none), parity (outputs match the
reference within tolerance) and boundary (bad inputs raise cleanly; valid
cases write nothing outside their outputs, checked with guard bands). With
the upstream build loaded (`opmig validate --source`): upstream (its entries
are registered with the migrated schemas), diff (outputs bitwise equal to
the upstream entry's on the same inputs, or within the op's
`upstream_tolerances`) and perf (timings of both, and of the upstream against
itself for the noise band).

The request:

  {"load": {"kind": "library", "library": SO}
         | {"kind": "module", "path": DIR, "module": NAME}
         | {"kind": "extension", "path": SRC, "package": PKG, "build_dir": DIR,
            "extension": EXT, "module": DOMAIN_MODULE}
         | {"kind": "jit", "path": ROOT, "module": IMPL_MODULE, "extension": EXT,
            "sources": [root-relative], "library": SO},
   "namespace": NS, "device": "cuda", "start": 0,
   "reference_paths": [folders to import a Python reference from],
   "shared_namespace": bool (other domains register ops in NS too),
   "python_api": {"module": DOMAIN_MODULE, "package_module": PKG_KERNELS,
                  "public": [names], "reexports": [names],
                  "wrappers": {op: attribute of DOMAIN_MODULE that calls it}}
                 (api, cache-dit and veomni)
   "upstream": {"library": SO, "namespace": NS_UPSTREAM}    (upstream, diff, perf)
   "perf": {"warmup", "samples", "min_sample_ms", "min_band", "min_abs_ms", "band_factor",
            "flush_l2_bytes"}                                 (perf)
   "ops": [OP, ...]}

  OP: {"name", "schema", "inputs": [INPUT], "outputs": [{"result": N} |
       {"argument": NAME, "in_place": bool}], "reference": "mod:fn" | null,
       "tolerances": {dtype: {"atol", "rtol"}}, "cases": [CASE],
       "bad_cases": [BAD], "upstream_tolerances": null |
       {"reason", "cases": [case names], "tolerances": {dtype: {"atol", "rtol"}}}}
  INPUT: {"name", "type", "tensor": bool, "shape": [dim name | size] | null,
          "contiguous": bool, "range": [low, high] | null}
  CASE: {"name", "dims": {dim: size}, "dtypes": {input: dtype},
         "scalars": {input: value}}
  BAD: CASE plus {"what": "...", "expect": "raise" | "raise-or-return",
       "overrides": {input: {"dtype", "shape", "device", "contiguous"}}}
"""

import ast
import importlib
import inspect
import json
import sys
import textwrap
import zlib

MARK = "@@opmig "
CLEAN_ERRORS = (ValueError, RuntimeError, TypeError, IndexError, NotImplementedError)
GUARD = 64  # elements of canary after each argument output
SENTINEL = 1234.5


class PoisonedContext(Exception):
    """A CUDA error that leaves the context unusable for the next case."""


def emit(**event):
    sys.stdout.write(MARK + json.dumps(event) + "\n")
    sys.stdout.flush()


def describe(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def is_poisoning(error):
    text = str(error)
    return any(
        marker in text
        for marker in ("illegal memory access", "device-side assert", "unspecified launch failure")
    )


# --- loading ---------------------------------------------------------------


def load_domain(load):
    """Loads the built library or extension; returns the domain module, if any."""
    import torch

    if load["kind"] == "library":
        torch.ops.load_library(load["library"])
        return None
    if load["kind"] == "module":  # ops registered from Python
        sys.path.insert(0, load["path"])
        return importlib.import_module(load["module"])
    if load["kind"] == "jit":
        sys.path.insert(0, load["path"])
        hand_over_built_extension(load)
        return importlib.import_module(load["module"])
    sys.path.insert(0, load["path"])
    package = importlib.import_module(load["package"])
    package.__path__.append(load["build_dir"])
    module = importlib.import_module(load["module"])
    importlib.import_module(load["extension"])
    return module


def hand_over_built_extension(load):
    """Makes torch.utils.cpp_extension.load give the module opmig built, in
    place of the JIT build, once the call asks for that extension from those
    sources."""
    import importlib.util
    import os

    import torch.utils.cpp_extension as cpp_extension

    def path_set(paths):
        return sorted(os.path.realpath(path) for path in paths)

    built = path_set(os.path.join(load["path"], source) for source in load["sources"])

    def load_built(name, sources, *args, **kwargs):
        if name != load["extension"] or path_set(sources) != built:
            raise RuntimeError(
                f"load(name={name!r}) from {sorted(sources)}: opmig built "
                f"{load['extension']} from {load['sources']}"
            )
        spec = importlib.util.spec_from_file_location(name, load["library"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    cpp_extension.load = load_built


def op_packet(torch, namespace, name):
    return getattr(getattr(torch.ops, namespace), name)


# --- arguments -------------------------------------------------------------


def dtype_of(torch, name):
    return getattr(torch, name)


LEADING = "..."  # a shape's first dim: any number of leading dims


def shape_of(spec_input, dims, override):
    """The concrete shape; leading dims are one dim of the case's size for `...`, or none."""
    if "shape" in override:
        return list(override["shape"])
    shape = spec_input.get("shape")
    if shape is None:
        return None
    concrete = []
    for dim in shape:
        if dim == LEADING:
            concrete += [dims[LEADING]] if LEADING in dims else []
        else:
            concrete.append(dim if isinstance(dim, int) else dims[dim])
    return concrete


def fill(torch, shape, dtype, value_range, generator, device):
    low, high = value_range or ((-1.0, 1.0) if dtype.is_floating_point else (0, 10))
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool().to(device)
    if dtype.is_floating_point:
        values = torch.rand(shape, generator=generator, dtype=torch.float64)
        return (values * (high - low) + low).to(dtype=dtype, device=device)
    return torch.randint(int(low), int(high) + 1, shape, generator=generator).to(
        dtype=dtype, device=device
    )


def non_contiguous(torch, tensor):
    """The same values, shape and dtype, in every other element of a larger buffer."""
    if tensor.dim() == 0:
        return tensor
    wide = torch.zeros(
        *tensor.shape[:-1], tensor.shape[-1] * 2, dtype=tensor.dtype, device=tensor.device
    )
    view = wide[..., ::2]
    view.copy_(tensor)
    return view


class Arguments:
    """The op's arguments for one case, with guard bands after argument outputs."""

    def __init__(self, torch, op, case, device, guarded=False):
        self.torch = torch
        self.op = op
        self.case = case
        self.device = device
        self.guarded = guarded
        self.values = []
        self.guards = {}  # argument name -> (base buffer, element count)
        self.outputs = {out["argument"]: out for out in op["outputs"] if "argument" in out}
        generator = torch.Generator().manual_seed(zlib.crc32(case["name"].encode()))
        for spec_input in op["inputs"]:
            self.values.append(self.make(spec_input, generator))

    def make(self, spec_input, generator):
        torch = self.torch
        name = spec_input["name"]
        override = self.case.get("overrides", {}).get(name, {})
        if not spec_input["tensor"]:
            if name not in self.case.get("scalars", {}):
                if spec_input["type"].endswith("?"):
                    return None
                raise LookupError(f"no value for `{name}`: give it in the case's scalars")
            return self.case["scalars"][name]
        shape = shape_of(spec_input, self.case["dims"], override)
        if shape is None:
            if spec_input["type"].endswith("?"):
                return None
            raise LookupError(f"no shape for tensor `{name}`: give it in the spec")
        dtype = dtype_of(torch, override.get("dtype", self.case["dtypes"][name]))
        device = override.get("device", self.device)
        output = self.outputs.get(name)
        if output is not None and not output.get("in_place", False):
            tensor = torch.full(
                shape, SENTINEL if dtype.is_floating_point else 7, dtype=dtype, device=device
            )
        else:
            tensor = fill(torch, shape, dtype, spec_input.get("range"), generator, device)
        if output is not None and self.guarded:
            tensor = self.with_guard(name, tensor)
        if override.get("contiguous") is False:
            tensor = non_contiguous(torch, tensor)
        return tensor

    def with_guard(self, name, tensor):
        torch = self.torch
        count = tensor.numel()
        base = torch.full((count + GUARD,), SENTINEL, dtype=tensor.dtype, device=tensor.device)
        base[:count].copy_(tensor.reshape(-1))
        self.guards[name] = (base, count)
        return base[:count].view(tensor.shape)

    def clone(self):
        """Fresh copies, for a reference that must see the same inputs."""
        return [value.clone() if hasattr(value, "clone") else value for value in self.values]

    def tensors(self):
        return [
            (spec_input["name"], value)
            for spec_input, value in zip(self.op["inputs"], self.values)
            if hasattr(value, "shape")
        ]

    def guard_breaches(self):
        torch = self.torch
        breaches = []
        for name, (base, count) in self.guards.items():
            tail = base[count:]
            changed = (tail != torch.full_like(tail, SENTINEL)).nonzero()
            if changed.numel():
                first = int(changed[0])
                breaches.append(
                    f"`{name}` written {first + 1} element(s) past its end (of {count})"
                )
        return breaches


def outputs_of(op, arguments, returned):
    """The op's outputs, named: `result[N]` and written arguments."""
    results = returned if isinstance(returned, (tuple, list)) else (returned,)
    named = {}
    for out in op["outputs"]:
        if "result" in out:
            index = out["result"]
            named[f"result[{index}]"] = results[index] if index < len(results) else None
        else:
            position = [spec_input["name"] for spec_input in op["inputs"]].index(out["argument"])
            named[out["argument"]] = arguments[position]
    return named


def synchronize(torch, device):
    if str(device).startswith("cuda"):
        torch.cuda.synchronize()


# --- the reference ---------------------------------------------------------


def reference_function(request, op):
    target = op.get("reference")
    if not target:
        return None
    for path in reversed(request.get("reference_paths", [])):
        sys.path.insert(0, path)
    module_name, _, function = target.partition(":")
    return getattr(importlib.import_module(module_name), function)


def run_reference(reference, op, arguments):
    copies = arguments.clone()
    returned = reference(*copies)
    return outputs_of(op, copies, returned)


# --- comparisons -----------------------------------------------------------


def meta_of(tensor):
    return {
        "shape": list(tensor.shape),
        "dtype": str(tensor.dtype).replace("torch.", ""),
        "strides": list(tensor.stride()),
    }


def shape_dtype_mismatches(actual, expected, with_strides):
    problems = []
    for name, want in expected.items():
        have = actual.get(name)
        if have is None or want is None:
            if (have is None) != (want is None):
                problems.append(f"{name}: {'missing' if have is None else 'unexpected'}")
            continue
        keys = ("shape", "dtype", "strides") if with_strides else ("shape", "dtype")
        for key in keys:
            if meta_of(have)[key] != meta_of(want)[key]:
                problems.append(
                    f"{name}: {key} {meta_of(have)[key]}, expected {meta_of(want)[key]}"
                )
    return problems


def errors(torch, actual, expected, tolerance):
    actual = actual.detach().to("cpu", torch.float64)
    expected = expected.detach().to("cpu", torch.float64)
    difference = (actual - expected).abs()
    allowed = tolerance["atol"] + tolerance["rtol"] * expected.abs()
    both_nan = actual.isnan() & expected.isnan()
    mismatched = ((difference > allowed) | (actual.isnan() != expected.isnan())) & ~both_nan
    finite = difference[~both_nan]
    max_abs = float(finite.max()) if finite.numel() else 0.0
    relative = (difference / expected.abs().clamp_min(1e-12))[~both_nan]
    max_rel = float(relative.max()) if relative.numel() else 0.0
    share = float(mismatched.double().mean()) if mismatched.numel() else 0.0
    return {"max_abs_error": max_abs, "max_rel_error": max_rel, "mismatch_share": share}


# --- cases -----------------------------------------------------------------


def run_cases(cases, start, body, stop=None):
    """Reports each case; body(case) returns (ok, detail, figures)."""
    for case in cases[start:stop]:
        emit(event="start", case=case["name"])
        try:
            ok, detail, figures = body(case)
        except PoisonedContext as error:
            emit(event="result", case=case["name"], ok=False, detail=str(error), figures={})
            sys.exit(3)
        except LookupError as error:
            ok, detail, figures = None, f"case incomplete: {error}", {}
        except Exception as error:  # noqa: BLE001 - whatever a case raises is its failure
            if is_poisoning(error):
                emit(
                    event="result", case=case["name"], ok=False, detail=describe(error), figures={}
                )
                sys.exit(3)
            ok, detail, figures = False, f"raised {describe(error)}", {}
        emit(event="result", case=case["name"], ok=ok, detail=detail, figures=figures)


def call(torch, packet, arguments, device):
    try:
        returned = packet(*arguments.values)
        synchronize(torch, device)
        return returned
    except Exception as error:  # noqa: BLE001 - classified by the caller
        if is_poisoning(error):
            raise PoisonedContext(f"the kernel failed on the device: {describe(error)}") from error
        raise


def layer_fake(request, torch):
    from torch._subclasses.fake_tensor import FakeTensorMode

    op = request["ops"][0]
    device = request["device"]
    packet = op_packet(torch, request["namespace"], op["name"])
    real = device == "cpu" or torch.cuda.is_available()
    reference = None if real else reference_function(request, op)

    def body(case):
        with FakeTensorMode():
            fake_arguments = Arguments(torch, op, case, device)
            try:
                fake_out = outputs_of(op, fake_arguments.values, packet(*fake_arguments.values))
            except Exception as error:  # noqa: BLE001 - a failing fake is the finding
                return False, f"the fake raised {describe(error)}", {}
        if real:
            arguments = Arguments(torch, op, case, device)
            expected = outputs_of(op, arguments.values, call(torch, packet, arguments, device))
            problems = shape_dtype_mismatches(fake_out, expected, with_strides=True)
            against = "the kernel's output"
        elif reference is not None:
            arguments = Arguments(torch, op, case, "cpu")
            expected = run_reference(reference, op, arguments)
            problems = shape_dtype_mismatches(fake_out, expected, with_strides=False)
            against = "the reference's output (on the CPU; strides not compared)"
        else:
            return None, "the fake ran; no GPU and no reference to compare its shapes with", {}
        if problems:
            return False, "the fake differs from " + against + ": " + "; ".join(problems), {}
        return True, "the fake gives the shapes and dtypes of " + against, {}

    def rejects(case):
        with FakeTensorMode():
            fake_arguments = Arguments(torch, op, case, device)
            try:
                packet(*fake_arguments.values)
            except Exception as error:  # noqa: BLE001 - any rejection will do
                return True, f"the fake rejects {case['what']}: {describe(error)}", {}
        # The fake accepts it: wrong only if the kernel does not.
        arguments = Arguments(torch, op, case, device)
        try:
            call(torch, packet, arguments, device)
        except CLEAN_ERRORS as error:
            return (
                False,
                f"the fake accepts {case['what']}, which the kernel rejects "
                f"({describe(error)}): a compiled graph would fail only when it runs",
                {},
            )
        return None, f"the fake and the kernel both accept {case['what']} (boundary judges it)", {}

    cases = op["cases"] + op.get("bad_cases", [])
    run_cases(
        cases,
        request.get("start", 0),
        lambda case: (rejects if "what" in case else body)(case),
        request.get("stop"),
    )


def layer_smoke(request, torch):
    op = request["ops"][0]
    device = request["device"]
    packet = op_packet(torch, request["namespace"], op["name"])
    reference = reference_function(request, op)

    def body(case):
        arguments = Arguments(torch, op, case, device)
        finite_inputs = all(
            not value.is_floating_point() or bool(value.isfinite().all())
            for _, value in arguments.tensors()
        )
        expected = run_reference(reference, op, arguments) if reference else None
        try:
            actual = outputs_of(op, arguments.values, call(torch, packet, arguments, device))
        except CLEAN_ERRORS as error:
            return False, f"raised on a valid case: {describe(error)}", {}
        problems = []
        if expected is not None:
            problems += shape_dtype_mismatches(actual, expected, with_strides=False)
        for name, tensor in actual.items():
            if tensor is None:
                continue
            if tensor.device.type != torch.device(device).type:
                problems.append(f"{name}: on {tensor.device}, expected {device}")
            if not tensor.is_floating_point():
                continue
            reference_finite = (
                expected is None
                or expected.get(name) is None
                or bool(expected[name].isfinite().all())
            )
            if reference_finite and finite_inputs and not bool(tensor.isfinite().all()):
                count = int((~tensor.isfinite()).sum())
                problems.append(f"{name}: {count} NaN/Inf value(s) where the reference has none")
        if problems:
            return False, "; ".join(problems), {}
        shapes = ", ".join(f"{name} {list(t.shape)}" for name, t in actual.items() if t is not None)
        return (
            True,
            f"ran: {shapes}"
            + ("" if expected is not None else " (no reference: shapes unchecked)"),
            {},
        )

    run_cases(op["cases"], request.get("start", 0), body, request.get("stop"))


def layer_parity(request, torch):
    op = request["ops"][0]
    device = request["device"]
    packet = op_packet(torch, request["namespace"], op["name"])
    reference = reference_function(request, op)

    def body(case):
        if reference is None:
            return None, "no reference in the spec", {}
        arguments = Arguments(torch, op, case, device)
        expected = run_reference(reference, op, arguments)
        actual = outputs_of(op, arguments.values, call(torch, packet, arguments, device))
        figures, problems = {}, []
        for name, want in expected.items():
            have = actual.get(name)
            if want is None or have is None or list(have.shape) != list(want.shape):
                problems.append(f"{name}: not comparable (missing or a different shape)")
                continue
            dtype = str(want.dtype).replace("torch.", "")
            tolerance = op["tolerances"].get(dtype, {"atol": 0.0, "rtol": 0.0})
            measured = errors(torch, have, want, tolerance)
            figures[name] = measured
            if measured["mismatch_share"] > 0:
                problems.append(
                    f"{name}: {measured['mismatch_share']:.2%} of elements off "
                    f"(max abs {measured['max_abs_error']:.3g}, "
                    f"max rel {measured['max_rel_error']:.3g}; "
                    f"atol {tolerance['atol']:g}, rtol {tolerance['rtol']:g})"
                )
        if problems:
            return False, "; ".join(problems), figures
        return True, "matches the reference within tolerance", figures

    run_cases(op["cases"], request.get("start", 0), body, request.get("stop"))


def layer_boundary(request, torch):
    op = request["ops"][0]
    device = request["device"]
    packet = op_packet(torch, request["namespace"], op["name"])

    def bad(case):
        arguments = Arguments(torch, op, case, device, guarded=True)
        try:
            call(torch, packet, arguments, device)
        except CLEAN_ERRORS as error:
            written = arguments.guard_breaches() + written_outputs(torch, arguments)
            if written:
                return (
                    False,
                    f"raised {describe(error)}, but only after writing: {'; '.join(written)}",
                    {},
                )
            return True, f"raised {describe(error)}", {}
        if case.get("expect") == "raise-or-return":
            return True, "returned without error", {}
        return False, f"accepted {case['what']} without an error", {}

    def guarded(case):
        arguments = Arguments(torch, op, case, device, guarded=True)
        before = {
            name: value.clone()
            for name, value in arguments.tensors()
            if name not in arguments.outputs
        }
        call(torch, packet, arguments, device)
        problems = arguments.guard_breaches()
        for name, value in arguments.tensors():
            if name in before and not torch.equal(value, before[name]):
                problems.append(f"input `{name}` was written")
        if problems:
            return False, "wrote outside its outputs: " + "; ".join(problems), {}
        guards = len(arguments.guards)
        return True, f"nothing written outside its outputs ({guards} guarded output(s))", {}

    cases = [dict(case, kind="bad") for case in op["bad_cases"]] + [
        dict(case, name="guard-" + case["name"], kind="guard") for case in op["cases"]
    ]
    run_cases(
        cases,
        request.get("start", 0),
        lambda case: bad(case) if case["kind"] == "bad" else guarded(case),
        request.get("stop"),
    )


def written_outputs(torch, arguments):
    """Argument outputs (not read in place) that are no longer all sentinel."""
    written = []
    for name, (base, count) in arguments.guards.items():
        if arguments.outputs[name].get("in_place", False):
            continue
        body = base[:count]
        if body.numel() and not bool((body == torch.full_like(body, SENTINEL)).all()):
            written.append(f"`{name}` was written before the error")
    return written


# --- the upstream build: diff and perf ----------------------------------------


def load_upstream(request):
    """Loads the upstream entries (`<namespace>_upstream`), when the layer compares with them."""
    upstream = request.get("upstream")
    if not upstream:
        return
    import torch

    if "library" in upstream:
        torch.ops.load_library(upstream["library"])
    else:  # registered from Python (the harness' tests)
        sys.path.insert(0, upstream["path"])
        importlib.import_module(upstream["module"])


def layer_upstream(request, torch):
    """The upstream entries are registered with the migrated schemas and a CUDA kernel."""
    namespace = request["upstream"]["namespace"]
    ops = request["ops"]
    checks = [
        ("registered", lambda: check_schemas(torch, namespace, ops, False)),
        ("cuda-kernels", lambda: check_kernels(torch, namespace, ops, "CUDA")),
    ]
    cases = [{"name": name, "run": run} for name, run in checks]
    run_cases(cases, request.get("start", 0), lambda case: case["run"](), request.get("stop"))


BITS = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def as_bits(torch, tensor):
    """The tensor's bytes as integers of its element size, on the CPU."""
    tensor = tensor.detach().contiguous().cpu()
    if tensor.dtype == torch.bool:
        return tensor.to(torch.uint8)
    if tensor.is_complex():
        tensor = torch.view_as_real(tensor)
    return tensor.view(getattr(torch, BITS[tensor.element_size()]))


def bitwise_difference(torch, migrated, upstream):
    """Figures of how two same-shaped, same-dtype tensors differ, bit for bit."""
    differ = as_bits(torch, migrated) != as_bits(torch, upstream)
    if differ.dim() > migrated.dim():  # complex: real and imaginary parts
        differ = differ.any(dim=-1)
    count = int(differ.sum())
    figures = {
        "bitwise_equal": count == 0,
        "differing": count,
        "differing_share": count / differ.numel() if differ.numel() else 0.0,
    }
    if count:
        index = [int(i) for i in differ.nonzero()[0]]
        figures["first_difference"] = {
            "index": index,
            "migrated": migrated.detach().cpu()[tuple(index)].item(),
            "upstream": upstream.detach().cpu()[tuple(index)].item(),
        }
        zero = {"atol": 0.0, "rtol": 0.0}
        measured = errors(torch, migrated, upstream, zero)
        figures["max_abs_error"] = measured["max_abs_error"]
        figures["max_rel_error"] = measured["max_rel_error"]
    return figures


def upstream_tolerance(op, case, dtype):
    """The tolerance the spec allows this case against the upstream, or None (bitwise)."""
    allowed = op.get("upstream_tolerances")
    if not allowed:
        return None
    named = allowed.get("cases") or []
    if named and case["name"].split("/")[0] not in named:
        return None
    return allowed["tolerances"].get(dtype)


def run_upstream(torch, packet, arguments, device):
    """The upstream entry over fresh copies of the case's inputs."""
    copies = arguments.clone()
    try:
        returned = packet(*copies)
        synchronize(torch, device)
    except Exception as error:  # noqa: BLE001 - classified here
        if is_poisoning(error):
            raise PoisonedContext(f"the upstream kernel failed: {describe(error)}") from error
        raise
    return outputs_of(arguments.op, copies, returned)


def compare_output(torch, name, have, want, again, tolerance, reason):
    """(problem or None, note or None, figures) for one output of a diff case."""
    if have is None or want is None:
        if (have is None) != (want is None):
            return f"{name}: {'missing' if have is None else 'unexpected'}", None, {}
        return None, None, {}
    if list(have.shape) != list(want.shape) or have.dtype != want.dtype:
        mismatch = shape_dtype_mismatches({name: have}, {name: want}, with_strides=False)
        return "; ".join(mismatch), None, {}
    figures = bitwise_difference(torch, have, want)
    if figures["bitwise_equal"]:
        return None, None, figures
    noise = bitwise_difference(torch, again, want) if again is not None else None
    if noise is not None and not noise["bitwise_equal"]:
        # The upstream differs from itself: it is not deterministic, so the
        # migrated output is held to the spread of the upstream's own runs.
        figures["upstream_self_max_abs_error"] = noise["max_abs_error"]
        tolerance = {"atol": noise["max_abs_error"], "rtol": 0.0}
        reason = "the upstream is not deterministic (it differs from itself)"
    first = figures["first_difference"]
    text = (
        f"{name}: {figures['differing_share']:.2%} of elements differ from the upstream's "
        f"(first at {first['index']}: {first['migrated']!r} migrated, {first['upstream']!r} "
        f"upstream; max abs {figures['max_abs_error']:.3g}, "
        f"max rel {figures['max_rel_error']:.3g})"
    )
    if tolerance is None:
        return text + ", bitwise expected", None, figures
    within = errors(torch, have, want, tolerance)["mismatch_share"] == 0
    figures["tolerance"] = tolerance
    allowance = f"atol {tolerance['atol']:g}, rtol {tolerance['rtol']:g}: {reason}"
    if within:
        return None, f"{text}, within the tolerance allowed ({allowance})", figures
    return f"{text}, beyond the tolerance allowed ({allowance})", None, figures


def layer_diff(request, torch):
    op = request["ops"][0]
    device = request["device"]
    packet = op_packet(torch, request["namespace"], op["name"])
    upstream = op_packet(torch, request["upstream"]["namespace"], op["name"])
    reason = (op.get("upstream_tolerances") or {}).get("reason", "")

    def body(case):
        arguments = Arguments(torch, op, case, device)
        want = run_upstream(torch, upstream, arguments, device)
        again = run_upstream(torch, upstream, arguments, device)
        have = outputs_of(op, arguments.values, call(torch, packet, arguments, device))
        problems, notes, figures = [], [], {}
        for name in want:
            dtype = str(want[name].dtype).replace("torch.", "") if want[name] is not None else ""
            tolerance = upstream_tolerance(op, case, dtype)
            problem, note, measured = compare_output(
                torch, name, have.get(name), want[name], again.get(name), tolerance, reason
            )
            figures[name] = measured
            if problem:
                problems.append(problem)
            if note:
                notes.append(note)
        if problems:
            return False, "; ".join(problems), figures
        if notes:
            return True, "; ".join(notes), figures
        return True, "bitwise equal to the upstream build's outputs", figures

    run_cases(op["cases"], request.get("start", 0), body, request.get("stop"))


class Timer:
    """Milliseconds per call of `count` calls: CUDA events on a GPU, the wall clock on the CPU.

    On a GPU the calls are queued behind a sleep kernel long enough for the host to queue
    them all, so the events time the kernels alone: the host's dispatch (a Python wrapper
    on one side, a C++ kernel on the other) is not the migration's to answer for here.
    Whether the sleep was long enough is checked, not assumed: if the GPU reached the start
    event before the host had queued every call, the sample timed the host, so it is taken
    again behind a sleep twice as long, up to `MAX_MARGIN` times the host's time; `host_bound`
    counts the samples that were not queued even then (an op that synchronizes, say).
    """

    MAX_MARGIN = 64.0  # an op that synchronizes is never queued: its sleeps must stay short

    def __init__(self, torch, device, flush_bytes):
        self.torch = torch
        self.cuda = str(device).startswith("cuda")
        self.flush = None
        self.cycles_per_ms = None
        self.margin = 2.0  # the sleep lasts `margin` times the host's time to queue the calls
        self.host_bound = 0
        if self.cuda and flush_bytes:
            self.flush = torch.empty(int(flush_bytes), dtype=torch.int8, device=device)
        if self.cuda and hasattr(torch.cuda, "_sleep"):
            self.cycles_per_ms = self.calibrate()

    def calibrate(self):
        """The sleep kernel's cycles per millisecond.

        The first launch loads the kernel, and any host delay between the events stretches
        the measured time, so the kernel is warmed first and the fastest of three rates kept.
        """
        torch = self.torch
        cycles = 1_000_000
        torch.cuda._sleep(1000)
        torch.cuda.synchronize()
        rates = []
        for _ in range(3):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.cuda._sleep(cycles)
            end.record()
            end.synchronize()
            rates.append(cycles / max(start.elapsed_time(end), 1e-3))
        return max(rates)

    def host_ms(self, run, count):
        import time

        start = time.perf_counter()
        for _ in range(count):
            run()
        return (time.perf_counter() - start) * 1e3

    def time(self, run, count, flush, host_ms=0.0):
        if not self.cuda:
            return self.host_ms(run, count) / count
        while True:
            ms, queued = self.time_queued(run, count, flush, host_ms)
            if queued or not self.cycles_per_ms:
                return ms
            if self.margin >= self.MAX_MARGIN:
                self.host_bound += 1
                return ms
            self.margin *= 2

    def time_queued(self, run, count, flush, host_ms):
        """(ms per call, whether every call was queued before the GPU reached them)."""
        torch = self.torch
        if flush and self.flush is not None:
            self.flush.zero_()  # evicts the inputs from L2
        if self.cycles_per_ms:
            torch.cuda._sleep(int(self.cycles_per_ms * (self.margin * host_ms + 0.05)))
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(count):
            run()
        queued = not start.query()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / count, queued


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def relative_spread(values):
    """The interquartile range over the median."""
    ordered = sorted(values)
    quarter = len(ordered) // 4
    low, high = ordered[quarter], ordered[len(ordered) - 1 - quarter]
    center = median(values)
    return (high - low) / center if center > 0 else 0.0


def perf_verdict(migrated, upstream, upstream_again, settings):
    """(ok, detail, figures) from three series of sample times (ms)."""
    m, u, u2 = median(migrated), median(upstream), median(upstream_again)
    ratio = m / u if u > 0 else float("inf")
    self_ratio = u2 / u if u > 0 else 1.0
    spreads = {
        "migrated": relative_spread(migrated),
        "upstream": relative_spread(upstream),
        "upstream_again": relative_spread(upstream_again),
    }
    # Two builds of the same code measured a fraction of a microsecond per call apart, a
    # large share of a kernel of a few microseconds (docs/gpu-runs.md, session 18).
    floor = settings.get("min_abs_ms", 0.0) / u if u > 0 else 0.0
    band = max(
        settings.get("min_band", 0.05),
        settings.get("band_factor", 3.0) * abs(self_ratio - 1.0),
        spreads["upstream"],
        spreads["upstream_again"],
        floor,
    )
    figures = {
        "migrated_ms": m,
        "upstream_ms": u,
        "upstream_again_ms": u2,
        "ratio": ratio,
        "upstream_self_ratio": self_ratio,
        "noise_band": band,
        "spread": spreads,
        "samples": len(migrated),
    }
    timing = (
        f"migrated {m:.4g} ms, upstream {u:.4g} ms: ratio {ratio:.3f}, noise band "
        f"±{band:.1%} (upstream against itself: {self_ratio:.3f})"
    )
    if abs(ratio - 1.0) <= band:
        return True, timing, figures
    side = "slower" if ratio > 1 else "faster"
    return False, f"{side} than the upstream beyond the noise: {timing}", figures


def layer_perf(request, torch):
    op = request["ops"][0]
    device = request["device"]
    settings = request.get("perf", {})
    packet = op_packet(torch, request["namespace"], op["name"])
    upstream = op_packet(torch, request["upstream"]["namespace"], op["name"])
    timer = Timer(torch, device, settings.get("flush_l2_bytes", 0))

    def body(case):
        arguments = Arguments(torch, op, case, device)
        runs = {
            "migrated": (packet, arguments.clone()),
            "upstream": (upstream, arguments.clone()),
            "upstream_again": (upstream, arguments.clone()),
        }
        calls = {name: (lambda p=p, v=v: p(*v)) for name, (p, v) in runs.items()}
        for run in calls.values():
            for _ in range(settings.get("warmup", 5)):
                run()
        synchronize(torch, device)
        once = min(timer.time(calls[name], 1, False) for name in calls)
        minimum = settings.get("min_sample_ms", 0.5)
        count = max(1, int(minimum / once) + 1) if once < minimum else 1
        flush = count == 1  # a kernel this long is timed alone, from a cold L2
        host = max(timer.host_ms(run, count) for run in calls.values()) if timer.cuda else 0.0
        synchronize(torch, device)
        timer.host_bound = 0
        series = {name: [] for name in calls}
        names = list(calls)
        for sample in range(settings.get("samples", 30)):
            for k in range(len(names)):  # rotates the order, so none always runs first
                name = names[(sample + k) % len(names)]
                series[name].append(timer.time(calls[name], count, flush, host))
        ok, detail, figures = perf_verdict(
            series["migrated"], series["upstream"], series["upstream_again"], settings
        )
        figures["calls_per_sample"] = count
        figures["l2"] = "flushed" if flush and timer.flush is not None else "warm"
        figures["kernels_only"] = bool(timer.cycles_per_ms) and not timer.host_bound
        figures["host_bound_samples"] = timer.host_bound
        if timer.host_bound:
            detail += (
                f" ({timer.host_bound} samples timed the host: the GPU ran the calls as they"
                " were queued, so this compares the two dispatch paths too)"
            )
        return ok, detail, figures

    run_cases(op["cases"], request.get("start", 0), body, request.get("stop"))


# --- api -------------------------------------------------------------------


def layer_api(request, torch):
    namespace = request["namespace"]
    ops = request["ops"]
    shared = request.get("shared_namespace", False)
    checks = [("api-schemas", lambda: check_schemas(torch, namespace, ops, shared))]
    checks.append(("api-cuda-kernels", lambda: check_kernels(torch, namespace, ops, "CUDA")))
    checks.append(("api-fake-kernels", lambda: check_fakes(torch, namespace, ops)))
    api = request.get("python_api")
    if api:
        module = importlib.import_module(api["module"])
        checks.append(("api-all", lambda: check_all(module, api["public"])))
        checks.append(("api-reexports", lambda: check_reexports(module, api)))
        checks.append(("api-fake-names", lambda: check_fake_names(torch, namespace, ops)))
        wrappers = api.get("wrappers", {op["name"]: op["name"] for op in ops})
        checks.append(("api-wrappers", lambda: check_wrappers(module, namespace, wrappers)))
    checks.append(("api-opcheck", lambda: check_opcheck(torch, request)))
    cases = [{"name": name, "run": run} for name, run in checks]
    run_cases(cases, request.get("start", 0), lambda case: case["run"](), request.get("stop"))


def registered(torch, namespace):
    prefix = namespace + "::"
    return {
        str(schema.name)[len(prefix) :]: schema
        for schema in torch._C._jit_get_all_schemas()
        if str(schema.name).startswith(prefix)
    }


def check_schemas(torch, namespace, ops, shared):
    have = registered(torch, namespace)
    problems = []
    for op in ops:
        schema = have.pop(op["name"], None)
        if schema is None:
            problems.append(f"{op['name']} is not registered")
            continue
        want = torch._C.parse_schema(f"{namespace}::{op['name']}{op['schema']}")
        if str(schema) != str(want):
            problems.append(f"{op['name']}: registered as `{schema}`, the manifest says `{want}`")
    if not shared:
        problems += [f"{name} is registered but not in the manifest" for name in sorted(have)]
    if problems:
        return False, "; ".join(problems), {}
    return True, f"{len(ops)} op(s) registered in {namespace} with the manifest's schemas", {}


def check_kernels(torch, namespace, ops, key):
    missing = [
        op["name"]
        for op in ops
        if not torch._C._dispatch_has_kernel_for_dispatch_key(f"{namespace}::{op['name']}", key)
    ]
    if missing:
        return False, f"no {key} kernel for: {', '.join(missing)}", {}
    return True, f"every op has a {key} kernel", {}


def fake_kernel(torch, qualified):
    """The function registered with `register_fake`, or None."""
    entry = torch._library.simple_registry.singleton.find(qualified)
    kernel = getattr(entry.fake_impl, "kernel", None)
    return unwrapped(getattr(kernel, "func", kernel))


def unwrapped(function):
    """The user's function inside torch's wrappers (`_check_pystubs_once`'s
    `inner` keeps it in its closure, without functools.wraps)."""
    for _ in range(8):
        if hasattr(function, "__wrapped__"):
            function = function.__wrapped__
            continue
        cells = getattr(function, "__closure__", None) or ()
        inner = [cell.cell_contents for cell in cells if inspect.isfunction(cell.cell_contents)]
        if getattr(function, "__name__", "") != "inner" or not inner:
            break
        function = inner[0]
    return function


def check_fakes(torch, namespace, ops):
    missing = []
    for op in ops:
        qualified = f"{namespace}::{op['name']}"
        has_meta = torch._C._dispatch_has_kernel_for_dispatch_key(qualified, "Meta")
        if not has_meta and fake_kernel(torch, qualified) is None:
            missing.append(op["name"])
    if missing:
        return False, f"no fake or Meta kernel for: {', '.join(missing)}", {}
    return True, "every op has a fake or Meta kernel", {}


def check_all(module, public):
    have = list(getattr(module, "__all__", []))
    if sorted(have) != sorted(public):
        missing = sorted(set(public) - set(have))
        extra = sorted(set(have) - set(public))
        return (
            False,
            f"{module.__name__}.__all__ differs: missing {missing}, not public {extra}",
            {},
        )
    return True, f"{module.__name__}.__all__ lists the {len(public)} public name(s)", {}


def check_reexports(module, api):
    package = importlib.import_module(api["package_module"])
    problems = []
    for name in api["reexports"]:
        if getattr(package, name, None) is not getattr(module, name, None):
            problems.append(f"{api['package_module']}.{name} is not {module.__name__}.{name}")
    if problems:
        return False, "; ".join(problems), {}
    count = len(api["reexports"])
    return True, f"{api['package_module']} re-exports the {count} op(s) as they are", {}


def check_fake_names(torch, namespace, ops):
    problems = []
    for op in ops:
        kernel = fake_kernel(torch, f"{namespace}::{op['name']}")
        name = getattr(kernel, "__name__", None)
        if name != f"_fake_{op['name']}":
            problems.append(f"{op['name']}: the fake is {name!r}, not _fake_{op['name']}")
    if problems:
        return False, "; ".join(problems), {}
    return True, "every fake is named _fake_<op>", {}


def calls_torch_ops(function, namespace, op):
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    wanted = ["torch", "ops", namespace, op]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            chain, target = [], node.func
            while isinstance(target, ast.Attribute):
                chain.insert(0, target.attr)
                target = target.value
            if isinstance(target, ast.Name) and [target.id] + chain == wanted:
                return True
    return False


def check_wrappers(module, namespace, wrappers):
    problems = []
    for op, attribute in wrappers.items():
        wrapper = getattr(module, attribute, None)
        if wrapper is None:
            problems.append(f"{module.__name__}.{attribute} is not set")
        elif not calls_torch_ops(wrapper, namespace, op):
            problems.append(f"{attribute} does not call torch.ops.{namespace}.{op}")
    if problems:
        return False, "; ".join(problems), {}
    return True, "every public wrapper calls its op through torch.ops", {}


def check_opcheck(torch, request):
    device = request["device"]
    if device == "cuda" and not torch.cuda.is_available():
        return None, "torch.library.opcheck runs the kernel: needs a CUDA device", {}
    done, skipped = [], []
    for op in request["ops"]:
        if not op["cases"]:
            skipped.append(op["name"])
            continue
        arguments = Arguments(torch, op, op["cases"][0], device)
        torch.library.opcheck(
            op_packet(torch, request["namespace"], op["name"]).default, tuple(arguments.values)
        )
        done.append(op["name"])
    if not done:
        return None, "no op has a case in the spec", {}
    detail = f"torch.library.opcheck passed for {', '.join(done)}"
    return True, detail + (f" (no case for {', '.join(skipped)})" if skipped else ""), {}


LAYERS = {
    "api": layer_api,
    "fake": layer_fake,
    "smoke": layer_smoke,
    "parity": layer_parity,
    "boundary": layer_boundary,
    "upstream": layer_upstream,
    "diff": layer_diff,
    "perf": layer_perf,
}


def main():
    request = json.loads(sys.stdin.read() or "{}")
    import torch

    try:
        load_domain(request["load"])
    except Exception as error:  # noqa: BLE001 - reported, then this run ends
        emit(event="fatal", detail=f"the domain did not load: {describe(error)}")
        sys.exit(4)
    try:
        load_upstream(request)
    except Exception as error:  # noqa: BLE001 - reported, then this run ends
        emit(event="fatal", detail=f"the upstream library did not load: {describe(error)}")
        sys.exit(4)
    LAYERS[sys.argv[1]](request, torch)
    emit(event="done")


if __name__ == "__main__":
    main()
