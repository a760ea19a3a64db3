//===- MarkdownTable.cpp - Cells of Markdown table rows -------------------===//

#include "MarkdownTable.h"

#include "llvm/ADT/SmallVector.h"

namespace opmig::audit {

std::vector<std::string> tableCells(llvm::StringRef Line) {
  llvm::StringRef Row = Line.trim();
  if (!Row.consume_front("|"))
    return {};
  Row.consume_back("|");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Row.split(Parts, '|');
  std::vector<std::string> Cells;
  for (llvm::StringRef Part : Parts)
    Cells.push_back(Part.trim().str());
  return Cells;
}

bool isSeparatorRow(llvm::StringRef Line) {
  std::vector<std::string> Cells = tableCells(Line);
  if (Cells.empty())
    return false;
  for (llvm::StringRef Cell : Cells)
    if (Cell.empty() || Cell.find_first_not_of(":-") != llvm::StringRef::npos)
      return false;
  return true;
}

bool isFilledCell(llvm::StringRef Cell) {
  Cell = Cell.trim();
  return !Cell.empty() && Cell != "-" && Cell != "\u2014" && Cell != "\u2013";
}

std::vector<size_t> matchingColumns(const std::vector<std::string> &Header,
                                    const llvm::Regex &Wanted) {
  std::vector<size_t> Columns;
  for (size_t I = 0; I < Header.size(); ++I)
    if (Wanted.match(Header[I]))
      Columns.push_back(I);
  return Columns;
}

} // namespace opmig::audit
