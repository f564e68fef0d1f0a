//===- Scheduler.cpp - One analysis per file at a time, newest wins --------===//
#include "Scheduler.h"

#include <algorithm>

namespace cuda_advisor::lsp {

Scheduler::Scheduler(unsigned Threads) {
  for (unsigned I = 0; I < std::max(1u, Threads); ++I)
    Workers.emplace_back([this] { work(); });
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
    for (auto &[Key, S] : Slots)
      if (S.Running)
        S.Running->store(true);
  }
  Wake.notify_all();
  for (std::thread &T : Workers)
    T.join();
}

void Scheduler::schedule(const std::string &Key, Job J) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Slot &S = Slots[Key];
    S.Waiting = std::move(J); // An older waiting job is superseded.
    if (S.Running)
      S.Running->store(true);
    else if (!S.Queued) {
      S.Queued = true;
      Ready.push_back(Key);
    }
  }
  Wake.notify_one();
}

void Scheduler::work() {
  std::unique_lock<std::mutex> Guard(Lock);
  while (true) {
    Wake.wait(Guard, [&] { return Stopping || !Ready.empty(); });
    if (Stopping)
      return;
    std::string Key = std::move(Ready.front());
    Ready.pop_front();
    Slot &S = Slots[Key];
    S.Queued = false;
    Job J = std::move(S.Waiting);
    S.Waiting = nullptr;
    CancelFlag Cancel = std::make_shared<std::atomic<bool>>(false);
    S.Running = Cancel;
    Guard.unlock();
    J(Cancel);
    Guard.lock();
    Slot &After = Slots[Key]; // The map may have grown meanwhile.
    After.Running = nullptr;
    if (After.Waiting && !After.Queued) {
      After.Queued = true;
      Ready.push_back(Key);
      Wake.notify_one();
    }
  }
}

} // namespace cuda_advisor::lsp
