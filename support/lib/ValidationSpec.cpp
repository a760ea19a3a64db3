//===- ValidationSpec.cpp - The spec's values and its writer --------------===//

#include "opmig/support/ValidationSpec.h"

#include "nlohmann/json.hpp"
#include "opmig/support/JsonText.h"
#include "opmig/support/SpecExpression.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

namespace opmig {

// Ordered, so that the file reads in the order docs/validation-spec.md
// describes it.
using Json = nlohmann::ordered_json;

const char *toString(ValueSource S) {
  switch (S) {
  case ValueSource::Todo:
    return "TODO";
  case ValueSource::Code:
    return "code";
  case ValueSource::Default:
    return "default";
  case ValueSource::User:
    return "user";
  }
  return "TODO";
}

bool isTensorSchemaType(llvm::StringRef Type) {
  return Type.starts_with("Tensor") && !Type.contains('[');
}

bool isSizeDim(llvm::StringRef Dim) { return !Dim.empty() && llvm::all_of(Dim, llvm::isDigit); }

bool hasLeadingDims(const std::vector<std::string> &Shape) {
  return !Shape.empty() && Shape.front() == LeadingDims;
}

bool hasValueRange(llvm::StringRef Type) {
  if (isTensorSchemaType(Type))
    return true;
  Type.consume_back("?");
  return llvm::is_contained({"int", "float", "SymInt", "Scalar"}, Type);
}

llvm::ArrayRef<llvm::StringRef> knownDtypes() {
  static const llvm::StringRef Names[] = {
      "bool",        "uint8",           "int8",           "int16",      "uint16",
      "int32",       "int64",           "float16",        "bfloat16",   "float32",
      "float64",     "complex32",       "complex64",      "complex128", "float8_e4m3fn",
      "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"};
  return Names;
}

std::map<std::string, Tolerance> defaultTolerances() {
  return {{"float16", {1e-5, 1e-3}},
          {"bfloat16", {1e-5, 1.6e-2}},
          {"float32", {1e-5, 1.3e-6}},
          {"float64", {1e-7, 1e-7}}};
}

const SpecInput *SpecOp::input(llvm::StringRef InputName) const {
  for (const SpecInput &In : Inputs)
    if (In.Name == InputName)
      return &In;
  return nullptr;
}

std::vector<std::string> SpecOp::dimNames() const {
  std::set<std::string> Names;
  for (const SpecInput &In : Inputs)
    if (In.Shape.known())
      for (const std::string &Dim : In.Shape.Value)
        if (!isSizeDim(Dim) && Dim != LeadingDims)
          Names.insert(Dim);
  for (const Sourced<std::string> &Constraint : Constraints)
    if (llvm::Expected<SpecExpression> E = SpecExpression::parse(Constraint.Value))
      for (std::string &Name : E->names())
        Names.insert(std::move(Name));
    else
      llvm::consumeError(E.takeError());
  return {Names.begin(), Names.end()};
}

const SpecOp *ValidationSpec::op(llvm::StringRef OpName) const {
  for (const SpecOp &Op : Ops)
    if (Op.Name == OpName)
      return &Op;
  return nullptr;
}

namespace {

Json toJson(const std::vector<std::string> &Shape) {
  Json Dims = Json::array();
  for (const std::string &Dim : Shape) {
    int64_t Size = 0;
    if (!llvm::StringRef(Dim).getAsInteger(10, Size))
      Dims.push_back(Size);
    else
      Dims.push_back(Dim);
  }
  return Dims;
}

Json toJson(const DtypeSet &Dtypes) {
  if (!Dtypes.SameAs.empty())
    return {{"same_as", Dtypes.SameAs}};
  return Dtypes.Names;
}

Json toJson(bool Value) { return Value; }
Json toJson(const std::string &Value) { return Value; }
Json toJson(const ValueRange &Range) { return {Range.Low, Range.High}; }

Json toJson(const SpecReference &Reference) {
  if (!Reference.Python.empty())
    return {{"python", Reference.Python}};
  return {{"cpp", Reference.Cpp}};
}

Json toJson(const std::map<std::string, Tolerance> &Tolerances) {
  Json Out = Json::object();
  for (const auto &[Dtype, T] : Tolerances)
    Out[Dtype] = {{"atol", T.Atol}, {"rtol", T.Rtol}};
  return Out;
}

Json toJson(const SpecUpstreamDiff &Diff) {
  Json Out = {{"reason", Diff.Reason}};
  if (!Diff.Cases.empty())
    Out["cases"] = Diff.Cases;
  Out["tolerances"] = toJson(Diff.Tolerances);
  return Out;
}

Json toJson(const std::vector<SpecCase> &Cases) {
  Json Out = Json::array();
  for (const SpecCase &Case : Cases) {
    Json C = {{"name", Case.Name}, {"dims", Case.Dims}};
    if (!Case.Dtypes.empty())
      C["dtypes"] = Case.Dtypes;
    if (!Case.Scalars.empty())
      C["scalars"] = Case.Scalars;
    Out.push_back(std::move(C));
  }
  return Out;
}

template <typename T> Json sourced(const Sourced<T> &Field) {
  switch (Field.Source) {
  case ValueSource::Todo:
    return "TODO";
  case ValueSource::Code: {
    Json Out = {{"code", toJson(Field.Value)}};
    if (!Field.At.empty())
      Out["at"] = Field.At;
    return Out;
  }
  case ValueSource::Default:
    return {{"default", toJson(Field.Value)}};
  case ValueSource::User:
    return {{"user", toJson(Field.Value)}};
  }
  return "TODO";
}

Json toJson(const SpecInput &In) {
  Json Out = {{"name", In.Name}, {"type", In.Type}};
  if (In.IsTensor) {
    Out["shape"] = sourced(In.Shape);
    Out["dtypes"] = sourced(In.Dtypes);
    Out["contiguous"] = sourced(In.Contiguous);
    Out["device"] = sourced(In.Device);
  }
  if (hasValueRange(In.Type) || In.Range.known())
    Out["range"] = sourced(In.Range);
  return Out;
}

Json toJson(const SpecOutput &Output) {
  Json Out = Json::object();
  if (Output.Result) {
    Out["result"] = *Output.Result;
    if (!Output.Argument.empty())
      Out["aliases"] = Output.Argument;
    return Out;
  }
  Out["argument"] = Output.Argument;
  Out["in_place"] = sourced(Output.InPlace);
  return Out;
}

Json toJson(const SpecOp &Op) {
  Json Inputs = Json::array(), Constraints = Json::array(), Outputs = Json::array();
  for (const SpecInput &In : Op.Inputs)
    Inputs.push_back(toJson(In));
  for (const Sourced<std::string> &Constraint : Op.Constraints)
    Constraints.push_back(sourced(Constraint));
  for (const SpecOutput &Output : Op.Outputs)
    Outputs.push_back(toJson(Output));
  Json Out = {{"name", Op.Name},
              {"schema", Op.Schema},
              {"inputs", std::move(Inputs)},
              {"constraints", std::move(Constraints)},
              {"outputs", std::move(Outputs)},
              {"reference", sourced(Op.Reference)},
              {"tolerances", sourced(Op.Tolerances)},
              {"cases", sourced(Op.Cases)}};
  // Optional: written only when the user gave it.
  if (Op.UpstreamDiff.known())
    Out["upstream_diff"] = sourced(Op.UpstreamDiff);
  return Out;
}

} // namespace

std::string serializeValidationSpec(const ValidationSpec &Spec) {
  Json Ops = Json::array();
  for (const SpecOp &Op : Spec.Ops)
    Ops.push_back(toJson(Op));
  Json Out = {
      {"schema", ValidationSpecSchemaVersion}, {"domain", Spec.Domain}, {"ops", std::move(Ops)}};
  return dumpJson(Out, 2) + "\n";
}

} // namespace opmig
