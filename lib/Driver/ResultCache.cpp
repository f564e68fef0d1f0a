//===- ResultCache.cpp - Findings of unchanged files, kept -----------------===//
//
// An entry is DIR/<2 hex>/<62 hex>.json, named by the SHA-256 of the key:
//   {"format": "cuda-advisor result cache", "version": 1, "file": FILE,
//    "inputs": [{"path": P, "hash": H}...], "findings": [...]}
// with the findings in the JSON report's form plus their byte offsets
// (report::JsonDetail::Exact), so that they come back exactly.
//
//===----------------------------------------------------------------------===//
#include "ResultCache.h"
#include "cuda-advisor/Core/FileIO.h"
#include "cuda-advisor/Report/JsonModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <cmath>

using namespace llvm;

namespace cuda_advisor::driver {
namespace {

constexpr const char *FormatName = "cuda-advisor result cache";
constexpr int64_t FormatVersion = 1;
/// Names of temporary files: "<entry>.tmp-XXXXXXXX".
constexpr const char *TempMarker = ".tmp-";

/// Temporary files older than this were left by a run that was killed.
constexpr std::chrono::hours StaleTemp(1);

std::string hexDigest(ArrayRef<uint8_t> Bytes) { return toHex(Bytes, /*LowerCase=*/true); }

} // namespace

Expected<std::unique_ptr<ResultCache>> ResultCache::open(ResultCacheOptions Opts) {
  SmallString<256> Dir(Opts.Dir);
  sys::fs::make_absolute(Dir);
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(EC, "%s: cannot create the cache directory: %s", Dir.c_str(),
                             EC.message().c_str());
  if (!sys::fs::is_directory(Dir))
    return createStringError(inconvertibleErrorCode(), "%s: not a directory", Dir.c_str());
  if (std::error_code EC = sys::fs::access(Dir, sys::fs::AccessMode::Write))
    return createStringError(EC, "%s: cannot write to the cache directory: %s", Dir.c_str(),
                             EC.message().c_str());
  Opts.Dir = Dir.str().str();
  return std::unique_ptr<ResultCache>(new ResultCache(std::move(Opts)));
}

std::string ResultCache::entryPath(const frontend::ParseInputs &In) const {
  SHA256 Key;
  // Each part is preceded by its length: no two keys' parts run together.
  auto Add = [&](StringRef Part) {
    Key.update(std::to_string(Part.size()) + ":");
    Key.update(Part);
  };
  Add(FormatName);
  Add(std::to_string(FormatVersion));
  Add(Opts.ToolIdentity);
  Add(Opts.ConfigFor ? Opts.ConfigFor(In.File) : "");
  Add(In.File);
  Add(In.Command);
  std::string Hex = hexDigest(Key.final());
  SmallString<256> Path(Opts.Dir);
  sys::path::append(Path, StringRef(Hex).take_front(2), StringRef(Hex).drop_front(2) + ".json");
  return Path.str().str();
}

std::string ResultCache::currentHash(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Guard(HashLock);
    auto It = Hashes.find(Path);
    if (It != Hashes.end())
      return It->second;
  }
  std::string Hash;
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (Buffer)
    Hash = contentHash((*Buffer)->getBuffer());
  std::lock_guard<std::mutex> Guard(HashLock);
  Hashes[Path] = Hash;
  return Hash;
}

std::optional<std::string> ResultCache::useEntry(const std::string &Path,
                                                 const frontend::ParseInputs &In,
                                                 frontend::FileResult &R) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::string("no entry");
  Expected<json::Value> Doc = json::parse((*Buffer)->getBuffer());
  if (!Doc) {
    consumeError(Doc.takeError());
    return std::string("the entry is damaged");
  }
  const json::Object *Top = Doc->getAsObject();
  const json::Array *Inputs = Top ? Top->getArray("inputs") : nullptr;
  const json::Array *Findings = Top ? Top->getArray("findings") : nullptr;
  if (!Top || Top->getString("format") != StringRef(FormatName) ||
      Top->getInteger("version") != FormatVersion || Top->getString("file") != StringRef(In.File) ||
      !Inputs || !Findings)
    return std::string("the entry is damaged");
  for (const json::Value &Input : *Inputs) {
    const json::Object *O = Input.getAsObject();
    std::optional<StringRef> File = O ? O->getString("path") : std::nullopt;
    std::optional<StringRef> Hash = O ? O->getString("hash") : std::nullopt;
    if (!File || !Hash)
      return std::string("the entry is damaged");
    std::string Now = currentHash(File->str());
    if (Now.empty())
      return (*File + " is gone").str();
    if (Now != *Hash)
      return (*File + " changed").str();
  }
  std::vector<Finding> Out;
  Out.reserve(Findings->size());
  for (const json::Value &F : *Findings) {
    Expected<Finding> Read = report::findingFromJson(F, Path);
    if (!Read) {
      consumeError(Read.takeError());
      return std::string("the entry is damaged");
    }
    Out.push_back(std::move(*Read));
  }
  R.Findings = std::move(Out);
  return std::nullopt;
}

