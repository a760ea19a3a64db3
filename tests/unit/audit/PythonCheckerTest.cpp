//===- PythonCheckerTest.cpp - `python` rules on CPython's ast ------------===//

#include "CheckerTestSupport.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

namespace opmig::audit {
namespace {

using test::checkerFor;
using test::makeRule;
using test::runChecker;
using test::startsWith;
using test::TempTree;
using test::validationError;

const char *const Kernels = "src/cache_dit/kernels/*.py";

/// The findings of one python rule on one file `src/cache_dit/kernels/_x.py`.
std::string check(const std::string &Source, nlohmann::json Match, const std::string &Message) {
  TempTree Tree;
  Tree.write("src/cache_dit/kernels/_x.py", Source);
  return runChecker(*checkerFor("python"), Tree.root(),
                    {makeRule("x-rule", "python", {Kernels}, std::move(Match), Message)});
}

TEST(PythonCheckerTest, CallStringArgument) {
  std::string Source =
      "import torch\n"
      "from torch import library\n"
      "from torch.library import define as define_op\n"
      "_NS = \"cache_dit_cuda_ops\"\n"
      "torch.library.define(\"cache_dit_cuda_ops::merge\", \"(Tensor x) -> Tensor\")\n"
      "torch.library.define(\"nunchaku::gemm\", \"(Tensor x) -> Tensor\")\n"
      "library.define(\"other_ops::quant\", \"(Tensor x) -> Tensor\")\n"
      "define_op(f\"{_NS}::fine\", \"(Tensor x) -> Tensor\")\n"
      "define_op(_NS + \"_v2::concat\", \"(Tensor x) -> Tensor\")\n"
      "torch.library.define(make_name(), \"(Tensor x) -> Tensor\")\n"
      "torch.library.impl(\"elsewhere::merge\", \"CUDA\")\n";
  EXPECT_EQ(check(Source,
                  {{"check", "call-string-argument"},
                   {"call", "torch.library.define"},
                   {"argument", 0},
                   {"must-match", "^cache_dit_cuda_ops::"}},
                  "{call} namespace `{namespace}` (op {op}) is not cache_dit_cuda_ops"),
            "src/cache_dit/kernels/_x.py:6:22: x-rule: torch.library.define namespace `nunchaku` "
            "(op gemm) is not cache_dit_cuda_ops\n"
            "src/cache_dit/kernels/_x.py:7:16: x-rule: torch.library.define namespace `other_ops` "
            "(op quant) is not cache_dit_cuda_ops\n"
            "src/cache_dit/kernels/_x.py:9:11: x-rule: torch.library.define namespace "
            "`cache_dit_cuda_ops_v2` (op concat) is not cache_dit_cuda_ops\n");
}

TEST(PythonCheckerTest, DecoratorArgument) {
  std::string Source =
      "import torch\n"
      "@torch.library.impl(\"cache_dit_cuda_ops::merge\", \"CUDA\")\n"
      "def _merge(x): return x\n"
      "@torch.library.impl(\"cache_dit_cuda_ops::quant\", \"CPU\")\n"
      "def _quant(x): return x\n"
      "@torch.library.impl(\"cache_dit_cuda_ops::gemm\", types=(\"CUDA\", \"CPU\"))\n"
      "def _gemm(x): return x\n"
      "@torch.library.impl(\"cache_dit_cuda_ops::scale\", types=[\"CUDA\"])\n"
      "def _scale(x): return x\n"
      "@torch.library.register_fake(\"cache_dit_cuda_ops::merge\")\n"
      "def _fake_merge(x): return x\n";
  EXPECT_EQ(check(Source,
                  {{"check", "decorator-argument"},
                   {"decorator", "torch.library.impl"},
                   {"argument", 1},
                   {"keyword", "types"},
                   {"must-equal", "CUDA"}},
                  "{name} registers {op} on `{argument}`, not CUDA"),
            "src/cache_dit/kernels/_x.py:4:50: x-rule: _quant registers quant on `CPU`, not CUDA\n"
            "src/cache_dit/kernels/_x.py:6:55: x-rule: _gemm registers gemm on `CUDA, CPU`, not "
            "CUDA\n");
}

TEST(PythonCheckerTest, DecoratedFunctionName) {
  std::string Source = "import torch\n"
                       "from torch.library import register_fake\n"
                       "@torch.library.register_fake(\"cache_dit_cuda_ops::merge\")\n"
                       "def _fake_merge(x): return x\n"
                       "@torch.library.register_fake(\"cache_dit_cuda_ops::quant\")\n"
                       "def _(x): return x\n"
                       "@register_fake(\"cache_dit_cuda_ops::gemm.v2\")\n"
                       "def _fake_gemm_v2(x): return x\n"
                       "@register_fake(\"cache_dit_cuda_ops::scale\")\n"
                       "def fake_scale(x): return x\n"
                       "@torch.library.impl(\"cache_dit_cuda_ops::merge\", \"CUDA\")\n"
                       "def _(x): return x\n";
  // `{op}` is escaped: `gemm.v2` does not match `gemm_v2`.
  EXPECT_EQ(check(Source,
                  {{"check", "decorated-function-name"},
                   {"decorator", "torch.library.register_fake"},
                   {"name", "^_fake_{op}$"}},
                  "fake `{name}` must be named _fake_{op}"),
            "src/cache_dit/kernels/_x.py:6:1: x-rule: fake `_` must be named _fake_quant\n"
            "src/cache_dit/kernels/_x.py:8:1: x-rule: fake `_fake_gemm_v2` must be named "
            "_fake_gemm.v2\n"
            "src/cache_dit/kernels/_x.py:10:1: x-rule: fake `fake_scale` must be named "
            "_fake_scale\n");
}

TEST(PythonCheckerTest, AllEqualsPublicNames) {
  std::string Source = "import torch\n"
                       "from ._attn import merge_attn_states, _private_helper\n"
                       "from ._comm import fp8_quant as quant\n"
                       "def gemm(x): return x\n"
                       "class Config: pass\n"
                       "_cache = None\n"
                       "__all__ = [\n"
                       "    \"merge_attn_states\",\n"
                       "    \"gemm\",\n"
                       "    \"gemm\",\n"
                       "    \"removed_op\",\n"
                       "]\n"
                       "__all__ += [\"Config\"]\n";
  EXPECT_EQ(check(Source, {{"check", "all-equals-public-names"}}, "`{name}`: {problem}"),
            "src/cache_dit/kernels/_x.py:3:20: x-rule: `quant`: a public name missing from "
            "__all__\n"
            "src/cache_dit/kernels/_x.py:10:5: x-rule: `gemm`: listed twice in __all__\n"
            "src/cache_dit/kernels/_x.py:11:5: x-rule: `removed_op`: listed in __all__ but not "
            "a public name of the module\n");
}

TEST(PythonCheckerTest, AllEqualsPublicNamesWithoutAll) {
  EXPECT_EQ(check("def merge(x): return x\n_y = 1\n", {{"check", "all-equals-public-names"}},
                  "`{name}`: {problem}"),
            "src/cache_dit/kernels/_x.py:1:1: x-rule: `merge`: a public name missing from "
            "__all__\n");
  // An `__all__` computed at run time cannot be compared.
  EXPECT_EQ(check("def merge(x): return x\n__all__ = [n for n in dir() if n[0] != '_']\n",
                  {{"check", "all-equals-public-names"}}, "`{name}`: {problem}"),
            "");
}

TEST(PythonCheckerTest, NoPartialAlias) {
  std::string Source = "import functools\n"
                       "from functools import partial\n"
                       "def gemm(x, mode): return x\n"
                       "gemm_int4 = partial(gemm, mode=\"int4\")\n"
                       "gemm_fp4 = functools.partial(gemm, mode=\"fp4\")\n"
                       "_gemm_w8 = partial(gemm, mode=\"w8\")\n"
                       "def gemm_fp8(x):\n"
                       "    return gemm(x, mode=\"fp8\")\n";
  EXPECT_EQ(check(Source, {{"check", "no-partial-alias"}}, "`{name}` is a partial(...) alias"),
            "src/cache_dit/kernels/_x.py:4:1: x-rule: `gemm_int4` is a partial(...) alias\n"
            "src/cache_dit/kernels/_x.py:5:1: x-rule: `gemm_fp4` is a partial(...) alias\n");
}

TEST(PythonCheckerTest, PublicWrapperCalls) {
  std::string Source = "import torch\n"
                       "def _call_merge(x): return x\n"
                       "def merge(x):\n"
                       "    return torch.ops.cache_dit_cuda_ops.merge(x)\n"
                       "def quant(x):\n"
                       "    return _call_merge(x)\n"
                       "def gemm(x):\n"
                       "    return torch.ops.cache_dit_cuda_ops.merge.default(x)\n"
                       "def scale(x):\n"
                       "    y = torch.ops.cache_dit_cuda_ops.scale(x)\n"
                       "    return _call_merge(y)\n"
                       "def attn_extension_is_available():\n"
                       "    return _load() is not None\n";
  EXPECT_EQ(check(Source,
                  {{"check", "public-wrapper-calls"}, {"prefix", "torch.ops.cache_dit_cuda_ops."}},
                  "public wrapper `{name}` {problem}"),
            "src/cache_dit/kernels/_x.py:5:1: x-rule: public wrapper `quant` does not call "
            "`torch.ops.cache_dit_cuda_ops.quant`\n"
            "src/cache_dit/kernels/_x.py:6:12: x-rule: public wrapper `quant` calls the bridge "
            "`_call_merge` directly\n"
            "src/cache_dit/kernels/_x.py:7:1: x-rule: public wrapper `gemm` does not call "
            "`torch.ops.cache_dit_cuda_ops.gemm`\n"
            "src/cache_dit/kernels/_x.py:11:12: x-rule: public wrapper `scale` calls the bridge "
            "`_call_merge` directly\n");
}

TEST(PythonCheckerTest, ForbiddenNames) {
  std::string Source = "import enum\n"
                       "class KernelBackend(enum.Enum): pass\n"
                       "def _resolve_backend(name): return name\n"
                       "def _select_gemm_backend(): pass\n"
                       "def resolve(x): return x\n"
                       "_BACKENDS = {}\n"
                       "_resolve_backend(\"cuda\")\n";
  EXPECT_EQ(check(Source,
                  {{"check", "forbidden-names"},
                   {"names", {"^KernelBackend$", "^_resolve_backend$", "^_select_\\w+_backend$"}}},
                  "{kind} `{name}` matches the removed {pattern}"),
            "src/cache_dit/kernels/_x.py:2:1: x-rule: class `KernelBackend` matches the removed "
            "^KernelBackend$\n"
            "src/cache_dit/kernels/_x.py:3:1: x-rule: function `_resolve_backend` matches the "
            "removed ^_resolve_backend$\n"
            "src/cache_dit/kernels/_x.py:4:1: x-rule: function `_select_gemm_backend` matches the "
            "removed ^_select_\\w+_backend$\n");
}

TEST(PythonCheckerTest, GuardedImport) {
  std::string Source = "import importlib\n"
                       "import torch_npu\n"
                       "from transformers.utils import is_torch_npu_available\n"
                       "if is_torch_npu_available():\n"
                       "    import torch_npu.contrib\n"
                       "    def f():\n"
                       "        from .npu_impl import npu_op\n"
                       "if not is_torch_npu_available():\n"
                       "    pass\n"
                       "else:\n"
                       "    from . import npu_impl\n"
                       "if is_torch_npu_available() and HAS_FUSED:\n"
                       "    from .npu_fused import op\n"
                       "def apply_patch():\n"
                       "    if is_torch_npu_available():\n"
                       "        from .npu_impl import npu_op\n"
                       "    else:\n"
                       "        from .npu_impl import fallback\n"
                       "    mod = importlib.import_module(\"torch_npu\")\n"
                       "try:\n"
                       "    import npu_extra\n"
                       "except ImportError:\n"
                       "    pass\n";
  EXPECT_EQ(check(Source,
                  {{"check", "guarded-import"},
                   {"module", "npu|torch_npu"},
                   {"guard", "is_torch_npu_available"}},
                  "import of `{module}` outside `if {guard}():`"),
            "src/cache_dit/kernels/_x.py:2:8: x-rule: import of `torch_npu` outside "
            "`if is_torch_npu_available():`\n"
            "src/cache_dit/kernels/_x.py:18:9: x-rule: import of `.npu_impl` outside "
            "`if is_torch_npu_available():`\n"
            "src/cache_dit/kernels/_x.py:19:11: x-rule: import of `torch_npu` outside "
            "`if is_torch_npu_available():`\n"
            "src/cache_dit/kernels/_x.py:21:12: x-rule: import of `npu_extra` outside "
            "`if is_torch_npu_available():`\n");
}

/// A tree of VeOmni op packages for the function-pointer and registration
/// checks.
void writeVeOmniOps(const TempTree &Tree) {
  Tree.write("veomni/ops/fused_moe/__init__.py",
             "from veomni.utils import is_torch_npu_available\n"
             "_fused_moe_forward = None\n"
             "def fused_moe_forward(*args):\n"
             "    if _fused_moe_forward is None:\n"
             "        raise NotImplementedError(\"call apply_veomni_fused_moe_patch() first\")\n"
             "    return _fused_moe_forward(*args)\n"
             "def apply_veomni_fused_moe_patch():\n"
             "    global _fused_moe_forward\n"
             "    from .group_gemm import group_gemm_moe\n"
             "    _fused_moe_forward = group_gemm_moe\n");
  Tree.write("veomni/ops/fused_rope/__init__.py", "_rope = None\n"
                                                  "def fused_rope(x):\n"
                                                  "    return _rope(x)\n"
                                                  "def apply_veomni_fused_rope_patch():\n"
                                                  "    from .triton_impl import rope\n"
                                                  "    _rope = rope\n");
  Tree.write("veomni/ops/loss/__init__.py", "def apply_veomni_loss_patch():\n"
                                            "    pass\n");
  Tree.write("veomni/ops/group_gemm/__init__.py", "from .kernel import group_gemm\n"
                                                  "_cache = None\n");
  Tree.write("veomni/ops/__init__.py", "from .fused_moe import fused_moe_forward\n"
                                       "from . import loss\n"
                                       "def build_ALL_OPS():\n"
                                       "    return [(\"fused_moe\", fused_moe_forward)]\n"
                                       "def apply_ops_patch():\n"
                                       "    loss.apply_veomni_loss_patch()\n");
}

TEST(PythonCheckerTest, FunctionPointerPattern) {
  TempTree Tree;
  writeVeOmniOps(Tree);
  Rule R = makeRule("veomni-pointer", "python", {"veomni/ops/*/__init__.py"},
                    {{"check", "function-pointer-pattern"}}, "`{name}` lacks {missing}");
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {R}),
            "veomni/ops/fused_rope/__init__.py:1:1: veomni-pointer: `_rope` lacks an "
            "`apply_veomni_*_patch()` function that declares `global _rope`\n"
            // The public function calls the pointer before any None check.
            "veomni/ops/fused_rope/__init__.py:3:12: veomni-pointer: `fused_rope` lacks the guard "
            "`if _rope is None: raise NotImplementedError(...)` before this call in "
            "`fused_rope()`\n"
            "veomni/ops/loss/__init__.py:1:1: veomni-pointer: `apply_veomni_loss_patch` lacks a "
            "module-level `_<op> = None` function pointer in the op package\n");
}

