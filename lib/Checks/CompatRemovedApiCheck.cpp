//===- CompatRemovedApiCheck.cpp - compat-removed-api ---------------------===//
#include "CompatRemovedApiCheck.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_advisor::checks {

static constexpr StringRef Marker = "cuda-advisor-removed|";

/// The compat annotation of D, of the template D was instantiated from, or
/// of the class template a record specializes.
static std::optional<StringRef> removedAnnotation(const Decl *D) {
  if (!D)
    return std::nullopt;
  auto Own = [](const Decl *X) -> std::optional<StringRef> {
    if (!X || !X->hasAttrs())
      return std::nullopt;
    for (const auto *A : X->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation().starts_with(Marker))
        return A->getAnnotation();
    return std::nullopt;
  };
  if (auto A = Own(D))
    return A;
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
      return Own(T->getTemplatedDecl());
    return Own(FD->getTemplateInstantiationPattern());
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D)) {
    auto From = Spec->getSpecializedTemplateOrPartial();
    if (const auto *T = From.dyn_cast<ClassTemplateDecl *>())
      return Own(T->getTemplatedDecl());
    if (const auto *P = From.dyn_cast<ClassTemplatePartialSpecializationDecl *>())
      return Own(P);
  }
  return std::nullopt;
}

/// The record a declaration of type QT names, through pointers, references
/// and arrays (texture<float> *p, const texture<float> &t, texture<float> a[2]).
static const RecordDecl *underlyingRecord(QualType QT) {
  const Type *T = QT.getTypePtrOrNull();
  while (T && (T->isPointerType() || T->isReferenceType() || T->isArrayType()))
    T = T->isArrayType() ? T->getArrayElementTypeNoTypeQual()
                         : T->getPointeeType().getTypePtrOrNull();
  if (!T)
    return nullptr;
  if (const auto *RT = T->getAs<RecordType>())
    return RT->getDecl();
  // A dependent use in a template never instantiated in the file
  // (`template <class T> struct op : thrust::unary_function<T, T>`).
  if (const auto *TS = T->getAs<TemplateSpecializationType>())
    if (const auto *CT = dyn_cast_or_null<ClassTemplateDecl>(TS->getTemplateName().getAsTemplateDecl()))
      return CT->getTemplatedDecl();
  return nullptr;
}

namespace {
AST_MATCHER(Decl, isRemovedCudaApi) { return removedAnnotation(&Node).has_value(); }
AST_MATCHER(DeclaratorDecl, hasRemovedCudaType) {
  return removedAnnotation(underlyingRecord(Node.getType())).has_value();
}
} // namespace

void CompatRemovedApiCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(declRefExpr(to(decl(isRemovedCudaApi()))).bind("ref"), this);
  Finder.addMatcher(memberExpr(member(decl(isRemovedCudaApi()))).bind("member"), this);
  Finder.addMatcher(declaratorDecl(hasRemovedCudaType()).bind("decl"), this);
  // A removed class as a base: `struct op : thrust::unary_function<float, float>`.
  Finder.addMatcher(cxxRecordDecl(isDefinition()).bind("derived"), this);
}

void CompatRemovedApiCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("ref")) {
    if (auto A = removedAnnotation(Ref->getDecl()))
      record(Ref->getLocation(), *A);
    return;
  }
  if (const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("member")) {
    if (auto A = removedAnnotation(Member->getMemberDecl()))
      record(Member->getMemberLoc(), *A);
    return;
  }
  if (const auto *RD = Result.Nodes.getNodeAs<CXXRecordDecl>("derived")) {
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (auto A = removedAnnotation(underlyingRecord(Base.getType())))
        record(Base.getBaseTypeLoc(), *A);
    return;
  }
  if (const auto *D = Result.Nodes.getNodeAs<DeclaratorDecl>("decl")) {
    clang::SourceLocation Loc = D->getTypeSpecStartLoc();
    if (auto A = removedAnnotation(underlyingRecord(D->getType())))
      record(Loc.isValid() ? Loc : D->getLocation(), *A);
  }
}

void CompatRemovedApiCheck::record(clang::SourceLocation Loc, StringRef Annotation) {
  if (Loc.isInvalid() || !Ctx.isReportable(Loc))
    return;
  SmallVector<StringRef, 4> Parts;
  Annotation.split(Parts, '|');
  if (Parts.size() != 4)
    return;
  Use &U = Uses[Parts[1]];
  ++U.Count;
  SourceManager &SM = Ctx.sourceManager();
  if (U.First.isInvalid() ||
      SM.isBeforeInTranslationUnit(SM.getFileLoc(Loc), SM.getFileLoc(U.First))) {
    U.First = Loc;
    U.Annotation = Annotation.str();
  }
}

void CompatRemovedApiCheck::onEndOfTranslationUnit() {
  for (const auto &Entry : Uses) {
    const Use &U = Entry.getValue();
    SmallVector<StringRef, 4> Parts;
    StringRef(U.Annotation).split(Parts, '|');
    StringRef Api = Parts[1], Version = Parts[2], Fix = Parts[3];
    std::string Msg = (Api + " was removed in CUDA " + Version +
                       "; cuda-advisor declares it so the file can be analyzed: " + Fix)
                          .str();
    diag(U.First, Msg)
        .api(Api)
        .evidence(evidence::RemovedIn, Version.str())
        .evidence(evidence::Uses, static_cast<int64_t>(U.Count));
  }
  Uses.clear();
}

CUDA_ADVISOR_REGISTER_CHECK(CompatRemovedApiCheck)

} // namespace cuda_advisor::checks
