//===- Stacks.cpp - Host call stacks and the module map -------------------===//
#include "Stacks.h"

#include "JsonLine.h"
#include "cuda-advisor/Collector/Environment.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <cstring>
#include <elf.h>
#include <pthread.h>
#include <unistd.h>
#include <unwind.h>

namespace cuda_advisor::collector {

namespace {

const char *baseName(const char *Path) {
  const char *Slash = std::strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

bool startsWith(const char *S, const char *Prefix) {
  return std::strncmp(S, Prefix, std::strlen(Prefix)) == 0;
}

/// The CUDA libraries whose frames sit between the program and the collector
/// when CUPTI calls back: nobody wants them as a call site.
bool isCudaLibrary(const char *Path) {
  const char *B = baseName(Path);
  return startsWith(B, "libcuda.so") || startsWith(B, "libcupti.so") ||
         startsWith(B, "libcudart.so");
}

} // namespace

struct StackWalker::InitState {
  StackWalker *Walker;
  uintptr_t Self;
};

int StackWalker::onObject(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *St = static_cast<InitState *>(Data);
  StackWalker &W = *St->Walker;
  const char *Name = Info->dlpi_name ? Info->dlpi_name : "";
  bool Skip = isCudaLibrary(Name);
  if (!Skip) { // Is it the collector itself?
    for (int I = 0; I < Info->dlpi_phnum; ++I) {
      const ElfW(Phdr) &P = Info->dlpi_phdr[I];
      uintptr_t Begin = Info->dlpi_addr + P.p_vaddr;
      if (P.p_type == PT_LOAD && St->Self >= Begin && St->Self < Begin + P.p_memsz)
        Skip = true;
    }
  }
  if (!Skip)
    return 0;
  for (int I = 0; I < Info->dlpi_phnum && W.NumRanges < MaxRanges; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_X))
      continue;
    uintptr_t Begin = Info->dlpi_addr + P.p_vaddr;
    W.Ranges[W.NumRanges++] = {Begin, Begin + P.p_memsz};
  }
  return 0;
}

void StackWalker::init(const void *SelfAddress) {
  if (!Slots)
    Slots = static_cast<Slot *>(std::calloc(NumSlots, sizeof(Slot)));
  NumRanges = 0;
  InitState St{this, reinterpret_cast<uintptr_t>(SelfAddress)};
  dl_iterate_phdr(&StackWalker::onObject, &St);
}

bool StackWalker::isSkipped(uintptr_t Address) const {
  for (size_t I = 0; I < NumRanges; ++I)
    if (Address >= Ranges[I].Begin && Address < Ranges[I].End)
      return true;
  return false;
}

//===-- The slow path: libgcc ---------------------------------------------===//

namespace {
struct WalkState {
  const StackWalker *Walker;
  uintptr_t *Frames;
  size_t Count;
  size_t Max;
  bool SkippedOwn;
};

_Unwind_Reason_Code onFrame(struct _Unwind_Context *Context, void *Data) {
  auto *St = static_cast<WalkState *>(Data);
  uintptr_t IP = _Unwind_GetIP(Context);
  if (IP == 0)
    return _URC_END_OF_STACK;
  // The first frame is captureSlow's own (where it called _Unwind_Backtrace).
  if (!St->SkippedOwn) {
    St->SkippedOwn = true;
    return _URC_NO_REASON;
  }
  // Drop the leading frames inside the collector and the CUDA libraries; keep
  // everything from the first frame of the program on (also CUDA frames
  // further out, e.g. a host callback).
  if (St->Count == 0 && St->Walker->isSkipped(IP))
    return _URC_NO_REASON;
  St->Frames[St->Count++] = IP;
  return St->Count >= St->Max ? _URC_END_OF_STACK : _URC_NO_REASON;
}
} // namespace

size_t StackWalker::captureSlow(uintptr_t *Frames, size_t Max) const {
  if (Max == 0)
    return 0;
  WalkState St{this, Frames, 0, Max, false};
  _Unwind_Backtrace(&onFrame, &St);
  return St.Count;
}

