#include "server/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>

#include "utf8/utf8.h"

namespace comp::server {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
std::mutex g_mutex;
}  // namespace

void set_log_level(LogLevel level) { g_level = static_cast<int>(level); }
LogLevel log_level() { return static_cast<LogLevel>(g_level.load()); }

std::optional<LogLevel> parse_log_level(std::string_view name) {
  if (name == "error") return LogLevel::kError;
  if (name == "warn") return LogLevel::kWarn;
  if (name == "info") return LogLevel::kInfo;
  if (name == "debug") return LogLevel::kDebug;
  return std::nullopt;
}

std::string utc_now(bool with_date) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  int millis = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[40];
  std::size_t length = std::strftime(buffer, sizeof buffer, with_date ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
  std::snprintf(buffer + length, sizeof buffer - length, with_date ? ".%03dZ" : ".%03d", millis);
  return buffer;
}

void log(LogLevel level, std::string_view message) {
  if (static_cast<int>(level) > g_level.load()) return;
  static const char* names[] = {"error", "warn", "info", "debug"};
  std::string stamp = utc_now(false);
  std::lock_guard lock(g_mutex);
  const std::string line = utf8::escape_controls(message);  // one line, whatever a path in it holds
  std::fprintf(stderr, "%s comp %s: %.*s\n", stamp.c_str(), names[static_cast<int>(level)],
               static_cast<int>(line.size()), line.data());
  std::fflush(stderr);
}

}  // namespace comp::server
