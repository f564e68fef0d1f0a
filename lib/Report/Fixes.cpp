//===- Fixes.cpp - --export-fixes and --fix --------------------------------===//
//
// --export-fixes writes the YAML document that clang-tidy --export-fixes
// writes and clang-apply-replacements reads (clang/Tooling/DiagnosticsYaml.h):
//
//   ---
//   MainSourceFile:  '/abs/a.cu'
//   Diagnostics:
//     - DiagnosticName:  launch-grid-truncation
//       DiagnosticMessage:
//         Message:         'grid of n / threads blocks ...'
//         FilePath:        '/abs/a.cu'
//         FileOffset:      207
//         Replacements:
//           - FilePath:        '/abs/a.cu'
//             Offset:          207
//             Length:          11
//             ReplacementText: '(n + threads - 1) / threads'
//         Ranges: ...
//       Notes: ...
//       Level:           Warning
//       BuildDirectory:  '/abs/build'
//   ...
//
// --fix applies the same replacements in place (see applyFixesInPlace).
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"
#include "cuda-advisor/Core/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>
#include <set>

using namespace llvm;

namespace cuda_advisor::report {
namespace {

struct YamlReplacement {
  std::string FilePath;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string ReplacementText;
};

struct YamlRange {
  std::string FilePath;
  unsigned FileOffset = 0;
  unsigned Length = 0;
};

struct YamlMessage {
  std::string Message;
  std::string FilePath;
  unsigned FileOffset = 0;
  std::vector<YamlReplacement> Replacements;
  std::vector<YamlRange> Ranges;
};

struct YamlDiagnostic {
  std::string DiagnosticName;
  YamlMessage DiagnosticMessage;
  std::vector<YamlMessage> Notes;
  std::string Level;
  std::string BuildDirectory;
};

struct YamlDocument {
  std::string MainSourceFile;
  std::vector<YamlDiagnostic> Diagnostics;
};

} // namespace
} // namespace cuda_advisor::report

using namespace cuda_advisor::report;

LLVM_YAML_IS_SEQUENCE_VECTOR(YamlReplacement)
LLVM_YAML_IS_SEQUENCE_VECTOR(YamlRange)
LLVM_YAML_IS_SEQUENCE_VECTOR(YamlMessage)
LLVM_YAML_IS_SEQUENCE_VECTOR(YamlDiagnostic)

namespace llvm::yaml {

template <> struct MappingTraits<YamlReplacement> {
  static void mapping(IO &Io, YamlReplacement &R) {
    Io.mapRequired("FilePath", R.FilePath);
    Io.mapRequired("Offset", R.Offset);
    Io.mapRequired("Length", R.Length);
    Io.mapRequired("ReplacementText", R.ReplacementText);
  }
};

template <> struct MappingTraits<YamlRange> {
  static void mapping(IO &Io, YamlRange &R) {
    Io.mapRequired("FilePath", R.FilePath);
    Io.mapRequired("FileOffset", R.FileOffset);
    Io.mapRequired("Length", R.Length);
  }
};

template <> struct MappingTraits<YamlMessage> {
  static void mapping(IO &Io, YamlMessage &M) {
    Io.mapRequired("Message", M.Message);
    Io.mapOptional("FilePath", M.FilePath);
    Io.mapOptional("FileOffset", M.FileOffset);
    Io.mapRequired("Replacements", M.Replacements);
    Io.mapOptional("Ranges", M.Ranges);
  }
};

template <> struct MappingTraits<YamlDiagnostic> {
  static void mapping(IO &Io, YamlDiagnostic &D) {
    Io.mapRequired("DiagnosticName", D.DiagnosticName);
    Io.mapRequired("DiagnosticMessage", D.DiagnosticMessage);
    Io.mapOptional("Notes", D.Notes);
    Io.mapRequired("Level", D.Level);
    Io.mapOptional("BuildDirectory", D.BuildDirectory);
  }
};

template <> struct MappingTraits<YamlDocument> {
  static void mapping(IO &Io, YamlDocument &Doc) {
    Io.mapRequired("MainSourceFile", Doc.MainSourceFile);
    Io.mapRequired("Diagnostics", Doc.Diagnostics);
  }
};

} // namespace llvm::yaml

