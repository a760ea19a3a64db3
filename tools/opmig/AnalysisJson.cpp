#include "AnalysisRenderers.h"
#include "opmig/report/FindingJson.h"

namespace opmig {

using namespace analyze;
using nlohmann::json;

namespace {

json location(const Location &Loc) { return {{"file", Loc.File}, {"line", Loc.Line}}; }

json symbol(const ClosureSymbol &Sym) {
  return {{"name", Sym.Name},
          {"kind", toString(Sym.Kind)},
          {"file", Sym.Loc.File},
          {"line", Sym.Loc.Line}};
}

json verifyReport(const VerifyReport &V) {
  if (!V.Ran)
    return nullptr;
  json Out = {{"passed", V.passed()},
              {"compiler", {{"name", V.Compiler}, {"path", V.CompilerPath}}},
              {"compiles", V.Compiles},
              {"links", V.Links},
              {"compile_failures", V.CompileFailures},
              {"undefined_symbols", V.UndefinedSymbols},
              {"linked_against", V.LinkedAgainst}};
  if (!V.CompilerNote.empty())
    Out["compiler"]["because"] = V.CompilerNote;
  if (V.MinimalityChecked)
    Out["unneeded_files"] = V.UnneededFiles;
  if (!V.ScratchDir.empty())
    Out["scratch_dir"] = V.ScratchDir;
  return Out;
}

json torch(const TorchInstall &T) {
  if (T.IncludeDirs.empty())
    return nullptr;
  return {{"version", T.Version},
          {"cxx_standard", T.CxxStandard},
          {"include_dirs", T.IncludeDirs},
          {"lib_dir", T.LibDir}};
}

} // namespace

json renderJson(const AnalysisResult &R, const std::string &Source) {
  json Doc = {{"schema", AnalyzeSchemaVersion}, {"source", Source}};
  json &Entries = Doc["entries"] = json::array();
  for (const ResolvedEntry &E : R.Entries) {
    json RegisteredAt = json::array(), Callers = json::array();
    for (const Location &Loc : E.RegisteredAt)
      RegisteredAt.push_back(location(Loc));
    for (const EntryCaller &Caller : E.Callers)
      Callers.push_back(
          {{"name", Caller.Name}, {"file", Caller.Loc.File}, {"line", Caller.Loc.Line}});
    Entries.push_back(
        {{"requested", E.Requested},
         {"function", E.Function},
         {"via", E.Via},
         {"file", E.Loc.File},
         {"line", E.Loc.Line},
         {"registered_at", RegisteredAt},
         {"upstream_schema", E.UpstreamSchema.empty() ? json(nullptr)
                                                      : json{{"schema", E.UpstreamSchema},
                                                             {"file", E.UpstreamSchemaAt.File},
                                                             {"line", E.UpstreamSchemaAt.Line}}},
         {"callers", Callers}});
  }
  Doc["partial"] = R.isPartial();
  Doc["partial_reasons"] = R.PartialReasons;
  json &Judged = Doc["nvcc_judged"] = json::array();
  for (const NvccJudgement &J : R.NvccJudged)
    Judged.push_back({{"tu", J.TU},
                      {"judged", J.Judged},
                      {"accepted", J.Accepted},
                      {"first_error", J.FirstError}});
  Doc["build_flags"] = {{"inferred", R.InferredFlags},
                        {"nvcc", R.UpstreamNvccFlags},
                        {"read_from", R.InferredFrom},
                        {"torch", torch(R.Torch)}};
  json &Files = Doc["files"] = json::array();
  for (const ClosureFile &F : R.Files) {
    json Dropped = json::array();
    for (const DroppedInclude &D : F.DroppedIncludes)
      Dropped.push_back({{"line", D.Line}, {"spelling", D.Spelling}, {"file", D.File}});
    Files.push_back({{"path", F.Path},
                     {"role", toString(F.Role)},
                     {"symbols", F.Symbols},
                     {"instantiates", F.Instantiates},
                     {"provides", F.Provides},
                     {"included_by", F.IncludedBy},
                     {"dropped_includes", std::move(Dropped)}});
  }
  json &Symbols = Doc["symbols"] = json::array();
  for (const ClosureSymbol &S : R.Symbols)
    Symbols.push_back(symbol(S));
  json &External = Doc["external"] = json::array();
  for (const ExternalInclude &E : R.External) {
    json &Out = External.emplace_back();
    Out = {{"include", E.Spelling},
           {"class", toString(E.Class)},
           {"resolved", E.ResolvedPath.empty() ? json(nullptr) : json(E.ResolvedPath)},
           {"optional", E.Optional},
           {"included_from", json::array()}};
    for (const Location &From : E.IncludedFrom)
      Out["included_from"].push_back(location(From));
  }
  Doc["left_behind"] = R.LeftBehind;
  json &Unresolved = Doc["unresolved"] = json::array();
  for (const ClosureSymbol &S : R.Unresolved)
    Unresolved.push_back(symbol(S));
  json &Siblings = Doc["siblings"] = json::array();
  for (const auto &[File, List] : R.Siblings)
    for (const SiblingDefinition &S : List)
      Siblings.push_back({{"file", File},
                          {"name", S.Name},
                          {"line", S.Loc.Line},
                          {"missing_dependencies", S.MissingDependencies},
                          {"would_need", S.WouldNeed}});
  Doc["links_as_copied"] = R.LinksAsCopied;
  Doc["links_after_slicing"] = R.LinksAfterSlicing;
  Doc["verify"] = verifyReport(R.Verify);
  json &Diagnostics = Doc["diagnostics"] = json::array();
  for (const Finding &F : R.Diagnostics)
    Diagnostics.push_back(json(report::findingJson(F)));
  json Stages = json::object();
  for (const StageTime &Stage : R.Stats.Stages)
    Stages[Stage.Stage] = Stage.Seconds;
  Doc["stats"] = {
      {"files_indexed", R.Stats.FilesIndexed}, {"tus_in_tree", R.Stats.TUsInTree},
      {"tus_parsed", R.Stats.TUsParsed},       {"parses_run", R.Stats.ParsesRun},
      {"parses_cached", R.Stats.ParsesCached}, {"parses_with_preamble", R.Stats.ParsesWithPreamble},
      {"preambles", R.Stats.Preambles},        {"concurrency", R.Stats.Concurrency},
      {"parsed", R.Stats.ParsedTUs},           {"seconds", Stages}};
  return Doc;
}

} // namespace opmig
