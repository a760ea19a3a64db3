//===- FuzzSupport.h - Shared bits of the fuzz targets ----------*- C++ -*-===//

#ifndef OPMIG_TESTS_FUZZ_FUZZSUPPORT_H
#define OPMIG_TESTS_FUZZ_FUZZSUPPORT_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace opmig::fuzz {

/// A scratch folder of this process, made once (the parsers that read
/// files are given one there).
inline const std::string &scratchDir() {
  static const std::string Dir = [] {
    char Template[] = "/tmp/opmig-fuzz-XXXXXX";
    if (!mkdtemp(Template))
      std::abort();
    return std::string(Template);
  }();
  return Dir;
}

inline void writeFile(const std::string &Path, const uint8_t *Data, size_t Size) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    std::abort();
  std::fwrite(Data, 1, Size, F);
  std::fclose(F);
}

/// A plain relative path: not empty, not absolute, no `.`/`..` component,
/// no NUL (what every accepted path from a user's file must be).
inline bool isPlainRelative(const std::string &Path) {
  if (Path.empty() || Path.front() == '/' || Path.find('\0') != std::string::npos)
    return false;
  size_t Start = 0;
  while (Start <= Path.size()) {
    size_t End = Path.find('/', Start);
    if (End == std::string::npos)
      End = Path.size();
    std::string Part = Path.substr(Start, End - Start);
    if (Part.empty() || Part == "." || Part == "..")
      return false;
    Start = End + 1;
  }
  return true;
}

/// An error is a fine answer to bad input; a crash or a hang is not.
template <typename T> void consume(llvm::Expected<T> Result) {
  if (!Result)
    llvm::consumeError(Result.takeError());
}
inline void consume(llvm::Error E) { llvm::consumeError(std::move(E)); }

} // namespace opmig::fuzz

#endif
