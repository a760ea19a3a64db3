#include "opmig/analyze/TokenIndex.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace opmig::analyze {

namespace path = llvm::sys::path;

namespace {

clang::LangOptions cudaLangOptions() {
  clang::LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus11 = Opts.CPlusPlus14 = Opts.CPlusPlus17 = true;
  Opts.CUDA = true;
  return Opts;
}

/// The spelling of an `#include` directive's file name, without delimiters.
std::optional<std::pair<std::string, bool>>
includeSpelling(llvm::StringRef Content, const clang::dependency_directives_scan::Directive &D) {
  using namespace clang::dependency_directives_scan;
  if (D.Kind != pp_include && D.Kind != pp_include_next && D.Kind != pp_import)
    return std::nullopt;
  // Tokens: '#', 'include', then the name as one header_name token.
  if (D.Tokens.size() < 3 || D.Tokens[2].isNot(clang::tok::header_name))
    return std::nullopt;
  llvm::StringRef Name = Content.substr(D.Tokens[2].Offset, D.Tokens[2].Length);
  if (Name.size() < 2)
    return std::nullopt;
  return std::make_pair(Name.drop_front().drop_back().str(), Name.front() == '<');
}

/// Whether the tokens after a parameter list look like a function body:
/// `) const noexcept {`, `) : Member(x) {`, `) __attribute__((x)) {` do;
/// `);`, `),`, `))` (a call) do not.
bool bodyFollows(llvm::ArrayRef<clang::Token> After) {
  int Depth = 0;
  for (const clang::Token &Tok : After.take_front(64)) {
    if (Tok.isOneOf(clang::tok::l_paren, clang::tok::l_square))
      ++Depth;
    else if (Tok.isOneOf(clang::tok::r_paren, clang::tok::r_square) && Depth-- == 0)
      return false;
    else if (Depth == 0 && Tok.isOneOf(clang::tok::l_brace, clang::tok::colon))
      return true;
    else if (Depth == 0 && Tok.isOneOf(clang::tok::semi, clang::tok::comma, clang::tok::equal,
                                       clang::tok::r_brace, clang::tok::eof))
      return false;
  }
  return false;
}

/// Names a file seems to define, from raw tokens alone: `name(...) {`
/// (functions, also out-of-line members) and `struct name {` / `: `. A cheap
/// guess that only orders the search for a definition; the parse decides.
std::set<std::string> definitionShapedNames(llvm::ArrayRef<clang::Token> Stream) {
  std::set<std::string> Names;
  for (size_t I = 0; I + 1 < Stream.size(); ++I) {
    if (Stream[I].isNot(clang::tok::raw_identifier))
      continue;
    const clang::Token &Next = Stream[I + 1];
    llvm::StringRef Name = Stream[I].getRawIdentifier();
    if (Next.is(clang::tok::l_paren)) {
      int Depth = 0;
      size_t Close = I + 1;
      for (; Close < Stream.size(); ++Close) {
        if (Stream[Close].is(clang::tok::l_paren))
          ++Depth;
        else if (Stream[Close].is(clang::tok::r_paren) && --Depth == 0)
          break;
      }
      if (Close < Stream.size() && bodyFollows(llvm::ArrayRef(Stream).drop_front(Close + 1)))
        Names.insert(Name.str());
    } else if (I > 0 && Next.isOneOf(clang::tok::l_brace, clang::tok::colon) &&
               Stream[I - 1].is(clang::tok::raw_identifier)) {
      llvm::StringRef Keyword = Stream[I - 1].getRawIdentifier();
      if (Keyword == "struct" || Keyword == "class" || Keyword == "union" || Keyword == "enum")
        Names.insert(Name.str());
    }
  }
  return Names;
}

} // namespace

TokenIndex::TokenIndex(const SourceTree &Tree, const std::vector<std::string> &IncludeDirs) {
  Files.resize(Tree.Files.size());
  for (unsigned I = 0; I < Tree.Files.size(); ++I)
    indexFile(I, Tree.Files[I], IncludeDirs, Tree);
}

