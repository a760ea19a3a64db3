//===- UpstreamNameLeaks.cpp - Upstream names left in a migration ---------===//

#include "UpstreamNameLeaks.h"

#include "opmig/support/SourceFiles.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace opmig::audit {

namespace {

std::vector<std::string> components(llvm::StringRef Qualified) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Qualified.split(Parts, "::", -1, /*KeepEmpty=*/false);
  return {Parts.begin(), Parts.end()};
}

/// `name` of `https://host/org/name.git` or `git@host:org/name`; empty for
/// a local folder, whose name says nothing about upstream naming.
std::string repositoryName(llvm::StringRef Repo) {
  if (!Repo.contains("://") && !Repo.contains('@'))
    return "";
  Repo = Repo.rtrim('/');
  Repo.consume_back(".git");
  return Repo.rsplit('/').second.rsplit(':').second.lower();
}

/// The old namespaces (first components, as spelled) the migration renamed
/// away: those whose new name does not keep them.
std::set<std::string> renamedNamespaces(const opmig::Manifest &M) {
  std::set<std::string> Names;
  for (const opmig::NamespaceRename &R : M.Renames) {
    std::vector<std::string> From = components(R.From), To = components(R.To);
    if (!From.empty() && R.From != R.To && !llvm::is_contained(To, From.front()))
      Names.insert(From.front());
  }
  return Names;
}

/// The upstream names, lower-case: the renamed namespaces and the upstream
/// repository's name.
std::set<std::string> upstreamNames(const opmig::Manifest &M) {
  std::set<std::string> Names;
  for (const std::string &Namespace : renamedNamespaces(M))
    Names.insert(llvm::StringRef(Namespace).lower());
  if (std::string Repo = repositoryName(M.Upstream.Repo); Repo.size() >= 3)
    Names.insert(Repo);
  return Names;
}

/// `ns::` qualifications by a renamed namespace, as (line, namespace).
std::vector<std::pair<unsigned, std::string>>
qualifiedUses(llvm::StringRef Text, const std::set<std::string> &Namespaces) {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus17 = Lang.CUDA = true;
  clang::Lexer Lex(clang::SourceLocation(), Lang, Text.begin(), Text.begin(), Text.end());
  std::vector<std::pair<unsigned, std::string>> Uses;
  clang::Token Previous, Tok;
  Previous.startToken();
  unsigned Line = 1;
  const char *Counted = Text.begin();
  for (bool AtEnd = false; !AtEnd;) {
    // True once the buffer is consumed, with the last token in `Tok`.
    AtEnd = Lex.LexFromRawLexer(Tok) || Tok.is(clang::tok::eof);
    if (Tok.is(clang::tok::coloncolon) && Previous.is(clang::tok::raw_identifier) &&
        Namespaces.count(Previous.getRawIdentifier().str())) {
      const char *At = Previous.getRawIdentifier().data();
      Line += std::count(Counted, At, '\n');
      Counted = At;
      Uses.push_back({Line, Previous.getRawIdentifier().str()});
    }
    Previous = Tok;
  }
  return Uses;
}

class LeakFinder {
public:
  LeakFinder(const opmig::Manifest &M, const std::string &Target, const std::string &ManifestPath)
      : M(M), Target(Target), ManifestPath(ManifestPath), Names(upstreamNames(M)),
        Namespaces(renamedNamespaces(M)) {}

  std::vector<NameLeak> run() {
    for (const opmig::ManifestOp &Op : M.Ops)
      checkOp(Op);
    for (const opmig::MigratedFileRecord &F : M.Files)
      checkFile(F.TargetPath);
    for (const opmig::GeneratedFileRecord &G : M.Generated)
      checkFile(G.TargetPath);
    return std::move(Leaks);
  }

private:
  void checkOp(const opmig::ManifestOp &Op) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(Op.Name).split(Words, '_', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Word : Words)
      if (Names.count(Word.lower()))
        Leaks.push_back({ManifestPath, 0,
                         "op `" + Op.Name + "` carries the upstream name `" + Word.str() +
                             "` into the public API (its torch.ops name and Python wrapper)"});
    std::vector<std::string> Scopes = components(Op.CppFunction);
    if (!Scopes.empty() && Namespaces.count(Scopes.front()))
      Leaks.push_back({ManifestPath, 0,
                       "entry `" + Op.CppFunction + "` of op `" + Op.Name +
                           "` still lives in the upstream namespace `" + Scopes.front() + "`"});
  }

  void checkFile(const std::string &Relative) {
    if (Namespaces.empty() || !opmig::isSourceFileName(Relative))
      return;
    llvm::SmallString<256> Path(Target);
    llvm::sys::path::append(Path, Relative);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return; // A missing file is reported as such.
    for (const auto &[Line, Namespace] : qualifiedUses((*Buffer)->getBuffer(), Namespaces))
      Leaks.push_back({Relative, Line,
                       "qualifies a name with the upstream namespace `" + Namespace +
                           "`, which the migration renamed"});
  }

  const opmig::Manifest &M;
  const std::string &Target;
  const std::string &ManifestPath;
  std::set<std::string> Names;      ///< Lower-case words.
  std::set<std::string> Namespaces; ///< As spelled.
  std::vector<NameLeak> Leaks;
};

} // namespace

std::vector<NameLeak> findUpstreamNameLeaks(const opmig::Manifest &M, const std::string &Target,
                                            const std::string &ManifestPath) {
  return LeakFinder(M, Target, ManifestPath).run();
}

} // namespace opmig::audit
