"""Reads the shapes an upstream tree's pytest files call an op with.

opmig embeds this script and runs it as `python3 -I -S SCRIPT` with a JSON
request on stdin:

  {"root": UPSTREAM_TREE, "ops": {OP: [names the op is called by]}}

It parses every `test_*.py` and `*_test.py` under the root with `ast` (never
imports or runs them) and, for each call whose function is one of an op's
names (`rms_norm(...)`, `ops.rms_norm(...)`, `torch.ops.ns.rms_norm(...)`),
reads each argument statically: a tensor made by `torch.randn/rand/empty/
zeros/ones/randint(...)` (or `*_like` of one, or through `.cuda()`, `.to()`,
`.half()`, `.transpose()`, `.permute()`, `.unsqueeze()`, a slice `[:, a:b]`,
...) whose size is ints: literals, names bound to ints in the function or the module,
arithmetic on those, `torch.randint(low, high, ...).item()` (its low end, a
value the test may draw), or the values of `pytest.mark.parametrize` (one
reading per combination). Anything else is left unread.

A call of a Python function of the upstream's own package (not a test file)
that has an op's name, or that the test imports under it, is a wrapper: its
arguments are bound to its parameters and followed through its body's
straight-line statements (not those under an `if` or a loop) into the call
it makes, to another such function or to the op itself (`ext.op(...)`), so
the reading has the op's arguments, in the op's order (`out =
torch.empty_like(x)` made on the way included). A wrapper may also be a
`torch.autograd.Function` whose `apply(...)` is followed into its `forward`
(after `ctx`), and a test may call a wrapper under another name than the
op's: every package function (or Function class) whose body calls the op,
directly or through others, is one (`conv1d_fn` -> `Conv1dFn.apply` ->
`conv1d_fwd_function` -> `ext.conv1d_fwd`). A call of such a name counts only
where it resolves to that package function. The answer, on stdout:

  {"files": N,
   "ops": {OP: {"calls": N, "with_shapes": N,
                "found": [{"path": REL, "line": N, "variant": K,
                           "args": [ARG], "kwargs": {NAME: ARG},
                           "through": [REL:LINE of each wrapper]}],
                "unread": [{"path": REL, "line": N, "why": "..."}]}}}
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
MAX_WRAPPERS = 6


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
        if isinstance(node, ast.IfExp):
            return self.chosen(node, depth)
        if isinstance(node, ast.Subscript):
            return self.sliced(node, depth)
        return None

    def chosen(self, node, depth):
        """`f(t) if t is not None else None` with `t` a tensor read: its branch."""
        test = node.test
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            return None
        # Only a tensor is known not to be None: an unread value may be either.
        if not isinstance(self.value(test.left, depth + 1), Tensor):
            return None
        taken = node.body if isinstance(test.ops[0], ast.IsNot) else node.orelse
        return self.value(taken, depth + 1)

    def sliced(self, node, depth):
        """`t[:, a:b]`: ints and int slices over a tensor read."""
        inner = self.value(node.value, depth + 1)
        if not isinstance(inner, Tensor):
            return None
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(items) > len(inner.shape):
            return None
        shape = []
        for size, item in zip(inner.shape, items):
            if isinstance(item, ast.Slice):
                bounds = [
                    None if part is None else as_int(self.value(part, depth + 1))
                    for part in (item.lower, item.upper, item.step)
                ]
                if any(part is None and given is not None for part, given in zip(
                    bounds, (item.lower, item.upper, item.step)
                )) or bounds[2] == 0:
                    return None
                shape.append(len(range(size)[slice(*bounds)]))
            elif as_int(self.value(item, depth + 1)) is None:
                return None
        return Tensor(shape + list(inner.shape[len(items) :]))

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
        if name in RESHAPING and isinstance(call.func, ast.Attribute):
            inner = self.value(call.func.value, depth + 1)
            ints = [as_int(self.value(arg, depth + 1)) for arg in call.args]
            if not isinstance(inner, Tensor) or None in ints:
                return None
            shape = reshaped(name, list(inner.shape), ints)
            return Tensor(shape) if shape is not None else None
        if name == "item" and isinstance(call.func, ast.Attribute):
            return self.drawn(call.func.value, depth)
        if name in LIKE and call.args:
            inner = self.value(call.args[0], depth + 1)
            return inner if isinstance(inner, Tensor) else None
        if name not in FACTORIES:
            return None
        shape = self.factory_shape(name, call, depth)
        return Tensor(list(shape)) if shape is not None else None

    def drawn(self, node, depth):
        """`torch.randint(low, high, size)`: low, a value the test may draw."""
        if not isinstance(node, ast.Call) or call_name(node.func) != "randint":
            return None
        if len(node.args) >= 3:
            return as_int(self.value(node.args[0], depth + 1))
        return 0 if len(node.args) == 2 else None

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


RESHAPING = {"transpose", "permute", "unsqueeze", "squeeze", "t", "view", "reshape"}


def reshaped(name, shape, ints):
    """The shape after `.transpose(a, b)`, `.permute(...)`, ...; None if unknown."""
    rank = len(shape)
    try:
        if name == "transpose" and len(ints) == 2:
            a, b = (i % rank for i in ints)
            shape[a], shape[b] = shape[b], shape[a]
            return shape
        if name == "t" and rank <= 2:
            return shape[::-1]
        if name == "permute" and sorted(i % rank for i in ints) == list(range(rank)):
            return [shape[i % rank] for i in ints]
        if name == "unsqueeze" and len(ints) == 1:
            shape.insert(ints[0] % (rank + 1), 1)
            return shape
        if name == "squeeze" and len(ints) == 1:
            return (
                shape[: ints[0] % rank] + shape[ints[0] % rank + 1 :]
                if shape[ints[0] % rank] == 1
                else shape
            )
        if name in ("view", "reshape") and ints and all(i > 0 for i in ints):
            return ints
    except (ZeroDivisionError, IndexError):
        return None
    return None


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


# --- wrappers --------------------------------------------------------------


class Package:
    """The module-level functions of the tree's own (non-test) Python files,
    and its `torch.autograd.Function` classes."""

    def __init__(self, root):
        self.root = root
        # name -> [(relative path, FunctionDef, imports)]; none without a root
        self.defs = None if root else {}
        # class name -> (relative path, its `forward`, imports)
        self.autograd = {}

    def load(self):
        self.defs = {}
        for folder, subfolders, files in os.walk(self.root):
            subfolders[:] = sorted(
                n for n in subfolders if not n.startswith(".") and n not in SKIPPED_FOLDERS
            )
            for name in sorted(files):
                if not name.endswith(".py") or is_test_name(name) or name == "setup.py":
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, self.root).replace(os.sep, "/")
                try:
                    with open(path, encoding="utf-8") as handle:
                        tree = ast.parse(handle.read(), filename=relative)
                except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
                    continue
                imported = imports(tree)
                for node in tree.body:
                    if isinstance(node, ast.FunctionDef):
                        self.defs.setdefault(node.name, []).append((relative, node, imported))
                    elif forward := autograd_forward(node):
                        self.autograd.setdefault(node.name, (relative, forward, imported))

    def function(self, name, imported):
        """The function a bare `name(...)` calls, preferring the module it is imported from."""
        if self.defs is None:
            self.load()
        found = self.defs.get(name, [])
        module = imported.get(name)
        if module:
            stem = module.replace(".", "/")
            for entry in found:
                if entry[0] in (stem + ".py", stem + "/__init__.py") or entry[0].endswith(
                    "/" + stem + ".py"
                ):
                    return entry
        return found[0] if found else None

    def applied(self, call):
        """The `forward` that `Cls.apply(...)` runs, for a Function class of the package."""
        if self.defs is None:
            self.load()
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "apply":
            if isinstance(func.value, ast.Name):
                return self.autograd.get(func.value.id)
        return None

    def reaching(self, names):
        """(functions, Function classes) of the package whose bodies call one
        of `names` (as `ext.name(...)` or `name(...)`), directly or through
        each other: the names a test may call the op by."""
        if self.defs is None:
            self.load()
        functions, classes = set(), set()

        def calls_op(node):
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                func = call.func
                if isinstance(func, ast.Name) and (func.id in names or func.id in functions):
                    return True
                if isinstance(func, ast.Attribute) and func.attr in names:
                    return True
                applied = self.applied(call)
                if applied is not None and call.func.value.id in classes:
                    return True
            return False

        for _ in range(MAX_WRAPPERS):
            grown = {
                name
                for name, entries in self.defs.items()
                if name not in functions and any(calls_op(entry[1]) for entry in entries)
            }
            grown_classes = {
                name
                for name, entry in self.autograd.items()
                if name not in classes and calls_op(entry[1])
            }
            if not grown and not grown_classes:
                break
            functions |= grown
            classes |= grown_classes
        return functions - set(names), classes


def autograd_forward(node):
    """The `forward` of a class deriving from (`torch.autograd.`)`Function`."""
    if not isinstance(node, ast.ClassDef):
        return None
    if not any(call_name(base) == "Function" for base in node.bases):
        return None
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "forward":
            return item
    return None


def is_test_name(name):
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def imports(tree):
    """{name: module} of the file's `from module import name`."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                found[alias.asname or alias.name] = node.module
    return found


