//===- HotPath.cpp - Where a program spends the time it measures ----------===//
#include "cuda-advisor/Analysis/HotPath.h"
#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace cuda_advisor::analysis {

namespace {

/// Deep enough for a call chain from main to a kernel through a few helpers.
constexpr unsigned MaxDepth = 8;

const FunctionDecl *keyOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// Free functions that read a clock: C, POSIX, OpenMP, MPI, the CUDA SDK's
/// and the usual hand-written helpers of benchmarks and courses.
bool isClockFunctionName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("gettimeofday", "clock_gettime", "clock", "omp_get_wtime", "MPI_Wtime", true)
      .Cases("sdkStartTimer", "sdkStopTimer", "cutStartTimer", "cutStopTimer", true)
      .Cases("QueryPerformanceCounter", "rtclock", "cpuSecond", "seconds", "wtime", true)
      .Cases("mysecond", "dtime", "get_wall_time", "walltime", "get_time", true)
      .Cases("getTime", "currentSeconds", "tic", "toc", "timer_start", true)
      .Cases("timer_stop", "startTimer", "stopTimer", "StartTimer", "StopTimer", true)
      .Default(false);
}

/// Functions that turn a clock's reading into a calendar date: a reading
/// passed to them makes a time stamp (a log file's name, a report's
/// header), not the start or end of a measurement.
bool isCalendarFunctionName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("to_time_t", "localtime", "localtime_r", "localtime_s", "gmtime", "gmtime_r", true)
      .Cases("strftime", "put_time", "ctime", "ctime_r", "asctime", "mktime", true)
      .Default(false);
}

/// The calls in Body whose value only goes to a calendar function, directly
/// (`to_time_t(system_clock::now())`) or through a variable it initializes
/// or is assigned to (`auto now = system_clock::now(); ... to_time_t(now)`)
/// and that nothing else reads (`end - start` makes a duration of it).
void collectTimeStamps(const Stmt *Body, llvm::SmallPtrSetImpl<const CallExpr *> &Out) {
  llvm::DenseMap<const VarDecl *, int> Stamped, Reads;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> StampedRefs;
  std::vector<std::pair<const VarDecl *, const CallExpr *>> Readings;
  std::vector<const Stmt *> Work{Body}, Arguments;
  auto Reading = [](const Expr *E) {
    return dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  };
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && Callee->getIdentifier() && isCalendarFunctionName(Callee->getName()))
        for (const Expr *A : Call->arguments())
          Arguments.push_back(A);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (const CallExpr *C = Reading(VD->getInit()))
            Readings.emplace_back(VD, C);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (const CallExpr *C = Reading(BO->getRHS())) {
            Readings.emplace_back(VD, C);
            --Reads[VD]; // The assignment writes it; counted below as a read.
          }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        ++Reads[VD];
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  while (!Arguments.empty()) {
    const Stmt *S = Arguments.back();
    Arguments.pop_back();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Out.insert(Call);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && StampedRefs.insert(DRE).second)
        ++Stamped[VD]; // Once, however deep the calendar calls nest.
    for (const Stmt *C : S->children())
      Arguments.push_back(C);
  }
  for (const auto &[VD, Call] : Readings)
    if (int N = Stamped.lookup(VD); N > 0 && N == Reads.lookup(VD))
      Out.insert(Call);
}

bool nameHasAny(StringRef Name, std::initializer_list<StringRef> Parts) {
  std::string Lower = Name.lower();
  return llvm::any_of(Parts, [&](StringRef P) { return StringRef(Lower).contains(P); });
}

/// `std::chrono::steady_clock::now()`, `timer.start()`, `sw.Stop()`.
bool isClockMethod(const CXXMethodDecl *MD) {
  const CXXRecordDecl *RD = MD->getParent();
  if (!RD || !MD->getIdentifier())
    return false;
  StringRef Name = MD->getName();
  StringRef Class = RD->getName();
  if (Name == "now")
    return nameHasAny(Class, {"clock"});
  if (!nameHasAny(Class, {"timer", "stopwatch", "profil"}))
    return false;
  // A container's begin()/end() (a `RadialProfile` walked by a range-for)
  // return a pointer or an iterator; a timer's return nothing or a number.
  QualType R = MD->getReturnType();
  if ((Name == "begin" || Name == "end") && (R->isPointerType() || R->isReferenceType()))
    return false;
  if (const CXXRecordDecl *RR = R->getAsCXXRecordDecl();
      RR && (Name == "begin" || Name == "end") && RR->getIdentifier() &&
      nameHasAny(RR->getName(), {"iterator"}))
    return false;
  return llvm::StringSwitch<bool>(Name)
      .Cases("start", "stop", "Start", "Stop", "tic", "toc", true)
      .Cases("begin", "end", "record", "Record", "elapsed", "Elapsed", true)
      .Default(false);
}

/// `SpTimer timer;` whose constructor starts the clock (it reads one, in its
/// body or a member initializer, or calls the class's own start()): the
/// declaration is a timing call.
bool startsClock(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  const CXXRecordDecl *RD = Ctor ? Ctor->getParent() : nullptr;
  if (!RD || !RD->getIdentifier() || !nameHasAny(RD->getName(), {"timer", "stopwatch", "profil"}))
    return false;
  // A scoped timer (its destructor reports the time at the scope's end)
  // times its own scope: no start of a region that a later call ends.
  if (const CXXDestructorDecl *Dtor = RD->getDestructor(); Dtor && Dtor->isUserProvided())
    return false;
  // The body, the member initializers (`Timer() : T0(clock::now()) {}`) and
  // the default member initializers of the members they leave alone
  // (`Clock::time_point T0 = Clock::now();` with `Timer() = default;`).
  std::vector<const Stmt *> Work;
  llvm::SmallPtrSet<const FieldDecl *, 4> Written;
  const FunctionDecl *Def = nullptr;
  if (Ctor->hasBody(Def) && Def) {
    Work.push_back(Def->getBody());
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : CD->inits())
        if (Init->isWritten()) {
          Work.push_back(Init->getInit());
          if (const FieldDecl *F = Init->getMember())
            Written.insert(F);
        }
  }
  for (const FieldDecl *F : RD->fields())
    if (F->hasInClassInitializer() && !Written.count(F))
      Work.push_back(F->getInClassInitializer());
  if (Work.empty())
    return false;
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && isClockMethod(MD))
          return true;
        if (Callee->getIdentifier() && isClockFunctionName(Callee->getName()))
          return true;
      }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// The constructions of timer objects that start the clock, with the loops
