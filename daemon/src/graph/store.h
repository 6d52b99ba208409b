// graph: the SQLite database at <root>/.comp/graph.db (files, nodes, edges and
// their FTS5 indexes). Takes and returns plain structs; knows nothing of
// parsing, walking or JSON.
//
// Invariants:
//  - every write goes through a Batch, one transaction: after a crash at any
//    moment the database holds each file either as before or as after;
//  - a file row's size/mtime/hash change in the same transaction as its nodes,
//    so a file is never marked current with stale nodes;
//  - opening never deletes or rewrites data silently: a corrupt or too-new
//    database is reported (StoreError) and left in place.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace comp::graph {

inline constexpr int kSchemaVersion = 10;

class StoreError : public std::runtime_error {
 public:
  enum class Kind { kUnwritable, kCorrupt, kTooNew, kOther };
  StoreError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// What the indexer compares with the disk to decide what to re-read.
struct FileState {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string sha256;       // hex; empty for a skipped file
  std::string skip_reason;  // "" when indexed
  std::int64_t indexed_at = 0;  // unix seconds when the content was last read
  std::string language;     // as in IndexedFile
  std::int64_t row = 0;     // the row's rowid: indexed_files() lists files in this order
};

struct FileRecord {
  std::string path;          // relative, '/' separators
  std::string language;      // lang::name(), or "" for files comP does not parse
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string sha256;
  std::string skip_reason;   // "" when indexed; walk::to_string(SkipReason) otherwise
  std::string error;         // parse errors, "" when none
  bool has_syntax_errors = false;
  std::int64_t symbol_count = 0;  // put_file writes the count of the non-file nodes it stores
  std::int64_t indexed_at = 0;  // unix seconds
};

// What a query needs of each indexed file: a lighter row than FileRecord,
// for reading every file of a large tree on each query.
struct IndexedFile {
  std::string path;
  std::string language;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t row = 0;  // the row's rowid (0 when not read from the index)
};

struct NodeRecord {
  std::string id;            // stable: "<path>::<Qualified.Name>" (+ "#N" for the Nth same name)
  std::string file_path;
  std::string name;
  std::string kind;
  std::uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
  std::string signature;
  bool is_exported = false;
  std::string scope;         // "pkg.module.Class.method"
  std::string parent_id;     // "" at top level
};

// A reference from one file (a call, import, base class or type name) and
// what the resolver made of it. Unresolved references are kept: re-resolving
// them when other files change is what keeps the edges exact.
enum class RefStatus : int {
  kPending = 0,     // not resolved yet (new, or a file it may depend on changed)
  kResolved = 1,    // `target` (and for imports `target_path`) hold the answer
  kAmbiguous = 2,   // `candidates` definitions could be meant: no edge is invented
  kUnresolved = 3,  // no definition found in the index
  kExternal = 4,    // leads outside the workspace (a library, the standard library)
};

struct RefRecord {
  std::int64_t id = 0;
  std::string file_path;
  std::string from_node;   // innermost enclosing node; the file's node (id = path) for top-level code
  std::string kind;        // import, call, inherit, implement, reference
  std::string name;        // see parse::Reference
  std::string qualifier;
  std::string alias;
  std::string binds;       // see parse::Reference: the variable whose type this names
  std::uint32_t line = 0, column = 0;  // the first site
  // The same reference written again in the same definition (a function
  // calling `log` five times is one row): "line:column" of each later site,
  // space-separated. Resolution is per row; sites are for display.
  std::string more_sites;
  RefStatus status = RefStatus::kPending;
  std::string target;       // node id, "" when none
  std::string target_path;  // imports: the file or directory the module is in, "" when none
  std::int64_t candidates = 0;
};

// Every site of a reference row: (line, column), the first one first.
std::vector<std::pair<std::uint32_t, std::uint32_t>> sites_of(const RefRecord& ref);

// What the resolver writes back for one reference.
struct Resolution {
  RefStatus status = RefStatus::kUnresolved;
  std::string target, target_path;
  std::int64_t candidates = 0;
  bool operator==(const Resolution&) const = default;
};

// A resolved edge with both ends' positions, for blast-radius queries.
struct EdgeRecord {
  std::string from_node, to_node, kind, file_path;
  std::uint32_t line = 0, column = 0;
};

struct SymbolFilter {
  std::string name;          // exact name, or "" for any
  std::string file_path;     // exact path, or ""
  std::string kind;          // exact kind, or "" for any but "file" (the files' own nodes)
  std::size_t limit = 0;     // 0: no limit
};

struct Stats {
  std::int64_t files = 0, indexed_files = 0, skipped_files = 0, files_with_errors = 0;
  std::int64_t symbols = 0, edges = 0, references = 0, ambiguous_references = 0, pending_references = 0;
  std::int64_t source_bytes = 0, database_bytes = 0;
  std::map<std::string, std::int64_t> files_by_language;
  std::map<std::string, std::int64_t> symbols_by_kind;
  std::map<std::string, std::int64_t> skipped_by_reason;
};

// One output of the compressor kept in the index: derived data, keyed by the
// content it was computed from (never by path), so that a row is either right
// for a file's current content or never looked up. `compressor` is the
// compressor's output version: rows of another version are never read.
struct CompressedRecord {
  std::string sha256;        // hex SHA-256 of the input
  std::string language;      // lang::name()
  int level = 0;             // the level asked for
  int compressor = 0;
  std::string text;          // the output
  int level_reached = 0;     // lower than `level` when a level failed its check
  bool reparsed_clean = true;
  std::vector<std::string> errors;
  std::int64_t raw_tokens = 0;  // o200k_base tokens of the input
  std::int64_t tokens = 0;      // ... of `text`
};

class Store;

// A write transaction. Commit() makes everything in it durable at once; a
// Batch destroyed without Commit() rolls back.
class Batch {
 public:
  explicit Batch(Store& store);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // Replaces the file's row, nodes, references (pending resolution) and
  // text. `text` feeds the full-text index; pass "" for skipped files.
  // References elsewhere that may have meant the file's old or new
  // definitions (same name) become pending again, so the next resolve pass
  // brings every edge up to date.
  void put_file(const FileRecord& file, const std::vector<NodeRecord>& nodes, std::string_view text,
                const std::vector<RefRecord>& refs = {});
  // Same content, read again at `indexed_at` (the hash matched): the mtime
  // and read time change, nothing else.
  void touch_file(const std::string& path, std::int64_t mtime_ns, std::int64_t indexed_at);
  void remove_file(const std::string& path);
  // Every import becomes pending: the set of files or a project file that
  // decides where imports lead (tsconfig.json, go.mod, ...) changed.
  void mark_imports_pending();
  // A file's references (with or without its imports) become pending: an
  // import or base class of it now leads elsewhere.
  enum Which { kAll, kAllButImports, kAllButImportsAndBases };
  void mark_file_pending(const std::string& path, Which which);
  // References whose receiver starts with `name` become pending.
  void mark_receiver_pending(const std::string& name);
  // One reference becomes pending.
  void mark_ref_pending(std::int64_t ref_id);
  // References that look names up through the module `path` become
  // pending: in the files importing it, those whose receiver is the name
  // the import binds (`layers.Hashing.from_config` after `from keras import
  // layers`, `ns.parse` after `import * as ns`). What `path` imports or
  // re-exports changed.
  void mark_module_lookups_pending(const std::string& path);
  // The bases of the classes `class_ids` changed: members looked up through
  // them may be found elsewhere now. The references of their subclasses'
  // files (`super().m()`), of files with variables typed by one of them,
  // and those with a subclass as receiver become pending.
  void mark_member_lookups_through(const std::vector<std::string>& class_ids);
  void set_resolution(std::int64_t ref_id, const Resolution& resolution);
  // Adds (or replaces) a cached compression.
  void put_compressed(const CompressedRecord& record);
  // Deletes cached compressions of content no indexed file has any more, and
  // those of another compressor version. Returns the rows deleted.
  std::int64_t prune_compressed(int keep_compressor);
  // The same for the content `hashes` only (what a few edited or removed
  // files had): no scan of the whole cache. Returns the rows deleted.
  std::int64_t prune_compressed(const std::vector<std::string>& hashes);
  // Merges each full-text index (files_fts, symbols_fts) into one segment
  // (FTS5 'optimize'). Every rewritten or removed file leaves its old
  // entries in the segments until a merge reaches them: after a checkout
  // of another commit the indexes held 4-20x the data of a merged one and
  // their BM25 queries took about twice as long. About 1 s on a 10k-file
  // tree. Sets the churn (Store::full_text_churn) to 0.
  void merge_full_text();
  // Counts `files` more rewritten or removed files in the churn.
  void add_full_text_churn(std::int64_t files);
  // The history the index keeps from now on: the commit it was read up to
  // and, per commit, the files it changed (commits of fewer than 2 files
  // are not kept). Replaces what was kept before.
  void replace_history(const std::string& head, const std::vector<std::vector<std::string>>& commits);
  void commit();

