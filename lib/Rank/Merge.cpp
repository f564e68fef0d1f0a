//===- Merge.cpp - One thief, one finding ---------------------------------===//
#include "Merge.h"
#include "cuda-advisor/Core/Evidence.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <numeric>

using namespace llvm;

namespace cuda_advisor::rank {
namespace {

RecordSet recordsOf(const RuntimeFinding &R) {
  return {{R.Calls.begin(), R.Calls.end()}, {R.Kernels.begin(), R.Kernels.end()}};
}

size_t shared(const RecordSet &A, const RecordSet &B) {
  auto Count = [](const std::vector<size_t> &X, const std::vector<size_t> &Y) {
    size_t N = 0;
    for (auto I = X.begin(), J = Y.begin(); I != X.end() && J != Y.end();) {
      if (*I < *J)
        ++I;
      else if (*J < *I)
        ++J;
      else {
        ++N;
        ++I;
        ++J;
      }
    }
    return N;
  };
  return Count(A.Calls, B.Calls) + Count(A.Kernels, B.Kernels);
}

void unite(std::vector<size_t> &Into, const std::vector<size_t> &From) {
  std::vector<size_t> Out;
  std::set_union(Into.begin(), Into.end(), From.begin(), From.end(), std::back_inserter(Out));
  Into = std::move(Out);
}

/// Into absorbs From: a note with From's message and saving, its id in the
/// evidence, its location where Into has none, and its saving where it is
/// the larger one and not conditional.
void absorb(Finding &Into, const Finding &From, bool Conditional) {
  const Cost &Theirs = *From.Ranking;
  std::string Saving =
      Theirs.SavingNs == 0
          ? std::string()
          : formatv("; {0}{1} estimated saving", Conditional ? "up to " : "",
                    formatDuration(Theirs.SavingNs))
                .str();
  // "in load_batch() (train.py:21): " once, on the finding.
  StringRef Message = From.Message;
  if (Message.starts_with("in ")) {
    size_t End = Message.find("): ");
    if (End != StringRef::npos && StringRef(Into.Message).starts_with(Message.take_front(End + 3)))
      Message = Message.drop_front(End + 3);
  }
  FindingNote N;
  N.Message = "the same records: " + Message.str() + Saving + " [" + From.CheckId + "]";
  Into.Notes.push_back(std::move(N));
  json::Array Ids = getEvidence(Into, evidence::AlsoFoundBy).value_or(json::Array());
  Ids.push_back(From.CheckId);
  setEvidence(Into, evidence::AlsoFoundBy, std::move(Ids));
  if (!Into.Loc.isValid() && From.Loc.isValid())
    Into.Loc = From.Loc;
  if (!Into.Ranking || !Into.Ranking->Matched) {
    Into.Ranking = Theirs;
    return;
  }
  Cost &Mine = *Into.Ranking;
  if (!Conditional && Theirs.SavingNs > Mine.SavingNs) {
    Mine.SavingNs = Theirs.SavingNs;
    Mine.Method = "the larger saving of the two fixes, " + From.CheckId + "'s: " + Theirs.Method;
  }
}

} // namespace

void mergeIntoStatic(std::vector<RuntimeFinding> &Runtime, std::vector<Finding> &Static,
                     std::vector<RecordSet> &Records) {
  // Record -> the static findings about it.
  std::map<size_t, std::vector<size_t>> ByCall, ByKernel;
  for (size_t I = 0; I < Static.size(); ++I) {
    if (!Static[I].Ranking || !Static[I].Ranking->Matched)
      continue;
    for (size_t C : Records[I].Calls)
      ByCall[C].push_back(I);
    for (size_t K : Records[I].Kernels)
      ByKernel[K].push_back(I);
  }
  std::vector<RuntimeFinding> Kept;
  for (RuntimeFinding &R : Runtime) {
    std::map<size_t, size_t> Overlap;
    for (size_t C : R.Calls)
      if (auto It = ByCall.find(C); It != ByCall.end())
        for (size_t I : It->second)
          ++Overlap[I];
    for (size_t K : R.Kernels)
      if (auto It = ByKernel.find(K); It != ByKernel.end())
        for (size_t I : It->second)
          ++Overlap[I];
    size_t Total = R.Calls.size() + R.Kernels.size();
    auto Best = std::max_element(Overlap.begin(), Overlap.end(), [](const auto &A, const auto &B) {
      return A.second < B.second;
    });
    if (Total == 0 || Best == Overlap.end() || 2 * Best->second < Total) {
      Kept.push_back(std::move(R));
      continue;
    }
    size_t I = Best->first;
    absorb(Static[I], R.F, R.Conditional);
    RecordSet Theirs = recordsOf(R);
    unite(Records[I].Calls, Theirs.Calls);
    unite(Records[I].Kernels, Theirs.Kernels);
  }
  Runtime = std::move(Kept);
}

void mergeRuntime(std::vector<RuntimeFinding> &Runtime) {
  size_t N = Runtime.size();
  std::vector<RecordSet> Sets;
  Sets.reserve(N);
  for (const RuntimeFinding &R : Runtime)
    Sets.push_back(recordsOf(R));
  // Union-find over findings that share records.
  std::vector<size_t> Parent(N);
  std::iota(Parent.begin(), Parent.end(), 0);
  auto Find = [&](size_t X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  for (size_t A = 0; A < N; ++A)
    for (size_t B = A + 1; B < N; ++B) {
      // Mutual: each holds at least half of the other's records. "Half of
      // the smaller" alone chains unrelated findings through a broad one
      // (copy/compute overlap covers every copy and kernel: it would merge
      // the FP32 GEMMs with the pageable copies).
      size_t Larger = std::max(Sets[A].size(), Sets[B].size());
      if (Larger && 2 * shared(Sets[A], Sets[B]) >= Larger)
        Parent[Find(B)] = Find(A);
    }
  // A finding split among several narrower ones of one rule (sync-heavy's
  // synchronizations, each the wait after a copy of one of two
  // small-copies findings, one per direction): each narrower one has at
  // least half of its records in the broad one, and together they hold at
  // least half of the broad one's. One rule only: findings of different
  // rules inside a broad one (the FP32 GEMMs and the pageable copies inside
  // copy/compute overlap) are different thieves.
  // The parts' savings add up (each fix is its own: batching the downloads
  // and batching the uploads); the broad finding's is an alternative.
  std::map<size_t, std::vector<size_t>> SplitParts;
  for (size_t A = 0; A < N; ++A) {
    // Only synchronizations, whose records are the waits of other findings'
    // calls: a broad finding of another kind (launch-bound stretches,
    // copy/compute overlap) holds kernels that narrower findings of other
    // fixes (block sizes, pinning) are about.
    if (Runtime[A].F.CheckId != "runtime-sync-heavy")
      continue;
    std::map<StringRef, std::vector<size_t>> PartsByRule;
    for (size_t B = 0; B < N; ++B) {
      if (B == A || Sets[B].size() >= Sets[A].size() || Find(A) == Find(B))
        continue;
      size_t S = shared(Sets[A], Sets[B]);
      if (S && 2 * S >= Sets[B].size())
        PartsByRule[Runtime[B].F.CheckId].push_back(B);
    }
    for (auto &[Rule, Parts] : PartsByRule) {
      if (Parts.size() < 2)
        continue;
      RecordSet Covered;
      for (size_t B : Parts) {
        unite(Covered.Calls, Sets[B].Calls);
        unite(Covered.Kernels, Sets[B].Kernels);
      }
      if (2 * shared(Sets[A], Covered) >= Sets[A].size()) {
        for (size_t B : Parts)
          Parent[Find(B)] = Find(A);
        SplitParts[A] = Parts;
      }
    }
  }
  std::map<size_t, std::vector<size_t>> Groups;
  for (size_t I = 0; I < N; ++I)
    Groups[Find(I)].push_back(I);
  struct PartsSum {
    uint64_t Sum = 0;
    size_t Count = 0;
    std::string Rule;
  };
  std::map<size_t, PartsSum> PartsSaving;
  for (auto &[Broad, Parts] : SplitParts) {
    PartsSum &P = PartsSaving[Find(Broad)];
    for (size_t B : Parts)
      if (!Runtime[B].Conditional && Runtime[B].F.Ranking) {
        P.Sum += Runtime[B].F.Ranking->SavingNs;
        P.Rule = Runtime[B].F.CheckId;
        ++P.Count;
      }
  }
  std::vector<RuntimeFinding> Out;
  for (auto &[Root, Members] : Groups) {
    // The finding that speaks for the group: not conditional, then the
    // largest saving, then the first rule.
    size_t Lead = *std::min_element(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      const RuntimeFinding &X = Runtime[A], &Y = Runtime[B];
      if (X.Conditional != Y.Conditional)
        return !X.Conditional;
      if (X.F.Ranking->SavingNs != Y.F.Ranking->SavingNs)
        return X.F.Ranking->SavingNs > Y.F.Ranking->SavingNs;
      return A < B;
    });
    bool Conditional =
        llvm::all_of(Members, [&](size_t I) { return Runtime[I].Conditional; });
    RuntimeFinding Merged = std::move(Runtime[Lead]);
    for (size_t I : Members) {
      if (I == Lead)
        continue;
      RuntimeFinding &R = Runtime[I];
      absorb(Merged.F, R.F, R.Conditional);
      Merged.Calls.insert(R.Calls.begin(), R.Calls.end());
      Merged.Kernels.insert(R.Kernels.begin(), R.Kernels.end());
      Merged.Processes.insert(R.Processes.begin(), R.Processes.end());
      if (!Merged.OverlapOf)
        Merged.OverlapOf = R.OverlapOf;
    }
    Merged.Conditional = Conditional;
    if (auto It = PartsSaving.find(Root);
        It != PartsSaving.end() && Merged.F.Ranking && It->second.Sum > Merged.F.Ranking->SavingNs) {
      Merged.F.Ranking->SavingNs = It->second.Sum;
      Merged.F.Ranking->Method =
          formatv("the {0} {1} findings' savings added (their records are disjoint, each fix "
                  "its own), larger than the synchronizations' alone",
                  It->second.Count, It->second.Rule)
              .str();
    }
    Out.push_back(std::move(Merged));
  }
  Runtime = std::move(Out);
}

} // namespace cuda_advisor::rank
