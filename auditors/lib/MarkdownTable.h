//===- MarkdownTable.h - Cells of Markdown table rows -------------*- C++ -*-===//
//
// The path kind's `filled-columns` reads a table row's cells under the
// columns whose header names a topic (the Quick Reference row's "Config
// field" or "Selection"): a row that leaves all of them empty says nothing
// about that topic.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_MARKDOWNTABLE_H
#define OPMIG_AUDIT_MARKDOWNTABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// The trimmed cells of a table row (`| a | b |` -> a, b); none for a line
/// that is no table row.
std::vector<std::string> tableCells(llvm::StringRef Line);

/// Whether a row is the header's separator (`|---|:-:|`).
bool isSeparatorRow(llvm::StringRef Line);

/// Whether a cell says something: not empty, and not a dash standing for
/// "nothing" (`-`, `—`, `–`).
bool isFilledCell(llvm::StringRef Cell);

/// The indices of the header cells `Wanted` matches.
std::vector<size_t> matchingColumns(const std::vector<std::string> &Header,
                                    const llvm::Regex &Wanted);

} // namespace opmig::audit

#endif
