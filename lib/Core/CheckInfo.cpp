//===- CheckInfo.cpp ------------------------------------------------------===//
#include "cuda-advisor/Core/CheckInfo.h"

namespace cuda_advisor {

bool globMatch(llvm::StringRef Pattern, llvm::StringRef Text) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t P = 0, T = 0, Star = llvm::StringRef::npos, Mark = 0;
  while (T < Text.size()) {
    if (P < Pattern.size() && Pattern[P] == '*') {
      Star = P++;
      Mark = T;
    } else if (P < Pattern.size() && Pattern[P] == Text[T]) {
      ++P;
      ++T;
    } else if (Star != llvm::StringRef::npos) {
      P = Star + 1;
      T = ++Mark;
    } else {
      return false;
    }
  }
  while (P < Pattern.size() && Pattern[P] == '*')
    ++P;
  return P == Pattern.size();
}

GlobList::GlobList(llvm::StringRef Globs) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    bool Positive = !Part.consume_front("-");
    Part = Part.trim();
    if (!Part.empty())
      Items.push_back({Positive, Part.str()});
  }
}

bool GlobList::contains(llvm::StringRef Id) const {
  bool Result = false;
  for (const Item &I : Items)
    if (globMatch(I.Pattern, Id))
      Result = I.Positive;
  return Result;
}

} // namespace cuda_advisor
