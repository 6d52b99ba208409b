#include "rpc/session_memory.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include "index/test_tree.h"

using nlohmann::json;

namespace comp::rpc {
namespace {

using index::testing::TempTree;

json entry(const std::string& query, const std::string& path, const std::string& hash) {
  return {{"tool", "get_context"}, {"client", "test"}, {"query", query},
          {"files", json::array({{{"path", path}, {"sha256", hash}, {"tokens", 10}}})},
          {"symbols", json::array({"f"})}, {"tokens_sent", 10}, {"tokens_saved", 90}};
}

TEST(SessionMemory, RecordsEntriesInOrderWithTimeAndId) {
  TempTree tree("memory-record");
  SessionMemory memory(tree.root());
  EXPECT_TRUE(memory.load()["entries"].empty());
  memory.record(entry("first", "a.py", "h1"));
  memory.record(entry("second", "b.py", "h2"));
  json document = memory.load();
  ASSERT_EQ(document["entries"].size(), 2u);
  EXPECT_EQ(document["entries"][0]["query"], "first");
  EXPECT_EQ(document["entries"][1]["query"], "second");
  EXPECT_FALSE(document["entries"][0]["stale"].get<bool>());
  EXPECT_NE(document["entries"][0]["id"], document["entries"][1]["id"]);
  EXPECT_EQ(document["entries"][0]["time"].get<std::string>().size(), 24u);  // 2026-12-02T15:20:00.123Z
  // The file on disk is what load() read: one JSON document.
  std::ifstream in(tree.root() / ".comp" / "session-memory.json");
  json on_disk = json::parse(in);
  EXPECT_EQ(on_disk, document);
}

TEST(SessionMemory, RecordingDoesNotWaitForTheFile) {
  // Another process holds the memory's lock: a call that records its entry
  // still answers (record returns), and the entry is written once the lock
  // is free. Before, record read, wrote and synced the whole file first.
  TempTree tree("memory-queued");
  SessionMemory memory(tree.root());
  memory.record(entry("first", "a.py", "h1"));
  memory.flush();  // .comp/ and the lock file exist now
  int held = ::open((tree.root() / ".comp" / "session-memory.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  memory.record(entry("second", "b.py", "h2"));  // would block here
  memory.record(entry("third", "c.py", "h3"));
  std::ifstream in(tree.root() / ".comp" / "session-memory.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(json::parse(text)["entries"].size(), 1u);  // not written while the lock is held
  ::close(held);
  json entries = memory.load()["entries"];
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1]["query"], "second");
  EXPECT_EQ(entries[2]["query"], "third");
}

// Each memory keeps the document it last wrote, and reads the file again
// when another writer replaced it since: no entry of the other is lost.
TEST(SessionMemory, AWriterSeesWhatAnotherWroteSinceItsOwnWrite) {
  TempTree tree("memory-two-writers");
  SessionMemory first(tree.root()), second(tree.root());
  first.record(entry("one", "a.py", "h1"));
  first.flush();
  second.record(entry("two", "b.py", "h2"));
  second.flush();
  first.record(entry("three", "c.py", "h3"));
  first.flush();
  // The file was replaced by a copy with the same size: still another version.
  std::filesystem::path path = first.path();
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::string edited = text;
  edited.replace(edited.find("\"three\""), 7, "\"THREE\"");  // same size
  std::filesystem::path temporary = path;
  temporary += ".edited";
  std::ofstream(temporary) << edited;
  std::filesystem::rename(temporary, path);
  first.record(entry("four", "d.py", "h4"));
  json entries = first.load()["entries"];
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0]["query"], "one");
  EXPECT_EQ(entries[1]["query"], "two");
  EXPECT_EQ(entries[2]["query"], "THREE");
  EXPECT_EQ(entries[3]["query"], "four");
}

TEST(SessionMemory, KeepsTheNewestEntriesOnly) {
  TempTree tree("memory-bound");
  SessionMemory memory(tree.root(), 5);
  for (int i = 0; i < 12; ++i) memory.record(entry("q" + std::to_string(i), "a.py", "h"));
  json entries = memory.load()["entries"];
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries[0]["query"], "q7");
  EXPECT_EQ(entries[4]["query"], "q11");
}

TEST(SessionMemory, MarksEntriesStaleWhenTheirFilesChange) {
  TempTree tree("memory-stale");
  SessionMemory memory(tree.root());
  memory.record(entry("one", "a.py", "h1"));
  memory.record(entry("two", "b.py", "h2"));
  memory.record(entry("three", "gone.py", "h3"));
  std::map<std::string, std::string> now = {{"a.py", "h1"}, {"b.py", "CHANGED"}};
  auto current = [&](const std::string& path) -> std::optional<std::string> {
    auto found = now.find(path);
    if (found == now.end()) return std::nullopt;
    return found->second;
  };
  EXPECT_EQ(memory.refresh(current), 2u);
  json entries = memory.load()["entries"];
  EXPECT_FALSE(entries[0]["stale"].get<bool>());
  EXPECT_TRUE(entries[1]["stale"].get<bool>());
  EXPECT_EQ(entries[1]["stale_files"], json::array({"b.py"}));
  EXPECT_TRUE(entries[2]["stale"].get<bool>());
  EXPECT_EQ(memory.refresh(current), 0u);  // already stale: counted once
  memory.clear();
  EXPECT_TRUE(memory.load()["entries"].empty());
}

TEST(SessionMemory, AnUnreadableFileStartsAfreshInsteadOfFailing) {
  TempTree tree("memory-garbage");
  tree.write(".comp/session-memory.json", "{ not json");
  SessionMemory memory(tree.root());
  EXPECT_TRUE(memory.load()["entries"].empty());
  memory.record(entry("after", "a.py", "h"));
  EXPECT_EQ(memory.load()["entries"].size(), 1u);
}

TEST(SessionMemory, ProcessesWritingAtOnceLoseNothing) {
  TempTree tree("memory-processes");
  constexpr int kProcesses = 4, kEach = 25;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      {
        SessionMemory memory(tree.root(), 1000);
        for (int i = 0; i < kEach; ++i) memory.record(entry("p" + std::to_string(p) + "-" + std::to_string(i), "a.py", "h"));
      }  // what is still queued is written here
      _exit(0);
    }
    children.push_back(child);
  }
  // Meanwhile a reader never sees half a file.
  SessionMemory reader(tree.root(), 1000);
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(tree.root() / ".comp" / "session-memory.json");
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_FALSE(json::parse(text, nullptr, false).is_discarded()) << "torn read";
  }
  for (pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  json entries = reader.load()["entries"];
  EXPECT_EQ(entries.size(), static_cast<std::size_t>(kProcesses * kEach));
  std::set<std::string> queries;
  for (const json& e : entries) queries.insert(e["query"].get<std::string>());
  EXPECT_EQ(queries.size(), static_cast<std::size_t>(kProcesses * kEach));
}

}  // namespace
}  // namespace comp::rpc
