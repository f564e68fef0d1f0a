//===- PyFrames.cpp - Python call sites of CUDA calls ---------------------===//
#include "PyFrames.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace cuda_advisor::collector {

/// Byte offsets into CPython's structures for one minor version (x86-64 and
/// other LP64 targets, the default build with the GIL). Read from the
/// headers of 3.9.18, 3.10.13, 3.11.7, 3.12.1 and 3.13.0 with offsetof
/// (Include/cpython/pystate.h, Include/cpython/frameobject.h (3.9, 3.10),
/// Include/internal/pycore_frame.h (3.11+), Include/cpython/code.h,
/// Include/cpython/bytesobject.h, Include/cpython/unicodeobject.h); layouts
/// do not change within a minor version.
struct PythonFrames::LayoutDesc {
  enum FrameKind { FrameObject, InterpreterFrame } Kind;
  enum LineTable { Lnotab39, Linetable310, Locations311 } Table;
  /// PyThreadState -> the current frame: tstate + TstateFrame, then (when
  /// CFrameFrame >= 0) the _PyCFrame's current_frame at + CFrameFrame.
  int TstateFrame, CFrameFrame;
  int FramePrevious, FrameCode;
  /// 3.9/3.10: f_lasti (int; bytes in 3.9, code units in 3.10). 3.11+: the
  /// instruction pointer (prev_instr / instr_ptr).
  int FrameInstr;
  int FrameOwner; ///< -1: none (3.9/3.10).
  int CodeFirstLine, CodeFilename, CodeName, CodeLineTable;
  int CodeBytecode; ///< 3.9/3.10: co_code (a bytes object); 3.11+: co_code_adaptive (inline).
  int AsciiSize, CompactSize; ///< sizeof(PyASCIIObject), sizeof(PyCompactUnicodeObject).
};

namespace {

using L = PythonFrames::LayoutDesc;
//                       kind                table            tsf  cff  prev code instr owner first file name  table code  ascii compact
const L Py39 = {L::FrameObject, L::Lnotab39, 24, -1, 24, 32, 104, -1, 40, 104, 112, 120, 48, 48, 72};
const L Py310 = {L::FrameObject, L::Linetable310, 24, -1, 24, 32, 96, -1, 40, 104, 112, 120, 48, 48, 72};
const L Py311 = {L::InterpreterFrame, L::Locations311, 56, 8, 48, 32, 56, 69, 72, 112, 128, 136, 184, 48, 72};
const L Py312 = {L::InterpreterFrame, L::Locations311, 56, 0, 8, 0, 56, 70, 68, 112, 128, 136, 192, 40, 56};
const L Py313 = {L::InterpreterFrame, L::Locations311, 72, -1, 8, 0, 56, 70, 68, 112, 128, 136, 200, 40, 56};

constexpr int ObType = 8, ObSize = 16, BytesData = 32, AsciiLength = 16, AsciiState = 32;
/// _PyInterpreterFrame.owner: FRAME_OWNED_BY_CSTACK (3.12+), the shim frames
/// that the interpreter pushes on entry; they hold no user code.
constexpr uint8_t OwnedByCStack = 3;
constexpr size_t MaxWalk = 256; // Frames followed at most (a cycle would be a bug).

template <typename T> T load(uintptr_t Address) {
  T V;
  std::memcpy(&V, reinterpret_cast<const void *>(Address), sizeof(T));
  return V;
}

bool startsWith(const std::string &S, const char *P) { return S.compare(0, std::strlen(P), P) == 0; }

} // namespace

