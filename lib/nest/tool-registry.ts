/**
 * `ToolRegistry`: the application's Registry, as an injectable class (its own injection token).
 */
import { Registry } from '../protocol';
import type { Binding, CallOptions, Definition, Tool } from '../protocol';
import { ScopeToolModuleError } from './messages';

/** The registries ScopeToolModule has filled (start-up succeeded). */
const filled = new WeakSet<object>();

/** The registries ScopeToolModule's start-up is filling right now (the one register() it makes). */
const filling = new WeakSet<object>();

/** Marks a registry as filled by ScopeToolModule's start-up. @internal */
export function markFilled(registry: object): void {
  filled.add(registry);
}

/**
 * Runs `fill` with `registry` open to register(): ScopeToolModule's one atomic batch of the discovered
 * toolsets. Closed again afterwards, whatever happens. @internal
 */
export function fillRegistry<T>(registry: object, fill: () => T): T {
  filling.add(registry);
  try {
    return fill();
  } finally {
    filling.delete(registry);
  }
}

/**
 * The Registry ScopeToolModule fills with the tools of the discovered `@Toolset()` providers. Inject
 * it by class (`constructor(private readonly tools: ToolRegistry)`); it is a protocol Registry
 * (`resolve(name)`, `definitions()`), complete once the module's `onModuleInit` has run, which Nest
 * does before that of any non-global module when ScopeToolModule is global (the default); global
 * modules run theirs first, in the order Nest found them (depth-first through the imports), so a
 * `@Global()` module imported before ScopeToolModule runs its hooks before it. Read before that (a
 * TestingModule compiled but not `init()`ed, a constructor that lists the tools, such a global
 * module's onModuleInit, a start-up that failed), it throws instead of answering as if no tool
 * existed.
 */
export class ToolRegistry extends Registry {
  /**
   * Sealed: the registry holds exactly the discovered `@Toolset()` providers' tools, checked against
   * the manifest and guarded by the `policies` and their `@Authorize()` policies. A tool registered
   * by hand would skip all three, so only ScopeToolModule's start-up registers (an empty batch is a
   * no-op, as in Registry). To add a tool, declare it in a `@Toolset()` provider and regenerate the
   * manifest; other tools belong in a Registry of their own (`new Registry(...)`).
   * @throws ScopeToolModuleError registry_sealed (ERR_INVALID_REGISTRY) for any non-empty batch not made by ScopeToolModule
   */
  override register(...tools: Tool[]): void {
    if (tools.length === 0) return;
    if (!filling.has(this)) throw new ScopeToolModuleError({ rule: 'registry_sealed' });
    super.register(...tools);
  }

  /**
   * See Registry.resolve.
   * @throws ScopeToolModuleError registry_not_ready (ERR_INVALID_REGISTRY) when called before ScopeToolModule filled the registry
   */
  override resolve(name: string): Binding | undefined {
    if (!filled.has(this)) throw new ScopeToolModuleError({ rule: 'registry_not_ready', method: 'resolve' });
    return super.resolve(name);
  }

  /**
   * See Registry.definitions.
   * @throws ScopeToolModuleError registry_not_ready (ERR_INVALID_REGISTRY) when called before ScopeToolModule filled the registry
   */
  override definitions(): Definition[];
  override definitions(caller: CallOptions): Promise<Definition[]>;
  override definitions(caller?: CallOptions): Definition[] | Promise<Definition[]> {
    if (!filled.has(this)) throw new ScopeToolModuleError({ rule: 'registry_not_ready', method: 'definitions' });
    return caller === undefined ? super.definitions() : super.definitions(caller);
  }
}
