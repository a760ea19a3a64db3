//===- PythonAnchors.h - Anchors found on a Python parse tree ---*- C++ -*-===//
//
// `python:*` anchors are located by CPython's own `ast` module, through a
// small script (migrators/python/anchors.py) embedded in the binary and run
// with the `python3` on PATH: regular expressions would misplace blocks in
// multi-line imports, nested lists or strings that look like code.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_PYTHONANCHORS_H
#define OPMIG_MIGRATE_LIB_PYTHONANCHORS_H

#include "nlohmann/json.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opmig::migrate {

/// A position as `ast` counts it: 1-based line, 0-based byte column.
using PythonPosition = std::pair<size_t, size_t>;

/// Where a block goes in a Python file.
struct PythonPlacement {
  size_t Line = 1;    ///< The block goes before this 1-based line (after Split).
  std::string Indent; ///< Indentation of the block's lines.
  /// Inside a list whose closing bracket shares its line with code: break
  /// the line here, and indent the bracket's new line with CloseIndent.
  std::optional<PythonPosition> Split;
  std::string CloseIndent;
  /// Inside a list whose last element has no trailing comma: insert one here.
  std::optional<PythonPosition> Comma;
};

/// The outcome of a lookup: a placement, or why there is none.
struct PythonAnchorResult {
  std::optional<PythonPlacement> Placement;
  std::string WhyNotFound;
};

/// Runs the helper script, once per lookup.
class PythonAnchorLocator {
public:
  /// Locates `Anchor` (the part after `python:`, e.g. `list:__all__`) in
  /// `Source`. Fails with an InputError naming `Path` when the source does
  /// not parse or no python3 is found, and with a plain error when the
  /// helper script itself fails.
  llvm::Expected<PythonAnchorResult> locate(llvm::StringRef Source, llvm::StringRef Anchor,
                                            llvm::StringRef Path);

  /// The module's public names (bound at module level, no leading `_`), in
  /// the order they are bound.
  llvm::Expected<std::vector<std::string>> publicNames(llvm::StringRef Source,
                                                       llvm::StringRef Path);

private:
  /// Runs the helper with `Query`; the parsed answer.
  llvm::Expected<nlohmann::json> ask(llvm::StringRef Source, llvm::StringRef Query,
                                     llvm::StringRef Path);

  /// The interpreter's own path, learnt from the first answer: `python3` on
  /// PATH is often a launcher shim (pyenv's) that costs more than the parse.
  std::string Interpreter;
};

} // namespace opmig::migrate

#endif
