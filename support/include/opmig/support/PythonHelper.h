//===- PythonHelper.h - Running an embedded Python helper -------*- C++ -*-===//
//
// migrate (anchors in Python files) and audit (the python rules) read Python
// through CPython's own `ast`, in helper scripts compiled into the binary.
// Both run them the same way: `python3 -I -S <folder>/script.py`, the request on
// stdin and the answer on stdout, through files in a private temporary
// folder that is removed on every exit, SIGINT and SIGTERM included
// (ScratchDir.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_PYTHONHELPER_H
#define OPMIG_SUPPORT_PYTHONHELPER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// Runs `Script`, written to a file, as `Python -I -S <file> Args...` (a
/// traceback then names its lines; no argv limit applies to its size), with
/// `Input` on stdin, and returns
/// its stdout when it exits 0; otherwise an error `<What> failed with exit
/// code N: <the tail of its stderr>`. `-I -S`: neither user site, site
/// packages nor PYTHON* variables change what the script sees, and start-up
/// stays short. The timeout only guards against a hang.
llvm::Expected<std::string> runPythonHelper(llvm::StringRef Python, llvm::StringRef Script,
                                            llvm::ArrayRef<llvm::StringRef> Args,
                                            llvm::StringRef Input, unsigned TimeoutSeconds,
                                            llvm::StringRef What);

} // namespace opmig

#endif