namespace cuda_advisor::report {
namespace {

using detail::SourceCache;
using detail::TextEdit;

/// clang's tooling::Diagnostic levels (there is no "note" level).
StringRef yamlLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "Error";
  case Severity::Warning:
    return "Warning";
  case Severity::Note:
    return "Remark";
  }
  return "Warning";
}

YamlMessage message(StringRef Text, const SourceLocation &Loc, SourceCache &Sources) {
  YamlMessage M;
  M.Message = Text.str();
  if (Loc.isValid()) {
    M.FilePath = Loc.File;
    M.FileOffset = detail::fileOffset(Loc, Sources).value_or(Loc.Offset);
  }
  return M;
}

YamlDocument fixesDocument(ArrayRef<Finding> Findings) {
  SourceCache Sources;
  YamlDocument Doc;
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  for (const Finding &F : Findings) {
    SourceLocation Loc = detail::primaryLocation(F);
    if (!Loc.isValid() && F.Fixes.empty())
      continue; // Consumers need a file.
    YamlDiagnostic D;
    D.DiagnosticName = F.CheckId;
    D.DiagnosticMessage = message(F.Message, Loc, Sources);
    for (const FixIt &Fix : F.Fixes) {
      const SourceLocation &B = Fix.Range.Begin;
      if (!B.isValid())
        continue;
      unsigned End = Fix.Range.End.isValid() ? Fix.Range.End.Offset : B.Offset;
      if (End < B.Offset || (Fix.Range.End.isValid() && Fix.Range.End.File != B.File))
        continue;
      D.DiagnosticMessage.Replacements.push_back(
          {B.File, B.Offset, End - B.Offset, Fix.Replacement});
    }
    if (D.DiagnosticMessage.FilePath.empty() && !D.DiagnosticMessage.Replacements.empty())
      D.DiagnosticMessage.FilePath = D.DiagnosticMessage.Replacements.front().FilePath;
    if (F.Loc.isValid() && F.Range.isValid() && F.Range.End.isValid() &&
        F.Range.Begin.File == F.Range.End.File && F.Range.End.Offset >= F.Range.Begin.Offset)
      D.DiagnosticMessage.Ranges.push_back(
          {F.Range.Begin.File, F.Range.Begin.Offset, F.Range.End.Offset - F.Range.Begin.Offset});
    for (const FindingNote &N : F.Notes)
      D.Notes.push_back(message(N.Message, N.Loc, Sources));
    D.Level = yamlLevel(F.Level).str();
    D.BuildDirectory = Cwd.str().str();
    if (Doc.MainSourceFile.empty())
      Doc.MainSourceFile = D.DiagnosticMessage.FilePath;
    Doc.Diagnostics.push_back(std::move(D));
  }
  return Doc;
}

std::string where(const Finding &F) {
  SourceLocation L = detail::primaryLocation(F);
  if (!L.isValid() && !F.Fixes.empty())
    L = F.Fixes.front().Range.Begin;
  return detail::locationText(L, "") + ": [" + F.CheckId + "]";
}

} // namespace

void writeFixesYaml(raw_ostream &OS, ArrayRef<Finding> Findings) {
  YamlDocument Doc = fixesDocument(Findings);
  yaml::Output Out(OS);
  Out << Doc;
}

Error exportFixes(StringRef Path, ArrayRef<Finding> Findings) {
  auto File = OutputFile::create(Path, "the fix-its");
  if (!File)
    return File.takeError();
  writeFixesYaml((*File)->os(), Findings);
  return (*File)->commit();
}

