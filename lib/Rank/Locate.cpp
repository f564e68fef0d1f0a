//===- Locate.cpp - Where a runtime finding is ----------------------------===//
#include "Locate.h"
#include "cuda-advisor/Core/Evidence.h"

#include <map>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

void placeAtFunctions(std::vector<RuntimeFinding> &Runtime, const Profile &P) {
  std::map<std::pair<std::string, unsigned>, const StackFrame *> Functions;
  for (const Stack &S : P.Stacks)
    for (const StackFrame &F : S.Symbols)
      if (F.FunctionOnly && F.Loc.isValid())
        Functions.try_emplace({F.Loc.File, F.Loc.Line}, &F);
  if (Functions.empty())
    return;
  for (RuntimeFinding &R : Runtime) {
    Finding &F = R.F;
    if (!F.Loc.isValid())
      continue;
    auto It = Functions.find({F.Loc.File, F.Loc.Line});
    if (It == Functions.end())
      continue;
    const StackFrame &Fr = *It->second;
    std::string Name = Fr.Function.empty() ? std::string("a function") : Fr.Function + "()";
    F.Message = "in " + Name + " (" + Fr.Loc.File + ":" + std::to_string(Fr.Loc.Line) +
                "): " + F.Message;
    setEvidence(F, evidence::Function, Fr.Function);
    setEvidence(F, evidence::FunctionFile, Fr.Loc.File);
    setEvidence(F, evidence::FunctionLine, static_cast<int64_t>(Fr.Loc.Line));
    F.Loc = SourceLocation();
  }
}

} // namespace cuda_advisor::rank
