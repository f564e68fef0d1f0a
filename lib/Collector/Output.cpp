//===- Output.cpp - The collector's profile file --------------------------===//
#include "Output.h"

#include "cuda-advisor/Collector/Environment.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace cuda_advisor::collector {

namespace {
constexpr size_t SharedCapacity = 64 * 1024;
}

/// Holds a mutex, or, once the process is crashing, holds it if it can be had
/// within a second and goes on without it otherwise.
class Output::Guard {
public:
  Guard(std::timed_mutex &M, bool Crashing) : M(M) {
    if (!Crashing) {
      M.lock();
      Held = true;
    } else {
      Held = M.try_lock_for(std::chrono::seconds(1));
    }
  }
  ~Guard() {
    if (Held)
      M.unlock();
  }
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;

private:
  std::timed_mutex &M;
  bool Held = false;
};

bool Output::open(const std::string &Path, std::string &Chosen, std::string &Error) {
  auto TryCreate = [&](const std::string &P) {
    int F = ::open(P.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (F >= 0) {
      Fd = F;
      Chosen = P;
      PathName = P;
    }
    return F >= 0;
  };
  if (TryCreate(Path))
    return true;
  if (errno != EEXIST) {
    Error = Path + ": " + std::strerror(errno);
    return false;
  }
  std::string Pid = std::to_string(static_cast<long>(::getpid()));
  for (int Attempt = 0; Attempt < 100; ++Attempt) {
    std::string Id = Attempt == 0 ? Pid : Pid + "-" + std::to_string(Attempt);
    std::string P = siblingProfilePath(Path, Id);
    if (TryCreate(P))
      return true;
    if (errno != EEXIST) {
      Error = P + ": " + std::strerror(errno);
      return false;
    }
  }
  Error = Path + ": it and 100 alternative names exist already";
  return false;
}

void Output::writeLocked(const char *Data, size_t Size) {
  if (Fd < 0 || WriteFailed.load(std::memory_order_relaxed))
    return;
  while (Size > 0) {
    ssize_t N = ::write(Fd, Data, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      WriteFailed.store(true);
      return;
    }
    Data += N;
    Size -= static_cast<size_t>(N);
  }
}

void Output::flushSharedLocked() {
  if (Shared.empty())
    return;
  {
    Guard G(FileMutex, Crashing.load());
    writeLocked(Shared.data(), Shared.size());
  }
  Lines.fetch_add(SharedLines, std::memory_order_relaxed);
  Shared.clear();
  SharedLines = 0;
}

void Output::write(const std::string &Block, uint64_t NumLines) {
  if (Block.empty())
    return;
  Guard G(FileMutex, Crashing.load());
  writeLocked(Block.data(), Block.size());
  Lines.fetch_add(NumLines, std::memory_order_relaxed);
}

void Output::append(const std::string &Line) {
  Guard G(SharedMutex, Crashing.load());
  if (Shared.capacity() < SharedCapacity)
    Shared.reserve(SharedCapacity);
  if (Shared.size() + Line.size() > SharedCapacity)
    flushSharedLocked();
  Shared += Line;
  ++SharedLines;
}

void Output::flush() {
  Guard G(SharedMutex, Crashing.load());
  flushSharedLocked();
}

void Output::close() {
  flush();
  Guard G(FileMutex, Crashing.load());
  if (Fd >= 0)
    ::close(Fd);
  Fd = -1;
}

void Output::abandon() {
  if (Fd >= 0)
    ::close(Fd);
  Fd = -1;
}

} // namespace cuda_advisor::collector
