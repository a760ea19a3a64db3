//===- FirstError.cpp - A failed build in one line ------------------------===//

#include "opmig/validate/FirstError.h"

#include "opmig/support/TreeCompile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace opmig::validate {

namespace {

/// The source after `-c` on a compile command line.
std::string compiledSource(llvm::StringRef Command) {
  llvm::SmallVector<llvm::StringRef> Words;
  Command.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (size_t I = 0; I + 1 < Words.size(); ++I)
    if (Words[I] == "-c")
      return Words[I + 1].trim("\"'").str();
  return "";
}

/// CMake writes its message under the `CMake Error ...:` line, indented,
/// up to a blank line: the paragraph joined into one line.
std::string cmakeParagraph(llvm::ArrayRef<llvm::StringRef> Lines, size_t First) {
  std::string Text = Lines[First].trim().str();
  for (size_t I = First + 1; I < Lines.size() && Lines[I].starts_with(" "); ++I)
    Text += " " + Lines[I].trim().str();
  return Text;
}

} // namespace

std::string BuildFailure::firstError() const {
  if (First)
    return First->File + (First->Line ? ":" + std::to_string(First->Line) : "") +
           ": error: " + First->Message;
  return FirstLine.empty() ? "the build failed without an error message" : FirstLine;
}

std::string BuildFailure::summary() const {
  return (File.empty() ? "" : File + ": ") + firstError();
}

BuildFailure firstBuildError(llvm::StringRef Log, llvm::StringRef Root) {
  BuildFailure Failure;
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n');
  size_t From = 0;
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].starts_with("FAILED: ")) {
      From = I + 1;
      if (I + 1 < Lines.size())
        Failure.File = relativeToRoot(compiledSource(Lines[I + 1]), Root);
      break;
    }
  for (size_t I = From; I < Lines.size() && !Failure.First; ++I) {
    std::vector<CompilerError> Errors = parseCompilerErrors(Lines[I]);
    if (!Errors.empty()) {
      Failure.First = Errors.front();
      Failure.First->File = relativeToRoot(Failure.First->File, Root);
    } else if (Failure.FirstLine.empty() && Lines[I].contains_insensitive("error")) {
      Failure.FirstLine =
          Lines[I].starts_with("CMake Error") ? cmakeParagraph(Lines, I) : Lines[I].trim().str();
    }
  }
  return Failure;
}

} // namespace opmig::validate
