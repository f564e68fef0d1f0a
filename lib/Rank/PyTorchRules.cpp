//===- PyTorchRules.cpp - Runtime rules for what PyTorch programs waste ---===//
//
// Rules that read only the timeline, written for the thieves PyTorch
// programs show most (they apply to any CUDA program): FP32 matrix
// multiplies off the tensor cores, a model called on one sample at a time,
// chains of element-wise kernels, batches loaded and copied from pageable
// memory while the GPU waits. docs/checks/runtime-*.md describe them;
// docs/cost-model.md their estimates.
//
//===----------------------------------------------------------------------===//
#include "RuleContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include <map>
#include <numeric>
#include <optional>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {
namespace {

/// Dense peak matrix-multiply rates of a GPU, TFLOP/s.
struct MatmulRates {
  double Fp32, Tf32;
  const char *Source;
};

/// The data-center GPUs whose FP32 and TF32 rates NVIDIA publishes (dense,
/// without sparsity). Consumer parts of the same compute capability differ,
/// so only the compute capabilities of those parts are known.
std::optional<MatmulRates> matmulRates(const Device &D) {
  if (D.ComputeMajor == 8 && D.ComputeMinor == 0)
    return MatmulRates{19.5, 156, "NVIDIA A100 datasheet"};
  if (D.ComputeMajor == 9 && D.ComputeMinor == 0)
    return MatmulRates{67, 495, "NVIDIA H100 SXM and H200 datasheets"};
  return std::nullopt;
}

/// The demangled name of K, lowercased (both the mangled and the demangled
/// spellings carry the library's kernel name).
std::string lowerName(const Kernel &K) {
  std::string N = !K.Demangled.empty() ? K.Demangled
                  : StringRef(K.Name).starts_with("_Z") ? llvm::demangle(K.Name)
                                                        : K.Name;
  return StringRef(N).lower();
}

/// Whether K is a matrix multiply or convolution computed in FP32 on the
/// FP32 units: cuBLAS's sgemm kernels (maxwell_/volta_/ampere_sgemm_*),
/// CUTLASS's SIMT sgemm (cutlass_80_simt_sgemm_*), cuBLAS/cuDNN xmma
/// kernels with FP32 inputs on FFMA (sm80_xmma_gemm_f32f32_f32f32_f32_*_ffma,
/// *_fprop_implicit_gemm_f32f32_f32f32_*), cuDNN's implicit_convolve_sgemm,
/// and cuBLAS's templated kernels over float (gemmSN_NN_kernel<float...>).
/// Not: TF32/FP16/BF16/INT8 tensor-core kernels (tf32, tensorop, hmma,
/// s1688/s16816, f16, bf16), FP64 and complex kernels, matrix-vector
/// kernels (gemv: memory bound), split-K reductions.
bool isFp32Matmul(const Kernel &K) {
  std::string L = lowerName(K);
  StringRef N(L);
  if (!N.contains("gemm") && !N.contains("conv"))
    return false;
  static const char *const NotFp32Simt[] = {
      "tf32",  "tensorop", "hmma",  "imma",  "s1688", "s16816", "s16832", "f16",   "bf16",
      "fp16",  "half",     "bfloat", "i8",   "e4m3",  "e5m2",   "gemv",   "reduce", "dgemm",
      "zgemm", "cgemm",    "f64",   "double", "complex"};
  for (const char *S : NotFp32Simt)
    if (N.contains(S))
      return false;
  if (N.contains("sgemm"))
    return true;
  if (N.contains("f32f32_f32f32") && N.contains("ffma"))
    return true;
  return N.contains("gemm") && N.contains("<float");
}

/// Whether K is one of PyTorch's element-wise kernels (TensorIterator's
/// vectorized, unrolled and generic launches).
bool isElementwise(const Kernel &K) {
  StringRef N = K.Demangled.empty() ? StringRef(K.Name) : StringRef(K.Demangled);
  return N.contains("elementwise_kernel");
}

/// Whether kernel K was launched by autograd's backward pass: under
/// torch.autograd.backward() (the Python stack, where the profile has one)
/// or named as a backward kernel.
bool isBackwardKernel(const ProfileIndex &Index, const Profile &P, size_t K) {
  if (const Stack *S = Index.stackOf(WorkRef{WorkKind::Kernel, K}))
    if (llvm::any_of(S->Symbols, isAutogradBackward))
      return true;
  return StringRef(lowerName(P.Kernels[K])).contains("backward");
}

/// Whether kernel K belongs to a training step's backward pass or optimizer
/// update: launched under torch.autograd.backward() or from torch/optim/
/// (the Python stack, where the profile has one), or named so (PyTorch's
/// backward kernels, "softmax_warp_backward", "nll_loss_backward_reduce_...";
/// its foreach optimizers' multi_tensor_apply_kernel; fused Adam/SGD).
bool isTrainingStepKernel(const ProfileIndex &Index, const Profile &P, size_t K) {
  if (isBackwardKernel(Index, P, K))
    return true;
  if (const Stack *S = Index.stackOf(WorkRef{WorkKind::Kernel, K}))
    if (llvm::any_of(S->Symbols, isOptimizerStep))
      return true;
  std::string L = lowerName(P.Kernels[K]);
  StringRef N(L);
  return N.contains("multi_tensor_apply") || N.contains("fused_adam") || N.contains("fused_sgd");
}

} // namespace

