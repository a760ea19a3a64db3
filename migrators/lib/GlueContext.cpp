#include "GlueContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace opmig::migrate {

namespace path = llvm::sys::path;
using nlohmann::json;

namespace {

/// `Path` relative to `Dir` when it is inside it, else unchanged.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Dir) {
  if (!Dir.empty() && Path.starts_with(Dir.str() + "/"))
    return Path.drop_front(Dir.size() + 1).str();
  return Path.str();
}

/// The declaration inside the namespace the target function lives in: a
/// binding that names `svdq::ops::gemm` needs it declared there, not in the
/// profile's namespace.
std::string scopedDeclaration(llvm::StringRef Namespace, const std::string &Declaration) {
  if (Namespace.empty())
    return Declaration + ";";
  return "namespace " + Namespace.str() + " {\n" + Declaration + ";\n} // namespace " +
         Namespace.str();
}

/// The fake's shape checks, for templates to lay out in either language.
json fakeChecks(const OpSignature &Sig) {
  json Checks = json::array();
  for (const FakeCheck &Check : Sig.FakeChecks)
    Checks.push_back({{"python_condition", Check.PythonCondition},
                      {"python_message", Check.PythonMessage},
                      {"cpp_condition", Check.CppCondition},
                      {"cpp_message", Check.CppMessage}});
  return Checks;
}

/// A stand-in shape as a Python tuple (`(8, 8)`), or `None` for a
/// parameter that is not one tensor.
std::string pythonShape(const std::vector<int64_t> *Shape) {
  if (!Shape)
    return "None";
  std::vector<std::string> Sizes;
  for (int64_t Size : *Shape)
    Sizes.push_back(std::to_string(Size));
  return "(" + llvm::join(Sizes, ", ") + (Sizes.size() == 1 ? ",)" : ")");
}

json opContext(const PlannedOp &Planned, const OpSignature &Sig) {
  const auto &StandIns = Sig.StandInShapes;
  auto standInOf = [&](const std::string &Name) -> const std::vector<int64_t> * {
    if (!StandIns)
      return nullptr;
    auto It = StandIns->find(Name);
    return It == StandIns->end() ? nullptr : &It->second;
  };
  json Params = json::array(), TensorParams = json::array();
  std::vector<std::string> PyParams, PyArgs, AdapterArgs;
  for (const OpParam &Param : Sig.Params) {
    AdapterArgs.push_back(Param.AdapterArg.empty() ? Param.Name : Param.AdapterArg);
    Params.push_back({{"name", Param.Name},
                      {"schema_type", Param.SchemaType},
                      {"py_annotation", Param.PyAnnotation},
                      {"cpp_type", Param.CppType},
                      {"boxed_cpp_type", Param.BoxedCppType},
                      {"is_tensor", Param.IsTensor},
                      {"mutable", Param.Mutable},
                      {"stand_in_shape", pythonShape(standInOf(Param.Name))}});
    if (Param.IsTensor)
      TensorParams.push_back(Param.Name);
    PyParams.push_back(Param.Name + ": " + Param.PyAnnotation);
    PyArgs.push_back(Param.Name);
  }
  auto [Namespace, Unqualified] = llvm::StringRef(Planned.TargetFunction).rsplit("::");
  if (Unqualified.empty())
    std::swap(Namespace, Unqualified); // A global function: no `::` to split at.
  std::string CppName = Unqualified.str();
  return {
      {"name", Planned.Name},
      {"cpp_function", Planned.TargetFunction},
      {"cpp_name", CppName},
      {"boxed_declaration", Sig.BoxedDeclaration},
      {"needs_adapter", Sig.NeedsAdapter},
      {"adapter_args", llvm::join(AdapterArgs, ", ")},
      {"registered_function", Sig.NeedsAdapter ? "adapters::" + CppName : Planned.TargetFunction},
      {"upstream_function", Planned.UpstreamFunction},
      {"schema", Sig.Schema},
      {"cpp_declaration", Sig.CppDeclaration},
      {"cpp_namespace", Namespace.str()},
      {"scoped_declaration", scopedDeclaration(Namespace, Sig.CppDeclaration)},
      {"py_params", llvm::join(PyParams, ", ")},
      {"py_args", llvm::join(PyArgs, ", ")},
      {"py_return", Sig.PyReturn},
      {"returns_none", Sig.Returns.empty()},
      {"params", Params},
      {"tensor_params", TensorParams},
      {"first_tensor", TensorParams.empty() ? "" : TensorParams.front().get<std::string>()},
      {"fake_derived", Sig.FakeDerived},
      {"fake_python", Sig.FakePython},
      {"fake_cpp", Sig.FakeCpp},
      {"fake_checks", fakeChecks(Sig)},
      {"stand_ins_pass_fake_checks", StandIns.has_value()},
      {"fake_reason", Sig.FakeReason}};
}

} // namespace

