// Astro 5 with MDX: stylesheets and scripts as files, none inlined (a strict Content-Security-Policy blocks inline
// styles); the package kept out of Vite's dependency optimiser in dev (it moves modules away from their assets).
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';

export default defineConfig({
  integrations: [mdx()],
  outDir: './public-site',
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 }, optimizeDeps: { exclude: ['parascope'] } },
});