/// around each (innermost last), in source order.
void forEachTimerConstruction(const Stmt *S, std::vector<const Stmt *> &Loops,
                              llvm::function_ref<void(const CXXConstructExpr *,
                                                      ArrayRef<const Stmt *>)> F) {
  if (!S || isa<LambdaExpr>(S))
    return;
  bool Loop = isLoop(S) && repeatsWork(S);
  if (Loop)
    Loops.push_back(S);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S); CE && startsClock(CE))
    F(CE, Loops);
  for (const Stmt *C : S->children())
    forEachTimerConstruction(C, Loops, F);
  if (Loop)
    Loops.pop_back();
}

constexpr const char *DeadHostFunction =
    "a function that this program never calls (main is in this file, and no code of it calls or "
    "names the function)";

bool isLibrary(const FunctionDecl *FD, const SourceManager &SM) {
  clang::SourceLocation L = FD->getLocation();
  return L.isInvalid() || SM.isInSystemHeader(L);
}

/// Collects every user function definition (template instantiations
/// included, so that calls in them have direct callees).
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(std::vector<const FunctionDecl *> &Out) : Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && FD->getBody())
      Out.push_back(FD);
    return true;
  }

private:
  std::vector<const FunctionDecl *> &Out;
};

/// Variables whose value follows Var inside Loop: Var itself, locals
/// declared in the loop whose initializer reads one of them, and variables
/// the loop assigns from one of them (`N = start; numBytes = N * N * 4;` in
/// a loop over `start`, with N and numBytes declared outside it).
llvm::SmallPtrSet<const VarDecl *, 8> followersOf(const VarDecl *Var, const Stmt *Loop) {
  llvm::SmallPtrSet<const VarDecl *, 8> Vars;
  Vars.insert(Var);
  std::vector<const Stmt *> Work{Loop};
  // A variable and the value it takes: a local's initializer, or the
  // right-hand side of a plain assignment to it in the loop.
  std::vector<std::pair<const VarDecl *, const Expr *>> Locals;
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          Locals.emplace_back(VD, VD->getInit());
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Locals.emplace_back(VD, BO->getRHS());
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Until nothing changes: a local can follow a local declared before it
  // (`size = 1024 * sizes[j]; n4 = size / 16;`), and the walk above does not
  // visit them in source order.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[VD, Value] : Locals) {
      if (Vars.count(VD))
        continue;
      for (const VarDecl *V : llvm::SmallVector<const VarDecl *, 8>(Vars.begin(), Vars.end()))
        if (mentions(Value, V)) {
          Vars.insert(VD);
          Changed = true;
          break;
        }
    }
  }
  return Vars;
}

/// A pointer to a place in a buffer whose offset reads one of Vars:
/// `&host[start * 4]`, `h + off`, `(void *)(d + off)`.
bool offsetByAny(const Expr *E, const llvm::SmallPtrSet<const VarDecl *, 8> &Vars) {
  auto Reads = [&](const Expr *Index) {
    return llvm::any_of(Vars, [&](const VarDecl *V) { return mentions(Index, V); });
  };
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
    const Expr *Sub = UO->getSubExpr()->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
      return Reads(AS->getIdx());
    // `&host[start * 4]` of a std::vector.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return Reads(Op->getArg(1));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) && BO->getType()->isPointerType()) {
    const Expr *Offset = BO->getLHS()->getType()->isPointerType() ? BO->getRHS() : BO->getLHS();
    return Reads(Offset);
  }
  return false;
}

const VarDecl *loopVariable(const Stmt *Loop, ValueTracker &VT) {
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
    return RF->getLoopVariable();
  if (std::optional<Induction> I = inductionOf(Loop, VT))
    return I->Var;
  // Geometric sweeps: `for (n = 1024; n <= N; n *= 2)`, the variable the
  // increment writes.
  const auto *For = dyn_cast<ForStmt>(Loop);
  const Expr *Inc = For ? For->getInc() : nullptr;
  if (!Inc)
    return nullptr;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(Inc->IgnoreParenImpCasts());
      BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(Inc->IgnoreParenImpCasts());
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  const auto *DRE = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The expressions of Call that size the work: an allocation's or copy's
/// byte count, a launch's grid and block.
std::vector<const Expr *> sizingOperands(const CallExpr *Call) {
  std::vector<const Expr *> Out;
  if (std::optional<LaunchSite> L = getLaunchSite(Call)) {
    Out.push_back(L->Grid);
    Out.push_back(L->Block);
    return Out;
  }
  if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
    if (Api->Kind == ApiKind::Alloc || Api->Kind == ApiKind::HostAlloc ||
        Api->Kind == ApiKind::Copy || Api->Kind == ApiKind::CopyAsync ||
        Api->Kind == ApiKind::Memset)
      if (std::optional<unsigned> N = byteCountArgument(Api->Name); N && *N < Call->getNumArgs())
        Out.push_back(Call->getArg(*N));
    return Out;
  }
  if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getIdentifier()) {
    StringRef Name = FD->getName();
    if ((Name == "malloc" || Name == "calloc") && Call->getNumArgs() >= 1)
      for (const Expr *A : Call->arguments())
        Out.push_back(A);
  }
  return Out;
}

} // namespace

