// loadCompileDatabase: compile_commands.json from `-p`, read by opmig's
// nesting guard and then by Clang's JSONCompilationDatabase.
#include "FuzzSupport.h"
#include "opmig/analyze/CompileFlags.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Dir = opmig::fuzz::scratchDir();
  opmig::fuzz::writeFile(Dir + "/compile_commands.json", Data, Size);
  opmig::fuzz::consume(opmig::analyze::loadCompileDatabase(Dir));
  return 0;
}
