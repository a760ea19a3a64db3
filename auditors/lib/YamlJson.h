//===- YamlJson.h - YAML into JSON, remembering lines -----------*- C++ -*-===//
//
// Rule files are YAML (JSON is read the same way: it is a subset), parsed by
// LLVM's YAML parser. The result is a plain nlohmann::json value plus the
// line of every node, keyed by JSON pointer (`/match/check`), so that every
// later complaint can name its line.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_YAMLJSON_H
#define OPMIG_AUDIT_YAMLJSON_H

#include "nlohmann/json.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace opmig::audit {

struct LocatedJson {
  nlohmann::json Value;
  /// JSON pointer -> 1-based line; a mapping key's pointer gives the line
  /// of the key.
  std::map<std::string, unsigned> Lines;

  /// The line of `Pointer`, else of its nearest ancestor, else 1.
  unsigned lineOf(const std::string &Pointer) const;
};

/// Parses the first YAML document of `Text`. Plain scalars become booleans
/// (`true`, `false`), null (`null`, `~`) or integers when they look like
/// one; quoted and block scalars stay strings. InputError
/// `<Origin>:<line>: <problem>` for a syntax error, an alias, a duplicate
/// key or a second document.
llvm::Expected<LocatedJson> parseYamlAsJson(llvm::StringRef Text, const std::string &Origin);

/// Escapes a mapping key for use in a JSON pointer.
std::string pointerToken(llvm::StringRef Key);

} // namespace opmig::audit

#endif
