//===- OpSignature.h - Op schema and fake derived from C++ ------*- C++ -*-===//
//
// Reads an entry's C++ signature and host body from the AST and derives what
// the generated registration glue needs:
//
//   std::tuple<at::Tensor, at::Tensor>       schema: (Tensor v_a, Tensor lse_a)
//   merge(const at::Tensor &v_a,                     -> (Tensor, Tensor)
//         const at::Tensor &lse_a) {          fake:   (torch.empty_like(v_a),
//     at::Tensor out = at::empty_like(v_a);            lse_a.new_empty((v_a.shape[0],)))
//     at::Tensor l = at::empty({v_a.size(0)},
//                              lse_a.options());
//     return {out, l};
//   }
//
// Types map as torch's schema language wants them: `at::Tensor` and
// `torch::Tensor` -> `Tensor`, non-const references -> `Tensor(a!)`,
// `std::optional<Tensor>` -> `Tensor?`, `int64_t` -> `int`, `double` ->
// `float`, `bool`, `c10::ScalarType` -> `ScalarType`, ... A tensor taken by
// value, by const reference or as an optional is `Tensor(a!)` / `Tensor(a!)?`
// when the body writes it (`out.copy_(x)`, `at::mm_out(out, a, b)`, its
// `data_ptr` passed to a kernel's `float *`; TensorWrites.h has the rules),
// each mutable tensor in its own alias set (`a`, `b`, ...), as are those the
// user declares written (`DeclaredWrites`). A fake is derived
// only where the output shape is evident from the host code (an out
// parameter, `empty_like(x)`, `at::empty({...})` of input sizes); otherwise
// `FakeDerived` is false and `FakeReason` says why: never a guessed shape.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_OPSIGNATURE_H
#define OPMIG_MIGRATE_OPSIGNATURE_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/support/ValidationSpec.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

struct OpParam {
  std::string Name;
  std::string CppType;      ///< As declared, e.g. `const at::Tensor &`.
  std::string SchemaType;   ///< e.g. `Tensor`, `Tensor(a!)`, `int?`.
  std::string PyAnnotation; ///< e.g. `torch.Tensor`, `int | None`.
  bool IsTensor = false;
  /// Written by the op: a non-const `at::Tensor &`, or a tensor (by value,
  /// by const reference, `std::optional`) that the body writes by the rules
  /// of TensorWrites.h. Its schema type carries an alias set: `Tensor(a!)`,
  /// `Tensor(a!)?`.
  bool Mutable = false;
  /// Why it is mutable: `a non-const reference`, or the first write found
  /// (`` `copy_` called on it ``); empty when not mutable.
  std::string MutableBecause;
  /// The type torch's dispatcher passes when `CppType` cannot be registered
  /// (`double` for `float`), and the argument an adapter passes upstream
  /// (`static_cast<float>(scale)`); both empty when it can.
  std::string BoxedCppType, AdapterArg;
};

/// A shape check a generated fake makes before it allocates
/// (FakeChecks.h): a condition over the parameters, and the message when it
/// fails, in Python (for `torch._check`) and C++ (for `TORCH_CHECK`).
struct FakeCheck {
  std::string PythonCondition; ///< `x.size(1) % 8 == 0`
  /// A Python string expression (an f-string): `f"f: ... got {x.size(1)}"`.
  std::string PythonMessage;
  std::string CppCondition; ///< `x.size(1) % 8 == 0`
  /// TORCH_CHECK's message arguments: `"f: ... got ", x.size(1)`.
  std::string CppMessage;
};