const VarDecl *followedLoopVariable(const Expr *E, const Stmt *Loop, ValueTracker &VT) {
  const VarDecl *Var = E && Loop ? loopVariable(Loop, VT) : nullptr;
  if (!Var)
    return nullptr;
  auto Followers = followersOf(Var, Loop);
  return llvm::any_of(Followers, [&](const VarDecl *V) { return mentions(E, V); }) ? Var
                                                                                : nullptr;
}

HotPath::HotPath(ASTContext &Ctx, ValueTracker &VT) : Ctx(Ctx), VT(VT) {}
HotPath::~HotPath() = default;

void HotPath::collectOutermostLoops(const Stmt *S, std::vector<Region> &Out) const {
  if (!S)
    return;
  if (isLoop(S)) {
    Out.push_back(regionOf(S));
    return;
  }
  if (isa<LambdaExpr>(S))
    return; // Its body is a function of its own.
  for (const Stmt *Child : S->children())
    collectOutermostLoops(Child, Out);
}

HotPath::Region HotPath::regionOf(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Region R;
  R.Begin = SM.getExpansionLoc(S->getBeginLoc());
  R.End = SM.getExpansionRange(S->getEndLoc()).getEnd();
  R.BeginLine = SM.getExpansionLineNumber(R.Begin);
  R.EndLine = SM.getExpansionLineNumber(R.End);
  return R;
}

