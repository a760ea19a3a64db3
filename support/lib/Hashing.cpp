#include "opmig/support/Hashing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace opmig {

std::string sha256Hex(llvm::StringRef Data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Data)), /*LowerCase=*/true);
}

} // namespace opmig
