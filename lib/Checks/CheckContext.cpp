//===- CheckContext.cpp - Locations, filters and NOLINT --------------------===//
#include "cuda-advisor/Checks/CheckContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace cuda_advisor::checks {

CheckContext::CheckContext(const Config &Cfg, ASTContext *AST, std::vector<Finding> &Sink,
                           std::string ResourceDir, bool DevicePass)
    : Cfg(Cfg), AST(AST), Sink(Sink), ResourceDir(std::move(ResourceDir)),
      DevicePass(DevicePass) {
  if (!Cfg.HeaderFilter.empty())
    HeaderFilter.emplace(Cfg.HeaderFilter);
}

CheckContext::~CheckContext() = default;

SourceManager &CheckContext::sourceManager() { return AST->getSourceManager(); }

analysis::TUFacts &CheckContext::facts() {
  if (!Facts)
    Facts = std::make_unique<analysis::TUFacts>(*AST);
  return *Facts;
}

std::string CheckContext::pathOf(FileID FID) {
  auto It = Paths.find(FID);
  if (It != Paths.end())
    return It->second;
  std::string Path;
  if (OptionalFileEntryRef FE = sourceManager().getFileEntryRefForID(FID)) {
    StringRef Real = FE->getFileEntry().tryGetRealPathName();
    llvm::SmallString<256> P(Real.empty() ? FE->getName() : Real);
    llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Path = P.str().str();
  }
  Paths[FID] = Path;
  return Path;
}

SourceLocation CheckContext::toLocation(clang::SourceLocation Loc) {
  SourceLocation Out;
  if (Loc.isInvalid())
    return Out;
  SourceManager &SM = sourceManager();
  clang::SourceLocation F = SM.getFileLoc(Loc);
  FileID FID = SM.getFileID(F);
  Out.File = pathOf(FID);
  Out.Line = SM.getSpellingLineNumber(F);
  Out.Column = SM.getSpellingColumnNumber(F);
  Out.Offset = SM.getFileOffset(F);
  return Out;
}

std::optional<FixIt> CheckContext::toFixIt(const CharSourceRange &Range, StringRef Text) {
  SourceManager &SM = sourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(Range, SM, AST->getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  FixIt Fix;
  Fix.Range.Begin = toLocation(R.getBegin());
  Fix.Range.End = toLocation(R.getEnd());
  Fix.Replacement = Text.str();
  return Fix;
}

bool CheckContext::isReportable(clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  SourceManager &SM = sourceManager();
  clang::SourceLocation F = SM.getFileLoc(Loc);
  FileID FID = SM.getFileID(F);
  std::string Path = pathOf(FID);
  bool Matches = HeaderFilter && HeaderFilter->match(Path);
  if (SM.isInSystemHeader(F) || (!ResourceDir.empty() && StringRef(Path).starts_with(ResourceDir)))
    return Matches;
  if (FID == SM.getMainFileID())
    return true;
  return !HeaderFilter || Matches;
}

/// Does a NOLINT-style comment's argument list (or its absence) cover Id?
static bool nolintCovers(StringRef Rest, StringRef Id) {
  if (!Rest.starts_with("("))
    return true; // Bare NOLINT: every check.
  size_t Close = Rest.find(')');
  if (Close == StringRef::npos)
    return false;
  llvm::SmallVector<StringRef, 4> Names;
  Rest.substr(1, Close - 1).split(Names, ',', -1, false);
  for (StringRef N : Names) {
    N = N.trim();
    if (N == "*" || N == Id)
      return true;
    if (N.ends_with("*") && Id.starts_with(N.drop_back()))
      return true;
  }
  return false;
}

/// Finds Marker in Line as a whole word and says whether it covers Id.
static bool lineHas(StringRef Line, StringRef Marker, StringRef Id) {
  size_t Pos = 0;
  while ((Pos = Line.find(Marker, Pos)) != StringRef::npos) {
    StringRef After = Line.drop_front(Pos + Marker.size());
    Pos += Marker.size();
    // NOLINT must not match NOLINTNEXTLINE / NOLINTBEGIN.
    if (!After.empty() && (llvm::isAlnum(After[0]) || After[0] == '_'))
      continue;
    if (nolintCovers(After, Id))
      return true;
  }
  return false;
}

bool CheckContext::isSuppressed(clang::SourceLocation Loc, StringRef CheckId) {
  SourceManager &SM = sourceManager();
  clang::SourceLocation F = SM.getFileLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(F);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return false;
  auto StartOfLine = [&](size_t At) -> size_t {
    if (At == 0)
      return 0;
    size_t NL = Buffer.rfind('\n', At - 1);
    return NL == StringRef::npos ? 0 : NL + 1;
  };
  size_t LineStart = StartOfLine(Offset);
  StringRef Line = Buffer.slice(LineStart, Buffer.find('\n', Offset));
  if (lineHas(Line, "NOLINT", CheckId))
    return true;
  if (LineStart > 0) {
    size_t PrevEnd = LineStart - 1; // The '\n' ending the previous line.
    if (lineHas(Buffer.slice(StartOfLine(PrevEnd), PrevEnd), "NOLINTNEXTLINE", CheckId))
      return true;
  }
  // NOLINTBEGIN(...) ... NOLINTEND(...) regions before Loc.
  StringRef Before = Buffer.take_front(LineStart);
  int Open = 0;
  size_t Pos = 0;
  while ((Pos = Before.find("NOLINT", Pos)) != StringRef::npos) {
    StringRef After = Before.drop_front(Pos + 6);
    size_t LineEndPos = After.find('\n');
    StringRef Rest = After.take_front(LineEndPos);
    if (Rest.starts_with("BEGIN") && nolintCovers(Rest.drop_front(5), CheckId))
      ++Open;
    else if (Rest.starts_with("END") && nolintCovers(Rest.drop_front(3), CheckId) && Open > 0)
      --Open;
    Pos += 6;
  }
  return Open > 0;
}

void CheckContext::report(Finding F, clang::SourceLocation Loc) {
  if (!isReportable(Loc) || isSuppressed(Loc, F.CheckId))
    return;
  if (!F.Loc.isValid())
    F.Loc = toLocation(Loc);
  Sink.push_back(std::move(F));
}

} // namespace cuda_advisor::checks