Error applyFixesInPlace(ArrayRef<Finding> Findings, FixOutcome &Out) {
  SourceCache Sources;
  Error Errors = Error::success();
  std::set<std::string> Unreadable;

  // Each finding's fix-its as edits of the files as they are now.
  std::vector<std::vector<TextEdit>> Edits(Findings.size());
  std::vector<bool> Excluded(Findings.size(), false);
  for (size_t I = 0; I < Findings.size(); ++I) {
    for (const FixIt &Fix : Findings[I].Fixes) {
      const std::string &File = Fix.Range.Begin.File;
      if (!File.empty() && !Sources.content(File)) {
        if (Unreadable.insert(File).second)
          Errors = joinErrors(std::move(Errors),
                              createStringError(inconvertibleErrorCode(),
                                                "%s: cannot apply the fix-its: cannot read it",
                                                File.c_str()));
        Excluded[I] = true;
        break;
      }
      std::optional<TextEdit> E = detail::resolveFix(Fix, Sources, /*Strict=*/true);
      if (!E) {
        Out.Skipped.push_back(where(Findings[I]) +
                              " fix-it not applied: its range does not match the file (did it "
                              "change since it was analyzed?)");
        Excluded[I] = true;
        break;
      }
      Edits[I].push_back(std::move(*E));
    }
    if (Excluded[I])
      continue;
    llvm::sort(Edits[I]);
    Edits[I].erase(std::unique(Edits[I].begin(), Edits[I].end()), Edits[I].end());
    for (size_t K = 0; K + 1 < Edits[I].size(); ++K)
      if (detail::editsConflict(Edits[I][K], Edits[I][K + 1])) {
        Out.Skipped.push_back(where(Findings[I]) +
                              " fix-it not applied: its replacements overlap each other");
        Excluded[I] = true;
        break;
      }
  }

  // Findings whose edits overlap another finding's: none of them is applied.
  std::map<std::string, std::vector<std::pair<TextEdit, size_t>>> ByFile;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Excluded[I])
      for (const TextEdit &E : Edits[I])
        ByFile[E.File].push_back({E, I});
  std::vector<std::string> ConflictsWith(Findings.size());
  for (auto &[File, List] : ByFile) {
    llvm::sort(List, [](const auto &A, const auto &B) { return A.first < B.first; });
    for (size_t A = 0; A < List.size(); ++A)
      for (size_t B = A + 1; B < List.size(); ++B) {
        const TextEdit &EA = List[A].first, &EB = List[B].first;
        if (EB.Offset > EA.Offset + EA.Length)
          break; // Sorted by offset: nothing further can overlap EA.
        size_t FA = List[A].second, FB = List[B].second;
        if (FA == FB || !detail::editsConflict(EA, EB))
          continue;
        if (ConflictsWith[FA].empty())
          ConflictsWith[FA] = where(Findings[FB]);
        if (ConflictsWith[FB].empty())
          ConflictsWith[FB] = where(Findings[FA]);
      }
  }
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Excluded[I] && !ConflictsWith[I].empty()) {
      Out.Skipped.push_back(where(Findings[I]) +
                            " fix-it not applied: it conflicts with the fix-it of " +
                            ConflictsWith[I]);
      Excluded[I] = true;
    }

  // The remaining edits, once each, file by file.
  std::map<std::string, std::vector<TextEdit>> Final;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Excluded[I])
      for (const TextEdit &E : Edits[I])
        Final[E.File].push_back(E);
  // Every changed file is written to a temporary file first; only when all
  // were written are they renamed over the sources, so that a failure (or a
  // signal) leaves either all or none of them changed.
  AtomicReplace Replace;
  Error WriteErrors = Error::success();
  size_t Applied = 0;
  std::vector<std::string> Changed;
  for (auto &[File, List] : Final) {
    llvm::sort(List);
    List.erase(std::unique(List.begin(), List.end()), List.end());
    std::string NewText = detail::applyEdits(*Sources.content(File), List);
    if (Error E = Replace.add(File, NewText, "apply the fix-its")) {
      WriteErrors = joinErrors(std::move(WriteErrors), std::move(E));
      continue;
    }
    Applied += List.size();
    Changed.push_back(File);
  }
  if (WriteErrors)
    return joinErrors(
        std::move(Errors),
        joinErrors(std::move(WriteErrors),
                   createStringError(inconvertibleErrorCode(),
                                     "no fix-it was applied: every file stays as it was")));
  if (Error E = Replace.commitAll())
    return joinErrors(std::move(Errors), std::move(E));
  Out.Applied += Applied;
  llvm::append_range(Out.FilesChanged, Changed);
  return Errors;
}

} // namespace cuda_advisor::report
