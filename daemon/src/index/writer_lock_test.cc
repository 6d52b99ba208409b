#include "index/writer_lock.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "index/indexer.h"
#include "index/test_tree.h"

namespace comp::index {
namespace {

using testing::TempTree;

TEST(WriterLock, OneHolderAtATime) {
  TempTree tree("lock-one");
  WriterLock first(tree.root()), second(tree.root());
  ASSERT_TRUE(first.try_lock());
  EXPECT_TRUE(first.held());
  EXPECT_FALSE(second.try_lock());
  first.unlock();
  EXPECT_TRUE(second.try_lock());
  EXPECT_FALSE(first.try_lock());
}

TEST(WriterLock, ReleasedWhenTheHolderDies) {
  TempTree tree("lock-die");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    WriterLock lock(tree.root());
    lock.lock();
    char byte = 1;
    (void)!write(ready[1], &byte, 1);
    pause();  // killed below, holding the lock
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  WriterLock mine(tree.root());
  EXPECT_FALSE(mine.try_lock());
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_TRUE(mine.try_lock());
  close(ready[0]);
  close(ready[1]);
}

TEST(WriterLock, RunIndexWaitsForTheWriterThenFindsItsWorkDone) {
  TempTree tree("lock-index");
  tree.write("a.py", "def a():\n    pass\n");
  {
    IndexOptions options;
    options.root = tree.root();
    run_index(options);
  }
  tree.write("b.py", "def b():\n    pass\n");
  tree.backdate();  // a.py and b.py, as old files: not read again once indexed
  WriterLock other(tree.root());
  ASSERT_TRUE(other.try_lock());
  // The holder indexes b.py itself while the second run waits.
  IndexOptions holder_run;
  holder_run.root = tree.root();
  holder_run.take_lock = false;
  std::atomic<bool> waited{false};
  IndexOptions waiting_run;
  waiting_run.root = tree.root();
  waiting_run.on_waiting = [&] { waited = true; };
  auto waiting = std::async(std::launch::async, [&] { return run_index(waiting_run); });
  for (int i = 0; i < 500 && !waited; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(waited.load());
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  IndexSummary holder = run_index(holder_run);
  EXPECT_EQ(holder.files_parsed, 1u);
  other.unlock();
  IndexSummary after = waiting.get();
  EXPECT_EQ(after.files_parsed, 0u);  // no work done twice
  EXPECT_EQ(after.files_unchanged, 2u);
}

}  // namespace
}  // namespace comp::index