//===-- The fast path: cached unwind rules ---------------------------------===//
//
// x86-64 only. A rule says, for one return address, how to get the caller's
// frame from the callee's registers: CFA = RSP or RBP + offset; the return
// address is stored at CFA + RaOffset; RBP is unchanged or stored at CFA +
// RbpOffset. Packed into 64 bits so that a slot is two atomic words:
//   bits 0-2  kind: RspBased, RbpBased, EndOfStack, Unsupported (0: none)
//   bits 3-4  RBP: same, saved, undefined
//   bits 8-39 CFA offset (int32), 40-55 RBP offset (int16), 56-63 RA offset (int8)

extern "C" {
struct dwarf_eh_bases {
  void *tbase;
  void *dbase;
  void *func;
};
// Exported by libgcc_s (GCC_3.0): the FDE covering Pc, and the start of its function.
const void *_Unwind_Find_FDE(void *Pc, struct dwarf_eh_bases *Bases);
}

namespace {

/// RbpDerefBased: the CFA is loaded from rbp + offset, as GCC's stack
/// realignment with a DRAP register (`DW_CFA_def_cfa_expression: DW_OP_breg6
/// (rbp): -40; DW_OP_deref`) says; cuBLASLt's kernels launch from such frames.
enum RuleKind : uint64_t {
  NoRule = 0,
  RspBased = 1,
  RbpBased = 2,
  EndOfStack = 3,
  Unsupported = 4,
  RbpDerefBased = 5
};
/// RbpSaved: the caller's rbp is at CFA + offset; RbpAtRbp: at this frame's
/// rbp + offset (`DW_CFA_expression: r6 (DW_OP_breg6 (rbp): 0)`, DRAP frames).
enum RbpKind : uint64_t { RbpSame = 0, RbpSaved = 1, RbpUndefined = 2, RbpAtRbp = 3 };

uint64_t packRule(RuleKind Kind, RbpKind Rbp = RbpSame, int32_t Cfa = 0, int16_t RbpOff = 0,
                  int8_t RaOff = 0) {
  return uint64_t(Kind) | (uint64_t(Rbp) << 3) | (uint64_t(uint32_t(Cfa)) << 8) |
         (uint64_t(uint16_t(RbpOff)) << 40) | (uint64_t(uint8_t(RaOff)) << 56);
}
RuleKind ruleKind(uint64_t R) { return RuleKind(R & 7); }
RbpKind ruleRbp(uint64_t R) { return RbpKind((R >> 3) & 3); }
int32_t ruleCfa(uint64_t R) { return int32_t(uint32_t(R >> 8)); }
int16_t ruleRbpOffset(uint64_t R) { return int16_t(uint16_t(R >> 40)); }
int8_t ruleRaOffset(uint64_t R) { return int8_t(uint8_t(R >> 56)); }

constexpr unsigned RegRbp = 6, RegRsp = 7;

/// A reader over DWARF call frame information, failing softly: any read past
/// the end sets Bad.
struct Cursor {
  const uint8_t *P, *End;
  bool Bad = false;
  uint8_t u8() {
    if (P >= End) {
      Bad = true;
      return 0;
    }
    return *P++;
  }
  uint64_t fixed(unsigned Bytes) {
    if (size_t(End - P) < Bytes) {
      Bad = true;
      P = End;
      return 0;
    }
    uint64_t V = 0;
    std::memcpy(&V, P, Bytes); // Little-endian.
    P += Bytes;
    return V;
  }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      uint8_t B = u8();
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80) || Bad)
        return V;
    }
    Bad = true;
    return V;
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B = 0;
    do {
      B = u8();
      V |= int64_t(B & 0x7f) << Shift;
      Shift += 7;
    } while ((B & 0x80) && Shift < 64 && !Bad);
    if (Shift < 64 && (B & 0x40))
      V |= -(int64_t(1) << Shift);
    return V;
  }
  /// Skips a value in pointer encoding Enc (DW_EH_PE_*).
  void skipEncoded(uint8_t Enc) {
    if (Enc == 0xff) // omit
      return;
    switch (Enc & 0x0f) {
    case 0x00: // absptr
    case 0x04: // udata8
    case 0x0c: // sdata8
      fixed(8);
      return;
    case 0x01:
      uleb();
      return;
    case 0x09:
      sleb();
      return;
    case 0x02:
    case 0x0a:
      fixed(2);
      return;
    case 0x03:
    case 0x0b:
      fixed(4);
      return;
    default:
      Bad = true;
    }
  }
};