/// The innermost user frame that the stacks of all the kernels' launches
/// share: for the launches of one call of a model, the line of that call.
/// Falls back to the first kernel's launch site.
static const SourceLocation *commonUserFrame(const ProfileIndex &Index,
                                             ArrayRef<size_t> Kernels) {
  std::vector<const SourceLocation *> Common;
  bool First = true;
  for (size_t K : Kernels) {
    const Stack *S = Index.stackOf(WorkRef{WorkKind::Kernel, K});
    if (!S || !S->userFrame())
      return nullptr;
    // The user frames, outermost first.
    std::vector<const SourceLocation *> Frames;
    for (auto It = S->Symbols.rbegin(); It != S->Symbols.rend(); ++It)
      if (!It->Library && It->Loc.isValid())
        Frames.push_back(&It->Loc);
    if (First) {
      Common = std::move(Frames);
      First = false;
      continue;
    }
    size_t Same = 0;
    while (Same < Common.size() && Same < Frames.size() && *Common[Same] == *Frames[Same])
      ++Same;
    Common.resize(Same);
  }
  return Common.empty() ? nullptr : Common.back();
}

void Rules::tensorCoresUnused(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-tensor-cores-unused";
  struct Group {
    std::vector<size_t> Kernels;
    uint64_t Time = 0;
    std::map<std::string, uint64_t> ByName;
  };
  std::map<std::pair<ProcessIndex, uint32_t>, Group> Groups;
  std::map<ProcessIndex, uint64_t> Shortest;
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const Kernel &K = P.Kernels[I];
    if (K.duration() > 0) {
      auto [It, New] = Shortest.try_emplace(K.Process, K.duration());
      if (!New)
        It->second = std::min(It->second, K.duration());
    }
    if (!isFp32Matmul(K))
      continue;
    Group &G = Groups[{K.Process, K.Device}];
    G.Kernels.push_back(I);
    G.Time += K.duration();
    G.ByName[kernelName(K)] += K.duration();
  }
  for (auto &[Key, G] : Groups) {
    auto [Proc, Dev] = Key;
    const Device *D = Index.deviceOf(Proc, Dev);
    std::optional<MatmulRates> Rates = D ? matmulRates(*D) : std::nullopt;
    if (!Rates)
      continue;
    double Ratio = Rates->Fp32 / Rates->Tf32;
    // No kernel runs shorter than the shortest the run had.
    uint64_t Floor = Shortest[Proc];
    uint64_t Saving = 0;
    for (size_t I : G.Kernels) {
      uint64_t T = P.Kernels[I].duration();
      uint64_t After = std::max(static_cast<uint64_t>(static_cast<double>(T) * Ratio), Floor);
      Saving += T > After ? T - After : 0;
    }
    // Faster kernels shorten the run only where the host waits for them: in
    // a host-bound loop (data loading, Python between launches) they run in
    // the host's shadow. The saving is at most the time the host waited
    // while the GPU was busy.
    std::optional<uint64_t> Waited = hostWaitOnBusyGpu(Proc, Dev);
    uint64_t Unbounded = Saving;
    if (Waited)
      Saving = std::min(Saving, *Waited);
    if (!worthIt(Id, Proc, Saving))
      continue;
    // The two costliest kernel names, for the message.
    std::vector<std::pair<uint64_t, std::string>> Names;
    for (auto &[N, T] : G.ByName)
      Names.push_back({T, N});
    llvm::sort(Names, [](const auto &A, const auto &B) {
      return A.first != B.first ? A.first > B.first : A.second < B.second;
    });
    std::string Shown = "'" + Names[0].second + "'";
    if (Names.size() > 1)
      Shown += formatv(", '{0}'{1}", Names[1].second,
                       Names.size() > 2 ? formatv(" and {0} more", Names.size() - 2).str()
                                        : std::string())
                   .str();
    uint64_t Busy = Index.busy(Proc, Dev).total();
    std::string Msg = formatv(
        "{0} FP32 matrix-multiply or convolution kernels ({1}) took {2} ({3}% of the GPU's busy "
        "time) on the FP32 units: tensor cores run them in TF32 at up to {4}x the rate on this "
        "GPU; in PyTorch torch.backends.cuda.matmul.allow_tf32 = True (or "
        "torch.set_float32_matmul_precision('high')) and torch.backends.cudnn.allow_tf32 = "
        "True, or torch.autocast('cuda', dtype=torch.bfloat16); in CUDA C++ "
        "cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH) or CUBLAS_COMPUTE_32F_FAST_TF32; "
        "TF32 rounds the inputs to 10 mantissa bits, which changes the results: check the "
        "accuracy you need",
        G.Kernels.size(), Shown, formatDuration(G.Time),
        Busy ? static_cast<int>(std::lround(100.0 * static_cast<double>(G.Time) /
                                            static_cast<double>(Busy)))
             : 0,
        formatv("{0:f1}", Rates->Tf32 / Rates->Fp32).str());
    std::string How = formatv(
        "each kernel's time times the ratio of the GPU's dense FP32 to TF32 tensor peak rates "
        "({0} / {1} TFLOP/s, {2}), but no shorter than the run's shortest kernel ({3}): "
        "compute-bound multiplies speed up by that ratio, small ones are held by the floor",
        formatv("{0:f1}", Rates->Fp32).str(), formatv("{0:f0}", Rates->Tf32).str(), Rates->Source,
        formatDuration(Floor));
    if (Saving < Unbounded)
      How += formatv("; that gives {0}, but the host waited for the busy GPU only {1} in all "
                     "(synchronizations, blocking copies and launches): the rest of the kernels' "
                     "time was hidden behind the host's own work, and a faster GPU saves at most "
                     "that wait",
                     formatDuration(Unbounded), formatDuration(Saving))
                 .str();
    Cost C = Model.make(G.Kernels.size(), G.Time, Saving, std::move(How));
    // Placed where the costliest kernel was launched.
    const SourceLocation *Site = nullptr;
    for (size_t I : G.Kernels)
      if (kernelName(P.Kernels[I]) == Names[0].second) {
        if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, I}))
          Site = launchSiteOf(*L, P.Kernels[I]);
        break;
      }
    RuntimeFinding R = finding(Id, std::move(Msg), Site, std::move(C));
    R.Kernels.insert(G.Kernels.begin(), G.Kernels.end());
    setEvidence(R.F, evidence::Fp32TflopsPeak, Rates->Fp32);
    setEvidence(R.F, evidence::Tf32TflopsPeak, Rates->Tf32);
    Out.push_back(std::move(R));
  }
}

