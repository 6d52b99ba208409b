#include "pipeline/pipeline.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <tuple>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "digest/sha256.h"
#include "index/indexer.h"
#include "index/test_tree.h"
#include "pack/cache.h"
#include "pipeline/render.h"
#include "tokens/tokens.h"
#include "walk/walker.h"

namespace comp::pipeline {
namespace {

using index::testing::TempTree;
using index::testing::index_tree;
using index::testing::indexed;

// run_pipeline on `task` with the default request.
Result ask(graph::Store& store, const TempTree& tree, const std::string& task) {
  Request request;
  request.task = task;
  return run_pipeline(store, tree.root(), request);
}

// A ranked file's place (1 is first; 0 when not ranked), score and evidence.
std::size_t rank_of(const Result& result, const std::string& path) {
  for (std::size_t i = 0; i < result.ranking.size(); ++i)
    if (result.ranking[i].path == path) return i + 1;
  return 0;
}
double score_of(const Result& result, const std::string& path) {
  std::size_t rank = rank_of(result, path);
  return rank ? result.ranking[rank - 1].score : 0.0;
}
std::vector<std::string> why_of(const Result& result, const std::string& path) {
  std::size_t rank = rank_of(result, path);
  return rank ? result.ranking[rank - 1].why : std::vector<std::string>{};
}
// A sent file (nullptr when `path` is not in the pack).
const PivotFile* sent_file(const Result& result, const std::string& path) {
  auto found = std::find_if(result.pivot_files.begin(), result.pivot_files.end(),
                            [&](const PivotFile& pivot) { return pivot.path == path; });
  return found == result.pivot_files.end() ? nullptr : &*found;
}

// The text of export/exporter_F.py: class ExporterF with `methods` methods,
// method(m) each.
std::string exporter(int f, int methods, const std::function<std::string(int)>& method) {
  std::string text = "class Exporter" + std::to_string(f) + ":\n";
  for (int m = 0; m < methods; ++m) text += method(m);
  return text;
}

// A small shop: the task's evidence points at one file in several ways.
void write_shop(TempTree& tree) {
  tree.write("shop/__init__.py", "");
  tree.write("shop/cart.py",
             "from .pricing import apply_discount\n\nclass Cart:\n    \"\"\"Items and their total.\"\"\"\n\n"
             "    def __init__(self):\n        self.items = []\n\n    def add(self, item, qty=1):\n"
             "        # one line per item\n        self.items.append((item, qty))\n\n    def total(self):\n"
             "        return apply_discount(sum(i.price * q for i, q in self.items))\n");
  tree.write("shop/pricing.py",
             "def apply_discount(amount):\n    \"\"\"Ten percent off above 100.\"\"\"\n    if amount > 100:\n"
             "        return amount * 0.9\n    return amount\n\n\ndef format_price(amount):\n"
             "    return f\"{amount:.2f}\"\n");
  tree.write("shop/inventory.py", "class Inventory:\n    def count(self, sku):\n        return 0\n");
  tree.write("tests/test_pricing.py", "from shop.pricing import apply_discount\n\ndef test_discount():\n"
                                      "    assert apply_discount(200) == 180\n");
  tree.write("README.md", "# shop\nA shop with a cart, pricing and an inventory.\n");
  std::string big;
  for (int i = 0; i < 700; ++i)
    big += "def helper_" + std::to_string(i) + "(value):\n    \"\"\"Helper number " + std::to_string(i) +
           " of the report.\"\"\"\n    return value + " + std::to_string(i) + "\n\n";
  tree.write("shop/report.py", big);
}

TEST(Pipeline, RanksTheFileTheEvidencePointsAt) {
  TempTree tree("pipeline-rank");
  write_shop(tree);
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "apply_discount gives 10% off even for small amounts; it should only apply above 100");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "shop/pricing.py");
  // The test that calls it ranks below the definition (tests are down-weighted).
  auto test_rank = std::find_if(result.ranking.begin(), result.ranking.end(),
                                [](const RankedFile& f) { return f.path == "tests/test_pricing.py"; });
  ASSERT_NE(test_rank, result.ranking.end());
  EXPECT_GT(test_rank - result.ranking.begin(), 0);
  ASSERT_FALSE(result.pivot_files.empty());
  EXPECT_EQ(result.pivot_files[0].path, "shop/pricing.py");
  EXPECT_EQ(result.pivot_files[0].symbols, std::vector<std::string>{"apply_discount"});

  Request trace;
  trace.task = "Traceback (most recent call last):\n  File \"/srv/app/shop/cart.py\", line 14, in total\n"
               "TypeError: unsupported operand\n";
  Result traced = run_pipeline(*store, tree.root(), trace);
  ASSERT_FALSE(traced.ranking.empty());
  EXPECT_EQ(traced.ranking[0].path, "shop/cart.py");  // the last frame inside the project
}

// An answer reads one state of the index: the pipeline reads inside one
// read transaction (a commit by another connection meanwhile is not seen
// by it, and is not blocked), and writes the compressions it computed
// after it.
TEST(Pipeline, AnAnswerReadsOneStateOfTheIndexAndCachesAfterIt) {
  TempTree tree("pipeline-snapshot");
  write_shop(tree);
  auto store = indexed(tree);
  Request request;
  request.task = "apply_discount gives 10% off even for small amounts; it should only apply above 100";
  int polls = 0;
  request.cancelled = [&] {
    EXPECT_FALSE(sqlite3_get_autocommit(store->handle())) << "poll " << polls << ": reading outside a transaction";
    if (polls++ == 0) {  // after the search: another connection drops the top file from the index
      auto other = graph::Store::open(tree.root());
      graph::Batch batch(*other);
      batch.remove_file("shop/pricing.py");
      batch.commit();
    }
    return false;
  };
  Result result = run_pipeline(*store, tree.root(), request);
  EXPECT_GE(polls, 1);
  EXPECT_TRUE(sqlite3_get_autocommit(store->handle()));
  ASSERT_FALSE(result.pivot_files.empty());
  EXPECT_EQ(result.pivot_files[0].path, "shop/pricing.py");
  std::size_t skeletons = 0;
  for (const PivotFile& pivot : result.pivot_files) {
    if (pivot.level != 2) continue;
    ++skeletons;
    EXPECT_TRUE(store->compressed(digest::sha256_hex(walk::read_in_root(tree.root(), pivot.path, 1u << 20)), "python",
                                  2, compress::kVersion))
        << pivot.path << ": a skeleton computed inside the snapshot is cached after it";
  }
  EXPECT_GT(skeletons, 0u);
  EXPECT_FALSE(store->file("shop/pricing.py")) << "after the answer, the commit is seen";
  EXPECT_EQ(rank_of(ask(*store, tree, request.task), "shop/pricing.py"), 0u);
}

// A pasted log: thousands of frames of a recursion in the project, then
// the caller, a library frame and a name two project files carry, then
// thousands of paths of files the project does not have. The last frame
// that is one project file is still where it failed (whichever file that
// is), and the one real path mentioned still counts.
TEST(Pipeline, ALongLogStillPointsAtItsLastProjectFrame) {
  TempTree tree("pipeline-long-log");
  write_shop(tree);
  tree.write("shop/a/helpers.py", "def one():\n    return 1\n");
  tree.write("shop/b/helpers.py", "def two():\n    return 2\n");
  auto store = indexed(tree);
  auto log_ending_in = [](const std::string& frame) {
    std::string log = "RecursionError in the shop\nTraceback (most recent call last):\n";
    for (int i = 0; i < 3000; ++i) log += "  File \"/srv/app/shop/pricing.py\", line 4, in apply_discount\n";
    log += frame;
    log += "  File \"/usr/lib/python3/decimal.py\", line 9, in quantize\n";  // not the project's
    log += "  File \"helpers.py\", line 2, in one\n";                      // two of the project's
    log += "RecursionError: maximum recursion depth exceeded\n";
    for (int i = 0; i < 2000; ++i) log += "build/out/chunk_" + std::to_string(i) + ".js\n";
    return log + "see shop/report.py\n";
  };
  for (const auto& [frame, failed] : std::vector<std::pair<std::string, std::string>>{
           {"  File \"/srv/app/shop/cart.py\", line 14, in total\n", "shop/cart.py"},
           {"  File \"/srv/app/shop/inventory.py\", line 3, in count\n", "shop/inventory.py"}}) {
    Request request;
    request.task = log_ending_in(frame);
    Result result = run_pipeline(*store, tree.root(), request);
    ASSERT_FALSE(result.ranking.empty());
    EXPECT_EQ(result.ranking[0].path, failed);
    ASSERT_NE(rank_of(result, "shop/report.py"), 0u) << failed;
    const RankedFile& report = result.ranking[rank_of(result, "shop/report.py") - 1];
    EXPECT_NE(std::find(report.why.begin(), report.why.end(), "path shop/report.py"), report.why.end())
        << ::testing::PrintToString(report.why);
  }
}

TEST(Pipeline, NeverExceedsTheBudgetAndFillsIt) {
  TempTree tree("pipeline-budget");
  write_shop(tree);
  auto store = indexed(tree);
  for (std::size_t budget : {64u, 150u, 500u, 2000u, 8000u}) {
    Request request;
    request.task = "helper report value apply_discount Cart total inventory";
    request.max_tokens = budget;
    Result result = run_pipeline(*store, tree.root(), request);
    std::size_t sum = 0;
    for (const PivotFile& pivot : result.pivot_files) {
      EXPECT_EQ(pivot.token_count, tokens::count(pivot.content)) << pivot.path;
      sum += pivot.token_count;
    }
    EXPECT_EQ(sum, result.tokens_sent);
    EXPECT_EQ(result.token_savings, result.raw_tokens - result.tokens_sent);
    // The answer as an agent reads it, headings and all, fits the budget.
    std::string answer = to_markdown(result);
    EXPECT_EQ(result.answer_tokens, tokens::count(answer)) << budget;
    EXPECT_LE(result.answer_tokens, budget) << answer;
    EXPECT_LT(result.tokens_sent, result.answer_tokens);
    // report.py alone holds far more than these budgets: they are filled.
    if (budget >= 500) {
      EXPECT_GE(result.answer_tokens * 10, budget * 9) << budget;
    }
  }
}

TEST(Pipeline, ASmallBudgetStillSendsTheStrongestFile) {
  // Long paths, as in a Java project: the closing line naming the files
  // left out is reserved with the first, so it cannot push out the only
  // file that fits (at 300 tokens the answer was its first line alone).
  TempTree tree("pipeline-small");
  const std::string folder = "billing-service/src/main/java/org/example/commerce/billing/invoices/";
  for (int f = 0; f < 12; ++f) {
    std::string text = "package org.example.commerce.billing.invoices;\n\npublic class Invoice" + std::to_string(f) + " {\n";
    for (int m = 0; m < 30; ++m)
      text += "  public long computeTotal" + std::to_string(m) + "(long amount) {\n    long total = amount * " +
              std::to_string(m + f) + ";\n    return total;\n  }\n";
    tree.write(folder + "Invoice" + std::to_string(f) + ".java", text + "}\n");
  }
  auto store = indexed(tree);
  for (std::size_t budget : {200u, 300u, 500u}) {
    Request request;
    request.task = "Invoice3 computeTotal3 gives the wrong total for an invoice";
    request.max_tokens = budget;
    Result result = run_pipeline(*store, tree.root(), request);
    ASSERT_FALSE(result.ranking.empty());
    EXPECT_EQ(result.ranking[0].path, folder + "Invoice3.java");
    ASSERT_FALSE(result.pivot_files.empty()) << budget << "\n" << to_markdown(result);
    EXPECT_EQ(result.pivot_files[0].path, folder + "Invoice3.java");
    EXPECT_EQ(result.answer_tokens, tokens::count(to_markdown(result)));
    EXPECT_LE(result.answer_tokens, budget);
    EXPECT_GE(result.answer_tokens * 4, budget * 3) << budget;  // three quarters, even here
    // What was left out is named in rank order.
    for (std::size_t i = 1; i < result.left_out.size(); ++i)
      EXPECT_LT(rank_of(result, result.left_out[i - 1]), rank_of(result, result.left_out[i])) << budget;
  }
}

TEST(Pipeline, SupportingFilesAreSkeletons) {
  TempTree tree("pipeline-levels");
  write_shop(tree);
  auto store = indexed(tree);
  Request request;
  request.task = "Cart total uses apply_discount and format_price; the report helpers too";
  request.compression_level = 2;
  request.max_tokens = 3000;
  Result result = run_pipeline(*store, tree.root(), request);
  ASSERT_GE(result.pivot_files.size(), 2u);
  EXPECT_EQ(result.pivot_files[0].level, 0);  // the strongest file whole: it fits half the budget
  bool skeleton = false;
  for (std::size_t i = 1; i < result.pivot_files.size(); ++i)
    if (result.pivot_files[i].level == 2 && result.pivot_files[i].content.find("...") != std::string::npos) skeleton = true;
  EXPECT_TRUE(skeleton);  // report.py does not fit whole: its skeleton is sent
  EXPECT_NEAR(result.cost_estimation, static_cast<double>(result.answer_tokens) * 3.0 / 1e6, 1e-12);
}

// A module of `count` functions, each with a body of a few lines.
std::string many_functions(int count, const std::string& prefix) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    std::string n = std::to_string(i);
    text += "def " + prefix + n + "(value, scale=1):\n    total = value * scale + " + n +
            "\n    if total > 100:\n        total -= " + n + "\n    elif total < 0:\n        total += " + n +
            "\n    total = round(total * 1.5, 2)\n    return total\n\n\n";
  }
  return text;
}

// The strongest file, too large to send whole, goes as a skeleton that keeps
// the bodies of the symbols the task names.
// ledger/steps.py: `functions` steps, then the function the task names; and
// a second file. The pipeline's answer to a task about that function
// (`request.task` when set).
Result ask_about_reconcile(TempTree& tree, int functions, const std::string& other_path,
                           const std::string& other_text, Request& request) {
  tree.write("ledger/steps.py", many_functions(functions, "step_") +
                                    "def reconcile_accounts(left, right):\n    merged = dict(left)\n"
                                    "    merged.update(right)\n    return sorted(merged.items())\n");
  tree.write(other_path, other_text);
  auto store = indexed(tree);
  if (request.task.empty())
    request.task = "reconcile_accounts drops entries\nreconcile_accounts(a, b) loses keys that both ledgers have.";
  return run_pipeline(*store, tree.root(), request);
}

