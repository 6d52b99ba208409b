#include "graph/bm25.h"

#include <sqlite3.h>

#include <cmath>
#include <vector>

namespace comp::graph {
namespace {

// Per-query data, computed on the first row and kept as FTS5 auxdata: the
// idf of each phrase and the average document length.
struct QueryData {
  std::vector<double> idf;
  double average_length = 1;
  std::vector<double> frequency;  // per phrase, for the current row
};

int count_row(const Fts5ExtensionApi*, Fts5Context*, void* user) {
  ++*static_cast<sqlite3_int64*>(user);
  return SQLITE_OK;
}

QueryData* query_data(const Fts5ExtensionApi* api, Fts5Context* context, int* rc) {
  auto* data = static_cast<QueryData*>(api->xGetAuxdata(context, 0));
  if (data) return data;
  auto fresh = new QueryData;
  sqlite3_int64 rows = 0, tokens = 0;
  *rc = api->xRowCount(context, &rows);
  if (*rc == SQLITE_OK) *rc = api->xColumnTotalSize(context, -1, &tokens);
  if (*rc == SQLITE_OK) {
    fresh->average_length = rows > 0 ? static_cast<double>(tokens) / static_cast<double>(rows) : 1;
    if (fresh->average_length <= 0) fresh->average_length = 1;
    int phrases = api->xPhraseCount(context);
    fresh->idf.assign(static_cast<std::size_t>(phrases), 0);
    fresh->frequency.assign(static_cast<std::size_t>(phrases), 0);
    for (int i = 0; i < phrases && *rc == SQLITE_OK; ++i) {
      sqlite3_int64 hits = 0;
      *rc = api->xQueryPhrase(context, i, &hits, count_row);
      // FTS5's own idf, floored the same way (a term in over half the rows
      // still counts a little).
      double idf = std::log((static_cast<double>(rows - hits) + 0.5) / (static_cast<double>(hits) + 0.5));
      fresh->idf[static_cast<std::size_t>(i)] = idf <= 0 ? 1e-6 : idf;
    }
  }
  if (*rc != SQLITE_OK) {
    delete fresh;
    return nullptr;
  }
  *rc = api->xSetAuxdata(context, fresh, [](void* p) { delete static_cast<QueryData*>(p); });
  return *rc == SQLITE_OK ? fresh : nullptr;
}

// comp_bm25(table, b, weight of column 0, weight of column 1, ...)
void comp_bm25(const Fts5ExtensionApi* api, Fts5Context* context, sqlite3_context* result, int argc,
               sqlite3_value** argv) {
  constexpr double k1 = 1.2;
  double b = argc > 0 ? sqlite3_value_double(argv[0]) : 0.75;
  if (!(b >= 0 && b <= 1)) b = 0.75;
  int rc = SQLITE_OK;
  QueryData* data = query_data(api, context, &rc);
  if (!data) {
    sqlite3_result_error_code(result, rc == SQLITE_OK ? SQLITE_ERROR : rc);
    return;
  }
  std::fill(data->frequency.begin(), data->frequency.end(), 0.0);
  int instances = 0;
  rc = api->xInstCount(context, &instances);
  for (int i = 0; rc == SQLITE_OK && i < instances; ++i) {
    int phrase = 0, column = 0, offset = 0;
    rc = api->xInst(context, i, &phrase, &column, &offset);
    if (rc != SQLITE_OK || phrase < 0 || static_cast<std::size_t>(phrase) >= data->frequency.size()) continue;
    double weight = column + 1 < argc ? sqlite3_value_double(argv[column + 1]) : 1.0;
    data->frequency[static_cast<std::size_t>(phrase)] += weight;
  }
  int length = 0;
  if (rc == SQLITE_OK) rc = api->xColumnSize(context, -1, &length);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(result, rc);
    return;
  }
  double norm = k1 * (1 - b + b * static_cast<double>(length) / data->average_length);
  double score = 0;
  for (std::size_t i = 0; i < data->frequency.size(); ++i) {
    double f = data->frequency[i];
    if (f > 0) score += data->idf[i] * f * (k1 + 1) / (f + norm);
  }
  sqlite3_result_double(result, -score);
}

// comp_row_count(table): the number of rows in the table, from FTS5's
// own statistics (what bm25 counts idf against; count(*) would read every row).
void comp_row_count(const Fts5ExtensionApi* api, Fts5Context* context, sqlite3_context* result, int,
                    sqlite3_value**) {
  sqlite3_int64 rows = 0;
  int rc = api->xRowCount(context, &rows);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(result, rc);
    return;
  }
  sqlite3_result_int64(result, rows);
}

}  // namespace

fts5_api* fts5_api_of(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, nullptr) != SQLITE_OK) return nullptr;
  sqlite3_bind_pointer(statement, 1, reinterpret_cast<void*>(&api), "fts5_api_ptr", nullptr);
  sqlite3_step(statement);
  sqlite3_finalize(statement);
  return api;
}

bool register_bm25(sqlite3* db, std::string* error) {
  fts5_api* api = fts5_api_of(db);
  if (!api) {
    if (error) *error = "SQLite was built without FTS5";
    return false;
  }
  int rc = api->xCreateFunction(api, "comp_bm25", nullptr, comp_bm25, nullptr);
  if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "comp_row_count", nullptr, comp_row_count, nullptr);
  if (rc != SQLITE_OK) {
    if (error) *error = sqlite3_errstr(rc);
    return false;
  }
  return true;
}

}  // namespace comp::graph
