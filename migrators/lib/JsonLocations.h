//===- JsonLocations.h - Lines of the values in a JSON text -----*- C++ -*-===//
//
// nlohmann_json 3.11 keeps no source positions, yet a profile's problems must
// be reported as `file:line: problem`. This scanner walks a text that has
// already parsed and records where each member and element starts, keyed by
// JSON pointer (`/edits/1/id`).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_JSONLOCATIONS_H
#define OPMIG_MIGRATE_LIB_JSONLOCATIONS_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>

namespace opmig::migrate {

class JsonLocations {
public:
  /// Scans `Text`, which must be valid JSON.
  explicit JsonLocations(llvm::StringRef Text);

  /// The 1-based line where the value at `Pointer` starts; for an object
  /// member, the line of its key. Line 1 for a pointer not in the text.
  unsigned lineOf(const std::string &Pointer) const;

  /// The first key that appears twice in one object, as a pointer, with the
  /// line of its second appearance (JSON parsers silently keep one of them).
  std::optional<std::pair<std::string, unsigned>> duplicateKey() const { return Duplicate; }

  /// `Key` escaped as one JSON pointer component (`~` and `/`).
  static std::string escape(llvm::StringRef Key);

private:
  llvm::StringRef Text;
  size_t Pos = 0;
  unsigned Line = 1;
  std::map<std::string, unsigned> Lines;
  std::optional<std::pair<std::string, unsigned>> Duplicate;

  void skipSpace();
  std::string readString();
  void scanValue(const std::string &Pointer);
};

} // namespace opmig::migrate

#endif