TEST(Pipeline, TheStrongestFileKeepsTheNamedBodies) {
  TempTree tree("pipeline-bodies");
  Request request;
  Result result = ask_about_reconcile(tree, 220, "ledger/other.py", "def unrelated():\n    return 1\n", request);
  ASSERT_FALSE(result.pivot_files.empty());
  const PivotFile& top = result.pivot_files[0];
  ASSERT_EQ(top.path, "ledger/steps.py");
  EXPECT_GT(top.raw_token_count, request.max_tokens);  // not sent whole
  EXPECT_EQ(top.level, 2);
  EXPECT_EQ(top.full_bodies, std::vector<std::string>{"reconcile_accounts"});
  EXPECT_NE(top.content.find("    merged.update(right)\n"), std::string::npos);
  EXPECT_EQ(top.content.find("total -= 7"), std::string::npos);  // other bodies elided
  EXPECT_NE(top.content.find("def step_7(value, scale=1):"), std::string::npos);
  EXPECT_LE(result.tokens_sent, request.max_tokens);
}

// A file whose skeleton alone is over half the budget is cut; the cut starts
// at the body the task names, and the next files still get their share.
TEST(Pipeline, ACutHoldsTheNamedBodyAndLeavesRoomForOthers) {
  TempTree tree("pipeline-cut");
  Request request;
  Result result = ask_about_reconcile(tree, 700, "ledger/report.py",
                                      "from ledger.steps import reconcile_accounts\n\n\ndef report(a, b):\n"
                                      "    return reconcile_accounts(a, b)\n",
                                      request);
  ASSERT_GE(result.pivot_files.size(), 2u);
  const PivotFile& top = result.pivot_files[0];
  ASSERT_EQ(top.path, "ledger/steps.py");
  ASSERT_FALSE(top.lines.empty());
  EXPECT_NE(top.lines.rfind("1-", 0), 0u) << top.lines;  // not the file's first lines
  EXPECT_NE(top.content.find("def reconcile_accounts(left, right):\n    merged = dict(left)"), std::string::npos);
  EXPECT_EQ(top.full_bodies, std::vector<std::string>{"reconcile_accounts"});
  EXPECT_NE(sent_file(result, "ledger/report.py"), nullptr);
  EXPECT_LE(result.tokens_sent, request.max_tokens);
  // The named body is the file's last: the cut takes the lines before it.
  EXPECT_GE(result.tokens_sent * 10, request.max_tokens * 9);
}

// The second file keeps the body the task names too (its cut starts there,
// not at its imports); the third and later get plain skeletons.
TEST(Pipeline, TheSecondFileKeepsItsNamedBodyToo) {
  TempTree tree("pipeline-second");
  tree.write("ledger/audit.py", many_functions(300, "check_") +
                                    "def audit_accounts(book):\n    missing = [key for key in book if not key]\n"
                                    "    return missing\n");
  tree.write("ledger/summary.py", many_functions(300, "sum_") +
                                      "def summarize_accounts(book):\n    return len(book)\n");
  Request request;
  request.task = "reconcile_accounts drops entries\nreconcile_accounts(a, b) loses keys; audit_accounts(a) and "
                 "summarize_accounts(a) report them.";
  Result result = ask_about_reconcile(tree, 700, "ledger/other.py", "def unrelated():\n    return 1\n", request);
  ASSERT_GE(result.pivot_files.size(), 3u);
  EXPECT_EQ(result.pivot_files[0].path, "ledger/steps.py");
  const PivotFile* audit = sent_file(result, "ledger/audit.py");
  const PivotFile* summary = sent_file(result, "ledger/summary.py");
  ASSERT_TRUE(audit && summary);
  const PivotFile* second = &result.pivot_files[1] == audit ? audit : summary;
  const PivotFile* third = second == audit ? summary : audit;
  const std::string named = second == audit ? "audit_accounts" : "summarize_accounts";
  ASSERT_FALSE(second->lines.empty());
  EXPECT_NE(second->lines.rfind("1-", 0), 0u) << second->lines;  // cut at the body, not the file's head
  EXPECT_EQ(second->full_bodies, std::vector<std::string>{named});
  EXPECT_NE(second->content.find(second == audit ? "missing = [key" : "return len(book)"), std::string::npos);
  EXPECT_TRUE(third->full_bodies.empty());
  EXPECT_LE(result.tokens_sent, request.max_tokens);
}

// The daemons keep the file list between queries; any commit to the index
// that changes file rows, by another connection too, or a new database file
// makes them read it again; a commit of cache rows alone does not.
TEST(Pipeline, FileListCacheReadsAgainAfterACommit) {
  TempTree tree("pipeline-file-list");
  write_shop(tree);
  auto store = indexed(tree);
  FileListCache cache;
  std::shared_ptr<const FileList> first = cache.get(*store);
  EXPECT_EQ(cache.get(*store), first);  // nothing committed: the kept list
  EXPECT_FALSE(first->by_path.count("shop/returns.py"));

  tree.write("shop/returns.py", "def refund_order(order):\n    return order\n");
  index_tree(tree);  // the indexer's own connection commits
  std::shared_ptr<const FileList> second = cache.get(*store);
  EXPECT_NE(second, first);
  EXPECT_TRUE(second->by_path.count("shop/returns.py"));
  Request request;
  request.task = "refund_order returns nothing";
  Result result = run_pipeline(*store, tree.root(), request, &cache);
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "shop/returns.py");

  // The answer's cache rows are a commit too, but no file row changed: the
  // list is kept.
  ASSERT_GT(result.pivot_files.size(), 0u);
  {
    auto writer = graph::Store::open(tree.root());
    graph::Batch batch(*writer);
    graph::CompressedRecord row;
    row.sha256 = "0123";
    row.language = "python";
    row.level = 2;
    row.compressor = compress::kVersion;
    batch.put_compressed(row);
    batch.commit();
  }
  EXPECT_EQ(cache.get(*store), second);
  tree.write("shop/returns.py", "def refund_order(order):\n    return None\n");
  index_tree(tree);  // the same path, rewritten: its row's size and mtime
  std::shared_ptr<const FileList> rewritten = cache.get(*store);
  EXPECT_NE(rewritten, second);

  // A new database file (a corrupt one moved aside, the index rebuilt).
  store.reset();
  graph::Store::quarantine(tree.root());
  tree.write("shop/exchange.py", "def exchange_item(item):\n    return item\n");
  store = indexed(tree);
  std::shared_ptr<const FileList> third = cache.get(*store);
  EXPECT_TRUE(third->by_path.count("shop/exchange.py"));
}

// A database copied over the index in place (a restore: the file keeps its
// inode) at the same files_version is another database: its own list.
TEST(Pipeline, FileListCacheKnowsADatabaseCopiedOverTheIndex) {
  TempTree tree("pipeline-file-list-restore");
  write_shop(tree);
  TempTree other("pipeline-file-list-restore-other");
  other.write("billing/invoice.py", "def send_invoice(order):\n    return order\n");
  index_tree(other);
  auto store = indexed(tree);
  FileListCache cache;
  std::shared_ptr<const FileList> first = cache.get(*store);
  ASSERT_FALSE(first->by_path.count("billing/invoice.py"));
  std::int64_t version = store->files_version();
  store.reset();

  // The other index, at the same version, written into the index's own file.
  {
    auto source = graph::Store::open(other.root());
    sqlite3_exec(source->handle(), ("UPDATE files_version SET version = " + std::to_string(version)).c_str(), nullptr,
                 nullptr, nullptr);
    sqlite3_exec(source->handle(), "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
  }
  const std::filesystem::path database = graph::Store::database_path(tree.root());
  std::filesystem::remove(database.string() + "-wal");
  std::filesystem::remove(database.string() + "-shm");
  struct stat before {};
  ASSERT_EQ(::stat(database.c_str(), &before), 0);
  {
    std::ifstream in(graph::Store::database_path(other.root()), std::ios::binary);
    std::ofstream out(database, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
  }
  struct stat after {};
  ASSERT_EQ(::stat(database.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // the same file

  store = graph::Store::open_existing(tree.root());
  ASSERT_EQ(store->files_version(), version);
  std::shared_ptr<const FileList> restored = cache.get(*store);
  EXPECT_TRUE(restored->by_path.count("billing/invoice.py"));
  EXPECT_FALSE(restored->by_path.count("shop/cart.py"));
}

// After an edit's index run the kept list takes in the rows that run
// changed (Store::files_changed) rather than reading every row: the same
// list as a whole read, in the same order. A run of too many files, or
// a list of another database file, is read whole.
TEST(Pipeline, FileListCacheTakesInTheRowsACommitChanged) {
  TempTree tree("pipeline-file-list-patch");
  write_shop(tree);
  auto store = indexed(tree);
  FileListCache cache;
  auto rows = [](const FileList& list) {
    std::vector<std::tuple<std::string, std::string, std::uint64_t, std::int64_t, std::int64_t>> out;
    for (const graph::IndexedFile& file : list.files)
      out.emplace_back(file.path, file.language, file.size, file.mtime_ns, file.row);
    return out;
  };
  auto same_as_a_whole_read = [&](const FileList& list) {
    graph::ReadSnapshot snapshot(*store);
    std::shared_ptr<const FileList> whole = FileList::read(*store);
    EXPECT_EQ(rows(list), rows(*whole));
    EXPECT_EQ(list.by_path.size(), list.files.size());
    for (const graph::IndexedFile& file : list.files) EXPECT_EQ(list.by_path.at(file.path), &file);
  };
  auto get = [&] {
    graph::ReadSnapshot snapshot(*store);
    return cache.get(*store);
  };
  std::shared_ptr<const FileList> first = get();
  EXPECT_EQ(cache.whole_reads(), 1u);
  ASSERT_GE(first->files.size(), 3u);

  // Each edit as an agent makes them, each followed by the daemon's index run.
  const std::vector<std::function<void()>> edits = {
      [&] { tree.write("shop/returns.py", "def refund_order(order):\n    return order\n"); },  // a new file
      [&] { tree.write("shop/returns.py", "def refund_order(order):\n    return None  # longer\n"); },
      [&] { tree.remove(first->files[0].path); },                                        // the first row goes
      [&] { tree.write("shop/blob.py", std::string("binary\0data", 11)); },             // indexed as skipped
      [&] {                                                                              // a file and a folder
        tree.remove("shop/returns.py");
        tree.write("shop/returns.py/__init__.py", "def refund_all():\n    pass\n");
        tree.write("notes.md", "# Refunds\n");
      },
      [&] { tree.write(first->files[0].path, "def back_again():\n    pass\n"); },   // the first path, a new row
  };
  std::shared_ptr<const FileList> kept = first;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    SCOPED_TRACE("edit " + std::to_string(i));
    edits[i]();
    index_tree(tree);  // the indexer's own connection commits
    std::shared_ptr<const FileList> now = get();
    EXPECT_NE(now, kept);
    same_as_a_whole_read(*now);
    EXPECT_EQ(cache.whole_reads(), 1u) << "taken in, not read whole";
    kept = now;
  }
  EXPECT_TRUE(kept->by_path.count("shop/returns.py/__init__.py"));
  EXPECT_FALSE(kept->by_path.count("shop/returns.py"));
  EXPECT_FALSE(kept->by_path.count("shop/blob.py"));

  // Several runs between two queries.
  tree.write("shop/one.py", "ONE = 1\n");
  index_tree(tree);
  tree.write("shop/two.py", "TWO = 2\n");
  index_tree(tree);
  tree.remove("shop/one.py");
  index_tree(tree);
  std::shared_ptr<const FileList> several = get();
  same_as_a_whole_read(*several);
  EXPECT_EQ(cache.whole_reads(), 1u);

  // An edit of a listed file while no query holds the list: updated where
  // it is. While one does (a query still running), it gets a new list and
  // the one held stays as it was.
  const FileList* where = several.get();
  const std::string edited = "shop/two.py";
  const std::uint64_t size_before = several->by_path.at(edited)->size;
  several.reset();
  tree.write(edited, "TWO = 2  # and a longer line\n");
  index_tree(tree);
  std::shared_ptr<const FileList> updated = get();
  EXPECT_EQ(updated.get(), where);
  EXPECT_NE(updated->by_path.at(edited)->size, size_before);
  same_as_a_whole_read(*updated);
  tree.write(edited, "TWO = 22\n");
  index_tree(tree);
  std::shared_ptr<const FileList> copied = get();
  EXPECT_NE(copied.get(), updated.get());
  same_as_a_whole_read(*copied);
  EXPECT_NE(updated->by_path.at(edited)->size, copied->by_path.at(edited)->size) << "the held list stays";
  EXPECT_EQ(cache.whole_reads(), 1u);
  updated.reset();

  // A run of more files than the index's log lists is read whole.
  for (std::size_t i = 0; i <= graph::Batch::kFilesChangesListed; ++i)
    tree.write("many/m" + std::to_string(i) + ".py", "X = " + std::to_string(i) + "\n");
  index_tree(tree);
  std::shared_ptr<const FileList> many = get();
  same_as_a_whole_read(*many);
  EXPECT_EQ(cache.whole_reads(), 2u);
  EXPECT_EQ(get(), many) << "nothing committed since";
  EXPECT_EQ(cache.whole_reads(), 2u);
}

TEST(Pipeline, FreshnessCountsFilesChangedSinceIndexed) {
  TempTree tree("pipeline-fresh");
  write_shop(tree);
  index_tree(tree);
  tree.write("shop/inventory.py", "class Inventory:\n    def count(self, sku):\n        return 1\n");
  tree.set_mtime("shop/inventory.py", 1000);
  auto store = graph::Store::open_existing(tree.root());
  Request request;
  request.task = "Inventory count";
  EXPECT_EQ(run_pipeline(*store, tree.root(), request).stale_files, 1u);
  // A caller that knows (a watcher's pending changes, a refresh just now)
  // says so, and no file is stat'ed: its count is the answer.
  request.stale_files = 3;
  EXPECT_EQ(run_pipeline(*store, tree.root(), request).stale_files, 3u);
}

TEST(Pipeline, TestAndVendoredPaths) {
  EXPECT_TRUE(is_test_path("tests/test_x.py"));
  EXPECT_TRUE(is_test_path("src/__tests__/a.ts"));
  EXPECT_TRUE(is_test_path("src/a.spec.ts"));
  EXPECT_TRUE(is_test_path("src/main/java/FooTest.java"));
  EXPECT_FALSE(is_test_path("src/latest/contest.py"));
  // Any case; a whole part between separators, never inside a word.
  EXPECT_TRUE(is_test_path("Tests/Unit/UserTest.php"));
  EXPECT_TRUE(is_test_path("SPEC/models/user.rb"));
  EXPECT_TRUE(is_test_path("packages/app/E2E/login.ts"));
  EXPECT_TRUE(is_test_path("lib/Testing-utils/render.js"));
  EXPECT_TRUE(is_test_path("src/__TESTS__/b.tsx"));
  EXPECT_FALSE(is_test_path("src/testament/attest.py"));
  EXPECT_FALSE(is_test_path("src/specimen/inspect.ts"));
  EXPECT_FALSE(is_test_path(""));
  EXPECT_TRUE(is_vendored_path("web/vendor/jquery.js"));
  EXPECT_TRUE(is_vendored_path("static/app.min.js"));
  EXPECT_FALSE(is_vendored_path("src/vendors.py"));
  EXPECT_TRUE(is_generated_path("yarn.lock"));
  EXPECT_TRUE(is_generated_path("web/package-lock.json"));
  EXPECT_TRUE(is_generated_path("api/v1/service_pb2.py"));
  EXPECT_TRUE(is_generated_path("src/__generated__/schema.ts"));
  EXPECT_TRUE(is_generated_path("src/types.generated.ts"));
  EXPECT_FALSE(is_generated_path("src/generators/cursor.js"));
  EXPECT_FALSE(is_generated_path("src/lock.py"));
  EXPECT_TRUE(is_example_path("examples/basic.py"));
  EXPECT_TRUE(is_example_path("website/pages/en/index.js"));
  EXPECT_TRUE(is_example_path("site/src/routes/index.js"));
  EXPECT_TRUE(is_example_path("lib/plugins/create/templates/aws-python/handler.py"));
  EXPECT_TRUE(is_example_path("packages/core/fixtures/app.ts"));
  EXPECT_FALSE(is_example_path("src/site/builder.py"));
  EXPECT_FALSE(is_example_path("src/templating/render.py"));
}

// "[Chip] No ripple effect": the bracketed tag names the component that must
// change, even when the rest of the title's words point at another file.
TEST(Pipeline, TitleTagNamesTheComponent) {
  TempTree tree("pipeline-tag");
  tree.write("src/Chip/Chip.js", "import ButtonBase from '../ButtonBase/ButtonBase';\n"
                                 "export default function Chip(props) {\n  const { label, onDelete } = props;\n"
                                 "  return <ButtonBase className=\"chip\">{label}</ButtonBase>;\n}\n");
  tree.write("src/Chip/index.js", "export { default } from './Chip';\n");
  tree.write("src/ButtonBase/TouchRipple.js", "// The ripple of every button: ripple start, ripple stop.\n"
                                              "export default function TouchRipple() {\n  return startRipple();\n}\n"
                                              "function startRipple() { return 'ripple'; }\n");
  tree.write("src/ButtonBase/ButtonBase.js", "import TouchRipple from './TouchRipple';\n"
                                             "export default function ButtonBase(props) {\n"
                                             "  return <button>{props.children}<TouchRipple /></button>;\n}\n");
  for (int i = 0; i < 6; ++i)  // demos that use chips make "chip" a common word
    tree.write("docs/demos/ChipDemo" + std::to_string(i) + ".js",
               "import Chip from '../../src/Chip';\nexport default () => <Chip label=\"chip " + std::to_string(i) +
                   "\" />;\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "[Chip] No ripple effect\n"
                      "Clicking shows no ripple effect at all, unlike other buttons.");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "src/Chip/Chip.js");
  const auto& why = result.ranking[0].why;
  EXPECT_NE(std::find(why.begin(), why.end(), "tag chip"), why.end());
  // The same words without the tag: the ripple's own file leads.
  result = ask(*store, tree,
               "No ripple effect on chips\n"
               "Clicking shows no ripple effect at all, unlike other buttons.");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "src/ButtonBase/TouchRipple.js");
}

// A change to a module usually changes its documentation page too: the
// pack sends the page named as the strongest code file's module, from the
// section about the task, after the code.
TEST(Pipeline, PacksTheDocumentationPageOfTheStrongestFile) {
  TempTree tree("pipeline-companion");
  tree.write("src/Chip/Chip.js", "export default function Chip(props) {\n  const { label, onDelete } = props;\n"
                                 "  return <span className=\"chip\">{label}</span>;\n}\n");
  tree.write("src/Chip/index.js", "export { default } from './Chip';\n");
  tree.write("src/Button/Button.js", "export default function Button(props) {\n  return <button />;\n}\n");
  std::string page = "# Chip API\n\n";
  // Longer than the whole budget, the section about the task in its middle.
  for (int i = 0; i < 800; ++i) {
    page += "## Prop number " + std::to_string(i) + "\n\nA property of the chip, described at length here.\n\n";
    if (i == 400) page += "## Ripple\n\nThe chip shows a ripple effect when it is clicked, unless `disableRipple` is set.\n\n";
  }
  tree.write("docs/pages/api/chip.md", page);
  tree.write("docs/pages/api/button.md", "# Button API\n\nThe button component.\n");
  tree.write("CHANGELOG.md", "# Changes\n\n## Chip\n\nChip ripple fixed.\n");
  // Code that says the task's words too: the page is not among the ranked files.
  for (int i = 0; i < 24; ++i)
    tree.write("src/Ripple" + std::to_string(i) + ".js",
               "// A ripple effect shown when clicking, as on a chip.\nexport const ripple" + std::to_string(i) +
                   " = () => 'ripple effect';\n");
  auto store = indexed(tree);
  Request request;
  request.task = "[Chip] No ripple effect\nClicking a chip shows no ripple effect at all.";
  request.max_tokens = 8000;
  Result result = run_pipeline(*store, tree.root(), request);
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "src/Chip/Chip.js");
  const PivotFile* sent = sent_file(result, "docs/pages/api/chip.md");
  ASSERT_NE(sent, nullptr);
  EXPECT_TRUE(std::none_of(result.ranking.begin(), result.ranking.end(),
                           [](const RankedFile& f) { return f.path == "docs/pages/api/chip.md"; }));
  EXPECT_EQ(sent->documents, "src/Chip/Chip.js");
  EXPECT_GT(sent - result.pivot_files.data(), 0);  // after the code
  // Cut from the section about the task (then grown with the budget left).
  EXPECT_NE(sent->content.find("disableRipple"), std::string::npos);
  EXPECT_FALSE(sent->lines.empty());
  EXPECT_NE(sent->lines.rfind("1-", 0), 0u) << sent->lines;
  for (const PivotFile& pivot : result.pivot_files) {
    EXPECT_NE(pivot.path, "docs/pages/api/button.md");
    if (pivot.path != sent->path) {
      EXPECT_TRUE(pivot.documents.empty()) << pivot.path;
    }
  }
  EXPECT_LE(result.tokens_sent, request.max_tokens);
  // A small budget keeps to the code.
  request.max_tokens = 2000;
  result = run_pipeline(*store, tree.root(), request);
  for (const PivotFile& pivot : result.pivot_files) EXPECT_TRUE(pivot.documents.empty()) << pivot.path;
}

