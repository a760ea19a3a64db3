//===- YamlJson.cpp - YAML into JSON, remembering lines -------------------===//

#include "YamlJson.h"

#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <optional>

namespace opmig::audit {

namespace {

/// The line of `Loc`, or 0 when it does not point into the buffer: LLVM
/// gives some nodes (an empty document after `---`, found by fuzzing) a
/// location past its end.
unsigned lineAt(const llvm::SourceMgr &SM, llvm::SMLoc Loc) {
  if (!Loc.isValid() || SM.getNumBuffers() == 0)
    return 0;
  const llvm::MemoryBuffer *Buffer = SM.getMemoryBuffer(SM.getMainFileID());
  if (Loc.getPointer() < Buffer->getBufferStart() || Loc.getPointer() > Buffer->getBufferEnd())
    return 0;
  return SM.getLineAndColumn(Loc).first;
}

/// Converts one node tree, recording lines; the first problem wins.
class Converter {
public:
  Converter(llvm::SourceMgr &SM, LocatedJson &Out) : SM(SM), Out(Out) {}

  std::optional<nlohmann::json> convert(llvm::yaml::Node *N, const std::string &Pointer,
                                        unsigned Depth = 0) {
    if (!N)
      return fail(0, "malformed node");
    // LLVM parses child nodes lazily, so this walk is the only recursion;
    // stopping it here bounds the stack whatever the input.
    if (Depth >= MaxJsonDepth)
      return fail(lineOf(N), "nested deeper than " + std::to_string(MaxJsonDepth) + " levels");
    Out.Lines.try_emplace(Pointer, lineOf(N));
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
      return fail(lineOf(N), "aliases (*name) are not supported in rule files");
    default:
      return fail(lineOf(N), "unexpected YAML node");
    }
  }

  unsigned FailedLine = 0;
  std::string Problem;

private:
  unsigned lineOf(llvm::yaml::Node *N) const { return lineAt(SM, N->getSourceRange().Start); }

  std::nullopt_t fail(unsigned Line, std::string Why) {
    if (Problem.empty()) {
      FailedLine = Line;
      Problem = std::move(Why);
    }
    return std::nullopt;
  }

  static nlohmann::json scalar(llvm::yaml::ScalarNode *S) {
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
    return Value.str();
  }

  std::optional<nlohmann::json> mapping(llvm::yaml::MappingNode *M, const std::string &Pointer,
                                        unsigned Depth) {
    nlohmann::json Object = nlohmann::json::object();
    for (llvm::yaml::KeyValueNode &KV : *M) {
      auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      if (!Key)
        return fail(KV.getKey() ? lineOf(KV.getKey()) : lineOf(M),
                    "mapping keys must be plain text");
      llvm::SmallString<32> Storage;
      std::string Name = Key->getValue(Storage).str();
      if (Object.contains(Name))
        return fail(lineOf(Key), "duplicate key '" + Name + "'");
      std::string Child = Pointer + "/" + pointerToken(Name);
      Out.Lines[Child] = lineOf(Key);
      std::optional<nlohmann::json> Value = convert(KV.getValue(), Child, Depth + 1);
      if (!Value)
        return std::nullopt;
      // The key's line, not the value's: a multi-line value starts below it.
      Out.Lines[Child] = lineOf(Key);
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
  LocatedJson &Out;
};

struct DiagnosticCapture {
  unsigned Line = 0;
  std::string Message;
};

void captureDiagnostic(const llvm::SMDiagnostic &D, void *Context) {
  auto *Capture = static_cast<DiagnosticCapture *>(Context);
  if (Capture->Message.empty()) {
    Capture->Line = D.getLineNo();
    Capture->Message = D.getMessage().str();
  }
}

} // namespace

unsigned LocatedJson::lineOf(const std::string &Pointer) const {
  for (std::string P = Pointer;; P = P.substr(0, P.rfind('/'))) {
    if (auto It = Lines.find(P); It != Lines.end() && It->second)
      return It->second;
    if (P.empty())
      return 1;
  }
}

std::string pointerToken(llvm::StringRef Key) {
  std::string Token;
  for (char C : Key)
    Token += C == '~' ? "~0" : C == '/' ? "~1" : std::string(1, C);
  return Token;
}

llvm::Expected<LocatedJson> parseYamlAsJson(llvm::StringRef Text, const std::string &Origin) {
  llvm::SourceMgr SM;
  DiagnosticCapture Diagnostic;
  SM.setDiagHandler(captureDiagnostic, &Diagnostic);
  llvm::yaml::Stream Stream(Text, SM, /*ShowColors=*/false);
  LocatedJson Out;
  Converter Convert(SM, Out);
  auto Doc = Stream.begin();
  std::optional<nlohmann::json> Value;
  if (Doc != Stream.end())
    Value = Convert.convert(Doc->getRoot(), "");
  if (!Diagnostic.Message.empty())
    return inputError(Origin, ":", std::to_string(Diagnostic.Line), ": ", Diagnostic.Message);
  if (!Convert.Problem.empty())
    return inputError(Origin, ":", std::to_string(Convert.FailedLine), ": ", Convert.Problem);
  if (Doc == Stream.end() || !Value)
    return inputError(Origin, ":1: empty rule file");
  if (++Doc != Stream.end() && Doc->getRoot() &&
      Doc->getRoot()->getType() != llvm::yaml::Node::NK_Null)
    return inputError(Origin, ":",
                      std::to_string(lineAt(SM, Doc->getRoot()->getSourceRange().Start)),
                      ": a rule file holds one YAML document");
  if (!Diagnostic.Message.empty())
    return inputError(Origin, ":", std::to_string(Diagnostic.Line), ": ", Diagnostic.Message);
  Out.Value = std::move(*Value);
  return Out;
}

} // namespace opmig::audit
