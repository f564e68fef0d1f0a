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

std::vector<std::pair<std::string, uint64_t>> timeShare(const RunSummary &S) {
  if (!S.WallNs || !S.GpuBusyNs)
    return {};
  uint64_t Busy = S.GpuBusyNs;
  uint64_t Kernels = std::min(S.KernelBusyNs, Busy);
  uint64_t Alone = Busy - Kernels;
  uint64_t Under = S.KernelBusyNs + S.TransferBusyNs > Busy
                       ? std::min(S.KernelBusyNs + S.TransferBusyNs - Busy, Kernels)
                       : 0;
  // Several GPUs per process can be busy for longer than the wall time.
  uint64_t Idle = S.WallNs > Busy ? S.WallNs - Busy : 0;
  return {{"compute (kernels)", Kernels},
          {"copies and memsets alone", Alone},
          {"copies and memsets under kernels", Under},
          {"GPU idle", Idle}};
}

std::string formatTimeShare(const RunSummary &S) {
  std::string Out;
  for (const auto &[Label, Ns] : timeShare(S))
    Out += (Out.empty() ? "time share: " : ", ") + Label + " " +
           detail::formatShare(static_cast<double>(Ns) / static_cast<double>(S.WallNs)) + " (" +
           formatDuration(Ns) + ")";
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
