#include "index/indexer.h"
#include "index/writer_lock.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "compress/compress.h"
#include "digest/sha256.h"
#include "docs/document.h"
#include "lang/language.h"
#include "resolve/resolver.h"
#include "vcs/git.h"
#include "walk/walker.h"

namespace comp::index {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A run that rewrites or removes at least 1/kMergeShare of the index's
// files merges the full-text indexes (run_index).
constexpr std::int64_t kMergeShare = 10;
// The history kept: the files each of the last 3,000 commits changed
// (`git log` lists them in about 0.2 s on material-ui), but
// none of a commit that changed more than 30 files (a mass rename, a
// formatter run, a dependency bump), whose files changed together by chance.
constexpr std::size_t kHistoryCommits = 3000, kLargestCommit = 30;
// Up to this many old contents, the compression cache is pruned hash by hash
// (each costs a scan of the files only when the cache holds it); beyond, in
// one statement over the whole cache.
constexpr std::size_t kFewHashes = 8;

double cpu_seconds_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Reads a whole file without following a final symlink out of the root (the
// walker already vetted links). Returns nullopt and sets `error` on failure.
std::optional<std::string> read_file(const fs::path& path, std::uint64_t limit, std::string& error,
                                     struct stat& info) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    error = "not a regular file";
    ::close(fd);
    return std::nullopt;
  }
  std::string content;
  content.resize(static_cast<std::size_t>(std::min<std::uint64_t>(info.st_size, limit + 1)));
  std::size_t got = 0;
  while (got < content.size()) {
    ssize_t n = ::read(fd, content.data() + got, content.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  content.resize(got);
  return content;
}

// What a worker produced for one file, handed to the writer.
struct Outcome {
  enum class Action { kPut, kTouch } action = Action::kPut;
  graph::FileRecord file;
  std::vector<graph::NodeRecord> nodes;
  std::vector<graph::RefRecord> refs;
  std::string text;
};

// A bounded queue between the workers and the writer: bounds memory to
// `capacity` files in flight whatever the repository's size.
class OutcomeQueue {
 public:
  explicit OutcomeQueue(std::size_t capacity) : capacity_(capacity) {}
  void push(Outcome outcome) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < capacity_; });
    items_.push_back(std::move(outcome));
    not_empty_.notify_one();
  }
  // Waits up to `timeout`; nullopt on timeout or when finished and drained.
  std::optional<Outcome> pop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    not_empty_.wait_for(lock, timeout, [&] { return !items_.empty() || producers_done_; });
    if (items_.empty()) return std::nullopt;
    Outcome outcome = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return outcome;
  }
  void finish() {
    std::lock_guard lock(mutex_);
    producers_done_ = true;
    not_empty_.notify_all();
  }
  bool drained() {
    std::lock_guard lock(mutex_);
    return producers_done_ && items_.empty();
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Outcome> items_;
  bool producers_done_ = false;
};

// A file written within the same clock tick as the read that recorded it
// ("racily clean", as git says) may change again without its size or mtime
// changing: its content is hashed again on the next run that sees it, which
// records a later read time. Read times are whole seconds, and file systems'
// mtime ticks run from nanoseconds (ext4: the kernel's coarse clock) to two
// seconds (FAT): two seconds of margin cover both. An mtime beyond that in
// the future (an archive from a skewed clock) is not racy: a new write would
// stamp the present.
bool racily_clean(const graph::FileState& state) {
  constexpr std::int64_t kMarginSeconds = 2;
  std::int64_t mtime = state.mtime_ns / 1000000000;
  return state.mtime_ns != 0 && mtime >= state.indexed_at - kMarginSeconds && mtime <= state.indexed_at + kMarginSeconds;
}

struct WorkItem {
  const walk::WalkEntry* entry;
  const graph::FileState* previous;  // null for a new file
};