struct RegRule {
  /// AtRbp: saved at rbp + Off (a DW_CFA_expression of DW_OP_breg6 alone).
  enum Kind : uint8_t { Same, Undefined, Offset, AtRbp, Other } K = Same;
  int64_t Off = 0;
};

struct CfiState {
  unsigned CfaReg = RegRsp;
  int64_t CfaOffset = 8;
  bool CfaExpression = false; ///< One the fast path cannot evaluate.
  bool CfaDerefRbp = false;   ///< CFA = *(rbp + CfaOffset).
  RegRule Rbp, Ra;
};

/// Reads a DWARF expression that is DW_OP_breg6 (rbp) OFFSET, optionally
/// followed by DW_OP_deref; the two forms of GCC's DRAP frames.
bool rbpExpression(const uint8_t *P, uint64_t Len, int64_t &Off, bool &Deref) {
  if (Len < 2 || P[0] != 0x76) // DW_OP_breg6
    return false;
  Cursor E{P + 1, P + Len};
  Off = E.sleb();
  if (E.Bad)
    return false;
  Deref = false;
  if (E.P < E.End && *E.P == 0x06) { // DW_OP_deref
    Deref = true;
    ++E.P;
  }
  return E.P == E.End;
}

struct CfiProgram {
  uint64_t CodeAlign = 1;
  int64_t DataAlign = -8;
  unsigned RaReg = 16;
  CfiState Initial;
};

