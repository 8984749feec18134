import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Lint holds the layers: these plant an import the way a newcomer might write it and check that
// `npm run lint` would refuse it (or, for the allowed ones, would not).
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function rulesBroken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the web layers, as lint holds them', () => {
  it('refuse a feature importing another feature', async () => {
    const broken = await rulesBroken(
      'src/web/features/admin/planted.ts',
      "export { createBackup } from '@web/features/backup/create-backup';\n",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('refuse the same through a relative path', async () => {
    const broken = await rulesBroken(
      'src/web/features/admin/components/planted.ts',
      "export { createBackup } from '../../backup/create-backup';\n",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('refuse shared parts importing a feature, a page or the app', async () => {
    for (const [file, from] of [
      ['src/web/lib/planted.ts', '@web/features/backup/create-backup'],
      ['src/web/components/planted.ts', '@web/pages/home/home-page'],
      ['src/shared/domain/planted.ts', '@web/app/providers'],
    ] as const) {
      expect(await rulesBroken(file, `export * from '${from}';\n`)).toContain(
        'import-x/no-restricted-paths',
      );
    }
  });

  it('refuse a feature importing a page or the app', async () => {
    const broken = await rulesBroken(
      'src/web/features/admin/planted.ts',
      "export * from '@web/pages/home/home-page';\n",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('let a feature use its own files and shared parts, and a page use any feature file', async () => {
    expect(
      await rulesBroken(
        'src/web/features/backup/planted.ts',
        "export { createBackup } from './create-backup';\nexport { useAuth } from '@web/lib/auth-provider';\n",
      ),
    ).toEqual([]);
    expect(
      await rulesBroken(
        'src/web/pages/planted.ts',
        "export { createBackup } from '@web/features/backup/create-backup';\n",
      ),
    ).toEqual([]);
  });
});

describe('import circles, as lint holds them', () => {
  it('refuse a module importing one that imports it back', async () => {
    // auth.ts already imports common.ts; common.ts importing auth.ts closes a circle.
    const broken = await rulesBroken(
      'src/shared/schemas/common.ts',
      "export { ZUsername } from './auth';\n",
    );
    expect(broken).toContain('import-x/no-cycle');
  });
});
