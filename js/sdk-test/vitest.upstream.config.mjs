// The tests of openai-agents-js's packages/agents-openai at a commit (UPSTREAM_TESTS: a folder
// holding its test/ folder, as `python -m approval_compaction js-upstream` extracts it), run
// against an installed @openai/agents (AGENTS_PACKAGE: a folder whose node_modules holds it).
// `../src` is that folder's @openai/agents-openai, and `../src/<module>` its dist/<module>.mjs
// (the npm package ships dist only); the SDK's packages and zod resolve from that folder, so the
// tests and the SDK share one copy of each.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = fileURLToPath(new URL('.', import.meta.url));
const folder = resolve(process.env.AGENTS_PACKAGE ?? resolve(here, '..', '..'));
const tests = resolve(process.env.UPSTREAM_TESTS ?? resolve(here, 'upstream'));
const dist = resolve(folder, 'node_modules', '@openai', 'agents-openai', 'dist');
const FROM_FOLDER = /^(@openai\/agents[\w-]*|zod|openai)(\/.*)?$/;

export default defineConfig({
  root: tests,
  plugins: [
    {
      name: 'installed-sdk',
      enforce: 'pre',
      async resolveId(id, importer) {
        if (importer && /^(\.\.\/)+src(\/.*)?$/.test(id)) {
          const source = resolve(dirname(importer), id);
          const inner = relative(resolve(tests, 'src'), source);
          const module = inner === '' ? 'index' : inner;
          const found = [`${module}.mjs`, `${module}/index.mjs`]
            .map((name) => resolve(dist, name))
            .find((path) => existsSync(path));
          if (found) return found;
        }
        if (!FROM_FOLDER.test(id)) return null;
        return this.resolve(id, resolve(folder, 'package.json'), { skipSelf: true });
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
