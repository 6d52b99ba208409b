// vscodeHook: makes `require('vscode')` load vscodeFake in tests (loaded with
// `node --require`). VS Code provides the real module only inside its
// extension host, so unit and integration tests run against the fake.

import Module = require('node:module');

interface ModuleResolver {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

const resolver = Module as unknown as ModuleResolver;
const original = resolver._resolveFilename.bind(Module);
const fake = require.resolve('./vscodeFake');

resolver._resolveFilename = (request, parent, isMain, options) =>
  request === 'vscode' ? fake : original(request, parent, isMain, options);
