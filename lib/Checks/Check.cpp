//===- Check.cpp - Building and reporting findings ------------------------===//
#include "cuda-advisor/Checks/Check.h"
#include "cuda-advisor/Analysis/Kernels.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;

namespace cuda_advisor::checks {

Check::~Check() = default;

FindingBuilder Check::diag(clang::SourceLocation Loc, std::string Message,
                           std::optional<Severity> Level) {
  Finding F;
  F.CheckId = Id;
  F.Level = Level.value_or(DefaultLevel);
  F.Message = std::move(Message);
  F.Loc = Ctx.toLocation(Loc);
  return FindingBuilder(Ctx, std::move(F), Loc);
}

FindingBuilder::~FindingBuilder() {
  if (!Ctx)
    return;
  // The cost model and the docs rely on Rules.def's list of what a check
  // produces; a key outside it is a programming error every test meets.
  for (const auto &KV : F.Evidence)
    if (!producesEvidence(F.CheckId, KV.first))
      llvm::report_fatal_error("check " + llvm::Twine(F.CheckId) + " writes evidence '" +
                               KV.first.str() + "', which Rules.def does not list for it");
  Ctx->report(std::move(F), Loc, Sites);
}

FindingBuilder &FindingBuilder::range(clang::SourceRange R) {
  SourceManager &SM = Ctx->sourceManager();
  CharSourceRange CR = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM,
                                                Ctx->ast().getLangOpts());
  if (CR.isValid()) {
    F.Range.Begin = Ctx->toLocation(CR.getBegin());
    F.Range.End = Ctx->toLocation(CR.getEnd());
  }
  return *this;
}

FindingBuilder &FindingBuilder::note(clang::SourceLocation L, std::string Message) {
  F.Notes.push_back({Ctx->toLocation(L), std::move(Message)});
  return *this;
}

FindingBuilder &FindingBuilder::fix(clang::SourceRange R, StringRef Text) {
  return fix(CharSourceRange::getTokenRange(R), Text);
}

FindingBuilder &FindingBuilder::fix(const CharSourceRange &R, StringRef Text) {
  if (std::optional<FixIt> Fix = Ctx->toFixIt(R, Text))
    F.Fixes.push_back(std::move(*Fix));
  return *this;
}

FindingBuilder &FindingBuilder::callSite(clang::SourceLocation L) {
  F.Keys.CallSites.push_back(Ctx->toLocation(L));
  Sites.push_back(L);
  return *this;
}

FindingBuilder &FindingBuilder::kernel(const FunctionDecl *Kernel) {
  for (std::string &N : analysis::kernelMangledNames(Kernel, Ctx->ast()))
    if (!llvm::is_contained(F.Keys.Kernels, N))
      F.Keys.Kernels.push_back(std::move(N));
  return *this;
}

FindingBuilder &FindingBuilder::api(StringRef Name) {
  F.Keys.Api = Name.str();
  return *this;
}

FindingBuilder &FindingBuilder::cold(std::string Reason) {
  F.Prio = Priority::Cold;
  F.PriorityReason = std::move(Reason);
  return *this;
}

} // namespace cuda_advisor::checks