TEST(Pipeline, CompanionDocsAreNamedAsTheModule) {
  auto files = [](std::vector<std::string> paths) {
    std::vector<graph::IndexedFile> out;
    for (std::string& path : paths) {
      graph::IndexedFile file;
      file.path = std::move(path);
      if (file.path.ends_with(".js") || file.path.ends_with(".py")) file.language = "javascript";
      out.push_back(std::move(file));
    }
    return out;
  };
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  std::vector<graph::IndexedFile> tree = files({
      "lib/plugins/aws/events/stream/index.js", "lib/plugins/aws/invokeLocal/index.js", "src/StepLabel/StepLabel.js",
      "docs/providers/aws/events/streams.md", "docs/providers/azure/events/streams.md",
      "docs/providers/aws/cli-reference/invoke-local.md", "pages/api/step-label.md",
      "docs/translations/api-docs/step-label/step-label.json", "src/step-label.json", "CHANGELOG.md",
      "README.md", "test/docs/streams.md", "src/docs/stream.js"});
  // An index file is its folder's module; the page sharing the "aws" folder wins; the plural counts.
  EXPECT_EQ(companion_docs(tree, {"lib/plugins/aws/events/stream/index.js"}),
            (Pairs{{"docs/providers/aws/events/streams.md", "lib/plugins/aws/events/stream/index.js"}}));
  EXPECT_EQ(companion_docs(tree, {"lib/plugins/aws/invokeLocal/index.js"}),
            (Pairs{{"docs/providers/aws/cli-reference/invoke-local.md", "lib/plugins/aws/invokeLocal/index.js"}}));
  // Markdown and a docs folder's JSON; not JSON elsewhere.
  EXPECT_EQ(companion_docs(tree, {"src/StepLabel/StepLabel.js"}),
            (Pairs{{"docs/translations/api-docs/step-label/step-label.json", "src/StepLabel/StepLabel.js"},
                   {"pages/api/step-label.md", "src/StepLabel/StepLabel.js"}}));
  // A folder named as the module is no shared place: both API pages of Stepper.
  EXPECT_EQ(companion_docs(files({"packages/mui-material/src/Stepper/Stepper.js",
                                  "docs/pages/material-ui/api/stepper.json",
                                  "docs/translations/api-docs/stepper/stepper.json"}),
                           {"packages/mui-material/src/Stepper/Stepper.js"}),
            (Pairs{{"docs/pages/material-ui/api/stepper.json", "packages/mui-material/src/Stepper/Stepper.js"},
                   {"docs/translations/api-docs/stepper/stepper.json", "packages/mui-material/src/Stepper/Stepper.js"}}));
  // A page that loses on the name alone comes second: the guide beside the API page.
  EXPECT_EQ(companion_docs(files({"packages/material-ui/src/Button/Button.js", "docs/pages/api/button.md",
                                  "docs/src/pages/components/buttons/buttons.md",
                                  "docs/pages/api/button-base.md"}),
                           {"packages/material-ui/src/Button/Button.js"}),
            (Pairs{{"docs/pages/api/button.md", "packages/material-ui/src/Button/Button.js"},
                   {"docs/src/pages/components/buttons/buttons.md", "packages/material-ui/src/Button/Button.js"}}));
  // A page named within its folder as a category: functions/math.rst is
  // MathFunctions', connector/hive.md HiveConnector's; not Math's or Hive's own.
  std::vector<graph::IndexedFile> categories =
      files({"main/src/scalar/MathFunctions.java", "docs/functions/math.rst", "docs/functions/string.rst",
             "hive/src/HiveConnector.java", "docs/connector/hive.md", "docs/connector/kafka.md", "docs/misc/hive.md"});
  for (graph::IndexedFile& file : categories)
    if (file.path.ends_with(".java")) file.language = "java";
  EXPECT_EQ(companion_docs(categories, {"main/src/scalar/MathFunctions.java"}),
            (Pairs{{"docs/functions/math.rst", "main/src/scalar/MathFunctions.java"}}));
  EXPECT_EQ(companion_docs(categories, {"hive/src/HiveConnector.java"}),
            (Pairs{{"docs/connector/hive.md", "hive/src/HiveConnector.java"}}));
  EXPECT_TRUE(companion_docs(files({"src/Math.js", "docs/functions/math.rst"}), {"src/Math.js"}).size() == 1);
  EXPECT_TRUE(companion_docs(files({"src/Functions.js", "docs/functions/math.rst"}), {"src/Functions.js"}).empty());
  // A top-level index file names no module.
  EXPECT_TRUE(companion_docs(files({"index.js", "docs/index.md"}), {"index.js"}).empty());
  // A name that too many pages carry points nowhere.
  std::vector<std::string> many = {"src/config.js"};
  for (int i = 0; i < 9; ++i) many.push_back("docs/v" + std::to_string(i) + "/config.md");
  EXPECT_TRUE(companion_docs(files(many), {"src/config.js"}).empty());
  EXPECT_TRUE(is_doc_page("docs/guide/setup.rst"));
  EXPECT_TRUE(is_doc_page("docs/pages/material-ui/api/chip.json"));
  EXPECT_FALSE(is_doc_page("src/chip.json"));
  EXPECT_FALSE(is_doc_page("CHANGELOG.md"));
  EXPECT_FALSE(is_doc_page("packages/core/README.md"));
  EXPECT_FALSE(is_doc_page("tests/fixtures/chip.md"));
  EXPECT_FALSE(is_doc_page("node_modules/chip/docs/chip.md"));
}

