//===- Output.h - The collector's profile file ------------------*- C++ -*-===//
//
// Part of the CUPTI collector. The profile is written as a stream: producers
// format whole lines into their own buffers and hand them over here, so memory
// stays bounded however many records a program makes. Two producers exist:
// CUPTI's buffer-completed callback (large blocks, written straight to the
// file) and the API callbacks on the program's threads (small records such as
// call stacks, gathered in one shared buffer). No lock of this class is ever
// held while CUPTI is called (see shared/PROFILES.md, "Gotchas").
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_OUTPUT_H
#define CUDA_ADVISOR_COLLECTOR_OUTPUT_H

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace cuda_advisor::collector {

class Output {
public:
  /// Creates the profile with O_CREAT|O_EXCL at Path or, when another process
  /// (or an earlier run) holds that name, at siblingProfilePath(Path, pid).
  /// On success Chosen is the path written; on failure Error says why.
  bool open(const std::string &Path, std::string &Chosen, std::string &Error);

  /// Writes Lines (NumLines whole lines) to the file. Records are joined by
  /// ids, never by their order in the file, so this block may come before
  /// lines still waiting in the shared buffer.
  void write(const std::string &Lines, uint64_t NumLines);
  /// Appends one whole line to the shared buffer; writes the buffer out when
  /// it is full.
  void append(const std::string &Line);
  /// Writes out the shared buffer.
  void flush();
  void close();
  /// Forgets the file without writing anything: the process is a fork child
  /// that must not touch its parent's profile. Takes no lock.
  void abandon();

  /// From now on, locks are taken with a timeout: a thread that stopped
  /// inside a critical section (it crashed, or a signal interrupted it) must
  /// not keep the crash handler from writing the end of the profile.
  void setCrashing() { Crashing.store(true); }

  uint64_t linesWritten() const { return Lines.load(std::memory_order_relaxed); }
  bool failed() const { return WriteFailed.load(std::memory_order_relaxed); }
  const std::string &path() const { return PathName; }

private:
  class Guard;
  void writeLocked(const char *Data, size_t Size);
  void flushSharedLocked();

  int Fd = -1;
  std::string PathName;
  std::timed_mutex FileMutex;   // Serializes write(2) calls.
  std::timed_mutex SharedMutex; // Guards Shared. Taken before FileMutex.
  std::string Shared;
  uint64_t SharedLines = 0;
  std::atomic<uint64_t> Lines{0};
  std::atomic<bool> Crashing{false};
  std::atomic<bool> WriteFailed{false};
};

} // namespace cuda_advisor::collector

#endif