TEST(PythonCheckerTest, RegisteredIn) {
  TempTree Tree;
  writeVeOmniOps(Tree);
  Rule R = makeRule("veomni-registered", "python", {"veomni/ops/*/__init__.py"},
                    {{"check", "registered-in"},
                     {"function", "build_ALL_OPS"},
                     {"file", "veomni/ops/__init__.py"}},
                    "op package `{package}` is not in {function}() of {file}");
  // `loss` is imported by the registry but only apply_ops_patch uses it.
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {R}),
            "veomni/ops/fused_rope/__init__.py:4:1: veomni-registered: op package `fused_rope` "
            "is not in build_ALL_OPS() of veomni/ops/__init__.py\n"
            "veomni/ops/loss/__init__.py:1:1: veomni-registered: op package `loss` is not in "
            "build_ALL_OPS() of veomni/ops/__init__.py\n");
}

TEST(PythonCheckerTest, RegisteredInAnyOfSeveralRegistries) {
  TempTree Tree;
  writeVeOmniOps(Tree);
  Tree.write("veomni/models/auto.py",
             "def _bind(config):\n"
             "    from ..ops.fused_moe import apply_veomni_fused_moe_patch\n"
             "    apply_veomni_fused_moe_patch()\n"
             "def build_foundation_model(config):\n"
             "    _bind(config)\n");
  Rule R = makeRule(
      "veomni-called", "python", {"veomni/ops/*/__init__.py"},
      {{"check", "registered-in"},
       {"registries",
        {"veomni/ops/__init__.py:apply_ops_patch", "veomni/models/auto.py:build_foundation_model"}},
       {"registers", "patch"}},
      "`{patch}` of `{package}` is not called from {registries}");
  // fused_moe through auto.py's helper, loss from apply_ops_patch(); no one
  // calls fused_rope's patch.
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {R}),
            "veomni/ops/fused_rope/__init__.py:4:1: veomni-called: `apply_veomni_fused_rope_patch` "
            "of `fused_rope` is not called from apply_ops_patch() in veomni/ops/__init__.py or "
            "build_foundation_model() in veomni/models/auto.py\n");
}