bool HotPath::inside(const Region &R, clang::SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  if (R.Begin.isInvalid() || Loc.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(Loc, R.Begin) && !SM.isBeforeInTranslationUnit(R.End, Loc);
}

void HotPath::build() {
  Built = true;
  std::vector<const FunctionDecl *> All;
  FunctionCollector(All).TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();

  HasMain = llvm::any_of(All, [&](const FunctionDecl *FD) {
    return FD->isMain() && SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
  });
  bool TUMeasuresEvents = false;
  for (const FunctionDecl *FD : All) {
    if (isLibrary(FD, SM))
      continue;
    forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
      if (!isKernel(FD) && getLaunchSite(Call))
        HostLaunches = true;
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getIdentifier() && canonicalApiName(Callee->getName()) == "cudaEventElapsedTime")
          TUMeasuresEvents = true;
    });
  }

  // A user function is a timer when it reads a clock and does no GPU work or
  // looping of its own: `double cpuSecond() { gettimeofday(&tp, 0); ... }`.
  // A clock read for a time stamp (`put_time(localtime(&t), ...)` of a log
  // file's name) measures nothing.
  llvm::SmallPtrSet<const CallExpr *, 4> TimeStamps;
  for (const FunctionDecl *FD : All)
    if (!isLibrary(FD, SM))
      collectTimeStamps(FD->getBody(), TimeStamps);
  auto IsClockCall = [&](const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || TimeStamps.count(Call))
      return false;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && isClockMethod(MD))
      return true;
    if (!Callee->getIdentifier())
      return false;
    StringRef Name = Callee->getName();
    if (isClockFunctionName(Name))
      return true;
    return TUMeasuresEvents && canonicalApiName(Name) == "cudaEventRecord";
  };
  for (const FunctionDecl *FD : All) {
    if (isLibrary(FD, SM) || isKernel(FD))
      continue;
    bool Clock = false, Work = false;
    forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
      if (!Loops.empty() || getLaunchSite(Call) || classifyApiCall(Call))
        Work = true;
      else if (IsClockCall(Call))
        Clock = true;
    });
    if (Clock && !Work)
      TimerFunctions[keyOf(FD)] = true;
  }

  for (const FunctionDecl *FD : All) {
    if (isLibrary(FD, SM))
      continue;
    FunctionFacts F;
    F.Key = keyOf(FD);
    F.Body = regionOf(FD->getBody());
    // Device code reads clock() to time itself, not the program's hot path.
    bool IsTimer = TimerFunctions.count(F.Key) || isDeviceOnly(FD);

    struct TimerCall {
      clang::SourceLocation Loc;
      std::vector<const Stmt *> Loops;
    };
    std::vector<TimerCall> Timers;
    llvm::SmallPtrSet<const Stmt *, 8> SweepLoops, ChunkLoops;
    std::vector<std::vector<const Stmt *>> LaunchNests;
    forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee) {
        CallSites[keyOf(Callee)].push_back(Call->getBeginLoc());
        F.Callees.push_back(keyOf(Callee));
      }
      if (!IsTimer && (IsClockCall(Call) || (Callee && TimerFunctions.count(keyOf(Callee)))))
        Timers.push_back({Call->getBeginLoc(), {Loops.begin(), Loops.end()}});
      std::optional<LaunchSite> Launch = getLaunchSite(Call);
      if (Launch || classifyApiCall(Call))
        F.OwnGpuCalls = true;
      if (Launch && Launch->Kernel)
        F.Kernels.push_back(keyOf(Launch->Kernel));
      else if (Launch)
        F.IndirectLaunch = true;
      if (Launch && Launch->Kernel) {
        KernelLaunch L{Call->getBeginLoc(), std::nullopt, !Loops.empty(), F.Key};
        std::optional<Dim3Value> G = VT.evaluateDim3(Launch->Grid),
                                 B = VT.evaluateDim3(Launch->Block);
        int64_t Product;
        if (G && B && G->total() && B->total() &&
            !llvm::MulOverflow(*G->total(), *B->total(), Product))
          L.Threads = Product;
        Launches[keyOf(Launch->Kernel)].push_back(L);
      }
      if (Loops.empty()) {
        if (Launch)
          F.StraightLaunches.emplace_back(SM.getExpansionLoc(Call->getBeginLoc()),
                                          keyOf(Launch->Kernel));
        return;
      }
      if (Callee)
        F.LoopCalls.emplace_back(SM.getExpansionLoc(Call->getBeginLoc()), keyOf(Callee));
      if (Launch) {
        LaunchNests.emplace_back(Loops.begin(), Loops.end());
        if (const FunctionDecl *K = keyOf(Launch->Kernel))
          F.LoopKernels.push_back(K);
      }
      std::vector<const Expr *> Sizing = sizingOperands(Call);
      if (Sizing.empty())
        return;
      // A copy's byte count (only a copy can walk a buffer in chunks).
      std::optional<ApiInfo> Api = classifyApiCall(Call);
      const Expr *Count = Api && (Api->Kind == ApiKind::Copy || Api->Kind == ApiKind::CopyAsync)
                              ? argAt(Call, byteCountArgument(Api->Name))
                              : nullptr;
      for (const Stmt *Loop : Loops) {
        if (ChunkLoops.count(Loop))
          continue;
        const VarDecl *Var = loopVariable(Loop, VT);
        if (!Var)
          continue;
        auto Followers = followersOf(Var, Loop);
        // A copy from or to a place that moves with the loop: the loop walks
        // a buffer in chunks (the last one shorter), new data each time.
        // Its byte count follows the loop too: a chunk, not one result slot
        // per size (`cudaMemcpy(&results[i], d, sizeof(float), ...)`).
        if (Count && llvm::any_of(Followers, [&](const VarDecl *V) { return mentions(Count, V); }) &&
            llvm::any_of(Call->arguments(), [&](const Expr *A) { return offsetByAny(A, Followers); })) {
          ChunkLoops.insert(Loop);
          continue;
        }
        for (const Expr *E : Sizing)
          if (E && llvm::any_of(Followers, [&](const VarDecl *V) { return mentions(E, V); })) {
            SweepLoops.insert(Loop);
            break;
          }
      }
    });
    for (const Stmt *Loop : ChunkLoops)
      SweepLoops.erase(Loop);
    for (const Stmt *Loop : SweepLoops)
      F.Sweeps.push_back(regionOf(Loop));
    if (!IsTimer) {
      std::vector<const Stmt *> Around;
      size_t Calls = Timers.size();
      forEachTimerConstruction(FD->getBody(), Around,
                               [&](const CXXConstructExpr *CE, ArrayRef<const Stmt *> Loops) {
                                 Timers.push_back({CE->getBeginLoc(), {Loops.begin(), Loops.end()}});
                               });
      if (Timers.size() > Calls)
        llvm::stable_sort(Timers, [&](const TimerCall &A, const TimerCall &B) {
          return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Loc), SM.getExpansionLoc(B.Loc));
        });
    }

    for (const TimerCall &T : Timers)
      F.TimingCalls.push_back(SM.getExpansionLoc(T.Loc));
    if (Timers.size() >= 2) {
      const TimerCall &First = Timers.front(), &Last = Timers.back();
      Region R;
      R.Begin = SM.getExpansionLoc(First.Loc);
      R.End = SM.getExpansionLoc(Last.Loc);
      R.BeginLine = SM.getExpansionLineNumber(R.Begin);
      R.EndLine = SM.getExpansionLineNumber(R.End);
      // The loops around both timing calls repeat the measured work: they are
      // hot too, up to the first loop over problem sizes.
      size_t Common = 0;
      while (Common < First.Loops.size() && Common < Last.Loops.size() &&
             First.Loops[Common] == Last.Loops[Common])
        ++Common;
      const Region Span = R;
      for (size_t I = Common; I-- > 0;) {
        if (SweepLoops.count(First.Loops[I]))
          break;
        R = regionOf(First.Loops[I]);
        if (!F.TimedRepetition)
          F.TimedRepetition = FunctionFacts::Repetition{R, Span};
      }
      // The untimed rest of the repetition loop is set-up or check only when
      // it launches no work: a solver loop after a timed warm-up kernel is
      // the program's work, whatever the clock measures.
      if (const auto &Rep = F.TimedRepetition) {
        bool UntimedWork = false;
        forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
          UntimedWork = UntimedWork || (inside(Rep->Loop, Call->getBeginLoc()) &&
                                        !inside(Rep->Span, Call->getBeginLoc()) &&
                                        callLaunchesWork(Call, 0));
        });
        if (UntimedWork)
          F.TimedRepetition.reset();
      }
      F.Timed.push_back(R);
      // What the region does: a loop of cudaMalloc/cudaFree or of copies
      // alone between the clock reads is a measurement of those calls (an
      // allocator or bandwidth microbenchmark), not a program's hot path.
      bool Api = false, Work = false;
      forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
        if (Work || !inside(R, Call->getBeginLoc()) || IsClockCall(Call) ||
            TimerFunctions.count(keyOf(Call->getDirectCallee())))
          return;
        if (callLaunchesWork(Call, 0))
          Work = true;
        else if (classifyApiCall(Call))
          Api = true;
      });
      F.TimesApiCallsOnly = Api && !Work;
    } else {
      // A microbenchmark's loops: their only GPU work is launches of kernels
      // that time themselves, and they copy at most a few cycle counts.
      llvm::DenseMap<const Stmt *, bool> SelfTimed;
      forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
        std::optional<bool> Only;
        if (std::optional<LaunchSite> L = getLaunchSite(Call))
          Only = L->Kernel && deviceClockReads(L->Kernel, 0) >= 2;
        else if (callLaunchesWork(Call, 0))
          Only = false;
        else if (std::optional<ApiInfo> Api = classifyApiCall(Call);
                 Api && (Api->Kind == ApiKind::Copy || Api->Kind == ApiKind::CopyAsync)) {
          const Expr *N = argAt(Call, byteCountArgument(Api->Name));
          std::optional<int64_t> Bytes = N ? VT.evaluateInt(N) : std::nullopt;
          if (!Bytes || *Bytes > SmallResultBytes)
            Only = false;
        }
        if (Only)
          for (const Stmt *Loop : Loops)
            SelfTimed.try_emplace(Loop, true).first->second &= *Only;
      });
      llvm::SmallPtrSet<const Stmt *, 4> Seen;
      for (const std::vector<const Stmt *> &Nest : LaunchNests)
        for (const Stmt *Loop : Nest)
          if (!SweepLoops.count(Loop)) {
            if (Seen.insert(Loop).second) {
              F.LaunchLoops.push_back(regionOf(Loop));
              if (SelfTimed.lookup(Loop))
                F.SelfTimedLoops.push_back(regionOf(Loop));
            }
            break;
          }
      if (!F.LaunchLoops.empty())
        collectOutermostLoops(FD->getBody(), F.Loops);
    }
    if (isKernel(FD)) {
      std::vector<const Stmt *> Work{FD->getBody()};
      while (!Work.empty()) {
        const Stmt *S = Work.back();
        Work.pop_back();
        if (!S || isa<LambdaExpr>(S))
          continue;
        if (isLoop(S) || isa<CXXForRangeStmt>(S))
          F.KernelLoops.emplace_back(regionOf(S), constantTripCount(S, VT));
        for (const Stmt *C : S->children())
          Work.push_back(C);
      }
    }
    Functions.push_back(std::move(F));
  }
}

