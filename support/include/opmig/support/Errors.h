//===- Errors.h - Error kinds that map to exit codes ------------*- C++ -*-===//
//
// Library code reports failures as llvm::Error. Bad input (a missing
// directory, a malformed database, an unknown entry) is an InputError, which
// the driver maps to exit code 2; every other error is internal (exit 3).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_ERRORS_H
#define OPMIG_SUPPORT_ERRORS_H

#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// The user's input cannot be used; the message names the input and says
/// what to do about it.
class InputError : public llvm::ErrorInfo<InputError> {
public:
  static char ID;
  explicit InputError(std::string Message) : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  std::string Message;
};

/// Convenience: `return inputError("cannot read ", Path, ": ", Why);`
template <typename... Ts> llvm::Error inputError(const Ts &...Parts) {
  std::string Message;
  (Message.append(Parts), ...);
  return llvm::make_error<InputError>(std::move(Message));
}

} // namespace opmig

#endif
