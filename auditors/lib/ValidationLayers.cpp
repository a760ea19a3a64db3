//===- ValidationLayers.cpp - Reading the validation-layers spec ----------===//
//
// Apart from the coverage measurement (which runs the Python helper) so that
// the reader of this user-editable file can be fuzzed on its own.
//
//===----------------------------------------------------------------------===//

#include "opmig/audit/ValidationCoverage.h"
#include "opmig/support/ConfigNode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"

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

const llvm::StringRef FileKeys[] = {"specs", "layers"};
const llvm::StringRef LayerKeys[] = {"id",     "title",       "spec",       "requires",
                                     "unless", "required-by", "test-names", "proved-by-validate"};

/// A non-empty list of globs.
llvm::Expected<std::vector<std::string>> readGlobs(const ConfigNode &List) {
  if (!List.json().is_array() || List.json().empty())
    return List.error(List.describe() + " must be a non-empty list of strings");
  llvm::Expected<std::vector<std::string>> Result = List.strings();
  if (!Result)
    return Result.takeError();
  for (size_t I = 0; I < Result->size(); ++I)
    if (llvm::Expected<llvm::GlobPattern> G = llvm::GlobPattern::create((*Result)[I]); !G)
      return List.element(I).error("bad glob '" + (*Result)[I] +
                                   "': " + llvm::toString(G.takeError()));
  return Result;
}

/// `specs:`, kebab-case names, each once.
llvm::Expected<std::vector<std::string>> readSpecs(const ConfigNode &Top) {
  ConfigNode List = Top.member("specs");
  std::vector<std::string> Result;
  bool Valid = List.json().is_array() && !List.json().empty();
  for (const ConfigNode &Item : List.elements()) {
    const nlohmann::json &Name = Item.json();
    Valid = Valid && Name.is_string() && isKebabCase(Name.get<std::string>()) &&
            !llvm::is_contained(Result, Name.get<std::string>());
    if (Valid)
      Result.push_back(Name.get<std::string>());
  }
  if (!Valid)
    return List.error("expected a non-empty list `specs` of distinct kebab-case spec names (the "
                      "`spec` keys of the profiles, e.g. [cache-dit, veomni, generic])");
  return Result;
}

/// `proved-by-validate:`, one layer of `opmig validate`.
llvm::Error readProvedBy(const ConfigNode &Item, ValidationLayer &L) {
  if (!Item.has("proved-by-validate"))
    return llvm::Error::success();
  ConfigNode Key = Item.member("proved-by-validate");
  llvm::Expected<std::string> Name = Key.string();
  if (!Name)
    return Name.takeError();
  if (!llvm::is_contained(validateLayerNames(), *Name))
    return Key.error("layer " + L.Id + ": `proved-by-validate` names '" + *Name +
                     "', which is no layer of opmig validate (" +
                     llvm::join(validateLayerNames(), ", ") + ")");
  L.ProvedByValidate = std::move(*Name);
  return llvm::Error::success();
}

llvm::Expected<ValidationLayer> readLayer(const ConfigNode &Item) {
  if (llvm::Error E = Item.expectMapping())
    return E;
  if (llvm::Error E = Item.allowKeys(LayerKeys))
    return E;
  ValidationLayer L;
  for (auto [Key, Field] : {std::pair{"id", &L.Id}, {"title", &L.Title}, {"spec", &L.Spec}}) {
    const nlohmann::json &V = Item.member(Key).json();
    if (!V.is_string() || V.get_ref<const std::string &>().empty())
      return Item.error(std::string("a layer needs a non-empty string `") + Key + "`");
    *Field = V.get<std::string>();
  }
  ConfigNode Requires = Item.member("requires");
  if (!Requires.json().is_array() || Requires.json().empty())
    return Item.error("layer " + L.Id + ": `requires` must be a non-empty list of glob lists");
  for (const ConfigNode &Group : Requires.elements()) {
    llvm::Expected<std::vector<std::string>> Globs = readGlobs(Group);
    if (!Globs)
      return Globs.takeError();
    L.Requires.push_back(std::move(*Globs));
  }
  for (auto [Key, Field] : {std::pair{"unless", &L.Unless},
                            {"required-by", &L.RequiredBy},
                            {"test-names", &L.TestNames}}) {
    if (!Item.has(Key))
      continue;
    llvm::Expected<std::vector<std::string>> List = readGlobs(Item.member(Key));
    if (!List)
      return List.takeError();
    *Field = std::move(*List);
  }
  if (llvm::Error E = readProvedBy(Item, L))
    return E;
  return L;
}

llvm::Expected<ValidationLayers> readLayers(const ConfigNode &Top) {
  ConfigNode Layers = Top.member("layers");
  if (!Layers.json().is_array() || Layers.json().empty())
    return Layers.error("expected a mapping with a non-empty list `layers`");
  if (llvm::Error E = Top.allowKeys(FileKeys))
    return E;
  ValidationLayers Result;
  llvm::Expected<std::vector<std::string>> Specs = readSpecs(Top);
  if (!Specs)
    return Specs.takeError();
  Result.Specs = std::move(*Specs);
  for (const ConfigNode &Item : Layers.elements()) {
    llvm::Expected<ValidationLayer> Layer = readLayer(Item);
    if (!Layer)
      return Layer.takeError();
    for (const std::string &Spec : Layer->RequiredBy)
      if (!llvm::is_contained(Result.Specs, Spec))
        return Item.member("required-by")
            .error("layer " + Layer->Id + ": `required-by` names '" + Spec +
                   "', which `specs` does not list (" + llvm::join(Result.Specs, ", ") + ")");
    Result.Layers.push_back(std::move(*Layer));
  }
  return Result;
}

} // namespace

llvm::Expected<ValidationLayers> loadValidationLayers(const std::string &Path) {
  llvm::Expected<ConfigDocument> Doc = readConfigFile(Path, ConfigSyntax::Yaml, "layers file");
  if (!Doc)
    return Doc.takeError();
  return readLayers(Doc->root());
}

} // namespace opmig::audit