def bind(function, call, scope, skip=0):
    """The call's values by the function's parameter names, the first `skip`
    left unbound (a Function's `ctx`); None if it cannot say."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    spec = function.args
    positional = (spec.posonlyargs + spec.args)[skip:]
    if len(call.args) > len(positional) and spec.vararg is None:
        return None
    values = {}
    defaults = spec.defaults
    for param, default in zip(positional[len(positional) - len(defaults) :], defaults):
        values[param.arg] = Scope({}).value(default)
    for param, default in zip(spec.kwonlyargs, spec.kw_defaults):
        if default is not None:
            values[param.arg] = Scope({}).value(default)
    for param, arg in zip(positional, call.args):
        values[param.arg] = scope.value(arg)
    names = {p.arg for p in positional + spec.kwonlyargs}
    for item in call.keywords:
        if item.arg not in names:
            return None
        values[item.arg] = scope.value(item.value)
    return values


def straight_line(function):
    """The statements of a body that always run, in order (no if, loop or try)."""
    return [
        node
        for node in function.body
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return))
    ]


class Follower:
    """Follows a call of a wrapper into the op's call."""

    def __init__(self, package, names):
        self.package = package
        self.names = names

    def follow(self, function, values, stack):
        """(args, kwargs, through) of the op's call the function makes, or a reason."""
        relative, node, imported = function
        if len(stack) >= MAX_WRAPPERS:
            return f"more than {MAX_WRAPPERS} wrappers deep"
        stack = stack + [f"{relative}:{node.lineno}"]
        bound = dict(values)
        for statement in straight_line(node):
            scope = Scope(bound)
            for call in calls_in(statement):
                answer = self.into(call, scope, imported, stack, node.name)
                if answer is not None:
                    return answer
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name):
                    bound[target.id] = scope.value(statement.value)
        return (
            f"{relative}:{node.lineno} ({node.name}) calls no op nor wrapper where it always runs"
        )

    def into(self, call, scope, imported, stack, current):
        name = call_name(call.func)
        if isinstance(call.func, ast.Attribute) and name in self.names:
            return self.reading(call, scope, stack)
        applied = self.package.applied(call)
        if applied is not None and f"{applied[0]}:{applied[1].lineno}" not in stack:
            values = bind(applied[1], call, scope, skip=1)
            return None if values is None else self.follow(applied, values, stack)
        if not isinstance(call.func, ast.Name):
            return None
        callee = self.package.function(name, imported)
        if (
            callee is None
            or callee[1].name == current
            or f"{callee[0]}:{callee[1].lineno}" in stack
        ):
            return self.reading(call, scope, stack) if name in self.names else None
        values = bind(callee[1], call, scope)
        if values is None:
            return None
        return self.follow(callee, values, stack)

    @staticmethod
    def reading(call, scope, stack):
        args = [argument(scope.value(arg)) for arg in call.args]
        kwargs = {k.arg: argument(scope.value(k.value)) for k in call.keywords if k.arg}
        return args, kwargs, stack


