#include "query/graph_query.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "graph/identifier_tokenizer.h"
#include "utf8/utf8.h"
#include "walk/walker.h"

namespace comp::query {
namespace {

namespace fs = std::filesystem;
using graph::NodeRecord;
using graph::RefRecord;
using graph::RefStatus;



std::string lines_of(const std::string& text, std::uint32_t first, std::uint32_t last, std::size_t max_lines) {
  std::string out;
  std::uint32_t line = 1;
  std::size_t start = 0;
  std::size_t taken = 0;
  while (start <= text.size() && line <= last) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (line >= first) {
      if (taken == max_lines) {
        out += "...\n";
        break;
      }
      out.append(text, start, end - start);
      out.push_back('\n');
      ++taken;
    }
    if (end == text.size()) break;
    start = end + 1;
    ++line;
  }
  return out;
}

// The node and the nodes defined inside it (a class's methods): a change to
// a member is a change to the class's users too.
std::vector<NodeRecord> with_members(graph::Store& store, const NodeRecord& node) {
  std::vector<NodeRecord> out{node};
  if (node.kind == "file") return out;
  std::string prefix = node.id + ".";
  for (NodeRecord& member : store.nodes_of_file(node.file_path))
    if (member.id.compare(0, prefix.size(), prefix) == 0) out.push_back(std::move(member));
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

// Breadth-first over references: inbound (dependents) or outbound
// (dependencies), from the symbol and its members.
std::vector<Reached> walk(graph::Store& store, const NodeRecord& symbol, bool inbound, int depth, std::size_t limit,
                          bool& truncated) {
  std::vector<NodeRecord> start = with_members(store, symbol);
  std::set<std::string> seen;
  for (const NodeRecord& node : start) seen.insert(node.id);
  std::vector<Reached> out;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::string> frontier;
  for (const NodeRecord& node : start) frontier.push_back(node.id);
  for (int level = 1; level <= depth && !frontier.empty(); ++level) {
    std::vector<std::string> next;
    for (const std::string& id : frontier) {
      std::vector<RefRecord> refs = inbound ? store.refs_to(id) : store.refs_from(id);
      for (const RefRecord& ref : refs) {
        if (ref.status != RefStatus::kResolved || ref.target.empty()) continue;
        const std::string& other = inbound ? ref.from_node : ref.target;
        auto found = index.find(other);
        if (found == index.end()) {
          if (seen.count(other)) continue;
          if (out.size() >= limit) {
            truncated = true;
            continue;
          }
          std::optional<NodeRecord> node = store.node(other);
          if (!node) continue;
          seen.insert(other);
          Reached reached;
          reached.node = std::move(*node);
          reached.depth = level;
          if (level > 1) reached.via = id;
          found = index.emplace(other, out.size()).first;
          out.push_back(std::move(reached));
          next.push_back(other);
        }
        Reached& reached = out[found->second];
        if (reached.depth != level) continue;
        add_unique(reached.kinds, ref.kind);
        // Lines where the reference is written: in the dependent's file
        // (inbound) or in the symbol's own file (outbound).
        for (const auto& [line, column] : graph::sites_of(ref))
          if (std::find(reached.lines.begin(), reached.lines.end(), line) == reached.lines.end())
            reached.lines.push_back(line);
      }
    }
    frontier = std::move(next);
  }
  for (Reached& reached : out) std::sort(reached.lines.begin(), reached.lines.end());
  return out;
}

std::string join_lines(const std::vector<std::uint32_t>& lines, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < max; ++i) out += (i ? ", " : "") + std::to_string(lines[i]);
  if (lines.size() > max) out += ", ...";
  return out;
}

std::string fence_language(const std::string& path) {
  std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(dot + 1);
}

void render_reached(std::ostringstream& out, const std::vector<Reached>& reached, bool inbound) {
  std::map<std::string, std::vector<const Reached*>> by_file;
  for (const Reached& r : reached) by_file[r.node.file_path].push_back(&r);
  for (const auto& [file, list] : by_file) {
    out << "- `" << utf8::quote_name(file) << "` (" << list.size() << ")\n";
    for (const Reached* r : list) {
      out << "  - " << r->node.kind << " `"
          << utf8::quote_name(r->node.kind == "file" ? r->node.file_path : r->node.scope) << "`";
      out << " (line " << r->node.line << ")";
      std::string kinds;
      for (const std::string& kind : r->kinds) kinds += (kinds.empty() ? "" : "/") + kind;
      if (!kinds.empty()) out << ": " << kinds << (inbound ? " at line " : " from line ") << join_lines(r->lines, 8);
      if (r->depth > 1) out << " (depth " << r->depth << ", via `" << r->via << "`)";
      out << "\n";
    }
  }
}

}  // namespace

