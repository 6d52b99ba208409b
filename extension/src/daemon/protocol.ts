// protocol: the shapes of `comp serve`'s JSON-RPC answers, as far as the
// extension reads them. The daemon owns these; the extension only displays
// them, so fields it does not use are left out (they are still there at run
// time) and everything is read-only.

/** The daemon's own error codes (JSON-RPC's server-defined range) and LSP's cancel. */
export const ErrorCodes = {
  IndexNotReady: -32001,
  NotFound: -32004,
  GitFailed: -32010,
  InvalidParams: -32602,
  MethodNotFound: -32601,
  RequestCancelled: -32800,
} as const;

/** `index_progress` params and `initialize`'s `index`. */
export interface IndexState {
  readonly ready: boolean;
  readonly indexing: boolean;
  readonly waiting_for_writer: boolean;
  readonly done: number;
  readonly total: number;
  readonly pending_changes: number;
  readonly watch: string;
  readonly last_error: string | null;
}

export interface InitializeResult {
  readonly name: string;
  readonly version: string;
  readonly root: string;
  readonly capabilities: {
    readonly methods: readonly string[];
    readonly notifications: { readonly client: readonly string[]; readonly server: readonly string[] };
  };
  readonly languages: readonly string[];
  readonly index: IndexState;
}

export interface Freshness {
  readonly stale_files: number;
  readonly pending_changes: number;
  readonly indexing: boolean;
  readonly ready: boolean;
  readonly last_indexed_at: number | null;
}

export interface PivotFile {
  readonly path: string;
  readonly score: number;
  readonly symbols: readonly string[];
  readonly token_count: number;
  readonly raw_token_count: number;
  readonly compression_level: number;
  readonly lines: string | null;
  /** Level 2: the symbols whose bodies are sent in full inside the skeleton. */
  readonly full_bodies?: readonly string[];
  /** A documentation page sent beside the code: the code file it describes. */
  readonly documents?: string | null;
  /** A changelog's first lines: the pull-request template whose checklist asks every change for an entry. */
  readonly required_by?: string | null;
  /** A neighbour in the graph of one of the two strongest files: the sent file that uses it. */
  readonly used_by?: string | null;
  /** A neighbour in the graph of one of the two strongest files: the sent file it uses. */
  readonly uses?: string | null;
  /** A file that changed in the same commits as one of the three strongest: that sent file. */
  readonly changed_with?: string | null;
  /** The build manifest (pom.xml, package.json, pyproject.toml, ...) of the module that holds the strongest file: that sent file. */
  readonly manifest_of?: string | null;
  /** `content` is an outline: the first line of each definition (of a page: its headings), numbered, `⋮` where lines are skipped. */
  readonly outline?: boolean;
  readonly content?: string;
}

export interface PipelineResult {
  readonly pivot_files: readonly PivotFile[];
  /** The answer as a model reads it (MCP get_context's text): Markdown, at most `max_tokens` o200k tokens in all. */
  readonly markdown?: string;
  /** Tokens of `markdown`; `tokens_sent` counts the contents alone. */
  readonly answer_tokens?: number;
  readonly tokens_sent: number;
  readonly token_savings: number;
  readonly cost_estimation?: number;
  readonly max_tokens: number;
  readonly left_out: readonly string[];
  readonly freshness: Freshness;
}

/** A symbol of the graph (`nodes`), as get_symbol and get_git_diff_context return it. */
export interface SymbolNode {
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly kind: string;
  readonly line: number;
  readonly end_line?: number;
  readonly signature?: string;
}

/** A dependent or dependency in a blast radius. `lines` are the reference sites in `file`. */
export interface RelatedSymbol extends SymbolNode {
  readonly depth: number;
  readonly edge_kinds: readonly string[];
  readonly lines: readonly number[];
}

export interface SymbolReport {
  readonly symbol: SymbolNode | null;
  readonly choices: readonly SymbolNode[];
  readonly markdown: string;
  readonly dependents?: readonly RelatedSymbol[];
  readonly dependencies?: readonly RelatedSymbol[];
  readonly freshness: Freshness;
}

export interface DiffReport {
  readonly base_commit: string;
  readonly changes: readonly { readonly path: string; readonly status: string }[];
  readonly changed_symbols: readonly unknown[];
  readonly related: readonly unknown[];
  readonly markdown: string;
  readonly freshness: Freshness;
}

export interface DependentsCountSymbol {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly line: number;
  readonly end_line: number;
  readonly dependents: number;
}

export interface DependentsCountResult {
  readonly path: string;
  readonly symbols: readonly DependentsCountSymbol[];
  readonly freshness: Freshness;
}

export interface SessionMemoryFile {
  readonly path: string;
  readonly sha256: string;
  readonly tokens: number;
}

export interface SessionMemoryEntry {
  readonly id: string;
  readonly time: string;
  readonly tool: string;
  readonly client: string;
  readonly query: string;
  readonly files: readonly SessionMemoryFile[];
  readonly symbols: readonly string[];
  readonly tokens_sent: number;
  readonly tokens_saved: number;
  readonly stale: boolean;
  readonly stale_files: readonly string[];
}

/** `<root>/.comp/session-memory.json`, and `session_memory`'s answer. */
export interface SessionMemoryDocument {
  readonly version: number;
  readonly entries: readonly SessionMemoryEntry[];
}
