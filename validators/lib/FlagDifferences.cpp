//===- FlagDifferences.cpp - What makes two builds of one kernel differ ---===//

#include "opmig/validate/FlagDifferences.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <set>

namespace opmig::validate {

namespace {

using llvm::StringRef;

/// The code-changing features of one nvcc command line, each as text.
struct Features {
  bool FastMath = false;
  /// --ftz, --prec-div, --prec-sqrt, --fmad as given (empty: not given).
  std::map<std::string, std::string> MathFlags;
  std::string HostOpt = "default";
  std::string PtxasOpt = "default";
  bool DeviceDebug = false;
  std::string NDebug = "undefined";
  std::string MaxRegisters = "unlimited";
  std::set<std::string> Archs;
};

/// `arch=compute_90a,code=sm_90a` or `arch=compute_90a,code=[sm_90a,compute_90a]`.
void addGencode(StringRef Value, Features &F) {
  size_t Code = Value.find("code=");
  if (Code == StringRef::npos) {
    Value.consume_front("arch=");
    F.Archs.insert(Value.str());
    return;
  }
  StringRef Codes = Value.substr(Code + 5).trim("[]\"'");
  llvm::SmallVector<StringRef> Parts;
  Codes.split(Parts, ',', -1, false);
  for (StringRef Part : Parts)
    F.Archs.insert(Part.trim("[]\"' ").str());
}

/// The value of `Flag` in `Token` (`--ftz=true`, `-ftz=true`), if it is one.
bool valueOf(StringRef Token, StringRef Flag, std::string &Value) {
  for (StringRef Dashes : {"--", "-"}) {
    StringRef Rest = Token;
    if (Rest.consume_front(Dashes) && Rest.consume_front(Flag) && Rest.consume_front("=")) {
      Value = Rest.str();
      return true;
    }
  }
  return false;
}

void readPtxasOptions(StringRef Value, Features &F) {
  llvm::SmallVector<StringRef> Parts;
  Value.split(Parts, ',', -1, false);
  for (StringRef Part : Parts)
    if (Part.starts_with("-O") && Part.size() == 3)
      F.PtxasOpt = Part.drop_front(2).str();
}

/// Takes the flag at `I` (and its argument, for two-token flags).
void readFlag(const std::vector<std::string> &Flags, size_t &I, Features &F) {
  StringRef T = Flags[I];
  auto Next = [&]() -> StringRef { return I + 1 < Flags.size() ? StringRef(Flags[++I]) : ""; };
  std::string Value;
  if (T == "--use_fast_math" || T == "-use_fast_math")
    F.FastMath = true;
  else if (llvm::any_of(std::initializer_list<StringRef>{"ftz", "prec-div", "prec-sqrt", "fmad"},
                        [&](StringRef Flag) {
                          if (!valueOf(T, Flag, Value))
                            return false;
                          F.MathFlags[Flag.str()] = Value;
                          return true;
                        }))
    return;
  else if (T.size() == 3 && T.starts_with("-O"))
    F.HostOpt = T.drop_front(2).str();
  else if (T == "-Xptxas" || T == "--ptxas-options")
    readPtxasOptions(Next(), F);
  else if (T.consume_front("-Xptxas=") || T.consume_front("--ptxas-options="))
    readPtxasOptions(T, F);
  else if (T == "-G" || T == "--device-debug")
    F.DeviceDebug = true;
  else if (T == "-lineinfo" || T == "--generate-line-info")
    return; // line tables for profilers: the same code (migrate drops it)
  else if (T == "-DNDEBUG" || T.starts_with("-DNDEBUG="))
    F.NDebug = "defined";
  else if (T == "-UNDEBUG")
    F.NDebug = "undefined";
  else if (valueOf(T, "maxrregcount", Value))
    F.MaxRegisters = Value;
  else if (T == "-maxrregcount" || T == "--maxrregcount")
    F.MaxRegisters = Next().str();
  else if (T == "-gencode" || T == "--generate-code")
    addGencode(Next(), F);
  else if (T.consume_front("-gencode=") || T.consume_front("--generate-code="))
    addGencode(T, F);
  else if (T == "-arch" || T == "--gpu-architecture")
    F.Archs.insert(Next().str());
  else if (T.consume_front("-arch=") || T.consume_front("--gpu-architecture="))
    F.Archs.insert(T.str());
}

Features featuresOf(const std::vector<std::string> &Flags) {
  Features F;
  for (size_t I = 0; I < Flags.size(); ++I)
    readFlag(Flags, I, F);
  return F;
}

/// What --use_fast_math implies for a math flag not given explicitly.
std::string effective(const Features &F, const std::string &Flag) {
  auto It = F.MathFlags.find(Flag);
  if (It != F.MathFlags.end())
    return It->second;
  bool Precise = Flag == "prec-div" || Flag == "prec-sqrt";
  if (F.FastMath)
    return Precise ? "false" : "true";
  return Flag == "ftz" ? "false" : "true";
}

std::string onOff(bool On) { return On ? "on" : "off"; }

std::string archList(const std::set<std::string> &Archs) {
  return Archs.empty() ? "none given" : llvm::join(Archs, " ");
}

/// Removes comments, so a commented-out launch bound does not count.
std::string withoutComments(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text.substr(I).starts_with("//")) {
      I = Text.find('\n', I);
      if (I == StringRef::npos)
        break;
    } else if (Text.substr(I).starts_with("/*")) {
      I = Text.find("*/", I + 2);
      if (I == StringRef::npos)
        break;
      ++I;
      continue;
    }
    Out += Text[I];
  }
  return Out;
}

