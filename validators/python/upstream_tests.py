"""Reads the shapes an upstream tree's pytest files call an op with.

opmig embeds this script and runs it as `python3 -I -S SCRIPT` with a JSON
request on stdin:

  {"root": UPSTREAM_TREE, "ops": {OP: [names the op is called by]}}

It parses every `test_*.py` and `*_test.py` under the root with `ast` (never
imports or runs them) and, for each call whose function is one of an op's
names (`rms_norm(...)`, `ops.rms_norm(...)`, `torch.ops.ns.rms_norm(...)`),
reads each argument statically: a tensor made by `torch.randn/rand/empty/
zeros/ones/randint(...)` (or `*_like` of one, or through `.cuda()`, `.to()`,
`.half()`, ...) whose size is ints: literals, names bound to ints in the
function or the module, arithmetic on those, or the values of
`pytest.mark.parametrize` (one reading per combination). Anything else is
left unread. The answer, on stdout:

  {"files": N,
   "ops": {OP: {"calls": N, "with_shapes": N,
                "found": [{"path": REL, "line": N, "variant": K,
                           "args": [ARG], "kwargs": {NAME: ARG}}]}}}
  ARG: {"shape": [ints]} | {"value": number} | null
"""

import ast
import itertools
import json
import os
import sys

FACTORIES = {"randn", "rand", "empty", "zeros", "ones", "randint"}
LIKE = {"randn_like", "rand_like", "empty_like", "zeros_like", "ones_like"}
# Methods that give a tensor of the same shape.
SAME_SHAPE = {
    "cuda", "cpu", "to", "half", "float", "double", "bfloat16", "contiguous",
    "clone", "detach", "requires_grad_", "normal_", "uniform_", "fill_", "zero_",
}  # fmt: skip
SKIPPED_FOLDERS = {"build", "dist", "node_modules", "venv", "__pycache__", "site-packages"}
MAX_VARIANTS = 32
MAX_DEPTH = 12


def test_files(root):
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(
            name for name in subfolders if not name.startswith(".") and name not in SKIPPED_FOLDERS
        )
        for name in sorted(files):
            if name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")):
                yield os.path.join(folder, name)


# --- values ------------------------------------------------------------------


class Tensor:
    def __init__(self, shape):
        self.shape = shape


def as_int(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_shape(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, tuple) and all(as_int(item) is not None for item in value):
        return value
    return None


def call_name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def keyword(call, name):
    for item in call.keywords:
        if item.arg == name:
            return item.value
    return None


class Scope:
    """Names bound to expressions (module, then function) or to values (parametrize)."""

    def __init__(self, bound):
        self.bound = bound

    def value(self, node, depth=0):
        if depth > MAX_DEPTH or node is None:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (int, float)) else None
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.value(item, depth + 1) for item in node.elts]
            return tuple(items) if all(as_int(item) is not None for item in items) else None
        if isinstance(node, ast.Name):
            bound = self.bound.get(node.id)
            return self.value(bound, depth + 1) if isinstance(bound, ast.AST) else bound
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand, depth + 1)
            return -inner if isinstance(inner, (int, float)) else None
        if isinstance(node, ast.BinOp):
            return self.arithmetic(node, depth)
        if isinstance(node, ast.Call):
            return self.tensor(node, depth)
        return None

    def arithmetic(self, node, depth):
        left = self.value(node.left, depth + 1)
        right = self.value(node.right, depth + 1)
        # `torch.randn(...) * 4`: a tensor scaled keeps its shape.
        for side in (left, right):
            if isinstance(side, Tensor):
                return side
        left, right = as_int(left), as_int(right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.FloorDiv) and right:
            return left // right
        return None

    def tensor(self, call, depth):
        name = call_name(call.func)
        if name in SAME_SHAPE and isinstance(call.func, ast.Attribute):
            inner = self.value(call.func.value, depth + 1)
            return inner if isinstance(inner, Tensor) else None
        if name in LIKE and call.args:
            inner = self.value(call.args[0], depth + 1)
            return inner if isinstance(inner, Tensor) else None
        if name not in FACTORIES:
            return None
        shape = self.factory_shape(name, call, depth)
        return Tensor(list(shape)) if shape is not None else None

    def factory_shape(self, name, call, depth):
        size = keyword(call, "size")
        if size is not None:
            return as_shape(self.value(size, depth + 1))
        if name == "randint":  # randint(high, size) or randint(low, high, size)
            return as_shape(self.value(call.args[-1], depth + 1)) if len(call.args) >= 2 else None
        if len(call.args) == 1:
            return as_shape(self.value(call.args[0], depth + 1))
        values = [as_int(self.value(arg, depth + 1)) for arg in call.args]
        return tuple(values) if call.args and None not in values else None