// The file's record as the walk saw it, before reading.
Outcome start_outcome(const WorkItem& item) {
  Outcome outcome;
  outcome.file.path = item.entry->rel_path;
  outcome.file.size = item.entry->size;
  outcome.file.mtime_ns = item.entry->mtime_ns;
  outcome.file.indexed_at = unix_now();
  return outcome;
}

// A document (Office, PDF, Parquet): its sections become nodes (kind
// section/slide/sheet/page/schema/column) and its rendered text the file's
// full-text body. Extraction failures are recorded, never thrown.
Outcome process_document(const WorkItem& item, const IndexOptions& options, docs::Format format) {
  Outcome outcome = start_outcome(item);
  graph::FileRecord& file = outcome.file;
  file.language = docs::name(format);
  fs::path path = options.root / item.entry->rel_path;
  std::string error;
  struct stat info {};
  // Parquet: only the footer matters, so only the head and tail are hashed
  // (a footer records every row group's offsets: data changes change it).
  std::uint64_t limit = format == docs::Format::kParquet ? std::uint64_t{64} << 10 : options.documents.max_file_bytes;
  std::optional<std::string> content = read_file(path, limit, error, info);
  if (!content) {
    file.skip_reason = walk::to_string(walk::SkipReason::kUnreadable);
    file.error = error;
    file.mtime_ns = 0;
    return outcome;
  }
  file.size = static_cast<std::uint64_t>(info.st_size);
  file.mtime_ns = walk::mtime_ns_of(info);
  std::string fingerprint = std::move(*content);
  if (format == docs::Format::kParquet) fingerprint += "|" + std::to_string(file.size);
  if (format != docs::Format::kParquet && file.size > options.documents.max_file_bytes) {
    file.skip_reason = walk::to_string(walk::SkipReason::kTooLarge);
    return outcome;
  }
  docs::Document document = format == docs::Format::kPdf
                                ? docs::extract_pdf(path, options.documents)
                                : format == docs::Format::kParquet ? docs::extract_file(format, path, options.documents)
                                                                   : docs::extract(format, fingerprint, options.documents);
  if (format == docs::Format::kParquet)
    for (const docs::Section& section : document.sections) fingerprint += "|" + section.name + ":" + section.signature;
  file.sha256 = digest::sha256_hex(fingerprint);
  if (item.previous && item.previous->sha256 == file.sha256 && item.previous->size == file.size) {
    outcome.action = Outcome::Action::kTouch;
    return outcome;
  }
  for (const std::string& message : document.errors) file.error += (file.error.empty() ? "" : "; ") + message;
  if (!document.skip_reason.empty()) {
    file.skip_reason = "unreadable-document";
    file.error = document.skip_reason + (file.error.empty() ? "" : "; " + file.error);
    return outcome;
  }
  outcome.text = docs::render(document, options.documents);
  std::vector<parse::Symbol> symbols;
  symbols.reserve(document.sections.size());
  for (const docs::Section& section : document.sections) {
    parse::Symbol symbol;
    symbol.name = section.name;
    symbol.kind = section.kind;
    symbol.line = section.line;
    symbol.end_line = section.end_line;
    symbol.column = 1;
    symbol.end_column = 1;
    symbol.signature = section.signature.substr(0, 200);
    symbol.is_exported = true;
    symbol.scope = section.name;
    symbols.push_back(std::move(symbol));
  }
  outcome.nodes = to_node_records(file.path, symbols);
  file.symbol_count = static_cast<std::int64_t>(outcome.nodes.size());
  outcome.nodes.push_back(file_node(file.path, outcome.text));
  return outcome;
}

