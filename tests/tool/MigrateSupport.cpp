#include "MigrateSupport.h"

#include "TreeSnapshot.h"

namespace opmig::test {

MigrationSandbox::MigrationSandbox(const MigrationCase &C)
    : Source(copyToTemp(std::string(OPMIG_SOURCE_DIR) + "/" + C.Upstream)),
      Target(copyToTemp(std::string(OPMIG_SOURCE_DIR) + "/" + C.Target)) {}

std::vector<std::string> migrateArgs(const MigrationCase &C, const MigrationSandbox &Box,
                                     const std::vector<std::string> &Extra, bool Stubs,
                                     bool CompileCheck) {
  std::vector<std::string> Args = {"migrate",
                                   "--source",
                                   Box.Source,
                                   "--target",
                                   Box.Target,
                                   "--domain",
                                   C.Domain,
                                   "--profile",
                                   C.Profile,
                                   "--upstream-repo",
                                   "example.org/" + C.Name,
                                   "--upstream-commit",
                                   "0123456789abcdef0123456789abcdef01234567"};
  for (const std::string &Entry : C.Entries) {
    Args.push_back("--entry");
    Args.push_back(Entry);
  }
  Args.insert(Args.end(), C.Options.begin(), C.Options.end());
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  if (!CompileCheck)
    Args.push_back("--no-compile-check");
  if (Stubs)
    for (const std::string &Arg : stubArgs())
      Args.push_back(Arg);
  return Args;
}

MigrationCase sampleIntoCacheDit() {
  return {"sample_cache_dit",    "samples/upstream",
          {"merge_attn_states"}, "tests/fixtures/targets/cache_dit_like",
          "cache-dit",           "attn"};
}

void PrintTo(const MigrationCase &C, std::ostream *Out) { *Out << C.Name; }

} // namespace opmig::test
