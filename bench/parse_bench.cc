// Parse-only throughput (the physical ceiling of indexing: tree-sitter alone,
// one thread), symbol extraction on top of it, and the identifier tokenizer,
// over the files of a real tree; and the walk of that tree (what every
// refresh pays first) on 1, 2 and 4 threads.
//
//   COMP_BENCH_TREE=/path/to/tree build/bench/parse_bench [--benchmark_filter=...]
//
// Each benchmark reports bytes_per_second over all files of its language.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "graph/identifier_tokenizer.h"
#include "parse/symbols.h"
#include "walk/walker.h"

namespace {

struct Corpus {
  std::map<comp::lang::Language, std::vector<std::pair<std::string, std::string>>> files;  // path, text
  std::map<comp::lang::Language, std::size_t> bytes;
};

const Corpus& corpus() {
  static const Corpus loaded = [] {
    Corpus c;
    const char* tree = std::getenv("COMP_BENCH_TREE");
    if (!tree) return c;
    comp::walk::WalkOptions options;
    options.root = tree;
    for (const auto& entry : comp::walk::walk(options).files) {
      std::ifstream in(options.root / entry.rel_path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      std::string content = text.str();
      if (comp::walk::looks_binary(std::string_view(content).substr(0, 8192))) continue;
      auto language = comp::lang::detect(entry.rel_path, std::string_view(content).substr(0, comp::lang::kDetectHeadBytes));
      if (!language) continue;
      c.bytes[*language] += content.size();
      c.files[*language].emplace_back(entry.rel_path, std::move(content));
    }
    return c;
  }();
  return loaded;
}

void parse_only(benchmark::State& state, comp::lang::Language language) {
  const auto& files = corpus().files.at(language);
  comp::parse::SymbolExtractor extractor;
  for (auto _ : state)
    for (const auto& [path, text] : files) benchmark::DoNotOptimize(extractor.parse_only(language, text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes.at(language)));
  state.counters["files"] = static_cast<double>(files.size());
}

void extract_symbols(benchmark::State& state, comp::lang::Language language) {
  const auto& files = corpus().files.at(language);
  comp::parse::SymbolExtractor extractor;
  std::size_t symbols = 0;
  for (auto _ : state) {
    symbols = 0;
    for (const auto& [path, text] : files) symbols += extractor.extract(language, text, path).symbols.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes.at(language)));
  state.counters["symbols"] = static_cast<double>(symbols);
}

void tokenize(benchmark::State& state, comp::lang::Language language) {
  const auto& files = corpus().files.at(language);
  std::size_t tokens = 0;
  for (auto _ : state)
    for (const auto& [path, text] : files)
      comp::graph::split_identifiers(text, [&](std::string_view, int, int) { ++tokens; });
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes.at(language)));
  benchmark::DoNotOptimize(tokens);
}

void walk_tree(benchmark::State& state) {
  comp::walk::WalkOptions options;
  options.root = std::getenv("COMP_BENCH_TREE");
  options.threads = static_cast<unsigned>(state.range(0));
  std::size_t files = 0;
  for (auto _ : state) files = comp::walk::walk(options).files.size();
  state.counters["files"] = static_cast<double>(files);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!std::getenv("COMP_BENCH_TREE")) {
    std::cerr << "parse_bench: set COMP_BENCH_TREE to a source tree (see bench/README.md)\n";
    return 2;
  }
  benchmark::RegisterBenchmark("walk/threads", walk_tree)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond);
  for (const auto& [language, files] : corpus().files) {
    std::string name(comp::lang::name(language));
    benchmark::RegisterBenchmark(("parse_only/" + name).c_str(), parse_only, language)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("extract_symbols/" + name).c_str(), extract_symbols, language)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("tokenize/" + name).c_str(), tokenize, language)->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
