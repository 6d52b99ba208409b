// BlastRadius: what a CodeLens click shows: the daemon's `get_symbol` for
// the symbol, as a quick pick of its dependents' reference sites (one item
// per site; the first item peeks them all in the references view). Choosing
// a site opens it.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DaemonManager } from '../daemon/DaemonManager';
import type { RelatedSymbol, SymbolReport } from '../daemon/protocol';
import type { BlastRadiusTarget } from './DependencyCodeLensProvider';

export interface ReferenceSite {
  readonly dependent: RelatedSymbol;
  /** 0-based line in the dependent's file. */
  readonly line: number;
}

/** The reference sites of a report: each line of each dependent (its own line when none are listed). */
export function referenceSites(report: SymbolReport): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  for (const dependent of report.dependents ?? []) {
    const lines = dependent.lines.length > 0 ? dependent.lines : [dependent.line];
    for (const line of lines) sites.push({ dependent, line: Math.max(0, line - 1) });
  }
  return sites;
}

interface SiteItem extends vscode.QuickPickItem {
  readonly location?: vscode.Location;
  readonly peekAll?: boolean;
}

export async function showBlastRadius(manager: DaemonManager, target: BlastRadiusTarget): Promise<void> {
  const folder = vscode.Uri.parse(target.folder);
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `comP: blast radius of ${target.name}` },
    () => manager.request<SymbolReport>(folder, 'get_symbol', { name: target.id, depth: 2 }),
  );
  const sites = referenceSites(report);
  if (sites.length === 0) {
    void vscode.window.showInformationMessage(`comP: nothing in the index depends on ${target.name}.`);
    return;
  }
  const locationOf = (site: ReferenceSite): vscode.Location =>
    new vscode.Location(vscode.Uri.joinPath(folder, site.dependent.file), new vscode.Position(site.line, 0));
  const items: SiteItem[] = [
    { label: `$(references) Peek all ${sites.length} reference sites`, peekAll: true, alwaysShow: true },
    ...sites.map((site) => ({
      label: `$(symbol-${iconOf(site.dependent.kind)}) ${site.dependent.name}`,
      description: `${site.dependent.file}:${site.line + 1}`,
      detail: `${site.dependent.edge_kinds.join(', ') || 'reference'}${site.dependent.depth > 1 ? ` · ${site.dependent.depth} hops away` : ''} · ${path.basename(site.dependent.file)}`,
      location: locationOf(site),
    })),
  ];
  const choice = await vscode.window.showQuickPick(items, {
    title: `${target.name}: ${sites.length} reference site${sites.length === 1 ? '' : 's'} in ${new Set(sites.map((s) => s.dependent.file)).size} files`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!choice) return;
  if (choice.peekAll) {
    await vscode.commands.executeCommand(
      'editor.action.showReferences',
      vscode.Uri.parse(target.uri),
      new vscode.Position(target.line, 0),
      sites.map(locationOf),
    );
  } else if (choice.location) {
    await vscode.window.showTextDocument(choice.location.uri, { selection: choice.location.range });
  }
}

function iconOf(kind: string): string {
  switch (kind) {
    case 'function':
    case 'method':
    case 'class':
    case 'interface':
    case 'struct':
    case 'enum':
    case 'namespace':
      return kind;
    case 'file':
      return 'file';
    default:
      return 'misc';
  }
}
