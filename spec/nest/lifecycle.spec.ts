/**
 * The registry's own instance of a transient toolset or policy gets the lifecycle hooks Nest gives
 * every consumer's instance: onModuleInit and onApplicationBootstrap at start-up, onModuleDestroy,
 * beforeApplicationShutdown and onApplicationShutdown at app.close().
 */
import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { ScopeToolModule, ToolRegistry } from '../../lib/nest';
import { Authorize, Tool, Toolset } from '../../lib/decorators';
import { entry, manifest } from '../container/fixtures';
import { call, start } from './fixtures';

const HOOKS = ['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/** Records every hook call as `<hook> #<serial>`. */
function hooked(log: string[], serial: number): Record<(typeof HOOKS)[number], () => void> {
  return Object.fromEntries(HOOKS.map((hook) => [hook, () => void log.push(`${hook} #${serial}`)])) as Record<(typeof HOOKS)[number], () => void>;
}

describe('lifecycle hooks of the registry’s own transient instances', () => {
  it('calls every hook once on the registry’s instance of a transient toolset, as Nest does on a consumer’s', async () => {
    const log: string[] = [];
    let created = 0;
    @Toolset()
    @Injectable({ scope: Scope.TRANSIENT })
    class Clock {
      readonly serial = ++created;
      ready = false;
      onModuleInit(): void {
        this.ready = true;
        log.push(`onModuleInit #${this.serial}`);
      }
      onApplicationBootstrap(): void {
        log.push(`onApplicationBootstrap #${this.serial}`);
      }
      onModuleDestroy(): void {
        log.push(`onModuleDestroy #${this.serial}`);
      }
      beforeApplicationShutdown(signal?: string): void {
        log.push(`beforeApplicationShutdown #${this.serial} ${signal}`);
      }
      onApplicationShutdown(signal?: string): void {
        log.push(`onApplicationShutdown #${this.serial} ${signal}`);
      }
      @Tool()
      now(): string {
        return this.ready ? `ready #${this.serial}` : `not ready #${this.serial}`;
      }
    }
    @Injectable()
    class Consumer {
      constructor(readonly clock: Clock) {}
    }
    @Module({ providers: [Clock, Consumer] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }), ClockModule] });
    const consumer = app.get(Consumer, { strict: false }).clock.serial;
    const result = await call(app.get(ToolRegistry), 'now', '{}');
    const own = Number(/#(\d+)$/.exec('output' in result ? (result.output.asText() ?? '') : '')?.[1]);
    expect(own).not.toBe(consumer);
    expect('output' in result && result.output.asText()).toBe(`ready #${own}`);
    const started = [...log].sort();
    expect(started).toEqual([`onApplicationBootstrap #${consumer}`, `onApplicationBootstrap #${own}`, `onModuleInit #${consumer}`, `onModuleInit #${own}`].sort());
    await app.close();
    const stopped = log.slice(4).sort();
    expect(stopped).toEqual(
      [
        `onModuleDestroy #${consumer}`,
        `onModuleDestroy #${own}`,
        `beforeApplicationShutdown #${consumer} undefined`,
        `beforeApplicationShutdown #${own} undefined`,
        `onApplicationShutdown #${consumer} undefined`,
        `onApplicationShutdown #${own} undefined`,
      ].sort(),
    );
  });

  it('calls the hooks of the registry’s instance of a transient policy and of a transient factory toolset, in Nest’s phase order', async () => {
    const log: string[] = [];
    class Counted {
      constructor() {
        Object.assign(this, hooked(log, 1));
      }
      authorize(): boolean {
        return true;
      }
    }
    @Toolset()
    @Authorize(Counted)
    class Clock {
      constructor() {
        Object.assign(this, hooked(log, 2));
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({
      providers: [
        { provide: Counted, scope: Scope.TRANSIENT, useFactory: () => new Counted() },
        { provide: Clock, scope: Scope.TRANSIENT, useFactory: () => new Clock() },
      ],
    })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }), ClockModule] });
    expect(log).toEqual(['onModuleInit #2', 'onModuleInit #1', 'onApplicationBootstrap #2', 'onApplicationBootstrap #1']);
    await app.close();
    expect(log.slice(4)).toEqual([
      'onModuleDestroy #2',
      'onModuleDestroy #1',
      'beforeApplicationShutdown #2',
      'beforeApplicationShutdown #1',
      'onApplicationShutdown #2',
      'onApplicationShutdown #1',
    ]);
  });

  it('does not call the hooks of a default-scoped toolset twice (Nest calls them)', async () => {
    const log: string[] = [];
    @Toolset()
    @Injectable()
    class Clock {
      constructor() {
        Object.assign(this, hooked(log, 1));
      }
      @Tool()
      now(): string {
        return 'noon';
      }
    }
    @Module({ providers: [Clock] })
    class ClockModule {}
    const app = await start({ imports: [ScopeToolModule.forRoot({ manifest: manifest(entry('now', 'Clock', 'now', null)) }), ClockModule] });
    await app.close();
    expect(log).toEqual(HOOKS.map((hook) => `${hook} #1`));
  });
});
