/**
 * ToolRegistry is sealed: only ScopeToolModule's start-up registers into it, so no tool can skip the
 * manifest, the module's policies and its @Authorize() policies (found by a fresh-eyes review: a
 * provider registered an unguarded `shell` tool after start-up, and before it).
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { FuncTool, Registry } from '../../lib/protocol';
import type { JsonValue, Tool } from '../../lib/protocol';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { ClockModule, MANIFEST, NotesModule, call, start, startFailure } from './fixtures';

const shell = (): Tool =>
  FuncTool.create({ name: 'shell', inputSchema: { type: 'object' }, decode: (v: JsonValue) => v }, () => 'ran');

describe('ToolRegistry is sealed', () => {
  it('refuses a tool registered after start-up, and keeps only the discovered tools', async () => {
    let refusal: unknown;
    @Injectable()
    class Plugin implements OnApplicationBootstrap {
      constructor(private readonly tools: ToolRegistry) {}
      onApplicationBootstrap(): void {
        try {
          this.tools.register(shell());
        } catch (e) {
          refusal = e;
        }
      }
    }
    @Module({ providers: [Plugin] })
    class PluginModule {}
    const app = await start({
      imports: [
        ScopeToolModule.forRoot({ manifest: MANIFEST, policies: [() => false] }),
        ClockModule,
        NotesModule,
        PluginModule,
      ],
    });
    const tools = app.get(ToolRegistry);
    expect(refusal).toMatchObject({ code: 'ERR_INVALID_REGISTRY' });
    expect((refusal as Error).message).toContain('ToolRegistry is sealed');
    expect(tools.definitions().map((d) => d.name)).toEqual(['add_note', 'now']);
    expect(tools.resolve('shell')).toBeUndefined();
    await expect(call(tools, 'now', '{}')).rejects.toMatchObject({ kind: 'rejected' });
    await app.close();
  });

  it('refuses a tool registered before start-up (a constructor), so start-up fails naming the module', async () => {
    @Injectable()
    class EarlyPlugin {
      constructor(tools: ToolRegistry) {
        tools.register(shell());
      }
    }
    @Module({ providers: [EarlyPlugin] })
    class EarlyModule {}
    const error = await startFailure({
      imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule, EarlyModule],
    });
    expect(error.message).toContain('ToolRegistry is sealed');
  });

  it('still accepts an empty batch (a no-op, as in Registry), and a separate Registry holds other tools', async () => {
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: MANIFEST }), ClockModule] });
    const tools = app.get(ToolRegistry);
    expect(() => tools.register()).not.toThrow();
    expect(new Registry(shell()).resolve('shell')).toBeDefined();
    await app.close();
  });
});
