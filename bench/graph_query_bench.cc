// Warm, in-process latency of the graph queries a daemon answers (process
// start excluded): a symbol's blast radius for the symbol with the most
// dependents, and the dependents count of every symbol of the file with the
// most symbols (the editor's CodeLens), over an indexed tree.
//
//   build/comp index --root TREE
//   COMP_BENCH_TREE=TREE build/bench/graph_query_bench
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "graph/store.h"
#include "query/graph_query.h"

namespace {

struct Fixture {
  std::unique_ptr<comp::graph::Store> store;
  std::filesystem::path root;
  comp::graph::NodeRecord top;  // the node with the most dependents
  std::string biggest_file;
};

Fixture& fixture() {
  static Fixture f = [] {
    Fixture out;
    const char* tree = std::getenv("COMP_BENCH_TREE");
    if (!tree) return out;
    out.root = tree;
    out.store = comp::graph::Store::open_existing(out.root);
    sqlite3* db = out.store->handle();
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT target FROM refs WHERE target IS NOT NULL AND target LIKE '%::%' GROUP BY target "
                       "ORDER BY count(DISTINCT from_node) DESC LIMIT 1",
                       -1, &statement, nullptr);
    if (sqlite3_step(statement) == SQLITE_ROW) {
      auto node = out.store->node(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
      if (node) out.top = *node;
    }
    sqlite3_finalize(statement);
    sqlite3_prepare_v2(db, "SELECT path FROM files ORDER BY symbol_count DESC LIMIT 1", -1, &statement, nullptr);
    if (sqlite3_step(statement) == SQLITE_ROW) out.biggest_file = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    return out;
  }();
  return f;
}

void SymbolReport(benchmark::State& state) {
  Fixture& f = fixture();
  if (!f.store || f.top.id.empty()) {
    state.SkipWithError("set COMP_BENCH_TREE to an indexed tree");
    return;
  }
  std::size_t dependents = 0;
  for (auto _ : state) {
    comp::query::SymbolReport report =
        comp::query::symbol_report(*f.store, f.root, f.top, static_cast<int>(state.range(0)), 100000);
    dependents = report.dependents.size();
    benchmark::DoNotOptimize(report);
  }
  state.SetLabel(f.top.id);
  state.counters["dependents"] = static_cast<double>(dependents);
}
BENCHMARK(SymbolReport)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void DependentsCount(benchmark::State& state) {
  Fixture& f = fixture();
  if (!f.store || f.biggest_file.empty()) {
    state.SkipWithError("set COMP_BENCH_TREE to an indexed tree");
    return;
  }
  std::size_t symbols = 0;
  for (auto _ : state) {
    auto counts = comp::query::dependents_count(*f.store, f.biggest_file);
    symbols = counts.size();
    benchmark::DoNotOptimize(counts);
  }
  state.SetLabel(f.biggest_file);
  state.counters["symbols"] = static_cast<double>(symbols);
}
BENCHMARK(DependentsCount)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
