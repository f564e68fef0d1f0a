//===- Stacks.cpp - Host call stacks and the module map -------------------===//
#include "Stacks.h"

#include "JsonLine.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <elf.h>
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

namespace {
struct WalkState {
  const StackWalker *Walker;
  uintptr_t *Frames;
  size_t Count;
  size_t Max;
};

_Unwind_Reason_Code onFrame(struct _Unwind_Context *Context, void *Data) {
  auto *St = static_cast<WalkState *>(Data);
  uintptr_t IP = _Unwind_GetIP(Context);
  if (IP == 0)
    return _URC_END_OF_STACK;
  // Drop the leading frames inside the collector and the CUDA libraries; keep
  // everything from the first frame of the program on (also CUDA frames
  // further out, e.g. a host callback).
  if (St->Count == 0 && St->Walker->isSkipped(IP))
    return _URC_NO_REASON;
  St->Frames[St->Count++] = IP;
  return St->Count >= St->Max ? _URC_END_OF_STACK : _URC_NO_REASON;
}
} // namespace

size_t StackWalker::capture(uintptr_t *Frames, size_t Max) const {
  if (Max == 0)
    return 0;
  WalkState St{this, Frames, 0, Max};
  _Unwind_Backtrace(&onFrame, &St);
  return St.Count;
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
