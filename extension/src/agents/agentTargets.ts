// agentTargets: the coding agents comP can register with, where each keeps
// its MCP servers, and the entry each expects for `comp mcp --root <folder>`.

import * as path from 'node:path';
import type { EntryLocation, ServerEntry } from './configEdit';

export type AgentId = 'vscode' | 'cursor' | 'windsurf' | 'cline' | 'claude-code' | 'codex';

export interface TargetContext {
  /** The workspace folder comP serves. */
  readonly folder: string;
  readonly home: string;
  /** This extension's global storage folder; other extensions' are its siblings. */
  readonly globalStorage: string;
}

export interface AgentTarget {
  readonly id: AgentId;
  readonly label: string;
  /** 'workspace': a file in the folder; 'user': one file for all the user's projects. */
  readonly scope: 'workspace' | 'user';
  readonly format: 'json' | 'toml';
  readonly location: EntryLocation;
  file(context: TargetContext): string;
  entry(command: string, args: readonly string[]): ServerEntry;
  /** Paths whose existence suggests the agent is used here (the pick starts with it selected). */
  hints(context: TargetContext): string[];
}

export const serverName = 'comp';

/** `comp mcp --root <folder>`'s arguments. */
export function mcpArgs(folder: string): string[] {
  return ['mcp', '--root', folder];
}

const plain = (command: string, args: readonly string[]): ServerEntry => ({ command, args: [...args] });
const mcpServers: EntryLocation = { container: 'mcpServers', name: serverName };

export const agentTargets: readonly AgentTarget[] = [
  {
    id: 'vscode',
    label: 'VS Code / GitHub Copilot',
    scope: 'workspace',
    format: 'json',
    location: { container: 'servers', name: serverName },
    file: ({ folder }) => path.join(folder, '.vscode', 'mcp.json'),
    entry: (command, args) => ({ type: 'stdio', command, args: [...args] }),
    hints: ({ folder }) => [path.join(folder, '.vscode')],
  },
  {
    id: 'cursor',
    label: 'Cursor',
    scope: 'workspace',
    format: 'json',
    location: mcpServers,
    file: ({ folder }) => path.join(folder, '.cursor', 'mcp.json'),
    entry: plain,
    hints: ({ folder, home }) => [path.join(folder, '.cursor'), path.join(home, '.cursor')],
  },
  {
    id: 'windsurf',
    label: 'Windsurf',
    scope: 'user',
    format: 'json',
    location: mcpServers,
    file: ({ home }) => path.join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    entry: plain,
    hints: ({ home }) => [path.join(home, '.codeium', 'windsurf')],
  },
  {
    id: 'cline',
    label: 'Cline',
    scope: 'user',
    format: 'json',
    location: mcpServers,
    file: ({ globalStorage }) => path.join(path.dirname(globalStorage), 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
    entry: plain,
    hints: ({ globalStorage }) => [path.join(path.dirname(globalStorage), 'saoudrizwan.claude-dev')],
  },
  {
    id: 'claude-code',
    label: 'Claude Code',
    scope: 'workspace',
    format: 'json',
    location: mcpServers,
    file: ({ folder }) => path.join(folder, '.mcp.json'),
    entry: plain,
    hints: ({ folder, home }) => [path.join(folder, '.mcp.json'), path.join(folder, 'CLAUDE.md'), path.join(home, '.claude')],
  },
  {
    id: 'codex',
    label: 'Codex CLI',
    scope: 'user',
    format: 'toml',
    location: { container: 'mcp_servers', name: serverName },
    file: ({ home }) => path.join(home, '.codex', 'config.toml'),
    entry: plain,
    hints: ({ home, folder }) => [path.join(home, '.codex'), path.join(folder, 'AGENTS.md')],
  },
];