bool PythonFrames::init() {
  Layout = nullptr;
  Minor = 0;
  auto *GetTss = dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
  auto *Code = dlsym(RTLD_DEFAULT, "PyCode_Type");
  if (!GetTss || !Code) {
    Reason = "no Python interpreter in the process";
    return false;
  }
  unsigned Major = 0;
  if (const auto *V = static_cast<const unsigned long *>(dlsym(RTLD_DEFAULT, "Py_Version"))) {
    Major = (*V >> 24) & 0xff; // PY_VERSION_HEX, 3.11+.
    Minor = (*V >> 16) & 0xff;
  } else if (auto *GetVersion =
                 reinterpret_cast<const char *(*)()>(dlsym(RTLD_DEFAULT, "Py_GetVersion"))) {
    const char *S = GetVersion(); // "3.10.13 (main, ...)"
    char *End = nullptr;
    Major = static_cast<unsigned>(std::strtoul(S, &End, 10));
    if (End && *End == '.')
      Minor = static_cast<unsigned>(std::strtoul(End + 1, nullptr, 10));
  }
  if (Major != 3) {
    Minor = 0;
    Reason = "the Python version could not be read";
    return false;
  }
  switch (Minor) {
  case 9: Layout = &Py39; break;
  case 10: Layout = &Py310; break;
  case 11: Layout = &Py311; break;
  case 12: Layout = &Py312; break;
  case 13: Layout = &Py313; break;
  default:
    Minor = 0;
    Reason = "a Python version whose frame layout is not known (3.9 to 3.13 are)";
    return false;
  }
  // Free-threaded builds (3.13t) have another object header: their
  // Py_GIL_DISABLED ABI exports _Py_ThreadId-based symbols that the default
  // build lacks.
  if (dlsym(RTLD_DEFAULT, "_PyObject_SetMaybeWeakref") || dlsym(RTLD_DEFAULT, "_Py_brc_queue_object")) {
    Layout = nullptr;
    Minor = 0;
    Reason = "a free-threaded Python build (its object layout is not read)";
    return false;
  }
  GetThisThreadState = reinterpret_cast<void *(*)()>(GetTss);
  CodeType = reinterpret_cast<uintptr_t>(Code);
  Reason = "";
  return true;
}

size_t PythonFrames::capture(PyRawFrame *Out, size_t Max) const {
  if (!Layout || Max == 0)
    return 0;
  // Reads the thread-specific slot that holds this thread's PyThreadState
  // (pthread_getspecific): no GIL needed, NULL for threads Python never saw.
  uintptr_t Tstate = reinterpret_cast<uintptr_t>(GetThisThreadState());
  if (!Tstate)
    return 0;
  const L &Ly = *Layout;
  uintptr_t Frame = load<uintptr_t>(Tstate + Ly.TstateFrame);
  if (Ly.CFrameFrame >= 0 && Frame)
    Frame = load<uintptr_t>(Frame + Ly.CFrameFrame);
  size_t N = 0;
  for (size_t Walked = 0; Frame && N < Max && Walked < MaxWalk; ++Walked) {
    uintptr_t Code = load<uintptr_t>(Frame + Ly.FrameCode);
    uintptr_t Next = load<uintptr_t>(Frame + Ly.FramePrevious);
    if (Ly.FrameOwner >= 0 && Minor >= 12 && load<uint8_t>(Frame + Ly.FrameOwner) == OwnedByCStack) {
      Frame = Next;
      continue;
    }
    // A frame whose code is not a code object means a layout we misread:
    // stop rather than follow wrong pointers (3.13's f_executable can also
    // legitimately hold something else: skip those frames).
    if (!Code || load<uintptr_t>(Code + ObType) != CodeType) {
      if (Minor >= 13 && Code) {
        Frame = Next;
        continue;
      }
      return 0;
    }
    int64_t Offset;
    if (Ly.Kind == L::FrameObject) {
      int Lasti = load<int>(Frame + Ly.FrameInstr);
      Offset = Minor == 9 ? Lasti : int64_t(Lasti) * 2;
    } else {
      uintptr_t Instr = load<uintptr_t>(Frame + Ly.FrameInstr);
      Offset = int64_t(Instr) - int64_t(Code + Ly.CodeBytecode);
    }
    if (Offset >= 0) // Below 0: a frame that has not started yet.
      Out[N++] = {Code, Offset};
    Frame = Next;
  }
  return N;
}