bool ResultCache::lookup(const frontend::ParseInputs &In, frontend::FileResult &R) {
  std::string Path = entryPath(In);
  std::optional<std::string> Miss = useEntry(Path, In, R);
  if (Miss) {
    ++Misses;
    if (Opts.Verbose)
      R.Messages.push_back("result cache: miss (" + *Miss + ")");
    return false;
  }
  ++Hits;
  if (Opts.Verbose)
    R.Messages.push_back("result cache: hit (" + Path + ")");
  // Recently used: trim() removes the least recently used entries first.
  int FD;
  if (!sys::fs::openFileForReadWrite(Path, FD, sys::fs::CD_OpenExisting, sys::fs::OF_None)) {
    (void)sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    sys::fs::closeFile(FD);
  }
  return true;
}

void ResultCache::store(const frontend::ParseInputs &In, frontend::FileResult &R,
                        const std::vector<frontend::FileDigest> &Read) {
  std::string Path = entryPath(In);
  json::Array Inputs;
  StringSet<> Seen;
  for (const frontend::FileDigest &D : Read)
    if (Seen.insert(D.Path).second)
      Inputs.push_back(json::Object{{"path", D.Path}, {"hash", D.Hash}});
  json::Array Findings;
  for (const Finding &F : R.Findings)
    Findings.push_back(report::toJson(F, report::JsonDetail::Exact));
  json::Object Entry{{"format", FormatName},
                     {"version", FormatVersion},
                     {"file", In.File},
                     {"inputs", std::move(Inputs)},
                     {"findings", std::move(Findings)}};

  auto Failed = [&](const Twine &Why) {
    ++StoreFailures;
    if (Opts.Verbose)
      R.Messages.push_back(("result cache: not stored: " + Why).str());
  };
  if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Path)))
    return Failed(EC.message());
  // Written beside its name and renamed over it: a concurrent run reads the
  // old entry or the new one, never half of one.
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(Path + TempMarker + "%%%%%%%%");
  if (!Temp)
    return Failed(toString(Temp.takeError()));
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    OS << json::Value(std::move(Entry));
    OS.flush();
    if (OS.has_error()) {
      std::string Why = OS.error().message();
      OS.clear_error();
      consumeError(Temp->discard());
      return Failed(Why);
    }
  }
  if (Error E = Temp->keep(Path))
    return Failed(toString(std::move(E)));
  ++Stored;
}

void ResultCache::trim() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Used;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Opts.Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (It.level() > 1)
      continue;
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status) || Status.type() != sys::fs::file_type::regular_file)
      continue;
    StringRef Name = sys::path::filename(It->path());
    if (Name.contains(TempMarker)) {
      if (Now - Status.getLastModificationTime() > StaleTemp)
        sys::fs::remove(It->path());
      continue;
    }
    if (!Name.ends_with(".json"))
      continue; // Not ours.
    Entries.push_back({It->path(), Status.getSize(), Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= Opts.MaxBytes)
    return;
  // Down to 90% of the limit, so that the next runs do not trim again at
  // once (ccache does the same).
  uint64_t Goal = Opts.MaxBytes / 10 * 9;
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return std::tie(A.Used, A.Path) < std::tie(B.Used, B.Path);
  });
  for (const Entry &E : Entries) {
    if (Total <= Goal)
      break;
    if (!sys::fs::remove(E.Path)) {
      Total -= E.Size;
      ++Evicted;
    }
  }
}

ResultCache::Stats ResultCache::stats() const {
  Stats S;
  S.Hits = Hits;
  S.Misses = Misses;
  S.Stored = Stored;
  S.StoreFailures = StoreFailures;
  S.Evicted = Evicted;
  return S;
}

Expected<uint64_t> parseCacheSize(StringRef Text) {
  StringRef S = Text.trim();
  auto Refuse = [&] {
    return createStringError(inconvertibleErrorCode(),
                             "--cache-size '%s' is not a size (4096, 100k, 500M, 2G)",
                             Text.str().c_str());
  };
  uint64_t Scale = 1;
  // "GiB", "GB", "G", "g" all mean 2^30: a cache limit needs no SI units.
  StringRef Number = S.rtrim("BbIi");
  if (!Number.empty()) {
    switch (toLower(Number.back())) {
    case 'k':
      Scale = uint64_t(1) << 10;
      break;
    case 'm':
      Scale = uint64_t(1) << 20;
      break;
    case 'g':
      Scale = uint64_t(1) << 30;
      break;
    case 't':
      Scale = uint64_t(1) << 40;
      break;
    default:
      break;
    }
    if (Scale != 1)
      Number = Number.drop_back();
  }
  double Value;
  if (Number.empty() || Number.getAsDouble(Value) || !std::isfinite(Value) || Value < 0)
    return Refuse();
  double Bytes = Value * static_cast<double>(Scale);
  if (Bytes < 1 || Bytes > 1e18)
    return createStringError(inconvertibleErrorCode(),
                             "--cache-size '%s' is out of range (1 byte to 1 EB)",
                             Text.str().c_str());
  return static_cast<uint64_t>(Bytes);
}

} // namespace cuda_advisor::driver
