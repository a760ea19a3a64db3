#include "AnalysisRenderers.h"

#include "llvm/Support/raw_ostream.h"

namespace opmig {

using namespace analyze;

namespace {

const char *colorOf(FileRole Role) {
  switch (Role) {
  case FileRole::Entry:
    return "gold";
  case FileRole::Registration:
    return "lightblue";
  case FileRole::Source:
    return "palegreen";
  case FileRole::Header:
    return "white";
  }
  return "white";
}

} // namespace

std::string renderDot(const AnalysisResult &R) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "digraph closure {\n  node [shape=box, style=filled];\n";
  for (const ClosureFile &F : R.Files)
    OS << "  \"" << F.Path << "\" [fillcolor=" << colorOf(F.Role) << "];\n";
  for (const ClosureFile &F : R.Files)
    for (const std::string &By : F.IncludedBy)
      OS << "  \"" << By << "\" -> \"" << F.Path << "\";\n";
  OS << "}\n";
  return Text;
}

} // namespace opmig
