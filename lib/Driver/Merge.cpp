//===- Merge.cpp - `cuda-advisor merge`: joining shards' reports -----------===//
#include "Merge.h"
#include "cuda-advisor/Core/FileIO.h"
#include "cuda-advisor/Report/JsonModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::driver {
namespace {

Error fail(const Twine &Why) { return createStringError(inconvertibleErrorCode(), Why); }

/// The shards' reports must be one whole split: the same N, each I from 1 to
/// N exactly once. Reports without a shard cannot be mixed with shards'.
Error checkShards(ArrayRef<std::string> Paths,
                  ArrayRef<std::optional<std::pair<unsigned, unsigned>>> Shards) {
  size_t WithShard = llvm::count_if(Shards, [](const auto &S) { return S.has_value(); });
  if (WithShard == 0)
    return Error::success();
  if (WithShard != Shards.size()) {
    size_t Plain = llvm::find_if(Shards, [](const auto &S) { return !S; }) - Shards.begin();
    size_t Shard = llvm::find_if(Shards, [](const auto &S) { return S.has_value(); }) -
                   Shards.begin();
    return fail(Paths[Plain] + ": not a shard's report (its run had no --shard) while " +
                Paths[Shard] + " is shard " + Twine(Shards[Shard]->first) + "/" +
                Twine(Shards[Shard]->second) + ": merge the shards of one run");
  }
  unsigned Count = Shards.front()->second;
  std::map<unsigned, size_t> Seen; // Shard index -> report.
  for (size_t I = 0; I < Shards.size(); ++I) {
    auto [Index, N] = *Shards[I];
    if (N != Count)
      return fail(Paths[I] + ": shard " + Twine(Index) + "/" + Twine(N) + " is of another split than " +
                  Paths[0] + " (shard " + Twine(Shards[0]->first) + "/" + Twine(Count) + ")");
    auto [It, New] = Seen.emplace(Index, I);
    if (!New)
      return fail(Paths[I] + ": shard " + Twine(Index) + "/" + Twine(N) + " again (" +
                  Paths[It->second] + " is that shard too)");
  }
  if (Seen.size() == Count)
    return Error::success();
  SmallVector<std::string, 8> Missing;
  for (unsigned I = 1; I <= Count && Missing.size() < 8; ++I)
    if (!Seen.count(I))
      Missing.push_back(std::to_string(I) + "/" + std::to_string(Count));
  size_t More = Count - Seen.size() - Missing.size();
  return fail("the shards' reports are not the whole run: missing shard" +
              Twine(Count - Seen.size() == 1 ? " " : "s ") + join(Missing, ", ") +
              (More ? " and " + std::to_string(More) + " more" : std::string()));
}

} // namespace

Expected<MergedReports> readReportsToMerge(ArrayRef<std::string> Paths) {
  MergedReports Out;
  Error Errors = Error::success();
  std::vector<std::optional<std::pair<unsigned, unsigned>>> Shards;
  for (const std::string &Path : Paths) {
    auto Buffer = readInputFile(Path, "report");
    if (!Buffer) {
      Errors = joinErrors(std::move(Errors), Buffer.takeError());
      continue;
    }
    auto Report = report::parseJsonReport((*Buffer)->getBuffer(), Path);
    if (!Report) {
      Errors = joinErrors(std::move(Errors), Report.takeError());
      continue;
    }
    Shards.push_back(Report->Shard);
    for (Finding &F : Report->Findings) {
      F.Ranking.reset(); // A shard's cost would count its records again.
      Out.Findings.push_back(std::move(F));
    }
    llvm::append_range(Out.Sources, Report->Sources);
    for (auto &[File, Message] : Report->Errors)
      Out.Errors.push_back({File, Message});
  }
  if (Errors)
    return Errors;
  if (Error E = checkShards(Paths, Shards))
    return E;
  sortAndUniqueFindings(Out.Findings);
  llvm::sort(Out.Sources);
  Out.Sources.erase(std::unique(Out.Sources.begin(), Out.Sources.end()), Out.Sources.end());
  return Out;
}

} // namespace cuda_advisor::driver