void Rules::repeatedSequence(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-repeated-sequence";
  uint64_t MinRepeats = static_cast<uint64_t>(option(Id, "MinRepeats"));
  size_t MinKernels = static_cast<size_t>(option(Id, "MinKernels"));
  size_t MaxKernels = static_cast<size_t>(option(Id, "MaxKernels"));
  double MaxBusyShare = optionShare(Id, "MaxBusyShare");
  // Kernel names as small integers, per device in the order they ran on it,
  // all streams together: "in a row" means nothing else ran between the
  // calls. Per stream, a training step's library streams (cuDNN runs its RNN
  // kernels on streams of its own) would each look like a short sequence
  // repeated once per step, in a loop that is already batched.
  StringMap<int> Ids;
  std::map<std::pair<ProcessIndex, uint32_t>, std::vector<size_t>> Devices;
  std::vector<int> NameId(P.Kernels.size());
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const Kernel &K = P.Kernels[I];
    NameId[I] = Ids.try_emplace(K.Name.empty() ? K.Demangled : K.Name, Ids.size()).first->second;
    Devices[{K.Process, K.Device}].push_back(I);
  }
  // Runs of a sequence, by process, sequence and call site.
  struct Run {
    size_t Length = 0, Count = 0;
    uint64_t Repeats = 0, SpanNs = 0, IdleNs = 0, HostIdleNs = 0, KernelNs = 0, Saving = 0,
             TypicalNs = 0; ///< Sum over the runs of the typical call's idle time x repeats.
    std::vector<size_t> Kernels;
    std::string Names;
    const SourceLocation *Site = nullptr;
  };
  std::map<std::tuple<ProcessIndex, std::string, std::string>, Run> Runs;
  std::map<ProcessIndex, IntervalSet> Waiting;
  for (auto &[Key, Ks] : Devices) {
    auto [Proc, Dev] = Key;
    llvm::stable_sort(Ks, [&](size_t A, size_t B) {
      return P.Kernels[A].Start < P.Kernels[B].Start;
    });
    auto [WIt, New] = Waiting.try_emplace(Proc);
    if (New)
      WIt->second = notOwnHostWork(Proc);
    const IntervalSet &Wait = WIt->second;
    const IntervalSet &Busy = Index.busy(Proc, Dev);
    size_t Pos = 0;
    while (Pos < Ks.size()) {
      // The period that repeats longest from here.
      size_t BestLen = 0, BestReps = 0;
      for (size_t L = MinKernels; L <= MaxKernels && Pos + 2 * L <= Ks.size(); ++L) {
        // Only primitive periods: one kernel again and again is a loop's
        // body (runtime-launch-bound), not a sequence of two.
        bool Composite = false;
        for (size_t D = 1; D < L && !Composite; ++D) {
          if (L % D)
            continue;
          Composite = true;
          for (size_t J = Pos + D; J < Pos + L && Composite; ++J)
            Composite = NameId[Ks[J]] == NameId[Ks[J - D]];
        }
        if (Composite)
          continue;
        size_t End = Pos + L;
        while (End < Ks.size() && NameId[Ks[End]] == NameId[Ks[End - L]])
          ++End;
        size_t Reps = (End - Pos) / L;
        if (Reps * L > BestReps * BestLen)
          BestLen = L, BestReps = Reps;
      }
      // Ties go to the shorter period (ABAB repeats AB).
      if (BestReps < std::max<uint64_t>(MinRepeats, 2)) {
        ++Pos;
        continue;
      }
      size_t End = Pos + BestReps * BestLen;
      const Kernel &First = P.Kernels[Ks[Pos]], &Last = P.Kernels[Ks[End - 1]];
      Interval Span{First.Start, std::max(First.Start, Last.End)};
      uint64_t KernelNs = 0;
      for (size_t J = Pos; J < End; ++J)
        KernelNs += P.Kernels[Ks[J]].duration();
      // The GPU's idle time in the span while the host was not waiting in
      // a CUDA call: the host's own work between the calls.
      uint64_t HostIdle = 0;
      for (const Interval &G : Busy.gaps(Span))
        HostIdle += Wait.uncovered(G);
      // The same per repeat, from the start of its first kernel to the
      // start of the next repeat's: the typical repeat's (the median) is
      // what each call costs; the first calls also pay one-time costs (a
      // library's initialization, lazy loading) that batching keeps.
      std::vector<uint64_t> PerRepeat;
      for (size_t J = 0; J < BestReps; ++J) {
        const Kernel &From = P.Kernels[Ks[Pos + J * BestLen]];
        uint64_t To = J + 1 < BestReps ? P.Kernels[Ks[Pos + (J + 1) * BestLen]].Start : Span.End;
        uint64_t Idle = 0;
        for (const Interval &G : Busy.gaps(Interval{From.Start, std::max(From.Start, To)}))
          Idle += Wait.uncovered(G);
        PerRepeat.push_back(Idle);
      }
      uint64_t TypicalIdle = median(std::move(PerRepeat));
      uint64_t Covered = Busy.covered(Span);
      size_t Begin = Pos;
      Pos = End;
      if (static_cast<double>(Covered) > MaxBusyShare * static_cast<double>(Span.length()) ||
          2 * HostIdle < Span.length())
        continue;
      // Batched, the host's work is paid once instead of once per call;
      // the kernels' time is kept (it grows less than that with a batch).
      std::vector<size_t> FirstCall(Ks.begin() + Begin, Ks.begin() + Begin + BestLen);
      // A training step (a backward pass or an optimizer's update among
      // its kernels) needs the weights the step before it updated: steps
      // are not items to batch. A host-bound training loop is
      // runtime-gpu-idle-gaps' and runtime-data-loading's.
      if (llvm::any_of(FirstCall, [&](size_t K) { return isTrainingStepKernel(Index, P, K); }))
        continue;
      const SourceLocation *Site = commonUserFrame(Index, FirstCall);
      if (!Site)
        if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Ks[Begin]}))
          Site = launchSiteOf(*L, First);
      // The runs of one sequence from one call site (a loop run again, its
      // warm-up and timed runs) are one finding.
      std::string Signature;
      for (size_t J = Begin; J < Begin + BestLen; ++J)
        Signature += std::to_string(NameId[Ks[J]]) + ";";
      Run &R = Runs[{Proc, Signature, Site ? describe(*Site) : std::string()}];
      if (R.Kernels.empty()) {
        R.Length = BestLen;
        R.Site = Site;
        for (size_t J = Begin; J < Begin + BestLen && J < Begin + 3; ++J)
          R.Names += (J > Begin ? ", '" : "'") + kernelName(P.Kernels[Ks[J]]) + "'";
        if (BestLen > 3)
          R.Names += formatv(" and {0} more", BestLen - 3).str();
      }
      ++R.Count;
      R.Repeats += BestReps;
      R.SpanNs += Span.length();
      R.IdleNs += Span.length() - Covered;
      R.HostIdleNs += HostIdle;
      R.KernelNs += KernelNs;
      R.Saving += std::min(HostIdle, TypicalIdle * (BestReps - 1));
      R.TypicalNs += TypicalIdle * BestReps;
      R.Kernels.insert(R.Kernels.end(), Ks.begin() + Begin, Ks.begin() + End);
    }
  }
  for (auto &[Key, R] : Runs) {
    ProcessIndex Proc = std::get<0>(Key);
    if (!worthIt(Id, Proc, R.Saving))
      continue;
    std::string Times =
        R.Count == 1
            ? formatv("{0} times in a row", R.Repeats).str()
            : formatv("{0} times, in {1} runs of calls in a row", R.Repeats, R.Count).str();
    std::string Msg = formatv(
        "the same sequence of {0} kernels ({1}) ran {2}, and the GPU was idle {3}% of those {4} "
        "while the host prepared each call: the work is done one item at a time; batch the "
        "items into one call (in PyTorch, stack the samples into one tensor and call the model "
        "once; in CUDA C++, one launch over all items)",
        R.Length, R.Names, Times,
        static_cast<int>(std::lround(100.0 * static_cast<double>(R.IdleNs) /
                                     static_cast<double>(R.SpanNs))),
        formatDuration(R.SpanNs));
    std::string How = formatv(
        "the GPU's idle time between the calls while the host worked ({0} in all; {1} for the "
        "typical call, the median, as the first calls also pay one-time costs) is paid once per "
        "run of calls instead of once per call; the kernels' own time ({2}) is kept",
        formatDuration(R.HostIdleNs), formatDuration(R.TypicalNs / std::max<uint64_t>(R.Repeats, 1)),
        formatDuration(R.KernelNs));
    Cost C = Model.make(R.Repeats, R.SpanNs, R.Saving, std::move(How), CostModel::Clock::Host);
    RuntimeFinding F = finding(Id, std::move(Msg), R.Site, std::move(C));
    F.Kernels.insert(R.Kernels.begin(), R.Kernels.end());
    setEvidence(F.F, evidence::SequenceLength, static_cast<int64_t>(R.Length));
    setEvidence(F.F, evidence::Repeats, static_cast<int64_t>(R.Repeats));
    setEvidence(F.F, evidence::Runs, static_cast<int64_t>(R.Count));
    Out.push_back(std::move(F));
  }
}