Outcome process(const WorkItem& item, const IndexOptions& options, parse::SymbolExtractor& extractor) {
  if (std::optional<docs::Format> format = docs::format_of(item.entry->rel_path))
    return process_document(item, options, *format);
  Outcome outcome = start_outcome(item);
  graph::FileRecord& file = outcome.file;
  std::string error;
  struct stat info {};
  std::optional<std::string> content = read_file(options.root / item.entry->rel_path, options.max_file_size, error, info);
  if (!content) {
    file.skip_reason = walk::to_string(walk::SkipReason::kUnreadable);
    file.error = error;
    file.mtime_ns = 0;  // never matches the disk: retried on the next run
    return outcome;
  }
  // The file may have changed since the walk: record what was read.
  file.size = content->size();
  file.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
  if (content->size() > options.max_file_size) {
    file.skip_reason = walk::to_string(walk::SkipReason::kTooLarge);
    file.size = static_cast<std::uint64_t>(info.st_size);
    return outcome;
  }
  if (walk::looks_binary(std::string_view(*content).substr(0, 8192))) {
    file.skip_reason = walk::to_string(walk::SkipReason::kBinary);
    return outcome;
  }
  file.sha256 = digest::sha256_hex(*content);
  if (item.previous && item.previous->sha256 == file.sha256 && item.previous->size == file.size) {
    outcome.action = Outcome::Action::kTouch;
    return outcome;
  }
  std::optional<lang::Language> language = lang::detect(file.path, std::string_view(*content).substr(0, lang::kDetectHeadBytes));
  if (language) {
    file.language = std::string(lang::name(*language));
    parse::ParseResult parsed = extractor.extract(*language, *content, file.path, options.parse_timeout_ms);
    file.has_syntax_errors = parsed.has_syntax_errors;
    for (const std::string& message : parsed.errors) file.error += (file.error.empty() ? "" : "; ") + message;
    outcome.nodes = to_node_records(file.path, parsed.symbols);
    file.symbol_count = static_cast<std::int64_t>(outcome.nodes.size());
    if (options.edges) outcome.refs = to_ref_records(file.path, outcome.nodes, parsed.references);
    outcome.nodes.push_back(file_node(file.path, *content));
  }
  outcome.text = std::move(*content);
  return outcome;
}

// A fault in one file (an exception from a parser or an allocation) costs
// that file, recorded as unreadable with the reason, never the run.
Outcome process_safely(const WorkItem& item, const IndexOptions& options, parse::SymbolExtractor& extractor) {
  try {
    return process(item, options, extractor);
  } catch (const std::exception& error) {
    Outcome outcome;
    outcome.file.path = item.entry->rel_path;
    outcome.file.size = item.entry->size;
    outcome.file.mtime_ns = 0;  // retried on the next run
    outcome.file.indexed_at = unix_now();
    outcome.file.skip_reason = walk::to_string(walk::SkipReason::kUnreadable);
    outcome.file.error = std::string("internal error: ") + error.what();
    return outcome;
  }
}

// What Store::indexed_files() reads, from the file states of the whole
// index: the indexed ones, in row order, their paths moved out of `states`.
// (Sorted as node handles, small, so that a large tree's list is allocated
// once: fresh pages cost as much as the read they save.)
std::vector<graph::IndexedFile> indexed_files_of(std::unordered_map<std::string, graph::FileState> states) {
  using Node = std::unordered_map<std::string, graph::FileState>::node_type;
  std::vector<Node> rows;
  rows.reserve(states.size());
  while (!states.empty()) {
    Node node = states.extract(states.begin());
    if (node.mapped().skip_reason.empty()) rows.push_back(std::move(node));
  }
  std::sort(rows.begin(), rows.end(), [](const Node& a, const Node& b) { return a.mapped().row < b.mapped().row; });
  std::vector<graph::IndexedFile> files;
  files.reserve(rows.size());
  for (Node& node : rows) {
    graph::FileState& state = node.mapped();
    files.push_back({std::move(node.key()), std::move(state.language), state.size, state.mtime_ns, state.row});
  }
  return files;
}

}  // namespace

