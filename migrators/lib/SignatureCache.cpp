#include "SignatureCache.h"

#include "OpSignatureJson.h"

namespace opmig::migrate {

/// Kind of the cache entries: a new format gets a new kind.
static constexpr const char *EntryKind = "op-signatures/1";

SignatureCache::SignatureCache(
    const std::string &Dir, const std::string &SourceRoot,
    std::function<analyze::ParseRequest(const std::string &)> HostRequestFor, unsigned Jobs) {
  if (Dir.empty())
    return;
  llvm::Expected<analyze::SourceTree> Read = analyze::readSourceTree(SourceRoot);
  if (!Read) {
    llvm::consumeError(Read.takeError()); // Only costs time: the parse runs.
    return;
  }
  Tree.emplace(std::move(*Read));
  Cache = std::make_unique<analyze::FactsCache>(Dir, *Tree);
  if (HostRequestFor)
    Preambles =
        std::make_unique<analyze::PreambleAttacher>(*Tree, *Cache, std::move(HostRequestFor), Jobs);
}

SignatureCache::~SignatureCache() = default;

std::optional<std::vector<OpSignature>> SignatureCache::lookup(const std::string &Key) {
  if (!Cache)
    return std::nullopt;
  std::optional<nlohmann::json> Saved = Cache->lookupEntry(Key, EntryKind);
  if (!Saved || !Saved->is_array())
    return std::nullopt;
  std::vector<OpSignature> Signatures;
  for (const nlohmann::json &One : *Saved) {
    std::optional<OpSignature> Sig = opSignatureFromJson(One);
    if (!Sig)
      return std::nullopt;
    Signatures.push_back(std::move(*Sig));
  }
  return Signatures;
}

void SignatureCache::store(const std::string &Key, const std::vector<std::string> &InputFiles,
                           const std::vector<OpSignature> &Signatures) {
  if (!Cache || InputFiles.empty())
    return;
  nlohmann::json Saved = nlohmann::json::array();
  for (const OpSignature &Sig : Signatures)
    Saved.push_back(opSignatureJson(Sig));
  Cache->storeEntry(Key, InputFiles, EntryKind, std::move(Saved));
}

void SignatureCache::attachPreamble(analyze::ParseRequest &Parse) {
  if (!Preambles)
    return;
  std::vector<analyze::ParseRequest> One = {Parse};
  Preambles->attach(One);
  Parse = std::move(One.front());
}

} // namespace opmig::migrate