void Rules::elementwiseChain(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-elementwise-chain";
  size_t MinChain = static_cast<size_t>(option(Id, "MinKernels"));
  uint64_t MaxGap = static_cast<uint64_t>(option(Id, "MaxGapUs")) * 1000;
  // A chain: consecutive element-wise kernels of one stream with the same
  // grid and block (tensors of one size). Chains of the same kernels are
  // one finding.
  struct Chains {
    std::vector<std::vector<size_t>> Each;
  };
  std::map<std::tuple<ProcessIndex, uint32_t, std::string>, Chains> Groups;
  std::map<std::tuple<ProcessIndex, uint32_t, uint32_t>, std::vector<size_t>> Streams;
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    Streams[{P.Kernels[I].Process, P.Kernels[I].Device, P.Kernels[I].Stream}].push_back(I);
  // Copies and memsets per device: one between two kernels breaks a chain
  // (the tensor came from or went to the host).
  std::map<std::pair<ProcessIndex, uint32_t>, std::vector<uint64_t>> Transfers;
  for (const Copy &C : P.Copies)
    Transfers[{C.Process, C.Device}].push_back(C.Start);
  for (const Memset &M : P.Memsets)
    Transfers[{M.Process, M.Device}].push_back(M.Start);
  for (auto &[K, V] : Transfers)
    llvm::sort(V);
  for (auto &[Key, Ks] : Streams) {
    llvm::sort(Ks, [&](size_t A, size_t B) { return P.Kernels[A].Start < P.Kernels[B].Start; });
    const std::vector<uint64_t> &Moves = Transfers[{std::get<0>(Key), std::get<1>(Key)}];
    auto TransferBetween = [&](uint64_t From, uint64_t To) {
      auto It = std::lower_bound(Moves.begin(), Moves.end(), From);
      return It != Moves.end() && *It < To;
    };
    size_t Begin = 0;
    auto Record = [&](size_t Begin, size_t End) {
      std::string Signature;
      for (size_t J = Begin; J < End; ++J)
        Signature += kernelKey(P.Kernels[Ks[J]].Demangled.empty() ? P.Kernels[Ks[J]].Name
                                                                  : P.Kernels[Ks[J]].Demangled) +
                     ";";
      const Kernel &K = P.Kernels[Ks[Begin]];
      Signature += formatv("{0}x{1}x{2}/{3}", K.Grid[0], K.Grid[1], K.Grid[2],
                           K.Block[0] * K.Block[1] * K.Block[2])
                       .str();
      Groups[{std::get<0>(Key), std::get<1>(Key), Signature}].Each.push_back(
          std::vector<size_t>(Ks.begin() + Begin, Ks.begin() + End));
    };
    // A loop runs the same chain again and again, back to back: a run that
    // repeats a shorter sequence is that chain, several times.
    auto Flush = [&](size_t End) {
      size_t N = End - Begin;
      if (N < MinChain)
        return;
      size_t Period = N;
      for (size_t L = MinChain; 2 * L <= N && Period == N; ++L) {
        bool Repeats = true;
        for (size_t J = Begin + L; J < End && Repeats; ++J)
          Repeats = kernelKey(P.Kernels[Ks[J]].Name.empty() ? P.Kernels[Ks[J]].Demangled
                                                            : P.Kernels[Ks[J]].Name) ==
                    kernelKey(P.Kernels[Ks[J - L]].Name.empty() ? P.Kernels[Ks[J - L]].Demangled
                                                                : P.Kernels[Ks[J - L]].Name);
        if (Repeats)
          Period = L;
      }
      for (size_t C = Begin; C + Period <= End; C += Period)
        Record(C, C + Period);
    };
    for (size_t J = 0; J < Ks.size(); ++J) {
      const Kernel &K = P.Kernels[Ks[J]];
      bool Continues = J > Begin && isElementwise(K);
      if (Continues) {
        const Kernel &Prev = P.Kernels[Ks[J - 1]];
        // A forward pass's kernels and its backward pass's are no chain:
        // no expression of the user's spans both, and torch.compile
        // compiles the two passes into separate graphs.
        Continues = K.Grid == Prev.Grid && K.Block == Prev.Block &&
                    K.Start >= Prev.End && K.Start - Prev.End <= MaxGap &&
                    !TransferBetween(Prev.Start, K.Start) &&
                    isBackwardKernel(Index, P, Ks[J]) == isBackwardKernel(Index, P, Ks[J - 1]);
      }
      if (!Continues) {
        Flush(J);
        Begin = isElementwise(K) ? J : J + 1;
      }
    }
    Flush(Ks.size());
  }
  for (auto &[Key, G] : Groups) {
    auto [Proc, Dev, Signature] = Key;
    const std::vector<size_t> &Sample = G.Each.front();
    size_t KCount = Sample.size();
    // Each intermediate is written by one kernel and read by the next: about
    // one element-wise pass over the tensor, which the chain's fastest kernel
    // (at least one read and one write per element) shows the cost of.
    uint64_t Fastest = UINT64_MAX;
    for (const std::vector<size_t> &Chain : G.Each)
      for (size_t I : Chain)
        if (uint64_t T = P.Kernels[I].duration())
          Fastest = std::min(Fastest, T);
    if (Fastest == UINT64_MAX)
      continue;
    uint64_t TrafficNs = (KCount - 1) * Fastest;
    uint64_t ChainNs = 0, Saving = 0, Calls = 0;
    std::vector<uint64_t> PerChain;
    for (const std::vector<size_t> &Chain : G.Each) {
      uint64_t Kernels = 0, Longest = 0, Gaps = 0;
      for (size_t J = 0; J < Chain.size(); ++J) {
        const Kernel &K = P.Kernels[Chain[J]];
        Kernels += K.duration();
        Longest = std::max(Longest, K.duration());
        if (J > 0)
          Gaps += K.Start - P.Kernels[Chain[J - 1]].End;
      }
      ChainNs += Kernels;
      Calls += Chain.size();
      // The fused kernel takes at least as long as the longest of them.
      uint64_t Bound = Kernels + Gaps - Longest;
      PerChain.push_back(std::min(TrafficNs + Gaps, Bound));
      Saving += PerChain.back();
    }
    // The typical chain's (the median): the first runs' gaps also hold
    // one-time costs (each kernel's lazy loading, the allocator's first
    // blocks) that fusing does not remove.
    Saving = std::min<uint64_t>(Saving, median(PerChain) * PerChain.size());
    if (!worthIt(Id, Proc, Saving))
      continue;
    std::string Names;
    for (size_t J = 0; J < KCount && J < 3; ++J)
      Names += (J ? ", '" : "'") + kernelName(P.Kernels[Sample[J]]) + "'";
    if (KCount > 3)
      Names += formatv(" and {0} more", KCount - 3).str();
    std::string Msg = formatv(
        "a chain of {0} element-wise kernels over tensors of one size ({1}) ran {2} {3}: each "
        "reads and writes the whole tensor, and each intermediate goes through memory; fuse "
        "the chain into one kernel (in PyTorch torch.compile, or a fused op such as "
        "torch.addcmul or torch.lerp; in CUDA C++ one kernel that computes the whole "
        "expression per element)",
        KCount, Names, G.Each.size(), G.Each.size() == 1 ? "time" : "times");
    std::string How = formatv(
        "per chain, the {0} intermediates' writes and reads, each about the chain's fastest "
        "kernel ({1}: one pass over the tensor), plus the GPU's idle time between the "
        "kernels; at most the chain (kernels and gaps) less its longest kernel; at most the "
        "typical chain's (the median) times the chains, as the first runs also pay one-time "
        "costs",
        KCount - 1, formatDuration(Fastest));
    Cost C = Model.make(Calls, ChainNs, Saving, std::move(How));
    auto SiteOf = [&](size_t J) -> const SourceLocation * {
      std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Sample[J]});
      return L ? launchSiteOf(*L, P.Kernels[Sample[J]]) : nullptr;
    };
    const SourceLocation *Site = SiteOf(0);
    RuntimeFinding R = finding(Id, std::move(Msg), Site, std::move(C));
    // A chain often spans several lines (a masking expression after an
    // activation): a note at each other line that launches one of its
    // kernels, so that the fix is read from all of them.
    std::vector<const SourceLocation *> Lines{Site};
    for (size_t J = 1; J < KCount; ++J) {
      const SourceLocation *At = SiteOf(J);
      if (!At || llvm::any_of(Lines, [&](const SourceLocation *S) {
            return S && S->File == At->File && S->Line == At->Line;
          }))
        continue;
      Lines.push_back(At);
      FindingNote N;
      N.Loc = *At;
      N.Message = formatv("kernel {0} of the chain ('{1}') is launched here", J + 1,
                          kernelName(P.Kernels[Sample[J]]));
      R.F.Notes.push_back(std::move(N));
    }
    for (const std::vector<size_t> &Chain : G.Each)
      R.Kernels.insert(Chain.begin(), Chain.end());
    setEvidence(R.F, evidence::ChainLength, static_cast<int64_t>(KCount));
    Out.push_back(std::move(R));
  }
}

