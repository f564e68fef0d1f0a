//===- Registry.cpp - Rules.def's checks turned into objects ----------------------===//
#include "cuda-advisor/Checks/Registry.h"
#include "cuda-advisor/Checks/Check.h"
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
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
    size_t Start = Sink.size();
    Finder.matchAST(AST);
    for (auto &C : Checks)
      C->onEndOfTranslationUnit();
    if (AST.getDiagnostics().hasErrorOccurred()) {
      if (declaresForeignRuntime(AST, Ctx))
        Sink.erase(Sink.begin() + Start, Sink.end());
      else
        dropFindingsInBrokenFunctions(AST, Ctx, Start);
    }
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

  /// The file or a header of it declares a CUDA runtime function whose
  /// signature, made of valid types, conflicts with the toolkit's valid
  /// declaration (`void cudaMalloc(void **, size_t);` in `extern "C"`): the
  /// stand-in runtime of a CUDA-to-FPGA flow or of a CPU emulation, for which
  /// the code is written. Its kernels never run on a GPU as written; the
  /// file's findings are dropped (the compiler's errors say why). Any header
  /// but the bundled ones counts: a project's headers may be searched as
  /// system headers (-isystem, -idirafter). An unknown type name in a typed
  /// overload is another error. Only file scope and `extern "C"` are read.
  bool declaresForeignRuntime(ASTContext &AST, CheckContext &Ctx) {
    const SourceManager &SM = AST.getSourceManager();
    auto Foreign = [&](const Decl *D) {
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->isInvalidDecl() || !FD->getIdentifier() ||
          !analysis::classifyApi(analysis::canonicalApiName(FD->getName())))
        return false;
      clang::SourceLocation L = SM.getFileLoc(FD->getLocation());
      if (L.isInvalid() || Ctx.isResourceFile(SM.getFileID(L)))
        return false;
      if (FD->getReturnType()->containsErrors() ||
          llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
            return P->isInvalidDecl() || P->getType()->containsErrors();
          }))
        return false;
      return llvm::any_of(AST.getTranslationUnitDecl()->lookup(FD->getDeclName()),
                          [&](const NamedDecl *Other) {
                            const auto *OF = dyn_cast<FunctionDecl>(Other);
                            return OF && OF != FD && !OF->isInvalidDecl() &&
                                   SM.isInSystemHeader(SM.getFileLoc(OF->getLocation()));
                          });
    };
    for (const Decl *D : AST.getTranslationUnitDecl()->decls()) {
      if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
        if (llvm::any_of(LS->decls(), Foreign))
          return true;
      } else if (Foreign(D)) {
        return true;
      }
    }
    return false;
  }

  /// A function whose body holds an error about the types of things that
  /// are declared (`t.x` on a `double`, a `float4` assigned to a `double`:
  /// a file analyzed without the -D flags its build passes, so that its
  /// header's fallback `#define TYPE double` is in effect) has types and
  /// values that are not the program's: findings inside it are dropped.
  /// Errors about names that are not declared at all (a header that was not
  /// found, a macro of the build) leave the rest of the function as written,
  /// and its findings stay; so do the file's other functions.
  void dropFindingsInBrokenFunctions(ASTContext &AST, CheckContext &Ctx, size_t Start) {
    /// Whether E (a RecoveryExpr) is an error about declared things only:
    /// it has operands, none of them unresolved or naming a rejected
    /// declaration.
    struct Operands : RecursiveASTVisitor<Operands> {
      bool Any = false, Unknown = false;
      bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *) { return !(Unknown = true); }
      // A recovery inside: part of the operand is itself unknown (`ids[i]`
      // with `ids` of an undeclared type).
      bool VisitRecoveryExpr(RecoveryExpr *) { return !(Unknown = true); }
      bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *) { return !(Unknown = true); }
      bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *) {
        return !(Unknown = true);
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        Any = true;
        // An operand of class type: the error may be a missing operator
        // (`p + v * dt` on float3 without helper_math.h), a declaration
        // that a header not found would have given.
        if (E->getDecl()->isInvalidDecl() || E->getType()->isDependentType() ||
            hasInvalidTypedef(E->getDecl()->getType()) ||
            E->getType().getNonReferenceType()->isRecordType())
          Unknown = true;
        return !Unknown;
      }
      /// `std::ostream` when <ostream> was never read (a fatal error stops
      /// the includes after it): the typedef survives, as an invalid `int`.
      static bool hasInvalidTypedef(QualType T) {
        for (unsigned Depth = 0; Depth < 8 && !T.isNull(); ++Depth) {
          const auto *TT = T->getAs<TypedefType>();
          if (!TT)
            return false;
          if (TT->getDecl()->isInvalidDecl())
            return true;
          T = TT->getDecl()->getUnderlyingType();
        }
        return false;
      }
      bool VisitMemberExpr(MemberExpr *E) {
        Any = true;
        if (E->getMemberDecl()->isInvalidDecl())
          Unknown = true;
        return !Unknown;
      }
    };
    struct Broken : RecursiveASTVisitor<Broken> {
      bool Found = false;
      bool VisitRecoveryExpr(RecoveryExpr *E) {
        Operands O;
        for (Expr *Sub : E->subExpressions())
          O.TraverseStmt(Sub);
        Found = O.Any && !O.Unknown;
        return !Found;
      }
    };
    struct Functions : RecursiveASTVisitor<Functions> {
      std::vector<const FunctionDecl *> Defs;
      bool shouldVisitTemplateInstantiations() const { return false; }
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (FD->doesThisDeclarationHaveABody())
          Defs.push_back(FD);
        return true;
      }
    } All;
    for (Decl *D : AST.getTraversalScope())
      All.TraverseDecl(D);
    const SourceManager &SM = AST.getSourceManager();
    std::vector<std::pair<cuda_advisor::SourceLocation, cuda_advisor::SourceLocation>> Ranges;
    for (const FunctionDecl *FD : All.Defs) {
      Broken B;
      B.TraverseStmt(FD->getBody());
      if (!B.Found)
        continue;
      clang::SourceRange R = FD->getSourceRange();
      cuda_advisor::SourceLocation Begin = Ctx.toLocation(SM.getExpansionLoc(R.getBegin()));
      cuda_advisor::SourceLocation End = Ctx.toLocation(SM.getExpansionRange(R.getEnd()).getEnd());
      if (Begin.isValid() && End.isValid() && Begin.File == End.File)
        Ranges.push_back({Begin, End});
    }
    if (Ranges.empty())
      return;
    auto Inside = [&](const Finding &F) {
      return llvm::any_of(Ranges, [&](const auto &R) {
        return F.Loc.File == R.first.File && F.Loc.Offset >= R.first.Offset &&
               F.Loc.Offset <= R.second.Offset;
      });
    };
    Sink.erase(std::remove_if(Sink.begin() + Start, Sink.end(), Inside), Sink.end());
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
