//===- CachedCompile.cpp - A TU compiled, or its object reused ------------===//

#include "DomainBuilders.h"

namespace opmig::validate {

ChildOutcome compileObject(const ObjectCache &Cache, const ObjectCompile &C,
                           unsigned TimeoutSeconds, bool &Reused) {
  Reused = Cache.fetch(C);
  if (Reused) {
    ChildOutcome Fetched;
    Fetched.How = ChildOutcome::Kind::Exited;
    Fetched.ExitCode = 0;
    return Fetched;
  }
  ChildOutcome Run = runChild(C.commandWritingInputs(), {}, "", TimeoutSeconds);
  if (Run.succeeded())
    Cache.store(C);
  return Run;
}

} // namespace opmig::validate
