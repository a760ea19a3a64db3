#include "opmig/validate/CudaArchList.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

TEST(CudaArchListTest, ReadsTorchsSpellingsAndDropsRepeats) {
  llvm::Expected<std::vector<CudaArch>> Archs =
      parseCudaArchList("9.0a; 8.9+PTX,sm_100f 90a", "TORCH_CUDA_ARCH_LIST");
  ASSERT_TRUE(bool(Archs)) << llvm::toString(Archs.takeError());
  ASSERT_EQ(Archs->size(), 3u);
  EXPECT_EQ((*Archs)[0].Number, "90a");
  EXPECT_EQ((*Archs)[1].Number, "89");
  EXPECT_TRUE((*Archs)[1].Ptx);
  EXPECT_EQ((*Archs)[2].Number, "100f");
  EXPECT_EQ(torchArchList(*Archs), "9.0a;8.9+PTX;10.0f");
}

TEST(CudaArchListTest, GencodeFlagsAddPtxOnlyWhenAsked) {
  EXPECT_EQ((CudaArch{"90a", false}.gencodeFlags()),
            (std::vector<std::string>{"-gencode=arch=compute_90a,code=sm_90a"}));
  EXPECT_EQ((CudaArch{"89", true}.gencodeFlags()),
            (std::vector<std::string>{"-gencode=arch=compute_89,code=sm_89",
                                      "-gencode=arch=compute_89,code=compute_89"}));
}

TEST(CudaArchListTest, AnEntryThatIsNoArchNamesTheList) {
  llvm::Expected<std::vector<CudaArch>> Archs = parseCudaArchList("9.0a;hopper", "the arch list");
  ASSERT_FALSE(bool(Archs));
  EXPECT_EQ(llvm::toString(Archs.takeError()),
            "the arch list: 'hopper' is no CUDA arch; write them as torch does, e.g. 9.0a;8.9");
  llvm::Expected<std::vector<CudaArch>> Empty = parseCudaArchList(" ; ", "TORCH_CUDA_ARCH_LIST");
  ASSERT_FALSE(bool(Empty));
  EXPECT_EQ(llvm::toString(Empty.takeError()), "TORCH_CUDA_ARCH_LIST names no CUDA arch");
}

} // namespace
} // namespace opmig::validate
