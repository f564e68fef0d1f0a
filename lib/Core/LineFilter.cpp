//===- LineFilter.cpp - Findings on chosen lines only ----------------------===//
#include "cuda-advisor/Core/LineFilter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace cuda_advisor {
namespace {

Error fail(const Twine &Why) { return createStringError(inconvertibleErrorCode(), Why); }

/// Path ends with Name, whole components: "src/a.cu" matches "/r/src/a.cu"
/// but not "/r/xsrc/a.cu".
bool pathMatches(StringRef Path, StringRef Name) {
  Name.consume_front("./");
  if (Name.empty())
    return false;
  if (sys::path::is_absolute(Name))
    return Path == Name;
  if (!Path.ends_with(Name))
    return false;
  return Path.size() == Name.size() || Path[Path.size() - Name.size() - 1] == '/';
}

/// "+12,3" -> (12, 3); "+12" -> (12, 1).
std::optional<std::pair<unsigned, unsigned>> parseHunkSide(StringRef S) {
  if (!S.consume_front("+"))
    return std::nullopt;
  auto [Start, Count] = S.split(',');
  unsigned First, N = 1;
  if (Start.getAsInteger(10, First) || (!Count.empty() && Count.getAsInteger(10, N)))
    return std::nullopt;
  return std::make_pair(First, N);
}

} // namespace

Expected<LineFilter> LineFilter::fromJson(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return fail("--line-filter is not JSON: " + toString(V.takeError()));
  const json::Array *Entries = V->getAsArray();
  if (!Entries)
    return fail("--line-filter must be a JSON array of {\"name\": FILE, \"lines\": [[FIRST, "
                "LAST], ...]}");
  LineFilter F;
  for (const json::Value &E : *Entries) {
    const json::Object *O = E.getAsObject();
    std::optional<StringRef> Name = O ? O->getString("name") : std::nullopt;
    if (!Name || Name->empty())
      return fail("--line-filter: every entry needs a \"name\"");
    FileLines FL{Name->str(), {}};
    if (const json::Value *Lines = O->get("lines")) {
      const json::Array *Ranges = Lines->getAsArray();
      if (!Ranges)
        return fail("--line-filter: \"lines\" of '" + *Name + "' must be an array of [FIRST, LAST]");
      for (const json::Value &R : *Ranges) {
        const json::Array *Pair = R.getAsArray();
        std::optional<int64_t> First = Pair && Pair->size() == 2 ? (*Pair)[0].getAsInteger()
                                                                 : std::nullopt;
        std::optional<int64_t> Last = Pair && Pair->size() == 2 ? (*Pair)[1].getAsInteger()
                                                                : std::nullopt;
        if (!First || !Last || *First < 1 || *Last < *First)
          return fail("--line-filter: a line range of '" + *Name +
                      "' is not [FIRST, LAST] with 1 <= FIRST <= LAST");
        FL.Lines.emplace_back(static_cast<unsigned>(*First), static_cast<unsigned>(*Last));
      }
      if (FL.Lines.empty())
        continue; // clang-tidy: an empty list chooses no line.
    }
    F.Files.push_back(std::move(FL));
  }
  return F;
}

Expected<LineFilter> LineFilter::fromUnifiedDiff(StringRef Text) {
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Added; // Ordered: stable.
  std::string Current;  // The new side's path; empty: deleted or none yet.
  bool InFile = false;
  unsigned NextLine = 0, Left = 0; // New-side line and lines left in the hunk.
  unsigned LineNo = 0;
  bool SawHeader = false;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines) {
    ++LineNo;
    L = L.rtrim('\r');
    if (Left == 0 && L.starts_with("+++ ")) {
      StringRef Path = L.drop_front(4);
      Path = Path.split('\t').first; // "+++ b/x.cu\t2024-01-01 ..." (diff -u).
      InFile = true;
      SawHeader = true;
      if (Path == "/dev/null") {
        Current.clear();
        continue;
      }
      if (Path.starts_with("b/"))
        Path = Path.drop_front(2);
      Current = Path.str();
      continue;
    }
    if (Left == 0 && L.starts_with("@@ ")) {
      if (!InFile)
        return fail("--diff: line " + Twine(LineNo) + ": a hunk before any '+++' file header");
      SmallVector<StringRef, 4> Parts;
      L.split(Parts, ' ');
      std::optional<std::pair<unsigned, unsigned>> New =
          Parts.size() >= 3 ? parseHunkSide(Parts[2]) : std::nullopt;
      if (!New)
        return fail("--diff: line " + Twine(LineNo) + ": not a hunk header: " + L);
      NextLine = New->first;
      Left = New->second; // '-' lines of the old side are not counted.
      continue;
    }
    if (Left == 0)
      continue; // Headers of the next file ("diff --git", "index", "---").
    if (L.starts_with("\\"))
      continue; // "\ No newline at end of file".
    char Kind = L.empty() ? ' ' : L[0];
    if (Kind == '-')
      continue;
    if (Kind == '+' && !Current.empty()) {
      auto &Ranges = Added[Current];
      if (!Ranges.empty() && Ranges.back().second + 1 == NextLine)
        Ranges.back().second = NextLine;
      else
        Ranges.emplace_back(NextLine, NextLine);
    }
    ++NextLine;
    --Left;
  }
  if (!SawHeader && !Text.trim().empty())
    return fail("--diff: not a unified diff (no '+++' file header)");
  LineFilter F;
  for (auto &[Name, Ranges] : Added)
    F.Files.push_back({Name, std::move(Ranges)});
  return F;
}

bool LineFilter::contains(const SourceLocation &Loc) const {
  if (!Loc.isValid())
    return false;
  for (const FileLines &FL : Files) {
    if (!pathMatches(Loc.File, FL.Name))
      continue;
    if (FL.Lines.empty())
      return true;
    for (auto [First, Last] : FL.Lines)
      if (Loc.Line >= First && Loc.Line <= Last)
        return true;
  }
  return false;
}

bool LineFilter::keeps(const Finding &F) const {
  if (contains(F.Loc))
    return true;
  return any_of(F.Keys.CallSites, [&](const SourceLocation &S) { return contains(S); });
}

void LineFilter::apply(std::vector<Finding> &Findings) const {
  llvm::erase_if(Findings, [&](const Finding &F) { return !keeps(F); });
}

} // namespace cuda_advisor
