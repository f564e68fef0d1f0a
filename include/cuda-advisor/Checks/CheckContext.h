//===- CheckContext.h - What a check sees of its translation unit -*- C++ -*-===//
//
// One per parsed translation unit: the AST, the user's configuration, the
// shared analysis facts, and the sink findings go to. Reporting applies
// NOLINT comments and the header filter, and converts Clang locations to
// plain data. No mutable globals: checks get everything through here.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_CHECKCONTEXT_H
#define CUDA_ADVISOR_CHECKS_CHECKCONTEXT_H

#include "cuda-advisor/Analysis/TUFacts.h"
#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/Finding.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class SourceManager;
class CharSourceRange;
class Decl;
} // namespace clang

namespace cuda_advisor::checks {

class CheckContext {
public:
  /// AST may be null when the context only serves to read options (--dump-config).
  CheckContext(const Config &Cfg, clang::ASTContext *AST, std::vector<Finding> &Sink,
               std::string ResourceDir, bool DevicePass);
  ~CheckContext();

  clang::ASTContext &ast() { return *AST; }
  clang::SourceManager &sourceManager();
  analysis::TUFacts &facts();
  const CheckOptions &options() const { return Cfg.Options; }

  /// True when a finding at Loc would be shown: not in a system, CUDA
  /// toolkit or resource header (unless --header-filter matches it), and
  /// user headers only if they match a given --header-filter.
  bool isReportable(clang::SourceLocation Loc);
  /// True when D is declared in a system, CUDA toolkit or resource header
  /// (or has no location): library code, whose bodies checks do not look
  /// into. Unlike isReportable, --header-filter does not change the answer.
  bool isLibraryCode(const clang::Decl *D);
  /// True when a NOLINT / NOLINTNEXTLINE / NOLINTBEGIN..END comment
  /// suppresses CheckId at Loc.
  bool isSuppressed(clang::SourceLocation Loc, llvm::StringRef CheckId);

  /// Plain-data location of Loc (macro arguments at their spelling, macro
  /// bodies at the expansion).
  SourceLocation toLocation(clang::SourceLocation Loc);
  /// A fix-it replacing Range, or none if the range is inside a macro.
  std::optional<FixIt> toFixIt(const clang::CharSourceRange &Range, llvm::StringRef Text);

  /// Adds F (located at Loc) unless filtered or suppressed. Its priority is
  /// the hottest of Loc and the call sites it is about (a grid computed
  /// before a timed region for a launch inside it is on the hot path).
  void report(Finding F, clang::SourceLocation Loc,
              llvm::ArrayRef<clang::SourceLocation> Sites = {});

  /// True when FID is one of the resource directory's headers (bundled CUDA
  /// declarations, compat headers). Paths are compared with symbolic links
  /// resolved: an install reached through a link is still the install.
  bool isResourceFile(clang::FileID FID);

private:
  /// A "NOLINT" inside a comment: its offset and the rest of its line.
  struct NolintMarker {
    size_t At;
    llvm::StringRef Rest;
  };
  const std::vector<NolintMarker> &nolintMarkers(clang::FileID FID, llvm::StringRef Buffer);
  std::string pathOf(clang::FileID FID);
  bool isLibraryFile(clang::SourceLocation FileLoc);

  const Config &Cfg;
  clang::ASTContext *AST;
  std::vector<Finding> &Sink;
  std::string ResourceDir;
  std::string RealResourceDir; ///< ResourceDir with symbolic links resolved.
  bool DevicePass;
  std::optional<llvm::Regex> HeaderFilter;
  std::unique_ptr<analysis::TUFacts> Facts;
  llvm::DenseMap<clang::FileID, std::string> Paths;
  llvm::DenseMap<clang::FileID, std::vector<NolintMarker>> Nolints;
};

} // namespace cuda_advisor::checks

#endif
