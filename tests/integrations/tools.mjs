// The integration layer's tools: the packed tarball (npm pack), one folder of pinned site tools (Vite, webpack, esbuild,
// Astro + MDX, TypeScript, React's types) installed once from npm into a cache outside the repository and offline
// after, and each tiny site of sites/ copied beside it with the tarball installed offline.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SITES = fileURLToPath(new URL('./sites/', import.meta.url));
/** The cache: PARASCOPE_INTEGRATIONS_CACHE, else ~/.cache/parascope-integrations (never inside the repository). */
export const CACHE = process.env.PARASCOPE_INTEGRATIONS_CACHE ?? join(homedir(), '.cache', 'parascope-integrations');
const WORK = join(CACHE, 'sites');

/** The site tools, exact versions (TOOLCHAIN.md: what runs on node 20 here). */
export const TOOLS = {
  '@astrojs/mdx': '4.3.14',
  '@types/react': '19.3.3',
  astro: '5.18.2',
  'css-loader': '7.1.5',
  esbuild: '0.28.2',
  'style-loader': '4.0.0',
  typescript: '5.9.3',
  vite: '8.4.0',
  webpack: '5.113.0',
  'webpack-cli': '7.3.1',
};

const quiet = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
/** Runs `command args` in `cwd`; returns its output, or throws with it. */
export function run(command, args, cwd, env = {}) {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...quiet, ...env },
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
}

/**
 * Packs the package, installs the tools (from npm the first time; --offline once the cache holds them: the lock file
 * is kept beside them) and the tarball into the work folder; returns { work, tarball, version }.
 */
export async function prepare() {
  await mkdir(WORK, { recursive: true });
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', CACHE], ROOT));
  const tarball = join(CACHE, info.filename);
  const manifest = { name: 'parascope-integration-sites', private: true, type: 'module', devDependencies: TOOLS };
  const wanted = JSON.stringify(manifest, null, 2);
  const current = existsSync(join(WORK, 'package.json')) ? await readFile(join(WORK, 'package.json'), 'utf8') : '';
  if (current !== wanted || !existsSync(join(WORK, 'node_modules', '.package-lock.json'))) {
    await writeFile(join(WORK, 'package.json'), wanted);
    run('npm', ['install', '--no-package-lock', '--ignore-scripts=false', '--loglevel=error'], WORK);
  }
  // The package under test, from the tarball, offline; --no-save keeps the tools' manifest as it is.
  await rm(join(WORK, 'node_modules', 'parascope'), { recursive: true, force: true });
  run('npm', ['install', '--offline', '--no-save', '--no-package-lock', '--loglevel=error', tarball], WORK);
  return { work: WORK, tarball, version: info.version };
}

/** A fresh copy of sites/<name> in the work folder (the tools' node_modules is its parent's); returns its path. */
export async function siteCopy(name) {
  const dir = join(WORK, name);
  await rm(dir, { recursive: true, force: true });
  await cp(join(SITES, name), dir, { recursive: true });
  return dir;
}

/** The installed package's dist/ folder, copied into `dir` (what a blogger copies into static/ or the site's source). */
export async function copyDist(dir) {
  await cp(join(WORK, 'node_modules', 'parascope', 'dist'), dir, { recursive: true, dereference: true });
}

/** A tool's command in the work folder's node_modules/.bin. */
export const bin = (name) => join(WORK, 'node_modules', '.bin', name);
