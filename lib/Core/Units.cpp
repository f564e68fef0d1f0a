//===- Units.cpp ----------------------------------------------------------===//
#include "cuda-advisor/Core/Units.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace cuda_advisor {

std::string formatTrimmed(double V, int Digits) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.*f", Digits, V);
  OS.flush();
  if (S.find('.') != std::string::npos) {
    while (!S.empty() && S.back() == '0')
      S.pop_back();
    if (!S.empty() && S.back() == '.')
      S.pop_back();
  }
  return S;
}

/// Value / Scales[U] with about 3 significant digits ("8.12", "35.2", "412";
/// whole numbers in the first unit), in the first unit where the rounded
/// value stays under Limit.
static std::string scaled(double Value, llvm::ArrayRef<double> Scales,
                          llvm::ArrayRef<const char *> Units, double Limit) {
  for (size_t U = 0;; ++U) {
    double V = Value / Scales[U];
    int Digits = U == 0 ? 0 : (V < 10 ? 2 : (V < 100 ? 1 : 0));
    double Pow = std::pow(10.0, Digits);
    bool Last = U + 1 == Scales.size();
    if (!Last && std::round(V * Pow) / Pow >= Limit)
      continue;
    return formatTrimmed(V, Digits) + " " + Units[U];
  }
}

std::string formatBytes(uint64_t Bytes) {
  static const double Scales[] = {1.0, 1024.0, 1048576.0, 1073741824.0, 1099511627776.0};
  static const char *const Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  return scaled(static_cast<double>(Bytes), Scales, Units, 1024);
}

std::string formatDuration(uint64_t Ns) {
  static const double Scales[] = {1.0, 1e3, 1e6, 1e9};
  static const char *const Units[] = {"ns", "us", "ms", "s"};
  return scaled(static_cast<double>(Ns), Scales, Units, 1000);
}

} // namespace cuda_advisor