namespace {
/// What classifyHostCall does not count as queuing GPU work and a timed
/// region may still launch through: the driver API's launches, and CUTLASS
/// and CuTe, whose device-level operators are class members.
bool launchesOutsideTheRuntime(const FunctionDecl *FD) {
  if (FD->getIdentifier() && (FD->getName().starts_with("cuLaunch") ||
                              FD->getName().starts_with("cuGraphLaunch")))
    return true;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->getIdentifier() &&
        llvm::is_contained({"cutlass", "cute"}, NS->getName()))
      return true;
  return false;
}
} // namespace

bool HotPath::launchesWork(const FunctionDecl *FD, unsigned Depth) {
  FD = keyOf(FD);
  if (!FD)
    return true; // An indirect call: unknown.
  if (launchesOutsideTheRuntime(FD))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  if (isLibrary(FD, SM))
    return false;
  if (auto It = LaunchesWorkMemo.find(FD); It != LaunchesWorkMemo.end())
    return It->second;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || Depth > 4)
    return true; // Defined elsewhere, or too deep: it may launch.
  LaunchesWorkMemo[FD] = false; // Recursion adds nothing.
  bool Work = false;
  forEachCallInLoops(Def->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
    Work = Work || callLaunchesWork(Call, Depth + 1);
  });
  return LaunchesWorkMemo[FD] = Work;
}

bool HotPath::callLaunchesWork(const CallExpr *Call, unsigned Depth) {
  if (getLaunchSite(Call))
    return true;
  // Launches (cudaLaunchKernel, cudaGraphLaunch) and the GPU libraries'
  // work (cuBLAS, cuFFT, ..., Thrust, CUB).
  HostCallKind K = classifyHostCall(Call);
  if (K == HostCallKind::Launch || K == HostCallKind::LibraryWork)
    return true;
  if (classifyApiCall(Call))
    return false; // Another runtime call.
  return launchesWork(Call->getDirectCallee(), Depth);
}

const HotPath::FunctionFacts *HotPath::factsOf(const clang::FunctionDecl *Key) const {
  for (const FunctionFacts &F : Functions)
    if (F.Key == Key)
      return &F;
  return nullptr;
}

/// The innermost body around Loc: of the bodies that hold it, which nest, the
/// one that starts last (a lambda's or a local class's before the function
/// around it). No sort of all the bodies by position: the order of locations
/// in different files and macro expansions is not a strict weak order that
/// std::sort may rely on (nanovdb's headers made a sort of them write out of
/// bounds).
const HotPath::FunctionFacts *HotPath::functionAt(clang::SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionFacts *Best = nullptr;
  for (const FunctionFacts &F : Functions)
    if (inside(F.Body, Loc) &&
        (!Best || SM.isBeforeInTranslationUnit(Best->Body.Begin, F.Body.Begin)))
      Best = &F;
  return Best;
}

/// Code of a kernel whose work is a toy: in a program whose main is in this
/// file, every launch of the kernel has a constant grid and block, sits
/// outside loops in code that runs once, and the loops of the kernel around
/// Loc have constant trip counts, so that Loc runs fewer than 2^20 times per
/// run of the program in all threads together. However it accesses memory
/// or computes, that is at most some tens of microseconds on a GPU that
/// moves terabytes a second (a 64 x 64 stencil launched once, a 40-element
/// demo).
PriorityVerdict HotPath::toySizeVerdict(const FunctionFacts &F, clang::SourceLocation Loc,
                                        unsigned Depth) {
  constexpr int64_t Limit = int64_t(1) << 20;
  if (!HasMain || !isKernel(F.Key))
    return {};
  auto It = Launches.find(F.Key);
  if (It == Launches.end() || It->second.empty())
    return {};
  // Every launch is a direct one: a kernel also launched through
  // cudaLaunchKernel (a call of another function) has fewer call sites than
  // launches.
  if (auto Sites = CallSites.find(F.Key);
      Sites == CallSites.end() || Sites->second.size() != It->second.size())
    return {};
  int64_t Threads = 0;
  for (const KernelLaunch &L : It->second) {
    if (!L.Threads || *L.Threads <= 0 || L.InLoop || !L.Caller || !runsOnce(L.Caller, Depth + 1))
      return {};
    Threads += *L.Threads;
    if (Threads >= Limit)
      return {};
  }
  int64_t Runs = Threads;
  for (const auto &[Loop, Trips] : F.KernelLoops) {
    if (!inside(Loop, Loc))
      continue;
    if (!Trips || *Trips >= Limit)
      return {};
    Runs *= std::max<int64_t>(*Trips, 1); // Both below 2^20: no overflow.
    if (Runs >= Limit)
      return {};
  }
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Line = SM.getExpansionLineNumber(SM.getExpansionLoc(It->second.front().Loc));
  std::string Where = It->second.size() == 1 ? "once (line " + std::to_string(Line) + ")"
                                             : std::to_string(It->second.size()) +
                                                   " times, outside loops (first at line " +
                                                   std::to_string(Line) + ")";
  return {Priority::Cold,
          "a toy size: the kernel is launched " + Where + " with " + std::to_string(Threads) +
              " threads in all, so this code runs " + std::to_string(Runs) +
              " times per run of the program: microseconds, however it is written",
          /*Final=*/true};
}

