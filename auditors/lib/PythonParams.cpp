//===- PythonParams.cpp - Python checks' parameters beyond their types ----===//

#include "PythonParams.h"

#include "CheckParams.h"
#include "MatchParams.h"

#include "llvm/ADT/StringRef.h"

namespace opmig::audit {

namespace {

llvm::Error problem(const Rule &R, const std::string &Key, const std::string &Text) {
  return MatchParams(R).error(R.MatchLocations.count(Key) ? Key : "check", Text);
}

llvm::Error validateRegisteredIn(const Rule &R) {
  bool Single = R.Match.contains("function") || R.Match.contains("file");
  bool Several = R.Match.contains("registries");
  if (Single == Several)
    return problem(R, "check",
                   "check registered-in needs either 'function' and 'file', or 'registries'");
  if (Single && !(R.Match.contains("function") && R.Match.contains("file")))
    return problem(R, "check", "check registered-in needs both 'function' and 'file'");
  for (const std::string &Entry : listParam(R, "registries")) {
    auto [File, Function] = llvm::StringRef(Entry).rsplit(':');
    if (File.empty() || Function.empty() || File == Entry)
      return problem(R, "registries",
                     "each 'registries' entry must be FILE:FUNCTION (veomni/ops/__init__.py:"
                     "apply_ops_patch), not '" +
                         Entry + "'");
  }
  std::string Registers = stringParam(R, "registers", "package");
  if (Registers != "package" && Registers != "patch")
    return problem(R, "registers",
                   "parameter 'registers' must be 'package' or 'patch', not '" + Registers + "'");
  return llvm::Error::success();
}

llvm::Error validateRequiredNames(const Rule &R) {
  bool Domains = R.Match.contains("domains"), FileDomain = R.Match.contains("file-domain");
  if (R.Match.contains("domain-map") && !Domains && !FileDomain)
    return problem(R, "domain-map",
                   "'domain-map' renames the domains of 'domains' or 'file-domain'; add one");
  for (const std::string &Name : listParam(R, "names"))
    if (llvm::StringRef(Name).contains("{domain}") && !Domains && !FileDomain)
      return problem(R, "names",
                     "the name '" + Name + "' holds {domain}: add 'domains' or 'file-domain'");
  std::string Glob = stringParam(R, "domains");
  if (Domains && llvm::StringRef(Glob).count('*') != 1)
    return problem(R, "domains",
                   "'domains' must be a glob with exactly one '*', not '" + Glob + "'");
  for (const std::string &Entry : listParam(R, "domain-map"))
    if (auto [From, To] = llvm::StringRef(Entry).split('='); From.empty() || To.empty())
      return problem(R, "domain-map",
                     "each 'domain-map' entry must be FOLDER=NAME (svdq=svdquant), not '" + Entry +
                         "'");
  return llvm::Error::success();
}

/// asserted-names: `*` stands for a run of characters, so a name of stars
/// alone is named by any string, and a name is one word of a string.
llvm::Error validateAssertedNames(const Rule &R) {
  for (const std::string &Name : listParam(R, "names")) {
    if (llvm::StringRef(Name).trim('*').empty())
      return problem(R, "names",
                     "the name '" + Name + "' is all '*': it names nothing in particular");
    if (llvm::StringRef(Name).find_first_of(" \t\n") != llvm::StringRef::npos)
      return problem(R, "names",
                     "the name '" + Name + "' holds white space; give one name or path per entry");
  }
  return llvm::Error::success();
}

/// extension-sources: `extensions` maps a native folder to the extension
/// module that hosts it.
llvm::Error validateExtensionSources(const Rule &R) {
  for (const std::string &Entry : listParam(R, "extensions"))
    if (auto [Dir, Module] = llvm::StringRef(Entry).split('=');
        Dir.empty() || Module.empty() || Dir.contains('/'))
      return problem(R, "extensions",
                     "each 'extensions' entry must be FOLDER=MODULE (attn=cache_dit._C_attn), "
                     "not '" +
                         Entry + "'");
  if (llvm::StringRef(stringParam(R, "root")).trim('/').empty())
    return problem(R, "root", "'root' must name the folder of the native families (csrc/kernels)");
  return llvm::Error::success();
}

} // namespace

std::vector<Registry> registriesOf(const Rule &R) {
  std::vector<Registry> Registries;
  if (R.Match.contains("function"))
    Registries.push_back({stringParam(R, "file"), stringParam(R, "function")});
  for (const std::string &Entry : listParam(R, "registries")) {
    auto [File, Function] = llvm::StringRef(Entry).rsplit(':');
    Registries.push_back({File.str(), Function.str()});
  }
  return Registries;
}

llvm::Error validatePythonParams(const Rule &R) {
  std::string Check = checkName(R);
  if (Check == "registered-in")
    return validateRegisteredIn(R);
  if (Check == "required-names")
    return validateRequiredNames(R);
  if (Check == "asserted-names")
    return validateAssertedNames(R);
  if (Check == "extension-sources")
    return validateExtensionSources(R);
  return llvm::Error::success();
}

} // namespace opmig::audit
