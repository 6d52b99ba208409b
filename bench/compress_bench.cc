// Compression levels 0/1/2 over a whole real tree: tokens, re-parse and
// signature survival, and the time compression takes. A plain program (not
// Google Benchmark): one pass over the tree, one JSON summary on stdout.
//
//   compress_bench TREE [--jobs N] [--repeat N] [--list FILE] [--peer DIR] [--per-file OUT.jsonl]
//   compress_bench TREE --print-files     # the files it would measure, one per line
//   compress_bench --count FILE...        # o200k_base tokens of each file: "COUNT\tFILE"
//
// Files: walk::walk(TREE) (the files comP indexes: git ignore rules, 1 MiB
// limit), binary files and files without a detected language left out;
// `--list FILE` keeps only the relative paths listed there (one per line),
// e.g. the files a peer tool processed.
//
// Phases, each timed with the wall clock and the process CPU time (getrusage),
// each on a pool of N threads (default 1):
//   walk, read (read + detect), level2 (compress::compress at level 2, verify
//   on), level1 (the same at level 1), tokens (comp::tokens::count of levels
//   0, 1 and 2), check (the checks below). For scale only: level2_no_verify
//   (level 2 without its verifying re-parse) and parse_only (one tree-sitter
//   parse of each input, SymbolExtractor::parse_only). `--repeat N` runs
//   these timed phases N times and keeps each phase's fastest wall time. "Whole-tree compression" = walk +
//   read + level2.
// Checks, per file:
//   - fallback: the asked level was not reached (Compressed::level lower, or
//     !reparsed_clean: the output parsed worse, or the parse timed out);
//   - new syntax errors: an independent re-parse of the returned text counts
//     its ERROR and MISSING nodes; more than the input's is a failure (must
//     be 0: compress() falls back instead);
//   - signatures: parse::SymbolExtractor at level 0; the symbols whose start
//     is not inside an elided body (Compressed::elided at level 2) must be
//     extracted again from the level-2 (and level-1) text with the same name
//     and kind (multiset match). A kept symbol whose own body was elided
//     counts: it is its signature that must stay.
//     Also, leniently, how many of those names still occur as a whole word
//     of the text ("named"), parseable or not.
// `--peer DIR`: DIR/<rel path> holds a peer tool's output for the same file
// (e.g. repomix --compress, split per file by compress_bench.py); it gets the
// same token count, syntax-error count and signature check (against the same
// symbol set as level 2), so both sides are judged by one tokenizer and one
// parser.
#include <sys/resource.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "compress/compress.h"
#include "lang/language.h"
#include "parse/symbols.h"
#include "parse/tree.h"
#include "tokens/tokens.h"
#include "walk/walker.h"