TEST(Pipeline, AChangelogTheChecklistAsksFor) {
  auto files = [](std::vector<std::string> paths) {
    std::vector<graph::IndexedFile> out;
    for (std::string& path : paths) {
      graph::IndexedFile file;
      file.path = std::move(path);
      if (file.path.ends_with(".py")) file.language = "python";
      out.push_back(std::move(file));
    }
    return out;
  };
  std::vector<graph::IndexedFile> apollo =
      files({"CHANGES.md", "changes/changes-2.0.0.md", "docs/CHANGES.md", "apollo-core/Changes.py", "README.md"});
  // apollo's template: a link to the root file.
  EXPECT_EQ(changelog_named_in("## Brief changelog\n\nXXXXX\n\nFollow this checklist:\n\n"
                               "- [ ] Read the [`Contributing Guide`](https://github.com/o/r/blob/master/CONTRIBUTING.md)\n"
                               "- [ ] Update the [`CHANGES` log](https://github.com/o/r/blob/master/CHANGES.md).\n",
                               apollo),
            "CHANGES.md");
  // A path names that file, not the root's; a heading or prose is no checklist item.
  EXPECT_EQ(changelog_named_in("- [ ] Add a line to docs/CHANGES.md\n", apollo), "docs/CHANGES.md");
  EXPECT_EQ(changelog_named_in("## CHANGES.md\n\nUpdate CHANGES.md.\n", apollo), "");
  // A common word names the file only as the file is written.
  EXPECT_EQ(changelog_named_in("- [ ] My changes are tested\n- [x] No new changes to the API\n", apollo), "");
  EXPECT_EQ(changelog_named_in("* [x] Summarised in CHANGES\n", apollo), "CHANGES.md");
  // astroid's: the stem as written; a changelog in any case; the shallowest first.
  std::vector<graph::IndexedFile> astroid = files({"ChangeLog", "doc/release.md", "astroid/history.py", "Changes.pdf"});
  EXPECT_EQ(changelog_named_in("- [ ] For new features or bug fixes, add a ChangeLog entry.\n", astroid), "ChangeLog");
  std::vector<graph::IndexedFile> monorepo =
      files({"packages/core/CHANGELOG.md", "CHANGELOG.md", "tests/CHANGELOG.md", "node_modules/x/CHANGELOG.md"});
  EXPECT_EQ(changelog_named_in("+ [ ] Update the changelog\n", monorepo), "CHANGELOG.md");
  EXPECT_EQ(changelog_named_in("- [ ] Add an entry to packages/core/CHANGELOG.md\n", monorepo),
            "packages/core/CHANGELOG.md");
  // Code is never the changelog; nothing named, nothing found.
  EXPECT_EQ(changelog_named_in("- [ ] Update history\n", astroid), "");
  EXPECT_EQ(changelog_named_in("- [ ] Update Changes.pdf\n", astroid), "");  // a document is no text to send
  EXPECT_EQ(changelog_named_in("", apollo), "");
  EXPECT_EQ(changelog_named_in("- [ ] Tests pass\n", monorepo), "");
  // prettier's: a new file in a folder named so, not the changelog.
  EXPECT_EQ(changelog_named_in("- [ ] I've added my changes to `changelog_unreleased/*/pr-XXXX.md` file following "
                               "`changelog_unreleased/TEMPLATE.md`.\n",
                               monorepo),
            "");
}

TEST(Pipeline, TheChangelogTheTemplateAsksForIsSent) {
  TempTree tree("pipeline-checklist");
  write_shop(tree);
  // Code that says the task's words: the changelog is not among the ranked files.
  for (int i = 0; i < 24; ++i)
    tree.write("shop/offers/offer" + std::to_string(i) + ".py",
               "def offer_total(cart):\n    \"\"\"The discount on a cart's total price.\"\"\"\n    return cart.total() * 0.9\n");
  std::string changelog = "# Changelog\n\n## Unreleased\n\n* Nothing yet.\n\n";
  for (int i = 0; i < 400; ++i)
    changelog += "## 1." + std::to_string(i) + ".0\n\n* Change number " + std::to_string(i) + " of the shop.\n\n";
  tree.write("CHANGELOG.md", changelog);
  tree.write("docs/pull_request_template.md",
             "## What it does\n\n- [ ] Tests added\n- [ ] An entry in [CHANGELOG.md](CHANGELOG.md) under Unreleased\n");
  auto store = indexed(tree);
  Request request;
  request.task = "Cart total ignores the discount\nCart.total() returns the full price above 100.";
  request.max_tokens = 8000;
  Result result = run_pipeline(*store, tree.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  EXPECT_EQ(result.pivot_files[0].path, "shop/cart.py");
  const PivotFile& last = result.pivot_files.back();
  EXPECT_EQ(rank_of(result, "CHANGELOG.md"), 0u);
  ASSERT_EQ(last.path, "CHANGELOG.md");
  EXPECT_EQ(last.required_by, "docs/pull_request_template.md");
  EXPECT_TRUE(last.documents.empty());
  // Its top, in a 32nd of the budget, not grown by the budget left over.
  EXPECT_EQ(last.content.rfind("# Changelog\n\n## Unreleased\n", 0), 0u) << last.content;
  EXPECT_EQ(last.lines.rfind("1-", 0), 0u) << last.lines;
  EXPECT_LE(last.token_count, request.max_tokens / 32);
  EXPECT_GT(last.token_count, 100u);
  EXPECT_EQ(last.raw_token_count, tokens::count(changelog));
  EXPECT_LT(result.tokens_sent, request.max_tokens / 2);  // budget was left, and not spent on the changelog
  for (std::size_t i = 0; i + 1 < result.pivot_files.size(); ++i)
    EXPECT_TRUE(result.pivot_files[i].required_by.empty()) << result.pivot_files[i].path;
  // A small budget keeps to the code.
  request.max_tokens = 2000;
  result = run_pipeline(*store, tree.root(), request);
  for (const PivotFile& pivot : result.pivot_files) EXPECT_NE(pivot.path, "CHANGELOG.md");

  // Without the checklist item, no changelog.
  TempTree plain("pipeline-checklist-none");
  write_shop(plain);
  plain.write("CHANGELOG.md", changelog);
  plain.write(".github/PULL_REQUEST_TEMPLATE.md", "## What it does\n\n- [ ] Tests added\n\nSee the changelog.\n");
  auto plain_store = indexed(plain);
  request.max_tokens = 8000;
  result = run_pipeline(*plain_store, plain.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  for (const PivotFile& pivot : result.pivot_files) {
    EXPECT_NE(pivot.path, "CHANGELOG.md");
    EXPECT_TRUE(pivot.required_by.empty());
  }
}

TEST(Pipeline, SectionStartFindsTheHeadingAboutTheWords) {
  std::string markdown = "# Select\n\nIntro.\n\n```sh\n# not a heading: ripple\n```\n\n## Props\n\nvalue\n\n"
                         "## Keyboard\n\nArrow keys move the focus; Home and End too.\n";
  EXPECT_EQ(section_start(markdown, {"keyboard", "focus"}), 13u);
  EXPECT_EQ(section_start(markdown, {"ripple"}), 1u);  // only inside a fence
  EXPECT_EQ(section_start(markdown, {"nothing"}), 1u);
  std::string rst = "Title\n=====\n\nIntro.\n\nTemperature\n-----------\n\nThe cell temperature model.\n";
  EXPECT_EQ(section_start(rst, {"temperature", "cell"}), 6u);
  // Front matter holds no heading, though its "---" underlines a line.
  EXPECT_EQ(section_start("---\ntitle: Keyboard\n---\n# Select\n\nIntro.\n", {"keyboard"}), 1u);
}

// Far down the pack a page goes as its headings: the sections that hold
// the title's words first when not all fit, never front matter or a
// fenced comment.
TEST(Pipeline, APagesOutlineIsItsHeadings) {
  std::string markdown = "---\ntitle: Select\n---\n# Select\n\nIntro.\n\n```sh\n# not a heading\n```\n\n"
                         "## Props\n\nvalue\n\n## Keyboard\n\nArrow keys move the focus.\n";
  std::size_t count = 0;
  std::string all = page_outline(markdown, {"focus"}, 1000, count);
  EXPECT_EQ(all, "4: # Select\n⋮\n12: ## Props\n⋮\n16: ## Keyboard\n");
  EXPECT_EQ(count, tokens::count(all));
  // Room for one line: the section about the words.
  std::string one = page_outline(markdown, {"focus"}, tokens::count("16: ## Keyboard\n") + 1, count);
  EXPECT_EQ(one, "16: ## Keyboard\n");
  EXPECT_EQ(page_outline(markdown, {"focus"}, 2, count), "");
  EXPECT_EQ(count, 0u);
  std::string rst = "Title\n=====\n\nIntro.\n\nTemperature\n-----------\n\nThe cell temperature model.\n";
  EXPECT_EQ(page_outline(rst, {}, 1000, count), "1: Title\n⋮\n6: Temperature\n");
  EXPECT_EQ(page_outline("No heading here.\nNor here.\n", {"here"}, 1000, count), "");
  // Windows line ends, an unclosed front matter, a page of headings only:
  // within the limit, counted exactly.
  EXPECT_EQ(page_outline("# A\r\n\r\ntext\r\n## B\r\n", {}, 1000, count), "1: # A\n⋮\n4: ## B\n");
  EXPECT_EQ(page_outline("---\ntitle: x\n# A\n", {}, 1000, count), "3: # A\n");
  std::string headings;
  for (int h = 0; h < 200000; ++h) headings += "## Section " + std::to_string(h) + "\n";
  std::string many = page_outline(headings, {"section 199999"}, 80, count);
  EXPECT_LE(count, 80u);
  EXPECT_EQ(count, tokens::count(many));
  EXPECT_NE(many.find("200000: ## Section 199999\n"), std::string::npos) << many;
  EXPECT_TRUE(is_text_page("docs/guide/Select.MD"));
  EXPECT_TRUE(is_text_page("docs/api.rst"));
  EXPECT_FALSE(is_text_page("docs/api.json"));
  EXPECT_FALSE(is_text_page(".md"));
}

// "sls invoke local": two words that are one folder's name in the code.
TEST(Pipeline, AdjacentWordsNameAFolder) {
  TempTree tree("pipeline-compound");
  tree.write("lib/plugins/invoke/index.js", "class Invoke {\n  invoke() { return this.provider.request('invoke'); }\n"
                                            "  log(text) { console.log(text); }\n}\nmodule.exports = Invoke;\n");
  tree.write("lib/plugins/invokeLocal/index.js", "class InvokeLocal {\n  run(handler, event) {\n"
                                                 "    return require(handler)(event);\n  }\n}\n"
                                                 "module.exports = InvokeLocal;\n");
  tree.write("lib/plugins/deploy/index.js", "class Deploy {\n  deploy(stage) { return stage; }\n}\n"
                                            "module.exports = Deploy;\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Expose an environment variable when running via sls invoke local\n"
                      "When I invoke my function, I want to know that it runs on my machine and not in the cloud.");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "lib/plugins/invokeLocal/index.js");
  const auto& why = result.ranking[0].why;
  EXPECT_NE(std::find(why.begin(), why.end(), "title name invokelocal"), why.end());  // the title says it
}

// "transactional messages": two words of the title that begin a family of
// file names (TransactionalMessageBridge.java, ...; snake_case too), where
// no file bears the compound alone. A test of the family is not lifted.
TEST(Pipeline, AdjacentTitleWordsBeginAFamilyOfNames) {
  TempTree tree("pipeline-family");
  tree.write("common/BrokerConfig.java",
             "package common;\n// Broker settings: slave acting master mode, escaping of messages, transactional checks.\n"
             "public class BrokerConfig {\n  private boolean enableSlaveActingMaster = false;\n"
             "  private boolean enableEscaping = true;\n  private long transactionalCheckInterval = 60000;\n"
             "  private int maxMessages = 32;\n  public boolean isSlaveActingMasterMode() { return enableSlaveActingMaster; }\n"
             "  public boolean supportEscaping() { return enableEscaping; }\n}\n");
  tree.write("broker/transaction/queue/TransactionalMessageBridge.java",
             "package broker.transaction.queue;\npublic class TransactionalMessageBridge {\n"
             "  public boolean putHalfMessage(Object inner) { return store(inner); }\n"
             "  private boolean store(Object inner) { return inner != null; }\n}\n");
  tree.write("broker/transaction/queue/TransactionalMessageUtil.java",
             "package broker.transaction.queue;\npublic class TransactionalMessageUtil {\n"
             "  public static String buildOpTopic() { return \"RMQ_SYS_TRANS_OP_HALF_TOPIC\"; }\n}\n");
  tree.write("broker/transaction/queue/TransactionalMessageBridgeTest.java",
             "package broker.transaction.queue;\npublic class TransactionalMessageBridgeTest {\n"
             "  public void testPutHalfMessage() {}\n}\n");
  tree.write("tools/transactional_message_stats.py", "def count_half(messages):\n    return len(messages)\n");
  // Files that say the title's words, none of them its subject.
  tree.write("store/MessageStore.java",
             "package store;\n// Stores messages; a slave store follows the master.\npublic class MessageStore {\n"
             "  public int putMessages(Object messages) { return 0; }\n  public boolean isSlaveMode() { return false; }\n}\n");
  tree.write("broker/slave/SlaveSynchronize.java",
             "package broker.slave;\n// A slave acting as master syncs its messages.\npublic class SlaveSynchronize {\n"
             "  public void syncAll(String masterAddr) {}\n  public boolean actingMaster() { return true; }\n}\n");
  tree.write("broker/processor/EndTransactionProcessor.java",
             "package broker.processor;\n// Ends transactional half messages: commit or rollback on the master.\n"
             "public class EndTransactionProcessor {\n  public Object processRequest(Object request) { return request; }\n}\n");
  tree.write("client/Producer.java",
             "package client;\n// Sends messages, with support for transactional messages.\npublic class Producer {\n"
             "  public void send(Object message) {}\n  public void sendInTransaction(Object message) {}\n}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Support escaping transactional messages in slave-acting-master mode\n"
                      "If a slave node is acting as master, half messages should escape to an available master.");
  const std::string evidence = "title names begin transactionalmessages";
  auto has_evidence = [&](const std::string& path) {
    std::vector<std::string> why = why_of(result, path);
    return std::find(why.begin(), why.end(), evidence) != why.end();
  };
  for (const char* member :
       {"broker/transaction/queue/TransactionalMessageBridge.java", "broker/transaction/queue/TransactionalMessageUtil.java",
        "tools/transactional_message_stats.py"})
    EXPECT_TRUE(has_evidence(member)) << member;
  EXPECT_FALSE(has_evidence("broker/transaction/queue/TransactionalMessageBridgeTest.java"));
  // Above a file that says "transactional messages" in passing; the
  // settings file that says every word of the title stays first.
  EXPECT_EQ(rank_of(result, "common/BrokerConfig.java"), 1u);
  const std::size_t producer = rank_of(result, "client/Producer.java");
  ASSERT_GT(producer, 0u);
  for (const char* member :
       {"broker/transaction/queue/TransactionalMessageBridge.java", "broker/transaction/queue/TransactionalMessageUtil.java"}) {
    EXPECT_GT(rank_of(result, member), 0u) << member;
    EXPECT_LT(rank_of(result, member), producer) << member;
  }
}

// Tests are lifted only when the title is about tests or a test file is
// named: "when testing locally" in the body is about the reporter, "testing
// frameworks" in the title about a kind of tool.
TEST(Pipeline, ProseAboutTestingDoesNotLiftTests) {
  TempTree tree("pipeline-tests");
  write_shop(tree);
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Discount for amounts above 100\n"
                      "When testing locally, apply_discount(200) gives 180 as expected, but test discount values "
                      "around 100 look wrong.");
  std::size_t source = rank_of(result, "shop/pricing.py"), test = rank_of(result, "tests/test_pricing.py");
  ASSERT_EQ(source, 1u);
  ASSERT_GT(test, 0u);
  double prose_score = result.ranking[test - 1].score;
  result = ask(*store, tree,
               "Tests for the discount above 100\n"
               "When testing locally, apply_discount(200) gives 180 as expected, but test discount values around 100 "
               "look wrong.");
  test = rank_of(result, "tests/test_pricing.py");
  ASSERT_GT(test, 0u);
  EXPECT_GT(result.ranking[test - 1].score, 2 * prose_score);
  // A kind of tool the title names ("testing frameworks", "a test runner")
  // is what the project handles, not its tests.
  for (const char* tool_title : {"Discount above 100 with testing frameworks\n", "Discount above 100 in a test runner\n",
                                 "Discount above 100 for test-runner output\n"}) {
    result = ask(*store, tree,
                 std::string(tool_title) +
                     "When testing locally, apply_discount(200) gives 180 as expected, but test discount values around "
                     "100 look wrong.");
    test = rank_of(result, "tests/test_pricing.py");
    ASSERT_GT(test, 0u) << tool_title;
    EXPECT_LT(result.ranking[test - 1].score, 2 * prose_score) << tool_title;
    EXPECT_EQ(rank_of(result, "shop/pricing.py"), 1u) << tool_title;
  }
}

