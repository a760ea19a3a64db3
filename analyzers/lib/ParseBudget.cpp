#include "opmig/analyze/ParseBudget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace opmig::analyze {

namespace {

constexpr uint64_t MiB = 1024 * 1024;

std::string gib(uint64_t Bytes) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%.1f GiB", double(Bytes) / (1024 * MiB));
  return Text;
}

/// The rank of a weight by its estimate, for `heaviest`.
bool lighter(ParseWeight A, ParseWeight B) { return estimatedPeakBytes(A) < estimatedPeakBytes(B); }

} // namespace

uint64_t estimatedPeakBytes(ParseWeight Weight) {
  // Measured with Clang 22 and PyPI torch 2.15 (bench/README.md, "Bounded
  // memory"): a plain torch parse peaks at about 1000 MiB, one with the
  // preamble at about half of it, a torch preamble build at about 1200 MiB.
  switch (Weight) {
  case ParseWeight::Plain:
  case ParseWeight::PreambleBuild:
    return 256 * MiB;
  case ParseWeight::Torch:
    return 1024 * MiB;
  case ParseWeight::TorchPreamble:
    return 640 * MiB;
  case ParseWeight::TorchPreambleBuild:
    return 1280 * MiB;
  }
  return 1024 * MiB;
}

const char *describe(ParseWeight Weight) {
  switch (Weight) {
  case ParseWeight::Plain:
    return "parse";
  case ParseWeight::Torch:
    return "torch parse";
  case ParseWeight::TorchPreamble:
    return "torch parse with the preamble";
  case ParseWeight::PreambleBuild:
    return "preamble build";
  case ParseWeight::TorchPreambleBuild:
    return "torch preamble build";
  }
  return "parse";
}

bool flagsReadTorch(const std::vector<std::string> &Flags) {
  return std::any_of(Flags.begin(), Flags.end(), [](llvm::StringRef Flag) {
    Flag = Flag.rtrim('/');
    return Flag.ends_with("/torch/include") || Flag.ends_with("/torch/csrc/api/include");
  });
}

ParseWeight weightOfParse(const ParseRequest &Request) {
  if (!flagsReadTorch(Request.Flags))
    return ParseWeight::Plain;
  return Request.PreamblePch.empty() ? ParseWeight::Torch : ParseWeight::TorchPreamble;
}

ParseWeight weightOfPreambleBuild(const ParseRequest &Like) {
  return flagsReadTorch(Like.Flags) ? ParseWeight::TorchPreambleBuild : ParseWeight::PreambleBuild;
}

ParseWeight heaviest(const std::vector<ParseWeight> &Weights) {
  if (Weights.empty())
    return ParseWeight::Plain;
  return *std::max_element(Weights.begin(), Weights.end(), lighter);
}

ConcurrencyCap capConcurrency(unsigned Jobs, std::optional<uint64_t> AvailableBytes,
                              ParseWeight Weight, const std::string &What) {
  Jobs = std::max(Jobs, 1u);
  ConcurrencyCap Cap;
  uint64_t Each = estimatedPeakBytes(Weight);
  std::string Per = "~" + gib(Each) + " per " + describe(Weight);
  uint64_t Fit = Jobs;
  if (AvailableBytes)
    Fit = (*AvailableBytes - *AvailableBytes / 10) / Each;
  Cap.AtOnce = unsigned(std::clamp<uint64_t>(Fit, 1, Jobs));
  Cap.Why = Cap.AtOnce == 1 ? "1 " + What + " at a time"
                            : std::to_string(Cap.AtOnce) + " " + What + "s at once";
  Cap.Why += " (-j" + std::to_string(Jobs) + "): ";
  Cap.Why += AvailableBytes ? gib(*AvailableBytes) + " available" : "available memory unknown";
  Cap.Why += ", " + Per;
  if (Fit == 0)
    Cap.Why += " (more than is available)";
  return Cap;
}

std::optional<uint64_t> availableMemory() {
  if (auto Forced = llvm::sys::Process::GetEnv("OPMIG_MEMORY_AVAILABLE_MIB")) {
    uint64_t MiBs;
    if (!llvm::StringRef(*Forced).trim().getAsInteger(10, MiBs))
      return MiBs * MiB;
  }
  auto Buffer = llvm::MemoryBuffer::getFileAsStream("/proc/meminfo");
  if (!Buffer)
    return std::nullopt;
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (!Line.consume_front("MemAvailable:"))
      continue;
    llvm::StringRef Value = Line.trim();
    uint64_t KiB;
    if (Value.consume_back("kB") && !Value.trim().getAsInteger(10, KiB))
      return KiB * 1024;
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace opmig::analyze
