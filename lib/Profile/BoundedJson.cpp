//===- BoundedJson.cpp - json::parse with a nesting limit -----------------===//
#include "BoundedJson.h"

using namespace llvm;

namespace cuda_advisor::profile {

Expected<json::Value> parseBoundedJson(StringRef Text) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '{' || C == '[') {
      if (++Depth > MaxJsonDepth)
        return createStringError(inconvertibleErrorCode(),
                                 "JSON nested more than %u levels deep at byte %zu",
                                 MaxJsonDepth, I);
    } else if ((C == '}' || C == ']') && Depth) {
      --Depth;
    }
  }
  return json::parse(Text);
}

} // namespace cuda_advisor::profile
