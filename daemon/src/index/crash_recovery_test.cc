// Survives: a `kill -9` at any moment of an index run. The database left
// behind must pass integrity_check, and the next run must end with exactly
// what a from-scratch build holds.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "index/indexer.h"
#include "index/test_tree.h"

namespace comp::index {
namespace {

using testing::TempTree;

void fill(TempTree& tree, int files, int seed) {
  const char* extensions[] = {".py", ".ts", ".go", ".rs"};
  for (int i = 0; i < files; ++i) {
    std::string extension = extensions[(i + seed) % 4];
    tree.write("pkg" + std::to_string(i % 17) + "/m" + std::to_string(i) + extension,
               testing::generated_source(extension, i * 7 + seed, 20));
  }
}

// Runs an index in a child process and SIGKILLs it after `delay`.
// Returns true when the kill landed before the child finished.
bool index_and_kill(const std::filesystem::path& root, std::chrono::microseconds delay) {
  pid_t child = ::fork();
  if (child == 0) {
    IndexOptions options;
    options.root = root;
    options.jobs = 2;
    options.batch_files = 16;  // many commits: many moments to be killed between and inside
    try {
      run_index(options);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  std::this_thread::sleep_for(delay);
  bool killed = ::kill(child, SIGKILL) == 0;
  int status = 0;
  ::waitpid(child, &status, 0);
  return killed && WIFSIGNALED(status);
}

TEST(CrashRecovery, KillDashNineAtAnyMomentLeavesAConsistentIndex) {
  TempTree tree("crash");
  fill(tree, 600, 0);
  IndexOptions options;
  options.root = tree.root();
  auto started = std::chrono::steady_clock::now();
  run_index(options);  // timed, to spread the kills over a whole run
  auto full = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);

  int interrupted = 0;
  for (int attempt = 0; attempt < 12; ++attempt) {
    // Kills spread over the whole run, from before the schema exists to the end.
    if (attempt % 3 == 0) std::filesystem::remove_all(tree.root() / ".comp");
    if (attempt % 3 == 1) fill(tree, 600, attempt);  // a partial rewrite of every file
    auto delay = std::chrono::microseconds(full.count() * (attempt + 1) / 13);
    if (index_and_kill(tree.root(), delay)) ++interrupted;
    {
      auto store = graph::Store::open(tree.root());
      ASSERT_EQ(store->integrity_check(), "ok") << "attempt " << attempt;
    }
    run_index(options);
    auto store = graph::Store::open(tree.root());
    std::vector<std::string> recovered = testing::snapshot(*store);
    std::filesystem::path kept = tree.root().string() + "-kept";  // outside the tree
    std::filesystem::remove_all(kept);
    std::filesystem::rename(tree.root() / ".comp", kept);
    run_index(options);
    std::vector<std::string> scratch;
    {
      auto fresh = graph::Store::open(tree.root());
      scratch = testing::snapshot(*fresh);
    }
    std::filesystem::remove_all(tree.root() / ".comp");
    std::filesystem::rename(kept, tree.root() / ".comp");
    ASSERT_EQ(recovered, scratch) << "attempt " << attempt;
  }
  // The test is only meaningful if most kills interrupted a run.
  EXPECT_GE(interrupted, 6);
}

}  // namespace
}  // namespace comp::index
