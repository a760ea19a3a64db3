//===- Layers.cpp - The validation layers ---------------------------------===//

#include "opmig/validate/Layers.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

namespace opmig::validate {

namespace {

constexpr LayerInfo Layers[] = {
    {"build", "the kernels compile and link for the requested archs", false},
    {"import", "the package imports without the extension, and the built extension loads", false},
    {"api", "registered ops, schemas, kernels and Python names match the manifest", false},
    {"fake", "the fake/meta path gives the real output's shape, dtype and strides", false},
    {"smoke", "each op runs on the GPU for each dtype", true},
    {"parity", "outputs match the reference within tolerance", true},
    {"boundary", "bad inputs raise clear errors before any kernel runs", true},
    {"diff",
     "outputs equal the upstream build's bitwise on the same inputs (needs the upstream tree)",
     true},
    {"perf",
     "as fast as the upstream build, within the noise measured in the same run (needs the "
     "upstream tree)",
     true},
};

std::string allNames() {
  llvm::SmallVector<llvm::StringRef> Names;
  for (const LayerInfo &L : Layers)
    Names.push_back(L.Name);
  return llvm::join(Names, ", ");
}

} // namespace

llvm::ArrayRef<LayerInfo> allLayers() { return Layers; }

const LayerInfo *findLayer(llvm::StringRef Name) {
  for (const LayerInfo &L : Layers)
    if (Name == L.Name)
      return &L;
  return nullptr;
}

bool needsUpstreamSource(llvm::StringRef Name) { return Name == "diff" || Name == "perf"; }

llvm::Expected<std::vector<std::string>> parseLayerList(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef> Parts;
  List.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::set<std::string> Asked;
  for (llvm::StringRef Part : Parts) {
    llvm::StringRef Name = Part.trim();
    const LayerInfo *Layer = findLayer(Name);
    if (!Layer)
      return inputError("unknown validation layer '", Name.str(), "'; the layers are ", allNames());
    Asked.insert(Name.str());
  }
  if (Asked.empty())
    return inputError("no validation layer named in '", List.str(), "'");
  std::vector<std::string> Ordered;
  for (const LayerInfo &L : Layers)
    if (Asked.count(L.Name))
      Ordered.push_back(L.Name);
  return Ordered;
}

} // namespace opmig::validate
