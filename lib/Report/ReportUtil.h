//===- ReportUtil.h - Helpers shared by the emitters ----------*- C++ -*-===//
//
// Private to lib/Report: reading source lines, paths and URIs, escaping,
// the order findings are shown in, and resolving fix-its into byte edits.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_REPORT_REPORTUTIL_H
#define CUDA_ADVISOR_LIB_REPORT_REPORTUTIL_H

#include "cuda-advisor/Report/Report.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace cuda_advisor::report::detail {

/// Reads each file once and hands out its contents and lines.
class SourceCache {
public:
  /// The whole file, or nullopt when it cannot be read.
  std::optional<llvm::StringRef> content(llvm::StringRef File);
  /// Line Line (1-based) without its line ending, or nullopt.
  std::optional<llvm::StringRef> line(llvm::StringRef File, unsigned Line);
  unsigned lineCount(llvm::StringRef File);
  /// Byte offset of the start of Line (1-based), or nullopt.
  std::optional<unsigned> lineStart(llvm::StringRef File, unsigned Line);
  /// The 1-based line and column of byte Offset, or nullopt past the end.
  std::optional<std::pair<unsigned, unsigned>> lineColumn(llvm::StringRef File, unsigned Offset);

private:
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<unsigned> Starts; ///< Offset of each line's first byte.
  };
  Entry *entry(llvm::StringRef File);
  llvm::StringMap<Entry> Files;
};

/// A fix-it as bytes to replace in the file's current contents.
struct TextEdit {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  friend bool operator<(const TextEdit &A, const TextEdit &B) {
    return std::tie(A.File, A.Offset, A.Length, A.Text) <
           std::tie(B.File, B.Offset, B.Length, B.Text);
  }
  friend bool operator==(const TextEdit &A, const TextEdit &B) {
    return std::tie(A.File, A.Offset, A.Length, A.Text) ==
           std::tie(B.File, B.Offset, B.Length, B.Text);
  }
};

/// Turns Fix into a byte edit. Its offsets are used when they agree with its
/// line and column in the file as it is now; otherwise (Strict: the file
/// changed since it was analyzed) nullopt, or (not Strict) the offsets are
/// recomputed from the lines and columns.
std::optional<TextEdit> resolveFix(const FixIt &Fix, SourceCache &Sources, bool Strict);

/// The byte offset of L: L.Offset when it agrees with L's line and column in
/// the file as it is now, else computed from them; nullopt when the file
/// cannot be read or L is past its end.
std::optional<unsigned> fileOffset(const SourceLocation &L, SourceCache &Sources);

/// Do two edits of one file conflict? Overlapping ranges, or two different
/// insertions at one offset (their order would be arbitrary).
bool editsConflict(const TextEdit &A, const TextEdit &B);

/// Text with Edits (sorted by offset, not conflicting) applied; Base is the
/// file offset of Text's first byte.
std::string applyEdits(llvm::StringRef Text, llvm::ArrayRef<TextEdit> Edits, unsigned Base = 0);

/// The lines a finding's fix-its touch, before and after, for diff-like
/// suggestions. One hunk per group of edits that share lines.
struct FixHunk {
  std::string File;
  unsigned FirstLine = 0;
  std::vector<std::string> Before, After;
};
std::vector<FixHunk> fixHunks(const Finding &F, SourceCache &Sources);

/// Where a finding is shown: its location, else (runtime findings) its first
/// symbolized call site, else an invalid location.
SourceLocation primaryLocation(const Finding &F);

/// Was the finding matched to a profile?
inline bool isRanked(const Finding &F) { return F.Ranking && F.Ranking->Matched; }

/// The order the human-readable reports use: findings matched to a profile
/// by estimated saving (largest first), then the others in their given order.
std::vector<const Finding *> reportOrder(llvm::ArrayRef<Finding> Findings);

/// Ctx.SourceRoot, else the current directory: absolute, no trailing slash.
std::string sourceRoot(const ReportContext &Ctx);
/// Path relative to Root when it lies under Root, else Path itself.
std::string displayPath(llvm::StringRef Path, llvm::StringRef Root);
/// "path:line:col" (path as displayPath), "path:line", or "" when invalid.
std::string locationText(const SourceLocation &L, llvm::StringRef Root);

/// Percent-encodes a path for a URI (keeps '/' and RFC 3986 unreserved bytes).
std::string percentEncodePath(llvm::StringRef Path);
/// file:// URI of an absolute path; Directory adds the trailing '/'.
std::string fileUri(llvm::StringRef AbsolutePath, bool Directory = false);

std::string escapeHtml(llvm::StringRef Text);
/// Escapes Markdown syntax and HTML in running text (and table cells).
std::string escapeMarkdown(llvm::StringRef Text);
/// An inline code span showing Text literally, whatever backticks it holds;
/// InTable escapes '|' as GitHub's tables need, even inside code.
std::string markdownCode(llvm::StringRef Text, bool InTable = false);
/// A code fence longer than any run of backticks in Content.
std::string markdownFence(llvm::StringRef Content);

/// "3 findings (1 error, 2 warnings)", "no findings".
std::string countFindings(llvm::ArrayRef<Finding> Findings);
/// "1 error", "2 warnings" (N and the severity's name, plural when N != 1).
std::string countOf(unsigned N, llvm::StringRef Singular);

/// "28%", "4.5%", "0.25%": a share of 1 as a percentage.
std::string formatShare(double Share);

/// The cost columns of a finding: "100 calls, 35.2 ms (28% of GPU time)" and
/// "34.8 ms"; "not seen in the profile" and "" when it was not matched.
std::pair<std::string, std::string> costColumns(const Cost &C);
inline std::pair<std::string, std::string> costColumns(const Finding &F) {
  return costColumns(F.Ranking.value_or(Cost()));
}

} // namespace cuda_advisor::report::detail

#endif