std::vector<NodeRecord> find_symbols(graph::Store& store, const std::string& name, const std::string& file) {
  std::vector<NodeRecord> out;
  if (name.empty()) return out;
  if (name.find("::") != std::string::npos || (!file.empty() && name == file)) {
    if (std::optional<NodeRecord> node = store.node(name)) out.push_back(std::move(*node));
    if (!out.empty()) return out;
  }
  std::size_t dot = name.rfind('.');
  std::string simple = dot == std::string::npos ? name : name.substr(dot + 1);
  std::vector<NodeRecord> files;  // file nodes ("utils" for utils.py) only when nothing else matches
  for (NodeRecord& node : store.nodes_named(simple)) {
    if (!file.empty() && node.file_path != file) continue;
    if (dot != std::string::npos && !(node.scope == name || node.scope.ends_with("." + name) ||
                                      node.id.ends_with("::" + name)))
      continue;
    (node.kind == "file" ? files : out).push_back(std::move(node));
  }
  return out.empty() ? files : out;
}

SymbolReport symbol_report(graph::Store& store, const fs::path& root, const NodeRecord& symbol, int depth,
                           std::size_t limit) {
  SymbolReport report;
  report.symbol = symbol;
  if (symbol.kind != "file") {
    std::string text = walk::read_in_root(root, symbol.file_path, 8u << 20);
    report.source = lines_of(text, symbol.line, symbol.end_line, 200);
  }
  depth = std::max(1, depth);
  report.dependents = walk(store, symbol, true, depth, limit, report.truncated);
  report.dependencies = walk(store, symbol, false, depth, limit, report.truncated);
  for (const NodeRecord& node : with_members(store, symbol))
    for (RefRecord& ref : store.refs_from(node.id))
      if (ref.status == RefStatus::kAmbiguous) report.ambiguous.push_back(std::move(ref));
  for (const RefRecord& ref : store.open_refs_named(symbol.name))
    if (ref.status == RefStatus::kAmbiguous) ++report.ambiguous_inbound;
  return report;
}

std::vector<std::pair<NodeRecord, std::int64_t>> dependents_count(graph::Store& store, const std::string& path) {
  std::vector<std::pair<NodeRecord, std::int64_t>> out;
  std::unordered_map<std::string, std::int64_t> counts;
  for (auto& [id, count] : store.dependents_count(path)) counts[id] = count;
  for (NodeRecord& node : store.nodes_of_file(path)) {
    std::int64_t count = counts.count(node.id) ? counts[node.id] : 0;
    out.emplace_back(std::move(node), count);
  }
  return out;
}

