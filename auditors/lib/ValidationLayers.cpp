//===- ValidationLayers.cpp - Reading the validation-layers spec ----------===//
//
// Apart from the coverage measurement (which runs the Python helper) so that
// the reader of this user-editable file can be fuzzed on its own.
//
//===----------------------------------------------------------------------===//

#include "YamlJson.h"
#include "opmig/audit/ValidationCoverage.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <optional>

namespace opmig::audit {

namespace {

bool isKebabCase(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Words;
  Text.split(Words, '-');
  return llvm::all_of(Words, [](llvm::StringRef Word) {
    return !Word.empty() &&
           llvm::all_of(Word, [](char C) { return llvm::isLower(C) || llvm::isDigit(C); });
  });
}

/// Reads the layers file's JSON into layers; `Where` names a pointer's line.
class LayerReader {
public:
  LayerReader(const LocatedJson &Doc, const std::string &Origin) : Doc(Doc), Origin(Origin) {}

  llvm::Expected<ValidationLayers> read() {
    const nlohmann::json &Layers =
        Doc.Value.is_object() ? Doc.Value.value("layers", nlohmann::json()) : nlohmann::json();
    if (!Layers.is_array() || Layers.empty())
      return error("", "expected a mapping with a non-empty list `layers`");
    ValidationLayers Result;
    llvm::Expected<std::vector<std::string>> Specs = specs();
    if (!Specs)
      return Specs.takeError();
    Result.Specs = std::move(*Specs);
    for (size_t I = 0; I < Layers.size(); ++I) {
      std::string At = "/layers/" + std::to_string(I);
      llvm::Expected<ValidationLayer> Layer = layer(Layers[I], At);
      if (!Layer)
        return Layer.takeError();
      for (const std::string &Spec : Layer->RequiredBy)
        if (!llvm::is_contained(Result.Specs, Spec))
          return error(At + "/required-by", "layer " + Layer->Id + ": `required-by` names '" +
                                                Spec + "', which `specs` does not list (" +
                                                llvm::join(Result.Specs, ", ") + ")");
      Result.Layers.push_back(std::move(*Layer));
    }
    return Result;
  }

private:
  /// `specs:`, kebab-case names, each once.
  llvm::Expected<std::vector<std::string>> specs() {
    const nlohmann::json &List = Doc.Value.value("specs", nlohmann::json());
    std::vector<std::string> Result;
    bool Valid = List.is_array() && !List.empty();
    for (const nlohmann::json &Item : Valid ? List : nlohmann::json::array()) {
      Valid = Valid && Item.is_string() && isKebabCase(Item.get<std::string>()) &&
              !llvm::is_contained(Result, Item.get<std::string>());
      if (Valid)
        Result.push_back(Item.get<std::string>());
    }
    if (!Valid)
      return error(Doc.Value.contains("specs") ? "/specs" : "",
                   "expected a non-empty list `specs` of distinct kebab-case spec names (the "
                   "`spec` keys of the profiles, e.g. [cache-dit, veomni, generic])");
    return Result;
  }

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

llvm::Expected<ValidationLayers> loadValidationLayers(const std::string &Path) {
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
