//===- Baseline.h - Known findings that do not fail -------------*- C++ -*-===//
//
// `opmig audit --write-baseline FILE` records the fingerprints of the current
// findings; with `--baseline FILE` those findings are reported as
// `baselined` and only new ones fail. The file is JSON:
//
//   {"schema": "opmig.baseline/1",
//    "findings": [{"fingerprint": "3f2a...", "rule": "cache-dit-fake-naming",
//                  "file": "src/cache_dit/kernels/_attn.py"}]}
//
// sorted by fingerprint, so rewriting it for unchanged findings changes no
// byte. Rule and file are there for the reader; only fingerprints count.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_BASELINE_H
#define OPMIG_AUDIT_BASELINE_H

#include "opmig/support/Errors.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace opmig::audit {

inline constexpr const char *BaselineSchemaVersion = "opmig.baseline/1";

/// The baseline of every finding that is not Suppressed, ending in a newline.
std::string serializeBaseline(const std::vector<Finding> &Findings);

namespace inputs {
/// Asking for a baseline of the current findings (serializeBaseline), which
/// messages about a baseline advise (see InputName in Errors.h).
inline constexpr InputName WriteBaseline{"audit.WriteBaseline"};
} // namespace inputs

/// The fingerprints listed in a baseline; `Origin` names it in errors
/// (InputError).
llvm::Expected<std::set<std::string>> parseBaseline(llvm::StringRef Text,
                                                    const std::string &Origin);

/// Reads and parses the baseline file at `Path` (InputError when missing).
llvm::Expected<std::set<std::string>> readBaseline(const std::string &Path);

/// Marks New findings whose fingerprint is in `Known` as Baselined.
void applyBaseline(const std::set<std::string> &Known, std::vector<Finding> &Findings);

} // namespace opmig::audit

#endif
