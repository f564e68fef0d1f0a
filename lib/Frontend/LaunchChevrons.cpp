//===- LaunchChevrons.cpp - Kernel launches written "<< <" ... ">> >" -----===//
//
// See LaunchChevrons.h.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/LaunchChevrons.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace cuda_advisor::frontend {
namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// The position of the '<' that ends "<<" blanks "<" at I, or npos.
size_t spacedOpening(StringRef T, size_t I) {
  if (!T.substr(I).starts_with("<<") || (I > 0 && T[I - 1] == '<'))
    return StringRef::npos;
  size_t J = I + 2;
  if (J >= T.size() || !isBlank(T[J]))
    return StringRef::npos;
  while (J < T.size() && isBlank(T[J]))
    ++J;
  if (J >= T.size() || T[J] != '<' || (J + 1 < T.size() && T[J + 1] == '<'))
    return StringRef::npos;
  // operator<< <T>(...): explicit template arguments, valid C++.
  StringRef Before = T.substr(0, I).rtrim();
  if (Before.ends_with("operator"))
    return StringRef::npos;
  return J;
}

/// "<<" at A, blanks, and "<" at Last become "<<<" at A and the blanks after
/// it (the same for '>').
void join3(std::string &S, size_t A, size_t Last, char Ch) {
  for (size_t K = A; K <= Last; ++K)
    S[K] = ' ';
  S[A] = S[A + 1] = S[A + 2] = Ch;
}

} // namespace

std::optional<std::string> normalizeLaunchChevrons(StringRef T) {
  if (T.find("<< ") == StringRef::npos && T.find("<<\t") == StringRef::npos)
    return std::nullopt;
  std::optional<std::string> Out;
  for (size_t I = T.find("<<"); I != StringRef::npos; I = T.find("<<", I + 2)) {
    size_t Open = spacedOpening(T, I);
    if (Open == StringRef::npos)
      continue;
    // The closing chevrons before the statement's end.
    size_t End = T.find(';', Open);
    StringRef Stmt = T.slice(Open, End == StringRef::npos ? T.size() : End);
    size_t Close = StringRef::npos, CloseLast = 0;
    bool Joined = false; // Closed with ">>>" already.
    for (size_t K = Stmt.find(">>"); K != StringRef::npos; K = Stmt.find(">>", K + 1)) {
      if (Stmt.substr(K).starts_with(">>>")) {
        Joined = true;
        break;
      }
      size_t L = K + 2;
      if (L >= Stmt.size() || !isBlank(Stmt[L]))
        continue;
      while (L < Stmt.size() && isBlank(Stmt[L]))
        ++L;
      if (L < Stmt.size() && Stmt[L] == '>' && !(L + 1 < Stmt.size() && Stmt[L + 1] == '>')) {
        Close = Open + K;
        CloseLast = Open + L;
        break;
      }
    }
    if (Close == StringRef::npos && !Joined)
      continue;
    if (!Out)
      Out = T.str();
    join3(*Out, I, Open, '<');
    if (Close != StringRef::npos)
      join3(*Out, Close, CloseLast, '>');
    I = Open;
  }
  return Out;
}

namespace {

class ChevronFile : public vfs::File {
public:
  explicit ChevronFile(std::unique_ptr<vfs::File> F) : F(std::move(F)) {}
  ErrorOr<vfs::Status> status() override { return F->status(); }
  ErrorOr<std::string> getName() override { return F->getName(); }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t FileSize,
                                                   bool RequiresNullTerminator,
                                                   bool IsVolatile) override {
    auto Buffer = F->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (!Buffer)
      return Buffer;
    std::optional<std::string> Fixed = normalizeLaunchChevrons((*Buffer)->getBuffer());
    if (!Fixed)
      return Buffer;
    return MemoryBuffer::getMemBufferCopy(*Fixed, (*Buffer)->getBufferIdentifier());
  }
  std::error_code close() override { return F->close(); }

private:
  std::unique_ptr<vfs::File> F;
};

class ChevronFileSystem : public vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    auto F = ProxyFileSystem::openFileForRead(Path);
    if (!F)
      return F;
    return std::unique_ptr<vfs::File>(std::make_unique<ChevronFile>(std::move(*F)));
  }
};

} // namespace

IntrusiveRefCntPtr<vfs::FileSystem> launchChevronFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  return makeIntrusiveRefCnt<ChevronFileSystem>(std::move(Base));
}

} // namespace cuda_advisor::frontend