/// Runs CFI instructions [P, End) from location Loc until the row that
/// covers Target is reached. Returns false for instructions it does not know.
bool runCfi(const CfiProgram &Prog, Cursor C, CfiState &S, uintptr_t Loc, uintptr_t Target) {
  CfiState Saved[8];
  unsigned Depth = 0;
  auto SetRule = [&](uint64_t Reg, RegRule R) {
    if (Reg == RegRbp)
      S.Rbp = R;
    else if (Reg == Prog.RaReg)
      S.Ra = R;
  };
  auto Restore = [&](uint64_t Reg) {
    if (Reg == RegRbp)
      S.Rbp = Prog.Initial.Rbp;
    else if (Reg == Prog.RaReg)
      S.Ra = Prog.Initial.Ra;
  };
  // Returns true when the new row starts past Target: S is the answer.
  auto Advance = [&](uint64_t Delta) {
    uintptr_t Next = Loc + Delta * Prog.CodeAlign;
    if (Next > Target)
      return true;
    Loc = Next;
    return false;
  };
  while (C.P < C.End && !C.Bad) {
    uint8_t Op = C.u8();
    uint8_t Low = Op & 0x3f;
    switch (Op & 0xc0) {
    case 0x40: // DW_CFA_advance_loc
      if (Advance(Low))
        return true;
      continue;
    case 0x80: // DW_CFA_offset
      SetRule(Low, {RegRule::Offset, int64_t(C.uleb()) * Prog.DataAlign});
      continue;
    case 0xc0: // DW_CFA_restore
      Restore(Low);
      continue;
    default:
      break;
    }
    switch (Op) {
    case 0x00: // nop
      break;
    case 0x02: // advance_loc1
      if (Advance(C.fixed(1)))
        return true;
      break;
    case 0x03: // advance_loc2
      if (Advance(C.fixed(2)))
        return true;
      break;
    case 0x04: // advance_loc4
      if (Advance(C.fixed(4)))
        return true;
      break;
    case 0x05: { // offset_extended
      uint64_t Reg = C.uleb();
      SetRule(Reg, {RegRule::Offset, int64_t(C.uleb()) * Prog.DataAlign});
      break;
    }
    case 0x06: // restore_extended
      Restore(C.uleb());
      break;
    case 0x07: // undefined
      SetRule(C.uleb(), {RegRule::Undefined, 0});
      break;
    case 0x08: // same_value
      SetRule(C.uleb(), {RegRule::Same, 0});
      break;
    case 0x09: { // register
      uint64_t Reg = C.uleb();
      C.uleb();
      SetRule(Reg, {RegRule::Other, 0});
      break;
    }
    case 0x0a: // remember_state
      if (Depth == 8)
        return false;
      Saved[Depth++] = S;
      break;
    case 0x0b: // restore_state
      if (Depth == 0)
        return false;
      S = Saved[--Depth]; // The CFA rule too, as GCC's unwinder does.
      break;
    case 0x0c: // def_cfa
      S.CfaReg = unsigned(C.uleb());
      S.CfaOffset = int64_t(C.uleb());
      S.CfaExpression = S.CfaDerefRbp = false;
      break;
    case 0x0d: // def_cfa_register
      S.CfaReg = unsigned(C.uleb());
      S.CfaExpression = S.CfaDerefRbp = false;
      break;
    case 0x0e: // def_cfa_offset
      S.CfaOffset = int64_t(C.uleb());
      break;
    case 0x0f: { // def_cfa_expression
      uint64_t Len = C.uleb();
      if (C.Bad || uint64_t(C.End - C.P) < Len)
        return false;
      int64_t Off = 0;
      bool Deref = false;
      if (rbpExpression(C.P, Len, Off, Deref) && Deref) {
        S.CfaDerefRbp = true;
        S.CfaExpression = false;
        S.CfaReg = RegRbp;
        S.CfaOffset = Off;
      } else {
        S.CfaExpression = true;
        S.CfaDerefRbp = false;
      }
      C.P += Len;
      break;
    }
    case 0x10: // expression
    case 0x16: { // val_expression
      uint64_t Reg = C.uleb();
      uint64_t Len = C.uleb();
      if (C.Bad || uint64_t(C.End - C.P) < Len)
        return false;
      int64_t Off = 0;
      bool Deref = false;
      // "rbp was saved at rbp + Off" (DRAP frames); anything else is opaque.
      if (Op == 0x10 && rbpExpression(C.P, Len, Off, Deref) && !Deref)
        SetRule(Reg, {RegRule::AtRbp, Off});
      else
        SetRule(Reg, {RegRule::Other, 0});
      C.P += Len;
      break;
    }
    case 0x11: { // offset_extended_sf
      uint64_t Reg = C.uleb();
      SetRule(Reg, {RegRule::Offset, C.sleb() * Prog.DataAlign});
      break;
    }
    case 0x12: // def_cfa_sf
      S.CfaReg = unsigned(C.uleb());
      S.CfaOffset = C.sleb() * Prog.DataAlign;
      S.CfaExpression = false;
      break;
    case 0x13: // def_cfa_offset_sf
      S.CfaOffset = C.sleb() * Prog.DataAlign;
      break;
    case 0x14: // val_offset
    case 0x15: { // val_offset_sf
      uint64_t Reg = C.uleb();
      if (Op == 0x14)
        C.uleb();
      else
        C.sleb();
      SetRule(Reg, {RegRule::Other, 0});
      break;
    }
    case 0x2e: // GNU_args_size
      C.uleb();
      break;
    case 0x2f: { // GNU_negative_offset_extended
      uint64_t Reg = C.uleb();
      SetRule(Reg, {RegRule::Offset, -int64_t(C.uleb()) * Prog.DataAlign});
      break;
    }
    default: // DW_CFA_set_loc and vendor extensions.
      return false;
    }
  }
  return !C.Bad;
}

/// The rule for the frame whose return address is ReturnAddress.
uint64_t unsupported(const char **Why, const char *Reason) {
  if (Why)
    *Why = Reason;
  return packRule(Unsupported);
}

