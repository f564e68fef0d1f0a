//===- Sqlite.h - Read-only access to SQLite profiles (private) -*- C++ -*-===//
//
// A small RAII layer over libsqlite3 for the readers of Nsight Systems
// exports and nvprof databases: the database is opened read-only, tables and
// their columns are looked up in sqlite_master and PRAGMA table_info (never
// assumed), and rows are read by column name, a missing column reading as
// absent.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_PROFILE_SQLITE_H
#define CUDA_ADVISOR_LIB_PROFILE_SQLITE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cuda_advisor::profile::sqlite {

/// The 16 bytes every SQLite 3 database starts with.
inline constexpr llvm::StringRef Magic("SQLite format 3\0", 16);

class Row;

class Database {
public:
  /// Opens Path read-only (SQLITE_OPEN_READONLY); the error names Path.
  static llvm::Expected<std::unique_ptr<Database>> open(llvm::StringRef Path);
  ~Database();

  bool hasTable(llvm::StringRef Name) const { return Tables.count(Name.str()) != 0; }
  const std::set<std::string> &tables() const { return Tables; }
  /// The table's columns (PRAGMA table_info); empty when there is no table.
  const std::set<std::string> &columns(llvm::StringRef Table);
  bool hasColumn(llvm::StringRef Table, llvm::StringRef Column) {
    return columns(Table).count(Column.str()) != 0;
  }

  /// Runs Sql and calls Each for every row; stops at the first error.
  llvm::Error query(llvm::StringRef Sql, llvm::function_ref<void(const Row &)> Each);

  /// SELECTs the Wanted columns that Table has (the others read as absent in
  /// each Row) and calls Each for every row.
  llvm::Error select(llvm::StringRef Table, llvm::ArrayRef<llvm::StringRef> Wanted,
                     llvm::function_ref<void(const Row &)> Each);

  /// The first column of the first row of Sql, as text.
  std::optional<std::string> scalar(llvm::StringRef Sql);

  llvm::StringRef path() const { return Path; }

private:
  Database(std::string Path, ::sqlite3 *Db) : Path(std::move(Path)), Db(Db) {}
  std::string Path;
  ::sqlite3 *Db;
  std::set<std::string> Tables;
  std::map<std::string, std::set<std::string>> Columns;
};

/// One result row; columns are looked up by name.
class Row {
public:
  bool has(llvm::StringRef Column) const;
  /// Absent or NULL columns read as std::nullopt.
  std::optional<int64_t> integer(llvm::StringRef Column) const;
  std::optional<double> real(llvm::StringRef Column) const;
  std::optional<std::string> text(llvm::StringRef Column) const;
  int64_t i64(llvm::StringRef Column, int64_t Default = 0) const {
    return integer(Column).value_or(Default);
  }
  uint64_t u64(llvm::StringRef Column) const {
    int64_t V = i64(Column);
    return V < 0 ? 0 : static_cast<uint64_t>(V);
  }
  uint32_t u32(llvm::StringRef Column) const {
    uint64_t V = u64(Column);
    return V > UINT32_MAX ? 0 : static_cast<uint32_t>(V);
  }

private:
  friend class Database;
  Row(::sqlite3_stmt *S, const llvm::StringMap<int> &Index) : S(S), Index(Index) {}
  int column(llvm::StringRef Name) const;
  ::sqlite3_stmt *S;
  const llvm::StringMap<int> &Index;
};

} // namespace cuda_advisor::profile::sqlite

#endif