DiffReport diff_report(graph::Store& store, const fs::path& root, const std::string& base_ref, int depth,
                       std::size_t limit) {
  DiffReport report;
  report.base_commit = vcs::resolve_commit(root, base_ref);
  report.changes = vcs::changes_since(root, report.base_commit);
  // comP's own files are no change of the user's (an index made before
  // .comp/ got its .gitignore may still show them to git).
  std::erase_if(report.changes, [](const vcs::FileChange& change) {
    return change.path.starts_with(".comp/") || change.path.find("/.comp/") != std::string::npos;
  });
  for (const vcs::FileChange& change : report.changes) {
    if (change.status == 'D' || change.binary) continue;
    std::vector<NodeRecord> nodes = store.nodes_of_file(change.path);
    if (nodes.empty()) continue;
    std::map<std::string, ChangedSymbol> touched;
    for (const vcs::LineRange& range : change.new_ranges) {
      std::uint32_t first = range.count == 0 ? std::max<std::uint32_t>(1, range.start - 1) : range.start;
      std::uint32_t last = range.count == 0 ? range.start : range.start + range.count - 1;
      // The innermost nodes overlapping the range; the file's node for lines
      // outside every definition (imports, top-level code).
      const NodeRecord* best = nullptr;
      for (const NodeRecord& node : nodes) {
        if (node.line > last || node.end_line < first) continue;
        if (!best || best->kind == "file" ||
            (node.kind != "file" && node.end_line - node.line <= best->end_line - best->line))
          best = &node;
      }
      if (!best) continue;
      ChangedSymbol& entry = touched[best->id];
      entry.node = *best;
      entry.ranges.push_back(range);
    }
    for (auto& [id, entry] : touched) report.changed.push_back(std::move(entry));
  }
  std::map<std::string, RankedNode> related;
  std::set<std::string> changed_ids;
  for (const ChangedSymbol& changed : report.changed) changed_ids.insert(changed.node.id);
  for (const ChangedSymbol& changed : report.changed) {
    bool truncated = false;
    for (int direction = 0; direction < 2; ++direction) {
      for (Reached& reached : walk(store, changed.node, direction == 0, depth, limit, truncated)) {
        if (changed_ids.count(reached.node.id)) continue;
        auto found = related.find(reached.node.id);
        if (found != related.end() && found->second.distance <= reached.depth) continue;
        RankedNode ranked;
        ranked.distance = reached.depth;
        ranked.direction = direction == 0 ? "upstream" : "downstream";
        ranked.via = changed.node.id;
        ranked.node = std::move(reached.node);
        related[ranked.node.id] = std::move(ranked);
      }
    }
  }
  for (auto& [id, ranked] : related) report.related.push_back(std::move(ranked));
  std::stable_sort(report.related.begin(), report.related.end(), [](const RankedNode& a, const RankedNode& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.direction > b.direction;  // upstream first
  });
  if (report.related.size() > limit) report.related.resize(limit);
  return report;
}

std::string to_markdown(const SymbolReport& report) {
  std::ostringstream out;
  const NodeRecord& symbol = report.symbol;
  out << "# " << symbol.kind << " `" << utf8::quote_name(symbol.kind == "file" ? symbol.file_path : symbol.scope)
      << "`\n\n";
  out << "Defined in `" << utf8::quote_name(symbol.file_path) << "` lines " << symbol.line << "-" << symbol.end_line
      << " (id `" << utf8::quote_name(symbol.id) << "`).\n\n";
  if (!report.source.empty())
    out << "```" << fence_language(symbol.file_path) << "\n" << report.source << "```\n\n";
  std::set<std::string> files;
  for (const Reached& r : report.dependents) files.insert(r.node.file_path);
  out << "## Dependents (blast radius): " << report.dependents.size() << " in " << files.size() << " files\n\n";
  if (report.dependents.empty()) out << "None found in the index.\n";
  render_reached(out, report.dependents, true);
  if (report.ambiguous_inbound > 0)
    out << "\n" << report.ambiguous_inbound
        << " more references elsewhere use the name `" << symbol.name
        << "` but have several possible targets (not counted above).\n";
  out << "\n## Dependencies: " << report.dependencies.size() << "\n\n";
  if (report.dependencies.empty()) out << "None found in the index.\n";
  render_reached(out, report.dependencies, false);
  if (!report.ambiguous.empty()) {
    out << "\n## Ambiguous references (no edge drawn)\n\n";
    for (const RefRecord& ref : report.ambiguous)
      out << "- line " << ref.line << ": `"
          << utf8::escape_controls((ref.qualifier.empty() ? "" : ref.qualifier + ".") + ref.name) << "`: "
          << ref.candidates << " possible targets\n";
  }
  if (report.truncated) out << "\n(Truncated: raise --limit to see more.)\n";
  return out.str();
}

