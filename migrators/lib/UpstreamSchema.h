//===- UpstreamSchema.h - What an upstream's own op schema says -*- C++ -*-===//
//
// An upstream that registers with `TORCH_LIBRARY` wrote the schema of its
// ops: `fill_rows(Tensor(a!) out, float value) -> ()`. Its alias marks say
// which tensors the op writes even where the code cannot show it (the
// write is in a kernel in another TU), so the derived schema takes them.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_UPSTREAMSCHEMA_H
#define OPMIG_MIGRATE_UPSTREAMSCHEMA_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::migrate {

struct SchemaArgument {
  std::string Type; ///< As written, alias annotation included: `Tensor(a!)?`.
  std::string Name;
  bool Writes = false; ///< Its alias annotation ends in `!`.
};

/// The arguments of `Schema` (`(Tensor(a!) out, *, float v=1.0) -> ()`,
/// without the op name), in order, the `*` marker left out; empty when it
/// does not parse.
std::vector<SchemaArgument> schemaArguments(llvm::StringRef Schema);

} // namespace opmig::migrate

#endif