  // files_changed's log: the paths of at most this many files per commit
  // (more: the commit is logged as too many), for the last this many commits.
  static constexpr std::size_t kFilesChangesListed = 1000;
  static constexpr std::int64_t kFilesChangesKept = 64;

 private:
  bool clear_file(const std::string& path);
  void file_changed(const std::string& path);
  void collect_names(const std::string& path);
  std::vector<std::string> interface_of(const std::string& path);
  Store& store_;
  bool done_ = false;
  // The paths of the file rows written, touched or removed (commit bumps
  // files_version when there are any), until there are too many to list.
  std::vector<std::string> changed_files_;
  bool too_many_changed_ = false;
  // Files added or removed: the imports that led to them or mention their
  // stem or folder are re-resolved at commit.
  std::vector<std::string> files_added_or_removed_;
  // Files whose imports changed: the imports that lead into them (or into a
  // file re-exporting all of one) are re-resolved at commit.
  std::vector<std::string> reexports_changed_;
  // Classes whose bases changed (ids): see mark_member_lookups_through.
  std::vector<std::string> rebased_classes_;
  std::vector<std::string> changed_names_;  // names defined or bound by changed files
};

// One read transaction over a series of reads on a store's connection: they
// all see the index as it was at the first read, whatever other connections
// commit meanwhile, and SQLite takes and checks its locks once instead of
// once per statement (a query's few hundred reads). No Batch can begin on
// the connection while one is open. Inside a transaction already open it
// does nothing.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(Store& store);
  ~ReadSnapshot();  // ends the transaction (it wrote nothing)
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  sqlite3* db_ = nullptr;  // null when nested
};