// Among the strongest files, the one that holds more of the title's distinct
// terms says so in its evidence and ranks higher.
TEST(Pipeline, TitleCoverage) {
  TempTree tree("pipeline-coverage");
  tree.write("src/server.ts", "export function listen(socket: string) {\n  return socket;\n}\n"
                              "export function close(socket: string) {\n  return socket + socket;\n}\n");
  tree.write("src/cli.ts", "export interface Options {\n  socket?: string;\n  socketMode?: string;  // permissions\n}\n"
                           "export function parse(argv: string[]): Options {\n  return { socket: argv[0] };\n}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Add option to set unix socket permissions\n"
                      "The socket is created with the default mode.");
  ASSERT_GE(result.ranking.size(), 2u);
  EXPECT_EQ(result.ranking[0].path, "src/cli.ts");
  auto says = [&](const std::string& path, const std::string& evidence) {
    std::size_t rank = rank_of(result, path);
    if (!rank) return false;
    const auto& why = result.ranking[rank - 1].why;
    return std::find(why.begin(), why.end(), evidence) != why.end();
  };
  // Title terms: add, option, unix, socket, permissions ("to", "set" are
  // stop words); cli.ts holds socket and permissions ("Options" is another
  // word), server.ts socket only.
  EXPECT_TRUE(says("src/cli.ts", "title terms 2/5"));
  EXPECT_TRUE(says("src/server.ts", "title terms 1/5"));
}

// Generated code full of the task's words (protobuf output here) ranks
// below the code written by hand, unless the task names it.
TEST(Pipeline, GeneratedFilesRankLowerUnlessNamed) {
  TempTree tree("pipeline-generated");
  tree.write("api/orders.py", "def place_order(order):\n    return order\n");
  std::string generated;
  for (int i = 0; i < 20; ++i)
    generated += "class PlaceOrderRequest" + std::to_string(i) + ":\n    order = 'place order request'\n";
  tree.write("api/orders_pb2.py", generated);
  auto store = indexed(tree);
  Result about_code = ask(*store, tree, "place order request fails\nEvery place order request fails for an order.");
  ASSERT_GE(about_code.ranking.size(), 2u);
  EXPECT_EQ(about_code.ranking[0].path, "api/orders.py");
  Result named = ask(*store, tree, "orders_pb2.py is stale\napi/orders_pb2.py misses the place order request.");
  ASSERT_FALSE(named.ranking.empty());
  EXPECT_EQ(named.ranking[0].path, "api/orders_pb2.py");
}

// A quoted error message points at the file whose literal it came from
// (values filled in), over a file with the same words in another order.
TEST(Pipeline, QuotedMessageFindsItsLiteral) {
  TempTree tree("pipeline-quoted");
  tree.write("books/check.py", "def check(book, size):\n"
                               "    raise ValueError(f\"cannot balance ledger {book} with {size} entries\")\n");
  tree.write("books/audit.py", "def audit(book):\n    # entries: a ledger with entries we cannot balance\n"
                               "    return [entry for entry in book.entries if entry.ledger]  # ledger entries\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree, "Error when saving\nIt raises \"cannot balance ledger 42 with 7 entries\".");
  ASSERT_GE(result.ranking.size(), 2u);
  EXPECT_EQ(result.ranking[0].path, "books/check.py");
  const auto& why = result.ranking[0].why;
  EXPECT_NE(std::find(why.begin(), why.end(), "quoted"), why.end());
  EXPECT_EQ(rank_of(result, "books/audit.py"), 2u);
}

// From 4,000 tokens, a 16th of the budget is kept for the pages that the
// files' shares do not reach: each goes as its headings.
// `comp file` and get_file: exact counts of what is shown; a page's whole
// count comes from the index's cache once it is there.
TEST(Pipeline, AFileViewCountsWhatItShows) {
  TempTree tree("pipeline-view");
  std::string page = "# Setup\n\n";
  while (page.size() < 2 * pack::kLeastCachedText) page += "Install the package, then run `comp index` in the root.\n";
  tree.write("docs/setup.md", page);
  auto store = indexed(tree);
  pack::CompressionCache cache(*store, tree.root());
  FileView whole = view_file("docs/setup.md", page, 2, 0, 0, &cache);
  EXPECT_EQ(whole.text, page) << "no language: shown as it is";
  EXPECT_EQ(whole.level, 0);
  EXPECT_EQ(whole.raw_tokens, tokens::count(page));
  EXPECT_EQ(whole.tokens, whole.raw_tokens);
  EXPECT_TRUE(store->compressed(digest::sha256_hex(page), std::string(pack::kTextLanguage), 0, compress::kVersion));
  FileView lines = view_file("docs/setup.md", page, 0, 2, 3, &cache);
  EXPECT_EQ(lines.text, "\nInstall the package, then run `comp index` in the root.\n");
  EXPECT_EQ(lines.tokens, tokens::count(lines.text));
  EXPECT_EQ(lines.raw_tokens, tokens::count(page));
  FileView uncached = view_file("docs/setup.md", page, 0, 0, 0, nullptr);
  EXPECT_EQ(uncached.tokens, tokens::count(page));
}

TEST(Pipeline, APageTheSharesDoNotReachGoesAsItsHeadings) {
  TempTree tree("pipeline-late-page");
  for (int f = 0; f < 100; ++f)
    tree.write("export/exporter_" + std::to_string(f) + ".py", exporter(f, 50, [](int m) {
                 return "    def export_csv_rows_" + std::to_string(m) + "(self, rows, target_path):\n"
                        "        \"\"\"Export the csv rows to the target path.\"\"\"\n        return write(rows, target_path)\n\n";
               }));
  std::string page = "# Exporters\n\n";
  for (int p = 0; p < 24; ++p)
    page += "## Format " + std::to_string(p) + "\n\nHow format " + std::to_string(p) +
            " is laid out: its fields, their order and the quoting rules are listed in the table below, "
            "with an example file, the options that change them and the versions that read them.\n\n";
  page += "## CSV rows\n\nThe csv export writes one line per row.\n";
  tree.write("docs/exporters.md", page);
  auto store = indexed(tree);
  Request request;
  request.task = "csv export drops rows\nEvery exporter's csv export drops rows on write.";
  request.max_tokens = 4000;
  request.ranking_size = 150;
  Result result = run_pipeline(*store, tree.root(), request);
  std::size_t page_rank = rank_of(result, "docs/exporters.md");
  ASSERT_GT(page_rank, 0u);
  // The code files' shares run out above it...
  std::size_t skipped = 0;
  for (std::size_t i = 0; i + 1 < page_rank; ++i) skipped += sent_file(result, result.ranking[i].path) == nullptr;
  EXPECT_GT(skipped, 0u) << "page ranked " << page_rank;
  // ...yet it goes, as its headings, the section with the title's words first.
  const PivotFile* at = sent_file(result, "docs/exporters.md");
  ASSERT_NE(at, nullptr);
  EXPECT_TRUE(at->outline);
  EXPECT_LE(at->token_count, std::max<std::size_t>(request.max_tokens / 192, 40));
  EXPECT_EQ(at->content.rfind("1: # Exporters\n⋮\n", 0), 0u) << at->content;
  EXPECT_NE(at->content.find(": ## CSV rows"), std::string::npos) << at->content;
  EXPECT_EQ(at->token_count, tokens::count(at->content));
  EXPECT_EQ(std::find(result.left_out.begin(), result.left_out.end(), "docs/exporters.md"), result.left_out.end());
  EXPECT_LE(result.tokens_sent, request.max_tokens);
  // The whole page's tokens, exact, and kept in the index for the next query.
  EXPECT_EQ(at->raw_token_count, tokens::count(page));
  ASSERT_GE(page.size(), pack::kLeastCachedText);
  std::optional<graph::CompressedRecord> count =
      store->compressed(digest::sha256_hex(page), std::string(pack::kTextLanguage), 0, compress::kVersion);
  ASSERT_TRUE(count);
  EXPECT_EQ(count->raw_tokens, static_cast<std::int64_t>(tokens::count(page)));
  EXPECT_EQ(run_pipeline(*store, tree.root(), request).raw_tokens, result.raw_tokens);
  // A small budget keeps to the code.
  request.max_tokens = 2000;
  result = run_pipeline(*store, tree.root(), request);
  EXPECT_EQ(sent_file(result, "docs/exporters.md"), nullptr);
}

