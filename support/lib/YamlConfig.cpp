//===- YamlConfig.cpp - A YAML config file into a ConfigDocument ----------===//

#include "YamlConfig.h"

#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <cmath>
#include <optional>

namespace opmig {

namespace {

using Locations = std::map<std::string, ConfigLocation>;

/// The location of `Loc`, or none when it does not point into the buffer:
/// LLVM gives some nodes (an empty document after `---`, found by fuzzing)
/// a location past its end.
std::optional<ConfigLocation> locationAt(const llvm::SourceMgr &SM, llvm::SMLoc Loc) {
  if (!Loc.isValid() || SM.getNumBuffers() == 0)
    return std::nullopt;
  const llvm::MemoryBuffer *Buffer = SM.getMemoryBuffer(SM.getMainFileID());
  if (Loc.getPointer() < Buffer->getBufferStart() || Loc.getPointer() > Buffer->getBufferEnd())
    return std::nullopt;
  auto [Line, Column] = SM.getLineAndColumn(Loc);
  return ConfigLocation{Line, Column};
}

/// The first problem met, with where it is.
struct Problem {
  ConfigLocation At;
  std::string Message;

  void set(std::optional<ConfigLocation> Where, std::string Why) {
    if (!Message.empty())
      return;
    At = Where.value_or(ConfigLocation());
    Message = std::move(Why);
  }
};

/// A plain scalar as a boolean, null or number when it looks like one.
nlohmann::json scalar(llvm::yaml::ScalarNode *S) {
  llvm::SmallString<64> Storage;
  llvm::StringRef Value = S->getValue(Storage);
  llvm::StringRef Raw = S->getRawValue();
  if (Raw.starts_with("\"") || Raw.starts_with("'"))
    return Value.str();
  if (Value == "true" || Value == "false")
    return Value == "true";
  if (Value == "null" || Value == "~")
    return nullptr;
  long long Number;
  if (!Value.getAsInteger(10, Number))
    return Number;
  // YAML's core schema floats (`1.5`, `-2.0e-6`), as JSON reads them; `.inf`
  // and `.nan` stay text, as JSON has neither.
  bool FloatLike = llvm::any_of(Value, llvm::isDigit) && llvm::all_of(Value, [](char C) {
                     return llvm::isDigit(C) || llvm::is_contained(".eE+-", C);
                   });
  double Real;
  if (FloatLike && !Value.getAsDouble(Real) && std::isfinite(Real))
    return Real;
  return Value.str();
}

/// Converts one node tree, recording locations; the first problem wins.
class Converter {
public:
  Converter(llvm::SourceMgr &SM, Locations &Out, Problem &Failure)
      : SM(SM), Out(Out), Failure(Failure) {}

  std::optional<nlohmann::json> convert(llvm::yaml::Node *N, const std::string &Pointer,
                                        unsigned Depth = 0) {
    if (!N)
      return fail(std::nullopt, "malformed node");
    // LLVM parses child nodes lazily, so this walk is the only recursion;
    // stopping it here bounds the stack whatever the input.
    if (Depth >= MaxJsonDepth)
      return fail(locationOf(N), "nested deeper than " + std::to_string(MaxJsonDepth) + " levels");
    if (std::optional<ConfigLocation> At = locationOf(N))
      Out.try_emplace(Pointer, *At);
    switch (N->getType()) {
    case llvm::yaml::Node::NK_Null:
      return nlohmann::json();
    case llvm::yaml::Node::NK_Scalar:
      return scalar(llvm::cast<llvm::yaml::ScalarNode>(N));
    case llvm::yaml::Node::NK_BlockScalar:
      return nlohmann::json(llvm::cast<llvm::yaml::BlockScalarNode>(N)->getValue().str());
    case llvm::yaml::Node::NK_Mapping:
      return mapping(llvm::cast<llvm::yaml::MappingNode>(N), Pointer, Depth);
    case llvm::yaml::Node::NK_Sequence:
      return sequence(llvm::cast<llvm::yaml::SequenceNode>(N), Pointer, Depth);
    case llvm::yaml::Node::NK_Alias:
      return fail(aliasLocation(llvm::cast<llvm::yaml::AliasNode>(N)),
                  "aliases (*name) are not supported in config files");
    default:
      return fail(locationOf(N), "unexpected YAML node");
    }
  }

private:
  std::optional<ConfigLocation> locationOf(llvm::yaml::Node *N) const {
    return locationAt(SM, N->getSourceRange().Start);
  }

