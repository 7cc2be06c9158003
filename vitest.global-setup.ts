// Before the tests: build the web UIs the browser tests open (skipped when their sources are unchanged since the last build).
import { buildWebUis, WEB_UI_SERVICES } from './packages/cli/src/web-build.ts';

export default async function setup(): Promise<void> {
  await buildWebUis(WEB_UI_SERVICES);
}