// A change that spans many files finds each of them in the pack: after the
// strongest file and the next three, each file gets a 192nd of the budget
// (its lines from the task's first body), so the pack reaches far down the
// ranking instead of stopping at the sixth or seventh file. A file there
// whose skeleton does not fit goes as its outline; tests there are not sent.
// The strongest file takes up to half the budget only when it leads the
// second clearly; among equals, a quarter.
TEST(Pipeline, ThePackReachesManyFiles) {
  TempTree tree("pipeline-many");
  for (int f = 0; f < 100; ++f) {
    std::string text = exporter(f, 50, [](int m) {
      return "    def export_format_" + std::to_string(m) + "(self, rows, target_path, options=None):\n"
             "        \"\"\"Export rows to the csv target, one line per row, quoting the fields that hold "
             "the separator.\"\"\"\n        return write(rows, target_path)\n\n";
    });
    tree.write("export/exporter_" + std::to_string(f) + ".py", text);
    if (f < 6)  // tests the task names: strong, yet not what must change
      tree.write("tests/test_exporter_" + std::to_string(f) + ".py",
                 "def assert_csv_rows_written(rows, target_path):\n    assert read(target_path) == rows\n\n" + text);
  }
  auto store = indexed(tree);
  Request request;
  request.task = "csv export drops rows\nEvery exporter's csv export drops rows on write: "
                 "assert_csv_rows_written fails.";
  request.max_tokens = 8000;
  request.ranking_size = 120;
  Result result = run_pipeline(*store, tree.root(), request);
  EXPECT_LE(result.tokens_sent, request.max_tokens);
  EXPECT_GE(result.pivot_files.size(), 40u);
  // Among equals no file leads: the strongest takes a quarter (and what the
  // first pass left over, less than a tail file's share).
  ASSERT_FALSE(result.pivot_files.empty());
  const std::size_t tail_share = std::max<std::size_t>(request.max_tokens / 192, 24);
  EXPECT_LE(result.pivot_files[0].token_count, request.max_tokens / 4 + tail_share);
  std::size_t outlines = 0;
  for (std::size_t i = 4; i < result.pivot_files.size(); ++i) {
    const PivotFile& pivot = result.pivot_files[i];
    EXPECT_LE(pivot.token_count, pivot.outline ? tail_share : 200) << pivot.path;
    if (!pivot.outline) continue;
    // Their skeletons do not fit: each goes as its outline, the class and
    // the first lines of the methods that fit, numbered, "⋮" between them.
    ++outlines;
    std::string name = pivot.path.substr(pivot.path.find('_') + 1);
    name = name.substr(0, name.find('.'));
    EXPECT_EQ(pivot.content.rfind("1: class Exporter" + name + ":\n", 0), 0u) << pivot.content;
    if (pivot.content.find("\n2:") != std::string::npos) {  // the last ones get what the budget has left
      EXPECT_NE(pivot.content.find("\n2:     def export_format_0(self"), std::string::npos) << pivot.content;
    }
    if (pivot.content.find("\n6:") != std::string::npos) {
      EXPECT_NE(pivot.content.find("\n⋮\n6:     def export_format_1(self"), std::string::npos) << pivot.content;
    }
    EXPECT_EQ(pivot.content.find("return write"), std::string::npos);
    EXPECT_EQ(pivot.token_count, tokens::count(pivot.content));
  }
  EXPECT_GE(outlines, 30u);
  // Tests rank (down-weighted) but are not sent from the fifth file on.
  EXPECT_TRUE(std::any_of(result.ranking.begin(), result.ranking.end(),
                          [](const RankedFile& f) { return f.path.rfind("tests/", 0) == 0; }));
  for (std::size_t i = 4; i < result.pivot_files.size(); ++i)
    EXPECT_NE(result.pivot_files[i].path.rfind("tests/", 0), 0u) << result.pivot_files[i].path;
  // What was listed and not sent is named in left_out, and nothing else is.
  for (const RankedFile& ranked : result.ranking) {
    bool sent = std::any_of(result.pivot_files.begin(), result.pivot_files.end(),
                            [&](const PivotFile& pivot) { return pivot.path == ranked.path; });
    bool left = std::find(result.left_out.begin(), result.left_out.end(), ranked.path) != result.left_out.end();
    EXPECT_NE(sent, left) << ranked.path;
  }
  EXPECT_LE(result.left_out.size(), result.ranking.size());

  // A task that names one file: it leads clearly and goes whole, though it
  // is larger than a quarter of the budget.
  request.task = "export/exporter_7.py drops rows\nExporter7.export_format_3 writes nothing on write.";
  result = run_pipeline(*store, tree.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  const PivotFile& strongest = result.pivot_files[0];
  EXPECT_EQ(strongest.path, "export/exporter_7.py");
  EXPECT_EQ(strongest.level, 0);
  EXPECT_TRUE(strongest.lines.empty());
  EXPECT_GT(strongest.token_count, request.max_tokens / 4);
  EXPECT_LE(strongest.token_count, request.max_tokens / 2);
}

// A page far down the ranking goes as its headings (front matter and the
// first lines' badges are not what a reader needs there); with budget left
// at the end, it grows into the whole page.
TEST(Pipeline, APageFarDownGoesAsItsHeadings) {
  TempTree tree("pipeline-page");
  for (int f = 0; f < 8; ++f)
    tree.write("export/exporter_" + std::to_string(f) + ".py", exporter(f, 100, [](int m) {
                 return "    def export_csv_rows_" + std::to_string(m) + "(self, rows, target_path):\n"
                        "        return write(rows, target_path)\n\n";
               }));
  std::string page = "---\ntitle: CSV export\n---\n# CSV export\n\n";
  for (int p = 0; p < 30; ++p) page += "Each exporter writes the csv rows to the target path, one line per row.\n";
  page += "\n## Rows on write\n\nThe csv export writes rows to the target path.\n";
  tree.write("docs/csv-export.md", page);
  // A page over 256 KB there is left out: its tokens are not worth counting.
  std::string history = "# CSV export history\n\n";
  while (history.size() <= (256u << 10)) history += "Each release wrote the csv rows to the target path.\n";
  tree.write("docs/csv-export-history.md", history);
  auto store = indexed(tree);
  Request request;
  request.task = "csv export drops rows\nEvery exporter's csv export drops rows on write.";
  request.max_tokens = 4000;
  Result result = run_pipeline(*store, tree.root(), request);
  EXPECT_GT(rank_of(result, "docs/csv-export-history.md"), 0u);  // ranked, listed
  EXPECT_NE(std::find(result.left_out.begin(), result.left_out.end(), "docs/csv-export-history.md"),
            result.left_out.end());
  const PivotFile* at = sent_file(result, "docs/csv-export.md");
  ASSERT_NE(at, nullptr);
  ASSERT_GE(at - result.pivot_files.data(), 4);
  EXPECT_TRUE(at->outline);
  EXPECT_EQ(at->content, "4: # CSV export\n⋮\n37: ## Rows on write\n");
  EXPECT_EQ(at->token_count, tokens::count(at->content));
  EXPECT_LE(result.tokens_sent, request.max_tokens);
  // Room for everything: the page goes whole.
  request.max_tokens = 40000;
  result = run_pipeline(*store, tree.root(), request);
  at = sent_file(result, "docs/csv-export.md");
  ASSERT_NE(at, nullptr);
  EXPECT_FALSE(at->outline);
  EXPECT_EQ(at->content, page);
}

// The files that change with a strong one rank with it: its companion (the
// same stem in its folder: the type declarations beside the code) and, when
// two ranked files share a name in sibling folders, that family's other
// members (one operation, one file per backend), even when they do not say
// the task's words. A test file is neither.
TEST(Pipeline, CompanionsAndSiblingsOfStrongFilesRank) {
  TempTree tree("pipeline-related");
  tree.write("src/Select/Select.js", "export default function Select(props) {\n"
                                     "  const { multiple, onOpen } = props; // open the select menu\n  return null;\n}\n");
  tree.write("src/Select/Select.d.ts", "export interface Props { a: string }\nexport default function S(p: Props): any;\n");
  tree.write("src/Select/Select.test.js", "import S from './Select';\nit('renders', () => S({}));\n");
  tree.write("src/Other/Other.js", "export default function Other() { return 1; }\n");
  tree.write("backend/jax/numpy.py", "def cumsum(x):\n    return jnp.cumsum(x)  # cumulative sum, median later\n");
  tree.write("backend/torch/numpy.py", "def cumsum(x):\n    return torch.cumsum(x)  # cumulative sum, median later\n");
  tree.write("backend/numpy/numpy.py", "def subtract(a, b):\n    return np.subtract(a, b)\n");
  tree.write("backend/numpy/core.py", "def convert(x):\n    return np.asarray(x)\n");
  auto store = indexed(tree);
  auto has = [](const std::vector<std::string>& why, const std::string& reason) {
    return std::find(why.begin(), why.end(), reason) != why.end();
  };
  Result select = ask(*store, tree, "Select menu does not open\nThe select menu does not open with multiple.");
  ASSERT_FALSE(select.ranking.empty());
  EXPECT_EQ(select.ranking[0].path, "src/Select/Select.js");
  EXPECT_TRUE(has(why_of(select, "src/Select/Select.d.ts"), "companion of src/Select/Select.js"));
  EXPECT_FALSE(has(why_of(select, "src/Select/Select.test.js"), "companion of src/Select/Select.js"));
  EXPECT_FALSE(has(why_of(select, "src/Other/Other.js"), "companion of src/Select/Select.js"));

  Result median = ask(*store, tree, "Add median\nA median next to the cumulative sum, for every backend.");
  ASSERT_GE(median.ranking.size(), 3u);
  std::vector<std::string> why = why_of(median, "backend/numpy/numpy.py");
  EXPECT_TRUE(has(why, "sibling of backend/jax/numpy.py") || has(why, "sibling of backend/torch/numpy.py"))
      << ::testing::PrintToString(why);
  EXPECT_TRUE(why_of(median, "backend/numpy/core.py").empty());  // not in the family
}

// A code file's companions that are not code and that no word of the task
// reaches (a demo's preview beside the demo, an API page's data beside the
// page) follow it into the pack, right after it, each in a far file's
// share; a test's snapshot and another stem's companions do not.
TEST(Pipeline, ACodeFilesDataFollowsIt) {
  TempTree tree("pipeline-followers");
  tree.write("docs/demos/CheckboxLabels.tsx",
             "export default function CheckboxLabels() {\n"
             "  return <FormControlLabel required label=\"Required\" control={<Checkbox />} />;\n}\n");
  tree.write("docs/demos/CheckboxLabels.tsx.preview", "<Box>\n  <Toggle on />\n</Box>\n");
  tree.write("docs/demos/CheckboxLabels.test.js.snap", "exports[`renders`] = `<div />`;\n");
  tree.write("docs/demos/Other.tsx.preview", "<Grid>\n  <Cell />\n</Grid>\n");
  tree.write("docs/demos/Other.tsx", "export default function Other() {\n  return <Grid />;\n}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree, "FormControlLabel required\nA required checkbox label shows no asterisk.");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "docs/demos/CheckboxLabels.tsx");
  EXPECT_EQ(rank_of(result, "docs/demos/CheckboxLabels.tsx.preview"), 0u);  // no evidence of its own
  ASSERT_GE(result.pivot_files.size(), 2u);
  ASSERT_EQ(result.pivot_files[0].path, "docs/demos/CheckboxLabels.tsx");
  const PivotFile& preview = result.pivot_files[1];
  EXPECT_EQ(preview.path, "docs/demos/CheckboxLabels.tsx.preview");
  EXPECT_EQ(preview.content, "<Box>\n  <Toggle on />\n</Box>\n");
  EXPECT_EQ(preview.token_count, tokens::count(preview.content));
  EXPECT_LE(preview.token_count, std::max<std::size_t>(Request{}.max_tokens / 192, 24));
  EXPECT_LT(preview.score, result.pivot_files[0].score);
  EXPECT_EQ(sent_file(result, "docs/demos/CheckboxLabels.test.js.snap"), nullptr);
  EXPECT_EQ(rank_of(result, "docs/demos/Other.tsx"), 0u);
  EXPECT_EQ(sent_file(result, "docs/demos/Other.tsx.preview"), nullptr);
}

// What each of the two strongest files uses most, and what uses it most,
// follows the fourth file sent (the head's shares are not touched), named
// as such, though no word of the task reaches it: a field added to
// StatementStats goes into the StageStats it holds too. A test is no such
// neighbour, and nothing is sent twice.
TEST(Pipeline, TheStrongestFilesNeighboursFollowTheHead) {
  TempTree tree("pipeline-neighbours");
  tree.write("stats/__init__.py", "");
  tree.write("stats/stage.py",
             "class StageStats:\n    def __init__(self, done, nodes, splits):\n        self.done = done\n"
             "        self.nodes = nodes\n        self.splits = splits\n");
  tree.write("stats/statement.py",
             "from .stage import StageStats\n\n\nclass StatementStats:\n"
             "    def __init__(self, state, elapsed, root_stage):\n        self.state = state\n"
             "        self.elapsed = elapsed\n        self.root_stage = StageStats(root_stage.done, 0, 0)\n\n"
             "    def stage(self):\n        return StageStats(True, 1, 1)\n");
  tree.write("stats/format/printer.py",
             "from ..statement import StatementStats\n\n\ndef line_of(stats):\n"
             "    return StatementStats.stage(stats)\n");
  tree.write("stats/cli.py",
             "from .format.printer import line_of\n\n\ndef main(args):\n    print(line_of(args[0]))\n"
             "    print(line_of(args[1]))\n");
  tree.write("tests/test_statement.py",
             "from stats.statement import StatementStats\n\n\ndef test_state():\n"
             "    assert StatementStats('done', 1, None).state == 'done'\n"
             "    assert StatementStats('ok', 2, None).elapsed == 2\n"
             "    assert StatementStats('x', 3, None).stage()\n");
  for (int f = 0; f < 6; ++f)
    tree.write("api/resource_" + std::to_string(f) + ".py",
               "def respond_" + std::to_string(f) + "(query):\n    \"\"\"The query API response: the data the "
               "query scanned, its physical input.\"\"\"\n    return {'physical_input_bytes': query.scan()}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Add physical_input_bytes to StatementStats\nThe query API response should include the "
                      "physical input data that the query scanned.\n");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "stats/statement.py");
  EXPECT_GT(rank_of(result, "stats/stage.py"), 5u);  // below the head, if at all
  ASSERT_GE(result.pivot_files.size(), 7u);
  // The first five sent are ranked files, in rank order: a reader of the
  // pack's order finds the ranking's first five there.
  std::size_t last_rank = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(result.pivot_files[i].used_by.empty()) << result.pivot_files[i].path;
    EXPECT_TRUE(result.pivot_files[i].uses.empty()) << result.pivot_files[i].path;
    std::size_t rank = rank_of(result, result.pivot_files[i].path);
    EXPECT_GT(rank, last_rank) << result.pivot_files[i].path;
    last_rank = rank;
  }
  const PivotFile& stage = result.pivot_files[5];
  EXPECT_EQ(stage.path, "stats/stage.py");
  EXPECT_EQ(stage.used_by, "stats/statement.py");
  EXPECT_TRUE(stage.uses.empty());
  EXPECT_NE(stage.content.find("class StageStats"), std::string::npos);
  EXPECT_LT(stage.score, result.pivot_files[0].score);
  // printer.py names StatementStats: it ranks second; the file that uses it
  // most (cli.py, not a test) follows the head too.
  EXPECT_EQ(rank_of(result, "stats/format/printer.py"), 2u);
  const PivotFile& cli = result.pivot_files[6];
  EXPECT_EQ(cli.path, "stats/cli.py");
  EXPECT_EQ(cli.uses, "stats/format/printer.py");
  EXPECT_TRUE(cli.used_by.empty());
  std::set<std::string> paths;
  for (const PivotFile& pivot : result.pivot_files) {
    EXPECT_TRUE(paths.insert(pivot.path).second) << pivot.path << " sent twice";
    if (pivot.path.rfind("tests/", 0) == 0) {
      EXPECT_TRUE(pivot.uses.empty());
    }
  }
  EXPECT_NE(to_markdown(stage).find("## stats/stage.py ("), std::string::npos);
  EXPECT_NE(to_markdown(stage).find("used by stats/statement.py"), std::string::npos) << to_markdown(stage);
}

// The strongest file's module follows the head too: the configuration
// class it uses from its own folder (where a feature's new setting goes)
// and the nearest build manifest up its folders (where its new dependency
// goes), named as such; not a configuration class of another folder, not
// the root's manifest when the module has its own.
TEST(Pipeline, TheStrongestFilesModuleFollowsTheHead) {
  TempTree tree("pipeline-module");
  tree.write("pyproject.toml", "[project]\nname = \"warehouse\"\n");
  tree.write("hive/pyproject.toml", "[project]\nname = \"warehouse-hive\"\ndependencies = [\"thrift\"]\n");
  tree.write("hive/__init__.py", "");
  tree.write("hive/hive_config.py", "class HiveConfig:\n    def __init__(self):\n        self.timeout = 10\n");
  tree.write("hive/metastore/__init__.py", "");
  tree.write("hive/metastore/thrift_config.py",
             "class ThriftMetastoreConfig:\n    def __init__(self):\n        self.retries = 3\n");
  tree.write("hive/metastore/client.py",
             "class MetastoreClient:\n    def open(self):\n        return self\n\n    def close(self):\n"
             "        return None\n");
  tree.write("hive/metastore/thrift_metastore.py",
             "from ..hive_config import HiveConfig\nfrom .client import MetastoreClient\n"
             "from .thrift_config import ThriftMetastoreConfig\n\n\nclass ThriftHiveMetastore:\n"
             "    def __init__(self, hive: HiveConfig, config: ThriftMetastoreConfig):\n"
             "        self.hive = hive\n        self.config = config\n        self.client = MetastoreClient()\n"
             "        self.other = MetastoreClient()\n\n"
             "    def delegation_token(self, user):\n        \"\"\"A new delegation token per request.\"\"\"\n"
             "        return self.client.open()\n");
  for (int f = 0; f < 6; ++f)
    tree.write("api/resource_" + std::to_string(f) + ".py",
               "from hive.metastore.thrift_metastore import ThriftHiveMetastore\n\n\ndef respond_" +
                   std::to_string(f) +
                   "(request):\n    \"\"\"Each request of the metastore issues delegation tokens: a delegation "
                   "token per request.\"\"\"\n    return ThriftHiveMetastore(None, None).delegation_token(request)\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Reduce the delegation tokens ThriftHiveMetastore issues\nThe metastore issues a new delegation "
                      "token per request: each request of the metastore costs one.\n");
  ASSERT_FALSE(result.ranking.empty());
  const std::string strongest = "hive/metastore/thrift_metastore.py";
  EXPECT_EQ(result.ranking[0].path, strongest);
  ASSERT_GE(result.pivot_files.size(), 7u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_TRUE(result.pivot_files[i].manifest_of.empty()) << i;
  const PivotFile* config = sent_file(result, "hive/metastore/thrift_config.py");
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->used_by, strongest);
  const PivotFile* manifest = sent_file(result, "hive/pyproject.toml");
  ASSERT_NE(manifest, nullptr);
  EXPECT_EQ(manifest->manifest_of, strongest);
  EXPECT_NE(manifest->content.find("warehouse-hive"), std::string::npos) << manifest->content;
  EXPECT_NE(to_markdown(*manifest).find("manifest of hive/metastore/thrift_metastore.py"), std::string::npos)
      << to_markdown(*manifest);
  const PivotFile* other_config = sent_file(result, "hive/hive_config.py");  // another folder's: in its turn, if at all
  if (other_config) {
    EXPECT_TRUE(other_config->used_by.empty());
  }
  EXPECT_EQ(sent_file(result, "pyproject.toml"), nullptr);       // the module has its own
  for (const PivotFile& pivot : result.pivot_files) {
    if (pivot.path != "hive/pyproject.toml") {
      EXPECT_TRUE(pivot.manifest_of.empty()) << pivot.path;
    }
  }
}

