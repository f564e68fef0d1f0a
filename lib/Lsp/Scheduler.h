//===- Scheduler.h - One analysis per file at a time, newest wins -*- C++ -*-===//
//
// A pool of worker threads. Each file has at most one analysis running and one
// waiting: a newer request replaces the waiting one (superseded, never run)
// and cancels the running one. Different files run side by side, so one slow
// file never holds up the others.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LSP_SCHEDULER_H
#define CUDA_ADVISOR_LSP_SCHEDULER_H

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cuda_advisor::lsp {

/// Set when a newer request for the same file arrived; the job should stop.
using CancelFlag = std::shared_ptr<std::atomic<bool>>;
using Job = std::function<void(const CancelFlag &)>;

class Scheduler {
public:
  explicit Scheduler(unsigned Threads);
  ~Scheduler(); ///< Cancels what runs, drops what waits, joins the threads.

  /// Runs J for Key on a worker, after (and instead of) what Key had.
  void schedule(const std::string &Key, Job J);

private:
  struct Slot {
    Job Waiting;        ///< Empty: nothing waits.
    CancelFlag Running; ///< Null: nothing runs.
    bool Queued = false;
  };
  void work();

  std::mutex Lock;
  std::condition_variable Wake;
  std::map<std::string, Slot> Slots;
  std::deque<std::string> Ready; ///< Keys with a waiting job and none running.
  bool Stopping = false;
  std::vector<std::thread> Workers;
};

} // namespace cuda_advisor::lsp

#endif