TEST(PythonCheckerTest, ImportsEveryPackage) {
  TempTree Tree;
  writeVeOmniOps(Tree);
  Rule R = makeRule("veomni-imported", "python", {"veomni/ops/*/__init__.py"},
                    {{"check", "imports-every-package"}, {"file", "veomni/ops/__init__.py"}},
                    "`{package}` is not imported by {file}");
  // fused_moe and loss are imported; group_gemm has no patch.
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {R}),
            "veomni/ops/fused_rope/__init__.py:4:1: veomni-imported: `fused_rope` is not imported "
            "by veomni/ops/__init__.py\n");
}

TEST(PythonCheckerTest, RequiredNamesPerFileAndPerRepositoryDomain) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/attn.cpp", "");
  Tree.write("csrc/kernels/svdq/pybind.cpp", "");
  Tree.write("setup.py", "def _get_svdquant_extension(): pass\n"
                         "_get_attn_extension = None\n");
  Tree.write("src/cache_dit/kernels/_comm.py", "from types import ModuleType\n"
                                               "def comm_get_load_error(): pass\n");
  Rule Setup = makeRule("x-setup", "python", {"setup.py"},
                        {{"check", "required-names"},
                         {"domains", "csrc/kernels/*/"},
                         {"domain-map", {"svdq=svdquant"}},
                         {"names", {"_get_{domain}_extension", "_required_{domain}_sources"}}},
                        "{name} ({domain})");
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {Setup}),
            "setup.py:0:0: x-setup: _required_attn_sources (attn)\n"
            "setup.py:0:0: x-setup: _required_svdquant_sources (svdquant)\n");
  Rule Module = makeRule("x-module", "python", {Kernels},
                         {{"check", "required-names"},
                          {"file-domain", "/_([a-z]+)\\.py$"},
                          {"names", {"ModuleType", "{domain}_get_load_error", "_load"}}},
                         "{name}");
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {Module}),
            "src/cache_dit/kernels/_comm.py:0:0: x-module: _load\n");
}