// A declaration file that outranks its implementation (its words are in
// the declarations' comments): the implementation goes just above it, since
// what must change is in the code. Other companions stay below.
TEST(Pipeline, AnImplementationRanksAboveItsDeclarations) {
  TempTree tree("pipeline-declared");
  tree.write("src/Chip/Chip.d.ts", "export interface ChipProps {\n  /** Deletable chip: shows a delete icon. */\n"
                                   "  onDelete?: () => void;\n  deleteIcon?: any;\n}\n");
  tree.write("src/Chip/Chip.js", "export default function Chip(props) {\n  return props.children;\n}\n");
  tree.write("src/Chip/Chip.styles.js", "export const styles = { root: {} };\n");
  tree.write("src/Button/Button.js", "export default function Button(props) {\n  return props.label;\n}\n");
  tree.write("src/Avatar/Avatar.js", "export default function Avatar(props) {\n  return props.src;\n}\n");
  auto store = indexed(tree);
  Result chip = ask(*store, tree, "Chip delete icon\nA deletable chip shows no delete icon with onDelete.");
  ASSERT_GE(chip.ranking.size(), 2u);
  EXPECT_EQ(chip.ranking[0].path, "src/Chip/Chip.js");
  EXPECT_EQ(chip.ranking[1].path, "src/Chip/Chip.d.ts");
  EXPECT_NE(std::find(chip.ranking[0].why.begin(), chip.ranking[0].why.end(), "companion of src/Chip/Chip.d.ts"),
            chip.ranking[0].why.end());
  for (const RankedFile& file : chip.ranking)
    if (file.path == "src/Chip/Chip.styles.js") {
      EXPECT_LT(file.score, chip.ranking[1].score);
    }
}