uint64_t computeRule(uintptr_t ReturnAddress, const char **Why = nullptr) {
  uintptr_t Pc = ReturnAddress - 1; // Inside the call instruction.
  dwarf_eh_bases Bases{};
  const auto *Fde = static_cast<const uint8_t *>(_Unwind_Find_FDE(reinterpret_cast<void *>(Pc), &Bases));
  if (!Fde)
    return unsupported(Why, "no FDE (code without unwind tables)");
  uint32_t FdeLength;
  std::memcpy(&FdeLength, Fde, 4);
  if (FdeLength == 0 || FdeLength == 0xffffffffu)
    return unsupported(Why, "FDE length 0 or 64-bit");
  Cursor F{Fde + 4, Fde + 4 + FdeLength};
  int32_t CieOffset = int32_t(uint32_t(F.fixed(4)));
  const uint8_t *Cie = Fde + 4 - CieOffset;
  uint32_t CieLength;
  std::memcpy(&CieLength, Cie, 4);
  if (CieLength == 0 || CieLength == 0xffffffffu)
    return unsupported(Why, "CIE length 0 or 64-bit");
  Cursor C{Cie + 4, Cie + 4 + CieLength};
  if (C.fixed(4) != 0) // CIE id.
    return unsupported(Why, "not a CIE");
  uint8_t Version = C.u8();
  const char *Aug = reinterpret_cast<const char *>(C.P);
  size_t AugLen = strnlen(Aug, size_t(C.End - C.P));
  C.P += AugLen + 1;
  if (std::strstr(Aug, "eh"))
    C.fixed(sizeof(void *));
  CfiProgram Prog;
  Prog.CodeAlign = C.uleb();
  Prog.DataAlign = C.sleb();
  Prog.RaReg = unsigned(Version == 1 ? C.u8() : C.uleb());
  uint8_t FdeEncoding = 0x00;
  if (Aug[0] == 'z') {
    uint64_t Len = C.uleb();
    Cursor A{C.P, C.P + Len};
    if (uint64_t(C.End - C.P) < Len)
      return unsupported(Why, "CIE augmentation data too long");
    C.P += Len;
    for (const char *Ch = Aug + 1; *Ch; ++Ch) {
      if (*Ch == 'R') {
        FdeEncoding = A.u8();
      } else if (*Ch == 'P') {
        uint8_t Enc = A.u8();
        A.skipEncoded(Enc);
      } else if (*Ch == 'L') {
        A.u8();
      } else if (*Ch == 'B') {
        // AArch64 pointer authentication: no effect on x86-64 rules.
      } else {
        return unsupported(Why, "CIE augmentation S (signal frame) or unknown"); // 'S' (signal frame) and unknown ones.
      }
    }
  } else if (Aug[0] != '\0') {
    return unsupported(Why, "CIE augmentation not z...");
  }
  if (C.Bad || Prog.CodeAlign == 0)
    return unsupported(Why, "bad CIE");
  // The CIE's initial instructions set the rules at the function's entry.
  Prog.Initial.Ra = {RegRule::Same, 0};
  if (!runCfi(Prog, C, Prog.Initial, 0, UINTPTR_MAX))
    return unsupported(Why, "CIE instructions not understood");
  // The FDE: pc_begin, pc_range, augmentation data, then instructions.
  F.skipEncoded(FdeEncoding);
  F.skipEncoded(FdeEncoding & 0x0f);
  if (Aug[0] == 'z') {
    uint64_t Len = F.uleb();
    if (uint64_t(F.End - F.P) < Len)
      return unsupported(Why, "FDE augmentation data too long");
    F.P += Len;
  }
  if (F.Bad)
    return unsupported(Why, "bad FDE");
  CfiState S = Prog.Initial;
  if (!runCfi(Prog, F, S, reinterpret_cast<uintptr_t>(Bases.func), Pc))
    return unsupported(Why, "FDE instructions not understood");

  if (S.Ra.K == RegRule::Undefined)
    return packRule(EndOfStack);
  if (S.CfaExpression)
    return unsupported(Why, "CFA is a DWARF expression");
  if (S.CfaReg != RegRsp && S.CfaReg != RegRbp)
    return unsupported(Why, "CFA is based on a register other than rsp and rbp");
  if (S.Ra.K != RegRule::Offset)
    return unsupported(Why, "return address not saved at an offset from the CFA");
  if (S.Rbp.K == RegRule::Other)
    return unsupported(Why, "rbp saved by an expression or in a register");
  if (S.Rbp.K == RegRule::AtRbp && !S.CfaDerefRbp)
    return unsupported(Why, "rbp saved at rbp + offset outside a DRAP frame");
  if (S.CfaOffset < INT32_MIN || S.CfaOffset > INT32_MAX || S.Ra.Off < INT8_MIN ||
      S.Ra.Off > INT8_MAX || S.Rbp.Off < INT16_MIN || S.Rbp.Off > INT16_MAX)
    return unsupported(Why, "offsets out of range");
  RbpKind Rbp = S.Rbp.K == RegRule::Offset      ? RbpSaved
                : S.Rbp.K == RegRule::AtRbp     ? RbpAtRbp
                : S.Rbp.K == RegRule::Undefined ? RbpUndefined
                                                : RbpSame;
  RuleKind Kind = S.CfaDerefRbp ? RbpDerefBased : S.CfaReg == RegRsp ? RspBased : RbpBased;
  return packRule(Kind, Rbp, int32_t(S.CfaOffset), int16_t(S.Rbp.Off), int8_t(S.Ra.Off));
}