TEST(PythonCheckerTest, AllListsPublicFunctions) {
  std::string Source = "from types import ModuleType\n"
                       "__all__ = ['wrapper', '_helper', 'ghost']\n"
                       "def wrapper(): pass\n"
                       "def _helper(): pass\n"
                       "def forgotten(): pass\n"
                       "class Config: pass\n";
  EXPECT_EQ(check(Source, {{"check", "all-lists-public-functions"}}, "`{name}` {problem}"),
            // Findings come in file order.
            "src/cache_dit/kernels/_x.py:2:34: x-rule: `ghost` listed in __all__ but not defined "
            "or imported\n"
            "src/cache_dit/kernels/_x.py:5:1: x-rule: `forgotten` missing from __all__\n"
            "src/cache_dit/kernels/_x.py:6:1: x-rule: `Config` missing from __all__\n");
}

TEST(PythonCheckerTest, NoCallsIn) {
  std::string Source = "import torch\n"
                       "def _call_a(out, x):\n"
                       "    tmp = torch.zeros(4)\n"
                       "    y = x.new_empty(3)\n"
                       "    return y\n"
                       "def _a(x):\n"
                       "    return torch.empty_like(x)\n";
  EXPECT_EQ(check(Source,
                  {{"check", "no-calls-in"},
                   {"functions", "^_call_"},
                   {"calls", {"^torch\\.(empty|zeros)(_like)?$", "\\.new_empty$"}}},
                  "{function} calls {call} ({returned})"),
            "src/cache_dit/kernels/_x.py:3:11: x-rule: _call_a calls torch.zeros ()\n"
            "src/cache_dit/kernels/_x.py:4:9: x-rule: _call_a calls x.new_empty (1)\n");
}