std::string to_markdown(const std::vector<NodeRecord>& choices, const std::string& name) {
  std::ostringstream out;
  out << "# " << choices.size() << " symbols named `" << name << "`\n\n"
      << "Choose one with `--file PATH` or a qualified name (or the id):\n\n";
  for (const NodeRecord& node : choices)
    out << "- " << node.kind << " `" << utf8::quote_name(node.scope) << "` in `" << utf8::quote_name(node.file_path)
        << "` line " << node.line << " (id `" << utf8::quote_name(node.id) << "`)\n";
  return out.str();
}

std::string to_markdown(const SearchResult& result, const std::string& text) {
  std::ostringstream out;
  out << "# Search `" << utf8::escape_controls(text) << "`: " << result.symbols.size() << " symbols, "
      << result.files.size() << " files\n\n";
  for (const auto& [node, score] : result.symbols) {
    out << "- " << node.kind << " `" << utf8::quote_name(node.kind == "file" ? node.file_path : node.scope) << "` in `"
        << utf8::quote_name(node.file_path) << "` lines " << node.line << "-" << node.end_line;
    if (!node.signature.empty()) out << ": `" << utf8::escape_controls(node.signature) << "`";
    out << "\n";
  }
  if (!result.files.empty()) {
    out << (result.symbols.empty() ? "" : "\n") << "Files:";
    for (const auto& [path, score] : result.files) out << " `" << utf8::quote_name(path) << "`";
    out << "\n";
  }
  return out.str();
}

std::string to_markdown(const DiffReport& report) {
  std::ostringstream out;
  out << "# Changes since " << report.base_commit.substr(0, 12) << "\n\n";
  if (report.changes.empty()) out << "No changes.\n";
  for (const vcs::FileChange& change : report.changes) {
    out << "- " << change.status << " `" << utf8::quote_name(change.path) << "`";
    if (change.status == 'R') out << " (from `" << utf8::quote_name(change.old_path) << "`)";
    if (change.binary) out << " (binary)";
    out << "\n";
  }
  out << "\n## Changed symbols: " << report.changed.size() << "\n\n";
  for (const ChangedSymbol& changed : report.changed) {
    out << "- " << changed.node.kind << " `"
        << utf8::quote_name(changed.node.kind == "file" ? changed.node.file_path : changed.node.scope) << "` in `"
        << utf8::quote_name(changed.node.file_path) << "` lines " << changed.node.line << "-" << changed.node.end_line
        << "; hunks at";
    for (const vcs::LineRange& range : changed.ranges) out << " " << range.start << "+" << range.count;
    out << "\n";
  }
  out << "\n## Related symbols, nearest first: " << report.related.size() << "\n\n";
  for (const RankedNode& ranked : report.related)
    out << "- " << ranked.direction << " " << ranked.distance << ": " << ranked.node.kind << " `"
        << utf8::quote_name(ranked.node.kind == "file" ? ranked.node.file_path : ranked.node.scope) << "` in `"
        << utf8::quote_name(ranked.node.file_path) << "` line " << ranked.node.line << " (via `" << ranked.via
        << "`)\n";
  return out.str();
}

SearchResult search(graph::Store& store, const std::string& text, std::size_t limit) {
  SearchResult result;
  std::unordered_set<std::string> seen;
  // A whole identifier or dotted name: its definitions first.
  std::string name = text;
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.erase(0, 1);
  if (!name.empty() && name.find_first_of(" \t\n") == std::string::npos) {
    for (graph::NodeRecord& node : find_symbols(store, name)) {
      if (result.symbols.size() >= limit) break;
      if (node.kind == "file" || !seen.insert(node.id).second) continue;
      result.symbols.emplace_back(std::move(node), 1000.0);
    }
  }
  std::string fts = graph::fts_any_of({text}, 32);
  if (fts.empty()) return result;
  for (auto& [node, score] : store.search_symbols(fts, limit * 2)) {
    if (result.symbols.size() >= limit) break;
    if (node.kind == "file" || !seen.insert(node.id).second) continue;
    result.symbols.emplace_back(std::move(node), score);
  }
  result.files = store.search_files(fts, limit);
  return result;
}

}  // namespace comp::query
