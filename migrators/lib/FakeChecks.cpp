//===- FakeChecks.cpp - The shape checks of a generated fake --------------===//

#include "FakeChecks.h"

#include "opmig/support/SpecExpression.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <map>
#include <optional>

namespace opmig::migrate {

namespace {

/// An expression over the parameters, in both languages.
struct Code {
  std::string Python, Cpp;
};

/// A failure message: text, and values the failing call shows.
struct Message {
  struct Part {
    std::string Text; ///< Literal text, when `Value` is empty.
    std::optional<Code> Value;
  };
  std::vector<Part> Parts;

  Message &text(const std::string &Text) {
    if (!Parts.empty() && !Parts.back().Value)
      Parts.back().Text += Text; // One literal, not `"a", "b"`.
    else
      Parts.push_back({Text, std::nullopt});
    return *this;
  }
  Message &value(const Code &Value) {
    Parts.push_back({"", Value});
    return *this;
  }
};

/// `C` escaped for a double-quoted literal: the quote, the backslash and
/// control characters (as `\xNN`; C++ takes them as octal, which ends after
/// three digits where a hex escape would swallow the next letters).
std::string escapeChar(char C, bool Python) {
  if (C == '"' || C == '\\')
    return std::string("\\") + C;
  auto Byte = static_cast<unsigned char>(C);
  if (Byte < 0x20 || Byte == 0x7f) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    if (Python)
      OS << llvm::format("\\x%02x", Byte);
    else
      OS << llvm::format("\\%03o", Byte);
    return Out;
  }
  // An f-string's braces are its fields.
  if (Python && (C == '{' || C == '}'))
    return std::string(2, C);
  return std::string(1, C);
}

std::string escape(llvm::StringRef Text, bool Python) {
  std::string Out;
  for (char C : Text)
    Out += escapeChar(C, Python);
  return Out;
}

/// `f"text{value}text"`.
std::string pythonMessage(const Message &M) {
  std::string Out = "f\"";
  for (const Message::Part &Part : M.Parts)
    Out += Part.Value ? "{" + Part.Value->Python + "}" : escape(Part.Text, true);
  return Out + "\"";
}

/// `"text", value, "text"`: TORCH_CHECK streams its arguments.
std::string cppMessage(const Message &M) {
  std::vector<std::string> Args;
  for (const Message::Part &Part : M.Parts)
    Args.push_back(Part.Value ? Part.Value->Cpp : "\"" + escape(Part.Text, false) + "\"");
  return llvm::join(Args, ", ");
}

FakeCheck makeCheck(const Code &Condition, const Message &M) {
  FakeCheck Check;
  Check.PythonCondition = Condition.Python;
  Check.PythonMessage = pythonMessage(M);
  Check.CppCondition = Condition.Cpp;
  Check.CppMessage = cppMessage(M);
  return Check;
}

Code rank(const std::string &Input) { return {Input + ".dim()", Input + ".dim()"}; }

/// C++ asks for the SymInt: `size()` throws on the symbolic sizes of
/// torch.compile's dynamic shapes, and SymInt's comparisons give a bool.
Code size(const std::string &Input, int64_t Index) {
  std::string Dim = "(" + std::to_string(Index) + ")";
  return {Input + ".size" + Dim, Input + ".sym_size" + Dim};
}

/// ` (checked at upstream a.cu:3:3)`, or nothing without a location.
std::string checkedAt(const std::string &At) {
  return At.empty() ? "" : " (checked at upstream " + At + ")";
}

/// A tensor the op always gets, whose shape the code told.
bool hasCheckedShape(const SpecInput &In) {
  return In.IsTensor && In.Shape.Source == ValueSource::Code &&
         !llvm::StringRef(In.Type).ends_with("?");
}

class Builder {
public:
  explicit Builder(const SpecOp &Op) : Op(Op) {}

