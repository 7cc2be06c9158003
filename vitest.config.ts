import { configDefaults, defineConfig } from 'vitest/config';

const BROWSER_TESTS = 'packages/*/test/browser/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    globalSetup: ['./vitest.global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, BROWSER_TESTS],
          // Each worker keeps its modules from file to file instead of a new process importing them all again
          // (about 2.6 s a file); the tests restore what they change of the environment and the globals.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [BROWSER_TESTS],
          isolate: false,
          // One Chromium for the run instead of one per file; a project of its own so that a run without
          // browser files starts none.
          globalSetup: ['./vitest.browser-setup.ts'],
        },
      },
    ],
  },
});
