//===- Registry.cpp - Rules.def's checks turned into objects ----------------------===//
#include "cuda-advisor/Checks/Registry.h"
#include "cuda-advisor/Checks/Check.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_advisor::checks {

// The factories each check's .cpp defines with CUDA_ADVISOR_REGISTER_CHECK.
#define CUDA_ADVISOR_CHECK(Id, Class, Level, Estimator, Summary)                           \
  std::unique_ptr<Check> create##Class(llvm::StringRef, Severity, CheckContext &);
#include "cuda-advisor/Core/Rules.def"

namespace {

struct Entry {
  const char *Id;
  Severity Level;
  std::unique_ptr<Check> (*Create)(llvm::StringRef, Severity, CheckContext &);
};

const std::vector<Entry> &entries() {
  static const std::vector<Entry> All = {
#define CUDA_ADVISOR_CHECK(Id, Class, Level, Estimator, Summary)                           \
  {Id, Severity::Level, &create##Class},
#include "cuda-advisor/Core/Rules.def"
  };
  return All;
}

std::vector<std::unique_ptr<Check>> createEnabled(const Config &Cfg, CheckContext &Ctx) {
  GlobList Enabled(Cfg.Checks);
  std::vector<std::unique_ptr<Check>> Checks;
  for (const Entry &E : entries())
    if (Enabled.contains(E.Id))
      Checks.push_back(E.Create(E.Id, E.Level, Ctx));
  return Checks;
}

/// Runs the enabled checks over the user's part of the TU.
class CheckConsumer : public ASTConsumer {
public:
  CheckConsumer(const Config &Cfg, std::vector<Finding> &Sink, std::string ResourceDir,
                bool DevicePass)
      : Cfg(Cfg), Sink(Sink), ResourceDir(std::move(ResourceDir)), DevicePass(DevicePass) {}

  void HandleTranslationUnit(ASTContext &AST) override {
    CheckContext Ctx(Cfg, &AST, Sink, ResourceDir, DevicePass);
    std::vector<std::unique_ptr<Check>> Checks = createEnabled(Cfg, Ctx);
    if (Checks.empty())
      return;
    restrictToUserCode(AST, Ctx);
    ast_matchers::MatchFinder Finder;
    for (auto &C : Checks)
      C->registerMatchers(Finder);
    Finder.matchAST(AST);
    for (auto &C : Checks)
      C->onEndOfTranslationUnit();
  }

private:
  /// Matchers only walk declarations outside system and CUDA headers (the
  /// CUDA headers alone hold tens of thousands of declarations), and those
  /// of the system headers --header-filter matches.
  void restrictToUserCode(ASTContext &AST, CheckContext &Ctx) {
    const SourceManager &SM = AST.getSourceManager();
    std::vector<Decl *> Scope;
    llvm::DenseMap<FileID, bool> SystemFileShown;
    for (Decl *D : AST.getTranslationUnitDecl()->decls()) {
      clang::SourceLocation L = SM.getFileLoc(D->getLocation());
      if (L.isInvalid())
        continue;
      if (SM.isInSystemHeader(L)) {
        auto [It, New] = SystemFileShown.try_emplace(SM.getFileID(L), false);
        if (New)
          It->second = !Cfg.HeaderFilter.empty() && Ctx.isReportable(L);
        if (!It->second)
          continue;
      }
      if (Ctx.isResourceFile(SM.getFileID(L)))
        continue;
      Scope.push_back(D);
    }
    AST.setTraversalScope(Scope);
  }

  const Config &Cfg;
  std::vector<Finding> &Sink;
  std::string ResourceDir;
  bool DevicePass;
};

} // namespace

std::unique_ptr<ASTConsumer> makeCheckConsumer(const Config &Cfg, std::vector<Finding> &Sink,
                                               std::string ResourceDir, bool DevicePass) {
  return std::make_unique<CheckConsumer>(Cfg, Sink, std::move(ResourceDir), DevicePass);
}

} // namespace cuda_advisor::checks