/// A host function of the whole program that nothing calls or names (an
/// earlier version left beside the one main calls): dead code, its loops
/// included. Not in a file with compiler errors: a call whose arguments
/// Clang could not type (an OpenCV `Mat*` without its header) names nothing.
bool HotPath::isDeadHostFunction(const FunctionFacts &F) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return !isKernel(F.Key) && HasMain && !Ctx.getDiagnostics().hasErrorOccurred() &&
         !F.Key->isMain() && !isa<CXXMethodDecl>(F.Key) &&
         F.Key->getTemplatedKind() == FunctionDecl::TK_NonTemplate && !F.Key->isReferenced() &&
         !F.Key->isExternC() && !F.Key->hasAttr<UsedAttr>() && !F.Key->hasAttr<ConstructorAttr>() &&
         !F.Key->hasAttr<DestructorAttr>() &&
         llvm::all_of(F.Key->redecls(), [&](const FunctionDecl *D) {
           return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
         });
}

PriorityVerdict HotPath::verdictIn(const FunctionFacts &F, clang::SourceLocation Loc, unsigned Depth) {
  if (isDeadHostFunction(F))
    return {Priority::Cold, DeadHostFunction};
  // Only for code of the kernel itself (Depth 0): at a call site on behalf of
  // a __device__ helper, the helper's own loops are not counted.
  if (Depth == 0)
    if (PriorityVerdict Toy = toySizeVerdict(F, Loc, Depth); Toy.Level == Priority::Cold)
      return Toy;
  // `for (r = 0; r < repeats; ++r) { upload; start; kernels; stop; check; }`:
  // what each repetition leaves out of its timing is its set-up or check.
  if (const auto &Rep = F.TimedRepetition;
      Rep && inside(Rep->Loop, Loc) && !inside(Rep->Span, Loc) && !F.TimesApiCallsOnly)
    return {Priority::Cold, "in the loop at line " + std::to_string(Rep->Loop.BeginLine) +
                                ", which times only lines " + std::to_string(Rep->Span.BeginLine) +
                                "-" + std::to_string(Rep->Span.EndLine) +
                                " of each repetition: the rest is its set-up or check"};
  for (const Region &T : F.Timed) {
    if (inside(T, Loc) && F.TimesApiCallsOnly)
      return {Priority::Cold,
              "inside the timed region (lines " + std::to_string(T.BeginLine) + "-" +
                  std::to_string(T.EndLine) +
                  "), which launches no kernel: it measures these CUDA calls themselves",
              /*Final=*/true};
    if (inside(T, Loc))
      return {Priority::Hot, "inside the timed region (lines " + std::to_string(T.BeginLine) + "-" +
                                 std::to_string(T.EndLine) + ")"};
  }
  // A loop calling a function that times itself (a benchmark's passes, a
  // test's repetitions): each iteration is a whole timed run, whose own
  // timers say what is measured; hoisting what the call does out of this
  // loop is not a saving of the program.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &[CallLoc, Callee] : F.LoopCalls)
    if (CallLoc == SM.getExpansionLoc(Loc))
      if (std::string How = timedRun(Callee, 0); !How.empty())
        return {Priority::Cold,
                "repeats '" + Callee->getNameAsString() + "', which times one run itself (" + How +
                    "): each iteration is a whole timed run",
                /*Final=*/true};
  for (const Region &S : F.Sweeps)
    if (inside(S, Loc) && llvm::none_of(F.LaunchLoops, [&](const Region &L) {
          // A repetition loop inside the sweep is the measured work of each size.
          return inside(L, Loc) && inside(S, L.Begin) && !(L.Begin == S.Begin);
        }))
      return {Priority::Cold,
              "in a loop over problem sizes or launch configurations (line " +
                  std::to_string(S.BeginLine) + ")"};
  if (PriorityVerdict V = straightLineVerdict(F, Loc, Depth); V.Level == Priority::Cold)
    return V;
  for (const Region &T : F.Timed) {
    std::string Lines = "(lines " + std::to_string(T.BeginLine) + "-" + std::to_string(T.EndLine) + ")";
    if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loc), T.Begin))
      return {Priority::Cold, "before the timed region " + Lines + ": set-up or warm-up"};
    return {Priority::Cold, "after the timed region " + Lines + ": verification or clean-up"};
  }
  // A microbenchmark's loop (its warm-up, its repetitions) whose kernels
  // time themselves in cycles: what the host does between the launches
  // (a wait, a copy of the result) is outside every measurement. The
  // launches themselves keep their priority: their kernels are the work.
  clang::SourceLocation At = SM.getExpansionLoc(Loc);
  bool Launch = llvm::any_of(F.LoopCalls, [&](const auto &C) { return C.first == At && isKernel(C.second); });
  for (const Region &L : F.SelfTimedLoops)
    if (inside(L, Loc) && !Launch)
      return {Priority::Cold, "in the loop at line " + std::to_string(L.BeginLine) +
                                  ", whose only GPU work is kernels that read the GPU's clock at "
                                  "the start and the end of what they measure: what the host does "
                                  "between launches is outside the measurement"};
  for (const Region &L : F.LaunchLoops)
    if (inside(L, Loc))
      return {Priority::Hot, "in the loop at line " + std::to_string(L.BeginLine) +
                                 ", which launches the program's kernels"};
  return functionVerdict(F, Depth);
}