// The strongest file when its skeleton is nearly empty (a component that is
// one long function) goes less compressed, cut to its allowance, instead of
// as a signature: the code that must change is in that body.
TEST(Pipeline, ASparseSkeletonGivesWayToACut) {
  TempTree tree("pipeline-sparse");
  std::string body = "export default function TreeView(props) {\n";
  for (int i = 0; i < 600; ++i)
    body += "  const handler" + std::to_string(i) + " = (event) => props.onNodeToggle(event, nodes[" +
            std::to_string(i) + "]);\n";
  body += "  return null;\n}\n";
  tree.write("src/TreeView/TreeView.js", body);
  tree.write("src/TreeItem/TreeItem.js", "export default function TreeItem() { return null; }\n");
  auto store = indexed(tree);
  Request request;
  request.task = "[TreeView] onNodeToggle fires twice\nThe TreeView calls onNodeToggle twice per toggle.";
  request.max_tokens = 8000;
  Result result = run_pipeline(*store, tree.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  const PivotFile& top = result.pivot_files[0];
  ASSERT_EQ(top.path, "src/TreeView/TreeView.js");
  EXPECT_LT(top.level, 2);
  EXPECT_GT(top.token_count, request.max_tokens / 4);
  EXPECT_NE(top.content.find("handler1 = (event)"), std::string::npos);
  EXPECT_LE(result.tokens_sent, request.max_tokens);
}

// Pages of code files below the strongest two are sent too (up to six code
// files among the first ten ranked), each after the code and naming it.
TEST(Pipeline, PagesOfSeveralStrongFilesAreSent) {
  TempTree tree("pipeline-pages");
  std::vector<std::string> names = {"Stepper", "StepLabel", "StepIcon", "StepButton"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string said;
    for (std::size_t k = i; k < names.size(); ++k) said += " active highlighted";  // the first says the words most
    tree.write("src/" + names[i] + "/" + names[i] + ".js",
               "// " + said + "\nexport default function " + names[i] + "(props) {\n  return props.active;\n}\n");
    std::string page_name;
    for (char c : names[i]) page_name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    tree.write("docs/api/" + page_name + ".md", "# " + names[i] + " API\n\nIts properties and classes.\n");
  }
  auto store = indexed(tree);
  Request request;
  request.task = "Active item not highlighted\nThe active item is not highlighted.";
  request.max_tokens = 8000;
  Result result = run_pipeline(*store, tree.root(), request);
  std::size_t pages = 0;
  for (const PivotFile& pivot : result.pivot_files) {
    if (pivot.path.rfind("docs/api/", 0) != 0) continue;
    ++pages;
    EXPECT_FALSE(pivot.documents.empty()) << pivot.path;
  }
  EXPECT_EQ(pages, 4u);
  EXPECT_LE(result.tokens_sent, request.max_tokens);
}

// A line of the task's code block found verbatim in a file points at it,
// over a file that says the same names in other lines; a line that many
// files hold (an idiom) points nowhere.
TEST(Pipeline, ACodeExcerptPointsAtItsFile) {
  TempTree tree("pipeline-excerpt");
  tree.write("ui/StepLabel.js", "export function StepLabel(props) {\n  const { icon, classes } = props;\n"
                                "  return <span className={classNames(classes.iconContainer, classes.alternative)} />;\n}\n");
  tree.write("ui/StepIcon.js", "export function StepIcon(props) {\n  // the icon container of a step icon: classNames, classes\n"
                               "  const iconContainer = classNames(props.classes);\n  return iconContainer;\n}\n");
  for (int i = 0; i < 6; ++i)
    tree.write("ui/idiom" + std::to_string(i) + ".js", "const merged = Object.assign({}, defaults, options);\n");
  auto store = indexed(tree);
  std::string prose = "StepIcon should be customisable\nThe StepIcon is rendered like this:\n";
  std::string task = prose + "```\n    <span className={classNames(classes.iconContainer, classes.alternative)} />\n"
                             "const merged = Object.assign({}, defaults, options);\n```\n";
  Result result = ask(*store, tree, task);
  Result without = ask(*store, tree, prose + "```\nconst merged = Object.assign({}, defaults, options);\n```\n");
  ASSERT_GE(result.ranking.size(), 2u);
  auto excerpt = [](const std::vector<std::string>& why) {
    return std::find(why.begin(), why.end(), "code excerpt") != why.end();
  };
  EXPECT_TRUE(excerpt(why_of(result, "ui/StepLabel.js")));
  EXPECT_FALSE(excerpt(why_of(result, "ui/StepIcon.js")));
  EXPECT_FALSE(excerpt(why_of(result, "ui/idiom0.js")));
  EXPECT_GT(score_of(result, "ui/StepLabel.js"), score_of(without, "ui/StepLabel.js") + 1.0);
}

// The task as its reader sees it: a plural finds the code that says the
// singular, a proper name in the title names its file, and an issue
// template's hidden instructions are no evidence.
TEST(Pipeline, ReadsTheTaskAsItsReaderDoes) {
  TempTree tree("pipeline-reader");
  tree.write("lib/Error.js", "export function logWarning(message) {\n  if (process.env.QUIET) return;\n"
                             "  console.log(`Serverless Warning: ${message}`);\n}\n");
  tree.write("lib/PluginManager.js", "export class PluginManager {\n  // hidden plugins are not listed\n"
                                     "  list() { return this.plugins.filter((p) => !p.hidden); }\n}\n");
  tree.write("CONTRIBUTING.md", "# Contributing\nOpen an issue first.\n");
  tree.write("lib/apiKeys.js", "export function compile(config) {\n  return config.provider.apiGateway;\n}\n");
  tree.write("lib/apiGateway.js", "export function compile(config) {\n  // the value of the gateway\n"
                                  "  return config.provider.apiGateway;\n}\n");
  tree.write("src/Select/Select.js",
             "export default function Select(props) {\n  return props.value ?? props.options[0];\n}\n");
  tree.write("src/InputLabel/InputLabel.js",
             "export default function InputLabel(props) {\n  // a label for an input: its options\n"
             "  return props.label ?? props.options;\n}\n");
  auto store = indexed(tree);
  Result warnings = ask(*store, tree,
                        "Allow warnings to be hidden\n<!--\n1. Please check https://github.com/x/y/blob/master/"
                        "CONTRIBUTING.md before you file\n-->\nSome warnings should be hidden.\n");
  EXPECT_EQ(rank_of(warnings, "lib/Error.js"), 1u);
  EXPECT_EQ(rank_of(warnings, "CONTRIBUTING.md"), 0u);  // only the hidden comment named it
  // A file is often named in the plural: "API key" names apiKeys.js.
  Result keys = ask(*store, tree, "Enable setting the API key value\nThe key value should be set in the gateway.\n");
  EXPECT_EQ(rank_of(keys, "lib/apiKeys.js"), 1u);
  // Said in the title, the compound names the subject.
  Result later = ask(*store, tree,
                     "Enable setting the value of the key for an API\nThe API key value should be set in the gateway.\n");
  EXPECT_GT(score_of(keys, "lib/apiKeys.js"), score_of(later, "lib/apiKeys.js") + 0.5);
  // "Select" capitalised inside a sentence is a name; in lower case, a word.
  const std::string body = " which allows to not select any of the options\nLike the InputLabel, it may be empty.\n";
  Result name = ask(*store, tree, "Value for Select" + body), word = ask(*store, tree, "Value for select" + body);
  EXPECT_EQ(rank_of(name, "src/Select/Select.js"), 1u);
  EXPECT_GT(score_of(name, "src/Select/Select.js"), score_of(word, "src/Select/Select.js") + 0.5);
  // "-ies" and "-es" plurals name their singular's file; "-ss", "-us" and
  // "-is" end no plural ("status" names no statu.js).
  tree.write("lib/policy.js", "export function apply(rules) {\n  return rules.every((rule) => rule.allows());\n}\n");
  tree.write("lib/statu.js", "export const ok = true;\n");
  index_tree(tree);
  Result policies = ask(*store, tree, "Retry policies are ignored\nThe status stays failed after a retry.\n");
  std::vector<std::string> why = why_of(policies, "lib/policy.js");
  EXPECT_NE(std::find(why.begin(), why.end(), "name policy"), why.end()) << testing::PrintToString(why);
  why = why_of(policies, "lib/statu.js");
  EXPECT_EQ(std::find(why.begin(), why.end(), "name statu"), why.end());
}

// Tabs whose scroll buttons lose the indicator: six files the task's words
// reach, and a translation and a test that no word or reference reaches.
void write_tabs(TempTree& tree) {
  tree.write("ui/tabs.py",
             "from .tab_indicator import TabIndicator\nfrom .tab_scroll_button import TabScrollButton\n\n\n"
             "class Tabs:\n    def update_indicator(self, scrollable):\n        self.indicator = TabIndicator(scrollable)\n\n"
             "    def scroll_buttons(self):\n        return [TabScrollButton(self.label('scroll'))]\n");
  tree.write("ui/tab_indicator.py", "class TabIndicator:\n    def __init__(self, scrollable):\n        self.scrollable = scrollable\n");
  tree.write("ui/tab_scroll_button.py", "class TabScrollButton:\n    def __init__(self, label):\n        self.label = label\n");
  tree.write("ui/tab_list.py", "def tab_list(tabs):\n    \"\"\"Scrollable tabs.\"\"\"\n    return list(tabs)\n");
  tree.write("ui/tab_panel.py", "def tab_panel(tab):\n    \"\"\"The panel of a tab; the indicator marks it.\"\"\"\n    return tab\n");
  tree.write("ui/scroll.py", "def scroll_left(tabs):\n    \"\"\"Scroll the tabs.\"\"\"\n    return tabs\n");
  tree.write("locales/en.json", "{\"close\": \"Close\"}\n");
  tree.write("tests/test_tabs.py", "from ui.tabs import Tabs\n\n\ndef test_tabs():\n    assert Tabs()\n");
}

TEST(Pipeline, FilesThatChangedWithTheStrongestInGitHistoryFollowIt) {
  const std::string task = "Scrollable tabs lose the indicator\nWith scroll buttons, the Tabs indicator is misplaced.";
  auto changed_with = [](const Result& result) {
    std::map<std::string, std::string> out;
    for (const PivotFile& pivot : result.pivot_files)
      if (!pivot.changed_with.empty()) out[pivot.path] = pivot.changed_with;
    return out;
  };
  {
    // Without history: the translation no evidence reaches is not sent.
    TempTree tree("pipeline-history-none");
    write_tabs(tree);
    auto store = indexed(tree);
    Result result = ask(*store, tree, task);
    ASSERT_FALSE(result.ranking.empty());
    EXPECT_EQ(result.ranking[0].path, "ui/tabs.py");
    EXPECT_EQ(sent_file(result, "locales/en.json"), nullptr);
    EXPECT_TRUE(changed_with(result).empty());
  }
  TempTree tree("pipeline-history");
  write_tabs(tree);
  ASSERT_EQ(index::testing::git(tree, {"init", "-q"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"add", "-A"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-m", "tabs"}), 0);
  for (int round = 0; round < 2; ++round) {  // the tabs change with their labels' translation, and their test
    tree.write("ui/tabs.py", "# round " + std::to_string(round) + "\n");
    tree.write("locales/en.json", "{\"close\": \"Close " + std::to_string(round) + "\"}\n");
    tree.write("tests/test_tabs.py", "# round " + std::to_string(round) + "\n");
    ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-a", "-m", "labels"}), 0);
  }
  write_tabs(tree);  // the files as before, uncommitted: the same evidence
  auto store = indexed(tree);
  Result result = ask(*store, tree, task);
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "ui/tabs.py");
  EXPECT_EQ(rank_of(result, "locales/en.json"), 0u);  // no evidence of its own
  const PivotFile* labels = sent_file(result, "locales/en.json");
  ASSERT_NE(labels, nullptr);
  EXPECT_EQ(labels->changed_with, "ui/tabs.py");
  EXPECT_LT(labels->score, result.pivot_files[0].score);
  // After the files sent in rank order; never a test (the task is not
  // about tests), never a file the ranking sends in its turn.
  for (std::size_t i = 0; i < 5 && i < result.pivot_files.size(); ++i)
    EXPECT_TRUE(result.pivot_files[i].changed_with.empty()) << result.pivot_files[i].path;
  for (const auto& [path, with] : changed_with(result)) {
    EXPECT_EQ(path.rfind("tests/", 0), std::string::npos) << path;
    EXPECT_EQ(rank_of(result, path), 0u) << path;
  }
}

// A file that changed with the strongest but that the pack sends in its
// turn anyway (ranked below the twentieth) is not one of the two sent for
// the history: the next heaviest are, after the files in rank order, in
// shares the ranked files' tail cannot spend (a budget those files exceed).
TEST(Pipeline, FilesThatChangedWithTheStrongestAreThoseThePackWouldNotSend) {
  const std::string task = "Scrollable tabs lose the indicator\nWith scroll buttons, the Tabs indicator is misplaced.";
  TempTree tree("pipeline-history-reach");
  auto write_all = [&] {
    write_tabs(tree);
    // Thirty widgets the task's words reach, each weaker than the tabs'
    // own files; the last ones rank below the twentieth and are sent in
    // their turn.
    for (int w = 0; w < 30; ++w)
      tree.write("ui/widgets/widget_" + std::to_string(10 + w) + ".py",
                 "def widget_" + std::to_string(10 + w) + "(items):\n    \"\"\"The indicator of scrollable tabs.\"\"\"\n    # " +
                     std::string(static_cast<std::size_t>(w) * 40, 'x') + "\n    return items\n");
    tree.write("ui/theme.py", "DARK = 'dark'\n");
    tree.write("ui/colors.py", "RED = 'red'\n");
  };
  write_all();
  ASSERT_EQ(index::testing::git(tree, {"init", "-q"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"add", "-A"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-m", "tabs"}), 0);
  auto store = indexed(tree);
  Request request;
  request.task = task;
  Result result = run_pipeline(*store, tree.root(), request);
  ASSERT_FALSE(result.ranking.empty());
  ASSERT_EQ(result.ranking[0].path, "ui/tabs.py");
  // The widget the pack sends that the ranking's first twenty do not list.
  std::string far;
  for (const PivotFile& pivot : result.pivot_files)
    if (pivot.path.starts_with("ui/widgets/") && rank_of(result, pivot.path) == 0) far = pivot.path;
  ASSERT_FALSE(far.empty());
  // The tabs changed with that widget three times, the theme twice, the
  // colours once.
  for (int round = 0; round < 3; ++round) {
    tree.write("ui/tabs.py", "# round " + std::to_string(round) + "\n");
    tree.write(far, "# round " + std::to_string(round) + "\n");
    if (round < 2) tree.write("ui/theme.py", "# round " + std::to_string(round) + "\n");
    if (round < 1) tree.write("ui/colors.py", "# round " + std::to_string(round) + "\n");
    ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-a", "-m", "round"}), 0);
  }
  write_all();  // the files as before, uncommitted: the same evidence
  store = indexed(tree);
  result = run_pipeline(*store, tree.root(), request);
  ASSERT_EQ(result.ranking[0].path, "ui/tabs.py");
  const PivotFile* widget = sent_file(result, far);
  ASSERT_NE(widget, nullptr);
  EXPECT_TRUE(widget->changed_with.empty());  // sent in its turn, once
  EXPECT_EQ(std::count_if(result.pivot_files.begin(), result.pivot_files.end(),
                          [&](const PivotFile& pivot) { return pivot.path == far; }),
            1);
  const PivotFile* theme = sent_file(result, "ui/theme.py");
  const PivotFile* colors = sent_file(result, "ui/colors.py");
  ASSERT_NE(theme, nullptr);
  ASSERT_NE(colors, nullptr);
  EXPECT_EQ(theme->changed_with, "ui/tabs.py");
  EXPECT_EQ(colors->changed_with, "ui/tabs.py");
  EXPECT_LT(theme - result.pivot_files.data(), colors - result.pivot_files.data());  // the heavier first
  for (const PivotFile& pivot : result.pivot_files)  // after every file sent in rank order
    if (pivot.changed_with.empty() && !pivot.outline && &pivot > colors) ADD_FAILURE() << pivot.path << " after the history's";

  // A budget the ranked files exceed: the pack stops before the widget,
  // which is now the heaviest it would not send; it and the theme go, in
  // the shares kept for them.
  request.max_tokens = 900;
  result = run_pipeline(*store, tree.root(), request);
  EXPECT_LE(result.answer_tokens, request.max_tokens);
  EXPECT_EQ(sent_file(result, "ui/widgets/widget_30.py"), nullptr);  // the ranked files' tail ends before
  widget = sent_file(result, far);
  theme = sent_file(result, "ui/theme.py");
  EXPECT_TRUE(widget && widget->changed_with == "ui/tabs.py");
  EXPECT_TRUE(theme && theme->changed_with == "ui/tabs.py");
  EXPECT_EQ(sent_file(result, "ui/colors.py"), nullptr);

  // A budget so small that their shares would take more than a quarter of
  // what the first three files leave: it goes to the ranked files.
  request.max_tokens = 200;
  result = run_pipeline(*store, tree.root(), request);
  EXPECT_LE(result.answer_tokens, request.max_tokens);
  for (const PivotFile& pivot : result.pivot_files) EXPECT_TRUE(pivot.changed_with.empty()) << pivot.path;
  ASSERT_GE(result.ranking.size(), 3u);
  for (std::size_t r = 0; r < 3; ++r) EXPECT_NE(sent_file(result, result.ranking[r].path), nullptr) << r;
}

// A caller's file list (Request::files) read before a commit: the symbol
// lookups, which read the store as it is now, find definitions in a file the
// list lacks. The query keeps to the list instead of failing on that file.
TEST(Pipeline, AListReadBeforeACommitKeepsTheQueryToItsFiles) {
  TempTree tree("pipeline-listed-files");
  write_shop(tree);
  auto store = indexed(tree);
  Request request;
  request.files = FileList::read(*store);

  tree.write("shop/returns.py", "class Refunder:\n    def refund_order(self, order):\n        return order\n");
  index_tree(tree);  // committed after the list was read
  ASSERT_FALSE(store->nodes_named("refund_order").empty());
  request.task = "refund_order fails: 'Refunder' object has no attribute 'undo'\n"
                 "`Refunder.refund_order` and `apply_discount` in shop/pricing.py";
  Result result;
  ASSERT_NO_THROW(result = run_pipeline(*store, tree.root(), request));
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "shop/pricing.py");
  EXPECT_EQ(rank_of(result, "shop/returns.py"), 0u);
  EXPECT_EQ(sent_file(result, "shop/returns.py"), nullptr);

  // The store's own list, read now, has the new file and ranks it.
  request.files = nullptr;
  result = run_pipeline(*store, tree.root(), request);
  EXPECT_NE(rank_of(result, "shop/returns.py"), 0u);
}

// "'X' object has no attribute 'y'": class X lacks y, and its file is where
// the fix goes, though the last frame is the caller that asked for y.
TEST(Pipeline, AnObjectWithoutTheAttributeNamesItsClass) {
  TempTree tree("pipeline-lacks");
  tree.write("pkg/__init__.py", "");
  tree.write("pkg/node.py", "class Node:\n    def accept(self, visitor):\n"
                            "        func = getattr(visitor, 'visit_' + type(self).__name__.lower())\n"
                            "        return func(self)\n\n    def as_string(self):\n"
                            "        from pkg.visitor import StringVisitor\n        return StringVisitor()(self)\n");
  tree.write("pkg/visitor.py", "class StringVisitor:\n    def __call__(self, node):\n        return node.accept(self)\n\n"
                               "    def visit_name(self, node):\n        return 'name'\n");
  tree.write("pkg/other.py", "class Other:\n    pass\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "'StringVisitor' object has no attribute 'visit_unknown'\n```\n>>> Unknown().as_string()\n"
                      "Traceback (most recent call last):\n"
                      "  File \"/venv/site-packages/pkg/node.py\", line 8, in as_string\n"
                      "    return StringVisitor()(self)\n"
                      "  File \"/venv/site-packages/pkg/visitor.py\", line 3, in __call__\n"
                      "    return node.accept(self)\n"
                      "  File \"/venv/site-packages/pkg/node.py\", line 3, in accept\n"
                      "    func = getattr(visitor, 'visit_' + type(self).__name__.lower())\n"
                      "AttributeError: 'StringVisitor' object has no attribute 'visit_unknown'\n```\n");
  ASSERT_GE(result.ranking.size(), 2u);
  EXPECT_EQ(result.ranking[0].path, "pkg/visitor.py");
  EXPECT_EQ(result.ranking[1].path, "pkg/node.py");
}

// Every task in a project's repository says the project's name: it names no
// file there, though a script is called so.
TEST(Pipeline, TheProjectsOwnNameNamesNoFile) {
  TempTree tree("pipeline-project-name");
  tree.write("package.json", R"({"name": "serverless", "bin": {"serverless": "bin/serverless.js"}})");
  tree.write("bin/serverless.js", "#!/usr/bin/env node\nrequire('../lib/Serverless').run(process.argv);\n");
  tree.write("lib/Serverless.js", "class Serverless {\n  run(argv) { return new CLI(argv).run(); }\n}\n"
                                  "module.exports = Serverless;\n");
  tree.write("lib/classes/CLI.js", "class CLI {\n  // prints what each command does\n"
                                   "  run() { this.printNotices(); }\n  printNotices() { console.log('notices'); }\n}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "Deprecation notices\nWhenever you run any serverless command, the CLI should print the "
                      "deprecation notices first.\n");
  ASSERT_FALSE(result.ranking.empty());
  EXPECT_EQ(result.ranking[0].path, "lib/classes/CLI.js");
  for (const RankedFile& file : result.ranking)
    EXPECT_EQ(std::find(file.why.begin(), file.why.end(), "name serverless"), file.why.end()) << file.path;
}

// A many-module repository: the title names the module by its folder.
TEST(Pipeline, AFolderTheTitleNamesHoldsTheFile) {
  TempTree tree("pipeline-folder");
  tree.write("app-client/src/ConfigUtil.java",
             "public class ConfigUtil {\n  // the client's local cache\n"
             "  public boolean isLocalCacheEnabled() { return true; }\n}\n");
  tree.write("app-portal/src/AuthConfiguration.java",
             "public class AuthConfiguration {\n  // the portal's users\n"
             "  public void disableLocalFileCache(User user) { cache.clear(); }\n}\n");
  auto store = indexed(tree);
  Result result = ask(*store, tree,
                      "[security] Allow user disable app-client's local file cache\n"
                      "The client keeps a local cache of every config; users should be able to turn it off.\n");
  ASSERT_GE(result.ranking.size(), 2u);
  EXPECT_EQ(result.ranking[0].path, "app-client/src/ConfigUtil.java");
  auto why = why_of(result, "app-client/src/ConfigUtil.java");
  EXPECT_NE(std::find(why.begin(), why.end(), "folder app-client"), why.end());
}

// The body names a folder by a hyphenated name, separators aside ("restrict
// access to api-gateway": apiGateway/), unless that folder holds most of the
// strongest files (an issue template names the project, whose folder is all
// of its code).
TEST(Pipeline, AFolderTheBodyNamesHoldsTheFile) {
  TempTree tree("pipeline-body-folder");
  tree.write("lib/events/apiGateway/lib/integration.js",
             "// the method's endpoint: its private uri\n"
             "function compileIntegration(method) {\n"
             "  const template = { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' };\n"
             "  template.Uri = method.uri;\n  template.PassthroughBehavior = 'NEVER';\n  return template;\n}\n"
             "module.exports = { compileIntegration };\n");
  tree.write("lib/events/websockets/lib/integrations.js",
             "// restrict access to a private endpoint: the gateway's integration\n"
             "function compileIntegrations(routes) {\n"
             "  return routes.map((route) => ({ endpoint: route.private, access: 'restrict' }));\n}\n"
             "module.exports = { compileIntegrations };\n");
  for (const char* name : {"a", "b", "c", "d", "e"})
    tree.write(std::string("lib/util/") + name + ".js",
               std::string("function helper(value) {\n  return value + '") + name + "';\n}\nmodule.exports = { helper };\n");
  auto store = indexed(tree);
  const std::string task =
      "Support VPC links\n"
      "This makes it possible to restrict access to api-gateway with a private endpoint.\n";
  Result result = ask(*store, tree, task);
  ASSERT_GE(result.ranking.size(), 2u);
  EXPECT_EQ(result.ranking[0].path, "lib/events/apiGateway/lib/integration.js");
  auto why = why_of(result, "lib/events/apiGateway/lib/integration.js");
  EXPECT_NE(std::find(why.begin(), why.end(), "body folder apiGateway"), why.end());

  // The project's own folder names nothing: it holds more than five of the
  // twenty strongest.
  TempTree project("pipeline-body-folder-project");
  for (const char* name : {"integration", "endpoint", "route", "stage", "method", "authorizer", "domain", "policy"})
    project.write(std::string("my-tool/events/") + name + ".js",
                  std::string("function ") + name + "() { return 'the private endpoint of a " + name + "'; }\n");
  auto project_store = indexed(project);
  Result plain = ask(*project_store, project, "Private endpoints\nmy-tool version 1.2: the private endpoint fails.\n");
  for (const auto& file : plain.ranking)
    for (const std::string& why_line : file.why) EXPECT_EQ(why_line.find("body folder"), std::string::npos) << file.path;
}

}  // namespace
}  // namespace comp::pipeline
