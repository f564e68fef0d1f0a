//===- OptionChecks.h - Validation of numeric options ----------*- C++ -*-===//
//
// Every number the command line takes is checked before anything runs: a
// value out of range is one message and exit 2, never a wrapped integer or
// an undefined conversion.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_DRIVER_OPTIONCHECKS_H
#define CUDA_ADVISOR_DRIVER_OPTIONCHECKS_H

#include "CLI/CLI.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cuda_advisor::driver {

/// The most files analyzed in parallel (-j): more threads than this only
/// cost memory.
inline constexpr unsigned MaxJobs = 1024;

/// A CLI11 validator for a whole number in [Min, Max]; Meaning says what the
/// number counts ("files analyzed in parallel").
CLI::Validator wholeNumberIn(unsigned Min, unsigned Max, const std::string &Meaning);

/// --min-saving: "1ms", "250us", "2s", "1500ns" or "0.5%".
struct MinSaving {
  uint64_t Ns = 0;
  double Share = 0;
};
/// The parsed value, or the message saying why it is refused.
std::optional<std::string> parseMinSaving(const std::string &Text, MinSaving &Out);

/// --shard I/N: this run analyzes the I-th of N shards, I counted from 1.
struct Shard {
  unsigned Index = 1;
  unsigned Count = 1;
};
/// The most shards (--shard I/N): more than any CI matrix runs.
inline constexpr unsigned MaxShards = 100000;
/// The parsed value of "I/N", or the message saying why it is refused.
std::optional<std::string> parseShard(const std::string &Text, Shard &Out);
/// A CLI11 validator built on parseShard.
CLI::Validator shardSpec();

} // namespace cuda_advisor::driver

#endif
