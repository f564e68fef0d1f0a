//===- AffineForm.cpp - Index expressions as sums of symbol products -------===//
#include "cuda-advisor/Analysis/AffineForm.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace clang;

namespace cuda_advisor::analysis {

bool operator<(const Symbol &A, const Symbol &B) {
  return std::make_tuple(A.Kind, A.Dim, A.Decl, A.Site) <
         std::make_tuple(B.Kind, B.Dim, B.Decl, B.Site);
}

static const char *coordinateName(SymbolKind K) {
  switch (K) {
  case SymbolKind::ThreadIdx:
    return "threadIdx";
  case SymbolKind::BlockIdx:
    return "blockIdx";
  case SymbolKind::BlockDim:
    return "blockDim";
  case SymbolKind::GridDim:
    return "gridDim";
  default:
    return "?";
  }
}

std::string Symbol::name(const ASTContext &Ctx) const {
  if (isCoordinate())
    return std::string(coordinateName(Kind)) + "." + "xyz"[Dim % 3];
  auto DeclName = [](const void *D) -> std::string {
    if (const auto *ND = static_cast<const NamedDecl *>(D); ND && ND->getIdentifier())
      return ND->getName().str();
    return "?";
  };
  switch (Kind) {
  case SymbolKind::LoopCounter:
    return Decl ? "the iteration of the loop over " + DeclName(Decl) : "the loop iteration";
  case SymbolKind::Value:
    return DeclName(Decl);
  case SymbolKind::Member:
    return DeclName(Decl) + "." + DeclName(Site);
  case SymbolKind::Opaque: {
    if (!Site)
      return "?";
    std::string S;
    llvm::raw_string_ostream OS(S);
    static_cast<const Expr *>(Site)->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
    return OS.str();
  }
  default:
    return "?";
  }
}

unsigned Term::threadDegree() const {
  return static_cast<unsigned>(
      llvm::count_if(Symbols, [](const Symbol &S) { return S.isThreadVarying(); }));
}

AffineForm AffineForm::constant(int64_t C) {
  AffineForm F;
  if (C != 0)
    F.Terms.push_back(Term{{}, C});
  return F;
}

AffineForm AffineForm::symbol(const Symbol &S) {
  AffineForm F;
  Term T;
  T.Symbols.push_back(S);
  T.Coefficient = 1;
  F.Terms.push_back(std::move(T));
  return F;
}

AffineForm AffineForm::unknown() {
  AffineForm F;
  F.Unknown = true;
  return F;
}

std::optional<int64_t> AffineForm::asConstant() const {
  if (Unknown)
    return std::nullopt;
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms[0].Symbols.empty())
    return Terms[0].Coefficient;
  return std::nullopt;
}

int64_t AffineForm::constantTerm() const {
  if (Unknown || Terms.empty() || !Terms[0].Symbols.empty())
    return 0;
  return Terms[0].Coefficient;
}

bool AffineForm::isUniform() const {
  if (Unknown)
    return false;
  return llvm::all_of(Terms, [](const Term &T) { return T.threadDegree() == 0; });
}

bool AffineForm::dependsOnKind(SymbolKind K) const {
  return llvm::any_of(Terms, [&](const Term &T) {
    return llvm::any_of(T.Symbols, [&](const Symbol &S) { return S.Kind == K; });
  });
}

static bool symbolsLess(const Term &A, const Term &B) {
  return std::lexicographical_compare(A.Symbols.begin(), A.Symbols.end(), B.Symbols.begin(),
                                      B.Symbols.end());
}

static bool sameSymbols(const Term &A, const Term &B) {
  return A.Symbols.size() == B.Symbols.size() &&
         std::equal(A.Symbols.begin(), A.Symbols.end(), B.Symbols.begin());
}

void AffineForm::addTerm(Term T) {
  if (Unknown || T.Coefficient == 0)
    return;
  if (T.threadDegree() > 1) {
    *this = unknown();
    return;
  }
  auto It = std::lower_bound(Terms.begin(), Terms.end(), T, symbolsLess);
  if (It != Terms.end() && sameSymbols(*It, T)) {
    int64_t Sum;
    if (__builtin_add_overflow(It->Coefficient, T.Coefficient, &Sum)) {
      *this = unknown();
      return;
    }
    It->Coefficient = Sum;
    if (Sum == 0)
      Terms.erase(It);
    return;
  }
  if (Terms.size() >= MaxTerms) {
    *this = unknown();
    return;
  }
  Terms.insert(It, std::move(T));
}

AffineForm AffineForm::operator+(const AffineForm &O) const {
  if (Unknown || O.Unknown)
    return unknown();
  AffineForm R = *this;
  for (const Term &T : O.Terms)
    R.addTerm(T);
  return R;
}

AffineForm AffineForm::operator-(const AffineForm &O) const { return *this + O.scaled(-1); }

AffineForm AffineForm::scaled(int64_t K) const {
  if (Unknown)
    return unknown();
  if (K == 0)
    return AffineForm();
  AffineForm R = *this;
  for (Term &T : R.Terms)
    if (__builtin_mul_overflow(T.Coefficient, K, &T.Coefficient))
      return unknown();
  return R;
}

