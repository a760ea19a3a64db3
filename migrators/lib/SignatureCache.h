//===- SignatureCache.h - Derived op signatures kept across runs -*- C++ -*-===//
//
// The signatures derived from one parse of an entry's file are a function of
// that parse's command line, the entries asked for (function, location, op
// name, declared writes, upstream schema) and the files the parse read.
// They are kept in the analysis' cache like the rewrite's parse records
// (RewriteCache.h), so a re-run of an unchanged migration parses nothing.
// A parse that does run gets the analysis' shared preamble (PreambleAttacher.h)
// when the cache holds it, as the rewrite's parses do.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_SIGNATURECACHE_H
#define OPMIG_MIGRATE_LIB_SIGNATURECACHE_H

#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/PreambleAttacher.h"
#include "opmig/analyze/SourceTree.h"
#include "opmig/migrate/OpSignature.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

class SignatureCache {
public:
  /// A cache in `Dir` (the analysis'); none when `Dir` is empty or the tree
  /// at `SourceRoot` cannot be read. With `HostRequestFor` (the host request
  /// of any TU of the tree, as the analysis parses it), parses that run get
  /// the analysis' preamble.
  SignatureCache(const std::string &Dir, const std::string &SourceRoot,
                 std::function<analyze::ParseRequest(const std::string &)> HostRequestFor = {},
                 unsigned Jobs = 0);
  ~SignatureCache();

  std::optional<std::vector<OpSignature>> lookup(const std::string &Key);
  void store(const std::string &Key, const std::vector<std::string> &InputFiles,
             const std::vector<OpSignature> &Signatures);
  /// Attaches the shared preamble to `Parse` when one applies; only with a
  /// cache, where the analysis left it (without one, building it for a
  /// single parse would cost more than the parse).
  void attachPreamble(analyze::ParseRequest &Parse);

private:
  std::optional<analyze::SourceTree> Tree;
  std::unique_ptr<analyze::FactsCache> Cache;
  std::unique_ptr<analyze::PreambleAttacher> Preambles;
};

} // namespace opmig::migrate

#endif