void TokenIndex::indexFile(unsigned Index, const SourceFile &File,
                           const std::vector<std::string> &IncludeDirs, const SourceTree &Tree) {
  FileEntry &Entry = Files[Index];
  Entry.Path = File.Path;
  Entry.IsTranslationUnit = File.IsTranslationUnit;
  llvm::StringRef Content = File.Content;

  static const clang::LangOptions LangOpts = cudaLangOptions();
  clang::Lexer Lex(clang::SourceLocation(), LangOpts, Content.begin(), Content.begin(),
                   Content.end());
  std::set<std::string> Seen;
  std::vector<clang::Token> Stream;
  clang::Token Tok, Previous;
  Tok.startToken();
  Previous.startToken();
  for (bool AtEnd = false; !AtEnd && Tok.isNot(clang::tok::eof);) {
    AtEnd = Lex.LexFromRawLexer(Tok);
    Stream.push_back(Tok);
    if (Tok.is(clang::tok::raw_identifier)) {
      Seen.insert(Tok.getRawIdentifier().str());
    } else if (Tok.is(clang::tok::string_literal) && Tok.getLength() >= 2) {
      // Op names live in schema strings: "ns::scale(Tensor x) -> Tensor".
      llvm::StringRef Text(Tok.getLiteralData() + 1, Tok.getLength() - 2);
      llvm::StringRef Name = Text.split('(').first.trim();
      if (auto [Ns, Op] = Name.rsplit("::"); !Op.empty())
        Name = Op;
      if (!Name.empty() && Name.size() < 128)
        Seen.insert(Name.str());
    } else if (Tok.is(clang::tok::l_paren) && Previous.is(clang::tok::raw_identifier)) {
      Callables.insert(Previous.getRawIdentifier().str());
    }
    Previous = Tok;
  }
  for (const std::string &Name : Seen)
    Mentions[Name].push_back(Index);
  for (const std::string &Name : definitionShapedNames(Stream))
    DefinitionShaped[Name].push_back(Index);

  llvm::SmallVector<clang::dependency_directives_scan::Token> Tokens;
  llvm::SmallVector<clang::dependency_directives_scan::Directive> Directives;
  if (clang::scanSourceForDependencyDirectives(Content, Tokens, Directives))
    return;
  llvm::StringRef Dir = path::parent_path(File.Path);
  for (const auto &Directive : Directives) {
    auto Spelling = includeSpelling(Content, Directive);
    if (!Spelling)
      continue;
    std::vector<std::string> Candidates;
    if (!Spelling->second)
      Candidates.push_back((Dir + "/" + Spelling->first).str());
    for (const std::string &Include : IncludeDirs)
      Candidates.push_back(Include + "/" + Spelling->first);
    for (std::string &Candidate : Candidates) {
      llvm::SmallString<256> Normal(Candidate);
      path::remove_dots(Normal, /*remove_dot_dot=*/true);
      if (const SourceFile *Target = Tree.find(std::string(Normal))) {
        Entry.Includes.push_back(Target - Tree.Files.data());
        ++EdgeCount;
        break;
      }
    }
  }
}

const std::vector<bool> &TokenIndex::reachedFrom(unsigned TU) const {
  auto [It, Inserted] = Reach.try_emplace(TU);
  if (!Inserted)
    return It->second;
  std::vector<bool> &Visited = It->second;
  Visited.resize(Files.size());
  std::vector<unsigned> Stack = {TU};
  while (!Stack.empty()) {
    unsigned Current = Stack.back();
    Stack.pop_back();
    if (Visited[Current])
      continue;
    Visited[Current] = true;
    Stack.insert(Stack.end(), Files[Current].Includes.begin(), Files[Current].Includes.end());
  }
  return Visited;
}

std::vector<std::string> TokenIndex::tusCovering(llvm::StringRef Name,
                                                 const std::set<std::string> &Skip) const {
  return tusCoveringFiles(Mentions, Name, Skip);
}

std::vector<std::string>
TokenIndex::tusCoveringDefinitions(llvm::StringRef Name, const std::set<std::string> &Skip) const {
  return tusCoveringFiles(DefinitionShaped, Name, Skip);
}

std::vector<std::string>
TokenIndex::tusCoveringFiles(const llvm::StringMap<std::vector<unsigned>> &ByName,
                             llvm::StringRef Name, const std::set<std::string> &Skip) const {
  std::set<std::string> Result;
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return {};
  for (unsigned File : It->second) {
    if (Skip.count(Files[File].Path))
      continue;
    if (Files[File].IsTranslationUnit) {
      Result.insert(Files[File].Path);
      continue;
    }
    for (unsigned TU = 0; TU < Files.size(); ++TU)
      if (Files[TU].IsTranslationUnit && reachedFrom(TU)[File]) {
        Result.insert(Files[TU].Path);
        break;
      }
  }
  return {Result.begin(), Result.end()};
}

std::vector<std::string> TokenIndex::tusReaching(const std::string &File) const {
  std::vector<std::string> Result;
  auto Target =
      std::find_if(Files.begin(), Files.end(), [&](const FileEntry &F) { return F.Path == File; });
  if (Target == Files.end())
    return Result;
  unsigned Index = Target - Files.begin();
  for (unsigned TU = 0; TU < Files.size(); ++TU)
    if (Files[TU].IsTranslationUnit && reachedFrom(TU)[Index])
      Result.push_back(Files[TU].Path);
  return Result;
}

std::vector<std::string> TokenIndex::callableNames() const {
  return {Callables.begin(), Callables.end()};
}

} // namespace opmig::analyze