unsigned HotPath::deviceClockReads(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD || Depth > 3 || !FD->hasBody(Def) || !Def || isLibrary(Def, Ctx.getSourceManager()))
    return 0;
  unsigned Reads = 0;
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    // A loop's condition reading the clock waits (a spin-wait, a
    // timeout): it measures nothing. Its body still counts.
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Work.push_back(W->getBody());
      continue;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      Work.push_back(D->getBody());
      continue;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      Work.push_back(F->getInit());
      Work.push_back(F->getBody());
      continue;
    }
    // So does an `if` reading it (`if (clock64() - start > timeout) break;`).
    if (const auto *I = dyn_cast<IfStmt>(S)) {
      Work.push_back(I->getThen());
      Work.push_back(I->getElse());
      continue;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      StringRef Text = Asm->getAsmString()->getString();
      if (Text.contains("%clock") || Text.contains("%globaltimer"))
        ++Reads;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        StringRef Name = Callee->getIdentifier() ? Callee->getName() : StringRef();
        if (llvm::is_contained({"clock", "clock64", "__clock64", "__globaltimer"}, Name))
          ++Reads;
        else if (Callee != FD)
          Reads += deviceClockReads(Callee, Depth + 1);
      }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Reads;
}

/// A benchmark's run: the function times what it does with host timers, or
/// launches a kernel that reads the GPU's clock at the start and the end of
/// what it measures (a microbenchmark timing itself in cycles), or only
/// forwards to such a function (a dispatcher over template specializations,
/// a wrapper that checks the result), a few levels down.
std::string HotPath::timedRun(const FunctionDecl *Key, unsigned Depth) {
  const FunctionFacts *F = factsOf(Key);
  if (!F || Depth > 3)
    return {};
  std::string Where = Depth ? "in '" + Key->getNameAsString() + "', " : std::string();
  if (!F->Timed.empty())
    return Where + "lines " + std::to_string(F->Timed.front().BeginLine) + "-" +
           std::to_string(F->Timed.front().EndLine);
  // Every kernel it launches times itself (a simulation step's one kernel
  // with a timeout is no benchmark's run).
  if (!F->Kernels.empty() && !F->IndirectLaunch &&
      llvm::all_of(F->Kernels,
                   [&](const FunctionDecl *K) { return K && deviceClockReads(K, 0) >= 2; }))
    return Where + "its kernel '" + F->Kernels.front()->getNameAsString() +
           "' reads the GPU's clock at the start and the end of what it measures";
  if (F->IndirectLaunch) {
    if (!AllKernelsTimeThemselves) {
      unsigned Kernels = 0;
      bool All = true;
      for (const FunctionFacts &G : Functions)
        if (isKernel(G.Key)) {
          ++Kernels;
          All = All && deviceClockReads(G.Key, 0) >= 2;
        }
      AllKernelsTimeThemselves = Kernels > 0 && All;
    }
    if (*AllKernelsTimeThemselves)
      return Where + "it launches a kernel through a pointer, and every kernel of this file "
                     "reads the GPU's clock at the start and the end of what it measures";
  }
  if (F->OwnGpuCalls)
    return {};
  // A forwarder: every callee that makes CUDA calls is a timed run (a
  // dispatcher over specializations, a wrapper checking the result); a step
  // that uploads through one helper and times a kernel in another is none.
  std::function<bool(const FunctionDecl *, unsigned)> CallsCuda = [&](const FunctionDecl *G,
                                                                     unsigned D) {
    const FunctionFacts *GF = factsOf(G);
    if (!GF)
      return launchesWork(G, 0); // Defined elsewhere: it may.
    if (GF->OwnGpuCalls)
      return true;
    return D < 3 && llvm::any_of(GF->Callees, [&](const FunctionDecl *H) {
             return H && H != G && CallsCuda(H, D + 1);
           });
  };
  std::string First;
  for (const FunctionDecl *C : F->Callees) {
    if (!C || C == Key || !CallsCuda(C, 0))
      continue;
    std::string How = timedRun(C, Depth + 1);
    if (How.empty())
      return {};
    if (First.empty())
      First = std::move(How);
  }
  return First;
}

PriorityVerdict HotPath::functionVerdict(const FunctionFacts &F, unsigned Depth) {
  if (auto It = Memo.find(F.Key); It != Memo.end())
    return It->second;
  if (Depth > MaxDepth || InProgress.lookup(F.Key))
    return {};
  auto It = CallSites.find(F.Key);
  if (It == CallSites.end() || It->second.empty()) {
    // A kernel that no code of this file launches or names (a tutorial's
    // earlier step whose launch sits in `#if 0`, a layer's earlier version
    // whose launch is commented out) never runs when no other file can
    // launch it: the whole program is here (main is in this file), or the
    // file's host code launches other kernels and no header declares this
    // one (an extern "C" kernel may be loaded by name, from Python or a
    // module). Templates are left alone (their pattern is not what a launch
    // refers to).
    if (isKernel(F.Key) && F.Key->getTemplatedKind() == FunctionDecl::TK_NonTemplate &&
        !F.Key->isReferenced()) {
      if (HasMain)
        return Memo[F.Key] = {Priority::Cold, "a kernel that this program never launches (main "
                                              "is in this file, and no code of it launches or "
                                              "names the kernel)"};
      const SourceManager &SM = Ctx.getSourceManager();
      if (HostLaunches && !F.Key->isExternC() &&
          llvm::all_of(F.Key->redecls(), [&](const FunctionDecl *D) {
            return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
          }))
        return Memo[F.Key] = {Priority::Cold, "a kernel that nothing launches (this file's host "
                                              "code launches other kernels, not this one, and "
                                              "no header declares it for another file)"};
    }
    return Memo[F.Key] = {};
  }
  InProgress[F.Key] = true;
  bool AllCold = true;
  PriorityVerdict Result, FirstCold;
  const SourceManager &SM = Ctx.getSourceManager();
  for (clang::SourceLocation Site : It->second) {
    const FunctionFacts *Caller = functionAt(Site);
    if (!Caller || Caller->Key == F.Key) {
      AllCold = false;
      continue;
    }
    PriorityVerdict V = verdictIn(*Caller, Site, Depth + 1);
    std::string Line = std::to_string(SM.getExpansionLineNumber(SM.getExpansionLoc(Site)));
    if (V.Level == Priority::Hot) {
      Result = {Priority::Hot, "called from line " + Line + ", " + V.Reason};
      AllCold = false;
      break;
    }
    if (V.Level != Priority::Cold)
      AllCold = false;
    else if (FirstCold.Reason.empty())
      FirstCold = {Priority::Cold, "only called off the hot path (line " + Line + ", " + V.Reason + ")"};
  }
  InProgress[F.Key] = false;
  if (Result.Level != Priority::Hot && AllCold)
    Result = FirstCold;
  return Memo[F.Key] = Result;
}

