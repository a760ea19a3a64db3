//===- ParseBudget.h - How many parses fit in memory at once ----*- C++ -*-===//
//
// Parses and preamble builds run on `-j` workers, but a parse of a TU that
// includes torch peaks near 1 GB: on a small machine, `-j` of them at once
// would exhaust memory. The analysis estimates each task's peak from what
// it includes (measured figures, bench/README.md) and runs no more of them
// at once than the available memory holds.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_PARSEBUDGET_H
#define OPMIG_ANALYZE_PARSEBUDGET_H

#include "opmig/analyze/TUParser.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opmig::analyze {

/// The kinds of task whose peaks differ, by what they read.
enum class ParseWeight {
  Plain,         ///< A parse without torch's headers (stand-ins, plain CUDA).
  Torch,         ///< A parse that reads torch's headers.
  TorchPreamble, ///< Likewise, with a shared preamble of them.
  PreambleBuild, ///< A preamble build of headers other than torch's.
  TorchPreambleBuild,
};

/// The estimated peak resident memory of one task of that kind, in bytes.
uint64_t estimatedPeakBytes(ParseWeight Weight);
/// Its name in `--verbose` ("torch parse", "preamble build", ...).
const char *describe(ParseWeight Weight);

/// Whether flags name torch's include directories (`.../torch/include`).
bool flagsReadTorch(const std::vector<std::string> &Flags);
/// The weight of the parse `Request` runs (with its preamble or not).
ParseWeight weightOfParse(const ParseRequest &Request);
/// The weight of building a preamble with `Like`'s flags.
ParseWeight weightOfPreambleBuild(const ParseRequest &Like);

struct ConcurrencyCap {
  unsigned AtOnce = 1; ///< At least 1, at most the jobs asked for.
  std::string Why;     ///< For `--verbose`: the cap and where it comes from.
};

/// How many tasks of `Weight` to run at once with `Jobs` workers and
/// `AvailableBytes` of memory (unknown: the jobs decide). A tenth of the
/// available memory is left for the rest of the process and the machine.
/// `What` names one task in the message ("parse").
ConcurrencyCap capConcurrency(unsigned Jobs, std::optional<uint64_t> AvailableBytes,
                              ParseWeight Weight, const std::string &What);

/// The heaviest weight among `Weights` (Plain when empty).
ParseWeight heaviest(const std::vector<ParseWeight> &Weights);

/// The memory available to new work: `OPMIG_MEMORY_AVAILABLE_MIB` when set
/// (tests and benchmarks), else `/proc/meminfo`'s MemAvailable; none when
/// neither can be read.
std::optional<uint64_t> availableMemory();

} // namespace opmig::analyze

#endif
