// loadProfile: a user's profile.json, with its keys, anchors and template
// names (templates it names are looked up next to it, and are absent here).
#include "FuzzSupport.h"
#include "opmig/migrate/Profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Dir = opmig::fuzz::scratchDir();
  opmig::fuzz::writeFile(Dir + "/profile.json", Data, Size);
  opmig::fuzz::consume(opmig::migrate::loadProfile(Dir + "/profile.json", Dir));
  return 0;
}
