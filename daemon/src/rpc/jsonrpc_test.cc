#include "rpc/jsonrpc.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

using nlohmann::json;

namespace comp::rpc {
namespace {

// An endpoint whose output is collected, with the spec's example methods.
class Harness {
 public:
  explicit Harness(unsigned workers = 2)
      : endpoint([this](const std::string& line) {
          std::lock_guard lock(mutex);
          lines.push_back(json::parse(line));
          arrived.notify_all();
        }, workers) {
    endpoint.on_request("subtract", [](const json& params, Call&) {
      if (params.is_array()) return json(params.at(0).get<int>() - params.at(1).get<int>());
      return json(params.at("minuend").get<int>() - params.at("subtrahend").get<int>());
    });
    endpoint.on_request("sum", [](const json& params, Call&) {
      int total = 0;
      for (const json& value : params) total += value.get<int>();
      return json(total);
    });
    endpoint.on_request("get_data", [](const json&, Call&) { return json::array({"hello", 5}); });
    endpoint.on_request("throws", [](const json&, Call&) -> json { throw std::runtime_error("boom"); });
    endpoint.on_request("invalid", [](const json&, Call&) -> json { throw Error(kInvalidParams, "bad x"); });
    endpoint.on_notification("update", [this](const json&) { ++updates; });
  }

  // Sends `text` and waits for `count` more output messages (or 5 s).
  std::vector<json> send(const std::string& text, std::size_t count) {
    std::size_t before;
    {
      std::lock_guard lock(mutex);
      before = lines.size();
    }
    endpoint.handle_line(text);
    endpoint.drain();
    std::unique_lock lock(mutex);
    arrived.wait_for(lock, std::chrono::seconds(5), [&] { return lines.size() >= before + count; });
    return std::vector<json>(lines.begin() + static_cast<std::ptrdiff_t>(before), lines.end());
  }

  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<json> lines;
  std::atomic<int> updates{0};
  Endpoint endpoint;
};

// The examples of the JSON-RPC 2.0 specification, section 7.
TEST(JsonRpc, PositionalAndNamedParameters) {
  Harness h;
  auto out = h.send(R"({"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1})", 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], json::parse(R"({"jsonrpc": "2.0", "result": 19, "id": 1})"));
  out = h.send(R"({"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3})", 1);
  EXPECT_EQ(out.at(0), json::parse(R"({"jsonrpc": "2.0", "result": 19, "id": 3})"));
}

TEST(JsonRpc, IdsOfEveryAllowedTypeComeBackVerbatim) {
  Harness h;
  for (const char* id : {"0", "\"abc\"", "null", "-7", "1.5", "\"\""}) {
    auto out = h.send(std::string(R"({"jsonrpc":"2.0","method":"get_data","id":)") + id + "}", 1);
    ASSERT_EQ(out.size(), 1u) << id;
    EXPECT_EQ(out[0]["id"], json::parse(id)) << id;
    EXPECT_EQ(out[0]["result"], json::array({"hello", 5}));
  }
}

TEST(JsonRpc, NotificationsAreNeverAnswered) {
  Harness h;
  auto out = h.send(R"({"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]})", 0);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(h.updates.load(), 1);
  out = h.send(R"({"jsonrpc": "2.0", "method": "foobar"})", 0);  // unknown notification: silence
  EXPECT_TRUE(out.empty());
}

