//===- Plausibility.cpp - Dropping records no run can have ----------------===//
//
// Every reader's records pass through dropImpossibleRecords: a damaged or
// hand-edited profile must not produce a finding that claims more time than
// the run had ("GPU busy 16650535394 s of 300 ms").
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace cuda_advisor::profile {
namespace {

constexpr uint64_t Second = 1000000000;
/// No recording is longer than this (a month)...
constexpr uint64_t MaxRecordingNs = 31 * 24 * 3600 * Second;
/// ...and no copy moves more than this (16 TiB; the largest GPUs hold 192 GiB).
constexpr uint64_t MaxBytes = uint64_t(1) << 44;

/// The interval a record must lie in: the process's recording, widened by a
/// second or a tenth of its length (buffered activity records are stamped a
/// little outside what the collector saw). Unknown recordings: no window.
struct Window {
  bool Known = false;
  uint64_t Lo = 0, Hi = ~uint64_t(0);
  bool contains(uint64_t Start, uint64_t End) const {
    return !Known || (Start >= Lo && End <= Hi);
  }
};

bool plausibleInterval(uint64_t Start, uint64_t End) {
  return Start <= End && End - Start <= MaxRecordingNs;
}

bool plausibleLaunch(const Kernel &K) {
  const auto &B = K.Block, &G = K.Grid;
  if (B[0] > 1024 || B[1] > 1024 || B[2] > 64 ||
      uint64_t(B[0]) * B[1] * B[2] > 1024)
    return false;
  if (G[0] > 0x7fffffffu || G[1] > 65535 || G[2] > 65535)
    return false;
  return K.RegistersPerThread <= 255;
}

} // namespace

void dropImpossibleRecords(Profile &P) {
  std::vector<Window> Windows(P.Processes.size());
  std::vector<uint64_t> Dropped(P.Processes.size(), 0);
  std::vector<bool> SpanFromRecords(P.Processes.size(), false);
  for (size_t I = 0; I < P.Processes.size(); ++I) {
    Process &Proc = P.Processes[I];
    if (Proc.EndNs <= Proc.StartNs)
      continue;
    if (Proc.EndNs - Proc.StartNs > MaxRecordingNs) {
      Proc.Warnings.push_back(formatv("{0}: the recording's start and end times are "
                                      "impossible ({1} s apart); its length is taken from "
                                      "the records",
                                      Proc.SourceFile, (Proc.EndNs - Proc.StartNs) / Second)
                                  .str());
      Proc.StartNs = Proc.EndNs = 0;
      SpanFromRecords[I] = true;
      continue;
    }
    uint64_t Slack = std::max(Second, (Proc.EndNs - Proc.StartNs) / 10);
    Windows[I].Known = true;
    Windows[I].Lo = Proc.StartNs > Slack ? Proc.StartNs - Slack : 0;
    Windows[I].Hi = Proc.EndNs + std::min(Slack, ~uint64_t(0) - Proc.EndNs);
  }
  auto Impossible = [&](const auto &R, bool SizeOk) {
    // No timestamps at all (CUPTI leaves a kernel that faulted at 0, 0): the
    // record says what ran, and takes no time.
    bool Untimed = R.Start == 0 && R.End == 0;
    bool Bad = !SizeOk || (!Untimed && (!plausibleInterval(R.Start, R.End) ||
                                        (R.Process < Windows.size() &&
                                         !Windows[R.Process].contains(R.Start, R.End))));
    if (Bad && R.Process < Dropped.size())
      ++Dropped[R.Process];
    return Bad;
  };
  // Records refer to each other by correlation id, never by index, except
  // ApiCall::StackIndex (into Stacks, untouched here).
  llvm::erase_if(P.Kernels, [&](const Kernel &K) { return Impossible(K, plausibleLaunch(K)); });
  llvm::erase_if(P.Copies, [&](const Copy &C) { return Impossible(C, C.Bytes <= MaxBytes); });
  llvm::erase_if(P.Memsets, [&](const Memset &M) { return Impossible(M, M.Bytes <= MaxBytes); });
  llvm::erase_if(P.Syncs, [&](const Sync &S) { return Impossible(S, true); });
  llvm::erase_if(P.ApiCalls, [&](const ApiCall &A) { return Impossible(A, true); });
  for (size_t I = 0; I < P.Processes.size(); ++I)
    llvm::erase_if(P.Processes[I].Overheads, [&](const std::pair<uint64_t, uint64_t> &O) {
      bool Bad = !plausibleInterval(O.first, O.second) || !Windows[I].contains(O.first, O.second);
      Dropped[I] += Bad;
      return Bad;
    });

  for (size_t I = 0; I < P.Processes.size(); ++I) {
    Process &Proc = P.Processes[I];
    if (Dropped[I])
      Proc.Warnings.push_back(
          formatv("{0}: {1} impossible {2} dropped (end before start, outside the recording, "
                  "or sizes no GPU has)",
                  Proc.SourceFile, Dropped[I], Dropped[I] == 1 ? "record" : "records")
              .str());
    if (!SpanFromRecords[I])
      continue;
    // The recording's interval was impossible: the records' span.
    uint64_t Lo = ~uint64_t(0), Hi = 0;
    auto Span = [&](const auto &Records) {
      for (const auto &R : Records)
        if (R.Process == I) {
          Lo = std::min(Lo, R.Start);
          Hi = std::max(Hi, R.End);
        }
    };
    Span(P.Kernels);
    Span(P.Copies);
    Span(P.Memsets);
    Span(P.Syncs);
    Span(P.ApiCalls);
    if (Hi > Lo) {
      Proc.StartNs = Lo;
      Proc.EndNs = Hi;
    }
  }
}

} // namespace cuda_advisor::profile
