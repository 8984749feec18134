import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * Writes each script and stylesheet compressed as far as it goes (Brotli 11, gzip 9) beside the
 * original, for the server to send as they are (@fastify/static's preCompressed): about a sixth
 * smaller than compressing on the fly at a speed fit for each request.
 */
export function precompressAssets(): Plugin {
  let resolved: ResolvedConfig;
  return {
    name: 'memento:precompress-assets',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    closeBundle(error?: Error) {
      const assetsDir = path.join(resolved.build.outDir, resolved.build.assetsDir);
      if (error || resolved.build.ssr || !existsSync(assetsDir)) return;
      for (const name of readdirSync(assetsDir)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const content = readFileSync(path.join(assetsDir, name));
        const brotli = brotliCompressSync(content, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        writeFileSync(path.join(assetsDir, `${name}.br`), brotli);
        writeFileSync(path.join(assetsDir, `${name}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}
