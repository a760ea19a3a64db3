//===- ConfigDocument.cpp - A config file, parsed, with locations ---------===//

#include "opmig/support/ConfigDocument.h"

#include "JsonConfig.h"
#include "YamlConfig.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include "llvm/Support/MemoryBuffer.h"

namespace opmig {

ConfigDocument::ConfigDocument(std::string File, std::string Kind, nlohmann::json Value,
                               std::map<std::string, ConfigLocation> Locations)
    : File(std::move(File)), Kind(std::move(Kind)), Value(std::move(Value)),
      Locations(std::move(Locations)) {}

ConfigLocation ConfigDocument::locationOf(llvm::StringRef Pointer) const {
  for (llvm::StringRef P = Pointer;; P = P.rsplit('/').first) {
    if (auto It = Locations.find(P.str()); It != Locations.end())
      return It->second;
    if (P.empty())
      return ConfigLocation();
  }
}

ConfigNode ConfigDocument::root() const { return ConfigNode(*this); }

llvm::Expected<ConfigDocument> parseConfig(llvm::StringRef Text, ConfigSyntax Syntax,
                                           const std::string &File, const std::string &Kind) {
  if (Syntax == ConfigSyntax::Json)
    return parseJsonConfig(Text, File, Kind);
  return parseYamlConfig(Text, File, Kind);
}

llvm::Expected<ConfigDocument> readConfigFile(const std::string &Path, ConfigSyntax Syntax,
                                              const std::string &Kind) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message());
  return parseConfig((*Buffer)->getBuffer(), Syntax, Path, Kind);
}

std::string pointerToken(llvm::StringRef Key) {
  std::string Token;
  for (char C : Key)
    Token += C == '~' ? "~0" : C == '/' ? "~1" : std::string(1, C);
  return Token;
}

} // namespace opmig