bool PythonFrames::readString(uintptr_t Str, std::string &Out) const {
  Out.clear();
  if (!Str)
    return false;
  int64_t Length = load<int64_t>(Str + AsciiLength);
  uint32_t State = load<uint32_t>(Str + AsciiState);
  unsigned Kind = (State >> 2) & 7;
  bool Compact = State & 0x20, Ascii = State & 0x40;
  if (!Compact || Length < 0 || Length > 4096)
    return false;
  uintptr_t Data = Str + (Ascii ? Layout->AsciiSize : Layout->CompactSize);
  const auto *P = reinterpret_cast<const unsigned char *>(Data);
  auto Put = [&](uint32_t C) { // UTF-8
    if (C < 0x80) {
      Out += char(C);
    } else if (C < 0x800) {
      Out += char(0xc0 | (C >> 6));
      Out += char(0x80 | (C & 0x3f));
    } else if (C < 0x10000) {
      Out += char(0xe0 | (C >> 12));
      Out += char(0x80 | ((C >> 6) & 0x3f));
      Out += char(0x80 | (C & 0x3f));
    } else {
      Out += char(0xf0 | (C >> 18));
      Out += char(0x80 | ((C >> 12) & 0x3f));
      Out += char(0x80 | ((C >> 6) & 0x3f));
      Out += char(0x80 | (C & 0x3f));
    }
  };
  for (int64_t I = 0; I < Length; ++I) {
    if (Kind == 1)
      Put(P[I]);
    else if (Kind == 2)
      Put(load<uint16_t>(Data + 2 * I));
    else if (Kind == 4)
      Put(load<uint32_t>(Data + 4 * I));
    else
      return false;
  }
  return true;
}

namespace {

/// CPython 3.11+ location table (Objects/locations.md): entries of
/// (code, length in code units) with a varint-coded line delta.
struct TableCursor {
  const unsigned char *P, *End;
  bool more() const { return P < End; }
  unsigned char byte() { return P < End ? *P++ : 0; }
  uint64_t varint() {
    unsigned char B = byte();
    uint64_t V = B & 63;
    unsigned Shift = 6;
    while ((B & 64) && P < End && Shift < 60) {
      B = byte();
      V |= uint64_t(B & 63) << Shift;
      Shift += 6;
    }
    return V;
  }
  int64_t svarint() {
    uint64_t U = varint();
    return (U & 1) ? -int64_t(U >> 1) : int64_t(U >> 1);
  }
};

int lineFromLocations(const unsigned char *P, size_t Size, int FirstLine, int64_t Unit) {
  TableCursor C{P, P + Size};
  int64_t Line = FirstLine, Addr = 0;
  while (C.more()) {
    unsigned char First = C.byte();
    if (!(First & 0x80))
      continue; // Resynchronize on an entry's first byte.
    unsigned Code = (First >> 3) & 15;
    int64_t Length = (First & 7) + 1;
    int64_t ThisLine = -1;
    switch (Code) {
    case 15: // No location.
      break;
    case 14: // Long form: line delta, end line delta, column + 1, end column + 1.
      Line += C.svarint();
      ThisLine = Line;
      C.varint();
      C.varint();
      C.varint();
      break;
    case 13: // No column.
      Line += C.svarint();
      ThisLine = Line;
      break;
    case 10:
    case 11:
    case 12: // One-line forms.
      Line += Code - 10;
      ThisLine = Line;
      C.byte();
      C.byte();
      break;
    default: // Short forms: same line, one column byte.
      ThisLine = Line;
      C.byte();
      break;
    }
    if (Unit >= Addr && Unit < Addr + Length)
      return ThisLine > 0 ? int(ThisLine) : 0;
    Addr += Length;
  }
  return 0;
}

/// 3.10's co_linetable: pairs (byte delta, signed line delta; -128 = none).
int lineFrom310(const unsigned char *P, size_t Size, int FirstLine, int64_t Offset) {
  int64_t Line = FirstLine, Start = 0;
  for (size_t I = 0; I + 1 < Size; I += 2) {
    int64_t End = Start + P[I];
    int8_t Delta = static_cast<int8_t>(P[I + 1]);
    int64_t ThisLine = -1;
    if (Delta != -128) {
      Line += Delta;
      ThisLine = Line;
    }
    if (Offset >= Start && Offset < End)
      return ThisLine > 0 ? int(ThisLine) : 0;
    Start = End;
  }
  return 0;
}

/// 3.9's co_lnotab: pairs (byte increment, signed line increment).
int lineFromLnotab(const unsigned char *P, size_t Size, int FirstLine, int64_t Offset) {
  int64_t Line = FirstLine, Addr = 0;
  for (size_t I = 0; I + 1 < Size; I += 2) {
    Addr += P[I];
    if (Addr > Offset)
      break;
    Line += static_cast<int8_t>(P[I + 1]);
  }
  return int(Line);
}

} // namespace