/// In a function that runs once and has no timing calls, whose loops launch
/// the program's kernels, the code outside every loop runs once around those
/// iterations: set-up before them, results and clean-up after. A launch
/// there of a kernel that the loops launch too is a run of the same work (a
/// first or last step), and keeps its priority.
PriorityVerdict HotPath::straightLineVerdict(const FunctionFacts &F, clang::SourceLocation Loc,
                                             unsigned Depth) {
  if (F.LaunchLoops.empty() || !F.Timed.empty())
    return {};
  if (llvm::any_of(F.Loops, [&](const Region &L) { return inside(L, Loc); }))
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(Loc);
  for (const auto &[LaunchLoc, Kernel] : F.StraightLaunches)
    if (LaunchLoc == At && (!Kernel || llvm::is_contained(F.LoopKernels, Kernel)))
      return {};
  if (!runsOnce(F.Key, Depth + 1))
    return {};
  const Region &First = F.LaunchLoops.front(), &Last = F.LaunchLoops.back();
  std::string Tail = " that launches the program's kernels, in code that runs once: ";
  if (SM.isBeforeInTranslationUnit(At, First.Begin))
    return {Priority::Cold, "before the loop at line " + std::to_string(First.BeginLine) + Tail + "set-up"};
  if (SM.isBeforeInTranslationUnit(Last.End, At))
    return {Priority::Cold, "after the loop at line " + std::to_string(Last.BeginLine) + Tail +
                                "results or clean-up"};
  return {Priority::Cold, "between the loops at lines " + std::to_string(First.BeginLine) + " and " +
                              std::to_string(Last.BeginLine) +
                              " that launch the program's kernels, in code that runs once"};
}

bool HotPath::runsOnce(const FunctionDecl *FD) {
  if (!Built)
    build();
  return FD && runsOnce(keyOf(FD), 0);
}

bool HotPath::runsOnce(const FunctionDecl *Key, unsigned Depth) {
  if (Key->isMain())
    return true;
  if (auto It = RunsOnceMemo.find(Key); It != RunsOnceMemo.end())
    return It->second;
  if (Depth > MaxDepth)
    return false;
  RunsOnceMemo[Key] = false; // Recursion runs more than once.
  auto Sites = CallSites.find(Key);
  if (Sites == CallSites.end() || Sites->second.empty())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  for (clang::SourceLocation Site : Sites->second) {
    const FunctionFacts *Caller = functionAt(Site);
    if (!Caller || !Caller->Key)
      return false;
    clang::SourceLocation At = SM.getExpansionLoc(Site);
    if (llvm::any_of(Caller->LoopCalls, [&](const auto &C) { return C.first == At; }))
      return false;
    if (!runsOnce(Caller->Key, Depth + 1))
      return false;
  }
  return RunsOnceMemo[Key] = true;
}

bool isTestCodePath(StringRef Path) {
  StringRef File = llvm::sys::path::filename(Path);
  StringRef Dir = llvm::sys::path::filename(llvm::sys::path::parent_path(Path));
  std::string D = Dir.lower();
  if (llvm::is_contained({"test", "tests", "testing", "unittest", "unittests", "unit_tests"},
                         D))
    return true;
  std::string Stem = llvm::sys::path::stem(File).lower();
  StringRef S(Stem);
  return S.starts_with("test_") || S.ends_with("_test") || S.ends_with("_tests") ||
         S.ends_with("_unittest");
}

const Stmt *HotPath::timedSweepOver(const CallExpr *Call, const Expr *Arg) {
  if (!Built)
    build();
  const FunctionFacts *F = Call && Arg ? functionAt(Call->getBeginLoc()) : nullptr;
  // The function runs once (a benchmark's driver, not a step the program
  // repeats and times for a log).
  if (!F || F->TimingCalls.size() < 2 || !runsOnce(F->Key))
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(Call->getBeginLoc());
  // The loops around the call, innermost first, up to its function.
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 64; ++Depth) {
    const Stmt *S = Parents[0].get<Stmt>();
    if (!S)
      break;
    if (isLoop(S) || isa<CXXForRangeStmt>(S)) {
      Region L = regionOf(S);
      bool Before = false, After = false;
      for (clang::SourceLocation T : F->TimingCalls)
        if (inside(L, T)) {
          Before = Before || SM.isBeforeInTranslationUnit(T, At);
          After = After || SM.isBeforeInTranslationUnit(At, T);
        }
      // A loop over problem sizes (its variable sizes an allocation, a copy
      // or the grid) changes what is computed, not how it is accessed.
      bool SizeSweep = llvm::any_of(F->Sweeps, [&](const Region &W) { return W.Begin == L.Begin; });
      if (Before && After && !SizeSweep && followedLoopVariable(Arg, S, VT))
        return S;
    }
    Parents = Ctx.getParents(*S);
  }
  return nullptr;
}

PriorityVerdict HotPath::classify(clang::SourceLocation Loc) {
  if (!Built)
    build();
  if (Loc.isInvalid())
    return {};
  // A test's speed is nobody's cost: findings there are notes.
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))))
    if (isTestCodePath(FE->getName()))
      return {Priority::Cold, "in test code (" + llvm::sys::path::filename(FE->getName()).str() +
                                  "): a test's speed is not the program's",
              true};
  const FunctionFacts *F = functionAt(Loc);
  if (!F)
    return {};
  return verdictIn(*F, Loc, 0);
}

} // namespace cuda_advisor::analysis
