//===- Symbolize.cpp - Host call stacks to file:line ----------------------===//
#include "cuda-advisor/Profile/Symbolize.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::profile {

bool isLibraryBinary(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  static const char *const Prefixes[] = {
      "libcudart",  "libcuda.",    "libcuda-advisor-collector", "libcupti",   "libtorch",
      "libc10",     "libstdc++",   "libc.so",   "libc-",      "ld-linux",   "ld64.so",
      "libgcc_s",   "libpthread",  "libm.so",   "libdl.",     "librt.",     "libpython",
      "python",     "libnvrtc",    "libnvJitLink", "libcublas", "libcudnn",  "libnccl",
      "libcufft",   "libcurand",   "libcusparse", "libcusolver", "libnvidia-", "linux-vdso",
      "libgomp",    "libnvToolsExt", "libnvtx",  "_C.cpython", "libshm"};
  for (const char *P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return Path.contains("/site-packages/torch/") || Path.contains("/dist-packages/torch/") ||
         Path.contains("/site-packages/nvidia/");
}

bool isLibrarySource(StringRef File) {
  // nvcc's generated host stubs of the kernels (/tmp/tmpxft_..._x.cudafe1.stub.c).
  if (File.contains("/tmpxft_") || File.ends_with(".cudafe1.stub.c") ||
      File.ends_with(".cudafe1.cpp"))
    return true;
  return File.starts_with("/usr/include/") || File.starts_with("/usr/lib/gcc/") ||
         File.contains("/include/c++/") || File.contains("/cuda/include/") ||
         File.contains("/targets/x86_64-linux/include/") ||
         File.contains("/targets/sbsa-linux/include/") ||
         (File.contains("/cuda-") && File.contains("/include/")) ||
         File.contains("/site-packages/torch/include/");
}

namespace {

/// The build-id of the ELF file at Path, in hex; empty if it has none or is
/// not an object file.
std::string buildIdOfFile(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return "";
  }
  return toHex(object::getBuildID(Obj->getBinary()), /*LowerCase=*/true);
}

/// A recorded binary as found on this machine.
struct Binary {
  std::string File;     ///< Empty when not found.
  bool Library = false; ///< Never symbolized: its frames are not the user's.
  bool Warned = false;
  unsigned WithLines = 0, WithoutLines = 0;
};

class StackSymbolizer {
public:
  explicit StackSymbolizer(const SymbolizeOptions &Opts) : Opts(Opts), Sym(makeOptions(Opts)) {}

  void run(Profile &P, SymbolizeResult &R);

private:
  static symbolize::LLVMSymbolizer::Options makeOptions(const SymbolizeOptions &Opts) {
    symbolize::LLVMSymbolizer::Options O;
    O.Demangle = true;
    O.UseSymbolTable = true;
    O.RelativeAddresses = false;
    O.DebugFileDirectory = Opts.BinaryPaths; // For build-id and .gnu_debuglink lookups.
    return O;
  }
  Binary &binaryFor(const Module &M, SymbolizeResult &R);
  const std::vector<StackFrame> &framesAt(const Module *M, uint64_t Address, uint32_t Index,
                                          SymbolizeResult &R);

  const SymbolizeOptions &Opts;
  symbolize::LLVMSymbolizer Sym;
  std::map<std::pair<std::string, std::string>, Binary> Binaries; // (path, build-id).
  std::map<std::pair<const Module *, uint64_t>, std::vector<StackFrame>> Cache;
};

Binary &StackSymbolizer::binaryFor(const Module &M, SymbolizeResult &R) {
  auto [It, New] = Binaries.try_emplace({M.Path, M.BuildId});
  Binary &B = It->second;
  if (!New)
    return B;
  if (isLibraryBinary(M.Path)) {
    B.Library = true;
    return B;
  }
  std::vector<std::string> Candidates;
  StringRef Id = M.BuildId;
  for (const std::string &Dir : Opts.BinaryPaths) {
    if (Id.size() > 2) {
      SmallString<256> P(Dir);
      sys::path::append(P, ".build-id", Id.take_front(2), Id.drop_front(2) + ".debug");
      Candidates.push_back(P.str().str());
      P.resize(P.size() - strlen(".debug"));
      Candidates.push_back(P.str().str());
    }
    SmallString<256> P(Dir);
    sys::path::append(P, sys::path::filename(M.Path));
    Candidates.push_back(P.str().str());
  }
  Candidates.push_back(M.Path);
  bool Stale = false;
  for (const std::string &C : Candidates) {
    if (!sys::fs::is_regular_file(C))
      continue;
    if (!Id.empty() && buildIdOfFile(C) != Id) {
      Stale = true;
      continue;
    }
    B.File = C;
    return B;
  }
  B.Warned = true;
  if (Stale)
    R.Warnings.push_back(M.Path + " is not the binary that ran (its build-id differs from the "
                                  "recorded " + M.BuildId + "): its frames are not symbolized; "
                                  "pass --binary-path DIR with the binary or its debug file");
  else
    R.Warnings.push_back(M.Path + " was not found: its frames are not symbolized (pass "
                                  "--binary-path DIR where the binary, or its debug file in "
                                  "DIR/.build-id/, is)");
  return B;
}

const std::vector<StackFrame> &StackSymbolizer::framesAt(const Module *M, uint64_t Address,
                                                         uint32_t Index, SymbolizeResult &R) {
  auto [It, New] = Cache.try_emplace({M, Address});
  std::vector<StackFrame> &Out = It->second;
  if (!New)
    return Out;
  StackFrame Unknown;
  Unknown.Address = Index;
  Unknown.Library = true;
  if (!M) {
    Out.push_back(Unknown);
    return Out;
  }
  Unknown.Module = M->Path;
  Binary &B = binaryFor(*M, R);
  if (B.Library || B.File.empty()) {
    Unknown.Library = B.Library;
    Out.push_back(Unknown);
    return Out;
  }
  // A return address points after the call: the call instruction is the
  // byte before it.
  uint64_t FileAddress = Address - M->LoadBias - 1;
  Expected<DIInliningInfo> Info =
      Sym.symbolizeInlinedCode(B.File, {FileAddress, object::SectionedAddress::UndefSection});
  if (!Info) {
    consumeError(Info.takeError());
    Out.push_back(Unknown);
    return Out;
  }
  uint32_t N = Info->getNumberOfFrames();
  for (uint32_t I = 0; I < N; ++I) {
    const DILineInfo &L = Info->getFrame(I);
    StackFrame F;
    F.Address = Index;
    F.Module = M->Path;
    F.Inlined = I + 1 < N;
    if (L.FunctionName != DILineInfo::BadString)
      F.Function = L.FunctionName;
    if (L.FileName != DILineInfo::BadString && L.Line != 0) {
      SmallString<256> File(L.FileName);
      sys::path::remove_dots(File, /*remove_dot_dot=*/true);
      F.Loc.File = File.str().str();
      F.Loc.Line = L.Line;
      F.Loc.Column = L.Column;
    }
    F.Library = !F.Loc.isValid() || isLibrarySource(F.Loc.File);
    Out.push_back(std::move(F));
  }
  if (Out.empty()) {
    Unknown.Library = false;
    Out.push_back(Unknown);
  }
  bool AnyLine = llvm::any_of(Out, [](const StackFrame &F) { return F.Loc.isValid(); });
  ++(AnyLine ? B.WithLines : B.WithoutLines);
  return Out;
}

void StackSymbolizer::run(Profile &P, SymbolizeResult &R) {
  // Modules by process, sorted by address, for the address lookups.
  std::map<ProcessIndex, std::vector<const Module *>> ByProcess;
  for (const Module &M : P.Modules)
    ByProcess[M.Process].push_back(&M);
  for (auto &[Proc, Mods] : ByProcess)
    llvm::sort(Mods, [](const Module *A, const Module *B) {
      return A->LoadAddress < B->LoadAddress;
    });
  auto ModuleOf = [&](ProcessIndex Proc, uint64_t A) -> const Module * {
    auto It = ByProcess.find(Proc);
    if (It == ByProcess.end())
      return nullptr;
    const std::vector<const Module *> &Mods = It->second;
    auto U = std::upper_bound(Mods.begin(), Mods.end(), A, [](uint64_t X, const Module *M) {
      return X < M->LoadAddress;
    });
    if (U == Mods.begin())
      return nullptr;
    const Module *M = *std::prev(U);
    return A < M->LoadAddress + M->Size ? M : nullptr;
  };

  for (Stack &S : P.Stacks) {
    if (S.Frames.empty() || !S.Symbols.empty())
      continue;
    ++R.Stacks;
    for (uint32_t I = 0; I < S.Frames.size(); ++I) {
      const Module *M = ModuleOf(S.Process, S.Frames[I]);
      const std::vector<StackFrame> &Fs = framesAt(M, S.Frames[I], I, R);
      S.Symbols.insert(S.Symbols.end(), Fs.begin(), Fs.end());
    }
    for (size_t I = 0; I < S.Symbols.size(); ++I)
      if (!S.Symbols[I].Library && S.Symbols[I].Loc.isValid()) {
        S.UserFrame = static_cast<int32_t>(I);
        ++R.UserStacks;
        break;
      }
  }
  for (auto &[Key, B] : Binaries)
    if (!B.Library && !B.File.empty() && B.WithLines == 0 && B.WithoutLines > 0)
      R.Warnings.push_back(Key.first + " has no debug line information" +
                           (B.File != Key.first ? " (read from " + B.File + ")" : "") +
                           ": call sites in it cannot be matched to source (build it with -g, "
                           "or pass --binary-path DIR with its debug file)");
}

} // namespace

SymbolizeResult symbolizeStacks(Profile &P, const SymbolizeOptions &Opts) {
  SymbolizeResult R;
  StackSymbolizer(Opts).run(P, R);
  return R;
}

} // namespace cuda_advisor::profile
