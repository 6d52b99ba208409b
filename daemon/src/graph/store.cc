#include "graph/store.h"

#include <fstream>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>
#include <chrono>
#include <system_error>

#include "graph/bm25.h"
#include "graph/identifier_tokenizer.h"

namespace comp::graph {
namespace {

namespace fs = std::filesystem;

// Schema migrations: entry i brings a database from version i to i + 1.
// Never edit a released entry; append a new one and bump kSchemaVersion.
const char* const kMigrations[] = {
    // 0 -> 1: seed section 4 plus language, size, precise mtime, skip/error
    // reasons, node hierarchy, and the FTS5 tables the search ranks with.
    R"sql(
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    hash TEXT NOT NULL DEFAULT '',
    last_modified INTEGER NOT NULL DEFAULT 0,
    is_stale INTEGER NOT NULL DEFAULT 0,
    language TEXT NOT NULL DEFAULT '',
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ns INTEGER NOT NULL DEFAULT 0,
    skip_reason TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    has_syntax_errors INTEGER NOT NULL DEFAULT 0,
    symbol_count INTEGER NOT NULL DEFAULT 0,
    indexed_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    file_path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL,
    "column" INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    end_column INTEGER NOT NULL,
    signature TEXT,
    is_exported INTEGER NOT NULL DEFAULT 0,
    scope TEXT,
    parent_id TEXT
);
CREATE INDEX nodes_by_file ON nodes(file_path);
CREATE INDEX nodes_by_name ON nodes(name);
CREATE TABLE edges (
    from_node TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    to_node TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    PRIMARY KEY (from_node, to_node, kind)
);
CREATE INDEX edges_by_target ON edges(to_node);
CREATE VIRTUAL TABLE symbols_fts USING fts5(name, signature, scope, tokenize = 'comp_ident',
                                            content = 'nodes', content_rowid = 'rowid');
CREATE VIRTUAL TABLE files_fts USING fts5(path, body, tokenize = 'comp_ident', detail = column);
)sql",
    // 1 -> 2: references and their resolution replace the empty edges table;
    // `edges` becomes the view of resolved references. The file text index
    // keeps positions (detail=full): BM25 then reads term frequencies from
    // the index instead of re-tokenizing every matching file per query. Every file is read
    // again (its hash no longer matches) so that its references are extracted.
    R"sql(
DROP TABLE edges;
CREATE TABLE refs (
    id INTEGER PRIMARY KEY,
    file_path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
    from_node TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    qualifier TEXT NOT NULL DEFAULT '',
    alias TEXT NOT NULL DEFAULT '',
    head TEXT NOT NULL DEFAULT '',
    binds TEXT NOT NULL DEFAULT '',
    line INTEGER NOT NULL,
    more_sites TEXT NOT NULL DEFAULT '',
    "column" INTEGER NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    target TEXT,
    target_path TEXT,
    candidates INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX refs_by_file ON refs(file_path, from_node);
CREATE INDEX refs_by_name ON refs(name);
CREATE INDEX refs_by_head ON refs(head) WHERE head != '';
CREATE INDEX refs_by_target ON refs(target) WHERE target IS NOT NULL;
CREATE INDEX refs_pending ON refs(kind) WHERE status = 0;
CREATE VIEW edges AS SELECT from_node, target AS to_node, kind, file_path, line, "column" FROM refs
    WHERE target IS NOT NULL;
DROP TABLE files_fts;
CREATE VIRTUAL TABLE files_fts USING fts5(path, body, tokenize = 'comp_ident');
UPDATE files SET hash = '', mtime_ns = 0;
)sql",
    // 2 -> 3: a cache of compressed outputs (comp pack, get_file, the
    // pipeline), keyed by content hash: derived data that an index run prunes
    // when no file has that content any more.
    R"sql(
CREATE TABLE compressed (
    hash TEXT NOT NULL,
    language TEXT NOT NULL,
    level INTEGER NOT NULL,
    compressor INTEGER NOT NULL,
    text TEXT NOT NULL,
    level_reached INTEGER NOT NULL,
    reparsed_clean INTEGER NOT NULL,
    errors TEXT NOT NULL DEFAULT '',
    raw_tokens INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (hash, language, level, compressor)
);
)sql",
    // 3 -> 4: imports by the file they lead to: when a file's own imports
    // change, the resolver finds the imports that look names up through it;
    // with their names and specifiers, so that a file added or removed finds
    // the imports that may name it without reading the table.
    R"sql(
CREATE INDEX refs_import_target ON refs(target_path, name, qualifier) WHERE kind = 'import';
)sql",
    // 4 -> 5: how many files were rewritten or removed since the full-text
    // indexes were last merged (Batch::merge_full_text): an index run merges
    // them once that is a tenth of the files. An older index was never
    // merged: it counts as wholly rewritten, and its next run merges.
    R"sql(
CREATE TABLE full_text_churn (id INTEGER PRIMARY KEY CHECK (id = 1), files INTEGER NOT NULL);
INSERT INTO full_text_churn VALUES (1, (SELECT count(*) FROM files));
)sql",
    // 5 -> 6: version control history, the files each recent commit
    // changed, for the files that change together (index/indexer.cc).
    R"sql(
CREATE TABLE history_head (id INTEGER PRIMARY KEY CHECK (id = 1), head TEXT NOT NULL);
INSERT INTO history_head VALUES (1, '');
CREATE TABLE history_commits (commit_no INTEGER PRIMARY KEY, files INTEGER NOT NULL);
CREATE TABLE history (commit_no INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (commit_no, path)) WITHOUT ROWID;
CREATE INDEX history_path ON history(path);
)sql",
    // 6 -> 7: a count of the commits that changed the files table (a row
    // written, touched or removed): the daemons keep their file list until
    // it moves, not until any commit (the pipeline's cache of compressed
    // outputs commits too, after most answers).
    R"sql(
CREATE TABLE files_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO files_version VALUES (1, 0);
)sql",
    // 7 -> 8: the paths each of the last commits that moved files_version
    // wrote, touched or removed ('' for a commit of too many to list): a
    // daemon's file list takes in an edit's few rows instead of reading
    // every row again (Store::files_changed).
    R"sql(
CREATE TABLE files_changes (version INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (version, path)) WITHOUT ROWID;
)sql",
    // 8 -> 9: a JavaScript or TypeScript call through a default import of a
    // file whose default export has no name now goes to that file's node:
    // the calls left unresolved are resolved again on the next run.
    R"sql(
UPDATE refs SET status = 0 WHERE kind = 'call' AND status = 3 AND qualifier = '' AND file_path IN
    (SELECT path FROM files WHERE language IN ('javascript', 'typescript', 'tsx'));
)sql",
    // 9 -> 10: a token drawn when the database is made (or reaches 10): a
    // database written over another in place (a restore by copy keeps the
    // inode) is known for another one (pipeline::FileListCache).
    R"sql(
CREATE TABLE database_token (id INTEGER PRIMARY KEY CHECK (id = 1), token TEXT NOT NULL);
INSERT INTO database_token VALUES (1, lower(hex(randomblob(16))));
)sql",
};
constexpr int kMigrationCount = sizeof(kMigrations) / sizeof(kMigrations[0]);
static_assert(kMigrationCount == kSchemaVersion);

bool is_corruption(int rc) {
  int primary = rc & 0xff;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& what) {
  std::string message = what + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  if (is_corruption(rc)) throw StoreError(StoreError::Kind::kCorrupt, message);
  int primary = rc & 0xff;
  if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM ||
      primary == SQLITE_IOERR)
    throw StoreError(StoreError::Kind::kUnwritable, message);
  throw StoreError(StoreError::Kind::kOther, message);
}

void exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    fail(nullptr, rc, message + " (in: " + std::string(sql).substr(0, 60) + ")");
  }
}

// A prepared statement, reset after each use. Prepared when first used: a
// store keeps some seventy for the writer's work, and a `comp query`
// process uses a handful of them (preparing all of them took 2-3 ms of
// each query's 90 on polybench-dev).
class Statement {
 public:
  Statement(sqlite3* db, std::string sql) : db_(db), sql_(std::move(sql)) {}
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::string_view text) {
    // SQLITE_STATIC: callers bind and step in one expression, and every step
    // ends in reset(), which clears the bindings before the text can go away.
    // A null data pointer would bind NULL: empty text stays text.
    sqlite3_bind_text(handle(), index, text.data() ? text.data() : "", static_cast<int>(text.size()), SQLITE_STATIC);
    return *this;
  }
  Statement& bind(int index, std::int64_t value) {
    sqlite3_bind_int64(handle(), index, value);
    return *this;
  }
  Statement& bind(int index, double value) {
    sqlite3_bind_double(handle(), index, value);
    return *this;
  }
  // Steps once; true while a row is available.
  bool step() {
    int rc = sqlite3_step(handle());
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    int code = rc;
    sqlite3_reset(statement_);
    fail(db_, code, "step " + sql_);
  }
  void run() {
    while (step()) {
    }
    reset();
  }
  void reset() {
    if (!statement_) return;  // never used
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  std::int64_t integer(int column) { return sqlite3_column_int64(statement_, column); }
  double real(int column) { return sqlite3_column_double(statement_, column); }
  sqlite3_stmt* raw() { return handle(); }
  std::string text(int column) { return std::string(view(column)); }
  // Valid until the next step or reset.
  std::string_view view(int column) {
    const unsigned char* value = sqlite3_column_text(statement_, column);
    return value ? std::string_view(reinterpret_cast<const char*>(value), sqlite3_column_bytes(statement_, column))
                 : std::string_view();
  }

 private:
  sqlite3_stmt* handle() {
    if (!statement_) {
      int rc = sqlite3_prepare_v3(db_, sql_.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr);
      if (rc != SQLITE_OK) fail(db_, rc, "prepare " + sql_);
    }
    return statement_;
  }

  sqlite3* db_;
  std::string sql_;
  sqlite3_stmt* statement_ = nullptr;
};