namespace {

namespace fs = std::filesystem;
using comp::compress::Compressed;
using comp::compress::Level;
using comp::lang::Language;
using json = nlohmann::ordered_json;

constexpr std::size_t kMaxMissingExamples = 8;

struct FileResult {
  std::string rel_path;
  Language language{};
  std::string text;  // level 0
  Compressed l1, l2;
  double l2_seconds = 0, l1_seconds = 0;  // per file, steady clock on its thread
  std::size_t tokens0 = 0, tokens1 = 0, tokens2 = 0;
  std::size_t errors0 = 0, errors1 = 0, errors2 = 0;  // ERROR + MISSING nodes
  std::size_t sigs_total = 0, sigs_kept1 = 0, sigs_kept2 = 0;
  std::size_t sigs_named2 = 0;        // lenient: the name still occurs as a word of the level-2 text
  std::vector<std::string> missing2;  // "kind name" of lost signatures (a few)
  // Peer output for the same file (--peer).
  bool has_peer = false;
  std::string peer_text;  // released after the checks
  std::size_t peer_bytes = 0, peer_tokens = 0, peer_errors = 0, peer_sigs_kept = 0, peer_sigs_named = 0;
  std::vector<std::string> peer_missing;
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return sec(usage.ru_utime) + sec(usage.ru_stime);
}

struct PhaseTime {
  double wall = 0, cpu = 0;
};

// Runs fn(i) for i in [0, n) on `jobs` threads; returns the phase's wall and CPU time.
PhaseTime run_phase(std::size_t n, unsigned jobs, const std::function<void(std::size_t)>& fn) {
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu_seconds();
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  if (jobs <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  PhaseTime time;
  time.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  time.cpu = cpu_seconds() - cpu_start;
  return time;
}

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return true;
}

// ERROR and MISSING nodes of `text` parsed again with the language's grammar.
std::size_t syntax_errors(TSParser* parser, Language language, std::string_view text) {
  ts_parser_set_language(parser, comp::lang::grammar(language));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  if (!tree) return 1;
  std::size_t count = comp::parse::count_syntax_errors(ts_tree_root_node(tree));
  ts_tree_delete(tree);
  return count;
}

// (kind, name) multiset of a parse result.
std::map<std::pair<std::string, std::string>, std::size_t> symbol_bag(const comp::parse::ParseResult& result) {
  std::map<std::pair<std::string, std::string>, std::size_t> bag;
  for (const auto& symbol : result.symbols) ++bag[{symbol.kind, symbol.name}];
  return bag;
}

// How many of `wanted` are in `have` (multiset intersection size); the missing ones go to `missing`.
std::size_t kept(const std::map<std::pair<std::string, std::string>, std::size_t>& wanted,
                 const std::map<std::pair<std::string, std::string>, std::size_t>& have,
                 std::vector<std::string>* missing) {
  std::size_t n = 0;
  for (const auto& [key, count] : wanted) {
    auto it = have.find(key);
    std::size_t found = it == have.end() ? 0 : std::min(count, it->second);
    n += found;
    if (found < count && missing && missing->size() < kMaxMissingExamples)
      missing->push_back(key.first + " " + key.second);
  }
  return n;
}

// Lenient survival: how many of `wanted` have their name still written in
// `text` as a whole word (identifier characters around it), parseable or not.
std::size_t named(const std::map<std::pair<std::string, std::string>, std::size_t>& wanted, std::string_view text) {
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  std::unordered_set<std::string_view> words;
  for (std::size_t i = 0; i < text.size();) {
    if (!ident(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && ident(text[j])) ++j;
    words.insert(text.substr(i, j - i));
    i = j;
  }
  std::size_t n = 0;
  for (const auto& [key, count] : wanted) {
    const std::string& name = key.second;
    bool simple = !name.empty() && std::all_of(name.begin(), name.end(), ident);
    if (simple ? words.count(name) > 0 : text.find(name) != std::string_view::npos) n += count;
  }
  return n;
}

struct Stats {
  std::size_t files = 0, bytes = 0, bytes1 = 0, bytes2 = 0;
  std::size_t tokens0 = 0, tokens1 = 0, tokens2 = 0;
  std::size_t l1_fallbacks = 0, l2_fallbacks = 0, l2_at_l1 = 0, l2_at_l0 = 0, timeouts = 0;
  std::size_t inputs_with_errors = 0, new_errors1 = 0, new_errors2 = 0;
  std::size_t bodies_elided = 0, files_with_elided = 0;
  std::size_t sigs_total = 0, sigs_kept1 = 0, sigs_kept2 = 0, sigs_named2 = 0;
  double l2_seconds = 0, l1_seconds = 0;
  std::size_t peer_files = 0, peer_bytes = 0, peer_tokens = 0, peer_tokens0 = 0, peer_tokens2 = 0;
  std::size_t peer_new_errors = 0, peer_sigs_total = 0, peer_sigs_kept = 0, peer_sigs_named = 0;
  std::size_t peer_sigs_kept_l2 = 0, peer_sigs_named_l2 = 0;  // level 2 on the same files

  void add(const FileResult& f) {
    ++files;
    bytes += f.text.size();
    bytes1 += f.l1.text.size();
    bytes2 += f.l2.text.size();
    tokens0 += f.tokens0;
    tokens1 += f.tokens1;
    tokens2 += f.tokens2;
    if (f.l1.level != Level::kNoComments || !f.l1.reparsed_clean) ++l1_fallbacks;
    if (f.l2.level != Level::kSkeleton || !f.l2.reparsed_clean) ++l2_fallbacks;
    if (f.l2.level == Level::kNoComments) ++l2_at_l1;
    if (f.l2.level == Level::kRaw) ++l2_at_l0;
    for (const auto& e : f.l2.errors)
      if (e.find("timed out") != std::string::npos) ++timeouts;
    if (f.errors0 > 0) ++inputs_with_errors;
    if (f.errors1 > f.errors0) ++new_errors1;
    if (f.errors2 > f.errors0) ++new_errors2;
    bodies_elided += f.l2.elided.size();
    if (!f.l2.elided.empty()) ++files_with_elided;
    sigs_total += f.sigs_total;
    sigs_kept1 += f.sigs_kept1;
    sigs_kept2 += f.sigs_kept2;
    sigs_named2 += f.sigs_named2;
    l2_seconds += f.l2_seconds;
    l1_seconds += f.l1_seconds;
    if (f.has_peer) {
      ++peer_files;
      peer_bytes += f.peer_bytes;
      peer_tokens += f.peer_tokens;
      peer_tokens0 += f.tokens0;
      peer_tokens2 += f.tokens2;
      if (f.peer_errors > f.errors0) ++peer_new_errors;
      peer_sigs_total += f.sigs_total;
      peer_sigs_kept += f.peer_sigs_kept;
      peer_sigs_named += f.peer_sigs_named;
      peer_sigs_kept_l2 += f.sigs_kept2;
      peer_sigs_named_l2 += f.sigs_named2;
    }
  }

  json to_json() const {
    auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    json j = {
        {"files", files},
        {"bytes", bytes},
        {"bytes_l1", bytes1},
        {"bytes_l2", bytes2},
        {"tokens_l0", tokens0},
        {"tokens_l1", tokens1},
        {"tokens_l2", tokens2},
        {"ratio_l1", ratio(tokens1, tokens0)},
        {"ratio_l2", ratio(tokens2, tokens0)},
        {"l1_fallbacks", l1_fallbacks},
        {"l2_fallbacks", l2_fallbacks},
        {"l2_fell_to_l1", l2_at_l1},
        {"l2_fell_to_l0", l2_at_l0},
        {"parse_timeouts", timeouts},
        {"inputs_with_syntax_errors", inputs_with_errors},
        {"new_syntax_errors_l1", new_errors1},
        {"new_syntax_errors_l2", new_errors2},
        {"bodies_elided", bodies_elided},
        {"files_with_elided", files_with_elided},
        {"signatures_total", sigs_total},
        {"signatures_kept_l1", sigs_kept1},
        {"signatures_kept_l2", sigs_kept2},
        {"signatures_kept_l2_share", files ? ratio(sigs_kept2, sigs_total) : 0.0},
        {"signatures_named_l2", sigs_named2},
        {"l2_seconds_sum", l2_seconds},
        {"l1_seconds_sum", l1_seconds},
        {"l2_mb_per_s", ratio(bytes / 1e6, l2_seconds)},
    };
    if (peer_files > 0) {
      j["peer"] = {
          {"files", peer_files},
          {"bytes", peer_bytes},
          {"tokens", peer_tokens},
          {"tokens_l0_same_files", peer_tokens0},
          {"tokens_l2_same_files", peer_tokens2},
          {"ratio_to_l0", ratio(peer_tokens, peer_tokens0)},
          {"l2_to_peer", ratio(peer_tokens2, peer_tokens)},
          {"new_syntax_errors", peer_new_errors},
          {"signatures_total", peer_sigs_total},
          {"signatures_kept", peer_sigs_kept},
          {"signatures_kept_share", ratio(peer_sigs_kept, peer_sigs_total)},
          {"signatures_named", peer_sigs_named},
          {"signatures_named_share", ratio(peer_sigs_named, peer_sigs_total)},
          {"l2_signatures_kept_same_files", peer_sigs_kept_l2},
          {"l2_signatures_named_same_files", peer_sigs_named_l2},
      };
    }
    return j;
  }
};

int usage() {
  std::cerr << "usage: compress_bench TREE [--jobs N] [--repeat N] [--list FILE] [--peer DIR] [--per-file OUT.jsonl]\n"
               "       compress_bench TREE --print-files\n"
               "       compress_bench --count FILE...\n";
  return 2;
}

int count_files(const std::vector<std::string>& paths) {
  int status = 0;
  for (const auto& path : paths) {
    std::string text;
    if (!read_file(path, text)) {
      std::cerr << "compress_bench: cannot read " << path << "\n";
      status = 1;
      continue;
    }
    std::cout << comp::tokens::count(text) << "\t" << path << "\n";
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage();
  if (args[0] == "--count") return count_files({args.begin() + 1, args.end()});

  fs::path tree;
  unsigned jobs = 1;
  int repeat = 1;
  std::string list_path, peer_dir, per_file_path;
  bool print_files = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) {
        std::cerr << "compress_bench: " << a << " needs a value\n";
        std::exit(2);
      }
      return args[++i];
    };
    if (a == "--jobs") {
      jobs = static_cast<unsigned>(std::max(1, std::atoi(value().c_str())));
    } else if (a == "--repeat") {
      repeat = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--list" || a == "--files") {
      list_path = value();
    } else if (a == "--peer") {
      peer_dir = value();
    } else if (a == "--per-file") {
      per_file_path = value();
    } else if (a == "--print-files") {
      print_files = true;
    } else if (!a.empty() && a[0] == '-') {
      return usage();
    } else if (tree.empty()) {
      tree = a;
    } else {
      return usage();
    }
  }
  if (tree.empty() || !fs::is_directory(tree)) return usage();