/// The calling thread's stack, for bounds checks on every load.
struct ThreadStack {
  uintptr_t Low = 0, High = 0;
  int State = 0; // 0: not looked up, 1: known, 2: unknown.
};
thread_local ThreadStack CurrentStack;

const ThreadStack &threadStack() {
  ThreadStack &T = CurrentStack;
  if (T.State != 0)
    return T;
  T.State = 2;
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    void *Addr = nullptr;
    size_t Size = 0;
    if (pthread_attr_getstack(&Attr, &Addr, &Size) == 0 && Size) {
      T.Low = reinterpret_cast<uintptr_t>(Addr);
      T.High = T.Low + Size;
      T.State = 1;
    }
    pthread_attr_destroy(&Attr);
  }
  return T;
}

} // namespace

StackWalker::StackWalker() = default;
StackWalker::~StackWalker() { std::free(Slots); }

uint64_t StackWalker::rule(uintptr_t ReturnAddress) {
  if (!Slots)
    return computeRule(ReturnAddress);
  size_t Mask = NumSlots - 1;
  size_t H = (ReturnAddress * 0x9e3779b97f4a7c15ull) >> 40;
  for (size_t Probe = 0; Probe < 64; ++Probe) {
    Slot &S = Slots[(H + Probe) & Mask];
    uintptr_t Key = S.Key.load(std::memory_order_acquire);
    if (Key == ReturnAddress)
      return S.Rule.load(std::memory_order_relaxed);
    if (Key == 0)
      break;
  }
  uint64_t R = computeRule(ReturnAddress);
  std::lock_guard<std::mutex> Lock(InsertMutex);
  for (size_t Probe = 0; Probe < 64; ++Probe) {
    Slot &S = Slots[(H + Probe) & Mask];
    uintptr_t Key = S.Key.load(std::memory_order_relaxed);
    if (Key == ReturnAddress)
      break;
    if (Key != 0)
      continue;
    // Slots are never overwritten: a reader that saw the key sees its rule.
    S.Rule.store(R, std::memory_order_relaxed);
    S.Key.store(ReturnAddress, std::memory_order_release);
    break;
  }
  return R;
}

/// With CUDA_ADVISOR_DEBUG_STACKS=1, says on stderr why the fast walk gave
/// up, once per frame address (at most 64): the module and symbol of the
/// frame, and the reason.
static bool debugStacks() {
  static const bool Enabled = [] {
    const char *E = std::getenv(DebugStacksEnv);
    return E && *E && std::strcmp(E, "0") != 0;
  }();
  return Enabled;
}

static void explainFallback(uintptr_t Ip, const char *Why) {
  if (!debugStacks())
    return;
  static std::mutex Mutex;
  static uintptr_t Seen[64];
  static size_t NumSeen = 0;
  std::lock_guard<std::mutex> Lock(Mutex);
  for (size_t I = 0; I < NumSeen; ++I)
    if (Seen[I] == Ip)
      return;
  if (NumSeen == 64)
    return;
  Seen[NumSeen++] = Ip;
  Dl_info Info{};
  if (Ip && dladdr(reinterpret_cast<void *>(Ip - 1), &Info) && Info.dli_fname)
    std::fprintf(stderr, "cuda-advisor collector: slow stack walk at %#lx (%s+%#lx, %s): %s\n",
                 static_cast<unsigned long>(Ip), Info.dli_fname,
                 static_cast<unsigned long>(Ip - reinterpret_cast<uintptr_t>(Info.dli_fbase)),
                 Info.dli_sname ? Info.dli_sname : "?", Why);
  else
    std::fprintf(stderr, "cuda-advisor collector: slow stack walk at %#lx: %s\n",
                 static_cast<unsigned long>(Ip), Why);
}

