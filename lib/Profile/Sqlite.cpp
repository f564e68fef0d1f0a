//===- Sqlite.cpp - Read-only access to SQLite profiles -------------------===//
#include "Sqlite.h"

#include "llvm/ADT/STLExtras.h"

#include <sqlite3.h>

using namespace llvm;

namespace cuda_advisor::profile::sqlite {

namespace {

Error failure(StringRef Path, const Twine &What, ::sqlite3 *Db) {
  std::string Reason = Db ? sqlite3_errmsg(Db) : "out of memory";
  return createStringError(inconvertibleErrorCode(), "%s: %s: %s", Path.str().c_str(),
                           What.str().c_str(), Reason.c_str());
}

/// A prepared statement, finalized on every path.
struct Statement {
  ::sqlite3_stmt *S = nullptr;
  ~Statement() { sqlite3_finalize(S); }
};

/// SQL identifiers are quoted: column names come from the file itself.
std::string quoted(StringRef Name) {
  std::string Out = "\"";
  for (char C : Name) {
    if (C == '"')
      Out += '"';
    Out += C;
  }
  return Out + "\"";
}

} // namespace

Expected<std::unique_ptr<Database>> Database::open(StringRef Path) {
  ::sqlite3 *Db = nullptr;
  std::string P = Path.str();
  int Rc = sqlite3_open_v2(P.c_str(), &Db, SQLITE_OPEN_READONLY, nullptr);
  if (Rc != SQLITE_OK) {
    Error E = failure(Path, "cannot open the SQLite database", Db);
    sqlite3_close(Db);
    return std::move(E);
  }
  std::unique_ptr<Database> D(new Database(P, Db));
  if (Error E = D->query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')",
                         [&](const Row &R) {
                           if (std::optional<std::string> N = R.text("name"))
                             D->Tables.insert(*N);
                         }))
    return std::move(E);
  return std::move(D);
}

Database::~Database() { sqlite3_close(Db); }

const std::set<std::string> &Database::columns(StringRef Table) {
  auto [It, New] = Columns.try_emplace(Table.str());
  if (!New || !hasTable(Table))
    return It->second;
  std::set<std::string> &Out = It->second;
  // table_info's errors leave the set empty: the table is then treated as absent.
  consumeError(query("PRAGMA table_info(" + quoted(Table) + ")", [&](const Row &R) {
    if (std::optional<std::string> N = R.text("name"))
      Out.insert(*N);
  }));
  return Out;
}

Error Database::query(StringRef Sql, function_ref<void(const Row &)> Each) {
  Statement St;
  if (sqlite3_prepare_v2(Db, Sql.data(), static_cast<int>(Sql.size()), &St.S, nullptr) !=
      SQLITE_OK)
    return failure(Path, "cannot read the database", Db);
  StringMap<int> Index;
  for (int I = 0, N = sqlite3_column_count(St.S); I < N; ++I)
    Index[sqlite3_column_name(St.S, I)] = I;
  Row R(St.S, Index);
  while (true) {
    int Rc = sqlite3_step(St.S);
    if (Rc == SQLITE_DONE)
      return Error::success();
    if (Rc != SQLITE_ROW)
      return failure(Path, "cannot read the database", Db);
    Each(R);
  }
}

Error Database::select(StringRef Table, ArrayRef<StringRef> Wanted,
                       function_ref<void(const Row &)> Each) {
  std::string Sql = "SELECT ";
  bool Any = false;
  for (StringRef C : Wanted) {
    if (!hasColumn(Table, C))
      continue;
    Sql += (Any ? ", " : "") + quoted(C);
    Any = true;
  }
  if (!Any)
    return Error::success();
  Sql += " FROM " + quoted(Table);
  return query(Sql, Each);
}

std::optional<std::string> Database::scalar(StringRef Sql) {
  std::optional<std::string> Out;
  bool First = true;
  if (Error E = query(Sql, [&](const Row &R) {
        if (First && sqlite3_column_type(R.S, 0) != SQLITE_NULL)
          Out = reinterpret_cast<const char *>(sqlite3_column_text(R.S, 0));
        First = false;
      })) {
    consumeError(std::move(E));
    return std::nullopt;
  }
  return Out;
}

int Row::column(StringRef Name) const {
  auto It = Index.find(Name);
  if (It == Index.end() || sqlite3_column_type(S, It->second) == SQLITE_NULL)
    return -1;
  return It->second;
}

bool Row::has(StringRef Column) const { return column(Column) >= 0; }

std::optional<int64_t> Row::integer(StringRef Column) const {
  int C = column(Column);
  if (C < 0)
    return std::nullopt;
  int T = sqlite3_column_type(S, C);
  if (T == SQLITE_INTEGER)
    return sqlite3_column_int64(S, C);
  if (T == SQLITE_FLOAT)
    return static_cast<int64_t>(sqlite3_column_double(S, C));
  if (T == SQLITE_TEXT) {
    int64_t V;
    if (!StringRef(reinterpret_cast<const char *>(sqlite3_column_text(S, C))).getAsInteger(0, V))
      return V;
  }
  return std::nullopt;
}

std::optional<double> Row::real(StringRef Column) const {
  int C = column(Column);
  if (C < 0)
    return std::nullopt;
  int T = sqlite3_column_type(S, C);
  if (T == SQLITE_INTEGER || T == SQLITE_FLOAT)
    return sqlite3_column_double(S, C);
  return std::nullopt;
}

std::optional<std::string> Row::text(StringRef Column) const {
  int C = column(Column);
  if (C < 0)
    return std::nullopt;
  if (sqlite3_column_type(S, C) == SQLITE_BLOB)
    return std::nullopt;
  const unsigned char *T = sqlite3_column_text(S, C);
  return T ? std::optional<std::string>(reinterpret_cast<const char *>(T)) : std::nullopt;
}

} // namespace cuda_advisor::profile::sqlite
