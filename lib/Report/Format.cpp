//===- Format.cpp - Human-readable numbers and shared helpers -------------===//
#include "cuda-advisor/Report/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

void emit(OutputFormat F, raw_ostream &OS, ArrayRef<Finding> Findings,
          const ReportContext &Ctx) {
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

std::string formatBytes(uint64_t Bytes) {
  static const char *const Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double V = static_cast<double>(Bytes);
  unsigned U = 0;
  while (V >= 1024 && U + 1 < std::size(Units)) {
    V /= 1024;
    ++U;
  }
  return trimNumber(V, U == 0 ? 0 : (V < 10 ? 2 : 1)) + " " + Units[U];
}

std::string formatDuration(uint64_t Ns) {
  double V = static_cast<double>(Ns);
  if (Ns < 1000)
    return std::to_string(Ns) + " ns";
  if (Ns < 1000000)
    return trimNumber(V / 1e3, V < 1e4 ? 2 : 1) + " us";
  if (Ns < 1000000000)
    return trimNumber(V / 1e6, V < 1e7 ? 2 : 1) + " ms";
  return trimNumber(V / 1e9, 2) + " s";
}

static std::string percent(double Share) {
  double P = Share * 100;
  return trimNumber(P, P < 1 ? 2 : (P < 10 ? 1 : 0)) + "%";
}

std::string formatCost(const Cost &C) {
  if (!C.Matched)
    return "not seen in the profile";
  std::string S = "measured: " + std::to_string(C.Calls) + (C.Calls == 1 ? " call, " : " calls, ") +
                  formatDuration(C.MeasuredNs);
  if (C.GpuShare > 0)
    S += " (" + percent(C.GpuShare) + " of GPU time)";
  else if (C.WallShare > 0)
    S += " (" + percent(C.WallShare) + " of wall time)";
  S += "; estimated saving: " + formatDuration(C.SavingNs);
  return S;
}

std::string formatSummary(const RunSummary &S) {
  std::string Out = "GPU busy " + formatDuration(S.GpuBusyNs) + " of " + formatDuration(S.WallNs);
  Out += "; " + std::to_string(S.RankedFindings) +
         (S.RankedFindings == 1 ? " finding could save about " : " findings could save about ") +
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
