//===- EditMerger.h - One set of replacements per file ----------*- C++ -*-===//
//
// Every parse and every pass proposes edits in upstream offsets; the same
// edit comes from the host and the device parse, or from each expansion of
// a macro. They become one tooling::Replacements: identical edits count
// once, edits inside a removed definition go with it, insertions at one
// offset are ordered (a wrap closes before another opens), and edits that
// disagree about the same text are a blocking issue.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_EDITMERGER_H
#define OPMIG_MIGRATE_LIB_EDITMERGER_H

#include "ParseRecord.h"
#include "RewriteContext.h"

#include "clang/Tooling/Core/Replacement.h"

#include <utility>
#include <vector>

namespace opmig::migrate {

clang::tooling::Replacements
buildReplacements(const PortedFile &File, std::vector<FileEdit> Edits,
                  const std::vector<std::pair<unsigned, unsigned>> &Removed,
                  std::vector<Finding> &Issues);

} // namespace opmig::migrate

#endif