def calls_in(statement):
    calls = [node for node in ast.walk(statement) if isinstance(node, ast.Call)]
    return sorted(calls, key=lambda node: (node.lineno, node.col_offset))


def ops_called(call, names_of, wrappers_of, package, imported):
    """The ops a call calls: by an op's own names, or by a package wrapper
    that reaches it (only where the call resolves to that wrapper)."""
    name = call_name(call.func)
    found = []
    for op, names in names_of.items():
        functions, classes = wrappers_of.get(op, ((), ()))
        if name in names:
            found.append(op)
        elif isinstance(call.func, ast.Name) and name in functions:
            if package.function(name, imported) is not None:
                found.append(op)
        elif package.applied(call) is not None and call.func.value.id in classes:
            found.append(op)
    return found


def wrapper_called(call, package, imported):
    """(package function, parameters to skip, label) a call runs, else None."""
    if isinstance(call.func, ast.Name):
        wrapper = package.function(call.func.id, imported)
        return (wrapper, 0, call.func.id) if wrapper is not None else None
    applied = package.applied(call)
    if applied is not None:
        return applied, 1, f"{call.func.value.id}.apply"
    return None


def read_file(text, relative, names_of, answer, package=None, wrappers_of=None):
    try:
        tree = ast.parse(text, filename=relative)
    except (SyntaxError, ValueError):
        return False
    module_bound = {name: value for _, name, value in assignments(tree.body)}
    imported = imports(tree)
    package = package or Package(None)
    for function in functions(tree):
        local = assignments(ast.walk(function))
        calls = [node for node in ast.walk(function) if isinstance(node, ast.Call)]
        for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
            for op in ops_called(call, names_of, wrappers_of or {}, package, imported):
                context = (function, module_bound, local, relative)
                follower = Follower(package, names_of[op])
                read_call(call, context, imported, follower, answer["ops"][op])
    return True


