//===- ConfigDocument.h - A config file, parsed, with locations -*- C++ -*-===//
//
// The toolkit's one reader of config files (profiles, rules, .opmig.yaml,
// the validation layers, the validation spec). A file parses into a plain
// nlohmann::json value plus the line and column where each node starts, so
// that every complaint about it, from any reader, reads
// `FILE:LINE:COL: problem`. Readers walk it through ConfigNode
// (ConfigNode.h), which also rejects unknown keys with one message.
//
//   llvm::Expected<ConfigDocument> Doc =
//       readConfigFile(Path, ConfigSyntax::Yaml, "gate config");
//   ConfigNode Root = Doc->root();
//   if (llvm::Error E = Root.allowKeys({"profile", "checks"}))
//     return E;   // .opmig.yaml:3:1: unknown key 'chekcs' in the gate
//                 // config; did you mean 'checks'?
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_CONFIGDOCUMENT_H
#define OPMIG_SUPPORT_CONFIGDOCUMENT_H

#include "nlohmann/json.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace opmig {

class ConfigNode;

/// Where a node starts in its file; 1-based, the column in bytes.
struct ConfigLocation {
  unsigned Line = 1;
  unsigned Column = 1;
};

/// How a file is parsed. JSON is strict JSON (nlohmann's parser). YAML is
/// LLVM's YAML parser, which also reads JSON, as a subset of YAML.
enum class ConfigSyntax { Json, Yaml };

/// A parsed config file: its value, and where each node of it starts, keyed
/// by JSON pointer (`/edits/1/id`). A mapping member is located at its key.
class ConfigDocument {
public:
  ConfigDocument(std::string File, std::string Kind, nlohmann::json Value,
                 std::map<std::string, ConfigLocation> Locations);

  /// The file name that messages start with.
  const std::string &file() const { return File; }
  /// What the file is ("profile", "rule"), for messages about its top.
  const std::string &kind() const { return Kind; }
  const nlohmann::json &value() const { return Value; }

  /// The location of `Pointer`, else of its nearest located ancestor,
  /// else 1:1.
  ConfigLocation locationOf(llvm::StringRef Pointer) const;

  /// The top node; it refers to this document, which must outlive it.
  ConfigNode root() const;

private:
  std::string File;
  std::string Kind;
  nlohmann::json Value;
  std::map<std::string, ConfigLocation> Locations;
};

/// Parses `Text`, the content of `File`, a `Kind` (see ConfigDocument).
/// InputError `FILE:LINE:COL: problem` for a syntax error, a duplicate key,
/// nesting deeper than MaxJsonDepth, and, in YAML, an alias, a key that is
/// not plain text or a second document. YAML's plain scalars become
/// booleans, null or numbers when they look like one; quoted and block
/// scalars stay strings. An empty YAML file is an empty document (null).
llvm::Expected<ConfigDocument> parseConfig(llvm::StringRef Text, ConfigSyntax Syntax,
                                           const std::string &File, const std::string &Kind);

/// Reads and parses the file at `Path`; InputError `cannot read PATH: why`.
llvm::Expected<ConfigDocument> readConfigFile(const std::string &Path, ConfigSyntax Syntax,
                                              const std::string &Kind);

/// `Key` escaped as one JSON pointer component (`~` and `/`).
std::string pointerToken(llvm::StringRef Key);

} // namespace opmig

#endif
