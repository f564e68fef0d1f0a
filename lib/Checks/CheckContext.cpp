//===- CheckContext.cpp - Locations, filters and NOLINT --------------------===//
#include "cuda-advisor/Checks/CheckContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
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
  llvm::SmallString<256> Real;
  if (!this->ResourceDir.empty() && !llvm::sys::fs::real_path(this->ResourceDir, Real))
    RealResourceDir = Real.str().str();
  else
    RealResourceDir = this->ResourceDir;
}

/// Path is Dir or inside it (not merely a name that starts the same way).
static bool isWithin(StringRef Path, StringRef Dir) {
  Dir = Dir.rtrim('/');
  return !Dir.empty() && Path.starts_with(Dir) &&
         (Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]));
}

bool CheckContext::isResourceFile(FileID FID) {
  if (ResourceDir.empty())
    return false;
  if (isWithin(pathOf(FID), RealResourceDir) || isWithin(pathOf(FID), ResourceDir))
    return true;
  // As Clang opened it (through the link, or the resolved path).
  OptionalFileEntryRef FE = sourceManager().getFileEntryRefForID(FID);
  return FE && (isWithin(FE->getName(), ResourceDir) || isWithin(FE->getName(), RealResourceDir));
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
  // clang-tidy's rule: the main file always, a header only when
  // --header-filter matches it.
  if (FID == SM.getMainFileID())
    return true;
  if (!HeaderFilter || !HeaderFilter->match(Path))
    return false;
  // As clang-tidy: a system header's findings need --system-headers too, so
  // that --header-filter='.*' means the project's headers.
  return Cfg.SystemHeaders || !isLibraryFile(F);
}

bool CheckContext::isLibraryFile(clang::SourceLocation FileLoc) {
  SourceManager &SM = sourceManager();
  return SM.isInSystemHeader(FileLoc) || isResourceFile(SM.getFileID(FileLoc));
}

bool CheckContext::isLibraryCode(const clang::Decl *D) {
  clang::SourceLocation Loc = D->getLocation();
  return Loc.isInvalid() || isLibraryFile(sourceManager().getFileLoc(Loc));
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

/// Whether the text before a marker on its line opens a comment.
static bool inComment(StringRef LineBefore) {
  return LineBefore.contains("//") || LineBefore.contains("/*");
}

/// Finds Marker in a comment of Line as a whole word and says whether it
/// covers Id.
static bool lineHas(StringRef Line, StringRef Marker, StringRef Id) {
  size_t Pos = 0;
  while ((Pos = Line.find(Marker, Pos)) != StringRef::npos) {
    StringRef After = Line.drop_front(Pos + Marker.size());
    bool Commented = inComment(Line.take_front(Pos));
    Pos += Marker.size();
    if (!Commented)
      continue;
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
  // NOLINTBEGIN(...) ... NOLINTEND(...): Loc is suppressed only inside a
  // region that is closed again (an unmatched NOLINTBEGIN suppresses nothing,
  // as in clang-tidy, rather than the rest of the file).
  int Open = 0;  // Regions open at Loc's line.
  int Later = 0; // Regions opened after it.
  for (const NolintMarker &M : nolintMarkers(FID, Buffer)) {
    StringRef Rest = M.Rest;
    bool Begin = Rest.starts_with("BEGIN") && nolintCovers(Rest.drop_front(5), CheckId);
    bool End = Rest.starts_with("END") && nolintCovers(Rest.drop_front(3), CheckId);
    if (M.At < LineStart) {
      if (Begin)
        ++Open;
      else if (End && Open > 0)
        --Open;
      continue;
    }
    if (Open == 0)
      return false;
    if (Begin)
      ++Later;
    else if (End && Later > 0)
      --Later;
    else if (End)
      return true; // Closes a region Loc is in.
  }
  return false;
}

const std::vector<CheckContext::NolintMarker> &CheckContext::nolintMarkers(FileID FID,
                                                                         StringRef Buffer) {
  auto [It, New] = Nolints.try_emplace(FID);
  if (!New)
    return It->second;
  // Every "NOLINT" inside a comment, once per file: scanning the file again
  // for each finding made a file with thousands of findings quadratic.
  size_t Pos = 0;
  while ((Pos = Buffer.find("NOLINT", Pos)) != StringRef::npos) {
    size_t At = Pos;
    Pos += 6;
    size_t NL = At == 0 ? StringRef::npos : Buffer.rfind('\n', At - 1);
    size_t LineStart = NL == StringRef::npos ? 0 : NL + 1;
    if (!inComment(Buffer.slice(LineStart, At)))
      continue;
    It->second.push_back(
        {At, Buffer.drop_front(Pos).take_until([](char C) { return C == '\n'; })});
  }
  return It->second;
}

void CheckContext::report(Finding F, clang::SourceLocation Loc,
                          llvm::ArrayRef<clang::SourceLocation> Sites) {
  if (!isReportable(Loc) || isSuppressed(Loc, F.CheckId))
    return;
  if (!F.Loc.isValid())
    F.Loc = toLocation(Loc);
  if (F.Level != Severity::Note && F.Prio != Priority::Cold) {
    analysis::PriorityVerdict V = facts().hotPath().classify(Loc);
    for (clang::SourceLocation Site : Sites)
      if (V.Level != Priority::Hot && !V.Final) {
        analysis::PriorityVerdict AtSite = facts().hotPath().classify(Site);
        if (AtSite.Level < V.Level)
          V = std::move(AtSite);
      }
    F.Prio = V.Level;
    F.PriorityReason = std::move(V.Reason);
  }
  Sink.push_back(std::move(F));
}

} // namespace cuda_advisor::checks