// Resets a statement when a scope that stepped it ends, even on exceptions.
struct ResetOnExit {
  Statement& statement;
  ~ResetOnExit() { statement.reset(); }
};

constexpr const char* kNodeColumns =
    "id, file_path, name, kind, line, \"column\", end_line, end_column, signature, is_exported, scope, parent_id";

NodeRecord read_node(Statement& statement) {
  NodeRecord node;
  node.id = statement.text(0);
  node.file_path = statement.text(1);
  node.name = statement.text(2);
  node.kind = statement.text(3);
  node.line = static_cast<std::uint32_t>(statement.integer(4));
  node.column = static_cast<std::uint32_t>(statement.integer(5));
  node.end_line = static_cast<std::uint32_t>(statement.integer(6));
  node.end_column = static_cast<std::uint32_t>(statement.integer(7));
  node.signature = statement.text(8);
  node.is_exported = statement.integer(9) != 0;
  node.scope = statement.text(10);
  node.parent_id = statement.text(11);
  return node;
}

constexpr const char* kRefColumns =
    "id, file_path, from_node, kind, name, qualifier, alias, line, \"column\", status, coalesce(target, ''), "
    "coalesce(target_path, ''), candidates, binds, more_sites";

RefRecord read_ref(Statement& statement) {
  RefRecord ref;
  ref.id = statement.integer(0);
  ref.file_path = statement.text(1);
  ref.from_node = statement.text(2);
  ref.kind = statement.text(3);
  ref.name = statement.text(4);
  ref.qualifier = statement.text(5);
  ref.alias = statement.text(6);
  ref.line = static_cast<std::uint32_t>(statement.integer(7));
  ref.column = static_cast<std::uint32_t>(statement.integer(8));
  ref.status = static_cast<RefStatus>(statement.integer(9));
  ref.target = statement.text(10);
  ref.target_path = statement.text(11);
  ref.candidates = statement.integer(12);
  ref.binds = statement.text(13);
  ref.more_sites = statement.text(14);
  return ref;
}

// The first identifier of a qualifier ("os" of "os.path"): references whose
// receiver starts with a changed name are re-resolved too.
std::string_view qualifier_head(std::string_view qualifier) {
  std::size_t end = qualifier.find_first_of(".:/");
  return qualifier.substr(0, end);
}

constexpr const char* kFileColumns =
    "path, language, size, mtime_ns, hash, skip_reason, error, has_syntax_errors, symbol_count, indexed_at";

FileRecord read_file(Statement& statement) {
  FileRecord file;
  file.path = statement.text(0);
  file.language = statement.text(1);
  file.size = static_cast<std::uint64_t>(statement.integer(2));
  file.mtime_ns = statement.integer(3);
  file.sha256 = statement.text(4);
  file.skip_reason = statement.text(5);
  file.error = statement.text(6);
  file.has_syntax_errors = statement.integer(7) != 0;
  file.symbol_count = statement.integer(8);
  file.indexed_at = statement.integer(9);
  return file;
}

// SQL has_part(text, part, last): whether `part` (in lower case) is one of
// text's parts between dots, slashes, backslashes and colons, in any case
// (`io.prestosql.sql.Foo` has `sql`, not `presto`); with last = 1, whether
// it is the last part. Import specifiers spell modules so in every language.
void has_part(sqlite3_context* context, int, sqlite3_value** argv) {
  const unsigned char* text = sqlite3_value_text(argv[0]);
  const std::size_t text_size = static_cast<std::size_t>(sqlite3_value_bytes(argv[0]));
  const unsigned char* part = sqlite3_value_text(argv[1]);
  const std::size_t part_size = static_cast<std::size_t>(sqlite3_value_bytes(argv[1]));
  const bool last = sqlite3_value_int(argv[2]) != 0;
  bool found = false;
  if (text && part && part_size > 0) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text_size; ++i) {
      if (i < text_size && text[i] != '.' && text[i] != '/' && text[i] != '\\' && text[i] != ':') continue;
      bool same = i - start == part_size;
      for (std::size_t j = 0; same && j < part_size; ++j)
        same = std::tolower(text[start + j]) == part[j];
      if (!last && same) {
        found = true;
        break;
      }
      found = same;  // the last part's answer stands
      start = i + 1;
    }
  }
  sqlite3_result_int(context, found ? 1 : 0);
}

sqlite3* open_connection(const fs::path& path, int flags) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    fail(nullptr, rc, "cannot open " + path.string() + ": " + message);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, 10000);
  std::string error;
  if (!register_identifier_tokenizer(db, &error) || !register_bm25(db, &error)) {
    sqlite3_close(db);
    throw StoreError(StoreError::Kind::kOther, error);
  }
  if (int rc = sqlite3_create_function_v2(db, "has_part", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                          nullptr, has_part, nullptr, nullptr, nullptr);
      rc != SQLITE_OK) {
    error = sqlite3_errmsg(db);
    sqlite3_close(db);
    throw StoreError(StoreError::Kind::kOther, error);
  }
  return db;
}

int read_schema_version(sqlite3* db) {
  // user_version is in the header: reading it also proves the file is a database.
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, nullptr);
  if (rc != SQLITE_OK) fail(db, rc, "read schema version");
  rc = sqlite3_step(statement);
  int version = rc == SQLITE_ROW ? sqlite3_column_int(statement, 0) : -1;
  sqlite3_finalize(statement);
  if (rc != SQLITE_ROW) fail(db, rc, "read schema version");
  return version;
}

std::int64_t scalar_query(sqlite3* db, const char* sql) {
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &statement, nullptr);
  if (rc != SQLITE_OK) fail(db, rc, sql);
  rc = sqlite3_step(statement);
  std::int64_t value = rc == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
  sqlite3_finalize(statement);
  if (rc != SQLITE_ROW) fail(db, rc, sql);
  return value;
}

std::int64_t count_tables(sqlite3* db) {
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &statement, nullptr);
  if (rc != SQLITE_OK) fail(db, rc, "read schema");
  rc = sqlite3_step(statement);
  std::int64_t count = rc == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
  sqlite3_finalize(statement);
  if (rc != SQLITE_ROW) fail(db, rc, "read schema");
  return count;
}

}  // namespace

