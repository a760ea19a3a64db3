//===- LeftOutBlanking.cpp - An upstream TU less what migrate left out ----===//

#include "opmig/validate/LeftOutBlanking.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig::validate {

namespace {

/// 1-based line of `Offset` in `Text`.
unsigned lineOf(llvm::StringRef Text, size_t Offset) {
  return 1 + Text.take_front(Offset).count('\n');
}

std::string describe(const LeftOutRange &R) {
  std::string Lines = R.FirstLine == R.LastLine ? "line " + std::to_string(R.FirstLine)
                                                : "lines " + std::to_string(R.FirstLine) + "-" +
                                                      std::to_string(R.LastLine);
  return Lines + " (" +
         (R.Include.empty() ? llvm::join(R.Definitions, ", ") : "#include " + R.Include) + ")";
}

/// Why `R` does not fit `Text`, or empty.
std::string misfit(llvm::StringRef Text, const LeftOutRange &R) {
  if (R.End > Text.size() || R.Begin >= R.End)
    return "bytes " + std::to_string(R.Begin) + "-" + std::to_string(R.End) +
           " are past the file's end (" + std::to_string(Text.size()) + " bytes)";
  if (lineOf(Text, R.Begin) != R.FirstLine || lineOf(Text, R.End - 1) != R.LastLine)
    return "bytes " + std::to_string(R.Begin) + "-" + std::to_string(R.End) + " are lines " +
           std::to_string(lineOf(Text, R.Begin)) + "-" + std::to_string(lineOf(Text, R.End - 1)) +
           " of the file";
  llvm::StringRef Stretch = Text.slice(R.Begin, R.End);
  if (!R.Include.empty() && !(Stretch.ltrim().starts_with("#") && Stretch.contains(R.Include)))
    return "that line does not include " + R.Include;
  return "";
}

} // namespace

llvm::Expected<std::string>
blankLeftOut(llvm::StringRef Text, const std::vector<LeftOutRange> &Ranges, llvm::StringRef File) {
  std::string Blanked = Text.str();
  for (const LeftOutRange &R : Ranges) {
    if (std::string Why = misfit(Text, R); !Why.empty())
      return inputError("the manifest says migrate left ", describe(R), " out of the upstream ",
                        File, ", but ", Why,
                        ": the manifest or the upstream file was edited "
                        "since; check out the upstream commit it records, or migrate again");
    for (size_t I = R.Begin; I < R.End; ++I)
      if (Blanked[I] != '\n')
        Blanked[I] = ' ';
  }
  return Blanked;
}

std::string describeLeftOut(const std::vector<LeftOutRange> &Ranges) {
  std::vector<std::string> Parts;
  for (const LeftOutRange &R : Ranges)
    Parts.push_back(describe(R));
  return llvm::join(Parts, "; ");
}

} // namespace opmig::validate
