//===- RequiredNames.h - The required-names python check ---------*- C++ -*-===//
//
// The helper answers one record per file with the names it binds
// (`defined`); here the rule's `names` are instantiated per domain and each
// one the file does not bind is a finding about the whole file (line 0).
// A domain comes from the file's own path (`file-domain`: group 1 of a
// regex, `_attn.py` -> `attn`; a file it does not match is not judged) or
// from the repository (`domains`: a glob with one `*`); both are renamed
// through `domain-map` (`svdq=svdquant`). With both, a file is judged only
// when its own domain is one of the repository's (`_ops_registery.py` is no
// domain module: no csrc/kernels/ops_registery/).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_REQUIREDNAMES_H
#define OPMIG_AUDIT_REQUIREDNAMES_H

#include "PythonAstBridge.h"
#include "opmig/audit/Repository.h"
#include "opmig/audit/Rule.h"
#include "opmig/support/Finding.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// The findings of a required-names rule on `File`, whose helper record is
/// `Record`. Captures: `{name}` `{domain}` `{file}`.
std::vector<Finding> missingNames(const Rule &R, const Repository &Repo, const std::string &File,
                                  const PythonRecord &Record);

} // namespace opmig::audit

#endif
