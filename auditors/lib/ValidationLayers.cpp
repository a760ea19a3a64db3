//===- ValidationLayers.cpp - Reading the validation-layers spec ----------===//
//
// Apart from the coverage measurement (which runs the Python helper) so that
// the reader of this user-editable file can be fuzzed on its own.
//
//===----------------------------------------------------------------------===//

#include "YamlJson.h"
#include "opmig/analyze/Errors.h"
#include "opmig/audit/ValidationCoverage.h"

#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <optional>

namespace opmig::audit {

namespace {

/// Reads the layers file's JSON into layers; `Where` names a pointer's line.
class LayerReader {
public:
  LayerReader(const LocatedJson &Doc, const std::string &Origin) : Doc(Doc), Origin(Origin) {}

  llvm::Expected<std::vector<ValidationLayer>> read() {
    const nlohmann::json &Layers =
        Doc.Value.is_object() ? Doc.Value.value("layers", nlohmann::json()) : nlohmann::json();
    if (!Layers.is_array() || Layers.empty())
      return error("", "expected a mapping with a non-empty list `layers`");
    std::vector<ValidationLayer> Result;
    for (size_t I = 0; I < Layers.size(); ++I) {
      llvm::Expected<ValidationLayer> Layer = layer(Layers[I], "/layers/" + std::to_string(I));
      if (!Layer)
        return Layer.takeError();
      Result.push_back(std::move(*Layer));
    }
    return Result;
  }

private:
  llvm::Expected<ValidationLayer> layer(const nlohmann::json &Item, const std::string &At) {
    if (!Item.is_object())
      return error(At, "a layer must be a mapping");
    ValidationLayer L;
    for (auto [Key, Field] : {std::pair{"id", &L.Id}, {"title", &L.Title}, {"spec", &L.Spec}}) {
      auto It = Item.find(Key);
      if (It == Item.end() || !It->is_string() || It->get<std::string>().empty())
        return error(At, std::string("a layer needs a non-empty string `") + Key + "`");
      *Field = It->get<std::string>();
    }
    const nlohmann::json &Requires = Item.value("requires", nlohmann::json());
    if (!Requires.is_array() || Requires.empty())
      return error(At, "layer " + L.Id + ": `requires` must be a non-empty list of glob lists");
    for (size_t G = 0; G < Requires.size(); ++G) {
      llvm::Expected<std::vector<std::string>> Group =
          globs(Requires[G], At + "/requires/" + std::to_string(G));
      if (!Group)
        return Group.takeError();
      L.Requires.push_back(std::move(*Group));
    }
    for (auto [Key, Field] : {std::pair{"unless", &L.Unless},
                              {"required-by", &L.RequiredBy},
                              {"test-names", &L.TestNames}}) {
      if (!Item.contains(Key))
        continue;
      llvm::Expected<std::vector<std::string>> List = globs(Item[Key], At + "/" + Key);
      if (!List)
        return List.takeError();
      *Field = std::move(*List);
    }
    return L;
  }

  llvm::Expected<std::vector<std::string>> globs(const nlohmann::json &List,
                                                 const std::string &At) {
    if (!List.is_array() || List.empty())
      return error(At, "expected a non-empty list of strings");
    std::vector<std::string> Result;
    for (const nlohmann::json &Item : List) {
      if (!Item.is_string())
        return error(At, "expected a non-empty list of strings");
      std::string Text = Item.get<std::string>();
      if (llvm::Expected<llvm::GlobPattern> G = llvm::GlobPattern::create(Text); !G)
        return error(At, "bad glob '" + Text + "': " + llvm::toString(G.takeError()));
      Result.push_back(std::move(Text));
    }
    return Result;
  }

  llvm::Error error(const std::string &Pointer, const std::string &Problem) const {
    return inputError(Origin, ":", std::to_string(Doc.lineOf(Pointer)), ": ", Problem);
  }

  const LocatedJson &Doc;
  const std::string &Origin;
};

} // namespace

llvm::Expected<std::vector<ValidationLayer>> loadValidationLayers(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message());
  llvm::Expected<LocatedJson> Doc = parseYamlAsJson((*Buffer)->getBuffer(), Path);
  if (!Doc)
    return Doc.takeError();
  return LayerReader(*Doc, Path).read();
}

std::string builtinLayersFile(const std::string &CompiledRulesDir) {
  std::optional<std::string> FromEnv = llvm::sys::Process::GetEnv("OPMIG_RULES_DIR");
  return (FromEnv && !FromEnv->empty() ? *FromEnv : CompiledRulesDir) +
         "/review/validation-layers.yaml";
}

} // namespace opmig::audit
