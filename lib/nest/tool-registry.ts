/**
 * `ToolRegistry`: the application's Registry, as an injectable class (its own injection token).
 */
import { Registry } from '../protocol';
import type { Binding, Definition } from '../protocol';
import { registryNotReady } from './messages';

/** The registries ScopeToolModule has filled (start-up succeeded). */
const filled = new WeakSet<object>();

/** Marks a registry as filled by ScopeToolModule's start-up. @internal */
export function markFilled(registry: object): void {
  filled.add(registry);
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
   * See Registry.resolve.
   * @throws ToolError ERR_INVALID_REGISTRY when called before ScopeToolModule filled the registry
   */
  override resolve(name: string): Binding | undefined {
    if (!filled.has(this)) throw registryNotReady('resolve');
    return super.resolve(name);
  }

  /**
   * See Registry.definitions.
   * @throws ToolError ERR_INVALID_REGISTRY when called before ScopeToolModule filled the registry
   */
  override definitions(): Definition[] {
    if (!filled.has(this)) throw registryNotReady('definitions');
    return super.definitions();
  }
}