  /// LLVM locates an alias at the token after it; its name, which points
  /// into the text, gives its place.
  std::optional<ConfigLocation> aliasLocation(llvm::yaml::AliasNode *A) const {
    return locationAt(SM, llvm::SMLoc::getFromPointer(A->getName().data() - 1));
  }

  std::nullopt_t fail(std::optional<ConfigLocation> At, std::string Why) {
    Failure.set(At, std::move(Why));
    return std::nullopt;
  }

  std::optional<nlohmann::json> mapping(llvm::yaml::MappingNode *M, const std::string &Pointer,
                                        unsigned Depth) {
    nlohmann::json Object = nlohmann::json::object();
    for (llvm::yaml::KeyValueNode &KV : *M) {
      auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      if (!Key)
        return fail(locationOf(KV.getKey() ? KV.getKey() : M), "mapping keys must be plain text");
      llvm::SmallString<32> Storage;
      std::string Name = Key->getValue(Storage).str();
      if (Object.contains(Name))
        return fail(locationOf(Key), "duplicate key '" + Name + "'");
      std::string Child = Pointer + "/" + pointerToken(Name);
      std::optional<nlohmann::json> Value = convert(KV.getValue(), Child, Depth + 1);
      if (!Value)
        return std::nullopt;
      // The key's location, not the value's: a multi-line value starts below it.
      if (std::optional<ConfigLocation> At = locationOf(Key))
        Out[Child] = *At;
      Object[Name] = std::move(*Value);
    }
    return Object;
  }

  std::optional<nlohmann::json> sequence(llvm::yaml::SequenceNode *S, const std::string &Pointer,
                                         unsigned Depth) {
    nlohmann::json Array = nlohmann::json::array();
    for (llvm::yaml::Node &Item : *S) {
      std::optional<nlohmann::json> Value =
          convert(&Item, Pointer + "/" + std::to_string(Array.size()), Depth + 1);
      if (!Value)
        return std::nullopt;
      Array.push_back(std::move(*Value));
    }
    return Array;
  }

  llvm::SourceMgr &SM;
  Locations &Out;
  Problem &Failure;
};

/// LLVM's parser reports syntax errors through the SourceMgr.
void captureDiagnostic(const llvm::SMDiagnostic &D, void *Context) {
  unsigned Column = D.getColumnNo() < 0 ? 1 : static_cast<unsigned>(D.getColumnNo()) + 1;
  static_cast<Problem *>(Context)->set(
      ConfigLocation{static_cast<unsigned>(std::max(D.getLineNo(), 1)), Column},
      D.getMessage().str());
}

llvm::Error errorAt(const std::string &File, const Problem &P) {
  return inputError(File, ":", std::to_string(P.At.Line), ":", std::to_string(P.At.Column), ": ",
                    P.Message);
}

} // namespace

llvm::Expected<ConfigDocument> parseYamlConfig(llvm::StringRef Text, const std::string &File,
                                               const std::string &Kind) {
  llvm::SourceMgr SM;
  Problem Failure;
  SM.setDiagHandler(captureDiagnostic, &Failure);
  llvm::yaml::Stream Stream(Text, SM, /*ShowColors=*/false);
  Locations Located;
  Converter Convert(SM, Located, Failure);
  auto Doc = Stream.begin();
  std::optional<nlohmann::json> Value;
  if (Doc != Stream.end())
    Value = Convert.convert(Doc->getRoot(), "");
  if (Failure.Message.empty() && (Doc == Stream.end() || !Value))
    Failure.set(std::nullopt, "no YAML document");
  if (Failure.Message.empty() && ++Doc != Stream.end() && Doc->getRoot() &&
      Doc->getRoot()->getType() != llvm::yaml::Node::NK_Null)
    Failure.set(locationAt(SM, Doc->getRoot()->getSourceRange().Start),
                "a config file holds one YAML document");
  if (!Failure.Message.empty())
    return errorAt(File, Failure);
  return ConfigDocument(File, Kind, std::move(*Value), std::move(Located));
}

} // namespace opmig