const Rules::Loading &Rules::loading() {
  if (LoadingCache)
    return *LoadingCache;
  LoadingCache.emplace();
  Loading &Result = *LoadingCache;
  static constexpr StringRef Id = "runtime-data-loading";
  if (!Enabled.contains(Id))
    return Result;
  uint64_t MinCopies = static_cast<uint64_t>(option(Id, "MinCopies"));
  size_t MinBatches = static_cast<size_t>(option(Id, "MinBatches"));
  double MinWaitShare = optionShare(Id, "MinWaitShare");
  // The batches that Copies (calls, in any order) upload: runs of copies with
  // no kernel of the device between them.
  auto Batches = [&](ProcessIndex Proc, uint32_t Dev, std::vector<size_t> Copies) {
    std::vector<uint64_t> Starts;
    for (size_t I = 0; I < P.Kernels.size(); ++I)
      if (P.Kernels[I].Process == Proc && P.Kernels[I].Device == Dev)
        Starts.push_back(P.Kernels[I].Start);
    llvm::sort(Starts);
    llvm::sort(Copies,
               [&](size_t A, size_t B) { return P.ApiCalls[A].Start < P.ApiCalls[B].Start; });
    size_t N = 0;
    uint64_t Prev = 0;
    for (size_t I : Copies) {
      uint64_t T = P.ApiCalls[I].Start;
      auto It = std::lower_bound(Starts.begin(), Starts.end(), Prev);
      if (N == 0 || (It != Starts.end() && *It < T))
        ++N;
      Prev = T;
    }
    return N;
  };
  // The next call of the same host thread after each call, and the previous
  // one that queued or waited for GPU work.
  std::vector<size_t> Next(P.ApiCalls.size(), SIZE_MAX), Before(P.ApiCalls.size(), SIZE_MAX);
  {
    std::vector<size_t> ByStart(P.ApiCalls.size());
    std::iota(ByStart.begin(), ByStart.end(), 0);
    llvm::stable_sort(ByStart, [&](size_t A, size_t B) {
      return P.ApiCalls[A].Start < P.ApiCalls[B].Start;
    });
    std::map<std::pair<ProcessIndex, uint32_t>, size_t> Last, LastWork;
    for (size_t I : ByStart) {
      std::pair<ProcessIndex, uint32_t> Thread{P.ApiCalls[I].Process, P.ApiCalls[I].Thread};
      auto [It, New] = Last.try_emplace(Thread, I);
      if (!New) {
        Next[It->second] = I;
        It->second = I;
      }
      // Before: the previous call that queued or waited for GPU work (not a
      // query such as cudaStreamIsCapturing or cudaPointerGetAttributes,
      // which torch.profiler records before every copy and ours does not).
      if (auto W = LastWork.find(Thread); W != LastWork.end())
        Before[I] = W->second;
      StringRef Family = apiFamily(P.ApiCalls[I].Name);
      if (Family == "copy" || Family == "memset" || Family == "launch" || Family == "sync")
        LastWork[Thread] = I;
    }
  }
  auto SameSite = [&](size_t A, size_t B) {
    const SourceLocation *X = siteOf(A), *Y = siteOf(B);
    return X && Y ? *X == *Y : !X && !Y;
  };
  // Host-to-device copies from pageable memory, by process and call site;
  // those from pinned memory apart (a DataLoader with pin_memory=True whose
  // workers do not keep up: the copies are fast, the wait before them is not).
  struct Group {
    std::vector<size_t> Copies, Syncs;
    std::vector<Interval> Loads; ///< The host's stretch before each copy while the GPU idled.
    size_t IdleAtIssue = 0;
    uint64_t Bytes = 0, CopyNs = 0, SyncNs = 0, IdleNs = 0;
    uint32_t Device = 0;
    const SourceLocation *Site = nullptr;
  };
  // Each process's copies by the time they ended.
  std::map<ProcessIndex, std::vector<std::pair<uint64_t, size_t>>> CopyEnds;
  for (size_t I = 0; I < P.Copies.size(); ++I)
    CopyEnds[P.Copies[I].Process].push_back({P.Copies[I].End, I});
  for (auto &[Proc, Ends] : CopyEnds)
    llvm::sort(Ends);
  std::map<std::tuple<ProcessIndex, std::string, bool>, Group> Groups;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    const Copy *Up = nullptr;
    for (const Copy *C : copiesOf(I))
      if (C->Kind == CopyKind::HtoD &&
          (C->Src == MemoryKind::Pageable || C->Src == MemoryKind::Pinned))
        Up = C;
    if (!Up)
      continue;
    const ApiCall &A = P.ApiCalls[I];
    const SourceLocation *Site = siteOf(I);
    bool Pinned = Up->Src == MemoryKind::Pinned;
    // A pinned upload whose last copy before it (any thread of the
    // process) was a download of as much data is a round trip: the host
    // worked on the GPU's results (gloo's all-reduce, a CPU-side step); it
    // is no batch loaded from storage.
    if (Pinned) {
      const std::vector<std::pair<uint64_t, size_t>> &Ends = CopyEnds[A.Process];
      auto It = std::upper_bound(Ends.begin(), Ends.end(),
                                 std::make_pair(A.Start, SIZE_MAX));
      if (It != Ends.begin()) {
        const Copy &Last = P.Copies[std::prev(It)->second];
        if (Last.Kind == CopyKind::DtoH && 2 * Last.Bytes >= Up->Bytes)
          continue;
      }
    }
    Group &G = Groups[{A.Process, Site ? describe(*Site) : std::string(), Pinned}];
    G.Copies.push_back(I);
    G.Bytes += Up->Bytes;
    G.CopyNs += Index.blocks(I) ? Index.ownHostTime(I) : Up->duration();
    G.Device = Up->Device;
    G.Site = Site;
    // The GPU had finished its previous work before the host issued the
    // copy: nothing was queued, and the GPU waited while the host got the
    // batch ready and then for the copy itself. An idle phase of the
    // program (start-up, building the data set) is not a loop's loading.
    std::optional<uint64_t> Prev = Index.busy(A.Process, Up->Device).lastBusyBefore(A.Start);
    uint64_t Idle = Prev && Up->Start > *Prev ? Up->Start - *Prev : 0;
    if (Prev && *Prev < A.Start && Idle < phaseGapNs(Id)) {
      ++G.IdleAtIssue;
      G.IdleNs += Idle;
      // From pinned memory, the batch's own loading is what the thread did
      // since its previous call that queued or waited for GPU work (the rest
      // of the step's host work before that is no loading).
      uint64_t From = *Prev;
      if (Pinned && Before[I] != SIZE_MAX)
        From = std::max(From, P.ApiCalls[Before[I]].End);
      if (From < A.Start)
        G.Loads.push_back({From, A.Start});
    }
    // The synchronization that makes the copy synchronous for the program
    // (PyTorch's .cuda()/.to() without non_blocking=True): the thread's
    // next call, a wait from the same call site.
    size_t J = Next[I];
    if (J != SIZE_MAX && apiFamily(P.ApiCalls[J].Name) == "sync" &&
        P.ApiCalls[J].Name != "cudaStreamWaitEvent" && SameSite(I, J)) {
      G.Syncs.push_back(J);
      G.SyncNs += P.ApiCalls[J].duration();
    }
  }
  for (auto &[Key, G] : Groups) {
    // A loop's copies (a few uploads at the start are not worth pinning),
    // most of them issued to an idle GPU.
    uint64_t N = G.Copies.size();
    if (N < MinCopies)
      continue;
    // Most batches found the GPU idle; or, with several workers, batches
    // arrive in bursts (a long wait, then a few ready ones) and only some
    // find it idle, but the waits before them are a material share of the
    // loop (MinWaitShare of its time).
    bool MostIdle = 2 * G.IdleAtIssue >= N;
    if (!MostIdle && G.IdleAtIssue < MinBatches)
      continue;
    // A training loop computes on each batch: kernels run between one
    // batch's copies and the next's. Copies with no compute between them
    // are not loading for compute (runtime-small-copies, -pageable-copies).
    ProcessIndex Proc = std::get<0>(Key);
    bool Pinned = std::get<2>(Key);
    if (Batches(Proc, G.Device, G.Copies) < MinBatches)
      continue;
    // Where the profile has the copies' pointers, a loop that copies the
    // same one or two buffers again and again uploads the same data: that
    // is runtime-repeated-copies' thief (upload it once), not loading.
    // (Not for pinned sources: PyTorch's caching host allocator hands the
    // pinned blocks of freed batches to the next ones.)
    if (!Pinned &&
        llvm::all_of(G.Copies, [&](size_t I) { return P.ApiCalls[I].HasCopyPointers; })) {
      std::set<uint64_t> Sources;
      for (size_t I : G.Copies)
        Sources.insert(P.ApiCalls[I].CopySrc);
      if (2 * Sources.size() <= N)
        continue;
    }
    Interval Region = Model.spanThroughNextWait(Proc, G.Copies);
    for (const Interval &L : G.Loads)
      Region.Start = std::min(Region.Start, L.Start);
    WhatIf W;
    W.Pinned.insert(G.Copies.begin(), G.Copies.end());
    W.Removed.insert(G.Syncs.begin(), G.Syncs.end());
    W.Prefetched = IntervalSet(G.Loads);
    uint64_t LoadNs = W.Prefetched.total();
    if (!MostIdle && static_cast<double>(LoadNs) < MinWaitShare * static_cast<double>(Region.length()))
      continue;
    // Pageable: the critical path with the fix applied. Pinned: the copies
    // already are; what the GPU waits for is the batch itself, and loaders
    // that keep up (workers in parallel) remove those waits, not the step's
    // own host and GPU work.
    uint64_t After = Pinned ? Region.length() - std::min(LoadNs, Region.length())
                            : std::min(Region.length(), Model.simulate(Proc, Region, W));
    uint64_t Saving = Region.length() - After;
    if (!worthIt(Id, Proc, Saving))
      continue;
    std::string Syncs =
        G.Syncs.empty()
            ? std::string()
            : formatv(", each followed by a synchronization ({0} in all)",
                      formatDuration(G.SyncNs))
                  .str();
    std::string Msg, How;
    if (Pinned) {
      Msg = formatv(
          "{0} host-to-device copies ({1} in all) from pinned memory took {2}{3}, and the GPU "
          "sat idle {4} before them ({5} of {0} copies were issued to an idle GPU): the GPU "
          "waits for each batch, the loading (reading, decoding, transforming) does not keep "
          "up; load the batches in parallel, ahead of the GPU: in PyTorch more DataLoader "
          "workers (num_workers=N, persistent_workers=True, prefetch_factor), lighter or "
          "on-GPU transforms, and .to(device, non_blocking=True); in CUDA C++ loader threads "
          "filling pinned buffers ahead of the compute",
          N, formatBytes(G.Bytes), formatDuration(G.CopyNs), Syncs, formatDuration(G.IdleNs),
          G.IdleAtIssue);
      How = formatv(
          "at most the host's stretches before the copies while the GPU sat idle ({0}), "
          "removed by loaders that keep up; the step's own host and GPU work stays; of the {1} "
          "from the first batch's loading to the wait after the last copy",
          formatDuration(LoadNs), formatDuration(Region.length()));
    } else {
      std::string Source;
      Model.pinnedBandwidth(Proc, G.Device, CopyKind::HtoD, &Source);
      Msg = formatv(
          "{0} host-to-device copies ({1} in all) from pageable memory took {2}{3}, and the GPU "
          "sat idle {4} before them ({5} of {0} copies were issued to an idle GPU): the loop "
          "loads each batch, copies it synchronously, then computes, one after the other; load "
          "and copy the next batch while the GPU computes: in PyTorch "
          "DataLoader(..., pin_memory=True, num_workers=N) and .to(device, non_blocking=True) "
          "(or a prefetcher on a side stream); in CUDA C++ pinned host buffers (cudaHostAlloc, "
          "cudaHostRegister) copied with cudaMemcpyAsync on a separate stream, double-buffered",
          N, formatBytes(G.Bytes), formatDuration(G.CopyNs), Syncs, formatDuration(G.IdleNs),
          G.IdleAtIssue);
      How = formatv(
          "critical-path model of the {0} from the first batch's loading to the wait after the "
          "last copy, with the copies asynchronous from pinned memory ({1}){2} and the host's "
          "own work while the GPU waited before each copy ({3}) done by a loader in parallel: "
          "it hides behind the step's host and GPU work, but no stretch gets shorter than its "
          "loading or its GPU work; gives {4}",
          formatDuration(Region.length()), Source,
          G.Syncs.empty()
              ? std::string()
              : formatv(", the {0} synchronizations after them gone", G.Syncs.size()).str(),
          formatDuration(LoadNs), formatDuration(After));
    }
    Cost C = Model.make(N, G.CopyNs + G.SyncNs + LoadNs, Saving, std::move(How),
                        CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), G.Site, std::move(C));
    R.Calls.insert(G.Copies.begin(), G.Copies.end());
    R.Calls.insert(G.Syncs.begin(), G.Syncs.end());
    // Pageable: the idle time it hides is GPU busy time that the process's
    // other overlap findings (idle gaps, synchronizations) cannot hide
    // again. Pinned: more loaders shorten the waits themselves, no overlap.
    if (!Pinned)
      R.OverlapOf = Proc;
    setEvidence(R.F, evidence::GpuIdleBeforeCopiesNs, static_cast<int64_t>(G.IdleNs));
    setEvidence(R.F, evidence::CopiesIssuedToIdleGpu, static_cast<int64_t>(G.IdleAtIssue));
    Result.Copies.insert(G.Copies.begin(), G.Copies.end());
    Result.Syncs.insert(G.Syncs.begin(), G.Syncs.end());
    Result.Findings.push_back(std::move(R));
  }
  return Result;
}

void Rules::dataLoading(std::vector<RuntimeFinding> &Out) {
  const Loading &L = loading();
  Out.insert(Out.end(), L.Findings.begin(), L.Findings.end());
}

} // namespace cuda_advisor::rank