size_t StackWalker::fallback(uintptr_t *Frames, size_t Max, uintptr_t Ip, const char *Why) {
  SlowCaptures.fetch_add(1, std::memory_order_relaxed);
  explainFallback(Ip, Why);
  return captureSlow(Frames, Max);
}

size_t StackWalker::capture(uintptr_t *Frames, size_t Max) {
  if (Max == 0)
    return 0;
  // This function keeps a frame pointer (Stacks.cpp is built with
  // -fno-omit-frame-pointer, and __builtin_frame_address needs one): its
  // caller's state is exact.
  auto *Fp = static_cast<uintptr_t *>(__builtin_frame_address(0));
  uintptr_t Ip = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
  uintptr_t Sp = reinterpret_cast<uintptr_t>(Fp) + 16;
  uintptr_t Bp = Fp[0];
  const ThreadStack &T = threadStack();
  if (T.State != 1 || Sp <= T.Low || Sp >= T.High)
    return fallback(Frames, Max, Ip, "the thread's stack bounds are unknown");
  size_t N = 0;
  for (unsigned Guard = 0; Guard < 1024; ++Guard) {
    if (N > 0 || !isSkipped(Ip)) {
      Frames[N++] = Ip;
      if (N >= Max)
        return N;
    }
    uint64_t R = rule(Ip);
    RuleKind K = ruleKind(R);
    if (K == EndOfStack)
      return N;
    if (K != RspBased && K != RbpBased && K != RbpDerefBased) {
      const char *Why = "no unwind rule";
      if (K == Unsupported && debugStacks())
        computeRule(Ip, &Why); // Again, only to say why.
      return fallback(Frames, Max, Ip, Why);
    }
    uintptr_t Cfa = (K == RspBased ? Sp : Bp) + intptr_t(ruleCfa(R));
    if (K == RbpDerefBased) {
      if (Cfa < Sp || Cfa + 8 > T.High)
        return fallback(Frames, Max, Ip, "the DRAP slot is outside the stack");
      Cfa = *reinterpret_cast<const uintptr_t *>(Cfa);
    }
    uintptr_t RaAt = Cfa + intptr_t(ruleRaOffset(R));
    if (Cfa <= Sp || Cfa > T.High || RaAt < Sp || RaAt + 8 > T.High)
      return fallback(Frames, Max, Ip, "the CFA or the return address is outside the stack");
    uintptr_t NextBp = Bp;
    if (ruleRbp(R) == RbpSaved || ruleRbp(R) == RbpAtRbp) {
      uintptr_t BpAt = (ruleRbp(R) == RbpSaved ? Cfa : Bp) + intptr_t(ruleRbpOffset(R));
      if (BpAt < Sp || BpAt + 8 > T.High)
        return fallback(Frames, Max, Ip, "the saved rbp is outside the stack");
      NextBp = *reinterpret_cast<const uintptr_t *>(BpAt);
    } else if (ruleRbp(R) == RbpUndefined) {
      NextBp = 0;
    }
    Ip = *reinterpret_cast<const uintptr_t *>(RaAt);
    Sp = Cfa;
    Bp = NextBp;
    if (Ip == 0 || Cfa == T.High)
      return N;
  }
  return N;
}