  std::unordered_set<std::string> wanted;
  bool restrict = !list_path.empty();
  if (restrict) {
    std::ifstream in(list_path);
    if (!in) {
      std::cerr << "compress_bench: cannot read " << list_path << "\n";
      return 1;
    }
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) wanted.insert(line);
  }

  // The timed pass: walk, read, level 2, level 1, and for scale level 2
  // without its verifying re-parse and a bare tree-sitter parse of every
  // input (the floor of anything that parses the file). Repeated `repeat`
  // times; each phase keeps its fastest time, the files come from the last pass.
  comp::compress::Options options;  // verify on, 10 s parse timeout
  comp::walk::WalkResult walked;
  std::vector<FileResult> files;
  std::size_t selected = 0, list_not_walked = 0, binary = 0, unreadable = 0;
  PhaseTime walk_time, read_time, l2_time, l1_time, l2_noverify_time, parse_time;
  auto keep_min = [](PhaseTime& best, const PhaseTime& t, int rep) {
    if (rep == 0 || t.wall < best.wall) best = t;
  };
  for (int rep = 0; rep < repeat; ++rep) {
    files.clear();
    PhaseTime t;
    {
      auto start = std::chrono::steady_clock::now();
      double cpu_start = cpu_seconds();
      comp::walk::WalkOptions walk_options;
      walk_options.root = tree;
      walked = comp::walk::walk(walk_options);
      t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      t.cpu = cpu_seconds() - cpu_start;
    }
    keep_min(walk_time, t, rep);

    std::vector<std::string> paths;
    for (const auto& entry : walked.files)
      if (!restrict || wanted.count(entry.rel_path)) paths.push_back(entry.rel_path);
    selected = paths.size();
    if (restrict) {
      std::unordered_set<std::string> walked_set;
      for (const auto& entry : walked.files) walked_set.insert(entry.rel_path);
      list_not_walked = 0;
      for (const auto& p : wanted) list_not_walked += walked_set.count(p) ? 0 : 1;
    }

    // Read + detect.
    files.resize(paths.size());
    std::vector<char> keep(paths.size(), 0);
    std::atomic<std::size_t> binary_count{0}, unreadable_count{0};
    keep_min(read_time, run_phase(paths.size(), jobs, [&](std::size_t i) {
      FileResult& f = files[i];
      f.rel_path = paths[i];
      if (!read_file(tree / f.rel_path, f.text)) {
        ++unreadable_count;
        return;
      }
      std::string_view view(f.text);
      if (comp::walk::looks_binary(view.substr(0, 8192))) {
        ++binary_count;
        return;
      }
      auto language = comp::lang::detect(f.rel_path, view.substr(0, comp::lang::kDetectHeadBytes));
      if (!language) return;
      f.language = *language;
      keep[i] = 1;
    }), rep);
    binary = binary_count;
    unreadable = unreadable_count;
    {
      std::vector<FileResult> kept_files;
      for (std::size_t i = 0; i < files.size(); ++i)
        if (keep[i]) kept_files.push_back(std::move(files[i]));
      files = std::move(kept_files);
    }
    if (print_files) {
      for (const auto& f : files) std::cout << f.rel_path << "\n";
      return 0;
    }

    // Level 2, then level 1: the compression being measured.
    keep_min(l2_time, run_phase(files.size(), jobs, [&](std::size_t i) {
      auto start = std::chrono::steady_clock::now();
      files[i].l2 = comp::compress::compress(files[i].language, files[i].text, Level::kSkeleton, options);
      files[i].l2_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }), rep);
    keep_min(l1_time, run_phase(files.size(), jobs, [&](std::size_t i) {
      auto start = std::chrono::steady_clock::now();
      files[i].l1 = comp::compress::compress(files[i].language, files[i].text, Level::kNoComments, options);
      files[i].l1_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }), rep);
    keep_min(l2_noverify_time, run_phase(files.size(), jobs, [&](std::size_t i) {
      comp::compress::Options no_verify = options;
      no_verify.verify = false;
      auto out = comp::compress::compress(files[i].language, files[i].text, Level::kSkeleton, no_verify);
      if (out.text.size() != files[i].l2.text.size() && files[i].l2.reparsed_clean)
        std::cerr << "compress_bench: " << files[i].rel_path << ": level 2 differs without verify\n";
    }), rep);
    keep_min(parse_time, run_phase(files.size(), jobs, [&](std::size_t i) {
      thread_local comp::parse::SymbolExtractor extractor;
      extractor.parse_only(files[i].language, files[i].text);
    }), rep);
  }

  // Peer outputs (read outside the timed phases).
  if (!peer_dir.empty()) {
    for (auto& f : files) {
      std::string text;
      fs::path p = fs::path(peer_dir) / f.rel_path;
      if (fs::is_regular_file(p) && read_file(p, text)) {
        f.has_peer = true;
        f.peer_bytes = text.size();
        f.peer_text = std::move(text);
      }
    }
  }

  // Tokens.
  PhaseTime token_time = run_phase(files.size(), jobs, [&](std::size_t i) {
    FileResult& f = files[i];
    f.tokens0 = comp::tokens::count(f.text);
    f.tokens1 = comp::tokens::count(f.l1.text);
    f.tokens2 = comp::tokens::count(f.l2.text);
    if (f.has_peer) f.peer_tokens = comp::tokens::count(f.peer_text);
  });

  // Checks: syntax errors and signatures.
  PhaseTime check_time = run_phase(files.size(), jobs, [&](std::size_t i) {
    thread_local comp::parse::SymbolExtractor extractor;
    thread_local struct ParserHolder {
      TSParser* parser = ts_parser_new();
      ~ParserHolder() { ts_parser_delete(parser); }
    } holder;
    FileResult& f = files[i];
    f.errors0 = syntax_errors(holder.parser, f.language, f.text);
    f.errors1 = syntax_errors(holder.parser, f.language, f.l1.text);
    f.errors2 = syntax_errors(holder.parser, f.language, f.l2.text);

    auto r0 = extractor.extract(f.language, f.text, f.rel_path);
    std::map<std::pair<std::string, std::string>, std::size_t> wanted_sigs;
    const auto& elided = f.l2.elided;  // sorted, disjoint
    for (const auto& symbol : r0.symbols) {
      auto it = std::upper_bound(elided.begin(), elided.end(), symbol.start_byte,
                                 [](std::uint32_t b, const auto& range) { return b < range.first; });
      bool inside = it != elided.begin() && symbol.start_byte < std::prev(it)->second;
      if (!inside) ++wanted_sigs[{symbol.kind, symbol.name}];
    }
    for (const auto& [key, count] : wanted_sigs) f.sigs_total += count;
    f.sigs_kept1 = kept(wanted_sigs, symbol_bag(extractor.extract(f.language, f.l1.text, f.rel_path)), nullptr);
    f.sigs_kept2 = kept(wanted_sigs, symbol_bag(extractor.extract(f.language, f.l2.text, f.rel_path)), &f.missing2);
    f.sigs_named2 = named(wanted_sigs, f.l2.text);
    if (f.has_peer) {
      std::string peer = std::move(f.peer_text);
      f.peer_text.clear();
      f.peer_errors = syntax_errors(holder.parser, f.language, peer);
      f.peer_sigs_kept = kept(wanted_sigs, symbol_bag(extractor.extract(f.language, peer, f.rel_path)),
                              &f.peer_missing);
      f.peer_sigs_named = named(wanted_sigs, peer);
    }
  });

  // Summary.
  Stats total;
  std::map<std::string, Stats> by_language;
  for (const auto& f : files) {
    total.add(f);
    by_language[std::string(comp::lang::name(f.language))].add(f);
  }
  json languages = json::object();
  for (const auto& [name, stats] : by_language) languages[name] = stats.to_json();
  auto phase = [](const PhaseTime& t) { return json{{"wall_s", t.wall}, {"cpu_s", t.cpu}}; };
  double compress_wall = walk_time.wall + read_time.wall + l2_time.wall;
  double compress_cpu = walk_time.cpu + read_time.cpu + l2_time.cpu;
  json out = {
      {"tree", fs::absolute(tree).lexically_normal().string()},
      {"jobs", jobs},
      {"repeat", repeat},
      {"walk",
       {{"walked_files", walked.files.size()},
        {"skipped", walked.skipped.size()},
        {"list", restrict ? json(wanted.size()) : json(nullptr)},
        {"list_not_walked", restrict ? json(list_not_walked) : json(nullptr)},
        {"selected", selected},
        {"binary", binary},
        {"unreadable", unreadable},
        {"language_files", files.size()}}},
      {"timing",
       {{"walk", phase(walk_time)},
        {"read", phase(read_time)},
        {"level2", phase(l2_time)},
        {"level1", phase(l1_time)},
        {"level2_no_verify", phase(l2_noverify_time)},
        {"parse_only", phase(parse_time)},
        {"tokens", phase(token_time)},
        {"check", phase(check_time)},
        {"whole_tree_l2_wall_s", compress_wall},
        {"whole_tree_l2_cpu_s", compress_cpu},
        {"level2_mb_per_s", l2_time.wall > 0 ? total.bytes / 1e6 / l2_time.wall : 0.0},
        {"whole_tree_l2_mb_per_s", compress_wall > 0 ? total.bytes / 1e6 / compress_wall : 0.0}}},
      {"total", total.to_json()},
      {"languages", languages},
  };
  // A few examples of what level 2 loses, for the report.
  json lost = json::array();
  for (const auto& f : files)
    if (!f.missing2.empty() && lost.size() < 20) lost.push_back({{"path", f.rel_path}, {"missing", f.missing2}});
  out["signatures_lost_examples"] = lost;
  json fallbacks = json::array();
  for (const auto& f : files)
    if (!f.l2.errors.empty() && fallbacks.size() < 20) fallbacks.push_back({{"path", f.rel_path}, {"errors", f.l2.errors}});
  out["fallback_examples"] = fallbacks;
  std::cout << out.dump(2) << "\n";

  if (!per_file_path.empty()) {
    std::ofstream per(per_file_path);
    for (const auto& f : files) {
      json j = {{"path", f.rel_path},
                {"language", comp::lang::name(f.language)},
                {"bytes", f.text.size()},
                {"tokens_l0", f.tokens0},
                {"tokens_l1", f.tokens1},
                {"tokens_l2", f.tokens2},
                {"level1", static_cast<int>(f.l1.level)},
                {"level2", static_cast<int>(f.l2.level)},
                {"errors_l0", f.errors0},
                {"errors_l1", f.errors1},
                {"errors_l2", f.errors2},
                {"l2_seconds", f.l2_seconds},
                {"signatures_total", f.sigs_total},
                {"signatures_kept_l1", f.sigs_kept1},
                {"signatures_kept_l2", f.sigs_kept2},
                {"signatures_named_l2", f.sigs_named2},
                {"missing_l2", f.missing2},
                {"compress_errors", f.l2.errors}};
      if (f.has_peer) {
        j["peer_tokens"] = f.peer_tokens;
        j["peer_bytes"] = f.peer_bytes;
        j["peer_errors"] = f.peer_errors;
        j["peer_signatures_kept"] = f.peer_sigs_kept;
        j["peer_signatures_named"] = f.peer_sigs_named;
        j["peer_missing"] = f.peer_missing;
      }
      per << j.dump() << "\n";
    }
  }
  return 0;
}
