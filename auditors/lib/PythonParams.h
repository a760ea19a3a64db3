//===- PythonParams.h - Python checks' parameters beyond their types -*- C++ -*-===//
//
// CheckParams validates each parameter of a python check on its own; the
// checks here also constrain parameters together (either `function` and
// `file` or `registries`, a `{domain}` name needs a source of domains), so
// that a rule file that cannot work is an InputError naming its line.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_PYTHONPARAMS_H
#define OPMIG_AUDIT_PYTHONPARAMS_H

#include "opmig/audit/Rule.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// One place a registered-in rule accepts a registration: a function of a
/// file.
struct Registry {
  std::string File, Function;
};

/// registered-in's registries: `function` in `file`, or each `FILE:FUNCTION`
/// entry of `registries`.
std::vector<Registry> registriesOf(const Rule &R);

/// The constraints between the parameters of `R`'s python check (its types
/// are already valid).
llvm::Error validatePythonParams(const Rule &R);

} // namespace opmig::audit

#endif
