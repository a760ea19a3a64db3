# lit configuration of opmig's lit suite. CMake writes this build's paths
# into build/tests/lit/lit.site.cfg.py, which loads this file: run the
# tests through that one (`lit -v build/tests/lit/closure`), or through
# ctest (`ctest --test-dir build -R lit/`).
#
# The tests see what the tool tests see (tests/tool/ToolRunner.cpp): the
# opmig binary, OPMIG_NO_TORCH=1 (no torch probe) and the stand-in torch
# and pybind11 headers. Substitutions:
#
#   %{opmig}     the opmig binary
#   %{cache}     `--cache-dir <build>/tests/lit/analysis-cache`: the tests
#                share one analysis cache, keyed by content and by the opmig
#                build, so a tree analysed twice is parsed once
#   %{analyze}   `opmig analyze %{cache} --no-nvcc`: Clang alone judges the
#                code, so the result is the same with or without nvcc on
#                the machine
#   %{stubs}     `-- -isystem <the stand-in headers>`; it ends the options
#   %{fixtures}  tests/fixtures
#   %{lines}     Inputs/closure_lines.py: the JSON of `analyze --format
#                json` as one fact per line, for FileCheck
#   %{exit-is} N Inputs/exit_is.py: runs the command after it and fails
#                unless it exits with N (`not` only tells nonzero)
#   %{spec-lines} Inputs/spec_lines.py: a validation spec as one fact per
#                line, for FileCheck
#   %{python}    the Python that runs lit
#   %{cuda}      the CUDA toolkit: $CUDA_HOME, else /usr/local/cuda
#
# Features: `nvcc` (an nvcc that opmig finds), `cuda` (a CUDA toolkit at
# $CUDA_HOME or /usr/local/cuda).

import os
import shutil
import sys

import lit.formats

config.name = "opmig"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

# FileCheck, split-file and not come from the LLVM opmig builds against.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.environment["OPMIG_NO_TORCH"] = "1"
# What opmig needs from the caller's environment, as the tool tests inherit
# it: the CUDA toolkit, and the python3 it asks about the upstream's setup.py
# (a pyenv shim needs its root). HOME is passed by lit itself.
for name in ("CUDA_HOME", "PYENV_ROOT", "PYENV_VERSION"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

python = sys.executable
inputs = os.path.join(config.test_source_root, "Inputs")
stubs = os.path.join(config.opmig_fixtures_dir, "stubs", "include")
cache = "--cache-dir " + os.path.join(config.test_exec_root, "analysis-cache")
config.substitutions.extend(
    [
        ("%{analyze}", f"{config.opmig_binary} analyze {cache} --no-nvcc"),
        ("%{cache}", cache),
        ("%{opmig}", config.opmig_binary),
        ("%{stubs}", f"-- -isystem {stubs}"),
        ("%{fixtures}", config.opmig_fixtures_dir),
        ("%{lines}", f"{python} {os.path.join(inputs, 'closure_lines.py')}"),
        ("%{exit-is}", f"{python} {os.path.join(inputs, 'exit_is.py')}"),
        ("%{spec-lines}", f"{python} {os.path.join(inputs, 'spec_lines.py')}"),
        ("%{python}", python),
    ]
)

cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
config.substitutions.append(("%{cuda}", cuda_home))
if os.path.isfile(os.path.join(cuda_home, "include", "cuda_runtime.h")):
    config.available_features.add("cuda")
# opmig looks for <cuda>/bin/nvcc, then for nvcc on PATH.
if os.access(os.path.join(cuda_home, "bin", "nvcc"), os.X_OK) or shutil.which("nvcc"):
    config.available_features.add("nvcc")
