import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPrivateTree } from '../../src/server/lib/data-dir';

// A first start copies the build's database template into DATA_DIR (decisions 036 and 047).

describe('copyPrivateTree', () => {
  it('copies every byte, for the server’s user only, leaving a large file’s empty pages as holes', () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'memento-tree-'));
    const source = path.join(work, 'template');
    mkdirSync(path.join(source, 'base', '5'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(source, 'PG_VERSION'), '18\n', { mode: 0o666 });
    writeFileSync(path.join(source, 'base', '5', '1259'), Buffer.alloc(8192 * 3, 7), {
      mode: 0o644,
    });
    // A write-ahead log segment: one page of records, then zeros to its full 16 MB.
    const segment = Buffer.alloc(16 * 1024 * 1024);
    segment.fill(9, 0, 8192);
    segment.fill(3, 8192 * 100 + 17, 8192 * 100 + 40);
    writeFileSync(path.join(source, 'segment'), segment, { mode: 0o666 });
    // Large, not a whole number of pages, and data in its last part-page.
    const ragged = Buffer.alloc(3 * 1024 * 1024 + 5000);
    ragged.fill(5, ragged.length - 100);
    ragged.fill(6, 1024 * 1024 - 10, 1024 * 1024 + 10);
    writeFileSync(path.join(source, 'ragged'), ragged);

    const target = path.join(work, 'copy');
    copyPrivateTree(source, target);

    expect(readFileSync(path.join(target, 'PG_VERSION'), 'utf8')).toBe('18\n');
    expect(readFileSync(path.join(target, 'base', '5', '1259'))).toEqual(Buffer.alloc(8192 * 3, 7));
    const copied = readFileSync(path.join(target, 'segment'));
    expect(copied.length).toBe(segment.length);
    expect(copied.equals(segment)).toBe(true);
    expect(readFileSync(path.join(target, 'ragged')).equals(ragged)).toBe(true);
    // Two pages written: the rest of its 16 MB takes no room on the disk.
    expect(statSync(path.join(target, 'segment')).blocks * 512).toBeLessThan(1024 * 1024);
    for (const entry of ['', 'base', 'base/5'])
      expect(statSync(path.join(target, entry)).mode & 0o777).toBe(0o700);
    for (const entry of ['PG_VERSION', 'base/5/1259', 'segment', 'ragged'])
      expect(statSync(path.join(target, entry)).mode & 0o777).toBe(0o600);
  });

  it('refuses to copy over anything already at the target', () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'memento-tree-'));
    const source = path.join(work, 'template');
    mkdirSync(source);
    writeFileSync(path.join(source, 'PG_VERSION'), '18\n');
    const target = path.join(work, 'copy');
    mkdirSync(target);

    expect(() => copyPrivateTree(source, target)).toThrow(/EEXIST/);
  });
});
