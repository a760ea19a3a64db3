//===- JsonText.h - The toolkit's one JSON writer and bounded reader -*- C++ -*-===//
//
// Every JSON document opmig writes goes through dumpJson(), and every JSON
// file it reads from a user goes through parseJsonText():
//
//   * nlohmann's plain dump() throws type_error.316 on a string that is not
//     valid UTF-8 (a file name, a captured match, an --upstream-repo value),
//     which would end the process in std::terminate. dumpJson() replaces
//     such bytes with U+FFFD instead, nlohmann's own error_handler_t::replace.
//   * Input nested thousands of levels deep overflows the stack of whatever
//     walks it later (a reader, a destructor, a dump). parseJsonText() stops
//     at MaxJsonDepth levels with an error naming the file.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_JSONTEXT_H
#define OPMIG_SUPPORT_JSONTEXT_H

#include "nlohmann/json.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// Deepest nesting of arrays and objects (or YAML collections) accepted in a
/// user's file; opmig's own formats need fewer than ten.
inline constexpr unsigned MaxJsonDepth = 64;

/// `J` as JSON text (`Indent` < 0: one line); never throws: bytes that are
/// not valid UTF-8 become U+FFFD.
template <typename Json> std::string dumpJson(const Json &J, int Indent = -1) {
  return J.dump(Indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

/// Whether some string (or key) in `J` is not valid UTF-8, i.e. dumpJson()
/// will replace bytes of it.
bool hasInvalidUtf8(const nlohmann::json &J);

/// Parses `Text` as JSON. InputError `<Origin>:<line>: invalid JSON: <why>`
/// for a syntax error, `<Origin>:<line>: nested deeper than 64 levels` for
/// input deeper than MaxJsonDepth.
llvm::Expected<nlohmann::json> parseJsonText(llvm::StringRef Text, llvm::StringRef Origin);

/// The deepest nesting of `[`/`{` in `Text` outside string literals: a cheap
/// guard for readers that recurse and cannot be given a limit (LLVM's JSON
/// parser behind Clang's compile-database reader).
unsigned jsonNestingDepth(llvm::StringRef Text);

} // namespace opmig

#endif
