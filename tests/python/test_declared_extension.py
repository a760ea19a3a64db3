"""validators/python/declared_extension.py: what a cache-dit setup.py block
and a veomni cuda_impl.py declare about a domain's extension
(DeclaredExtension.cpp reads `name`, `sources`, `include_dirs`, `cxx`, `nvcc`
or `error`)."""

import textwrap
import unittest

from helper_loader import load, run_embedded

SCRIPT = "validators/python/declared_extension.py"
declared = load(SCRIPT, "declared_extension")

BLOCK = textwrap.dedent(
    """\
    def _required_attn_sources() -> list[str]:
        return [
            "csrc/kernels/attn/attn.cpp",
            "csrc/kernels/attn/merge.cu",
        ]


    def _attn_gencode_flags() -> list[str]:
        raw = os.environ.get("CACHE_DIT_CUDA_ARCH_LIST")
        return [f"-gencode=arch=compute_{raw},code=sm_{raw}"]


    def _get_attn_extension():
        if os.environ.get("CACHE_DIT_BUILD_ATTN", "0") != "1":
            return None
        from torch.utils.cpp_extension import CUDAExtension

        root = os.path.dirname(os.path.abspath(__file__))
        flags = ["-O3", "-std=c++20", "-DATTN=1", ]
        return CUDAExtension(
            name="cache_dit._C_attn",
            sources=_required_attn_sources(),
            include_dirs=[os.path.join(root, d) for d in ("csrc/kernels", "csrc/third_party/x", )],
            extra_compile_args={"cxx": flags, "nvcc": [*flags, "--expt-relaxed-constexpr",
                                                       *_attn_gencode_flags()]},
        )
    """
)


class SetupBlockTest(unittest.TestCase):
    def test_the_extension_call_is_evaluated_through_the_blocks_helpers(self):
        answer = declared.setup_declaration(BLOCK, "attn")
        self.assertEqual(
            answer,
            {
                "name": "cache_dit._C_attn",
                "sources": ["csrc/kernels/attn/attn.cpp", "csrc/kernels/attn/merge.cu"],
                "include_dirs": ["csrc/kernels", "csrc/third_party/x"],
                "cxx": ["-O3", "-std=c++20", "-DATTN=1"],
                "nvcc": ["-O3", "-std=c++20", "-DATTN=1", "--expt-relaxed-constexpr", "{gencode}"],
            },
        )

    def test_a_module_level_root_joins_like_the_local_one(self):
        block = textwrap.dedent(
            """\
            def _get_comm_extension():
                return CUDAExtension(
                    name="cache_dit._C_comm",
                    sources=["csrc/kernels/comm/comm.cu"],
                    include_dirs=[os.path.join(ROOT, "csrc", "kernels")],
                    extra_compile_args={"nvcc": ["-O3"]},
                )
            """
        )
        answer = declared.setup_declaration(block, "comm")
        self.assertEqual(answer["include_dirs"], ["csrc/kernels"])
        self.assertEqual(answer["cxx"], [])

    def test_a_path_outside_the_root_is_refused(self):
        block = BLOCK.replace("os.path.join(root, d)", "os.path.join('/opt', d)")
        with self.assertRaises(declared.Unsupported) as caught:
            declared.setup_declaration(block, "attn")
        self.assertIn("not below the repository root", str(caught.exception))

    def test_a_block_without_the_getter_says_so(self):
        self.assertEqual(
            declared.setup_declaration("x = 1\n", "attn"),
            {"error": "the block defines no _get_attn_extension()"},
        )


CUDA_IMPL = textwrap.dedent(
    """\
    import os
    from types import ModuleType

    _CSRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")
    _SOURCES = (
        "norm.cpp",
        "norm/rms_norm.cu",
    )
    _cached_extension_module: ModuleType | None = None


    def _load_extension_module():
        global _cached_extension_module
        if _cached_extension_module is None:
            from torch.utils.cpp_extension import load

            _cached_extension_module = load(
                name="veomni_norm_cuda",
                sources=[os.path.join(_CSRC_DIR, source) for source in _SOURCES],
                extra_cflags=["-O3", "-std=c++20", ],
                extra_cuda_cflags=["-O3", "-std=c++20", "--use_fast_math", ],
                extra_include_paths=[os.path.join(_CSRC_DIR, "third_party/cutlass/include"), ],
            )
        return _cached_extension_module
    """
)


class JitLoadTest(unittest.TestCase):
    def test_the_load_call_is_evaluated_through_the_modules_names(self):
        answer = declared.jit_declaration(CUDA_IMPL, "veomni/ops/norm")
        self.assertEqual(
            answer,
            {
                "name": "veomni_norm_cuda",
                "sources": [
                    "veomni/ops/norm/csrc/norm.cpp",
                    "veomni/ops/norm/csrc/norm/rms_norm.cu",
                ],
                "include_dirs": ["veomni/ops/norm/csrc/third_party/cutlass/include"],
                "cxx": ["-O3", "-std=c++20"],
                "nvcc": ["-O3", "-std=c++20", "--use_fast_math", "{gencode}"],
            },
        )

    def test_a_qualified_load_with_plain_lists_and_no_flags(self):
        impl = textwrap.dedent(
            """\
            import torch.utils.cpp_extension
            HERE = os.path.dirname(os.path.abspath(__file__))


            def build():
                sources = [os.path.join(HERE, "k.cu")]
                return torch.utils.cpp_extension.load(name="ext", sources=sources)
            """
        )
        answer = declared.jit_declaration(impl, "pkg/op")
        self.assertEqual(answer["sources"], ["pkg/op/k.cu"])
        self.assertEqual(
            (answer["cxx"], answer["nvcc"], answer["include_dirs"]), ([], ["{gencode}"], [])
        )

    def test_a_source_that_leaves_the_root_is_refused(self):
        impl = CUDA_IMPL.replace('"norm.cpp"', '"../../../../../norm.cpp"')
        with self.assertRaises(declared.Unsupported) as caught:
            declared.jit_declaration(impl, "veomni/ops/norm")
        self.assertIn("leaves the repository root", str(caught.exception))

    def test_sources_the_reader_cannot_follow_are_an_error_not_a_guess(self):
        impl = CUDA_IMPL.replace("for source in _SOURCES", "for source in sorted(_SOURCES)")
        with self.assertRaises(declared.Unsupported) as caught:
            declared.jit_declaration(impl, "veomni/ops/norm")
        self.assertIn("cannot follow a call of sorted", str(caught.exception))

    def test_a_module_without_a_load_says_so(self):
        self.assertEqual(
            declared.jit_declaration("import torch\n", "veomni/ops/norm"),
            {"error": "no function calls torch.utils.cpp_extension.load(...)"},
        )


class EmbeddedTest(unittest.TestCase):
    def test_runs_as_opmig_runs_it(self):
        answer = run_embedded(SCRIPT, ["setup", "attn"], BLOCK.encode())
        self.assertEqual(answer["name"], "cache_dit._C_attn")

    def test_a_jit_load_runs_as_opmig_runs_it(self):
        answer = run_embedded(SCRIPT, ["jit", "veomni/ops/norm"], CUDA_IMPL.encode())
        self.assertEqual(answer["name"], "veomni_norm_cuda")

    def test_a_syntax_error_is_an_answer_with_its_line(self):
        answer = run_embedded(SCRIPT, ["setup", "attn"], b"def _get_attn_extension(:\n")
        self.assertTrue(answer["error"].startswith("line 1: "), answer)


if __name__ == "__main__":
    unittest.main()
