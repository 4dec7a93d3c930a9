import * as path from 'node:path';
import { hasErrorCode } from 'scope-tool';
import { greet } from '../../samples/readme-example';

const ROOT = path.join(__dirname, '..', '..');
const MANIFEST = path.join(ROOT, 'samples', 'tools.manifest.json');

describe('the greeter example (served by the MCP and NestJS samples)', () => {
  it('greets through the registry with admitted arguments', async () => {
    await expect(greet(MANIFEST, '{"name":"Ada"}')).resolves.toBe('Hello, Ada!');
  });

  it('refuses arguments the DTO forbids before the method runs', async () => {
    const refused = await greet(MANIFEST, '{"name":""}').catch((e: unknown) => e);
    expect(hasErrorCode(refused, 'ERR_INVALID_INVOCATION')).toBe(true);
    const unknown = await greet(MANIFEST, '{"name":"Ada","admin":true}').catch((e: unknown) => e);
    expect(hasErrorCode(unknown, 'ERR_INVALID_INVOCATION')).toBe(true);
  });
});
