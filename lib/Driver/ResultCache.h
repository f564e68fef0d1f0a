//===- ResultCache.h - Findings of unchanged files, kept -------*- C++ -*-===//
//
// --cache-dir DIR (or CUDA_ADVISOR_CACHE_DIR): each analyzed file's findings
// are kept under a key made of everything else that decides them (the tool's
// identity, the parses' arguments and directory, the file's configuration),
// with the digest of every file the parse read. A later run with the same key
// whose files all still hash the same takes the findings from the cache
// instead of parsing. docs/scale.md describes it.
//
// Entries are written to a temporary file in the cache and renamed over
// their name, so concurrent runs never see half an entry; a damaged or
// foreign entry is a miss. Past the size limit the least recently used
// entries go.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_DRIVER_RESULTCACHE_H
#define CUDA_ADVISOR_DRIVER_RESULTCACHE_H

#include "cuda-advisor/Frontend/Runner.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace cuda_advisor::driver {

struct ResultCacheOptions {
  std::string Dir;
  uint64_t MaxBytes = uint64_t(1) << 30;
  /// What identifies the tool: its version and build (a rebuilt tool may
  /// find other things).
  std::string ToolIdentity;
  /// The configuration text of a file (its checks and their options).
  std::function<std::string(const std::string &File)> ConfigFor;
  bool Verbose = false; ///< Say for each file why it was a hit or a miss.
};

class ResultCache : public frontend::ResultStore {
public:
  /// Creates Dir if needed; fails when it cannot be created or written.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(ResultCacheOptions Opts);

  bool lookup(const frontend::ParseInputs &In, frontend::FileResult &R) override;
  void store(const frontend::ParseInputs &In, frontend::FileResult &R,
             const std::vector<frontend::FileDigest> &Read) override;

  /// Removes the least recently used entries (and temporary files left by
  /// killed runs) while the cache is larger than its limit.
  void trim();

  struct Stats {
    unsigned Hits = 0, Misses = 0, Stored = 0, StoreFailures = 0, Evicted = 0;
  };
  Stats stats() const;

private:
  explicit ResultCache(ResultCacheOptions Opts) : Opts(std::move(Opts)) {}
  std::string entryPath(const frontend::ParseInputs &In) const;
  /// The digest of Path as it is on disk now (once per run and file); empty
  /// when it cannot be read.
  std::string currentHash(const std::string &Path);
  /// Why the entry at Path cannot be used for In, or nothing (then R holds
  /// its findings).
  std::optional<std::string> useEntry(const std::string &Path, const frontend::ParseInputs &In,
                                      frontend::FileResult &R);

  ResultCacheOptions Opts;
  std::mutex HashLock;
  llvm::StringMap<std::string> Hashes;
  std::atomic<unsigned> Hits{0}, Misses{0}, Stored{0}, StoreFailures{0}, Evicted{0};
};

/// "500M", "2G", "1.5GiB", "100k", "4096": bytes, or why the text is not a
/// size.
llvm::Expected<uint64_t> parseCacheSize(llvm::StringRef Text);

} // namespace cuda_advisor::driver

#endif
