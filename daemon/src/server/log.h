// log: the daemon's diagnostics, on stderr only (stdout carries the
// protocol). One line per message: time, level, text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace comp::server {

enum class LogLevel { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

void set_log_level(LogLevel level);
LogLevel log_level();
std::optional<LogLevel> parse_log_level(std::string_view name);  // error, warn, info, debug
void log(LogLevel level, std::string_view message);
// The current UTC time with milliseconds: "15:20:00.123", or with the date
// "2026-12-02T15:20:00.123Z" (ISO 8601).
std::string utc_now(bool with_date);

}  // namespace comp::server