struct Store::Statements {
  explicit Statements(sqlite3* db)
      : begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT"),
        rollback(db, "ROLLBACK"),
        delete_symbol_text(db,
                           "INSERT INTO symbols_fts (symbols_fts, rowid, name, signature, scope) SELECT 'delete', "
                           "rowid, name, signature, scope FROM nodes WHERE file_path = ?1"),
        delete_nodes(db, "DELETE FROM nodes WHERE file_path = ?1"),
        delete_refs(db, "DELETE FROM refs WHERE file_path = ?1"),
        file_rowid(db, "SELECT rowid FROM files WHERE path = ?1"),
        // A plain rowid: FTS5 cannot use `rowid = (subquery)` and would scan.
        delete_file_text(db, "DELETE FROM files_fts WHERE rowid = ?1"),
        delete_file(db, "DELETE FROM files WHERE path = ?1"),
        upsert_file(db,
                    "INSERT INTO files (path, hash, last_modified, is_stale, language, size, mtime_ns, skip_reason, "
                    "error, has_syntax_errors, symbol_count, indexed_at) VALUES (?1, ?2, ?3, 0, ?4, ?5, ?6, ?7, ?8, "
                    "?9, ?10, ?11) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, last_modified = "
                    "excluded.last_modified, is_stale = 0, language = excluded.language, size = excluded.size, "
                    "mtime_ns = excluded.mtime_ns, skip_reason = excluded.skip_reason, error = excluded.error, "
                    "has_syntax_errors = excluded.has_syntax_errors, symbol_count = excluded.symbol_count, "
                    "indexed_at = excluded.indexed_at RETURNING rowid"),
        insert_node(db,
                    "INSERT INTO nodes (id, file_path, name, kind, line, \"column\", end_line, end_column, signature, "
                    "is_exported, scope, parent_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"),
        insert_symbol_text(db, "INSERT INTO symbols_fts (rowid, name, signature, scope) VALUES (?1, ?2, ?3, ?4)"),
        insert_file_text(db, "INSERT INTO files_fts (rowid, path, body) VALUES (?1, ?2, ?3)"),
        touch_file(db, "UPDATE files SET mtime_ns = ?2, last_modified = ?3, indexed_at = ?4 WHERE path = ?1"),
        file_states(db, "SELECT path, size, mtime_ns, hash, skip_reason, indexed_at, language, rowid FROM files"),
        all_files(db, (std::string("SELECT ") + kFileColumns + " FROM files ORDER BY path").c_str()),
        one_file(db, (std::string("SELECT ") + kFileColumns + " FROM files WHERE path = ?1").c_str()),
        nodes_of_file(db, (std::string("SELECT ") + kNodeColumns + " FROM nodes WHERE file_path = ?1 ORDER BY line, "
                                                                   "\"column\"").c_str()),
        symbols(db, (std::string("SELECT ") + kNodeColumns +
                     " FROM nodes WHERE (?1 = '' OR name = ?1) AND (?2 = '' OR file_path = ?2) AND ((?3 = '' AND kind "
                     "!= 'file') OR kind = ?3) ORDER BY file_path, line, \"column\" LIMIT ?4").c_str()),
        one_node(db, (std::string("SELECT ") + kNodeColumns + " FROM nodes WHERE id = ?1").c_str()),
        nodes_named(db, (std::string("SELECT ") + kNodeColumns + " FROM nodes WHERE name = ?1 ORDER BY file_path, line, "
                                                                 "\"column\"").c_str()),
        insert_ref(db,
                   "INSERT INTO refs (file_path, from_node, kind, name, qualifier, alias, head, line, \"column\", "
                   "binds, more_sites, target, target_path, candidates) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                   "?10, ?11, nullif(?12, ''), nullif(?13, ''), ?14)"),
        old_resolutions(db,
                        "SELECT from_node, kind, name, qualifier, alias, binds, coalesce(target, ''), "
                        "coalesce(target_path, ''), candidates FROM refs WHERE file_path = ?1"),
        old_names(db,
                  "SELECT name FROM nodes WHERE file_path = ?1 UNION SELECT CASE WHEN alias != '' THEN alias ELSE "
                  "name END FROM refs WHERE file_path = ?1 AND kind = 'import'"),
        interface_of(db,
                     "SELECT id, name, kind, coalesce(parent_id, ''), CAST(is_exported AS TEXT), coalesce(scope, '') "
                     "FROM nodes WHERE file_path = ?1 UNION ALL SELECT char(1) || kind, from_node, name, qualifier, alias, binds "
                     "FROM refs WHERE file_path = ?1 AND (kind IN ('import', 'inherit', 'implement') OR binds != '')"),
        mark_name(db, "UPDATE refs SET status = 0 WHERE name = ?1 AND status != 0"),
        mark_head(db, "UPDATE refs SET status = 0 WHERE head = ?1 AND head != '' AND status != 0"),
        mark_imports(db, "UPDATE refs SET status = 0 WHERE kind = 'import' AND status != 0"),
        // Imports with ?1 or ?2 as a whole part of their name or specifier
        // (has_part), or with ?2 those of a folder by dots alone (`.`, `..`,
        // `../..`: a new index file), or whole-module and wildcard imports
        // whose specifier ends in ?3; an empty one matches none. (A substring matched `sql`
        // in every `io.prestosql.` import on trino.) The import index holds
        // both columns: only the rows that match are read.
        mark_imports_mentioning(db,
                                "UPDATE refs SET status = 0 WHERE kind = 'import' AND status != 0 AND ("
                                "(?1 != '' AND (has_part(name, ?1, 0) OR has_part(qualifier, ?1, 0))) OR "
                                "(?2 != '' AND (has_part(name, ?2, 0) OR has_part(qualifier, ?2, 0) OR "
                                "trim(qualifier, './') = '')) OR "
                                "(?3 != '' AND name IN ('', '*') AND has_part(qualifier, ?3, 1)))"),
        // The refs_by_name index finds the few `*` imports.
        star_importers(db, "SELECT DISTINCT file_path FROM refs WHERE name = '*' AND kind = 'import' AND "
                           "target_path = ?1"),
        imports_into(db, "SELECT id FROM refs WHERE kind = 'import' AND target_path = ?1 AND status != 0"),
        mark_imports_into(db, "UPDATE refs SET status = 0 WHERE kind = 'import' AND target_path = ?1 AND status != 0"),
        mark_ref(db, "UPDATE refs SET status = 0 WHERE id = ?1"),
        module_importers(db, "SELECT DISTINCT file_path, name, qualifier, alias FROM refs WHERE kind = 'import' AND "
                             "target_path = ?1"),
        mark_receiver_in_file(db, "UPDATE refs SET status = 0 WHERE file_path = ?1 AND head = ?2 AND status != 0"),
        mark_chain_in_file(db, "UPDATE refs SET status = 0 WHERE file_path = ?1 AND head = ?2 AND (qualifier = ?3 OR "
                               "substr(qualifier, 1, length(?3) + 1) = ?3 || '.') AND status != 0"),
        // Subclasses and variables typed by a class (refs_by_target).
        class_users(db,
                    "SELECT r.from_node, r.file_path, r.kind IN ('inherit', 'implement'), coalesce(n.name, '') "
                    "FROM refs r LEFT JOIN nodes n ON n.id = r.from_node WHERE r.target = ?1 AND "
                    "(r.kind IN ('inherit', 'implement') OR r.binds != '')"),
        mark_file(db, "UPDATE refs SET status = 0 WHERE file_path = ?1 AND status != 0"),
        mark_file_names(db, "UPDATE refs SET status = 0 WHERE file_path = ?1 AND kind != 'import' AND status != 0"),
        mark_file_uses(db,
                       "UPDATE refs SET status = 0 WHERE file_path = ?1 AND kind NOT IN ('import', 'inherit', "
                       "'implement') AND binds = '' AND status != 0"),
        set_resolution(db,
                       "UPDATE refs SET status = ?2, target = nullif(?3, ''), target_path = nullif(?4, ''), "
                       "candidates = ?5 WHERE id = ?1"),
        pending_imports(db, (std::string("SELECT ") + kRefColumns +
                             " FROM refs WHERE status = 0 AND kind = 'import' LIMIT ?1").c_str()),
        pending_bases(db, (std::string("SELECT ") + kRefColumns +
                           " FROM refs WHERE status = 0 AND kind IN ('inherit', 'implement', 'call', 'reference') AND "
                           "(kind IN ('inherit', 'implement') OR binds != '') LIMIT ?1")
                              .c_str()),
        pending_uses(db, (std::string("SELECT ") + kRefColumns +
                          " FROM refs WHERE status = 0 AND kind IN ('call', 'reference') AND binds = '' LIMIT ?1")
                             .c_str()),
        bindings_of_file(db, (std::string("SELECT ") + kRefColumns +
                              " FROM refs WHERE file_path = ?1 AND binds != '' ORDER BY id").c_str()),
        any_pending(db, "SELECT EXISTS (SELECT 1 FROM refs WHERE status = 0)"),
        imports_of_file(db, (std::string("SELECT ") + kRefColumns +
                             " FROM refs WHERE file_path = ?1 AND kind = 'import' ORDER BY id").c_str()),
        refs_of_file(db, (std::string("SELECT ") + kRefColumns + " FROM refs WHERE file_path = ?1 ORDER BY id").c_str()),
        all_refs(db, (std::string("SELECT ") + kRefColumns + " FROM refs ORDER BY file_path, line, \"column\"").c_str()),
        refs_from(db, (std::string("SELECT ") + kRefColumns + " FROM refs WHERE file_path = ?1 AND from_node = ?2 ORDER BY id").c_str()),
        refs_to(db, (std::string("SELECT ") + kRefColumns +
                     " FROM refs WHERE target = ?1 ORDER BY file_path, line, \"column\"").c_str()),
        open_refs_named(db, (std::string("SELECT ") + kRefColumns +
                             " FROM refs WHERE name = ?1 AND status IN (2, 3) ORDER BY file_path, line").c_str()),
        dependents_count(db,
                         "SELECT n.id, (SELECT count(DISTINCT r.from_node) FROM refs r WHERE r.target = n.id AND "
                         "r.from_node != n.id) FROM nodes n WHERE n.file_path = ?1 ORDER BY n.line, n.\"column\""),
        find_compressed(db,
                        "SELECT text, level_reached, reparsed_clean, errors, raw_tokens, tokens FROM compressed "
                        "WHERE hash = ?1 AND language = ?2 AND level = ?3 AND compressor = ?4"),
        put_compressed(db,
                       "INSERT OR REPLACE INTO compressed (hash, language, level, compressor, text, level_reached, "
                       "reparsed_clean, errors, raw_tokens, tokens) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
        // IN (subquery) builds the set of current hashes once: one pass over each table.
        prune_compressed(db,
                         "DELETE FROM compressed WHERE compressor != ?1 OR hash NOT IN (SELECT hash FROM files WHERE "
                         "hash != '')"),
        // The cache's key starts with the hash: only a hash with cached rows
        // costs the scan of the files.
        prune_compressed_content(db,
                                 "DELETE FROM compressed WHERE hash = ?1 AND NOT EXISTS (SELECT 1 FROM files WHERE "
                                 "hash = ?1)") {}

  Statement begin, commit, rollback;
  Statement delete_symbol_text, delete_nodes, delete_refs, file_rowid, delete_file_text, delete_file;
  Statement upsert_file, insert_node, insert_symbol_text, insert_file_text, touch_file;
  Statement file_states, all_files, one_file, nodes_of_file, symbols, one_node, nodes_named;
  Statement insert_ref, old_resolutions, old_names, interface_of, mark_name, mark_head, mark_imports, mark_imports_mentioning, star_importers, imports_into, mark_imports_into, mark_ref, module_importers, mark_receiver_in_file, mark_chain_in_file, class_users, mark_file, mark_file_names, mark_file_uses, set_resolution;
  Statement pending_imports, pending_bases, pending_uses, bindings_of_file, any_pending, imports_of_file, refs_of_file, all_refs, refs_from, refs_to, open_refs_named, dependents_count;
  Statement find_compressed, put_compressed, prune_compressed, prune_compressed_content;
};

fs::path Store::database_path(const fs::path& root) { return root / ".comp" / "graph.db"; }

Store::Store(sqlite3* db, fs::path path) : db_(db), path_(std::move(path)) {}

Store::~Store() {
  statements_.reset();
  sqlite3_close(db_);
}

fs::path Store::ensure_directory(const fs::path& root) {
  fs::path directory = root / ".comp";
  std::error_code ec;
  bool created = fs::create_directory(directory, ec);  // never creates a missing root
  if (ec) throw StoreError(StoreError::Kind::kUnwritable, "cannot create " + directory.string() + ": " + ec.message());
  fs::path ignore = directory / ".gitignore";
  if (created || !fs::exists(ignore, ec)) std::ofstream(ignore, std::ios::trunc) << "# comP's index and state\n*\n";
  return directory;
}

std::unique_ptr<Store> Store::open(const fs::path& root) {
  ensure_directory(root);
  fs::path path = database_path(root);
  sqlite3* db = open_connection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  std::unique_ptr<Store> store(new Store(db, path));
  exec(db, "PRAGMA foreign_keys = ON");
  int version = read_schema_version(db);
  if (version > kSchemaVersion)
    throw StoreError(StoreError::Kind::kTooNew, path.string() + " has schema version " + std::to_string(version) +
                                                     "; this comp understands up to " +
                                                     std::to_string(kSchemaVersion) + ": upgrade comp");
  if (version == 0 && count_tables(db) > 0)
    throw StoreError(StoreError::Kind::kCorrupt, path.string() + " is a SQLite database but not comP's");
  if (version < kSchemaVersion) {
    exec(db, "BEGIN IMMEDIATE");
    try {
      // Another process may have migrated while we waited for the lock.
      for (int v = read_schema_version(db); v < kSchemaVersion; ++v) {
        exec(db, kMigrations[v]);
        exec(db, ("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
      }
      exec(db, "COMMIT");
    } catch (...) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
  exec(db, "PRAGMA journal_mode = WAL");
  exec(db, "PRAGMA synchronous = NORMAL");
  exec(db, "PRAGMA cache_size = -65536");  // 64 MiB: FTS5 segment merges re-read pages
  exec(db, "PRAGMA temp_store = MEMORY");
  store->statements_ = std::make_unique<Statements>(db);
  store->has_settled_refs_ = scalar_query(db, "SELECT EXISTS (SELECT 1 FROM refs WHERE status != 0)") != 0;
  return store;
}

std::unique_ptr<Store> Store::open_existing(const fs::path& root) {
  fs::path path = database_path(root);
  if (!fs::exists(path))
    throw StoreError(StoreError::Kind::kOther, "no index at " + path.string() + ": run `comp index` first");
  return open(root);
}

fs::path Store::quarantine(const fs::path& root) {
  fs::path path = database_path(root);
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  fs::path target = path;
  target += ".corrupt-" + std::to_string(now.count());
  fs::rename(path, target);
  for (const char* suffix : {"-wal", "-shm"}) {
    fs::path side = path;
    side += suffix;
    std::error_code ec;
    if (fs::exists(side, ec)) {
      fs::path side_target = target;
      side_target += suffix;
      fs::rename(side, side_target, ec);
    }
  }
  return target;
}

namespace {

// At least the files table's rows, read from its largest rowid (no scan),
// for the reads of the whole table to reserve once: growing a vector or a
// map of 40k files by doubling, copying and rehashing was a quarter of
// indexed_files() on material-ui (78 -> 58 ms here). Removed rows leave
// gaps below the largest rowid, so after much churn this overshoots: a
// vector's reserved and unwritten pages are never touched, and it is capped.
std::size_t file_rows_bound(sqlite3* db) {
  constexpr std::int64_t kCap = 1 << 22;
  return static_cast<std::size_t>(std::clamp<std::int64_t>(scalar_query(db, "SELECT max(rowid) FROM files"), 0, kCap));
}

// Adds the rows of a statement selecting path, size, mtime_ns, hash, skip_reason, indexed_at.
void read_file_states(Statement& statement, bool hashes, std::unordered_map<std::string, FileState>* states) {
  while (statement.step())
    states->emplace(statement.text(0), FileState{static_cast<std::uint64_t>(statement.integer(1)),
                                                 statement.integer(2), hashes ? statement.text(3) : std::string(),
                                                 statement.text(4), statement.integer(5), statement.text(6),
                                                 statement.integer(7)});
}

}  // namespace

std::unordered_map<std::string, FileState> Store::file_states(bool hashes) {
  std::unordered_map<std::string, FileState> states;
  states.reserve(file_rows_bound(db_));
  Statement& statement = statements_->file_states;
  ResetOnExit reset{statement};
  read_file_states(statement, hashes, &states);
  return states;
}

std::unordered_map<std::string, FileState> Store::file_states(const std::vector<std::string>& paths, bool hashes) {
  std::unordered_map<std::string, FileState> states;
  // "a/b" and what sorts between "a/b/" and "a/b0" ('0' follows '/'): the
  // primary key's index answers both.
  Statement statement(db_,
                      "SELECT path, size, mtime_ns, hash, skip_reason, indexed_at, language, rowid FROM files "
                      "WHERE path = ?1 OR (path >= ?2 AND path < ?3)");
  for (const std::string& path : paths) {
    std::string under = path + "/", after = path + "0";
    statement.bind(1, path).bind(2, under).bind(3, after);
    ResetOnExit reset{statement};
    read_file_states(statement, hashes, &states);
  }
  return states;
}

std::string Store::file_hash(const std::string& path) {
  Statement statement(db_, "SELECT hash FROM files WHERE path = ?1");
  statement.bind(1, path);
  return statement.step() ? statement.text(0) : std::string();
}

std::vector<FileRecord> Store::files() {
  std::vector<FileRecord> out;
  Statement& statement = statements_->all_files;
  ResetOnExit reset{statement};
  while (statement.step()) out.push_back(read_file(statement));
  return out;
}

std::int64_t Store::full_text_pages() {
  return scalar_query(db_, "SELECT (SELECT count(*) FROM files_fts_data) + (SELECT count(*) FROM symbols_fts_data)");
}

std::int64_t Store::full_text_churn() { return scalar_query(db_, "SELECT files FROM full_text_churn"); }

std::string Store::history_head() {
  Statement statement(db_, "SELECT head FROM history_head");
  return statement.step() ? statement.text(0) : std::string();
}

std::vector<std::pair<std::string, double>> Store::changed_with(const std::string& path, std::size_t limit) {
  std::vector<std::pair<std::string, double>> out;
  Statement statement(db_,
                      "SELECT o.path, sum(1.0 / (c.files - 1)) AS weight FROM history s "
                      "JOIN history_commits c ON c.commit_no = s.commit_no "
                      "JOIN history o ON o.commit_no = s.commit_no AND o.path != ?1 "
                      "WHERE s.path = ?1 GROUP BY o.path ORDER BY weight DESC, o.path LIMIT ?2");
  statement.bind(1, path).bind(2, static_cast<std::int64_t>(limit));
  while (statement.step()) out.emplace_back(statement.text(0), statement.real(1));
  return out;
}

std::int64_t Store::indexed_file_count() { return scalar_query(db_, "SELECT count(*) FROM files WHERE skip_reason = ''"); }

std::int64_t Store::data_version() { return scalar_query(db_, "PRAGMA data_version"); }

std::int64_t Store::files_version() { return scalar_query(db_, "SELECT version FROM files_version"); }

std::string Store::database_token() {
  Statement statement(db_, "SELECT token FROM database_token");
  return statement.step() ? statement.text(0) : std::string();
}

std::optional<std::vector<std::string>> Store::files_changed(std::int64_t after, std::int64_t upto) {
  if (after >= upto) return std::vector<std::string>();
  // Every commit in the range must still be logged (the log keeps the last
  // kFilesChangesKept; an index older than schema 8 logged none), and none
  // may have changed too many files to list.
  Statement statement(db_, "SELECT version, path FROM files_changes WHERE version > ?1 AND version <= ?2 ORDER BY version");
  statement.bind(1, after).bind(2, upto);
  std::vector<std::string> paths;
  std::int64_t versions = 0, last = after;
  while (statement.step()) {
    std::int64_t version = statement.integer(0);
    if (version != last) {
      ++versions;
      last = version;
    }
    std::string path = statement.text(1);
    if (path.empty()) return std::nullopt;
    paths.push_back(std::move(path));
  }
  if (versions != upto - after) return std::nullopt;
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

std::vector<IndexedFile> Store::indexed_files() {
  std::vector<IndexedFile> out;
  out.reserve(file_rows_bound(db_));
  Statement statement(db_,
                      "SELECT path, language, size, mtime_ns, rowid FROM files WHERE skip_reason = '' ORDER BY rowid");
  while (statement.step())
    out.push_back({statement.text(0), statement.text(1), static_cast<std::uint64_t>(statement.integer(2)),
                   statement.integer(3), statement.integer(4)});
  return out;
}

std::uint64_t Store::files_digest(const std::function<bool(std::string_view path)>& with_content) {
  // splitmix64's finaliser: each row's hash is mixed, then summed, so that
  // the digest does not depend on the rows' order.
  auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::hash<std::string_view> hash;
  std::uint64_t digest = 0;
  Statement statement(db_, "SELECT path, language, hash FROM files WHERE skip_reason = ''");
  while (statement.step()) {
    std::string_view path = statement.view(0);
    std::uint64_t row = mix(hash(path)) ^ mix(hash(statement.view(1)) + 1);
    if (with_content(path)) row ^= mix(hash(statement.view(2)) + 2);
    digest += mix(row);
  }
  return digest;
}

std::optional<std::string> Store::file_text(const std::string& path) {
  Statement statement(db_, "SELECT body FROM files_fts WHERE rowid = (SELECT rowid FROM files WHERE path = ?1)");
  statement.bind(1, path);
  if (!statement.step()) return std::nullopt;
  return statement.text(0);
}

std::optional<FileRecord> Store::file(const std::string& path) {
  Statement& statement = statements_->one_file;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  if (!statement.step()) return std::nullopt;
  return read_file(statement);
}

std::vector<NodeRecord> Store::symbols(const SymbolFilter& filter) {
  std::vector<NodeRecord> out;
  Statement& statement = statements_->symbols;
  ResetOnExit reset{statement};
  statement.bind(1, filter.name).bind(2, filter.file_path).bind(3, filter.kind);
  statement.bind(4, filter.limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(filter.limit));
  while (statement.step()) out.push_back(read_node(statement));
  return out;
}

std::vector<NodeRecord> Store::nodes_of_file(const std::string& path) {
  std::vector<NodeRecord> out;
  Statement& statement = statements_->nodes_of_file;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  while (statement.step()) out.push_back(read_node(statement));
  return out;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> sites_of(const RefRecord& ref) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out{{ref.line, ref.column}};
  std::size_t start = 0;
  const std::string& text = ref.more_sites;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::size_t colon = text.find(':', start);
    if (colon != std::string::npos && colon < end) {
      std::uint32_t line = static_cast<std::uint32_t>(std::strtoul(text.c_str() + start, nullptr, 10));
      std::uint32_t column = static_cast<std::uint32_t>(std::strtoul(text.c_str() + colon + 1, nullptr, 10));
      out.emplace_back(line, column);
    }
    start = end + 1;
  }
  return out;
}

std::optional<NodeRecord> Store::node(const std::string& id) {
  Statement& statement = statements_->one_node;
  ResetOnExit reset{statement};
  statement.bind(1, id);
  if (!statement.step()) return std::nullopt;
  return read_node(statement);
}

std::vector<std::pair<std::string, double>> Store::search_files(const std::string& fts_query, std::size_t limit,
                                                                double length_normalization) {
  std::vector<std::pair<std::string, double>> out;
  Statement statement(db_,
                      "SELECT f.path, -s.score FROM (SELECT rowid, comp_bm25(files_fts, ?3, 4.0, 1.0) AS score FROM "
                      "files_fts WHERE files_fts MATCH ?1 ORDER BY score LIMIT ?2) s JOIN files f ON f.rowid = s.rowid "
                      "ORDER BY s.score");
  statement.bind(1, fts_query).bind(2, static_cast<std::int64_t>(limit)).bind(3, length_normalization);
  while (statement.step()) out.emplace_back(statement.text(0), sqlite3_column_double(statement.raw(), 1));
  return out;
}

std::vector<std::size_t> Store::tokens_held(const std::vector<std::string>& tokens,
                                            const std::vector<std::string>& paths) {
  std::vector<std::size_t> out(paths.size(), 0);
  Statement rowid(db_, "SELECT rowid FROM files WHERE path = ?1");
  // Each token a quoted phrase: no text is read as query syntax.
  std::vector<std::string> phrases;
  for (const std::string& token : tokens) phrases.push_back(fts_phrase(token));
  Statement holds(db_, "SELECT 1 FROM files_fts WHERE files_fts MATCH ?1 AND rowid = ?2");
  for (std::size_t i = 0; i < paths.size(); ++i) {
    rowid.bind(1, paths[i]);
    bool found = rowid.step();
    std::int64_t id = found ? rowid.integer(0) : 0;
    rowid.reset();
    if (!found) continue;
    for (const std::string& phrase : phrases) {
      holds.bind(1, phrase).bind(2, id);
      out[i] += holds.step();
      holds.reset();
    }
  }
  return out;
}

Store::TokenRows Store::token_rows(FullText index, const std::vector<std::string>& tokens) {
  const std::string table = index == FullText::kFiles ? "files_fts" : "symbols_fts";
  TokenRows out;
  out.rows.assign(tokens.size(), 0);
  // fts5vocab over the index, in this connection's temp schema (the
  // database file is not written): a token's row count without reading its rows.
  const std::string vocab = "comp_" + table + "_rows";
  if (sqlite3_exec(db_, ("CREATE VIRTUAL TABLE IF NOT EXISTS temp." + vocab + " USING fts5vocab(main, " + table +
                         ", row)").c_str(),
                   nullptr, nullptr, nullptr) != SQLITE_OK)
    return out;
  Statement rows_of(db_, ("SELECT doc FROM temp." + vocab + " WHERE term = ?1").c_str());
  std::size_t most = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    rows_of.bind(1, tokens[i]);
    out.rows[i] = rows_of.step() ? rows_of.integer(0) : 0;
    rows_of.reset();
    if (out.rows[i] > out.rows[most]) most = i;
  }
  if (tokens.empty() || out.rows[most] == 0) return out;
  // The index's row count, as bm25 reads it, in a query on the commonest token.
  Statement total(db_, ("SELECT comp_row_count(" + table + ") FROM " + table + " WHERE " + table +
                        " MATCH ?1 LIMIT 1").c_str());
  const std::string phrase = fts_phrase(tokens[most]);  // bound SQLITE_STATIC: it must outlive the step
  total.bind(1, phrase);
  if (total.step()) out.total = total.integer(0);
  return out;
}

std::vector<std::pair<NodeRecord, double>> Store::search_symbols(const std::string& fts_query, std::size_t limit) {
  std::vector<std::pair<NodeRecord, double>> out;
  std::string columns;
  for (std::string_view rest = kNodeColumns; !rest.empty();) {  // qualify each column with the table
    std::size_t comma = rest.find(',');
    std::string_view column = rest.substr(0, comma);
    while (!column.empty() && column.front() == ' ') column.remove_prefix(1);
    columns += (columns.empty() ? "n." : ", n.") + std::string(column);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  Statement statement(db_, ("SELECT " + columns +
                            ", -s.score FROM (SELECT rowid, bm25(symbols_fts, 4.0, 1.0, 1.0) AS score FROM symbols_fts "
                            "WHERE symbols_fts MATCH ?1 ORDER BY score LIMIT ?2) s JOIN nodes n ON n.rowid = s.rowid "
                            "ORDER BY s.score").c_str());
  statement.bind(1, fts_query).bind(2, static_cast<std::int64_t>(limit));
  while (statement.step()) {
    double score = sqlite3_column_double(statement.raw(), sqlite3_column_count(statement.raw()) - 1);
    out.emplace_back(read_node(statement), score);
  }
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> Store::files_used_by(const std::string& path) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  Statement statement(db_,
                      "SELECT n.file_path, count(*) FROM refs r JOIN nodes n ON n.id = r.target WHERE r.file_path = ?1 "
                      "AND n.file_path != ?1 GROUP BY n.file_path");
  statement.bind(1, path);
  while (statement.step()) out.emplace_back(statement.text(0), statement.integer(1));
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> Store::files_using(const std::string& path) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  Statement statement(db_,
                      "SELECT r.file_path, count(*) FROM nodes n JOIN refs r ON r.target = n.id WHERE n.file_path = ?1 "
                      "AND r.file_path != ?1 GROUP BY r.file_path");
  statement.bind(1, path);
  while (statement.step()) out.emplace_back(statement.text(0), statement.integer(1));
  return out;
}

std::vector<NodeRecord> Store::all_nodes() {
  std::vector<NodeRecord> out;
  Statement statement(db_, (std::string("SELECT ") + kNodeColumns + " FROM nodes ORDER BY file_path, line, \"column\"").c_str());
  while (statement.step()) out.push_back(read_node(statement));
  return out;
}

std::vector<RefRecord> Store::all_imports() {
  Statement statement(db_, (std::string("SELECT ") + kRefColumns + " FROM refs WHERE kind = 'import' ORDER BY id").c_str());
  std::vector<RefRecord> out;
  while (statement.step()) out.push_back(read_ref(statement));
  return out;
}

std::int64_t Store::pending_count() {
  Statement statement(db_, "SELECT count(*) FROM refs WHERE status = 0");
  return statement.step() ? statement.integer(0) : 0;
}

std::vector<NodeRecord> Store::nodes_named(const std::string& name) {
  std::vector<NodeRecord> out;
  Statement& statement = statements_->nodes_named;
  ResetOnExit reset{statement};
  statement.bind(1, name);
  while (statement.step()) out.push_back(read_node(statement));
  return out;
}

namespace {

std::vector<RefRecord> read_refs(Statement& statement) {
  std::vector<RefRecord> out;
  ResetOnExit reset{statement};
  while (statement.step()) out.push_back(read_ref(statement));
  return out;
}

}  // namespace

std::vector<RefRecord> Store::pending_refs(RefGroup group, std::size_t limit) {
  Statement& statement = group == RefGroup::kImports ? statements_->pending_imports
                         : group == RefGroup::kBases ? statements_->pending_bases
                                                     : statements_->pending_uses;
  statement.bind(1, static_cast<std::int64_t>(limit));
  return read_refs(statement);
}

bool Store::has_pending_refs() {
  Statement& statement = statements_->any_pending;
  ResetOnExit reset{statement};
  return statement.step() && statement.integer(0) != 0;
}

std::vector<RefRecord> Store::bindings_of_file(const std::string& path) {
  statements_->bindings_of_file.bind(1, path);
  return read_refs(statements_->bindings_of_file);
}

std::vector<RefRecord> Store::imports_of_file(const std::string& path) {
  statements_->imports_of_file.bind(1, path);
  return read_refs(statements_->imports_of_file);
}

std::vector<RefRecord> Store::refs_of_file(const std::string& path) {
  statements_->refs_of_file.bind(1, path);
  return read_refs(statements_->refs_of_file);
}

std::vector<RefRecord> Store::all_refs() { return read_refs(statements_->all_refs); }

std::vector<RefRecord> Store::refs_from(const std::string& node_id) {
  // A node's references are in its own file: "<path>::<name>", or the path
  // itself for a file's node (qualified names never hold "::").
  std::size_t separator = node_id.rfind("::");
  std::string path = separator == std::string::npos ? node_id : node_id.substr(0, separator);
  statements_->refs_from.bind(1, path).bind(2, node_id);
  return read_refs(statements_->refs_from);
}

std::vector<RefRecord> Store::refs_to(const std::string& node_id) {
  statements_->refs_to.bind(1, node_id);
  return read_refs(statements_->refs_to);
}

std::set<std::string> Store::reexporters_of(std::set<std::string> files) {
  std::vector<std::string> queue(files.begin(), files.end());
  while (!queue.empty() && files.size() <= 32) {
    std::string path = std::move(queue.back());
    queue.pop_back();
    Statement& star = statements_->star_importers;
    ResetOnExit reset{star};
    star.bind(1, path);
    while (star.step())
      if (files.insert(star.text(0)).second) queue.push_back(star.text(0));
  }
  return files;
}

std::vector<std::int64_t> Store::settled_imports_into(const std::string& path) {
  std::vector<std::int64_t> out;
  Statement& statement = statements_->imports_into;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  while (statement.step()) out.push_back(statement.integer(0));
  return out;
}

std::vector<RefRecord> Store::open_refs_named(const std::string& name) {
  statements_->open_refs_named.bind(1, name);
  return read_refs(statements_->open_refs_named);
}

std::vector<std::pair<std::string, std::int64_t>> Store::dependents_count(const std::string& path) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  Statement& statement = statements_->dependents_count;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  while (statement.step()) out.emplace_back(statement.text(0), statement.integer(1));
  return out;
}

namespace {

std::int64_t scalar(sqlite3* db, const char* sql) {
  Statement statement(db, sql);
  return statement.step() ? statement.integer(0) : 0;
}

void grouped(sqlite3* db, const char* sql, std::map<std::string, std::int64_t>& out) {
  Statement statement(db, sql);
  while (statement.step()) out[statement.text(0)] = statement.integer(1);
}

}  // namespace

Stats Store::counts() {
  Stats stats;
  // One plain pass over the files table, summed here: three passes, or
  // SQLite's GROUP BY (which sorts), took 20-25 ms of a 110 ms refresh on
  // a 42k-file tree; this takes 5. Each row counts its symbols: counting
  // the nodes would read the whole node table.
  Statement statement(db_, "SELECT skip_reason, language, symbol_count FROM files");
  std::string reason, language;
  std::int64_t* count = nullptr;
  while (statement.step()) {
    std::string_view row_reason = statement.view(0), row_language = statement.view(1);
    if (!count || row_reason != reason || (reason.empty() && row_language != language)) {
      reason = row_reason;
      language = row_language;
      count = reason.empty() ? &stats.files_by_language[language] : &stats.skipped_by_reason[reason];
    }
    ++*count;
    ++(reason.empty() ? stats.indexed_files : stats.skipped_files);
    stats.symbols += statement.integer(2);
  }
  stats.files = stats.indexed_files + stats.skipped_files;
  return stats;
}

Stats Store::stats() {
  Stats stats = counts();
  stats.files_with_errors = scalar(db_, "SELECT count(*) FROM files WHERE error != ''");
  stats.edges = scalar(db_, "SELECT count(*) FROM refs WHERE target IS NOT NULL");
  stats.references = scalar(db_, "SELECT count(*) FROM refs");
  stats.ambiguous_references = scalar(db_, "SELECT count(*) FROM refs WHERE status = 2");
  stats.pending_references = scalar(db_, "SELECT count(*) FROM refs WHERE status = 0");
  stats.source_bytes = scalar(db_, "SELECT coalesce(sum(size), 0) FROM files WHERE skip_reason = ''");
  stats.database_bytes = scalar(db_, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  grouped(db_, "SELECT kind, count(*) FROM nodes GROUP BY kind", stats.symbols_by_kind);
  return stats;
}

ReadSnapshot::ReadSnapshot(Store& store) {
  sqlite3* db = store.handle();
  if (!sqlite3_get_autocommit(db)) return;  // nested in an open transaction: its snapshot holds
  exec(db, "BEGIN");
  db_ = db;
}

ReadSnapshot::~ReadSnapshot() {
  if (db_ && !sqlite3_get_autocommit(db_) && sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Store::set_memory_map_mib(int mib) {
  exec(db_, ("PRAGMA mmap_size = " + std::to_string(static_cast<std::int64_t>(mib) * 1024 * 1024)).c_str());
}

void Store::set_cache_size_mib(int mib) { exec(db_, ("PRAGMA cache_size = -" + std::to_string(mib * 1024)).c_str()); }

std::string Store::integrity_check() {
  Statement statement(db_, "PRAGMA integrity_check");
  std::string result;
  while (statement.step()) result += (result.empty() ? "" : "\n") + statement.text(0);
  // The FTS5 indexes must agree with their content (nodes, files_fts rows).
  for (const char* table : {"symbols_fts", "files_fts"}) {
    std::string sql = std::string("INSERT INTO ") + table + " (" + table + ") VALUES ('integrity-check')";
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      result += std::string("\n") + table + ": " + (error ? error : "integrity-check failed");
      sqlite3_free(error);
    }
  }
  return result;
}

int Store::schema_version() { return read_schema_version(db_); }

Batch::Batch(Store& store) : store_(store) { store_.statements_->begin.run(); }

Batch::~Batch() {
  if (!done_) {
    try {
      store_.statements_->rollback.run();
    } catch (...) {
    }
  }
}

// Removes a file's nodes (with their symbol text) and its text, keeping its
// row; returns false when the file has no row.
bool Batch::clear_file(const std::string& path) {
  auto& s = *store_.statements_;
  std::int64_t rowid = 0;
  {
    ResetOnExit reset{s.file_rowid};
    s.file_rowid.bind(1, path);
    if (!s.file_rowid.step()) return false;
    rowid = s.file_rowid.integer(0);
  }
  s.delete_symbol_text.bind(1, path).run();
  s.delete_nodes.bind(1, path).run();
  s.delete_refs.bind(1, path).run();
  s.delete_file_text.bind(1, rowid).run();
  return true;
}

static std::string interface_key(std::string_view a, std::string_view b, std::string_view c, std::string_view d,
                          std::string_view e, std::string_view f) {
  std::string key;
  for (std::string_view part : {a, b, c, d, e, f}) {
    key.append(part);
    key.push_back('\x1f');
  }
  return key;
}

std::vector<std::string> Batch::interface_of(const std::string& path) {
  std::vector<std::string> keys;
  Statement& statement = store_.statements_->interface_of;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  while (statement.step())
    keys.push_back(interface_key(statement.text(0), statement.text(1), statement.text(2), statement.text(3),
                                 statement.text(4), statement.text(5)));
  return keys;
}

// Remembers the names a file defines or binds (before and after a change):
// references elsewhere with one of them as name or receiver are re-resolved.
void Batch::collect_names(const std::string& path) {
  Statement& statement = store_.statements_->old_names;
  ResetOnExit reset{statement};
  statement.bind(1, path);
  while (statement.step()) changed_names_.push_back(statement.text(0));
}

void Batch::put_file(const FileRecord& file, const std::vector<NodeRecord>& nodes, std::string_view text,
                     const std::vector<RefRecord>& refs) {
  auto& s = *store_.statements_;
  file_changed(file.path);
  // What other files' references can depend on: the file's definitions
  // (ids, kinds, nesting, export) and the imports, bases and typed variables
  // it declares. When an edit leaves these as they were (a body, a comment),
  // nothing elsewhere needs resolving again: only the file's own references.
  std::vector<std::string> before = interface_of(file.path);
  std::vector<std::string> after;
  after.reserve(nodes.size() + refs.size());
  for (const NodeRecord& node : nodes)
    after.push_back(interface_key(node.id, node.name, node.kind, node.parent_id, node.is_exported ? "1" : "0", node.scope));
  for (const RefRecord& ref : refs)
    if (ref.kind == "import" || ref.kind == "inherit" || ref.kind == "implement" || !ref.binds.empty())
      after.push_back(interface_key("\x01" + ref.kind, ref.from_node, ref.name, ref.qualifier, ref.alias, ref.binds));
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  // When only definitions changed (imports, bases and typed variables as
  // they were), only the names whose definitions differ can resolve
  // differently elsewhere: a function added to a file re-resolves the
  // references named like it, not every name the file defines.
  std::vector<std::string> changed_keys;
  std::set_symmetric_difference(before.begin(), before.end(), after.begin(), after.end(),
                                std::back_inserter(changed_keys));
  bool only_definitions = std::none_of(changed_keys.begin(), changed_keys.end(),
                                       [](const std::string& key) { return key.starts_with('\x01'); });
  // Bases and typed variables decide members looked up through the file's
  // classes elsewhere: every name it defines or binds re-resolves. Imports
  // alone decide only the names they bind and what the file re-exports.
  bool only_definitions_and_imports =
      std::all_of(changed_keys.begin(), changed_keys.end(),
                  [](const std::string& key) { return !key.starts_with('\x01') || key.starts_with("\x01import\x1f"); });
  std::size_t names_before = changed_names_.size();
  if (!only_definitions_and_imports) collect_names(file.path);
  // The previous answers of the file's references ride along with the new
  // rows (still pending): the resolver then sees which answers really moved.
  std::unordered_map<std::string, Resolution> previous;
  if (!refs.empty()) {
    Statement& old = s.old_resolutions;
    ResetOnExit reset{old};
    old.bind(1, file.path);
    while (old.step())
      previous.emplace(interface_key(old.text(0), old.text(1), old.text(2), old.text(3), old.text(4), old.text(5)),
                       Resolution{RefStatus::kPending, old.text(6), old.text(7), old.integer(8)});
  }
  // Classes whose bases changed: members found through them, at commit.
  for (const std::string& key : changed_keys)
    if (key.starts_with("\x01inherit\x1f") || key.starts_with("\x01implement\x1f")) {
      std::size_t start = key.find('\x1f') + 1;
      rebased_classes_.push_back(key.substr(start, key.find('\x1f', start) - start));
    }
  // Imports that may lead here re-resolve when the file is new, or when what
  // it imports or re-exports changed (`export *`, `pub use`, `__init__.py`).
  bool existed = clear_file(file.path);
  if (!existed) files_added_or_removed_.push_back(file.path);
  else if (!only_definitions) reexports_changed_.push_back(file.path);
  std::int64_t file_rowid = 0;
  {
    Statement& upsert = s.upsert_file;
    ResetOnExit reset{upsert};
    upsert.bind(1, file.path).bind(2, file.sha256).bind(3, file.mtime_ns / 1000000000);
    upsert.bind(4, file.language).bind(5, static_cast<std::int64_t>(file.size)).bind(6, file.mtime_ns);
    upsert.bind(7, file.skip_reason).bind(8, file.error).bind(9, std::int64_t{file.has_syntax_errors});
    // What the row says is what is written: Store::counts() sums it.
    auto symbols = std::count_if(nodes.begin(), nodes.end(), [](const NodeRecord& node) { return node.kind != "file"; });
    upsert.bind(10, static_cast<std::int64_t>(symbols)).bind(11, file.indexed_at);
    if (upsert.step()) file_rowid = upsert.integer(0);
    while (upsert.step()) {
    }
  }
  for (const NodeRecord& node : nodes) {
    Statement& insert = s.insert_node;
    insert.bind(1, node.id).bind(2, node.file_path).bind(3, node.name).bind(4, node.kind);
    insert.bind(5, std::int64_t{node.line}).bind(6, std::int64_t{node.column});
    insert.bind(7, std::int64_t{node.end_line}).bind(8, std::int64_t{node.end_column});
    insert.bind(9, node.signature).bind(10, std::int64_t{node.is_exported}).bind(11, node.scope);
    insert.bind(12, node.parent_id).run();
    std::int64_t rowid = sqlite3_last_insert_rowid(store_.db_);
    s.insert_symbol_text.bind(1, rowid).bind(2, node.name).bind(3, node.signature).bind(4, node.scope).run();
    changed_names_.push_back(node.name);
  }
  for (const RefRecord& ref : refs) {
    Statement& insert = s.insert_ref;
    insert.bind(1, file.path).bind(2, ref.from_node).bind(3, ref.kind).bind(4, ref.name).bind(5, ref.qualifier);
    insert.bind(6, ref.alias).bind(7, ref.kind == "import" ? std::string_view() : qualifier_head(ref.qualifier));
    insert.bind(8, std::int64_t{ref.line}).bind(9, std::int64_t{ref.column}).bind(10, ref.binds).bind(11, ref.more_sites);
    auto before_ref = previous.find(interface_key(ref.from_node, ref.kind, ref.name, ref.qualifier, ref.alias, ref.binds));
    if (before_ref != previous.end())
      insert.bind(12, before_ref->second.target).bind(13, before_ref->second.target_path).bind(14, before_ref->second.candidates);
    else
      insert.bind(12, std::string_view()).bind(13, std::string_view()).bind(14, std::int64_t{0});
    insert.run();
    if (ref.kind == "import") changed_names_.push_back(ref.alias.empty() ? ref.name : ref.alias);
  }
  if (only_definitions_and_imports) {
    // Only the names whose definitions differ (node keys: id, name, ...).
    // Other files' own imports bind the names for their bare uses: a
    // changed import of this file changes only lookups through it (at
    // commit).
    changed_names_.resize(names_before);
    for (const std::string& key : changed_keys) {
      if (key.starts_with('\x01')) continue;
      std::size_t start = key.find('\x1f') + 1;
      changed_names_.push_back(key.substr(start, key.find('\x1f', start) - start));
    }
  }
  if (!text.empty() || file.skip_reason.empty())
    s.insert_file_text.bind(1, file_rowid).bind(2, file.path).bind(3, text).run();
}

void Batch::touch_file(const std::string& path, std::int64_t mtime_ns, std::int64_t indexed_at) {
  file_changed(path);
  store_.statements_->touch_file.bind(1, path).bind(2, mtime_ns).bind(3, mtime_ns / 1000000000).bind(4, indexed_at).run();
}

void Batch::remove_file(const std::string& path) {
  collect_names(path);
  if (clear_file(path)) {
    store_.statements_->delete_file.bind(1, path).run();
    file_changed(path);
    files_added_or_removed_.push_back(path);
  }
}

void Batch::file_changed(const std::string& path) {
  if (too_many_changed_) return;
  if (changed_files_.size() == kFilesChangesListed) {
    too_many_changed_ = true;  // the readers read every row again
    changed_files_ = {};
    return;
  }
  changed_files_.push_back(path);
}

void Batch::mark_imports_pending() { store_.statements_->mark_imports.run(); }

void Batch::mark_file_pending(const std::string& path, Which which) {
  auto& s = *store_.statements_;
  (which == kAll ? s.mark_file : which == kAllButImports ? s.mark_file_names : s.mark_file_uses).bind(1, path).run();
}

void Batch::mark_ref_pending(std::int64_t ref_id) { store_.statements_->mark_ref.bind(1, ref_id).run(); }

void Batch::mark_module_lookups_pending(const std::string& path) {
  auto& s = *store_.statements_;
  // The receivers the imports of a file bind: an import's alias, the name
  // it imports, or for a whole module its first segment (Python's `import
  // a.b` binds a) or last (Go, Java, Rust: `import "x/y/pkg"` binds pkg);
  // both, when unsure.
  auto receivers_of = [&](const std::string& module) {
    std::set<std::pair<std::string, std::string>> receivers;
    Statement& importers = s.module_importers;
    ResetOnExit reset{importers};
    importers.bind(1, module);
    while (importers.step()) {
      std::string file = importers.text(0), name = importers.text(1), qualifier = importers.text(2),
                  alias = importers.text(3);
      if (!alias.empty()) {
        receivers.emplace(file, alias);
      } else if (!name.empty() && name != "*") {
        receivers.emplace(file, name);
      } else if (!qualifier.empty()) {
        receivers.emplace(file, std::string(qualifier_head(qualifier)));
        std::size_t last = qualifier.find_last_of(".:/");
        receivers.emplace(file, last == std::string::npos ? qualifier : qualifier.substr(last + 1));
      }
    }
    return receivers;
  };
  for (const auto& [file, receiver] : receivers_of(path))
    if (!receiver.empty()) s.mark_receiver_in_file.bind(1, file).bind(2, receiver).run();
  // Python reaches a subpackage through the packages above it
  // (`pkg.sub.x` after `import pkg`, `sub.core.x` after `from pkg import
  // sub`): in the files importing one of them, the lookups that go down
  // the chain to this module.
  std::string module;
  if (path.ends_with("/__init__.py") || path.ends_with("/__init__.pyi"))
    module = path.substr(0, path.rfind('/'));
  else if (path.ends_with(".py") || path.ends_with(".pyi"))
    module = path.substr(0, path.rfind('.'));
  else
    return;
  std::string rest;  // the chain from the package above down to the module
  for (std::size_t slash = module.rfind('/'); slash != std::string::npos && slash > 0; slash = module.rfind('/')) {
    std::string segment = module.substr(slash + 1);
    rest = rest.empty() ? segment : segment + "." + rest;
    module.resize(slash);
    const std::string above = module + "/__init__.py";
    for (const auto& [file, receiver] : receivers_of(above))
      if (!receiver.empty()) s.mark_chain_in_file.bind(1, file).bind(2, receiver).bind(3, receiver + "." + rest).run();
  }
}

void Batch::mark_member_lookups_through(const std::vector<std::string>& class_ids) {
  auto& s = *store_.statements_;
  // The resolver looks members up one base deep (the class, then its
  // bases' own members): direct subclasses are the last that can see a
  // change of the class's bases.
  std::set<std::string> files, names;
  for (const std::string& id : class_ids) {
    Statement& users = s.class_users;
    ResetOnExit reset{users};
    users.bind(1, id);
    while (users.step()) {
      files.insert(users.text(1));
      if (users.integer(2) != 0 && !users.text(3).empty()) names.insert(users.text(3));  // a subclass
    }
  }
  for (const std::string& file : files) s.mark_file_uses.bind(1, file).run();
  for (const std::string& name : names) s.mark_head.bind(1, name).run();
}

void Batch::mark_receiver_pending(const std::string& name) { store_.statements_->mark_head.bind(1, name).run(); }

void Batch::set_resolution(std::int64_t ref_id, const Resolution& resolution) {
  store_.has_settled_refs_ = true;
  store_.statements_->set_resolution.bind(1, ref_id)
      .bind(2, static_cast<std::int64_t>(resolution.status))
      .bind(3, resolution.target)
      .bind(4, resolution.target_path)
      .bind(5, resolution.candidates)
      .run();
}

namespace {

// Compressor messages are single lines: '\n' joins them in one column.
std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

void Batch::put_compressed(const CompressedRecord& record) {
  std::string errors = join_lines(record.errors);
  store_.statements_->put_compressed.bind(1, record.sha256)
      .bind(2, record.language)
      .bind(3, std::int64_t{record.level})
      .bind(4, std::int64_t{record.compressor})
      .bind(5, record.text)
      .bind(6, std::int64_t{record.level_reached})
      .bind(7, std::int64_t{record.reparsed_clean ? 1 : 0})
      .bind(8, errors)
      .bind(9, record.raw_tokens)
      .bind(10, record.tokens)
      .run();
}

void Batch::merge_full_text() {
  exec(store_.db_, "INSERT INTO files_fts(files_fts) VALUES('optimize')");
  exec(store_.db_, "INSERT INTO symbols_fts(symbols_fts) VALUES('optimize')");
  exec(store_.db_, "UPDATE full_text_churn SET files = 0");
}

void Batch::replace_history(const std::string& head, const std::vector<std::vector<std::string>>& commits) {
  exec(store_.db_, "DELETE FROM history; DELETE FROM history_commits");
  Statement head_row(store_.db_, "UPDATE history_head SET head = ?1");
  head_row.bind(1, head).run();
  Statement commit_row(store_.db_, "INSERT INTO history_commits VALUES (?1, ?2)");
  Statement file_row(store_.db_, "INSERT OR IGNORE INTO history VALUES (?1, ?2)");
  std::int64_t number = 0;
  for (const std::vector<std::string>& files : commits) {
    ++number;
    if (files.size() < 2) continue;  // changed alone: no file changed with another
    commit_row.bind(1, number).bind(2, static_cast<std::int64_t>(files.size())).run();
    for (const std::string& file : files) file_row.bind(1, number).bind(2, file).run();
  }
}

void Batch::add_full_text_churn(std::int64_t files) {
  Statement statement(store_.db_, "UPDATE full_text_churn SET files = files + ?1");
  statement.bind(1, files).run();
}

std::int64_t Batch::prune_compressed(int keep_compressor) {
  store_.statements_->prune_compressed.bind(1, std::int64_t{keep_compressor}).run();
  return sqlite3_changes64(store_.db_);
}

std::int64_t Batch::prune_compressed(const std::vector<std::string>& hashes) {
  std::int64_t deleted = 0;
  for (const std::string& hash : hashes) {
    store_.statements_->prune_compressed_content.bind(1, hash).run();
    deleted += sqlite3_changes64(store_.db_);
  }
  return deleted;
}

std::optional<CompressedRecord> Store::compressed(const std::string& sha256, const std::string& language, int level,
                                                  int compressor) {
  Statement& statement = statements_->find_compressed;
  ResetOnExit reset{statement};
  statement.bind(1, sha256).bind(2, language).bind(3, std::int64_t{level}).bind(4, std::int64_t{compressor});
  if (!statement.step()) return std::nullopt;
  CompressedRecord record;
  record.sha256 = sha256;
  record.language = language;
  record.level = level;
  record.compressor = compressor;
  record.text = statement.text(0);
  record.level_reached = static_cast<int>(statement.integer(1));
  record.reparsed_clean = statement.integer(2) != 0;
  record.errors = split_lines(statement.text(3));
  record.raw_tokens = statement.integer(4);
  record.tokens = statement.integer(5);
  return record;
}

void Batch::commit() {
  auto& s = *store_.statements_;
  if (!store_.has_settled_refs_) changed_names_.clear();  // everything is pending already
  if (!files_added_or_removed_.empty() && store_.has_settled_refs_) {
    // An import leads to a file through its module path, so one that may
    // lead to a new file (or led to a removed one) mentions the file's stem
    // (up to its first dot: `./Button`, `a.b.Button`, `crate::button`) or
    // its folder's name: any import for an index file (`index.ts`,
    // `__init__.py`, `mod.rs`), whole-module and wildcard imports for
    // others (a Go or Java package, `import a.b`).
    // Matching is a case-insensitive substring test, a superset; over 16
    // files at once (a checkout) mark every import. The imports that led to a
    // removed file are also found by their target. What the files that
    // re-export all of one export follows when the resolver settles their
    // `export *` again (it then marks what looks names up through them).
    // One scan of the references per file (about 70 ms on trino's 550,000).
    auto lower = [](std::string text) {
      std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
      return text;
    };
    bool many = files_added_or_removed_.size() > 16;
    if (many) s.mark_imports.run();
    for (const std::string& path : files_added_or_removed_) {
      s.mark_imports_into.bind(1, path).run();
      if (many) continue;
      std::size_t slash = path.rfind('/');
      std::string stem = path.substr(slash == std::string::npos ? 0 : slash + 1);
      std::size_t dot = stem.find('.', 1);
      if (dot != std::string::npos) stem.resize(dot);
      std::string folder = slash == std::string::npos ? std::string() : path.substr(0, slash);
      folder.erase(0, folder.rfind('/') + 1);  // npos + 1 == 0: a top-level folder stays whole
      stem = lower(stem);
      folder = lower(folder);
      bool index_file = stem == "index" || stem == "__init__" || stem == "mod";
      s.mark_imports_mentioning.bind(1, stem)
          .bind(2, index_file ? folder : std::string())
          .bind(3, index_file ? std::string() : folder)
          .run();
    }
  }
  if (!rebased_classes_.empty() && store_.has_settled_refs_) mark_member_lookups_through(rebased_classes_);
  rebased_classes_.clear();
  if (!reexports_changed_.empty() && store_.has_settled_refs_) {
    // A file's imports changed: names looked up in it, or in a file that
    // re-exports all of it, may come from elsewhere now (or no longer come):
    // through imports of it (`from m import x`), through modules
    // (`m.x`, `ns.x`), and in those files' own references.
    for (const std::string& path : reexports_changed_)
      for (const std::string& file : store_.reexporters_of({path})) {
        s.mark_imports_into.bind(1, file).run();
        mark_module_lookups_pending(file);
        if (file != path) s.mark_file_names.bind(1, file).run();
      }
  }
  reexports_changed_.clear();
  std::sort(changed_names_.begin(), changed_names_.end());
  changed_names_.erase(std::unique(changed_names_.begin(), changed_names_.end()), changed_names_.end());
  for (const std::string& name : changed_names_) {
    if (name.empty() || name == "*") continue;
    s.mark_name.bind(1, name).run();
    s.mark_head.bind(1, name).run();
  }
  changed_names_.clear();
  files_added_or_removed_.clear();
  if (too_many_changed_ || !changed_files_.empty()) {
    // files_version moves, and the log says which rows it moved for.
    std::int64_t version = scalar_query(store_.db_, "UPDATE files_version SET version = version + 1 RETURNING version");
    Statement log(store_.db_, "INSERT OR IGNORE INTO files_changes (version, path) VALUES (?1, ?2)");
    if (too_many_changed_) changed_files_.assign(1, std::string());
    for (const std::string& path : changed_files_) {
      log.bind(1, version).bind(2, path).run();
    }
    Statement prune(store_.db_, "DELETE FROM files_changes WHERE version <= ?1");
    prune.bind(1, version - kFilesChangesKept).run();
  }
  store_.statements_->commit.run();
  done_ = true;
}

}  // namespace comp::graph
