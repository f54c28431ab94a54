// The regression test as it sits in openai-agents-js (packages/agents-openai/test/), run here
// against an installed @openai/agents: the one in AGENTS_PACKAGE (a folder whose node_modules
// holds it; default: the repository's own, the pinned release). `../src`, the package's sources
// in the SDK's tree, is that folder's @openai/agents-openai; the SDK's packages and zod resolve
// from that folder too, so the test and the SDK share one copy of each.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = fileURLToPath(new URL('.', import.meta.url));
const folder = resolve(process.env.AGENTS_PACKAGE ?? resolve(here, '..', '..'));
const FROM_FOLDER = /^(@openai\/agents[\w-]*|zod)(\/.*)?$/;

export default defineConfig({
  plugins: [
    {
      name: 'installed-sdk',
      enforce: 'pre',
      async resolveId(id) {
        const target = id === '../src' ? '@openai/agents-openai' : id;
        if (!FROM_FOLDER.test(target)) return null;
        return this.resolve(target, resolve(folder, 'package.json'), { skipSelf: true });
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