int PythonFrames::lineOf(uintptr_t Code, int64_t Offset) const {
  const L &Ly = *Layout;
  int FirstLine = load<int>(Code + Ly.CodeFirstLine);
  uintptr_t Table = load<uintptr_t>(Code + Ly.CodeLineTable);
  if (!Table)
    return 0;
  int64_t Size = load<int64_t>(Table + ObSize);
  if (Size < 0 || Size > (int64_t(1) << 28))
    return 0;
  const auto *P = reinterpret_cast<const unsigned char *>(Table + BytesData);
  switch (Ly.Table) {
  case L::Lnotab39:
    return lineFromLnotab(P, size_t(Size), FirstLine, Offset);
  case L::Linetable310:
    return lineFrom310(P, size_t(Size), FirstLine, Offset);
  case L::Locations311:
    return lineFromLocations(P, size_t(Size), FirstLine, Offset / 2);
  }
  return 0;
}

bool PythonFrames::resolve(const PyRawFrame &F, PyResolvedFrame &R) const {
  if (!Layout)
    return false;
  const L &Ly = *Layout;
  readString(load<uintptr_t>(F.Code + Ly.CodeFilename), R.File);
  readString(load<uintptr_t>(F.Code + Ly.CodeName), R.Function);
  R.Line = lineOf(F.Code, F.Offset);
  R.Library = isLibraryPath(R.File);
  return true;
}

bool PythonFrames::isLibraryPath(const std::string &Path) {
  if (Path.empty() || Path[0] == '<')
    return true;
  // Also what torch.compile generates: Inductor's cache, by default
  // /tmp/torchinductor_<user>/ (profile::isLibraryPythonFile, the readers' list).
  for (const char *Part : {"/torch/", "/site-packages/", "/dist-packages/", "/torchinductor_"})
    if (Path.find(Part) != std::string::npos)
      return true;
  // The standard library: .../lib/pythonX.Y/<module> (also lib64).
  for (const char *Lib : {"/lib/python3", "/lib64/python3"}) {
    size_t At = Path.find(Lib);
    if (At == std::string::npos)
      continue;
    size_t P = At + std::strlen(Lib);
    if (P < Path.size() && Path[P] == '.') {
      ++P;
      while (P < Path.size() && Path[P] >= '0' && Path[P] <= '9')
        ++P;
      if (P < Path.size() && (Path[P] == '/' || startsWith(Path.substr(P), "t/")))
        return true;
    }
  }
  return false;
}

int userFrameIndex(const PyResolvedFrame *Frames, size_t N) {
  for (size_t I = 0; I < N; ++I)
    if (!Frames[I].Library)
      return int(I);
  return -1;
}

} // namespace cuda_advisor::collector
