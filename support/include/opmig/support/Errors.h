//===- Errors.h - Error kinds that map to exit codes ------------*- C++ -*-===//
//
// Library code reports failures as llvm::Error. Bad input (a missing
// directory, a malformed database, an unknown entry) is an InputError, which
// the driver maps to exit code 2; every other error is internal (exit 3).
//
// A library serves several commands (and the gate, which reads a config file
// instead of flags), so its messages never spell a flag. They name an input
// by its role and value and mark the place with the input's InputName:
//
//   return inputError("the source folder '", Root, "'", inputs::SourceRoot,
//                     " is not a readable directory; ...");
//
// log() prints the text as written; the driver renders it with how the
// command that ran spells each marked input ("the source folder 'x'
// (--source) is not ...", or a key of .opmig.yaml for the gate).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_ERRORS_H
#define OPMIG_SUPPORT_ERRORS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig {

/// An input of a library call that a message can name. Each library declares
/// its own beside its options struct (`analyze::inputs::SourceRoot`); `Id`,
/// `<library>.<option field>`, is unique across libraries.
struct InputName {
  const char *Id;

  friend bool operator==(InputName A, InputName B) { return llvm::StringRef(A.Id) == B.Id; }
};

/// Message text and the places where it names inputs.
class InputText {
public:
  struct Mention {
    size_t Offset; ///< The input was named by the text before this offset.
    InputName Input;
  };

  InputText() = default;
  explicit InputText(std::string Text) : Text(std::move(Text)) {}

  InputText &operator+=(llvm::StringRef More);
  /// Marks the end of the text so far as naming `Input`.
  InputText &operator+=(InputName Input);
  /// Appends `More` with its marks.
  InputText &operator+=(const InputText &More);

  const std::string &text() const { return Text; }
  const std::vector<Mention> &mentions() const { return Mentions; }

  /// The text with `Insert(Input)` placed at each mention.
  std::string render(llvm::function_ref<std::string(InputName)> Insert) const;

private:
  std::string Text;
  std::vector<Mention> Mentions;
};

/// The user's input cannot be used; the message names the input and says
/// what to do about it.
class InputError : public llvm::ErrorInfo<InputError> {
public:
  static char ID;
  explicit InputError(InputText Message) : Message(std::move(Message)) {}
  explicit InputError(std::string Message) : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message.text(); }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  const InputText &text() const { return Message; }

private:
  InputText Message;
};

/// Convenience: `return inputError("cannot read ", Path, ": ", Why);`. A part
/// is text (anything a StringRef takes, or an InputText) or the InputName of
/// the input the text before it names.
template <typename... Ts> llvm::Error inputError(const Ts &...Parts) {
  InputText Message;
  ((Message += Parts), ...);
  return llvm::make_error<InputError>(std::move(Message));
}

} // namespace opmig

#endif
