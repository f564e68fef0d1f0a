//===- NvccCommandFuzzer.cpp - libFuzzer target for translateCommand ------===//
//
// The bytes are a compile command, one argument per line (the first is the
// compiler: nvcc, clang++, g++, ccache...). translateCommand must return a
// command for any of them, never crash. Response files are not followed
// (their names would be read from the fuzzing machine).
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/CommandTranslation.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace cuda_advisor::frontend;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Argv;
  while (!Text.empty()) {
    auto [Arg, Rest] = Text.split('\n');
    Text = Rest;
    if (Arg.starts_with("@") || Arg.contains("options-file") || Arg.contains("optf"))
      continue;
    Argv.push_back(Arg.str());
  }
  if (Argv.empty())
    return 0;
  NeutralCommand Cmd = translateCommand(Argv, "/src/a.cu", "/src/build");
  (void)Cmd;
  return 0;
}
