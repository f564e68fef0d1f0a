//===- Join.cpp - Which profile records a finding is about ----------------===//
#include "cuda-advisor/Rank/Join.h"
#include "cuda-advisor/Core/RuleTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

unsigned sameFileScore(StringRef A, StringRef B) {
  if (A.empty() || B.empty())
    return 0;
  SmallVector<StringRef, 16> PA, PB;
  for (auto I = sys::path::rbegin(A), E = sys::path::rend(A); I != E; ++I)
    if (*I != "." && *I != "/")
      PA.push_back(*I);
  for (auto I = sys::path::rbegin(B), E = sys::path::rend(B); I != E; ++I)
    if (*I != "." && *I != "/")
      PB.push_back(*I);
  unsigned Equal = 0;
  while (Equal < PA.size() && Equal < PB.size() && PA[Equal] == PB[Equal])
    ++Equal;
  if (Equal == 0)
    return 0;
  if (Equal == PA.size() && Equal == PB.size())
    return 1000; // The same spelling.
  sys::fs::UniqueID IA, IB;
  if (!sys::fs::getUniqueID(A, IA) && !sys::fs::getUniqueID(B, IB) && IA == IB)
    return 1000;
  return Equal;
}

/// The position of the '(' that opens the last top-level parenthesized
/// group of S (the parameter list of a demangled function name), or npos.
static size_t parameterListStart(StringRef S) {
  int Depth = 0;
  size_t Open = StringRef::npos;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ']') && Depth > 0)
      --Depth;
    else if (C == '(') {
      if (Depth == 0)
        Open = I;
      ++Depth;
    } else if (C == ')' && Depth > 0)
      --Depth;
  }
  return Open;
}

std::string kernelKey(StringRef Name) {
  std::string Demangled =
      Name.starts_with("_Z") ? llvm::demangle(Name.str()) : Name.str();
  StringRef S = StringRef(Demangled).trim();
  // The parameter list, then anything after it (" const", clone suffixes).
  if (size_t Open = parameterListStart(S); Open != StringRef::npos && Open > 0)
    S = S.take_front(Open);
  // The return type of a template instantiation: "void ", before the name.
  int Depth = 0;
  size_t NameStart = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<' || C == '(')
      ++Depth;
    else if ((C == '>' || C == ')') && Depth > 0)
      --Depth;
    else if (C == ' ' && Depth == 0)
      NameStart = I + 1;
  }
  S = S.drop_front(NameStart);
  std::string Key;
  for (char C : S)
    if (!isSpace(C))
      Key += C;
  return Key;
}

Joiner::Joiner(const ProfileIndex &Index) : Index(Index) {
  const Profile &P = Index.profile();
  CallsByStack.resize(P.Stacks.size());
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    int64_t S = P.ApiCalls[I].StackIndex;
    if (S >= 0 && static_cast<size_t>(S) < P.Stacks.size())
      CallsByStack[static_cast<size_t>(S)].push_back(I);
  }
  for (size_t S = 0; S < P.Stacks.size(); ++S) {
    if (CallsByStack[S].empty())
      continue;
    const std::vector<StackFrame> &Symbols = P.Stacks[S].Symbols;
    for (size_t F = 0; F < Symbols.size(); ++F)
      if (Symbols[F].Loc.isValid())
        FramesByLine[Symbols[F].Loc.Line].push_back({S, F});
  }
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const Kernel &K = P.Kernels[I];
    if (!K.Name.empty())
      KernelsByMangled[K.Name].push_back(I);
    KernelsByKey[kernelKey(K.Demangled.empty() ? K.Name : K.Demangled)].push_back(I);
    if (!LaunchStacks)
      if (const Stack *S = Index.stackOf(WorkRef{WorkKind::Kernel, I}); S && S->userFrame())
        LaunchStacks = true;
  }
  for (size_t I = 0; I < P.Metrics.size(); ++I)
    MetricsByKey[kernelKey(P.Metrics[I].Name)].push_back(I);
}

std::vector<size_t> Joiner::callsAt(const SourceLocation &Site,
                                    ArrayRef<StringRef> Families) const {
  std::vector<size_t> Out;
  auto It = FramesByLine.find(Site.Line);
  if (!Site.isValid() || It == FramesByLine.end())
    return Out;
  const Profile &P = Index.profile();
  unsigned Best = 0;
  std::set<size_t> Stacks;
  for (auto [S, F] : It->second) {
    unsigned Score = sameFileScore(P.Stacks[S].Symbols[F].Loc.File, Site.File);
    if (Score == 0 || Score < Best)
      continue;
    if (Score > Best) {
      Best = Score;
      Stacks.clear();
    }
    Stacks.insert(S);
  }
  for (size_t S : Stacks)
    for (size_t C : CallsByStack[S])
      if (Families.empty() || is_contained(Families, apiFamily(P.ApiCalls[C].Name)))
        Out.push_back(C);
  llvm::sort(Out);
  return Out;
}

std::vector<size_t> Joiner::kernelsNamed(ArrayRef<std::string> Names) const {
  std::set<size_t> Out;
  for (const std::string &N : Names) {
    auto M = KernelsByMangled.find(N);
    if (M != KernelsByMangled.end()) {
      Out.insert(M->second.begin(), M->second.end());
      continue;
    }
    auto K = KernelsByKey.find(kernelKey(N));
    if (K == KernelsByKey.end())
      continue;
    // No record has this mangled name: compare demangled names without
    // parameters (formats without mangled names; nvcc and Clang manglings
    // that differ). Overloads of one name are not told apart then.
    Out.insert(K->second.begin(), K->second.end());
  }
  return {Out.begin(), Out.end()};
}

std::vector<size_t> Joiner::metricsNamed(ArrayRef<std::string> Names) const {
  std::set<size_t> Out;
  for (const std::string &N : Names) {
    auto K = MetricsByKey.find(kernelKey(N));
    if (K != MetricsByKey.end())
      Out.insert(K->second.begin(), K->second.end());
  }
  return {Out.begin(), Out.end()};
}

Match Joiner::match(const Finding &F) const {
  Match M;
  const JoinKeys &K = F.Keys;
  if (!K.Kernels.empty()) {
    M.Kernels = kernelsNamed(K.Kernels);
    M.Metrics = metricsNamed(K.Kernels);
    // A launch finding is about its launch sites: with stacks, keep the
    // kernels launched there.
    if (!K.CallSites.empty() && LaunchStacks && !M.Kernels.empty()) {
      std::set<size_t> CallSet;
      for (const SourceLocation &Site : K.CallSites)
        for (size_t C : callsAt(Site, {"launch"}))
          CallSet.insert(C);
      std::vector<size_t> Calls(CallSet.begin(), CallSet.end());
      llvm::erase_if(M.Kernels, [&](size_t I) {
        std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, I});
        return !L || !CallSet.count(*L);
      });
      M.Calls = std::move(Calls);
    }
    return M;
  }
  if (K.CallSites.empty())
    return M;
  // A finding through a callee (transfer-in-loop's helper that copies and
  // allocates): the call in the loop is the key, and every call below it of
  // the families the check's Rules.def entry names counts.
  StringRef Family = apiFamily(K.Api);
  if (K.CallSites.size() > 1) {
    std::vector<StringRef> Families = apiFamilies(F.CheckId);
    if (!Families.empty()) {
      M.Calls = callsAt(K.CallSites[0], Families);
      return M;
    }
  }
  if (Family.empty())
    M.Calls = callsAt(K.CallSites[0], {});
  else
    M.Calls = callsAt(K.CallSites[0], {Family});
  return M;
}

} // namespace cuda_advisor::rank