TEST(PythonCheckerTest, DefinesHaveFakes) {
  std::string Source = "import torch\n"
                       "torch.library.define('ns::a', '(Tensor x) -> Tensor')\n"
                       "torch.library.define('ns::b(Tensor x) -> Tensor')\n"
                       "@torch.library.register_fake('ns::a')\n"
                       "def _fake_a(x): return x\n";
  EXPECT_EQ(check(Source, {{"check", "defines-have-fakes"}}, "{qualname} {op} no {fake}"),
            "src/cache_dit/kernels/_x.py:3:22: x-rule: ns::b b no torch.library.register_fake\n");
}

TEST(PythonCheckerTest, ValueFollowsFile) {
  nlohmann::json Match = {{"check", "value-follows-file"},
                          {"name", "_EXTENSION_MODULE_NAME"},
                          {"must-match", "^cache_dit\\._C_{stem}$"}};
  EXPECT_EQ(check("_EXTENSION_MODULE_NAME = 'cache_dit._C_x'\n", Match, "{value}"), "");
  EXPECT_EQ(check("_EXTENSION_MODULE_NAME = 'cache_dit._C_attn'\n", Match, "{value} {stem}"),
            "src/cache_dit/kernels/_x.py:1:1: x-rule: cache_dit._C_attn x\n");
}

TEST(PythonCheckerTest, ForbiddenImportOncePerStatement) {
  std::string Source = "import importlib\n"
                       "from triton import (\n"
                       "    jit,\n"
                       "    language,\n"
                       ")\n"
                       "from cache_dit import _C_attn, other\n"
                       "s = 'import triton'\n"
                       "def f():\n"
                       "    return importlib.import_module('triton.language')\n";
  EXPECT_EQ(
      check(Source,
            {{"check", "forbidden-import"}, {"modules", {"^triton(\\.|$)", "^cache_dit\\._C_"}}},
            "{module} in '{function}'"),
      "src/cache_dit/kernels/_x.py:2:1: x-rule: triton in ''\n"
      "src/cache_dit/kernels/_x.py:6:23: x-rule: cache_dit._C_attn in ''\n"
      "src/cache_dit/kernels/_x.py:9:12: x-rule: triton.language in 'f'\n");
}

TEST(PythonCheckerTest, RaisesWithMessageFollowsTheModulesOwnCalls) {
  nlohmann::json Match = {{"check", "raises-with-message"},
                          {"function", "_get_required_ops_module"},
                          {"exception", "RuntimeError"},
                          {"message", "CACHE_DIT_BUILD_[A-Z]+=1"}};
  std::string Helper =
      "def _required():\n"
      "    raise RuntimeError('build with ' 'CACHE_DIT_BUILD_ATTN=1 pip install')\n"
      "def _get_required_ops_module():\n"
      "    return _required().ops\n";
  EXPECT_EQ(check(Helper, Match, "{function}"), "");
  std::string Vague = "def _get_required_ops_module():\n"
                      "    raise ImportError('CACHE_DIT_BUILD_ATTN=1')\n"
                      "    raise RuntimeError('not available')\n";
  EXPECT_EQ(check(Vague, Match, "{function}"),
            "src/cache_dit/kernels/_x.py:1:1: x-rule: _get_required_ops_module\n");
  EXPECT_EQ(check("def other():\n    pass\n", Match, "{function}"), "");
}

