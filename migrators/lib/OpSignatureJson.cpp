#include "OpSignatureJson.h"

#include "opmig/support/ConfigDocument.h"

namespace opmig::migrate {

using nlohmann::json;

namespace {

json paramJson(const OpParam &P) {
  return {{"name", P.Name},
          {"cpp_type", P.CppType},
          {"schema_type", P.SchemaType},
          {"py_annotation", P.PyAnnotation},
          {"is_tensor", P.IsTensor},
          {"mutable", P.Mutable},
          {"mutable_because", P.MutableBecause},
          {"boxed_cpp_type", P.BoxedCppType},
          {"adapter_arg", P.AdapterArg}};
}

OpParam paramFrom(const json &J) {
  OpParam P;
  P.Name = J.at("name").get<std::string>();
  P.CppType = J.at("cpp_type").get<std::string>();
  P.SchemaType = J.at("schema_type").get<std::string>();
  P.PyAnnotation = J.at("py_annotation").get<std::string>();
  P.IsTensor = J.at("is_tensor").get<bool>();
  P.Mutable = J.at("mutable").get<bool>();
  P.MutableBecause = J.at("mutable_because").get<std::string>();
  P.BoxedCppType = J.at("boxed_cpp_type").get<std::string>();
  P.AdapterArg = J.at("adapter_arg").get<std::string>();
  return P;
}

/// The op's spec as the spec file holds it, alone in a spec.
std::string specText(const SpecOp &Op) {
  ValidationSpec Spec;
  Spec.Domain = "cache";
  Spec.Ops.push_back(Op);
  return serializeValidationSpec(Spec);
}

std::optional<SpecOp> specFrom(const std::string &Text) {
  llvm::Expected<ValidationSpec> Spec =
      parseValidationSpec(Text, ConfigSyntax::Json, "<rewrite cache>");
  if (!Spec) {
    llvm::consumeError(Spec.takeError());
    return std::nullopt;
  }
  if (Spec->Ops.size() != 1)
    return std::nullopt;
  return std::move(Spec->Ops.front());
}

} // namespace

json opSignatureJson(const OpSignature &Sig) {
  json Params = json::array(), Checks = json::array();
  for (const OpParam &P : Sig.Params)
    Params.push_back(paramJson(P));
  for (const FakeCheck &C : Sig.FakeChecks)
    Checks.push_back({C.PythonCondition, C.PythonMessage, C.CppCondition, C.CppMessage});
  json J = {{"op_name", Sig.OpName},
            {"cpp_function", Sig.CppFunction},
            {"params", Params},
            {"returns", Sig.Returns},
            {"schema", Sig.Schema},
            {"py_return", Sig.PyReturn},
            {"cpp_declaration", Sig.CppDeclaration},
            {"boxed_declaration", Sig.BoxedDeclaration},
            {"needs_adapter", Sig.NeedsAdapter},
            {"writes_unseen", Sig.WritesUnseen},
            {"fake_derived", Sig.FakeDerived},
            {"fake_reason", Sig.FakeReason},
            {"fake_python", Sig.FakePython},
            {"fake_cpp", Sig.FakeCpp},
            {"validation", specText(Sig.Validation)},
            {"fake_checks", Checks}};
  if (Sig.StandInShapes)
    J["stand_in_shapes"] = *Sig.StandInShapes;
  return J;
}

std::optional<OpSignature> opSignatureFromJson(const json &J) {
  try {
    OpSignature Sig;
    Sig.OpName = J.at("op_name").get<std::string>();
    Sig.CppFunction = J.at("cpp_function").get<std::string>();
    for (const json &P : J.at("params"))
      Sig.Params.push_back(paramFrom(P));
    Sig.Returns = J.at("returns").get<std::vector<std::string>>();
    Sig.Schema = J.at("schema").get<std::string>();
    Sig.PyReturn = J.at("py_return").get<std::string>();
    Sig.CppDeclaration = J.at("cpp_declaration").get<std::string>();
    Sig.BoxedDeclaration = J.at("boxed_declaration").get<std::string>();
    Sig.NeedsAdapter = J.at("needs_adapter").get<bool>();
    Sig.WritesUnseen = J.at("writes_unseen").get<std::string>();
    Sig.FakeDerived = J.at("fake_derived").get<bool>();
    Sig.FakeReason = J.at("fake_reason").get<std::string>();
    Sig.FakePython = J.at("fake_python").get<std::string>();
    Sig.FakeCpp = J.at("fake_cpp").get<std::string>();
    std::optional<SpecOp> Validation = specFrom(J.at("validation").get<std::string>());
    if (!Validation)
      return std::nullopt;
    Sig.Validation = std::move(*Validation);
    for (const json &C : J.at("fake_checks"))
      Sig.FakeChecks.push_back({C.at(0).get<std::string>(), C.at(1).get<std::string>(),
                                C.at(2).get<std::string>(), C.at(3).get<std::string>()});
    if (J.contains("stand_in_shapes"))
      Sig.StandInShapes =
          J.at("stand_in_shapes").get<std::map<std::string, std::vector<int64_t>>>();
    return Sig;
  } catch (const json::exception &) {
    return std::nullopt;
  }
}

} // namespace opmig::migrate
