//===- SharedPreambles.h - Which parses get which preamble ------*- C++ -*-===//
//
// Decides, for a wave of parses, which of them parse with a precompiled
// preamble (Preamble.h), and builds the preambles they need: one per flags,
// working directory, side and run of includes, kept in the cache directory
// (or a temporary one) and reused while its headers are unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_LIB_SHAREDPREAMBLES_H
#define OPMIG_ANALYZE_LIB_SHAREDPREAMBLES_H

#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUParser.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opmig::analyze {

class SharedPreambles {
public:
  /// `HostRequestFor` gives a TU's host-side parse request; TUs whose
  /// requests have the same flags and folder share a run.
  SharedPreambles(const SourceTree &Tree, FactsCache &Cache,
                  std::function<ParseRequest(const std::string &)> HostRequestFor, unsigned Jobs);
  ~SharedPreambles();
  SharedPreambles(const SharedPreambles &) = delete;
  SharedPreambles &operator=(const SharedPreambles &) = delete;

  /// Sets `PreamblePch` on the parses that can use one, building it (or
  /// reusing it from the cache): every run it gives is shared by at least
  /// two TUs of the tree.
  void attach(std::vector<ParseRequest> &Parses);

  /// What happened, for `--verbose`: one note per preamble, in the order of
  /// the parses that first used it.
  const std::vector<std::string> &notes() const { return Notes; }
  /// How many builds ran at once and why (the memory cap), once per cap.
  const std::vector<std::string> &concurrency() const { return Concurrency; }
  unsigned parsesAttached() const { return Attached; }

private:
  struct Built {
    std::string Pch, Header;
    std::vector<std::string> Inputs;
  };
  std::vector<std::string> runFor(const ParseRequest &Request);
  const std::vector<std::string> &sharedRunOf(const std::string &Group);
  std::string folder();
  /// Builds one preamble (thread-safe once `folder()` was called); the
  /// note says how it went.
  std::pair<std::optional<Built>, std::string> build(const std::string &Key,
                                                     const ParseRequest &Like,
                                                     const std::vector<std::string> &Run) const;
  std::string describe(const ParseRequest &Like, const std::vector<std::string> &Run) const;
  /// Builds `Keys` on a pool capped by memory; their notes go to `NoteOf`.
  void buildAll(const std::vector<std::string> &Keys, const std::vector<ParseRequest> &Parses,
                const std::map<std::string, std::vector<size_t>> &Users,
                const std::map<std::string, std::vector<std::string>> &Runs,
                std::map<std::string, std::string> &NoteOf);

  const SourceTree &Tree;
  FactsCache &Cache;
  std::function<ParseRequest(const std::string &)> HostRequestFor;
  unsigned Jobs;
  std::string Folder;
  bool OwnsFolder = false;
  std::map<std::string, std::vector<std::string>> LeadingRuns; ///< By TU.
  std::map<std::string, std::vector<std::string>> SharedRuns;  ///< By flags group.
  /// By key; nullopt once a build failed, so that it is not retried.
  std::map<std::string, std::optional<Built>> Preambles;
  std::vector<std::string> Notes;
  std::vector<std::string> Concurrency;
  unsigned Attached = 0;
};

} // namespace opmig::analyze

#endif
