//===- Checkers.h - Factories of the built-in checkers ----------*- C++ -*-===//

#ifndef OPMIG_AUDIT_CHECKERS_H
#define OPMIG_AUDIT_CHECKERS_H

#include "opmig/audit/Checker.h"

#include <memory>

namespace opmig::audit {

std::unique_ptr<Checker> makeCppChecker();
std::unique_ptr<Checker> makeDocReferenceChecker();
std::unique_ptr<Checker> makePathChecker();
std::unique_ptr<Checker> makePythonChecker();
std::unique_ptr<Checker> makeTextChecker();

} // namespace opmig::audit

#endif
