//===- Format.cpp - Human-readable numbers and shared helpers -------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;

namespace cuda_advisor::report {

std::optional<OutputFormat> parseOutputFormat(StringRef Name) {
  if (Name == "text")
    return OutputFormat::Text;
  if (Name == "json")
    return OutputFormat::Json;
  if (Name == "sarif")
    return OutputFormat::Sarif;
  if (Name == "markdown" || Name == "md")
    return OutputFormat::Markdown;
  if (Name == "html")
    return OutputFormat::Html;
  return std::nullopt;
}

void emit(OutputFormat F, raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  switch (F) {
  case OutputFormat::Text:
    return emitText(OS, Findings, Ctx);
  case OutputFormat::Json:
    return emitJson(OS, Findings, Ctx);
  case OutputFormat::Sarif:
    return emitSarif(OS, Findings, Ctx);
  case OutputFormat::Markdown:
    return emitMarkdown(OS, Findings, Ctx);
  case OutputFormat::Html:
    return emitHtml(OS, Findings, Ctx);
  }
}

static std::string trimNumber(double V, int Digits) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.*f", Digits, V);
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
/// value stays under Limit ("1000 ms" is "1 s").
static std::string scaled(double Value, ArrayRef<double> Scales, ArrayRef<const char *> Units,
                          double Limit) {
  for (size_t U = 0;; ++U) {
    double V = Value / Scales[U];
    int Digits = U == 0 ? 0 : (V < 10 ? 2 : (V < 100 ? 1 : 0));
    double Pow = std::pow(10.0, Digits);
    bool Last = U + 1 == Scales.size();
    if (!Last && std::round(V * Pow) / Pow >= Limit)
      continue;
    return trimNumber(V, Digits) + " " + Units[U];
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

std::string detail::formatShare(double Share) {
  double P = Share * 100;
  return trimNumber(P, P < 1 ? 2 : (P < 10 ? 1 : 0)) + "%";
}

std::string formatCost(const Cost &C) {
  if (!C.Matched)
    return "not seen in the profile";
  auto [Measured, Saving] = detail::costColumns(C);
  return "measured: " + Measured + "; estimated saving: " + Saving;
}

std::string formatSummary(const RunSummary &S) {
  std::string Out = "GPU busy " + formatDuration(S.GpuBusyNs);
  if (S.WallNs)
    Out += " of " + formatDuration(S.WallNs);
  if (S.RankedFindings == 0)
    return Out + "; no finding was seen in the profile";
  Out += "; " + detail::countOf(S.RankedFindings, "finding") + " could save about " +
         formatDuration(S.TotalSavingNs);
  return Out;
}

std::string readCheckDoc(StringRef DocsDir, StringRef Id) {
  if (DocsDir.empty())
    return "";
  SmallString<256> P(DocsDir);
  sys::path::append(P, Id + ".md");
  auto Buf = MemoryBuffer::getFile(P);
  if (!Buf)
    return "";
  return (*Buf)->getBuffer().str();
}

} // namespace cuda_advisor::report
