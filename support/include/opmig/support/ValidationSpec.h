//===- ValidationSpec.h - What validating a migrated op needs ---*- C++ -*-===//
//
// `opmig-validation-spec.json` sits beside the manifest. `opmig migrate`
// writes it, filled as far as the entry's C++ tells; the user fills the rest
// and corrects what is wrong; `opmig validate` reads it to build the cases of
// its fake, smoke, parity and boundary layers. Per op: the inputs (shapes
// over named dims, dtypes, value ranges, contiguity, device), constraints
// over the dims (`head_size % 8 == 0`, SpecExpression.h), the outputs, the
// reference, tolerances per dtype and concrete cases.
//
// Every value the user may set says where it came from, so that a validator
// can tell which parts of a case the code proved and which a person chose:
//
//   "shape":  {"code": ["tokens", "heads", "head_size"], "at": "csrc/a.cu:12:3"}
//   "range":  "TODO"                      not derived; the user fills it
//   "range":  {"user": [-1, 1]}           set by the user; kept on re-runs
//   "tolerances": {"default": {...}}      opmig's default, not from the code
//
// A re-run of migrate merges (mergeValidationSpecs): user values win,
// code-derived and default values are refreshed, TODOs stay TODO.
//
// The format is docs/validation-spec.md, its JSON schema
// docs/validation-spec.schema.json.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_VALIDATIONSPEC_H
#define OPMIG_SUPPORT_VALIDATIONSPEC_H

#include "opmig/support/ConfigDocument.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace opmig {

inline constexpr const char *ValidationSpecSchemaVersion = "opmig.validation-spec/1";
inline constexpr const char *ValidationSpecFileName = "opmig-validation-spec.json";

/// Where a value came from.
enum class ValueSource {
  Todo,    ///< Not derived and not filled: `"TODO"`.
  Code,    ///< Derived by opmig from the entry's C++.
  Default, ///< opmig's default (tolerances), not read from the code.
  User,    ///< Set by the user.
};

const char *toString(ValueSource S);

/// A value with its provenance. `Value` is meaningful unless `Source` is
/// Todo; `At` is the `file:line:col` a code-derived value was read from.
template <typename T> struct Sourced {
  ValueSource Source = ValueSource::Todo;
  T Value{};
  std::string At;

  bool known() const { return Source != ValueSource::Todo; }
  static Sourced code(T V, std::string At) { return {ValueSource::Code, std::move(V), At}; }
  static Sourced user(T V) { return {ValueSource::User, std::move(V), ""}; }
  static Sourced byDefault(T V) { return {ValueSource::Default, std::move(V), ""}; }
};

/// The dtypes a tensor input accepts: a list (`float16`, `bfloat16`, ...),
/// or whatever dtype another input has (`{"same_as": "x"}`).
struct DtypeSet {
  std::vector<std::string> Names;
  std::string SameAs; ///< Non-empty: the dtype of that input.
};

/// The values a case fills an input with, inclusive.
struct ValueRange {
  double Low = 0;
  double High = 0;
};

/// The first dim of a shape that takes any number of leading dims
/// (`["...", "hidden"]`: a norm over the last dim of a tensor of any rank).
/// A case gives it one dim of the size it sets for `...`, or none.
inline constexpr const char *LeadingDims = "...";

struct SpecInput {
  std::string Name;
  std::string Type; ///< The schema type (`Tensor`, `float`, `int?`).
  bool IsTensor = false;
  /// Tensor inputs only: each dim a name (`B`) or a size (`3`), after an
  /// optional LeadingDims.
  Sourced<std::vector<std::string>> Shape;
  Sourced<DtypeSet> Dtypes;
  Sourced<bool> Contiguous;
  Sourced<std::string> Device; ///< `cuda` or `cpu`.
  Sourced<ValueRange> Range;   ///< Where hasValueRange(Type).
};

/// What the op writes: a result (by index) or a tensor argument.
struct SpecOutput {
  std::optional<unsigned> Result;
  std::string Argument; ///< The written argument, or the one a result aliases.
  /// Arguments only: whether the op reads the argument's old contents (so
  /// a parity run must fill it like an input).
  Sourced<bool> InPlace;
};

/// A function computing the op's results from the same inputs with plain
/// torch: `package.module:function` in Python, or a qualified libtorch C++
/// function (`ns::reference`).
struct SpecReference {
  std::string Python;
  std::string Cpp;
};

