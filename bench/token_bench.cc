// o200k_base token counting throughput (comp::tokens::count, one thread) over
// the text files of a real tree: the walker's files (git ignore rules, 1 MiB
// limit), binary files left out.
//
//   COMP_BENCH_TREE=/path/to/tree build/bench/token_bench [--benchmark_filter=...]
//
// COMP_BENCH_TREE defaults to this repository. Reports bytes_per_second and
// the tokens per byte of the corpus. count/warm reuses the per-thread piece
// cache across iterations (a long-running daemon); count/cold starts each
// iteration on a fresh thread (an empty cache); encode returns the ids.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "tokens/tokens.h"
#include "walk/walker.h"

namespace {

struct Corpus {
  std::vector<std::string> files;
  std::size_t bytes = 0;
};

const Corpus& corpus() {
  static const Corpus loaded = [] {
    Corpus c;
    const char* tree = std::getenv("COMP_BENCH_TREE");
    comp::walk::WalkOptions options;
    options.root = tree ? tree : COMP_SOURCE_DIR;
    for (const auto& entry : comp::walk::walk(options).files) {
      std::ifstream in(options.root / entry.rel_path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      std::string content = text.str();
      if (comp::walk::looks_binary(std::string_view(content).substr(0, 8192))) continue;
      c.bytes += content.size();
      c.files.push_back(std::move(content));
    }
    return c;
  }();
  return loaded;
}

std::size_t count_all() {
  std::size_t tokens = 0;
  for (const auto& text : corpus().files) tokens += comp::tokens::count(text);
  return tokens;
}

void count_warm(benchmark::State& state) {
  std::size_t tokens = 0;
  for (auto _ : state) tokens = count_all();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes));
  state.counters["files"] = static_cast<double>(corpus().files.size());
  state.counters["tokens"] = static_cast<double>(tokens);
  state.counters["bytes_per_token"] = tokens ? static_cast<double>(corpus().bytes) / tokens : 0;
}

void count_cold(benchmark::State& state) {
  std::size_t tokens = 0;
  for (auto _ : state) std::thread([&] { tokens = count_all(); }).join();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes));
  state.counters["tokens"] = static_cast<double>(tokens);
}

void encode_all(benchmark::State& state) {
  std::size_t tokens = 0;
  for (auto _ : state) {
    tokens = 0;
    for (const auto& text : corpus().files) tokens += comp::tokens::encode(text).size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().bytes));
  state.counters["tokens"] = static_cast<double>(tokens);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::cerr << "token_bench: " << corpus().files.size() << " files, " << corpus().bytes << " bytes from "
            << (std::getenv("COMP_BENCH_TREE") ? std::getenv("COMP_BENCH_TREE") : COMP_SOURCE_DIR) << "\n";
  comp::tokens::count("warm up the table and the pattern");
  benchmark::RegisterBenchmark("count/warm", count_warm)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("count/cold", count_cold)->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("encode", encode_all)->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