class Store {
 public:
  // Opens (creating `.comp/` and the schema when missing) the database of the
  // workspace at `root`. Throws StoreError: kUnwritable when `.comp/` cannot be
  // created or written, kCorrupt when the file is not a healthy comP database,
  // kTooNew when a newer comP wrote it.
  static std::unique_ptr<Store> open(const std::filesystem::path& root);
  // Opens read-only an existing database; throws StoreError (kOther when missing).
  static std::unique_ptr<Store> open_existing(const std::filesystem::path& root);
  // Moves a corrupt database aside (graph.db -> graph.db.corrupt-<unix time>,
  // with its -wal/-shm) so that open() can start afresh. Returns the new name.
  static std::filesystem::path quarantine(const std::filesystem::path& root);
  static std::filesystem::path database_path(const std::filesystem::path& root);
  // Creates <root>/.comp/ when missing (never the root itself), with a
  // `.gitignore` of `*` so that git, and `comp diff`, never see comP's files.
  // Throws StoreError(kUnwritable). Returns the directory.
  static std::filesystem::path ensure_directory(const std::filesystem::path& root);

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Every file's state; without `hashes` the sha256 fields stay empty (a
  // refresh needs them only for files whose size or mtime changed:
  // file_hash()), which spares a string per file on large trees.
  std::unordered_map<std::string, FileState> file_states(bool hashes = true);
  // The states of `paths` and of the files under those that are folders
  // (a targeted index run's part of file_states()).
  std::unordered_map<std::string, FileState> file_states(const std::vector<std::string>& paths, bool hashes = true);
  std::string file_hash(const std::string& path);  // "" when unknown
  std::vector<FileRecord> files();
  // SQLite's data_version of this connection: it changes when another
  // connection (of this process or another) has committed since.
  std::int64_t data_version();
  // A count of the commits that wrote, touched or removed a file row
  // (Batch::commit bumps it): when it is the same, indexed_files() is too.
  std::int64_t files_version();
  // Drawn at random when the database was made: another database file
  // (rebuilt, or copied over this one) has another token.
  std::string database_token();
  // The paths whose rows the commits that moved files_version from `after`
  // to `upto` wrote, touched or removed (sorted, once each); nullopt when
  // the index cannot say: a commit of more than Batch::kFilesChangesListed
  // files, or one older than the last Batch::kFilesChangesKept.
  std::optional<std::vector<std::string>> files_changed(std::int64_t after, std::int64_t upto);
  // A digest of the indexed files' paths and languages, and of the content
  // hashes of those `with_content` names: it changes when one of these does,
  // whichever process wrote the index (a scan of the file rows, without
  // copying them: a few ms on 42k files).
  std::uint64_t files_digest(const std::function<bool(std::string_view path)>& with_content);
  // The files that were indexed (no skip reason), in the order of their
  // rows (rowid; FileState::row).
  std::vector<IndexedFile> indexed_files();
  std::optional<FileRecord> file(const std::string& path);
  // The text the full-text index holds for a file (for documents: their
  // rendered text); nullopt when the file has none.
  std::optional<std::string> file_text(const std::string& path);
  std::vector<NodeRecord> symbols(const SymbolFilter& filter);
  std::vector<NodeRecord> nodes_of_file(const std::string& path);
  std::optional<NodeRecord> node(const std::string& id);
  // BM25 over files (path weighted over body) for an FTS5 query of single
  // tokens; best first, scores positive (higher is better).
  // `length_normalization` is BM25's b (0: none, 1: full; FTS5's bm25() uses 0.75).
  std::vector<std::pair<std::string, double>> search_files(const std::string& fts_query, std::size_t limit,
                                                           double length_normalization = 0.75);
  // For each of `paths`: how many of `tokens` (single tokens of the
  // identifier tokenizer, lower-case) its path or text holds, as the
  // full-text index knows them; 0 for a path not indexed.
  std::vector<std::size_t> tokens_held(const std::vector<std::string>& tokens, const std::vector<std::string>& paths);
  // How many rows of a full-text index, files (search_files) or symbols
  // (search_symbols), hold each of `tokens` (single tokens of the identifier
  // tokenizer, lower-case), and how many rows it has, as BM25 counts them:
  // from FTS5's vocabulary and statistics, without reading the rows. A token
  // in half the rows or more has no weight in BM25 (its idf is at FTS5's
  // floor, 1e-6), yet a query holding it matches, and scores, most of the index.
  enum class FullText { kFiles, kSymbols };
  struct TokenRows {
    std::int64_t total = 0;           // rows in the index (0: unknown)
    std::vector<std::int64_t> rows;   // per token
    bool weightless(std::size_t i) const { return total > 0 && 2 * rows[i] >= total; }
  };
  TokenRows token_rows(FullText index, const std::vector<std::string>& tokens);
  // Symbols by BM25 over name (weight 4), signature and scope (FTS5 query syntax).
  std::vector<std::pair<NodeRecord, double>> search_symbols(const std::string& fts_query, std::size_t limit);
  // Files this file's references lead to / files whose references lead here,
  // with the number of resolved references.
  std::vector<std::pair<std::string, std::int64_t>> files_used_by(const std::string& path);
  std::vector<std::pair<std::string, std::int64_t>> files_using(const std::string& path);
  // Every node, every import: for resolving many references at once.
  std::vector<NodeRecord> all_nodes();
  std::vector<RefRecord> all_imports();
  std::int64_t pending_count();
  std::vector<NodeRecord> nodes_named(const std::string& name);