struct Tolerance {
  double Atol = 0;
  double Rtol = 0;
};

/// Where the user says the migration changed the math on purpose: the diff
/// layer (`opmig validate --source`) then compares with the upstream build
/// within these tolerances instead of bitwise, for the named cases (all
/// when none is named). Never derived: `{"user": ...}` only in practice.
struct SpecUpstreamDiff {
  std::string Reason; ///< Why the math changed; shown in the report.
  std::vector<std::string> Cases;
  std::map<std::string, Tolerance> Tolerances;
};

/// One concrete case: a value per dim, the dtypes it runs for (all the op
/// accepts when empty), and a value per scalar input.
struct SpecCase {
  std::string Name;
  std::map<std::string, int64_t> Dims;
  std::vector<std::string> Dtypes;
  std::map<std::string, double> Scalars;
};

struct SpecOp {
  std::string Name;
  std::string Schema; ///< From the code, always (the manifest's).
  std::vector<SpecInput> Inputs;
  /// Boolean expressions over the dims (SpecExpression.h).
  std::vector<Sourced<std::string>> Constraints;
  std::vector<SpecOutput> Outputs; ///< From the schema, always.
  Sourced<SpecReference> Reference;
  Sourced<std::map<std::string, Tolerance>> Tolerances;
  Sourced<std::vector<SpecCase>> Cases;
  /// Optional (`upstream_diff`); TODO, and not written, when absent.
  Sourced<SpecUpstreamDiff> UpstreamDiff;

  const SpecInput *input(llvm::StringRef InputName) const;
  /// Every dim name the shapes and constraints use, sorted; not
  /// LeadingDims.
  std::vector<std::string> dimNames() const;
};

struct ValidationSpec {
  std::string Domain;
  std::vector<SpecOp> Ops;

  const SpecOp *op(llvm::StringRef OpName) const;
};

/// Whether an input of schema type `Type` is one tensor (`Tensor`,
/// `Tensor(a!)`, `Tensor?`), which has a shape and dtypes; a `Tensor[]` is
/// not.
bool isTensorSchemaType(llvm::StringRef Type);

/// Whether a shape's dim is a size (`3`) rather than a dim name (`B`).
bool isSizeDim(llvm::StringRef Dim);

/// Whether a shape starts with LeadingDims.
bool hasLeadingDims(const std::vector<std::string> &Shape);

/// Whether values of schema type `Type` have a range: tensors and numbers
/// (`int`, `float`, `SymInt`, `Scalar`, optional or not), not `bool` or
/// `str`.
bool hasValueRange(llvm::StringRef Type);

/// The dtype names a spec accepts (`float16`, `bfloat16`, `float32`, ...),
/// as torch spells them after `torch.`.
llvm::ArrayRef<llvm::StringRef> knownDtypes();

/// `torch.testing.assert_close`'s default tolerances for the float dtypes
/// (`float16`: atol 1e-5, rtol 1e-3; `bfloat16`: 1e-5, 1.6e-2; `float32`:
/// 1e-5, 1.3e-6; `float64`: 1e-7, 1e-7).
std::map<std::string, Tolerance> defaultTolerances();

/// The spec as pretty-printed JSON, ending in a newline; deterministic, in
/// the order of the format's description.
std::string serializeValidationSpec(const ValidationSpec &Spec);

/// Parses a spec, JSON or YAML, through the config reader: every problem
/// is an InputError `FILE:LINE:COL: problem` (unknown keys with `did you
/// mean`, bad values, constraints that do not parse or name no dim, cases
/// that break a constraint).
llvm::Expected<ValidationSpec> parseValidationSpec(llvm::StringRef Text, ConfigSyntax Syntax,
                                                   const std::string &File);

/// Reads the spec at `Path`; YAML when it ends in `.yaml` or `.yml`, JSON
/// otherwise.
llvm::Expected<ValidationSpec> readValidationSpec(const std::string &Path);

/// What a re-run of migrate writes: `Derived` (this run's spec, from the
/// code) with every user value of `Previous` kept: user fields of inputs
/// and outputs that still exist, user constraints, and the op's user
/// reference, tolerances and cases. Ops and inputs the code no longer has
/// are dropped with their values.
ValidationSpec mergeValidationSpecs(const ValidationSpec &Derived, const ValidationSpec &Previous);

} // namespace opmig

#endif
