/**
 * `ToolRegistry`: the application's Registry, as an injectable class (its own injection token).
 */
import { Registry } from '../protocol';

/**
 * The Registry ScopeToolModule fills with the tools of the discovered `@Toolset()` providers. Inject
 * it by class (`constructor(private readonly tools: ToolRegistry)`); it is a protocol Registry
 * (`resolve(name)`, `definitions()`), complete once the module's `onModuleInit` has run, which Nest
 * does before that of any non-global module when ScopeToolModule is global (the default).
 */
export class ToolRegistry extends Registry {}
