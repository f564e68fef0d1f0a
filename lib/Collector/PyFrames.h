//===- PyFrames.h - Python call sites of CUDA calls ------------*- C++ -*-===//
//
// Part of the CUPTI collector. When the profiled process is CPython (3.9 to
// 3.13), finds the Python frames of the thread that made a CUDA runtime call:
// the innermost frame of the user's code (outside torch/, site-packages,
// dist-packages and the standard library) and the frames above it.
//
// The collector has no Python link dependency: the interpreter's symbols are
// looked up at run time with dlsym(RTLD_DEFAULT, ...), and the frame, code,
// bytes and string objects are read through their layouts for each minor
// version, written out below from CPython's headers. An unknown version (or
// no Python in the process) gives no Python frames, never a guess.
//
// The walk takes no GIL, creates no object and touches no reference count:
// the calling thread is inside our callback, so its own frame chain cannot
// change while we read it, and the code objects of live frames stay alive.
// It works whether or not the thread holds the GIL at the CUDA call (PyTorch
// releases it around most operators).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_PYFRAMES_H
#define CUDA_ADVISOR_COLLECTOR_PYFRAMES_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuda_advisor::collector {

/// One Python frame as captured: the code object and the instruction offset
/// (in bytes from the start of the bytecode). Resolving it to file, line and
/// function is done once per distinct stack (PythonFrames::resolve).
struct PyRawFrame {
  uintptr_t Code = 0;
  int64_t Offset = 0;
};

struct PyResolvedFrame {
  std::string File;
  std::string Function; ///< co_qualname from 3.11 on, co_name before.
  int Line = 0;         ///< 0: the line table has no line for the offset.
  bool Library = false; ///< torch/, site-packages, dist-packages, the standard library.
};

class PythonFrames {
public:
  /// Looks the interpreter up in the process. Returns whether frames can be
  /// read (CPython of a known version); version() then says which.
  bool init();
  bool enabled() const { return Layout != nullptr; }
  /// 0x0309 ... 0x030d; 0 when disabled.
  unsigned version() const { return Minor ? 0x0300u | Minor : 0; }
  /// Why init() found no usable interpreter (for the verbose log).
  const char *reason() const { return Reason; }

  /// Fills Out with the calling thread's frames, innermost first; returns the
  /// count (0: no Python thread state, or a frame that failed the checks).
  size_t capture(PyRawFrame *Out, size_t Max) const;
  /// File, function and line of a captured frame.
  bool resolve(const PyRawFrame &F, PyResolvedFrame &R) const;

  /// Whether a source path belongs to a library rather than the user's code:
  /// it contains /torch/, /site-packages/, /dist-packages/ or /torchinductor_
  /// (code that torch.compile generated), lies in the
  /// standard library (/lib/pythonX.Y/ or /lib64/pythonX.Y/), or is not a file
  /// ("<frozen runpy>", "<string>").
  static bool isLibraryPath(const std::string &Path);

  struct LayoutDesc;

private:
  const LayoutDesc *Layout = nullptr;
  unsigned Minor = 0;
  const char *Reason = "not initialized";
  void *(*GetThisThreadState)() = nullptr;
  uintptr_t CodeType = 0;
  bool readString(uintptr_t Str, std::string &Out) const;
  int lineOf(uintptr_t Code, int64_t Offset) const;
};

/// Innermost-first frames of a resolved stack: index of the user's frame
/// (the first non-library one), or -1.
int userFrameIndex(const PyResolvedFrame *Frames, size_t N);

} // namespace cuda_advisor::collector

#endif
