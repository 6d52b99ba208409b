// query: answers over the dependency graph for people and agents: a
// symbol's blast radius (`comp symbol`), the context of a change (`comp
// diff`), and dependents counts per symbol of a file (the editor's CodeLens).
// Reads the index through graph::Store and the working tree through vcs;
// renders Markdown for humans and agents, plain structs for rpc/.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "graph/store.h"
#include "vcs/git.h"

namespace comp::query {

// The definitions a user means by `name`: a node id ("src/a.py::A.f"), a
// qualified name ("A.f", "pkg.mod.A.f"), or a plain name; `file` narrows.
std::vector<graph::NodeRecord> find_symbols(graph::Store& store, const std::string& name, const std::string& file = {});

// One node reached from the symbol, with how: the edge kinds and the lines
// (in the referencing file) where the references are.
struct Reached {
  graph::NodeRecord node;
  int depth = 1;                  // 1: direct
  std::string via;                // the node it was reached through ("" at depth 1)
  std::vector<std::string> kinds; // call, import, inherit, implement, reference
  std::vector<std::uint32_t> lines;
};

struct SymbolReport {
  graph::NodeRecord symbol;
  std::string source;                       // the definition's text (bounded)
  std::vector<Reached> dependents;          // who uses it, transitively up to depth
  std::vector<Reached> dependencies;        // what it uses, transitively up to depth
  std::vector<graph::RefRecord> ambiguous;  // its own references with several possible targets
  std::int64_t ambiguous_inbound = 0;       // references elsewhere that may mean it (ambiguous)
  bool truncated = false;                   // hit `limit`
};

// `depth` >= 1; at most `limit` nodes per direction.
SymbolReport symbol_report(graph::Store& store, const std::filesystem::path& root, const graph::NodeRecord& symbol,
                           int depth = 2, std::size_t limit = 200);

struct ChangedSymbol {
  graph::NodeRecord node;
  std::vector<vcs::LineRange> ranges;  // the hunks (new side) that touch it
};

struct RankedNode {
  graph::NodeRecord node;
  int distance = 1;
  std::string direction;  // "upstream" (depends on the change) or "downstream" (the change depends on it)
  std::string via;        // the changed symbol it was reached from
};

struct DiffReport {
  std::string base_commit;
  std::vector<vcs::FileChange> changes;
  std::vector<ChangedSymbol> changed;    // symbols whose ranges the hunks touch (innermost)
  std::vector<RankedNode> related;       // ranked by distance, upstream before downstream
};

// Changes of the working tree against `base_ref` (verified as a commit, never
// read as an option) and what they touch. Throws vcs::GitError.
DiffReport diff_report(graph::Store& store, const std::filesystem::path& root, const std::string& base_ref,
                       int depth = 2, std::size_t limit = 200);

// Per node of the file: how many distinct nodes reference it directly.
std::vector<std::pair<graph::NodeRecord, std::int64_t>> dependents_count(graph::Store& store, const std::string& path);

// Symbols and files for a search string (names, words, a dotted name): exact
// name matches first, then BM25 over symbol names/signatures and over files.
struct SearchResult {
  std::vector<std::pair<graph::NodeRecord, double>> symbols;  // best first, with scores
  std::vector<std::pair<std::string, double>> files;
};
SearchResult search(graph::Store& store, const std::string& text, std::size_t limit = 20);

std::string to_markdown(const SymbolReport& report);
std::string to_markdown(const std::vector<graph::NodeRecord>& choices, const std::string& name);
std::string to_markdown(const DiffReport& report);
// A search's symbols, best first, one line each (kind, qualified name, file,
// lines, signature), then its files: what search_code's text block is.
std::string to_markdown(const SearchResult& result, const std::string& text);

}  // namespace comp::query
