//===- ProfileBuilder.h - Hand-built profiles for the Rank tests -*- C++ -*-===//
#ifndef CUDA_ADVISOR_UNITTESTS_RANK_PROFILEBUILDER_H
#define CUDA_ADVISOR_UNITTESTS_RANK_PROFILEBUILDER_H

#include "cuda-advisor/Profile/Profile.h"

#include <string>

namespace cuda_advisor::testing {

/// Builds a one-process profile on an H200-like device; times in ns from 0
/// (kept small so the tests read like timelines).
class ProfileBuilder {
public:
  ProfileBuilder() {
    profile::Process Proc;
    Proc.SourceFile = "hand.jsonl";
    Proc.Format = "cuda-advisor";
    P.Processes.push_back(Proc);
    profile::Device D;
    D.Name = "NVIDIA H200";
    D.ComputeMajor = 9;
    D.NumSMs = 132;
    D.MaxWarpsPerSM = 64;
    D.MaxBlocksPerSM = 32;
    D.MaxThreadsPerBlock = 1024;
    D.RegistersPerSM = 65536;
    D.MaxRegistersPerBlock = 65536;
    D.SharedMemPerSM = 233472;
    D.SharedMemPerBlock = 49152;
    D.SharedMemPerBlockOptin = 232448;
    D.ReservedSharedMemPerBlock = 1024;
    D.MemoryBandwidthBytesPerSec = 4814304000000ull;
    P.Devices.push_back(D);
  }

  /// Sets the profiled wall interval.
  ProfileBuilder &wall(uint64_t Start, uint64_t End) {
    P.Processes[0].StartNs = Start;
    P.Processes[0].EndNs = End;
    return *this;
  }

  /// An API call; returns its index. Stack: a user frame at File:Line.
  size_t call(const std::string &Name, uint64_t Start, uint64_t End, const std::string &File = "",
              unsigned Line = 0) {
    profile::ApiCall A;
    A.Name = Name;
    A.Start = Start;
    A.End = End;
    A.Correlation = ++NextCorrelation;
    A.Thread = 1;
    if (!File.empty()) {
      profile::Stack S;
      S.Frames = {0x1000 + Line};
      profile::StackFrame Lib;
      Lib.Module = "/usr/lib/libcudart.so.13";
      Lib.Library = true;
      profile::StackFrame User;
      User.Loc.File = File;
      User.Loc.Line = Line;
      User.Function = "main";
      S.Symbols = {Lib, User};
      S.UserFrame = 1;
      A.StackIndex = static_cast<int64_t>(P.Stacks.size());
      P.Stacks.push_back(S);
    }
    P.ApiCalls.push_back(A);
    return P.ApiCalls.size() - 1;
  }

  size_t kernel(size_t Call, const std::string &Mangled, uint64_t Start, uint64_t End,
                uint32_t Threads = 256, uint32_t Stream = 7) {
    profile::Kernel K;
    K.Name = Mangled;
    K.Start = Start;
    K.End = End;
    K.Stream = Stream;
    K.Block = {{Threads, 1, 1}};
    K.Grid = {{4096, 1, 1}};
    K.RegistersPerThread = 16;
    K.Correlation = P.ApiCalls[Call].Correlation;
    P.Kernels.push_back(K);
    return P.Kernels.size() - 1;
  }

  size_t copy(size_t Call, profile::CopyKind Kind, uint64_t Bytes, uint64_t Start, uint64_t End,
              profile::MemoryKind Host = profile::MemoryKind::Pageable, uint32_t Stream = 7) {
    profile::Copy C;
    C.Kind = Kind;
    C.Bytes = Bytes;
    C.Start = Start;
    C.End = End;
    C.Stream = Stream;
    C.Src = Kind == profile::CopyKind::HtoD ? Host : profile::MemoryKind::Device;
    C.Dst = Kind == profile::CopyKind::HtoD ? profile::MemoryKind::Device : Host;
    C.Correlation = P.ApiCalls[Call].Correlation;
    P.Copies.push_back(C);
    return P.Copies.size() - 1;
  }

  profile::Profile P;

private:
  uint64_t NextCorrelation = 100;
};

} // namespace cuda_advisor::testing

#endif
