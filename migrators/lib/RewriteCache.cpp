#include "RewriteCache.h"

#include "ParseRecordJson.h"

namespace opmig::migrate {

using nlohmann::json;

namespace {

/// Kind of the cache entries: a new format gets a new kind.
constexpr const char *EntryKind = "rewrite-parse/1";

/// What the parses read of the request besides their flags. The provenance
/// headers are left out: they are put in after the parses.
std::string contextKeyOf(const RewriteContext &Ctx) {
  const RewriteRequest &R = Ctx.request();
  json Renames = json::array(), Drops = json::object();
  for (const NamespaceRename &Rename : R.Renames)
    Renames.push_back({Rename.From, Rename.To});
  for (const auto &[File, Definitions] : R.DropDefinitions) {
    json &List = Drops[File] = json::array();
    for (const analyze::SiblingDefinition &D : Definitions)
      List.push_back({D.Name, D.Loc.File, D.Loc.Line, D.Begin, D.End});
  }
  json Key = {{"root", Ctx.sourceRoot()},
              {"files", R.FileMap},
              {"external_dirs", R.ExternalDirs},
              {"gpu_arch", R.GpuArch},
              {"renames", Renames},
              {"wrap", R.WrapGlobalInto},
              {"include_style", static_cast<int>(R.Includes)},
              {"include_root", R.IncludeRoot},
              {"drop_definitions", Drops},
              {"drop_include_lines", R.DropIncludeLines}};
  return Key.dump();
}

} // namespace

RewriteCache::RewriteCache(const RewriteContext &Ctx, analyze::FactsCache &Cache)
    : Cache(Cache), ContextKey(contextKeyOf(Ctx)) {}

std::string RewriteCache::keyOf(const analyze::ParseRequest &Request,
                                const std::string &Probe) const {
  std::string Key = ContextKey;
  for (const std::string &Arg : analyze::parseCommandLine(Request))
    Key += '\0' + Arg;
  Key += '\0' + Request.Directory;
  Key += '\0' + Probe;
  return Key;
}

std::optional<ParseRecord> RewriteCache::lookup(const analyze::ParseRequest &Request,
                                                const std::string &Probe) {
  std::optional<json> Saved = Cache.lookupEntry(keyOf(Request, Probe), EntryKind);
  if (!Saved)
    return std::nullopt;
  try {
    return parseRecordFromJson(*Saved);
  } catch (const json::exception &) {
    return std::nullopt; // A damaged entry is a miss.
  }
}

void RewriteCache::store(const analyze::ParseRequest &Request, const std::string &Probe,
                         const ParseRecord &Record) {
  if (Record.Completed && !Record.InputFiles.empty())
    Cache.storeEntry(keyOf(Request, Probe), Record.InputFiles, EntryKind, parseRecordJson(Record));
}

} // namespace opmig::migrate
