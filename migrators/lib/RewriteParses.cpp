#include "RewriteParses.h"

#include "opmig/analyze/ParseBudget.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

namespace opmig::migrate {

RewriteParses::RewriteParses(const RewriteContext &Ctx) : Ctx(Ctx) {
  const RewriteRequest &Request = Ctx.request();
  if (Request.CacheDir.empty() && !Request.UsePreamble)
    return;
  llvm::Expected<analyze::SourceTree> Read = analyze::readSourceTree(Ctx.sourceRoot());
  if (!Read) {
    llvm::consumeError(Read.takeError()); // Only costs time: every parse runs plain.
    return;
  }
  Tree.emplace(std::move(*Read));
  Facts = std::make_unique<analyze::FactsCache>(Request.CacheDir, *Tree);
  if (!Request.CacheDir.empty())
    Cache.emplace(Ctx, *Facts);
  if (Request.UsePreamble)
    Preambles = std::make_unique<analyze::PreambleAttacher>(
        *Tree, *Facts, [this](const std::string &TU) { return hostRequestFor(TU); }, Request.Jobs);
}

RewriteParses::~RewriteParses() = default;

/// As the analysis asks for a TU's host parse: its flags (ported or not),
/// from the source root. Only the flags and the folder matter: they group
/// the TUs that share a preamble.
analyze::ParseRequest RewriteParses::hostRequestFor(const std::string &TU) const {
  std::string Relative = Ctx.relative(TU);
  ParseJob Job{Relative, TU, {}, analyze::ParseSide::Host, {}};
  for (const auto *Flags : {&Ctx.request().TUFlags, &Ctx.request().OtherTUFlags})
    if (auto It = Flags->find(Relative); It != Flags->end()) {
      Job.Flags = It->second;
      break;
    }
  Job.Flags.insert(Job.Flags.end(), Ctx.request().ExtraArgs.begin(), Ctx.request().ExtraArgs.end());
  return parseRequestOf(Ctx, Job);
}

std::vector<ParseRecord> RewriteParses::run(const std::vector<ParseJob> &Jobs) {
  std::vector<ParseRecord> Records(Jobs.size());
  std::vector<size_t> Misses;
  std::vector<analyze::ParseRequest> Requests;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    analyze::ParseRequest Request = parseRequestOf(Ctx, Jobs[I]);
    if (Cache)
      if (std::optional<ParseRecord> Cached = Cache->lookup(Request, Jobs[I].ProbeText)) {
        Records[I] = std::move(*Cached);
        ++Stats.ParsesCached;
        continue;
      }
    Misses.push_back(I);
    Requests.push_back(std::move(Request));
  }
  std::vector<analyze::ParseRequest> WithPreambles = Requests;
  if (Preambles)
    Preambles->attach(WithPreambles);
  // As many at once as memory allows, as the analysis' own parses.
  std::vector<analyze::ParseWeight> Weights;
  for (const analyze::ParseRequest &Request : WithPreambles)
    Weights.push_back(analyze::weightOfParse(Request));
  unsigned Workers = llvm::hardware_concurrency(Ctx.request().Jobs).compute_thread_count();
  analyze::ConcurrencyCap Cap = analyze::capConcurrency(
      Workers, analyze::availableMemory(), analyze::heaviest(Weights), "rewrite parse");
  if (!Misses.empty() && !llvm::is_contained(Stats.Concurrency, Cap.Why))
    Stats.Concurrency.push_back(Cap.Why);
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Cap.AtOnce));
  for (size_t M = 0; M < Misses.size(); ++M)
    Pool.async([&, M] {
      size_t I = Misses[M];
      Records[I] = runParse(Ctx, Jobs[I], WithPreambles[M]);
      if (Cache) // Keyed by the plain request: the record is the same.
        Cache->store(Requests[M], Jobs[I].ProbeText, Records[I]);
    });
  Pool.wait();
  Stats.ParsesRun += Misses.size();
  for (const analyze::ParseRequest &Request : WithPreambles)
    Stats.ParsesWithPreamble += !Request.PreamblePch.empty();
  return Records;
}

RewriteStats RewriteParses::stats() const {
  RewriteStats Out = Stats;
  if (Preambles) {
    Out.Preambles = Preambles->notes();
    Out.Concurrency.insert(Out.Concurrency.begin(), Preambles->concurrency().begin(),
                           Preambles->concurrency().end());
  }
  return Out;
}

} // namespace opmig::migrate