TEST(PythonCheckerTest, ModuleState) {
  std::string Source = "from types import ModuleType\n"
                       "_EXTENSION_MODULE_NAME = \"cache_dit._C_attn\"\n"
                       "_cached_extension_module: ModuleType | None = None\n"
                       "_cached_load_error = None\n"
                       "_DTYPE_IDS = {\"bf16\": 0}\n"
                       "__all__ = [\"merge\"]\n"
                       "_use_fast_path = True\n"
                       "logger = make_logger()\n"
                       "_registry: dict = {}\n"
                       "def merge(x):\n"
                       "    state = 1\n"
                       "    return x\n";
  EXPECT_EQ(check(Source, {{"check", "module-state"}}, "module-level state `{name}`"),
            "src/cache_dit/kernels/_x.py:7:1: x-rule: module-level state `_use_fast_path`\n"
            "src/cache_dit/kernels/_x.py:8:1: x-rule: module-level state `logger`\n"
            "src/cache_dit/kernels/_x.py:9:1: x-rule: module-level state `_registry`\n");
  EXPECT_EQ(check(Source, {{"check", "module-state"}, {"allow", {"^logger$"}}},
                  "module-level state `{name}`"),
            "src/cache_dit/kernels/_x.py:7:1: x-rule: module-level state `_use_fast_path`\n"
            "src/cache_dit/kernels/_x.py:9:1: x-rule: module-level state `_registry`\n");
}

TEST(PythonCheckerTest, SectionOrder) {
  std::string Source =
      "import torch\n"
      "_EXTENSION_MODULE_NAME = \"cache_dit._C_attn\"\n"
      "def _load_extension_module(): pass\n"
      "def _call_merge(x): return x\n"
      "torch.library.define(\"cache_dit_cuda_ops::merge\", \"(Tensor x) -> Tensor\")\n"
      "@torch.library.register_fake(\"cache_dit_cuda_ops::merge\")\n"
      "def _fake_merge(x): return x\n"
      "@torch.library.impl(\"cache_dit_cuda_ops::merge\", \"CUDA\")\n"
      "def _merge(x): return x\n"
      "def merge(x): return x\n"
      "def _call_quant(x): return x\n";
  EXPECT_EQ(check(Source,
                  {{"check", "section-order"},
                   {"order",
                    {"^_EXTENSION_MODULE_NAME$", "^_load_extension_module$", "^_call_",
                     "^torch\\.library\\.define$", "^@torch\\.library\\.impl$",
                     "^@torch\\.library\\.register_fake$", "^[a-z]"}}},
                  "`{name}` ({section}) comes after `{after}`"),
            "src/cache_dit/kernels/_x.py:9:1: x-rule: `_merge` (^@torch\\.library\\.impl$) comes "
            "after `_fake_merge`\n"
            "src/cache_dit/kernels/_x.py:11:1: x-rule: `_call_quant` (^_call_) comes after "
            "`merge`\n");
}

TEST(PythonCheckerTest, OneRunParsesEveryFileOnceForAllRules) {
  TempTree Tree;
  Tree.write("src/cache_dit/kernels/_attn.py", "def gemm(x): return x\n"
                                               "gemm_int4 = partial(gemm)\n");
  Tree.write("src/cache_dit/kernels/_broken.py", "def f(:\n    pass\n");
  Tree.write("src/cache_dit/kernels/notes.txt", "this = partial(not python\n");
  Tree.write("tests/test_x.py", "gemm_int4 = partial(gemm)\n");
  std::vector<Rule> Rules = {
      makeRule("x-partial", "python", {Kernels}, {{"check", "no-partial-alias"}}, "{name}"),
      makeRule("x-forbidden", "python", {"src/**/*.py", "src/**/*.txt"},
               {{"check", "forbidden-names"}, {"names", {"^gemm$"}}}, "{name}")};
  // The broken file is reported once although two rules read it.
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), Rules),
            "src/cache_dit/kernels/_attn.py:1:1: x-forbidden: gemm\n"
            "src/cache_dit/kernels/_attn.py:2:1: x-partial: gemm_int4\n"
            "src/cache_dit/kernels/_broken.py:1:7: opmig-unparsable-file: cannot parse as "
            "Python: invalid syntax; the rules that read this file skipped it\n");
}

TEST(PythonCheckerTest, ManyFilesAreSplitBetweenProcessesInFileOrder) {
  // 320 files: over the helper's threshold for two worker processes on a
  // machine with two or more CPUs; the findings must not depend on it.
  TempTree Tree;
  std::string Expected;
  for (int I = 0; I < 320; ++I) {
    char Name[64];
    std::snprintf(Name, sizeof(Name), "src/cache_dit/kernels/_m%03d.py", I);
    if (I == 250) {
      Tree.write(Name, "def broken(:\n");
      Expected += std::string(Name) + ":1:12: opmig-unparsable-file: cannot parse as Python: "
                                      "invalid syntax; the rules that read this file skipped it\n";
      continue;
    }
    Tree.write(Name, "from functools import partial\nop_" + std::to_string(I) + " = partial(f)\n");
    Expected += std::string(Name) + ":2:1: x-partial: op_" + std::to_string(I) + "\n";
  }
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(),
                       {makeRule("x-partial", "python", {Kernels}, {{"check", "no-partial-alias"}},
                                 "{name}")}),
            Expected);
}

/// Runs `Body` with PATH naming only an empty folder, so that python3 is
/// not found.
template <typename Fn> void withoutPython(Fn Body) {
  TempTree Empty;
  std::string Saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", Empty.root().c_str(), 1);
  Body();
  setenv("PATH", Saved.c_str(), 1);
}