  std::vector<FakeCheck> run() {
    for (const SpecInput &In : Op.Inputs)
      if (hasCheckedShape(In))
        ranks(In);
    for (const SpecInput &In : Op.Inputs)
      if (hasCheckedShape(In))
        sizes(In);
    for (const Sourced<std::string> &Constraint : Op.Constraints)
      if (Constraint.Source == ValueSource::Code)
        constraint(Constraint);
    return std::move(Checks);
  }

private:
  const SpecOp &Op;
  std::vector<FakeCheck> Checks;
  /// Each dim name's first occurrence: input and index (from the end in a
  /// shape with leading dims).
  std::map<std::string, std::pair<std::string, int64_t>, std::less<>> First;

  Message start() const { return Message().text(Op.Name + ": "); }

  /// The named dims, after any leading ones, and where they start.
  static llvm::ArrayRef<std::string> named(const SpecInput &In) {
    llvm::ArrayRef<std::string> Dims = In.Shape.Value;
    return hasLeadingDims(In.Shape.Value) ? Dims.drop_front() : Dims;
  }

  void ranks(const SpecInput &In) {
    bool Leading = hasLeadingDims(In.Shape.Value);
    std::string Rank = std::to_string(named(In).size());
    std::string Op = Leading ? " >= " : " == ";
    Checks.push_back(makeCheck({rank(In.Name).Python + Op + Rank, rank(In.Name).Cpp + Op + Rank},
                               start()
                                   .text(In.Name + " must have " + (Leading ? "at least " : "") +
                                         Rank + (Rank == "1" ? " dim" : " dims") + ", got ")
                                   .value(rank(In.Name))
                                   .text(checkedAt(In.Shape.At))));
  }

  void sizes(const SpecInput &In) {
    llvm::ArrayRef<std::string> Dims = named(In);
    // Behind leading dims, a dim is found from the end.
    int64_t Base = hasLeadingDims(In.Shape.Value) ? -static_cast<int64_t>(Dims.size()) : 0;
    for (size_t I = 0; I < Dims.size(); ++I) {
      const std::string &Dim = Dims[I];
      int64_t Index = Base + static_cast<int64_t>(I);
      Code Here = size(In.Name, Index);
      if (isSizeDim(Dim)) {
        Checks.push_back(
            makeCheck({Here.Python + " == " + Dim, Here.Cpp + " == " + Dim},
                      start().text(Here.Python + " must be " + Dim + ", got ").value(Here)));
        continue;
      }
      auto [It, New] = First.try_emplace(Dim, In.Name, Index);
      if (New)
        continue;
      Code There = size(It->second.first, It->second.second);
      Checks.push_back(makeCheck(
          {Here.Python + " == " + There.Python, Here.Cpp + " == " + There.Cpp},
          start()
              .text(Here.Python + " must equal " + There.Python + " (dim " + Dim + "), got ")
              .value(Here)
              .text(" and ")
              .value(There)));
    }
  }

  void constraint(const Sourced<std::string> &Constraint) {
    llvm::Expected<SpecExpression> Parsed = SpecExpression::parse(Constraint.Value);
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError()); // The spec reader reports it.
      return;
    }
    std::vector<std::string> Names = Parsed->names();
    if (!llvm::all_of(Names, [&](const std::string &Name) { return First.count(Name); }))
      return;
    auto Spell = [&](bool Python) {
      return [this, Python](llvm::StringRef Name) {
        const auto &[Input, Index] = First.find(Name)->second;
        Code Size = size(Input, Index);
        return Python ? Size.Python : Size.Cpp;
      };
    };
    Message M = start().text(Constraint.Value + " must hold, got ");
    for (size_t I = 0; I < Names.size(); ++I) {
      const auto &[Input, Index] = First.find(Names[I])->second;
      M.text((I ? ", " : "") + Names[I] + " = ").value(size(Input, Index));
    }
    M.text(checkedAt(Constraint.At));
    Checks.push_back(makeCheck({Parsed->print(SpecExpression::Syntax::Python, Spell(true)),
                                Parsed->print(SpecExpression::Syntax::Cpp, Spell(false))},
                               M));
  }
};

} // namespace

std::vector<FakeCheck> deriveFakeChecks(const SpecOp &Op) { return Builder(Op).run(); }

} // namespace opmig::migrate
