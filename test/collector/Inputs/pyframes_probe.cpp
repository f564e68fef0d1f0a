// A stand-in for the collector's CUPTI callback, for testing the Python frame
// walker (lib/Collector/PyFrames.cpp) without a GPU: Python calls it through
// ctypes (CDLL releases the GIL around the call, PyDLL keeps it), and it
// writes what the collector would record for a CUDA call made there.
#include "PyFrames.h"

#include <cstdio>
#include <string>

using namespace cuda_advisor::collector;

extern "C" __attribute__((visibility("default"))) int ca_pyframes_probe(char *Buf, int Size) {
  static PythonFrames PF;
  static bool Ok = PF.init();
  std::string Out;
  if (!Ok) {
    Out = std::string("disabled: ") + PF.reason() + "\n";
  } else {
    PyRawFrame Raw[64];
    size_t N = PF.capture(Raw, 64);
    PyResolvedFrame R[64];
    for (size_t I = 0; I < N; ++I)
      PF.resolve(Raw[I], R[I]);
    int User = userFrameIndex(R, N);
    char Line[64];
    std::snprintf(Line, sizeof(Line), "version %x\nframes %zu\nuser %d\n", PF.version(), N, User);
    Out = Line;
    for (size_t I = 0; I < N; ++I)
      Out += R[I].File + ":" + std::to_string(R[I].Line) + " " + R[I].Function +
             (R[I].Library ? " [library]" : "") + "\n";
  }
  std::snprintf(Buf, size_t(Size), "%s", Out.c_str());
  return int(Out.size());
}
