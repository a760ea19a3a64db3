//===- RegexSyntax.h - The regex dialect of rule files ----------*- C++ -*-===//
//
// Rule files write regexes the way people write them elsewhere
// (ECMAScript-ish: `\d`, `\s`, `\w`, `\b`-free); llvm::Regex speaks POSIX
// extended. translateRegex bridges the common escapes so that a rule's
// regex means the same in both:
//
//   ^_fake_\w+$        ->  ^_fake_[_[:alnum:]]+$
//   (?:ab)+\d          ->  (ab)+[0-9]     (groups keep their numbers only
//                                          when no `(?:` precedes them)
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_REGEXSYNTAX_H
#define OPMIG_AUDIT_REGEXSYNTAX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>

namespace opmig::audit {

/// `\d \D \s \S \w \W` become POSIX classes, `(?:` and `(?P<name>` /
/// `(?<name>` become plain groups; everything else is kept.
std::string translateRegex(llvm::StringRef Pattern);

/// The translated regex, compiled.
llvm::Regex compileRegex(llvm::StringRef Pattern,
                         llvm::Regex::RegexFlags Flags = llvm::Regex::NoFlags);

/// Why `Pattern` does not compile (after translation); nullopt when it does.
std::optional<std::string> regexError(llvm::StringRef Pattern);

} // namespace opmig::audit

#endif