def argument(value):
    if isinstance(value, Tensor):
        return {"shape": value.shape}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"value": value}
    return None


# --- bindings --------------------------------------------------------------


def assignments(body_nodes):
    """(line, name, expression) of every plain assignment among the nodes."""
    found = []
    for node in body_nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                found.extend(unpacked(target, node.value, node.lineno))
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            found.extend(unpacked(node.target, node.value, node.lineno))
    return sorted(found, key=lambda item: item[0])


def unpacked(target, value, line):
    if isinstance(target, ast.Name):
        return [(line, target.id, value)]
    if (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
    ):
        return [item for t, v in zip(target.elts, value.elts) for item in unpacked(t, v, line)]
    return []


def literal(node):
    """A literal's value, lists as tuples (a shape may be written either way)."""
    try:
        return tuples(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def tuples(value):
    if isinstance(value, (list, tuple)):
        return tuple(tuples(item) for item in value)
    return value


def parametrize_options(decorator):
    """[(names, [values tuple, ...])] of one `pytest.mark.parametrize`, else None."""
    if not isinstance(decorator, ast.Call) or call_name(decorator.func) != "parametrize":
        return None
    if len(decorator.args) < 2:
        return None
    names = literal(decorator.args[0])
    if isinstance(names, str):
        names = [name.strip() for name in names.split(",") if name.strip()]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        return None
    if not isinstance(decorator.args[1], (ast.List, ast.Tuple)):
        return None
    rows = []
    for element in decorator.args[1].elts:
        if isinstance(element, ast.Call) and call_name(element.func) == "param":
            value = tuple(literal(arg) for arg in element.args)
            value = value if len(names) > 1 else value[:1]
        else:
            value = literal(element)
            value = value if len(names) > 1 and isinstance(value, tuple) else (value,)
        if len(value) == len(names):
            rows.append(value)
    return names, rows


def variants(function):
    """The parametrize bindings of a test function: one dict per combination."""
    options = [parametrize_options(d) for d in function.decorator_list]
    options = [option for option in options if option]
    combinations = [{}]
    for names, rows in options:
        combinations = [
            {**earlier, **dict(zip(names, row))}
            for earlier, row in itertools.product(combinations, rows)
        ][:MAX_VARIANTS]
    return combinations


# --- calls -----------------------------------------------------------------


def functions(tree):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield item


def ops_called(call, names_of):
    name = call_name(call.func)
    return [op for op, names in names_of.items() if name in names]


def read_file(text, relative, names_of, answer):
    try:
        tree = ast.parse(text, filename=relative)
    except (SyntaxError, ValueError):
        return False
    module_bound = {name: value for _, name, value in assignments(tree.body)}
    for function in functions(tree):
        local = assignments(ast.walk(function))
        calls = [node for node in ast.walk(function) if isinstance(node, ast.Call)]
        for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
            for op in ops_called(call, names_of):
                read_call(call, function, module_bound, local, relative, answer["ops"][op])
    return True


def read_call(call, function, module_bound, local, relative, into):
    into["calls"] += 1
    readings = []
    for variant, values in enumerate(variants(function)):
        bound = dict(module_bound)
        bound.update(values)
        for line, name, value in local:
            if line < call.lineno:
                bound[name] = value
        scope = Scope(bound)
        args = [argument(scope.value(arg)) for arg in call.args]
        kwargs = {item.arg: argument(scope.value(item.value)) for item in call.keywords if item.arg}
        shapes = [a for a in args + list(kwargs.values()) if a and "shape" in a]
        if shapes:
            readings.append(
                {
                    "path": relative,
                    "line": call.lineno,
                    "variant": variant,
                    "args": args,
                    "kwargs": kwargs,
                }
            )
    if readings:
        into["with_shapes"] += 1
        into["found"].extend(readings)


def read_tree(request):
    root = request["root"]
    names_of = {op: set(names) for op, names in request["ops"].items()}
    answer = {
        "files": 0,
        "ops": {op: {"calls": 0, "with_shapes": 0, "found": []} for op in names_of},
    }
    every_name = set().union(*names_of.values()) if names_of else set()
    for path in test_files(root):
        relative = os.path.relpath(path, root).replace(os.sep, "/")
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            continue
        # A file that never spells a name cannot call the op: skip parsing it.
        if not any(name in text for name in every_name):
            continue
        if read_file(text, relative, names_of, answer):
            answer["files"] += 1
    return answer


def main():
    request = json.load(sys.stdin)
    json.dump(read_tree(request), sys.stdout)


if __name__ == "__main__":
    main()
