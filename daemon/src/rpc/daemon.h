// daemon: `comp serve` (JSON-RPC 2.0 for the editor) and `comp mcp` (MCP for
// agents) over one stdio stream each: newline-delimited JSON in on `in_fd`,
// out on `out_fd`, logs on stderr. Both run the same Workspace and Service;
// they differ only in method names and result shapes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace comp::rpc {

enum class Protocol { kJsonRpc, kMcp };

struct DaemonOptions {
  std::filesystem::path root;  // canonical, existing directory
  Protocol protocol = Protocol::kJsonRpc;
  bool watch = true;
  unsigned jobs = 0;           // indexer threads (0: all cores)
  unsigned workers = 4;        // concurrent requests
};

// Runs until the input ends or the client says `exit`; returns the exit code.
int run_daemon(const DaemonOptions& options, int in_fd, int out_fd);

// The MCP versions this server speaks, newest first; `negotiate` picks the
// client's when supported, else the newest.
const std::vector<std::string>& mcp_versions();
std::string negotiate_mcp_version(const std::string& requested);

}  // namespace comp::rpc
