//===- HostDeviceRedeclarations.cpp - nvcc's inherited __host__ __device__ ===//
//
// See HostDeviceRedeclarations.h.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/HostDeviceRedeclarations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace llvm;

namespace cuda_advisor::frontend {
namespace {

bool isIdentifierChar(char C) { return isAlnum(C) || C == '_'; }

} // namespace

size_t hostDeviceInsertionPoint(StringRef Text, size_t NameOffset) {
  size_t I = std::min(NameOffset, Text.size());
  auto SkipBlanksBack = [&](size_t J) {
    while (J > 0 && (Text[J - 1] == ' ' || Text[J - 1] == '\t'))
      --J;
    return J;
  };
  // A destructor's `~`.
  if (I > 0 && Text[I - 1] == '~')
    --I;
  // Back over each `Outer::` or `Vec<T, U>::` before the name (blanks may
  // follow the `::`).
  for (;;) {
    size_t J = SkipBlanksBack(I);
    if (J < 2 || Text[J - 1] != ':' || Text[J - 2] != ':')
      break;
    // `A::` is written without blanks before the `::` (`void ::f` is the
    // global namespace's f after a return type).
    J -= 2;
    if (J > 0 && Text[J - 1] == '>') {
      // Template arguments: back to the matching '<'.
      int Depth = 0;
      size_t K = J;
      for (; K > 0; --K) {
        char C = Text[K - 1];
        if (C == '>')
          ++Depth;
        else if (C == '<' && --Depth == 0)
          break;
        else if (C == ';' || C == '{' || C == '}')
          return I;
      }
      if (K == 0)
        return I;
      J = SkipBlanksBack(K - 1);
    }
    while (J > 0 && isIdentifierChar(Text[J - 1]))
      --J;
    I = J; // `::name` of the global namespace stops here too.
  }
  return I;
}

std::vector<size_t> normalizedOffsets(std::vector<size_t> Offsets) {
  llvm::sort(Offsets);
  Offsets.erase(std::unique(Offsets.begin(), Offsets.end()), Offsets.end());
  return Offsets;
}

OriginalOffset originalOffset(const std::vector<size_t> &Sorted, size_t Offset) {
  size_t Width = HostDeviceSpelling.size();
  for (size_t I = 0; I < Sorted.size(); ++I) {
    size_t Start = Sorted[I] + I * Width; // Where insertion I begins in the new text.
    if (Offset < Start)
      return {Offset - I * Width, false};
    if (Offset < Start + Width)
      return {Sorted[I], true};
  }
  return {Offset - Sorted.size() * Width, false};
}

std::string insertHostDevice(StringRef Text, std::vector<size_t> Offsets) {
  Offsets = normalizedOffsets(std::move(Offsets));
  std::string Out;
  Out.reserve(Text.size() + Offsets.size() * HostDeviceSpelling.size());
  size_t From = 0;
  for (size_t O : Offsets) {
    if (O > Text.size())
      break;
    Out += Text.slice(From, O);
    Out += HostDeviceSpelling;
    From = O;
  }
  Out += Text.substr(From);
  return Out;
}

namespace {

vfs::Status statusWithInsertions(const vfs::Status &S, const std::vector<size_t> &Offsets) {
  std::vector<size_t> Unique = normalizedOffsets(Offsets);
  uint64_t Added = HostDeviceSpelling.size() *
                   uint64_t(llvm::count_if(Unique, [&](size_t O) { return O <= S.getSize(); }));
  return vfs::Status::copyWithNewSize(S, S.getSize() + Added);
}

class InsertingFile : public vfs::File {
public:
  InsertingFile(std::unique_ptr<vfs::File> F, const std::vector<size_t> &Offsets)
      : F(std::move(F)), Offsets(Offsets) {}
  ErrorOr<vfs::Status> status() override {
    ErrorOr<vfs::Status> S = F->status();
    if (!S)
      return S;
    return statusWithInsertions(*S, Offsets);
  }
  ErrorOr<std::string> getName() override { return F->getName(); }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t FileSize,
                                                   bool RequiresNullTerminator,
                                                   bool IsVolatile) override {
    // The size asked for is the status's, with the insertions: read what is
    // on disk.
    auto Buffer = F->getBuffer(Name, -1, RequiresNullTerminator, IsVolatile);
    if (!Buffer)
      return Buffer;
    return MemoryBuffer::getMemBufferCopy(insertHostDevice((*Buffer)->getBuffer(), Offsets),
                                          (*Buffer)->getBufferIdentifier());
  }
  std::error_code close() override { return F->close(); }

private:
  std::unique_ptr<vfs::File> F;
  std::vector<size_t> Offsets;
};

class InsertingFileSystem : public vfs::ProxyFileSystem {
public:
  InsertingFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base,
                      std::shared_ptr<const HostDeviceInsertions> Insertions)
      : ProxyFileSystem(std::move(Base)), Insertions(std::move(Insertions)) {}

  ErrorOr<vfs::Status> status(const Twine &Path) override {
    ErrorOr<vfs::Status> S = ProxyFileSystem::status(Path);
    const std::vector<size_t> *Offsets = S ? offsetsFor(Path) : nullptr;
    if (!Offsets)
      return S;
    return statusWithInsertions(*S, *Offsets);
  }
  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    auto F = ProxyFileSystem::openFileForRead(Path);
    const std::vector<size_t> *Offsets = F ? offsetsFor(Path) : nullptr;
    if (!Offsets)
      return F;
    return std::unique_ptr<vfs::File>(std::make_unique<InsertingFile>(std::move(*F), *Offsets));
  }

private:
  const std::vector<size_t> *offsetsFor(const Twine &Path) {
    SmallString<256> Real;
    if (getUnderlyingFS().getRealPath(Path, Real))
      return nullptr;
    auto It = Insertions->find(std::string(Real));
    return It == Insertions->end() ? nullptr : &It->second;
  }
  std::shared_ptr<const HostDeviceInsertions> Insertions;
};

} // namespace

IntrusiveRefCntPtr<vfs::FileSystem>
hostDeviceRedeclarationFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base,
                                  std::shared_ptr<const HostDeviceInsertions> Insertions) {
  return makeIntrusiveRefCnt<InsertingFileSystem>(std::move(Base), std::move(Insertions));
}

} // namespace cuda_advisor::frontend
