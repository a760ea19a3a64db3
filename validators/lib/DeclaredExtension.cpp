//===- DeclaredExtension.cpp - What a target declares it builds -----------===//

#include "DeclaredExtension.h"

#include "opmig/support/BlockMarkers.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/PythonHelper.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace opmig::validate {

namespace {

const char *const DeclaredExtensionScript =
#include "DeclaredExtensionScript.inc"
    ;

constexpr unsigned HelperTimeoutSeconds = 60;

std::vector<std::string> stringsAt(const nlohmann::json &Answer, const char *Key) {
  std::vector<std::string> Out;
  if (auto It = Answer.find(Key); It != Answer.end() && It->is_array())
    for (const nlohmann::json &Item : *It)
      if (Item.is_string())
        Out.push_back(Item.get<std::string>());
  return Out;
}

} // namespace

llvm::Expected<ExtensionDeclaration> parseDeclarationAnswer(llvm::StringRef Answer,
                                                            llvm::StringRef Origin) {
  llvm::Expected<nlohmann::json> Parsed =
      parseJsonText(Answer, "the answer of declared_extension.py");
  if (!Parsed)
    return Parsed.takeError();
  if (!Parsed->is_object())
    return inputError(Origin.str(), ": the reader of the block gave no answer");
  if (auto Error = Parsed->find("error"); Error != Parsed->end() && Error->is_string())
    return inputError(Origin.str(), ": ", Error->get<std::string>());
  ExtensionDeclaration D;
  if (auto Name = Parsed->find("name"); Name != Parsed->end() && Name->is_string())
    D.Name = Name->get<std::string>();
  D.Sources = stringsAt(*Parsed, "sources");
  D.IncludeDirs = stringsAt(*Parsed, "include_dirs");
  D.CxxFlags = stringsAt(*Parsed, "cxx");
  D.NvccFlags = stringsAt(*Parsed, "nvcc");
  if (D.Name.empty() || D.Sources.empty())
    return inputError(Origin.str(), ": the block's extension has no name or no sources");
  return D;
}

llvm::Expected<ExtensionDeclaration>
readSetupBlock(const std::string &Python, const std::string &Root, const std::string &Domain) {
  std::string SetupPath = Root + "/setup.py";
  auto Buffer = llvm::MemoryBuffer::getFile(SetupPath);
  if (!Buffer)
    return inputError("cannot read ", SetupPath, ": ", Buffer.getError().message());
  std::optional<std::string> Block =
      findGeneratedBlock((*Buffer)->getBuffer().str(), "setup.py", Domain, "setup-extension");
  if (!Block)
    return inputError(SetupPath, " has no block '", Domain,
                      ":setup-extension'; re-run opmig migrate to write it");
  std::string Origin = "setup.py, block " + Domain + ":setup-extension";
  llvm::Expected<std::string> Answer =
      runPythonHelper(Python, DeclaredExtensionScript, {"setup", Domain}, *Block,
                      HelperTimeoutSeconds, "the setup.py reader");
  if (!Answer)
    return Answer.takeError();
  return parseDeclarationAnswer(*Answer, Origin);
}

llvm::Expected<ExtensionDeclaration>
readJitLoadCall(const std::string &Python, const std::string &Root, const std::string &ImplFile) {
  std::string Path = Root + "/" + ImplFile;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message(),
                      "; re-run opmig migrate to write it");
  std::string Here = llvm::sys::path::parent_path(ImplFile, llvm::sys::path::Style::posix).str();
  llvm::Expected<std::string> Answer =
      runPythonHelper(Python, DeclaredExtensionScript, {"jit", Here}, (*Buffer)->getBuffer().str(),
                      HelperTimeoutSeconds, "the cuda_impl.py reader");
  if (!Answer)
    return Answer.takeError();
  return parseDeclarationAnswer(*Answer, ImplFile + ", its load(...)");
}

} // namespace opmig::validate