bool isTranslationUnitPath(const std::string &Path) {
  llvm::StringRef Ext = path::extension(Path);
  return Ext == ".cu" || Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".c";
}

json baseContext(const MigrationPlan &Plan, const Profile &P) {
  // `cache_dit._C_attn`: package `cache_dit`, module name `_C_attn`.
  llvm::StringRef Extension(Plan.Extension);
  bool Dotted = Extension.contains('.');
  return {{"domain", Plan.Domain},
          {"domain_upper", llvm::StringRef(Plan.Domain).upper()},
          {"namespace", Plan.Namespace},
          {"op_namespace", Plan.OpNamespace},
          {"extension", Plan.Extension},
          {"extension_name", (Dotted ? Extension.rsplit('.').second : Extension).str()},
          {"extension_package", (Dotted ? Extension.split('.').first : llvm::StringRef()).str()},
          {"native_dir", Plan.NativeDir},
          {"include_root", Plan.IncludeRoot},
          {"profile", P.Name}};
}

json glueContext(const MigrationPlan &Plan, const Profile &P, const std::vector<OpSignature> &Ops,
                 const UpstreamInfo &Upstream, const std::vector<std::string> &GeneratedPaths,
                 const std::string &ToolVersion) {
  json Context = baseContext(Plan, P);
  Context["upstream"] = {
      {"repo", Upstream.Repo}, {"commit", Upstream.Commit}, {"dirty", Upstream.Dirty}};
  Context["tool"] = {{"name", "opmig"}, {"version", ToolVersion}};

  std::vector<std::string> Sources, Headers;
  for (const auto &[Up, Target] : Plan.FileMap)
    (isTranslationUnitPath(Target) ? Sources : Headers).push_back(Target);
  for (const std::string &Generated : GeneratedPaths)
    if (llvm::StringRef(Generated).starts_with(Plan.NativeDir + "/"))
      (isTranslationUnitPath(Generated) ? Sources : Headers).push_back(Generated);
  std::sort(Sources.begin(), Sources.end());
  std::sort(Headers.begin(), Headers.end());
  json InNativeDir = json::array();
  for (const std::string &Source : Sources)
    InNativeDir.push_back(relativeTo(Source, Plan.NativeDir));
  Context["sources"] = Sources;
  Context["sources_in_native_dir"] = InNativeDir;
  Context["headers"] = Headers;
  std::string BindingHeader = Plan.NativeDir + "/" + Plan.Domain + ".h";
  Context["binding_header_include"] = Plan.Includes == IncludeStyle::RelativeToRoot
                                          ? relativeTo(BindingHeader, Plan.IncludeRoot)
                                          : Plan.Domain + ".h";

  // An entry defined in a header (non-inline wrappers, as in nunchaku's
  // ops.h) is compiled where the binding includes it.
  std::vector<std::string> EntryHeaders;
  for (const PlannedOp &Op : Plan.Ops) {
    auto Target = Plan.FileMap.find(Op.UpstreamFile);
    if (Target == Plan.FileMap.end() || isTranslationUnitPath(Target->second))
      continue;
    std::string Include = Plan.Includes == IncludeStyle::RelativeToRoot
                              ? relativeTo(Target->second, Plan.IncludeRoot)
                              : relativeTo(Target->second, Plan.NativeDir);
    if (!llvm::is_contained(EntryHeaders, Include))
      EntryHeaders.push_back(std::move(Include));
  }
  Context["any_entry_header"] = !EntryHeaders.empty();
  Context["entry_header_includes"] = EntryHeaders;

  json OpList = json::array();
  for (size_t I = 0; I < Ops.size(); ++I) {
    json Op = opContext(Plan.Ops[I], Ops[I]);
    Op["first"] = I == 0;
    Op["last"] = I + 1 == Ops.size();
    OpList.push_back(std::move(Op));
  }
  Context["ops"] = OpList;
  Context["any_op"] = !Ops.empty(); // `--no-register` can leave a domain without one.
  Context["any_adapter"] =
      llvm::any_of(Ops, [](const OpSignature &Sig) { return Sig.NeedsAdapter; });
  return Context;
}

} // namespace opmig::migrate