TEST(JsonRpc, StandardErrors) {
  Harness h;
  auto out = h.send(R"({"jsonrpc": "2.0", "method": "foobar", "id": "1"})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32601);
  EXPECT_EQ(out.at(0)["id"], "1");
  out = h.send(R"({"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz])", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32700);
  EXPECT_TRUE(out.at(0)["id"].is_null());
  out = h.send(R"({"jsonrpc": "2.0", "method": 1, "params": "bar"})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32600);
  EXPECT_TRUE(out.at(0)["id"].is_null());
  out = h.send(R"({"jsonrpc": "1.0", "method": "sum", "id": 4})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32600);
  EXPECT_EQ(out.at(0)["id"], 4);
  out = h.send(R"({"jsonrpc": "2.0", "method": "sum", "params": 3, "id": 5})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32600);
  out = h.send(R"({"jsonrpc": "2.0", "method": "sum", "id": {"a": 1}})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32600);
  EXPECT_TRUE(out.at(0)["id"].is_null());
  out = h.send(R"({"jsonrpc": "2.0", "method": "throws", "id": 6})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32603);
  EXPECT_EQ(out.at(0)["error"]["message"], "boom");
  out = h.send(R"({"jsonrpc": "2.0", "method": "invalid", "id": 7})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32602);
  out = h.send(R"({"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": "x"}, "id": 8})", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32602);  // a handler reading params of the wrong type
  // After all that, the endpoint still answers.
  out = h.send(R"({"jsonrpc": "2.0", "method": "subtract", "params": [1, 1], "id": 9})", 1);
  EXPECT_EQ(out.at(0)["result"], 0);
}

TEST(JsonRpc, Batches) {
  Harness h;
  auto out = h.send(R"([
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "update", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ])", 1);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].is_array());
  ASSERT_EQ(out[0].size(), 5u);
  std::map<std::string, json> by_id;
  int invalid = 0;
  for (const json& answer : out[0]) {
    if (answer["id"].is_null()) {
      EXPECT_EQ(answer["error"]["code"], -32600);
      ++invalid;
    } else {
      by_id[answer["id"]] = answer;
    }
  }
  EXPECT_EQ(invalid, 1);
  EXPECT_EQ(by_id["1"]["result"], 7);
  EXPECT_EQ(by_id["2"]["result"], 19);
  EXPECT_EQ(by_id["5"]["error"]["code"], -32601);
  EXPECT_EQ(by_id["9"]["result"], json::array({"hello", 5}));

  out = h.send("[]", 1);
  ASSERT_FALSE(out.at(0).is_array());
  EXPECT_EQ(out[0]["error"]["code"], -32600);
  out = h.send("[1,2,3]", 1);
  ASSERT_TRUE(out.at(0).is_array());
  EXPECT_EQ(out[0].size(), 3u);
  for (const json& answer : out[0]) EXPECT_EQ(answer["error"]["code"], -32600);
  out = h.send(R"([{"jsonrpc": "2.0", "method": "update", "params": [1]}, {"jsonrpc": "2.0", "method": "update"}])", 0);
  EXPECT_TRUE(out.empty());  // all notifications: nothing at all
  out = h.send(R"([{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method")", 1);
  EXPECT_EQ(out.at(0)["error"]["code"], -32700);  // invalid JSON batch: one parse error
}

TEST(JsonRpc, SlowRequestsDoNotBlockFastOnesAndCanBeCancelled) {
  Harness h(2);
  std::promise<void> started;
  std::atomic<bool> saw_cancel{false};
  h.endpoint.on_request("slow", [&](const json&, Call& call) {
    started.set_value();
    for (int i = 0; i < 500 && !call.cancelled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    saw_cancel = call.cancelled();
    return json("finished");
  });
  h.endpoint.set_cancellation("$/cancelRequest", "id", true);
  h.endpoint.handle_line(R"({"jsonrpc":"2.0","method":"slow","id":"long"})");
  started.get_future().wait();
  h.endpoint.handle_line(R"({"jsonrpc":"2.0","method":"subtract","params":[5,3],"id":2})");
  {
    std::unique_lock lock(h.mutex);
    ASSERT_TRUE(h.arrived.wait_for(lock, std::chrono::seconds(5), [&] { return !h.lines.empty(); }));
    EXPECT_EQ(h.lines[0]["id"], 2);  // answered while "slow" runs
  }
  h.endpoint.handle_line(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"long"}})");
  h.endpoint.drain();
  EXPECT_TRUE(saw_cancel.load());
  std::lock_guard lock(h.mutex);
  ASSERT_EQ(h.lines.size(), 2u);
  EXPECT_EQ(h.lines[1]["id"], "long");
  EXPECT_EQ(h.lines[1]["error"]["code"], kRequestCancelled);
}

TEST(JsonRpc, McpStyleCancellationLeavesNoAnswer) {
  Harness h(1);
  std::promise<void> started;
  h.endpoint.on_request("slow", [&](const json&, Call& call) {
    started.set_value();
    while (!call.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return json("late");
  });
  h.endpoint.set_cancellation("notifications/cancelled", "requestId", false);
  h.endpoint.handle_line(R"({"jsonrpc":"2.0","method":"slow","id":7})");
  started.get_future().wait();
  h.endpoint.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}})");
  h.endpoint.drain();
  std::lock_guard lock(h.mutex);
  EXPECT_TRUE(h.lines.empty());
}

TEST(JsonRpc, LineSplitterHandlesPartialLinesCrlfAndOverlongLines) {
  LineSplitter splitter(16);
  std::vector<std::string> lines;
  int overflows = 0;
  auto on_line = [&](std::string_view line) { lines.emplace_back(line); };
  auto on_overflow = [&] { ++overflows; };
  splitter.feed("{\"a\":", on_line, on_overflow);
  splitter.feed("1}\r\n{\"b\":2}\n", on_line, on_overflow);
  splitter.feed("0123456789abcdefghij\nok\n", on_line, on_overflow);
  splitter.feed("tail", on_line, on_overflow);
  splitter.finish(on_line);
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "ok", "tail"}));
  EXPECT_EQ(overflows, 1);
}

}  // namespace
}  // namespace comp::rpc
