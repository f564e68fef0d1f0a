//===- Protocol.h - LSP shapes built from findings -------------*- C++ -*-===//
//
// URIs, positions (UTF-16 code units, as LSP counts by default) and the JSON
// of diagnostics, code actions and hovers, made from Core's findings.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LSP_PROTOCOL_H
#define CUDA_ADVISOR_LSP_PROTOCOL_H

#include "cuda-advisor/Core/Finding.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace cuda_advisor::lsp {

/// "file:///a%20b/c.cu" -> "/a b/c.cu"; an error for other schemes.
llvm::Expected<std::string> uriToPath(llvm::StringRef Uri);
std::string pathToUri(llvm::StringRef Path);

struct Position {
  int Line = 0;      ///< 0-based.
  int Character = 0; ///< 0-based, in UTF-16 code units.
  friend bool operator<(const Position &A, const Position &B) {
    return A.Line != B.Line ? A.Line < B.Line : A.Character < B.Character;
  }
  friend bool operator<=(const Position &A, const Position &B) { return !(B < A); }
};
struct Range {
  Position Start, End;
};
llvm::json::Value toJson(const Position &P);
llvm::json::Value toJson(const Range &R);
std::optional<Position> positionFromJson(const llvm::json::Value *V);

/// Converts the 1-based line and byte column of the tool's locations in one
/// text into LSP positions.
class LineMap {
public:
  explicit LineMap(std::string Text);
  Position position(unsigned Line, unsigned ByteColumn) const;
  /// The range of the finding's highlight: its range if it has one, else
  /// the word (or the one character) at its location.
  Range rangeOf(const Finding &F) const;
  Range rangeOf(const SourceRange &R) const;

private:
  llvm::StringRef line(unsigned Line) const; ///< 1-based; empty past the end.
  std::string Text;
  std::vector<size_t> Starts;
};

/// The settings that shape what a diagnostic says.
struct DiagnosticStyle {
  std::string DocsBaseUri; ///< "<base><id>.md"; empty: no codeDescription.
};

/// The LSP Diagnostic of F, whose location lies in the text of Map. Notes in
/// other files are placed with a map of that file made from disk.
llvm::json::Object toDiagnostic(const Finding &F, const LineMap &Map,
                                const DiagnosticStyle &Style);
/// "measured 35.2 ms (12% of GPU time) in 100 calls; saving about 34.9 ms":
/// empty without a profile match.
std::string costText(const Finding &F);
/// Markdown for hover.
std::string hoverText(const Finding &F);

} // namespace cuda_advisor::lsp

#endif
