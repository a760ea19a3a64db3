"""Calls a migrated rms_norm op (spec_checks) on fake tensors; prints what each shape does.

Usage: fake_shapes.py NAMESPACE MODULE_OR_LIBRARY

Imports the Python module that registers the op (its fake), or loads the C++ library that does
(its Meta kernel), traces the op with symbolic sizes as torch.compile's dynamic shapes do, then
calls it under FakeTensorMode with a good set of shapes and with bad ones, one line each:
`accepts SHAPES` or `rejects SHAPES | first line of the error`. RealTorchTest runs it.
"""

import importlib
import sys

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

# (out, x, w): the good case, then a bad rank, a shared dim that disagrees (twice), and a size
# that breaks `hidden % 8 == 0`.
SHAPES = (
    ((4, 16), (4, 16), (16,)),
    ((4, 16), (4, 16, 1), (16,)),
    ((4, 16), (4, 16), (8,)),
    ((3, 16), (4, 16), (16,)),
    ((4, 12), (4, 12), (12,)),
)


def main() -> None:
    namespace, load = sys.argv[1], sys.argv[2]
    if load.endswith(".so"):
        torch.ops.load_library(load)
    else:
        importlib.import_module(load)
    op = getattr(torch.ops, namespace).rms_norm

    def call(out, x, w):
        op(out, x, w, 1e-6)

    make_fx(call, tracing_mode="symbolic")(*(torch.empty(shape) for shape in SHAPES[0]))
    print("symbolic trace passes")
    for shapes in SHAPES:
        try:
            with FakeTensorMode():
                call(*(torch.empty(shape) for shape in shapes))
        except RuntimeError as error:
            print("rejects", shapes, "|", str(error).splitlines()[0])
        else:
            print("accepts", shapes)


if __name__ == "__main__":
    main()