def read_call(call, context, imported, follower, into):
    function, module_bound, local, relative = context
    into["calls"] += 1
    readings = []
    why = None
    wrapper = wrapper_called(call, follower.package, imported)
    for variant, values in enumerate(variants(function)):
        bound = dict(module_bound)
        bound.update(values)
        for line, name, value in local:
            if line < call.lineno:
                bound[name] = value
        scope = Scope(bound)
        through = []
        if wrapper is not None:
            (path, node, _), skip, label = wrapper
            parameters = bind(node, call, scope, skip)
            followed = (
                follower.follow(wrapper[0], parameters, [])
                if parameters is not None
                else f"its arguments do not bind to {path}:{node.lineno}'s parameters"
            )
            if isinstance(followed, str):
                why = f"through {label}: {followed}"
                continue
            args, kwargs, through = followed
        else:
            args = [argument(scope.value(arg)) for arg in call.args]
            kwargs = {k.arg: argument(scope.value(k.value)) for k in call.keywords if k.arg}
        shapes = [a for a in args + list(kwargs.values()) if a and "shape" in a]
        if not shapes:
            why = why or "no argument's shape was read (tensors made other than by a factory)"
            continue
        reading = {
            "path": relative,
            "line": call.lineno,
            "variant": variant,
            "args": args,
            "kwargs": kwargs,
        }
        if through:
            reading["through"] = through
        readings.append(reading)
    if readings:
        into["with_shapes"] += 1
        into["found"].extend(readings)
    else:
        into.setdefault("unread", []).append(
            {"path": relative, "line": call.lineno, "why": why or "no reading"}
        )


def read_tree(request):
    root = request["root"]
    names_of = {op: set(names) for op, names in request["ops"].items()}
    answer = {
        "files": 0,
        "ops": {op: {"calls": 0, "with_shapes": 0, "found": [], "unread": []} for op in names_of},
    }
    package = Package(root)
    wrappers_of = {op: package.reaching(names) for op, names in names_of.items()}
    every_name = set().union(*names_of.values(), *(f | c for f, c in wrappers_of.values()))
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
        if read_file(text, relative, names_of, answer, package, wrappers_of):
            answer["files"] += 1
    return answer


def main():
    request = json.load(sys.stdin)
    json.dump(read_tree(request), sys.stdout)


if __name__ == "__main__":
    main()
