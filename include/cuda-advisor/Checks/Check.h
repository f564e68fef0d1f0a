//===- Check.h - Base class of the static checks ---------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_CHECKS_CHECK_H
#define CUDA_ADVISOR_CHECKS_CHECK_H

#include "cuda-advisor/Checks/CheckContext.h"
#include "cuda-advisor/Core/Evidence.h"
#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/RuleTable.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <string>

namespace clang {
class FunctionDecl;
}

namespace cuda_advisor::checks {

class Check;

/// Builds one finding and reports it when it goes out of scope, like
/// clang's DiagnosticBuilder: diag(Loc, "...").note(L, "...").fix(R, "...").
class FindingBuilder {
public:
  FindingBuilder(CheckContext &Ctx, Finding F, clang::SourceLocation Loc)
      : Ctx(&Ctx), F(std::move(F)), Loc(Loc) {}
  FindingBuilder(FindingBuilder &&Other) noexcept
      : Ctx(Other.Ctx), F(std::move(Other.F)), Loc(Other.Loc) {
    Other.Ctx = nullptr;
  }
  FindingBuilder(const FindingBuilder &) = delete;
  FindingBuilder &operator=(const FindingBuilder &) = delete;
  ~FindingBuilder();

  FindingBuilder &range(clang::SourceRange R);
  FindingBuilder &note(clang::SourceLocation L, std::string Message);
  /// Replaces the characters of R (a token range) with Text.
  FindingBuilder &fix(clang::SourceRange R, llvm::StringRef Text);
  FindingBuilder &fix(const clang::CharSourceRange &R, llvm::StringRef Text);
  FindingBuilder &callSite(clang::SourceLocation L);
  FindingBuilder &kernel(const clang::FunctionDecl *Kernel);
  FindingBuilder &api(llvm::StringRef Name);
  /// Evidence the cost model and the reports read; Key is a constant of
  /// Rules.def (Core/Evidence.h) that the check's entry lists as produced.
  template <class T>
  FindingBuilder &evidence(EvidenceKey<T> Key, typename Exactly<T>::type V) {
    setEvidence(F, Key, std::move(V));
    return *this;
  }
  /// The key's value is not known (null).
  template <class T> FindingBuilder &evidenceUnknown(EvidenceKey<T> Key) {
    setEvidenceUnknown(F, Key);
    return *this;
  }
  /// Off the hot path for a reason the check knows (code that runs once): the
  /// finding becomes a note of the cold part, whatever the hot-path analysis
  /// says of its location.
  FindingBuilder &cold(std::string Reason);

private:
  CheckContext *Ctx;
  Finding F;
  clang::SourceLocation Loc;
  std::vector<clang::SourceLocation> Sites; ///< The callSite()s, for the priority.
};

/// A static check. Subclasses read their options in the constructor,
/// register AST matchers, and emit findings from check().
class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef Id, Severity DefaultLevel, CheckContext &Ctx)
      : Ctx(Ctx), Id(Id.str()), DefaultLevel(DefaultLevel) {}
  ~Check() override;

  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) = 0;
  /// Called after all matches of the TU (for checks that collect first).
  virtual void onEndOfTranslationUnit() {}

  llvm::StringRef id() const { return Id; }
  llvm::StringRef getID() const override { return Id; }

protected:
  /// Message: lowercase, no trailing period, says what is wrong and what it costs.
  FindingBuilder diag(clang::SourceLocation Loc, std::string Message,
                      std::optional<Severity> Level = std::nullopt);
  /// Option Name of this check: the configured value, else the default its
  /// Rules.def entry declares (an undeclared name stops the program).
  int64_t option(llvm::StringRef Name) const { return intOption(Ctx.options(), Id, Name); }

  CheckContext &Ctx;

private:
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) final { check(Result); }
  std::string Id;
  Severity DefaultLevel;
};

/// Defines the factory Registry.cpp uses; put it at the end of a check's .cpp.
#define CUDA_ADVISOR_REGISTER_CHECK(Class)                                                  \
  std::unique_ptr<::cuda_advisor::checks::Check> create##Class(                             \
      llvm::StringRef Id, ::cuda_advisor::Severity Level,                                   \
      ::cuda_advisor::checks::CheckContext &Ctx) {                                          \
    return std::make_unique<Class>(Id, Level, Ctx);                                         \
  }

} // namespace cuda_advisor::checks

#endif
