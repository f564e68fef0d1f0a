//===- Units.h - Bytes and durations for people ----------------*- C++ -*-===//
//
// One spelling of sizes and times for every layer: messages of the runtime
// rules (Rank) and reports (Report) say "3.81 MiB" and "35.2 ms" alike.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_UNITS_H
#define CUDA_ADVISOR_CORE_UNITS_H

#include <cstdint>
#include <string>

namespace cuda_advisor {

/// "4 MiB", "3.81 MiB", "12 B": about three significant digits, in the
/// first unit where the rounded value stays under 1024 ("1 MiB", not "1024 KiB").
std::string formatBytes(uint64_t Bytes);
/// "35.2 ms", "812 us", "1.2 s": likewise, under 1000 ("1 s", not "1000 ms").
std::string formatDuration(uint64_t Ns);
/// V with at most Digits decimals and no trailing zeros ("2.5", "3").
std::string formatTrimmed(double V, int Digits);

} // namespace cuda_advisor

#endif