TEST(PythonCheckerTest, MissingPythonIsAnInputErrorOnlyWhenNeeded) {
  TempTree Tree;
  Tree.write("src/cache_dit/kernels/_attn.py", "x = 1\n");
  Rule Covering = makeRule("x-state", "python", {Kernels}, {{"check", "module-state"}}, "{name}");
  Rule Idle = makeRule("x-idle", "python", {"nothing/*.py"}, {{"check", "module-state"}}, "{name}");
  withoutPython([&] {
    EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {Idle}), "");
    EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {Covering}),
              "error: python3 is not on PATH; the python rules read files through CPython's "
              "ast: install python3 (3.8 or newer) or run without python rules");
  });
}

TEST(PythonCheckerTest, AssertedNames) {
  // Only strings of tests that assert count: the import of KernelBackend
  // (a test that it exists) and the comment name nothing; the module
  // constant looped over by an asserting test does, the helper of a test
  // that asserts nothing does not.
  std::string Source = "import importlib, pytest\n"
                       "from cache_dit.kernels.backend import KernelBackend  # _resolve_backend\n"
                       "REMOVED = (\"cache_dit.kernels.ops\", \"_select_cuda_backend\")\n"
                       "ROOT = None\n"
                       "def test_modules_gone():\n"
                       "    for name in REMOVED:\n"
                       "        with pytest.raises(ImportError):\n"
                       "            importlib.import_module(name)\n"
                       "def test_file_gone():\n"
                       "    assert not (ROOT / \"kernels\" / \"backend.py\").exists()\n"
                       "def test_enum_used():\n"
                       "    print(\"KernelBackend\", \"kernels/layers.py\", KernelBackend)\n";
  EXPECT_EQ(check(Source,
                  {{"check", "asserted-names"},
                   {"names",
                    {"kernels/backend.py", "kernels/ops.py", "kernels/layers.py", "KernelBackend",
                     "_resolve_backend", "_select_*_backend"}}},
                  "no test asserts `{name}`"),
            "src/cache_dit/kernels/_x.py:0:0: x-rule: no test asserts `KernelBackend`\n"
            "src/cache_dit/kernels/_x.py:0:0: x-rule: no test asserts `_resolve_backend`\n"
            "src/cache_dit/kernels/_x.py:0:0: x-rule: no test asserts `kernels/layers.py`\n");
}

TEST(PythonCheckerTest, ExtensionSourcesOneExtensionPerFamily) {
  TempTree Tree;
  for (const char *File : {"csrc/kernels/attn/attn.cpp", "csrc/kernels/comm/fp8_a.cu",
                           "csrc/kernels/comm/fp8_b.cu", "csrc/kernels/norm/norm.cpp"})
    Tree.write(File, "");
  // comm's glob feeds two extensions; attn's comprehension one that is not
  // its host; norm (unlisted) is hosted where most of its files go; what
  // cannot be evaluated (a call of another module) adds nothing.
  Tree.write("setup.py",
             "import glob\n"
             "from torch.utils.cpp_extension import CUDAExtension as Ext\n"
             "COMM = glob.glob('csrc/kernels/comm/*.cu')\n"
             "def _attn():\n"
             "    return [f'csrc/kernels/{d}/{d}.cpp' for d in ('attn',)]\n"
             "a = Ext('cache_dit._C_comm', COMM + ['csrc/kernels/norm/norm.cpp'])\n"
             "b = Ext(name='cache_dit._C_norm', sources=[*_attn(), *COMM, *helpers.more()])\n");
  Rule R = makeRule("x-ext", "python", {"setup.py"},
                    {{"check", "extension-sources"},
                     {"root", "csrc/kernels"},
                     {"extensions", {"attn=cache_dit._C_attn", "comm=cache_dit._C_comm"}}},
                    "{file} in {extension}, host {host} ({others})");
  EXPECT_EQ(runChecker(*checkerFor("python"), Tree.root(), {R}),
            "setup.py:3:8: x-ext: csrc/kernels/comm/fp8_a.cu in cache_dit._C_norm, host "
            "cache_dit._C_comm (cache_dit._C_comm)\n"
            "setup.py:3:8: x-ext: csrc/kernels/comm/fp8_b.cu in cache_dit._C_norm, host "
            "cache_dit._C_comm (cache_dit._C_comm)\n"
            "setup.py:5:13: x-ext: csrc/kernels/attn/attn.cpp in cache_dit._C_norm, host "
            "cache_dit._C_attn ()\n");
}

