import * as path from 'node:path';
import { run } from '../../lib/cli/run';

const ROOT = path.join(__dirname, '..', '..');

describe('the committed samples manifest', () => {
  it('matches the sample sources (scope-tool check)', async () => {
    let out = '';
    let err = '';
    const status = await run(
      ['check', '--project', 'samples/tsconfig.json', '--manifest', 'samples/tools.manifest.json'],
      {
        stdout: (t) => (out += t),
        stderr: (t) => (err += t),
        cwd: ROOT,
      },
    );
    expect({ status, err }).toEqual({ status: 0, err: '' });
    expect(out).toMatch(/7 tools/);
  });
});