uint32_t StackTable::intern(const uintptr_t *Frames, size_t N, bool &IsNew) {
  uint64_t Hash = 1469598103934665603ull; // FNV-1a over the addresses.
  for (size_t I = 0; I < N; ++I) {
    Hash ^= Frames[I];
    Hash *= 1099511628211ull;
  }
  Hash ^= N;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Slots.empty()) {
    Slots.resize(NumSlots);
    Arena.reserve(4096);
  }
  size_t Mask = NumSlots - 1;
  for (size_t Probe = 0; Probe < NumSlots; ++Probe) {
    Slot &S = Slots[(Hash + Probe) & Mask];
    if (!S.Used)
      break;
    if (S.Hash == Hash && S.Length == N &&
        std::memcmp(&Arena[S.Offset], Frames, N * sizeof(uintptr_t)) == 0) {
      IsNew = false;
      return S.Id;
    }
  }
  IsNew = true;
  uint32_t Id = NextId++;
  if (Stored >= MaxStored || Arena.size() + N > UINT32_MAX)
    return Id;
  for (size_t Probe = 0; Probe < NumSlots; ++Probe) {
    Slot &S = Slots[(Hash + Probe) & Mask];
    if (S.Used)
      continue;
    S.Used = true;
    S.Hash = Hash;
    S.Id = Id;
    S.Offset = static_cast<uint32_t>(Arena.size());
    S.Length = static_cast<uint16_t>(N);
    Arena.insert(Arena.end(), Frames, Frames + N);
    ++Stored;
    break;
  }
  return Id;
}

uint32_t StackTable::count() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return NextId;
}

namespace {

struct ModuleInfo {
  std::string Path;
  uintptr_t Base = 0;  // dlpi_addr: runtime address minus ELF virtual address.
  uintptr_t Start = 0; // Lowest mapped address.
  uintptr_t End = 0;
  std::string BuildId;
};

std::string buildIdOf(const struct dl_phdr_info *Info) {
  static const char Hex[] = "0123456789abcdef";
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Note = reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
    const char *NoteEnd = Note + P.p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= NoteEnd) {
      const auto *H = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const char *Name = Note + sizeof(ElfW(Nhdr));
      const char *Desc = Name + ((H->n_namesz + 3) & ~3u);
      const char *Next = Desc + ((H->n_descsz + 3) & ~3u);
      if (Next > NoteEnd)
        break;
      if (H->n_type == NT_GNU_BUILD_ID && H->n_namesz == 4 && std::memcmp(Name, "GNU", 4) == 0) {
        std::string Id;
        for (unsigned J = 0; J < H->n_descsz; ++J) {
          auto B = static_cast<unsigned char>(Desc[J]);
          Id += Hex[B >> 4];
          Id += Hex[B & 15];
        }
        return Id;
      }
      Note = Next;
    }
  }
  return {};
}

int collectModule(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *Modules = static_cast<std::vector<ModuleInfo> *>(Data);
  ModuleInfo M;
  M.Path = Info->dlpi_name ? Info->dlpi_name : "";
  M.Base = Info->dlpi_addr;
  bool Any = false;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD)
      continue;
    uintptr_t Begin = Info->dlpi_addr + P.p_vaddr, End = Begin + P.p_memsz;
    if (!Any || Begin < M.Start)
      M.Start = Begin;
    if (!Any || End > M.End)
      M.End = End;
    Any = true;
  }
  if (!Any)
    return 0;
  M.BuildId = buildIdOf(Info);
  Modules->push_back(std::move(M));
  return 0;
}

} // namespace

uint64_t appendModuleRecords(std::string &Out) {
  std::vector<ModuleInfo> Modules;
  Modules.reserve(256);
  dl_iterate_phdr(&collectModule, &Modules);
  uint64_t N = 0;
  bool First = true;
  for (ModuleInfo &M : Modules) {
    bool IsMain = First && M.Path.empty();
    First = false;
    if (IsMain) {
      char Buf[PATH_MAX];
      ssize_t Len = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
      if (Len > 0)
        M.Path.assign(Buf, static_cast<size_t>(Len));
    } else if (M.Path.find('/') != std::string::npos && M.Path[0] != '/') {
      char Buf[PATH_MAX];
      if (::realpath(M.Path.c_str(), Buf))
        M.Path = Buf;
    }
    if (M.Path.empty())
      continue;
    JsonLine L(Out, "module");
    L.str("path", M.Path).hex("base", M.Base).hex("start", M.Start).num("size", M.End - M.Start);
    if (!M.BuildId.empty())
      L.str("build_id", M.BuildId);
    if (IsMain)
      L.boolean("main", true);
    L.end();
    ++N;
  }
  return N;
}

} // namespace cuda_advisor::collector