std::vector<graph::NodeRecord> to_node_records(const std::string& path, const std::vector<parse::Symbol>& symbols) {
  std::string module = parse::module_path(path);
  std::vector<graph::NodeRecord> nodes;
  nodes.reserve(symbols.size());
  std::unordered_map<std::string, int> seen;
  for (const parse::Symbol& symbol : symbols) {
    graph::NodeRecord node;
    std::string_view qualified = symbol.scope;
    if (!module.empty() && qualified.size() > module.size() && qualified.substr(0, module.size()) == module &&
        qualified[module.size()] == '.')
      qualified.remove_prefix(module.size() + 1);
    node.id = path + "::" + std::string(qualified);
    int count = ++seen[node.id];
    if (count > 1) node.id += "#" + std::to_string(count);
    node.file_path = path;
    node.name = symbol.name;
    node.kind = symbol.kind;
    node.line = symbol.line;
    node.column = symbol.column;
    node.end_line = symbol.end_line;
    node.end_column = symbol.end_column;
    node.signature = symbol.signature;
    node.is_exported = symbol.is_exported;
    node.scope = symbol.scope;
    if (symbol.parent >= 0 && static_cast<std::size_t>(symbol.parent) < nodes.size())
      node.parent_id = nodes[static_cast<std::size_t>(symbol.parent)].id;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

graph::NodeRecord file_node(const std::string& path, std::string_view content) {
  graph::NodeRecord node;
  node.id = path;
  node.file_path = path;
  std::size_t slash = path.rfind('/');
  std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1);
  std::size_t dot = base.rfind('.');
  node.name = dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
  node.kind = "file";
  node.line = 1;
  node.column = 1;
  std::size_t lines = static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n'));
  bool trailing = !content.empty() && content.back() != '\n';
  node.end_line = static_cast<std::uint32_t>(lines + (trailing ? 1 : 0) + (content.empty() ? 1 : 0));
  std::size_t last_line = content.rfind('\n', content.empty() ? 0 : content.size() - 1);
  node.end_column = trailing ? static_cast<std::uint32_t>(content.size() - (last_line == std::string_view::npos ? 0 : last_line + 1) + 1) : 1;
  node.signature = path;
  node.is_exported = true;
  node.scope = parse::module_path(path);
  return node;
}

std::vector<graph::RefRecord> to_ref_records(const std::string& path, const std::vector<graph::NodeRecord>& nodes,
                                             const std::vector<parse::Reference>& references) {
  std::vector<graph::RefRecord> refs;
  refs.reserve(references.size());
  // One row per distinct reference of a definition; later sites join it.
  std::unordered_map<std::string, std::size_t> rows;
  for (const parse::Reference& reference : references) {
    // A call on an expression's result (`f().g()`, `a[0].m()`) names no
    // definition that could be found without types: not worth a row.
    if (reference.qualifier == "?" && reference.binds.empty()) continue;
    graph::RefRecord ref;
    ref.file_path = path;
    ref.from_node = reference.from >= 0 && static_cast<std::size_t>(reference.from) < nodes.size()
                        ? nodes[static_cast<std::size_t>(reference.from)].id
                        : path;
    ref.kind = reference.kind;
    ref.name = reference.name;
    ref.qualifier = reference.qualifier;
    ref.alias = reference.alias;
    ref.binds = reference.binds;
    ref.line = reference.line;
    ref.column = reference.column;
    std::string key = ref.from_node + '\x1f' + ref.kind + '\x1f' + ref.name + '\x1f' + ref.qualifier + '\x1f' +
                      ref.alias + '\x1f' + ref.binds;
    auto [found, inserted] = rows.emplace(std::move(key), refs.size());
    if (!inserted) {
      graph::RefRecord& row = refs[found->second];
      if (!row.more_sites.empty()) row.more_sites.push_back(' ');
      row.more_sites += std::to_string(ref.line) + ":" + std::to_string(ref.column);
      continue;
    }
    refs.push_back(std::move(ref));
  }
  return refs;
}

IndexSummary run_index(const IndexOptions& options) {
  Clock::time_point started = Clock::now();
  double cpu_started = cpu_seconds_now();
  IndexSummary summary;
  std::error_code ec;
  if (!fs::is_directory(options.root, ec))
    throw fs::filesystem_error("index root is not a directory", options.root,
                               ec ? ec : std::make_error_code(std::errc::not_a_directory));

  std::unique_ptr<graph::Store> store = graph::Store::open(options.root);
  std::optional<WriterLock> lock;  // one writer per workspace (index/writer_lock.h)
  if (options.take_lock) {
    lock.emplace(options.root);
    if (!lock->try_lock()) {
      if (options.on_waiting) options.on_waiting();
      lock->lock();
    }
  }
  walk::WalkOptions walk_options;
  walk_options.root = options.root;
  walk_options.max_file_size = options.max_file_size;
  walk_options.is_document = [](std::string_view path) { return docs::format_of(path).has_value(); };
  walk_options.max_document_size = options.documents.max_file_bytes;
  walk_options.only = options.only;
  summary.targeted = options.only.has_value();
  // Version control history, when HEAD moved since it was read: on a
  // thread of its own, beside the walk (git runs in another process).
  struct History {
    std::string head;
    std::vector<std::vector<std::string>> commits;
  };
  struct HistoryRead {
    std::filesystem::path git_dir;  // vcs::Head::git_dir
    std::optional<History> moved;   // set when HEAD moved since it was recorded
  };
  std::future<HistoryRead> history;
  if (options.history && !summary.targeted) {
    history = std::async(std::launch::async, [root = options.root, recorded = store->history_head()] {
      vcs::Head head = vcs::head(root);
      HistoryRead found{std::move(head.git_dir), std::nullopt};
      if (head.commit == recorded) return found;
      History& read = found.moved.emplace();
      read.head = head.commit;
      if (head.commit.empty()) return found;  // history no more: forget it
      try {
        read.commits = vcs::commit_files(root, head.commit, kHistoryCommits);
      } catch (const vcs::GitError&) {
        found.moved.reset();  // keep what was read before
        return found;
      }
      for (std::vector<std::string>& files : read.commits)
        if (files.size() > kLargestCommit) files.clear();
      return found;
    });
  }
  // What the index holds is read on another thread while the tree is
  // walked (on a 44k-file tree: about 100 ms beside 170-300 ms of walk);
  // nothing else uses the store's connection meanwhile. A targeted run reads
  // only its paths' rows.
  std::future<std::unordered_map<std::string, graph::FileState>> states =
      std::async(std::launch::async, [&store, &options] {
        return options.only ? store->file_states(*options.only, /*hashes=*/false) : store->file_states(/*hashes=*/false);
      });
  walk::WalkResult walked = walk::walk(walk_options);
  std::unordered_map<std::string, graph::FileState> previous = states.get();
  summary.walk_errors = std::move(walked.errors);
  summary.directories = std::move(walked.directories);
  summary.links = std::move(walked.links);
  summary.files_on_disk = walked.files.size() + walked.skipped.size();

  std::vector<WorkItem> work;
  std::size_t known = 0;  // paths on disk that the index holds: when all of them, nothing was removed
  for (const walk::WalkEntry& entry : walked.files) {
    auto found = previous.find(entry.rel_path);
    graph::FileState* state = found == previous.end() ? nullptr : &found->second;
    known += state != nullptr;
    if (state && state->size == entry.size && state->mtime_ns == entry.mtime_ns && !racily_clean(*state)) {
      ++summary.files_unchanged;
      continue;
    }
    if (state) state->sha256 = store->file_hash(entry.rel_path);  // same content under a new mtime?
    work.push_back({&entry, state});
  }
  // A targeted run's content hashes files had before it changed or removed
  // them: the compression cache may hold outputs no file needs any more
  // (pruned below).
  std::vector<std::string> old_hashes;
  if (summary.targeted)
    for (const WorkItem& item : work)
      if (item.previous && !item.previous->sha256.empty()) old_hashes.push_back(item.previous->sha256);

  std::optional<graph::Batch> batch;  // the open transaction, if any
  std::size_t in_batch = 0;
  auto current_batch = [&]() -> graph::Batch& {
    if (!batch) {
      batch.emplace(*store);
      in_batch = 0;
    }
    return *batch;
  };
  auto commit_batch = [&] {
    if (batch) {
      batch->commit();
      batch.reset();
    }
  };

  bool rows_written = !work.empty();  // some row of `files` is rewritten, added or removed below
  // Skipped-by-walk files (too large, outside links, unreadable): recorded
  // with their reason, rewritten only when that changes.
  for (const walk::SkippedEntry& skipped : walked.skipped) {
    auto found = previous.find(skipped.rel_path);
    known += found != previous.end();
    if (found != previous.end() && found->second.skip_reason == walk::to_string(skipped.reason)) continue;
    rows_written = true;
    graph::FileRecord file;
    file.path = skipped.rel_path;
    file.skip_reason = walk::to_string(skipped.reason);
    file.error = skipped.detail;
    file.indexed_at = unix_now();
    current_batch().put_file(file, {}, {});
  }
  bool config_changed = false;  // a file that decides where imports lead (tsconfig.json, go.mod, ...)
  if (known < previous.size()) {  // some indexed files are gone
    std::unordered_set<std::string_view> present;
    present.reserve(summary.files_on_disk);
    for (const walk::WalkEntry& entry : walked.files) present.insert(entry.rel_path);
    for (const walk::SkippedEntry& skipped : walked.skipped) present.insert(skipped.rel_path);
    for (const auto& [path, state] : previous) {
      if (present.count(path)) continue;
      if (resolve::decides_imports(path)) config_changed = true;
      if (summary.targeted && old_hashes.size() <= kFewHashes && state.skip_reason.empty())
        old_hashes.push_back(store->file_hash(path));
      current_batch().remove_file(path);
      ++summary.files_removed;
      rows_written = true;
    }
  }
  commit_batch();
  // The states read before the walk, which nothing has changed since (this
  // run holds the writer lock); `previous` is not read again.
  if (options.keep_files && !summary.targeted && !rows_written) summary.files = indexed_files_of(std::move(previous));

  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(work.size(), 1)));
  OutcomeQueue queue(std::max<std::size_t>(8, 4 * jobs));
  std::atomic<std::size_t> next{0};
  std::atomic<unsigned> running{jobs};
  std::vector<std::thread> workers;
  if (!work.empty()) {
    for (unsigned j = 0; j < jobs; ++j) {
      workers.emplace_back([&] {
        parse::SymbolExtractor extractor;
        for (std::size_t i = next++; i < work.size(); i = next++) {
          if (options.cancel && options.cancel->load()) break;  // the next run reads what is left
          queue.push(process_safely(work[i], options, extractor));
        }
        if (--running == 0) queue.finish();
      });
    }
  } else {
    queue.finish();
  }

  Progress progress;
  progress.total = work.size();
  Clock::time_point last_report{};
  Clock::time_point batch_started = Clock::now();
  try {
    while (!queue.drained()) {
      std::optional<Outcome> outcome = queue.pop(std::chrono::milliseconds(100));
      if (outcome) {
        graph::Batch& open = current_batch();
        if (in_batch == 0) batch_started = Clock::now();
        if (outcome->action == Outcome::Action::kTouch) {
          open.touch_file(outcome->file.path, outcome->file.mtime_ns, outcome->file.indexed_at);
          ++summary.files_touched;
        } else {
          open.put_file(outcome->file, outcome->nodes, outcome->text, outcome->refs);
          if (resolve::decides_imports(outcome->file.path)) config_changed = true;
          if (outcome->file.skip_reason.empty()) ++summary.files_parsed;
          if (!outcome->file.error.empty())
            summary.errors.push_back({outcome->file.path, outcome->file.error});
        }
        summary.bytes_read += outcome->file.size;
        ++progress.done;
        progress.bytes = summary.bytes_read;
        ++in_batch;
      }
      if (batch && (in_batch >= options.batch_files || Clock::now() - batch_started > std::chrono::milliseconds(500)))
        commit_batch();
      if (options.on_progress && Clock::now() - last_report > std::chrono::milliseconds(100)) {
        last_report = Clock::now();
        progress.elapsed_seconds = std::chrono::duration<double>(last_report - started).count();
        options.on_progress(progress);
      }
    }
    commit_batch();
  } catch (...) {
    // Let the workers finish so their threads can be joined, then rethrow.
    next = work.size();
    while (!queue.drained()) queue.pop(std::chrono::milliseconds(10));
    for (std::thread& worker : workers) worker.join();
    throw;
  }
  for (std::thread& worker : workers) worker.join();

  // The cache of compressed outputs (pack/cache.h) keeps only content some
  // file still has, after the files changed (a run that changed nothing
  // writes nothing): one statement over the whole cache (28 ms on a 42k-file
  // tree), which also drops rows of content no file had when it was indexed
  // and other compressor versions' rows; a targeted run of a few files only
  // prunes their old contents' rows (the next whole run does the rest).
  if (!work.empty() || summary.files_removed > 0) {
    graph::Batch prune(*store);
    if (summary.targeted && old_hashes.size() <= kFewHashes)
      prune.prune_compressed(old_hashes);
    else
      prune.prune_compressed(compress::kVersion);
    prune.commit();
  }

  if (history.valid()) {
    HistoryRead found = history.get();
    summary.git_dir = std::move(found.git_dir);
    if (found.moved) {
      graph::Batch batch(*store);
      batch.replace_history(found.moved->head, found.moved->commits);
      batch.commit();
      summary.history_commits = found.moved->commits.size();
    }
  }

  summary.cancelled = options.cancel && options.cancel->load();
  // The full-text indexes keep a rewritten or removed file's old entries
  // in their segments until a merge reaches them: after checkouts of other
  // commits they held 4-20x the data of merged ones, and searched about
  // twice as slowly. Once the files rewritten or removed since the last
  // merge (this run's included: a first index, a checkout, or many small
  // runs) are a tenth of the index's files, the run merges them into one
  // segment each: about what parsing a tenth of the files cost (1 s on a
  // 10k-file tree). A cancelled run only counts its files.
  std::int64_t rewritten = static_cast<std::int64_t>(summary.files_parsed + summary.files_removed);
  std::int64_t churn = store->full_text_churn() + rewritten;
  bool merge = !summary.cancelled && churn > 0 && churn * kMergeShare >= store->indexed_file_count();
  if (merge || rewritten > 0) {
    graph::Batch batch(*store);
    if (merge)
      batch.merge_full_text();
    else
      batch.add_full_text_churn(rewritten);
    batch.commit();
    summary.full_text_merged = merge;
  }
  // Edges: resolve every pending reference against the committed index.
  if (options.edges && !summary.cancelled) {
    if (config_changed) {
      graph::Batch batch(*store);
      batch.mark_imports_pending();
      batch.commit();
    }
    Clock::time_point resolve_started = Clock::now();
    summary.resolve = resolve::resolve_pending(*store, options.root, resolve::kBulkThreshold, options.resolve_cache);
    summary.resolve_seconds = std::chrono::duration<double>(Clock::now() - resolve_started).count();
  }

  if (options.counts) {
    graph::Stats stats = store->counts();
    std::size_t files = 0;  // the index's: a targeted run walked only some
    for (const auto& [language, count] : stats.files_by_language) {
      summary.files_by_language[language.empty() ? "other" : language] = static_cast<std::size_t>(count);
      files += static_cast<std::size_t>(count);
    }
    for (const auto& [reason, count] : stats.skipped_by_reason) {
      summary.skipped_by_reason[reason] = static_cast<std::size_t>(count);
      files += static_cast<std::size_t>(count);
    }
    summary.symbols = static_cast<std::size_t>(stats.symbols);
    if (summary.targeted) summary.files_on_disk = files;
  }
  summary.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  summary.cpu_seconds = cpu_seconds_now() - cpu_started;
  if (options.on_progress) {
    progress.elapsed_seconds = summary.elapsed_seconds;
    options.on_progress(progress);
  }
  return summary;
}

}  // namespace comp::index
