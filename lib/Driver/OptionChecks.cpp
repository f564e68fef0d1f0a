//===- OptionChecks.cpp - Validation of numeric options -------------------===//
#include "OptionChecks.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>

using namespace llvm;

namespace cuda_advisor::driver {

CLI::Validator wholeNumberIn(unsigned Min, unsigned Max, const std::string &Meaning) {
  return CLI::Validator(
      [=](std::string &Value) -> std::string {
        StringRef S = StringRef(Value).trim();
        unsigned long long N;
        std::string Range = "from " + std::to_string(Min) + " to " + std::to_string(Max);
        if (S.getAsInteger(10, N))
          return "'" + Value + "' is not a whole number (" + Meaning + ", " + Range + ")";
        if (N < Min || N > Max)
          return std::to_string(N) + " is out of range (" + Meaning + ", " + Range + ")";
        return "";
      },
      "N", "WholeNumber");
}

std::optional<std::string> parseMinSaving(const std::string &Text, MinSaving &Out) {
  StringRef S = StringRef(Text).trim();
  auto Refuse = [&](StringRef Why) {
    return std::optional<std::string>("--min-saving '" + Text + "' " + Why.str());
  };
  const char *Expected = "is not a time (1ms, 200us) or a share (0.5%)";
  if (S.consume_back("%")) {
    double P;
    if (S.getAsDouble(P) || !std::isfinite(P))
      return Refuse(Expected);
    if (P < 0 || P > 100)
      return Refuse("is not a share from 0% to 100%");
    Out.Share = P / 100;
    return std::nullopt;
  }
  static const std::pair<const char *, double> Units[] = {
      {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (auto [Suffix, Scale] : Units) {
    StringRef Num = S;
    if (!Num.consume_back(Suffix))
      continue;
    double V;
    if (Num.getAsDouble(V))
      continue; // "1ms" also ends with "s".
    if (!std::isfinite(V))
      return Refuse(Expected);
    if (V < 0)
      return Refuse("is negative");
    // Anything past a year of GPU time hides every finding; refuse it rather
    // than convert a value that does not fit.
    double Ns = V * Scale;
    if (Ns > 365.0 * 24 * 3600 * 1e9)
      return Refuse("is longer than a year");
    Out.Ns = static_cast<uint64_t>(Ns);
    return std::nullopt;
  }
  return Refuse(Expected);
}

std::optional<std::string> parseShard(const std::string &Text, Shard &Out) {
  auto [IndexText, CountText] = StringRef(Text).trim().split('/');
  unsigned long long Index, Count;
  std::string Form = "'" + Text + "' ";
  if (IndexText.trim().getAsInteger(10, Index) || CountText.trim().getAsInteger(10, Count))
    return Form + "is not I/N, two whole numbers (the I-th of N shards, e.g. 1/4 to 4/4)";
  if (Count == 0 || Count > MaxShards)
    return Form + "has " + std::to_string(Count) + " shards; N is from 1 to " +
           std::to_string(MaxShards);
  if (Index == 0 || Index > Count)
    return Form + "names shard " + std::to_string(Index) + " of " + std::to_string(Count) +
           "; shards count from 1 (1/" + std::to_string(Count) + " to " +
           std::to_string(Count) + "/" + std::to_string(Count) + ")";
  Out.Index = static_cast<unsigned>(Index);
  Out.Count = static_cast<unsigned>(Count);
  return std::nullopt;
}

CLI::Validator shardSpec() {
  return CLI::Validator(
      [](std::string &Value) -> std::string {
        Shard Parsed;
        return parseShard(Value, Parsed).value_or("");
      },
      "I/N", "Shard");
}

} // namespace cuda_advisor::driver
