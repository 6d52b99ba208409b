#include "rpc/jsonrpc.h"

#include "rpc/codec.h"

using nlohmann::json;

namespace comp::rpc {
namespace {

json error_object(int code, const std::string& message, const json& data = nullptr) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return error;
}

json error_response(const json& id, int code, const std::string& message, const json& data = nullptr) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error_object(code, message, data)}};
}

bool valid_id(const json& id) { return id.is_string() || id.is_number() || id.is_null(); }

}  // namespace

void Call::notify(const std::string& method, json params) { endpoint_.notify(method, std::move(params)); }

Endpoint::Endpoint(std::function<void(const std::string&)> write_line, unsigned workers)
    : write_line_(std::move(write_line)) {
  for (unsigned i = 0; i < std::max(1u, workers); ++i) workers_.emplace_back([this] { worker(); });
}

Endpoint::~Endpoint() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& thread : workers_) thread.join();
}

void Endpoint::on_request(const std::string& method, Handler handler, bool inline_) {
  handlers_[method] = {std::move(handler), inline_};
}

void Endpoint::on_notification(const std::string& method, NotificationHandler handler) {
  notifications_[method] = std::move(handler);
}

void Endpoint::set_cancellation(const std::string& method, const std::string& id_field, bool answer_cancelled) {
  cancel_method_ = method;
  cancel_field_ = id_field;
  answer_cancelled_ = answer_cancelled;
}

std::string Endpoint::id_key(const json& id) const { return id.dump(); }

void Endpoint::write(const json& message) {
  std::string text = dump(message);
  std::lock_guard lock(write_mutex_);
  write_line_(text);
}

void Endpoint::notify(const std::string& method, json params) {
  json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  write(message);
}

void Endpoint::send_error(int code, const std::string& message) { write(error_response(nullptr, code, message)); }

bool Endpoint::is_inline(const json& message) const {
  if (!message.is_object()) return true;  // invalid: answered at once
  auto method = message.find("method");
  if (method == message.end() || !method->is_string()) return true;
  if (!message.contains("id")) return true;  // notifications are cheap and ordered
  auto found = handlers_.find(method->get<std::string>());
  return found == handlers_.end() || found->second.second;
}

json Endpoint::process(const json& message, bool on_pool) {
  if (!message.is_object()) return error_response(nullptr, kInvalidRequest, "a request must be a JSON object");
  auto id_it = message.find("id");
  bool notification = id_it == message.end();
  json id = notification ? json(nullptr) : *id_it;
  if (!notification && !valid_id(id))
    return error_response(nullptr, kInvalidRequest, "`id` must be a string, a number or null");
  auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0")
    return error_response(id, kInvalidRequest, "`jsonrpc` must be \"2.0\"");
  auto method_it = message.find("method");
  if (method_it == message.end() || !method_it->is_string())
    return error_response(id, kInvalidRequest, "`method` must be a string");
  std::string method = method_it->get<std::string>();
  json params = message.value("params", json(nullptr));
  if (!params.is_null() && !params.is_object() && !params.is_array())
    return error_response(id, kInvalidRequest, "`params` must be an object or an array");

  if (notification) {
    if (!cancel_method_.empty() && method == cancel_method_) {
      if (params.is_object() && params.contains(cancel_field_)) {
        std::lock_guard lock(mutex_);
        auto found = active_.find(id_key(params[cancel_field_]));
        if (found != active_.end()) *found->second = true;
      }
      return json();
    }
    auto found = notifications_.find(method);
    if (found != notifications_.end()) {
      try {
        found->second(params);
      } catch (const std::exception&) {
        // A notification has no answer to carry an error; the handler logs.
      }
    }
    return json();
  }

  std::shared_ptr<std::atomic<bool>> cancelled;
  {
    std::lock_guard lock(mutex_);
    auto found = active_.find(id_key(id));
    if (found != active_.end()) cancelled = found->second;
  }
  if (!cancelled) cancelled = std::make_shared<std::atomic<bool>>(false);
  (void)on_pool;
  json response;
  if (*cancelled) {
    response = error_response(id, kRequestCancelled, "cancelled");
  } else {
    auto found = handlers_.find(method);
    if (found == handlers_.end()) {
      response = error_response(id, kMethodNotFound, "method not found: " + method);
    } else {
      Call call(*this, id, cancelled);
      try {
        if (gate_) gate_(method);
        json result = found->second.first(params, call);
        response = {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
      } catch (const Error& error) {
        response = error_response(id, error.code(), error.what(), error.data());
      } catch (const json::exception& error) {
        response = error_response(id, kInvalidParams, std::string("invalid params: ") + error.what());
      } catch (const std::exception& error) {
        response = error_response(id, kInternalError, error.what());
      } catch (...) {
        response = error_response(id, kInternalError, "unknown failure");
      }
    }
    if (*cancelled) {
      if (!answer_cancelled_) return json();
      response = error_response(id, kRequestCancelled, "cancelled");
    }
  }
  return response;
}

void Endpoint::handle_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
  json message;
  try {
    message = json::parse(line);
  } catch (const json::exception& error) {
    write(error_response(nullptr, kParseError, std::string("parse error: ") + error.what()));
    return;
  }
  if (message.is_array()) {
    if (message.empty()) {
      write(error_response(nullptr, kInvalidRequest, "an empty batch"));
      return;
    }
    std::lock_guard lock(mutex_);
    for (const json& item : message)
      if (item.is_object() && item.contains("id") && valid_id(item["id"]))
        active_.emplace(id_key(item["id"]), std::make_shared<std::atomic<bool>>(false));
    queue_.push_back({std::move(message), true});
    work_.notify_one();
    return;
  }
  if (is_inline(message)) {
    json response = process(message, false);
    if (!response.is_null()) write(response);
    return;
  }
  std::lock_guard lock(mutex_);
  active_.emplace(id_key(message["id"]), std::make_shared<std::atomic<bool>>(false));
  queue_.push_back({std::move(message), false});
  work_.notify_one();
}

void Endpoint::worker() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and nothing left
      task = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    std::vector<json> ids;
    if (task.batch) {
      json answers = json::array();
      for (const json& item : task.message) {
        json response = process(item, true);
        if (!response.is_null()) answers.push_back(std::move(response));
        if (item.is_object() && item.contains("id")) ids.push_back(item["id"]);
      }
      if (!answers.empty()) write(answers);
    } else {
      json response = process(task.message, true);
      if (!response.is_null()) write(response);
      ids.push_back(task.message["id"]);
    }
    {
      std::lock_guard lock(mutex_);
      for (const json& id : ids) active_.erase(id_key(id));
      --running_;
    }
    idle_.notify_all();
  }
}

void Endpoint::drain() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

std::size_t Endpoint::in_flight() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + running_;
}

}  // namespace comp::rpc
