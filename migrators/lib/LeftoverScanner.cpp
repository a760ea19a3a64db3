#include "LeftoverScanner.h"

#include "RewriteIssue.h"
#include "SourceLayout.h"

#include <algorithm>

namespace opmig::migrate {

namespace {

/// Output text copied unchanged from upstream: output [OutBegin, OutEnd)
/// is upstream from InBegin on.
struct CopiedSpan {
  unsigned OutBegin, OutEnd, InBegin;
};

std::vector<CopiedSpan> copiedSpans(const clang::tooling::Replacements &Applied, unsigned InSize) {
  std::vector<CopiedSpan> Spans;
  unsigned In = 0, Out = 0;
  for (const clang::tooling::Replacement &R : Applied) {
    unsigned Kept = R.getOffset() - In;
    Spans.push_back({Out, Out + Kept, In});
    Out += Kept + static_cast<unsigned>(R.getReplacementText().size());
    In = R.getOffset() + R.getLength();
  }
  Spans.push_back({Out, Out + (InSize - In), In});
  return Spans;
}

std::string whyLeft(UnseenReason Reason) {
  switch (Reason) {
  case UnseenReason::SkippedBranch:
    return "it is in an `#if` branch no parse entered; rewrite it by hand if that branch is built";
  case UnseenReason::UnexpandedMacro:
    return "it is in a macro no parse expanded; rewrite it by hand if the macro is used";
  }
  return {};
}

} // namespace

void reportLeftovers(const PortedFile &File, llvm::StringRef Output,
                     const clang::tooling::Replacements &Applied, const LeftoverInputs &Inputs,
                     std::vector<Finding> &Issues) {
  if (Inputs.Names.empty())
    return;
  SourceLayout Lexed(Output.str());
  std::vector<CopiedSpan> Spans =
      copiedSpans(Applied, static_cast<unsigned>(File.Layout.text().size()));
  const std::vector<RawToken> &Tokens = Lexed.tokens();
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const RawToken &Tok = Tokens[I];
    if (Tok.Kind != clang::tok::raw_identifier ||
        !llvm::is_contained(Inputs.Names, Lexed.spelling(Tok)))
      continue;
    // `x.sample_ops` is a member, whatever its name; `<sample_ops/x.h>` a
    // file name.
    if (I > 0 &&
        (Tokens[I - 1].Kind == clang::tok::period || Tokens[I - 1].Kind == clang::tok::arrow))
      continue;
    if (llvm::any_of(Lexed.includes(), [&](const IncludeSpelling &Include) {
          return Include.Begin <= Tok.Offset && Tok.end() <= Include.End;
        }))
      continue;
    auto Span = llvm::find_if(Spans, [&](const CopiedSpan &S) {
      return S.OutBegin <= Tok.Offset && Tok.end() <= S.OutEnd;
    });
    if (Span == Spans.end())
      continue; // Text the rewrite wrote.
    unsigned Upstream = Span->InBegin + (Tok.Offset - Span->OutBegin);
    if (Inputs.Handled.count(Upstream))
      continue;
    std::optional<UnseenReason> Unseen = Inputs.Unseen(Upstream);
    std::string Name = Lexed.spelling(Tok).str();
    Issues.push_back(rewriteIssue(
        issue_id::NameLeftAsWritten, File.Upstream, File.Layout.lineOf(Upstream),
        "`" + Name + "` is left as written: " +
            (Unseen ? whyLeft(*Unseen)
                    : "no reference Clang resolved covers it (a stringized or pasted macro "
                      "argument, or a use the parses did not see as a namespace)"),
        !Unseen));
  }
}

} // namespace opmig::migrate
