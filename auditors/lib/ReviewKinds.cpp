//===- ReviewKinds.cpp - The kinds of problem a review reports ------------===//

#include "opmig/audit/ReviewKinds.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig::audit {

namespace {

struct KindInfo {
  ReviewKind Kind;
  const char *Id;
  const char *Description;
  const char *Help;
};

/// docs/user-guide.md ("opmig review") explains each kind at length.
constexpr KindInfo Kinds[] = {
    {ReviewKind::MissingFile, "missing-file",
     "a file the migration wrote, or the recomputed closure needs, is not in the target",
     "re-run opmig migrate, or restore the file"},
    {ReviewKind::OverCopy, "over-copy",
     "a file in the domain's native folder that the migration neither migrated nor generated, "
     "or one the recomputed closure no longer needs",
     "remove the file, or migrate what needs it"},
    {ReviewKind::MissingProvenance, "missing-provenance",
     "a migrated file whose first line does not name its upstream file",
     "restore the provenance comment opmig migrate wrote on the first line"},
    {ReviewKind::EditedGlue, "edited-glue", "a generated file or block changed since the migration",
     "move the change into the profile's templates and re-run opmig migrate, or undo it"},
    {ReviewKind::StaleProvenance, "stale-provenance",
     "an upstream file changed, or vanished, since the migration",
     "re-run opmig migrate from the current upstream"},
    {ReviewKind::NameLeak, "name-leak",
     "an upstream name in the public API, or an old namespace left in code",
     "rename it with the profile's renames and re-run opmig migrate"},
    {ReviewKind::UntestedLayer, "untested-layer",
     "a validation layer the migration's spec requires has no test",
     "write a test of the layer (the placeholders opmig generated always skip)"},
    {ReviewKind::DoesNotCompile, "does-not-compile",
     "a C++/CUDA TU of the domain that nvcc rejects as it is on disk",
     "fix the first error the message quotes"},
    {ReviewKind::DoesNotLink, "does-not-link",
     "the domain's objects link into a library that uses a symbol nothing defines, or do not "
     "link at all",
     "migrate the definition (an explicit instantiation, a pruned function) or drop the use"},
};

const KindInfo &infoOf(ReviewKind K) {
  return *llvm::find_if(Kinds, [&](const KindInfo &I) { return I.Kind == K; });
}

Severity severityOf(ReviewKind K) {
  // An untested layer is a gap in the tests, not in the port itself.
  return K == ReviewKind::UntestedLayer ? Severity::Warning : Severity::Error;
}

} // namespace

const char *toString(ReviewKind K) { return infoOf(K).Id; }

Finding reviewFinding(ReviewKind K, std::string Path, std::string Message, unsigned Line) {
  Finding F;
  F.Id = toString(K);
  F.Producer = ReviewProducer;
  F.Level = severityOf(K);
  F.File = std::move(Path);
  F.Line = Line;
  F.Message = std::move(Message);
  return F;
}

bool isReviewKind(const Finding &F, ReviewKind K) {
  return F.Producer == ReviewProducer && F.Id == toString(K);
}

std::vector<report::RuleInfo> reviewRules() {
  std::vector<report::RuleInfo> Rules;
  for (const KindInfo &I : Kinds)
    Rules.push_back({I.Id, I.Description, I.Description, I.Help, severityOf(I.Kind), {"review"}});
  return Rules;
}

} // namespace opmig::audit
