//===- DomainNames.h - Where a profile puts a migrated domain ---*- C++ -*-===//
//
// The names the layers after build need to find a migrated domain: for
// cache-dit, the package under `src/`, the domain module
// `cache_dit.kernels._<domain>` and the extension `cache_dit._C_<domain>`;
// for veomni, the op package `veomni.ops.<domain>` and its cuda_impl.py,
// which registers the ops and builds the extension on first use; for
// generic, the library that registers `opmig_<domain>`. The profiles
// (rules/profiles/*/profile.json) define them; the manifest does not record
// them, so they are spelled here, once.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_DOMAINNAMES_H
#define OPMIG_VALIDATE_LIB_DOMAINNAMES_H

#include "LayerContext.h"
#include "nlohmann/json.hpp"

#include <string>
#include <vector>

namespace opmig::validate {

struct CacheDitNames {
  std::string SourceRoot;    ///< Absolute `<target>/src`.
  std::string Package;       ///< `cache_dit`.
  std::string KernelsModule; ///< `cache_dit.kernels`, which re-exports.
  std::string DomainModule;  ///< `cache_dit.kernels._<domain>`.
  std::string DomainFile;    ///< Root-relative path of the domain module.
  std::string Extension;     ///< `cache_dit._C_<domain>`.
};

CacheDitNames cacheDitNames(const LayerContext &Ctx);

struct VeomniNames {
  std::string PackageModule; ///< `veomni.ops`, which re-exports.
  std::string DomainModule;  ///< `veomni.ops.<domain>`: pointers and patch.
  std::string DomainFile;    ///< Root-relative path of its `__init__.py`.
  std::string ImplModule;    ///< `veomni.ops.<domain>.cuda_impl`.
  std::string ImplFile;      ///< Root-relative path of cuda_impl.py.
  std::string NativeDir;     ///< Root-relative `veomni/ops/<domain>/csrc`.
};

VeomniNames veomniNames(const LayerContext &Ctx);

/// The namespace the domain's ops are registered in.
std::string opNamespace(const LayerContext &Ctx);

/// The manifest's op names, in its order.
std::vector<std::string> opNames(const Manifest &M);

/// How op_harness.py loads what the build made (its request's `load`).
nlohmann::json loadRequest(const LayerContext &Ctx);

} // namespace opmig::validate

#endif