AffineForm AffineForm::operator*(const AffineForm &O) const {
  if (Unknown || O.Unknown)
    return unknown();
  AffineForm R;
  for (const Term &A : Terms)
    for (const Term &B : O.Terms) {
      Term T;
      if (__builtin_mul_overflow(A.Coefficient, B.Coefficient, &T.Coefficient))
        return unknown();
      T.Symbols.append(A.Symbols.begin(), A.Symbols.end());
      T.Symbols.append(B.Symbols.begin(), B.Symbols.end());
      std::sort(T.Symbols.begin(), T.Symbols.end());
      R.addTerm(std::move(T));
      if (R.Unknown)
        return R;
    }
  return R;
}

std::optional<AffineForm> AffineForm::dividedExactly(int64_t K) const {
  if (Unknown || K == 0)
    return std::nullopt;
  AffineForm R = *this;
  for (Term &T : R.Terms) {
    if (T.Coefficient % K != 0)
      return std::nullopt;
    T.Coefficient /= K;
  }
  return R;
}

int64_t AffineForm::content() const {
  int64_t G = 0;
  for (const Term &T : Terms)
    G = std::gcd(G, T.Coefficient < 0 ? -T.Coefficient : T.Coefficient);
  return G;
}

AffineForm AffineForm::coefficientOf(const Symbol &S) const {
  if (Unknown)
    return unknown();
  AffineForm R;
  for (const Term &T : Terms) {
    unsigned Count = static_cast<unsigned>(llvm::count(T.Symbols, S));
    if (Count == 0)
      continue;
    if (Count > 1)
      return unknown();
    Term C = T;
    C.Symbols.erase(llvm::find(C.Symbols, S));
    R.addTerm(std::move(C));
  }
  return R;
}

AffineForm AffineForm::without(const Symbol &S) const {
  if (Unknown)
    return unknown();
  AffineForm R;
  for (const Term &T : Terms)
    if (!llvm::is_contained(T.Symbols, S))
      R.addTerm(T);
  return R;
}

AffineForm AffineForm::withoutConstant() const {
  if (Unknown)
    return unknown();
  AffineForm R;
  for (const Term &T : Terms)
    if (!T.Symbols.empty())
      R.addTerm(T);
  return R;
}

bool operator==(const AffineForm &A, const AffineForm &B) {
  if (A.Unknown || B.Unknown)
    return false; // Two unknown values are not known to be equal.
  if (A.Terms.size() != B.Terms.size())
    return false;
  for (size_t I = 0; I < A.Terms.size(); ++I)
    if (A.Terms[I].Coefficient != B.Terms[I].Coefficient || !sameSymbols(A.Terms[I], B.Terms[I]))
      return false;
  return true;
}

std::string AffineForm::str(const ASTContext &Ctx) const {
  if (Unknown)
    return "unknown";
  if (Terms.empty())
    return "0";
  // threadIdx terms first, then the other products by name, the constant last:
  // the same text whatever the order of the symbols in memory.
  struct Printed {
    bool Constant;
    unsigned ThreadDegree;
    std::string Product;
    int64_t Coefficient;
  };
  std::vector<Printed> Parts;
  for (const Term &T : Terms) {
    std::vector<std::string> Names;
    for (const Symbol &Sym : T.Symbols) {
      std::string N = Sym.name(Ctx);
      bool Compound = Sym.Kind == SymbolKind::Opaque && N.find_first_of(" +-*/%") != std::string::npos;
      Names.push_back(Compound ? "(" + N + ")" : N);
    }
    // threadIdx first within a product, then by name.
    std::stable_sort(Names.begin(), Names.end(), [](const std::string &A, const std::string &B) {
      bool TA = llvm::StringRef(A).starts_with("threadIdx"), TB = llvm::StringRef(B).starts_with("threadIdx");
      if (TA != TB)
        return TA;
      return A < B;
    });
    std::string Product;
    for (const std::string &N : Names)
      Product += (Product.empty() ? "" : " * ") + N;
    Parts.push_back({T.Symbols.empty(), T.threadDegree(), Product, T.Coefficient});
  }
  std::sort(Parts.begin(), Parts.end(), [](const Printed &A, const Printed &B) {
    if (A.Constant != B.Constant)
      return B.Constant;
    if (A.ThreadDegree != B.ThreadDegree)
      return A.ThreadDegree > B.ThreadDegree;
    return A.Product < B.Product;
  });
  std::string S;
  bool First = true;
  for (const Printed &P : Parts) {
    int64_t C = P.Coefficient;
    if (!First)
      S += C < 0 ? " - " : " + ";
    else if (C < 0)
      S += "-";
    First = false;
    uint64_t Abs = C < 0 ? 0 - static_cast<uint64_t>(C) : static_cast<uint64_t>(C);
    if (P.Constant) {
      S += std::to_string(Abs);
      continue;
    }
    if (Abs != 1)
      S += std::to_string(Abs) + " * ";
    S += P.Product;
  }
  return S;
}

AffineForm laneStride(const AffineForm &ByteOffset) {
  return ByteOffset.coefficientOf(Symbol::threadIdx(0));
}

} // namespace cuda_advisor::analysis
