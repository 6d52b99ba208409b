// jsonrpc: a JSON-RPC 2.0 endpoint over newline-delimited messages (one JSON
// value per line, as MCP's stdio transport frames them), shared by `comp
// serve` and `comp mcp`.
//
// To the letter of the spec: requests, notifications (no `id` member; never
// answered), batches (an array; one array answer without the notifications';
// nothing when all are notifications; `[]` is an Invalid Request), ids of any
// allowed type (string, number, null; 0 included) echoed back verbatim, and
// the standard errors: -32700 parse error, -32600 invalid request, -32601
// method not found, -32602 invalid params, -32603 internal error. Requests
// run concurrently on a worker pool, answers may come out of order; a
// handler that throws never takes the process down.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace comp::rpc {

enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,  // LSP's, for requests before `initialize`
  kRequestCancelled = -32800,      // LSP's, for a cancelled request
};

// Thrown by handlers for an error response with this code.
class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message, nlohmann::json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const { return code_; }
  const nlohmann::json& data() const { return data_; }

 private:
  int code_;
  nlohmann::json data_;
};

class Endpoint;

// What a handler knows about its request.
class Call {
 public:
  Call(Endpoint& endpoint, nlohmann::json id, std::shared_ptr<std::atomic<bool>> cancelled)
      : endpoint_(endpoint), id_(std::move(id)), cancelled_(std::move(cancelled)) {}
  const nlohmann::json& id() const { return id_; }
  bool cancelled() const { return cancelled_ && cancelled_->load(); }
  const std::shared_ptr<std::atomic<bool>>& cancel_flag() const { return cancelled_; }
  // Sends a notification to the client (progress, log) while the request runs.
  void notify(const std::string& method, nlohmann::json params);

 private:
  Endpoint& endpoint_;
  nlohmann::json id_;
  std::shared_ptr<std::atomic<bool>> cancelled_;
};

using Handler = std::function<nlohmann::json(const nlohmann::json& params, Call& call)>;
using NotificationHandler = std::function<void(const nlohmann::json& params)>;

class Endpoint {
 public:
  // `write_line` receives each outgoing message without its newline; calls
  // are serialised. `workers` threads run the requests.
  Endpoint(std::function<void(const std::string&)> write_line, unsigned workers);
  ~Endpoint();  // waits for running requests

  // `inline_` handlers run on the reading thread, in order (initialize,
  // shutdown, cheap status calls); the others on the pool.
  void on_request(const std::string& method, Handler handler, bool inline_ = false);
  void on_notification(const std::string& method, NotificationHandler handler);
  // Called for a request before `method`'s handler; throwing Error rejects it
  // (e.g. "not initialized").
  void set_gate(std::function<void(const std::string& method)> gate) { gate_ = std::move(gate); }
  // How cancellation arrives: a notification whose params name the request
  // (`$/cancelRequest` {id} for serve, `notifications/cancelled` {requestId}
  // for MCP). A cancelled request still running is answered with
  // kRequestCancelled when `answer_cancelled`, else not at all (MCP).
  void set_cancellation(const std::string& method, const std::string& id_field, bool answer_cancelled);

  // One incoming line. Returns at once; answers are written when ready.
  void handle_line(std::string_view line);
  void notify(const std::string& method, nlohmann::json params);
  // An error answer outside any request (e.g. an over-long line), id null.
  void send_error(int code, const std::string& message);
  // Waits until no request is queued or running.
  void drain();
  std::size_t in_flight() const;

 private:
  struct Task {
    nlohmann::json message;  // a request or a whole batch
    bool batch = false;
  };
  // The answer to one request object, or null for a notification/no answer.
  nlohmann::json process(const nlohmann::json& message, bool on_pool);
  bool is_inline(const nlohmann::json& message) const;
  void write(const nlohmann::json& message);
  void worker();
  std::string id_key(const nlohmann::json& id) const;

  std::function<void(const std::string&)> write_line_;
  std::mutex write_mutex_;
  std::map<std::string, std::pair<Handler, bool>> handlers_;
  std::map<std::string, NotificationHandler> notifications_;
  std::function<void(const std::string&)> gate_;
  std::string cancel_method_, cancel_field_;
  bool answer_cancelled_ = true;

  mutable std::mutex mutex_;
  std::condition_variable work_, idle_;
  std::deque<Task> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> active_;  // by id, queued or running
  std::vector<std::thread> workers_;

  friend class Call;
};

// Splits a byte stream into lines (LF or CRLF), for stdin readers. A line
// longer than `max_line` is dropped and reported as one empty-marked overflow
// through `on_overflow`.
class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line = 16u << 20) : max_line_(max_line) {}
  template <typename OnLine, typename OnOverflow>
  void feed(std::string_view bytes, OnLine&& on_line, OnOverflow&& on_overflow) {
    for (char c : bytes) {
      if (c == '\n') {
        if (overflowed_) {
          on_overflow();
        } else {
          if (!buffer_.empty() && buffer_.back() == '\r') buffer_.pop_back();
          on_line(std::string_view(buffer_));
        }
        buffer_.clear();
        overflowed_ = false;
        continue;
      }
      if (overflowed_) continue;
      if (buffer_.size() >= max_line_) {
        overflowed_ = true;
        buffer_.clear();
        buffer_.shrink_to_fit();
        continue;
      }
      buffer_.push_back(c);
    }
  }
  // The last line when the stream ended without a newline.
  template <typename OnLine>
  void finish(OnLine&& on_line) {
    if (!overflowed_ && !buffer_.empty()) on_line(std::string_view(buffer_));
    buffer_.clear();
  }

 private:
  std::string buffer_;
  std::size_t max_line_;
  bool overflowed_ = false;
};

}  // namespace comp::rpc