struct OpSignature {
  std::string OpName;      ///< Registered op name, e.g. `merge_attn_states`.
  std::string CppFunction; ///< Upstream qualified function name.
  std::vector<OpParam> Params;
  std::vector<std::string> Returns; ///< Schema types; empty for `()`.
  std::string Schema;               ///< `(Tensor v_a, ...) -> (Tensor, Tensor)`.
  std::string PyReturn;             ///< e.g. `tuple[torch.Tensor, torch.Tensor]`, `None`.
  /// `<return type> <unqualified name>(<params>)` as upstream declares it,
  /// for generated headers.
  std::string CppDeclaration;
  /// The same with the types the dispatcher passes, for adapters and Meta
  /// kernels; equal to `CppDeclaration` unless `NeedsAdapter`.
  std::string BoxedDeclaration;
  /// Whether a `TORCH_LIBRARY` registration needs an adapter: a parameter
  /// or the result has a type the dispatcher does not pass as declared.
  bool NeedsAdapter = false;

  /// Non-empty when the op returns nothing and no tensor parameter is seen
  /// written, so that its schema says it does nothing: why, and what to do.
  std::string WritesUnseen;
  bool FakeDerived = false;
  std::string FakeReason; ///< Why no fake was derived; empty when derived.
  /// Python expression of the fake's result in terms of the parameter
  /// names (e.g. `(torch.empty_like(v_a), ...)`), or `None` for ops that
  /// only write their out parameters. Empty when not derived.
  std::string FakePython;
  /// The same as C++ statements of a Meta kernel body, with the same
  /// parameter names (e.g. `return {at::empty_like(v_a), ...};`).
  std::string FakeCpp;
  /// The op's starting entry in the validation spec: what the signature
  /// and the body's checks tell (SpecDerivation.h), TODO for the rest.
  SpecOp Validation;
  /// The shape checks of its fake, from what `Validation` read from the
  /// code (ranks, shared and literal sizes, constraints), so that the fake
  /// rejects the shapes the kernel rejects.
  std::vector<FakeCheck> FakeChecks;
  /// Shapes of stand-in tensors that pass FakeChecks, by parameter name
  /// (StandInShapes.h); none when one size cannot satisfy the constraints.
  std::optional<std::map<std::string, std::vector<int64_t>>> StandInShapes;
};

struct SignatureRequest {
  std::string SourceRoot; ///< Absolute real path of the upstream tree.
  /// The resolved entries (AnalysisResult::Entries), each with the op name
  /// to register it under in `OpNames` (same order).
  std::vector<analyze::ResolvedEntry> Entries;
  std::vector<std::string> OpNames;
  std::map<std::string, std::vector<std::string>> TUFlags; ///< By relative path.
  /// Flags of the tree's other TUs (AnalysisResult::OtherTUFlags): with
  /// `TUFlags`, they let the parse choose the analysis' shared preamble.
  std::map<std::string, std::vector<std::string>> OtherTUFlags;
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExternalDirs;
  /// Tensor parameters the user says an op writes, by op name: writes the
  /// code hides from the analysis (through a function defined in another
  /// file). Each becomes `Tensor(a!)`; a name that is no tensor parameter
  /// of the op, or an op not registered, is an InputError.
  std::map<std::string, std::vector<std::string>> DeclaredWrites;
  /// The pointer fields the tree's code writes through
  /// (AnalysisResult::WrittenPointerFields): a tensor whose data pointer is
  /// stored in one is written.
  std::set<std::string> WrittenPointerFields;
  /// The analysis' cache folder: the signatures of each parse are kept
  /// there (SignatureCache.h); empty: none.
  std::string CacheDir;
  /// Parse with the analysis' shared preamble found in `CacheDir`
  /// (AnalyzeOptions::UsePreamble); the signatures are the same.
  bool UsePreamble = true;
  unsigned Jobs = 0; ///< For a preamble build, as the analysis' `-j`.
};

/// How many parses deriveSignatures ran (of those, with the shared
/// preamble), and answered from the cache.
struct SignatureParses {
  unsigned Run = 0, Cached = 0, WithPreamble = 0;
};

/// Derives one signature per entry. An entry whose signature has a type the
/// schema language cannot express fails with an InputError naming the
/// entry, the parameter and its type.
llvm::Expected<std::vector<OpSignature>> deriveSignatures(const SignatureRequest &Request,
                                                          SignatureParses *Parses = nullptr);

} // namespace opmig::migrate

#endif
