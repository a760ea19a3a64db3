#include "opmig/validate/Layers.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

TEST(LayersTest, AllInRunOrder) {
  std::vector<std::string> Names;
  for (const LayerInfo &L : allLayers())
    Names.push_back(L.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"build", "import", "api", "fake", "smoke", "parity",
                                             "boundary", "diff", "perf"}));
  EXPECT_TRUE(findLayer("smoke")->NeedsGpu);
  EXPECT_FALSE(findLayer("import")->NeedsGpu);
  // The two that compare with the upstream build run by default with --source only.
  EXPECT_TRUE(needsUpstreamSource("diff"));
  EXPECT_TRUE(needsUpstreamSource("perf"));
  EXPECT_FALSE(needsUpstreamSource("parity"));
}

TEST(LayersTest, AListIsPutInRunOrderOnce) {
  llvm::Expected<std::vector<std::string>> Layers = parseLayerList("import, build,import");
  ASSERT_TRUE(bool(Layers)) << llvm::toString(Layers.takeError());
  EXPECT_EQ(*Layers, (std::vector<std::string>{"build", "import"}));
}

TEST(LayersTest, UnknownLayersAndEmptyListsAreInputErrors) {
  llvm::Expected<std::vector<std::string>> Unknown = parseLayerList("build,imports");
  ASSERT_FALSE(bool(Unknown));
  EXPECT_EQ(llvm::toString(Unknown.takeError()),
            "unknown validation layer 'imports'; the layers are build, import, api, fake, smoke, "
            "parity, boundary, diff, perf");
  llvm::Expected<std::vector<std::string>> Empty = parseLayerList(",");
  ASSERT_FALSE(bool(Empty));
  llvm::consumeError(Empty.takeError());
}

} // namespace
} // namespace opmig::validate