  // References: `pending_refs` for the resolver (imports first when asked),
  // `refs_of_file` for one file, `refs_from` for one node's outbound ones.
  // Bases: inherit/implement and the references that type a variable (both
  // are what members are looked up through); uses: the other calls and types.
  enum class RefGroup { kImports, kBases, kUses };
  // At most `limit` of them, in no particular order (resolution does not depend on it).
  std::vector<RefRecord> pending_refs(RefGroup group, std::size_t limit);
  bool has_pending_refs();
  std::vector<RefRecord> imports_of_file(const std::string& path);
  // References that give a variable its type (`binds` set), for typed receivers.
  std::vector<RefRecord> bindings_of_file(const std::string& path);
  std::vector<RefRecord> refs_of_file(const std::string& path);
  // Every reference, by file and position (for `comp edges`).
  std::vector<RefRecord> all_refs();
  std::vector<RefRecord> refs_from(const std::string& node_id);
  // Resolved references pointing at `node_id` (its dependents).
  std::vector<RefRecord> refs_to(const std::string& node_id);
  // `files` and the files that re-export all of one of them (`export *
  // from`, `from x import *`, `pub use x::*`), transitively: where a name
  // looked up in one of them may come from. Stops growing past 32 files.
  std::set<std::string> reexporters_of(std::set<std::string> files);
  // Settled imports (resolved or not) that lead to the file `path`: they
  // look their names up in it.
  std::vector<std::int64_t> settled_imports_into(const std::string& path);
  // False while no reference was ever resolved (a first index).
  bool has_settled_refs() const { return has_settled_refs_; }
  // Unresolved or ambiguous references that name `name`.
  std::vector<RefRecord> open_refs_named(const std::string& name);
  // For each node of the file, how many distinct nodes depend on it directly
  // (references resolved to it, from other nodes).
  std::vector<std::pair<std::string, std::int64_t>> dependents_count(const std::string& path);
  // The cached compression of content `sha256` in `language` at `level` by
  // compressor version `compressor`; nullopt when none.
  std::optional<CompressedRecord> compressed(const std::string& sha256, const std::string& language, int level,
                                             int compressor);
  // Whole-index statistics (scans nodes: a few ms per 100k symbols).
  Stats stats();
  // The cheap part of stats(): files by language, skipped by reason, symbol
  // count (what every index run reports).
  Stats counts();
  // PRAGMA integrity_check plus FTS5's own check of both text indexes;
  // "ok" when healthy.
  std::string integrity_check();
  // The pages (rows of the _data tables) of the two full-text indexes:
  // what a query may read, and what merge_full_text() shrinks.
  std::int64_t full_text_pages();
  // Files rewritten or removed since the full-text indexes were last merged.
  std::int64_t full_text_churn();
  // Version control history (Batch::replace_history): the commit it was
  // read up to ("" when none), and the files changed in the same recorded
  // commits as `path`, each with the sum over those commits of 1 / (the
  // commit's files - 1), best first, at most `limit`.
  std::string history_head();
  std::vector<std::pair<std::string, double>> changed_with(const std::string& path, std::size_t limit);
  // Files with content in the index (no skip reason).
  std::int64_t indexed_file_count();
  // SQLite's page cache for this connection (64 MiB by default, for index
  // runs); read connections of a daemon need far less.
  void set_cache_size_mib(int mib);
  // Reads the database's first `mib` MiB through a memory map instead of
  // copies into the page cache (0: off, the default). For a short-lived
  // reader (one `comp query`): its FTS5 queries then skip a read and a
  // malloc per page. The mapped pages count in the process's RSS.
  void set_memory_map_mib(int mib);
  int schema_version();

  sqlite3* handle() { return db_; }

 private:
  friend class Batch;
  Store(sqlite3* db, std::filesystem::path path);
  struct Statements;
  sqlite3* db_;
  std::filesystem::path path_;
  std::unique_ptr<Statements> statements_;
  // False while no reference was ever resolved (a first index): then
  // nothing needs marking pending when files change.
  bool has_settled_refs_ = true;
};

}  // namespace comp::graph
