//===- HostDeviceRedeclarations.h - nvcc's inherited __host__ __device__ --===//
//
// A function declared `__host__ __device__` (in a class, in a header) and
// defined without the attributes (`Float3::Float3() { ... }` in a .cu file)
// is one function for nvcc: the definition inherits the declaration's
// execution spaces. Clang takes the definition for a __host__ overload and
// rejects it ("__host__ function 'Float3' cannot overload __host__
// __device__ function 'Float3'", llvm/llvm-project#141922), so a whole file
// of such code fails to parse. The front end parses it again with
// `__host__ __device__ ` written before each definition Clang rejected this
// way: the insertion moves the rest of that line, not the lines below it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_FRONTEND_HOSTDEVICEREDECLARATIONS_H
#define CUDA_ADVISOR_FRONTEND_HOSTDEVICEREDECLARATIONS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cuda_advisor::frontend {

/// What is written before such a definition.
inline constexpr llvm::StringLiteral HostDeviceSpelling = "__host__ __device__ ";

/// Where the attributes go for a definition whose name starts at
/// NameOffset: before its qualified name (`Float3::`, `Vec<T>::`, `~`), after
/// the return type (`float Float3::dot(...)` becomes `float __host__
/// __device__ Float3::dot(...)`, where GNU attributes appertain to the
/// declaration).
size_t hostDeviceInsertionPoint(llvm::StringRef Text, size_t NameOffset);

/// The offsets of Text at which to insert HostDeviceSpelling, by the real
/// path of the file.
using HostDeviceInsertions = std::map<std::string, std::vector<size_t>>;

/// Text with HostDeviceSpelling inserted at each offset (sorted or not;
/// duplicates and offsets past the end are ignored).
std::string insertHostDevice(llvm::StringRef Text, std::vector<size_t> Offsets);

/// Offsets sorted, without duplicates.
std::vector<size_t> normalizedOffsets(std::vector<size_t> Offsets);

/// Where Offset of the text with HostDeviceSpelling inserted at Sorted
/// (normalizedOffsets) lies in the text without them; Inside when it falls
/// in an inserted spelling (then the offset of that insertion).
struct OriginalOffset {
  size_t Offset = 0;
  bool Inside = false;
};
OriginalOffset originalOffset(const std::vector<size_t> &Sorted, size_t Offset);

/// A file system that serves each file of Insertions (matched by its real
/// path in Base) with the insertions made, and says so in its status's size.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
hostDeviceRedeclarationFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                                  std::shared_ptr<const HostDeviceInsertions> Insertions);

} // namespace cuda_advisor::frontend

#endif
