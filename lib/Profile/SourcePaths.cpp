//===- SourcePaths.cpp - Recorded source paths to the sources here --------===//
#include "cuda-advisor/Profile/SourcePaths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cuda_advisor::profile {

Expected<std::pair<std::string, std::string>> parsePrefixMapping(StringRef Spec) {
  auto [Old, New] = Spec.split('=');
  if (Old.empty() || Old.size() == Spec.size())
    return createStringError(inconvertibleErrorCode(),
                             "--source-prefix-map '%s' is not OLD=NEW",
                             Spec.str().c_str());
  return std::make_pair(Old.str(), New.str());
}

/// The path's components, last first, without "." and the root.
static SmallVector<StringRef, 16> reversedComponents(StringRef Path) {
  SmallVector<StringRef, 16> Out;
  for (auto I = sys::path::rbegin(Path), E = sys::path::rend(Path); I != E; ++I)
    if (*I != "." && *I != "/")
      Out.push_back(*I);
  return Out;
}

/// Whether Prefix prefixes Path at a component boundary.
static bool hasPathPrefix(StringRef Path, StringRef Prefix) {
  StringRef P = Prefix.size() > 1 ? Prefix.rtrim('/') : Prefix;
  if (!Path.starts_with(P))
    return false;
  return Path.size() == P.size() || P.ends_with("/") || Path[P.size()] == '/';
}

std::string mapSourcePath(StringRef Recorded, const SourcePathMap &M) {
  if (Recorded.empty())
    return Recorded.str();
  std::string Path = Recorded.str();
  for (auto I = M.PrefixMap.rbegin(), E = M.PrefixMap.rend(); I != E; ++I)
    if (hasPathPrefix(Path, I->first)) {
      StringRef Old = I->first.size() > 1 ? StringRef(I->first).rtrim('/') : StringRef(I->first);
      SmallString<256> New(I->second);
      StringRef Rest = StringRef(Path).drop_front(Old.size()).ltrim('/');
      if (!Rest.empty())
        sys::path::append(New, Rest);
      Path = New.str().str();
      break;
    }
  SmallVector<StringRef, 16> Mine = reversedComponents(Path);
  unsigned Best = 0;
  const std::string *Found = nullptr;
  bool Tie = false;
  for (const std::string &S : M.Sources) {
    if (S == Path)
      return Path;
    SmallVector<StringRef, 16> Theirs = reversedComponents(S);
    unsigned Equal = 0;
    while (Equal < Mine.size() && Equal < Theirs.size() && Mine[Equal] == Theirs[Equal])
      ++Equal;
    if (Equal == 0 || Equal < Best)
      continue;
    if (Equal == Best) {
      Tie = Tie || *Found != S;
      continue;
    }
    Best = Equal;
    Found = &S;
    Tie = false;
  }
  if (!Found || Tie)
    return Path;
  return *Found;
}

unsigned mapSourcePaths(Profile &P, const SourcePathMap &M) {
  if (M.PrefixMap.empty() && M.Sources.empty())
    return 0;
  StringMap<std::string> Done;
  unsigned Changed = 0;
  for (Stack &S : P.Stacks)
    for (StackFrame &F : S.Symbols) {
      if (F.Loc.File.empty())
        continue;
      auto [It, New] = Done.try_emplace(F.Loc.File);
      if (New) {
        It->second = mapSourcePath(F.Loc.File, M);
        Changed += It->second != F.Loc.File;
      }
      F.Loc.File = It->second;
    }
  // The command lines name the program's own sources too (`python3
  // /other/machine/train.py`): a word that is a path mapped to a source here
  // is shown as that source.
  for (Process &Pr : P.Processes) {
    SmallVector<StringRef, 8> Words;
    StringRef(Pr.Command).split(Words, ' ');
    std::string Command;
    for (StringRef W : Words) {
      if (!Command.empty())
        Command += ' ';
      if (!W.contains('/')) {
        Command += W;
        continue;
      }
      auto [It, New] = Done.try_emplace(W);
      if (New) {
        It->second = mapSourcePath(W, M);
        Changed += It->second != W;
      }
      Command += It->second;
    }
    Pr.Command = std::move(Command);
  }
  return Changed;
}

} // namespace cuda_advisor::profile
