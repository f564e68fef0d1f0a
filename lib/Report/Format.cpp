//===- Format.cpp - Human-readable numbers and shared helpers -------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"
#include "cuda-advisor/Core/Units.h"

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

static std::string trimNumber(double V, int Digits) { return formatTrimmed(V, Digits); }

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
