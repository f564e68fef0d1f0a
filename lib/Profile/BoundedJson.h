//===- BoundedJson.h - json::parse with a nesting limit --------*- C++ -*-===//
//
// llvm::json::parse recurses once per level of nesting: a document nested
// tens of thousands of levels deep overflows the stack. Profile records are
// a few levels deep, so the readers refuse anything past MaxJsonDepth before
// parsing, with a message, instead of crashing.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_PROFILE_BOUNDEDJSON_H
#define CUDA_ADVISOR_PROFILE_BOUNDEDJSON_H

#include "llvm/Support/JSON.h"

namespace cuda_advisor::profile {

inline constexpr unsigned MaxJsonDepth = 256;

/// json::parse(Text), or an error when Text nests objects and arrays more
/// than MaxJsonDepth deep.
llvm::Expected<llvm::json::Value> parseBoundedJson(llvm::StringRef Text);

} // namespace cuda_advisor::profile

#endif
