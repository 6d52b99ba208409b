// graph/bm25: `comp_bm25(fts_table, b, weight...)`, an FTS5 ranking function
// like FTS5's built-in bm25() but with the length normalisation `b` as an
// argument (bm25() fixes it at 0.75). Source files vary in length far more
// than prose documents, and the file a task must change is often a long,
// central one: a weaker length penalty ranks it better (see
// bench/README.md, "Context retrieval"). Returns the negated score, as
// bm25() does, so that ORDER BY ascending ranks best first.
#pragma once

#include <string>

struct sqlite3;
struct fts5_api;

namespace comp::graph {

// The connection's FTS5 API (nullptr when SQLite lacks FTS5).
fts5_api* fts5_api_of(sqlite3* db);

// Registers comp_bm25, and comp_row_count(fts_table) (the table's row count
// from FTS5's statistics, in any full-text query), on the connection; false
// (with a message) when SQLite lacks FTS5.
bool register_bm25(sqlite3* db, std::string* error);

}  // namespace comp::graph