TEST(PythonCheckerTest, ValidateRejectsBadMatch) {
  auto Error = [](nlohmann::json Match) {
    return validationError(*checkerFor("python"),
                           makeRule("x-rule", "python", {"**/*.py"}, Match, "m"));
  };
  EXPECT_EQ(Error({{"check", "decorated-function-name"},
                   {"decorator", "torch.library.register_fake"},
                   {"name", "^_fake_{op}$"}}),
            "");
  EXPECT_EQ(
      Error({{"check", "decorated-function-named"}}),
      "rules/x-rule.yaml:10:3: rule 'x-rule': unknown python check "
      "'decorated-function-named'; expected one of: all-equals-public-names, "
      "all-lists-public-functions, asserted-names, call-string-argument, decorated-function-name, "
      "decorator-argument, defines-have-fakes, exported-in, extension-sources, "
      "forbidden-import, "
      "forbidden-names, function-pointer-pattern, guarded-import, imports-every-package, "
      "module-state, no-calls-in, no-partial-alias, public-wrapper-calls, "
      "raises-with-message, registered-in, required-names, section-order, "
      "value-follows-file");
  // check 10, decorater 11, name 12.
  EXPECT_EQ(Error({{"check", "decorated-function-name"}, {"decorater", "x"}, {"name", "y"}}),
            "rules/x-rule.yaml:11:3: unknown key 'decorater' in 'match' of check "
            "decorated-function-name; did you mean 'decorator'?");
  EXPECT_EQ(Error({{"check", "no-partial-alias"}, {"names", {"x"}}}),
            "rules/x-rule.yaml:11:3: unknown key 'names' in 'match' of check "
            "no-partial-alias; it takes no keys");
  EXPECT_EQ(Error({{"check", "guarded-import"}, {"module", "npu"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': check guarded-import needs parameter 'guard'");
  // check 10, decorator 11, name 12.
  EXPECT_PRED2(
      startsWith,
      Error({{"check", "decorated-function-name"}, {"decorator", "d"}, {"name", "^_fake_({op}$"}}),
      "rules/x-rule.yaml:12:3: rule 'x-rule': bad regex in 'name': ");
  // check 10, names 11.
  EXPECT_PRED2(startsWith, Error({{"check", "forbidden-names"}, {"names", {"ok", "[unclosed"}}}),
               "rules/x-rule.yaml:11:3: rule 'x-rule': bad regex in 'names': ");
  // argument 10.
  EXPECT_EQ(Error({{"check", "call-string-argument"},
                   {"call", "torch.library.define"},
                   {"argument", "first"},
                   {"must-match", "x"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': parameter 'argument' must be a non-negative "
            "integer");
  EXPECT_EQ(Error({{"check", "section-order"}, {"order", "^a$"}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': parameter 'order' must be a non-empty list of "
            "strings");
  EXPECT_EQ(Error({{"check", "registered-in"}, {"function", "f"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': check registered-in needs both 'function' and "
            "'file'");
  EXPECT_EQ(Error({{"check", "registered-in"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': check registered-in needs either 'function' "
            "and 'file', or 'registries'");
  // check 10, registries 11.
  EXPECT_EQ(Error({{"check", "registered-in"}, {"registries", {"veomni/ops/__init__.py"}}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': each 'registries' entry must be "
            "FILE:FUNCTION (veomni/ops/__init__.py:apply_ops_patch), not 'veomni/ops/__init__.py'");
  EXPECT_EQ(
      Error({{"check", "registered-in"}, {"registries", {"a.py:f"}}, {"registers", "module"}}),
      "rules/x-rule.yaml:11:3: rule 'x-rule': parameter 'registers' must be 'package' or "
      "'patch', not 'module'");
  EXPECT_EQ(Error({{"check", "asserted-names"}, {"names", {"KernelBackend", "**"}}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': the name '**' is all '*': it names nothing in "
            "particular");
  EXPECT_EQ(Error({{"check", "asserted-names"}, {"names", {"kernels/ops.py KernelBackend"}}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': the name 'kernels/ops.py KernelBackend' holds "
            "white space; give one name or path per entry");
  EXPECT_EQ(
      Error({{"check", "extension-sources"}, {"root", "csrc/kernels"}, {"extensions", {"attn"}}}),
      "rules/x-rule.yaml:11:3: rule 'x-rule': each 'extensions' entry must be FOLDER=MODULE "
      "(attn=cache_dit._C_attn), not 'attn'");
  EXPECT_EQ(Error({{"check", "required-names"}, {"names", {"{domain}_x"}}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': the name '{domain}_x' holds {domain}: add "
            "'domains' or 'file-domain'");
  EXPECT_EQ(Error({{"check", "required-names"}, {"names", {"x"}}, {"domains", "a/b/"}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': 'domains' must be a glob with exactly one "
            "'*', not 'a/b/'");
  EXPECT_EQ(Error({{"check", "required-names"},
                   {"names", {"x"}},
                   {"domains", "a/*/"},
                   {"domain-map", {"svdq"}}}),
            "rules/x-rule.yaml:11:3: rule 'x-rule': each 'domain-map' entry must be FOLDER=NAME "
            "(svdq=svdquant), not 'svdq'");
  EXPECT_PRED2(startsWith,
               Error({{"check", "value-follows-file"}, {"name", "N"}, {"must-match", "^({stem}$"}}),
               "rules/x-rule.yaml:11:3: rule 'x-rule': bad regex in 'must-match': ");
  EXPECT_PRED2(startsWith,
               Error({{"check", "no-calls-in"}, {"functions", "^_call_"}, {"calls", {"(x"}}}),
               "rules/x-rule.yaml:10:3: rule 'x-rule': bad regex in 'calls': ");
}

} // namespace
} // namespace opmig::audit