/// `(256, vops::kMinBlocks)` -> `256,kMinBlocks`: the spelling a rename does
/// not change.
std::string normalisedArguments(StringRef Arguments) {
  std::string Text;
  for (char C : Arguments)
    if (!llvm::isSpace(C))
      Text += C;
  return llvm::Regex("([A-Za-z_][A-Za-z_0-9]*::)+").sub("", Text);
}

} // namespace

std::string FlagDifference::describe() const {
  std::string Text = Feature + ": " + Upstream + " upstream, " + Migrated + " migrated";
  return Where.empty() ? Text : Text + " (" + Where + ")";
}

std::vector<FlagDifference> compareNvccFlags(const std::vector<std::string> &Upstream,
                                             const std::vector<std::string> &Migrated) {
  Features U = featuresOf(Upstream), M = featuresOf(Migrated);
  std::vector<FlagDifference> Out;
  auto Differ = [&](std::string Feature, const std::string &A, const std::string &B) {
    if (A != B)
      Out.push_back({std::move(Feature), A, B, ""});
  };
  Differ("fast math (--use_fast_math)", onOff(U.FastMath), onOff(M.FastMath));
  if (U.FastMath == M.FastMath)
    for (const char *Flag : {"ftz", "prec-div", "prec-sqrt", "fmad"})
      Differ(std::string("--") + Flag, effective(U, Flag), effective(M, Flag));
  Differ("-O (host optimisation)", U.HostOpt, M.HostOpt);
  Differ("-Xptxas -O (device optimisation)", U.PtxasOpt, M.PtxasOpt);
  Differ("-G (device debug)", onOff(U.DeviceDebug), onOff(M.DeviceDebug));
  Differ("NDEBUG (asserts)", U.NDebug, M.NDebug);
  Differ("--maxrregcount", U.MaxRegisters, M.MaxRegisters);
  Differ("archs", archList(U.Archs), archList(M.Archs));
  return Out;
}

std::vector<std::string> launchBoundsOf(StringRef Source) {
  std::string Text = withoutComments(Source);
  std::vector<std::string> Bounds;
  StringRef Rest(Text);
  for (size_t At = Rest.find("__launch_bounds__"); At != StringRef::npos;
       At = Rest.find("__launch_bounds__")) {
    Rest = Rest.substr(At + strlen("__launch_bounds__")).ltrim();
    if (!Rest.consume_front("("))
      continue;
    int Depth = 1;
    size_t End = 0;
    for (; End < Rest.size() && Depth; ++End)
      Depth += Rest[End] == '(' ? 1 : Rest[End] == ')' ? -1 : 0;
    Bounds.push_back(normalisedArguments(Rest.take_front(End ? End - 1 : 0)));
    Rest = Rest.drop_front(End);
  }
  return Bounds;
}

std::vector<FlagDifference> compareLaunchBounds(StringRef UpstreamPath, StringRef UpstreamText,
                                                StringRef MigratedPath, StringRef MigratedText) {
  std::vector<std::string> U = launchBoundsOf(UpstreamText), M = launchBoundsOf(MigratedText);
  if (U == M)
    return {};
  auto Show = [](const std::vector<std::string> &Bounds) {
    if (Bounds.empty())
      return std::string("none");
    std::vector<std::string> Each;
    for (const std::string &B : Bounds)
      Each.push_back("__launch_bounds__(" + B + ")");
    return llvm::join(Each, ", ");
  };
  return {{"launch bounds", Show(U), Show(M), (UpstreamPath + " -> " + MigratedPath).str()}};
}

} // namespace opmig::validate
