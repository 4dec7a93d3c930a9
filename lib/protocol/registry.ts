/**
 * An instance-scoped set of bound tools, keyed by name. Ports `Registry` and `NewRegistry`.
 */
import type { Binding } from './binding';
import { bind } from './binding';
import type { Definition } from './definition';
import { rewrap } from './detail';
import { ToolError, goQuote, instanceOf } from './errors';
import type { CallOptions, Tool } from './tool';

/**
 * Bound tools by exact name. Synchronous and Map-based (docs/architecture.md section 3.12), so `toString`,
 * `constructor` or `__proto__` are ordinary names and a batch is atomic without locks.
 * Registration snapshots definitions (bind reads each once). Ports Registry.
 */
export class Registry {
  readonly #bindings = new Map<string, Binding>();
  /** The sorted definitions, computed on first use after a registration (they never change). */
  #sorted: readonly Definition[] | undefined;

  /**
   * Creates a registry holding `tools` (one atomic batch). Ports NewRegistry.
   * @throws ToolError as register does
   */
  constructor(...tools: Tool[]) {
    this.register(...tools);
  }

  /**
   * Binds and adds a batch, all or nothing. Per index in batch order: bind (`tools[i]: ...`,
   * ERR_INVALID_TOOL), then a duplicate name inside the batch; then, in batch order, names already
   * registered. An empty batch is a no-op. Ports Registry.Register.
   * @throws ToolError ERR_INVALID_TOOL (`tools[i]: <bind error>`) or ERR_DUPLICATE_TOOL
   *   (`tools[i]: "NAME" appears more than once in batch` / `tools[i]: "NAME" is already registered`)
   */
  register(...tools: Tool[]): void {
    const pending = new Map<string, { binding: Binding; index: number }>();
    tools.forEach((tool, index) => {
      let binding: Binding;
      try {
        binding = bind(tool);
      } catch (e) {
        throw instanceOf(e, ToolError)
          ? rewrap(e.code, e, `tools[${index}]`)
          : rewrap('ERR_INVALID_TOOL', e, `tools[${index}]`);
      }
      const name = binding.contract.name;
      const earlier = pending.get(name);
      if (earlier !== undefined) {
        throw new ToolError(
          'ERR_DUPLICATE_TOOL',
          `tools[${index}]: ${goQuote(name)} appears more than once in batch (also tools[${earlier.index}]); give each tool a unique name`,
        );
      }
      pending.set(name, { binding, index });
    });
    for (const [name, { index }] of pending) {
      if (this.#bindings.has(name)) {
        throw new ToolError(
          'ERR_DUPLICATE_TOOL',
          `tools[${index}]: ${goQuote(name)} is already registered; rename one of the tools`,
        );
      }
    }
    for (const [name, { binding }] of pending) this.#bindings.set(name, binding);
    if (pending.size > 0) this.#sorted = undefined;
  }

  /**
   * The binding registered under exactly `name`, or undefined. The same Binding (and Contract) is
   * returned every time, so invocations prepared through one resolve run through another. Ports Resolve.
   */
  resolve(name: string): Binding | undefined {
    return this.#bindings.get(name);
  }

  /**
   * The registered definitions, sorted ascending by name (code unit order), in a fresh array of
   * deep-frozen snapshots. Ports Registry.Definitions. The sorted list is kept until the next
   * registration (bindings and their snapshots never change), so a repeated call (MCP `tools/list`)
   * only copies the array.
   *
   * With `caller` (added, issue 14): a Promise of the definitions that caller may see, the same
   * order, as `visibleTo(caller)` decides: pass them to a provider export
   * (`exportOpenAIChatTools(await registry.definitions({ context }))`).
   * @throws (the Promise rejects with) the abort reason when `caller.signal` aborts
   */
  definitions(): Definition[];
  definitions(caller: CallOptions): Promise<Definition[]>;
  definitions(caller?: CallOptions): Definition[] | Promise<Definition[]> {
    if (caller !== undefined) return this.visibleTo(caller).then((view) => view.definitions());
    let sorted = this.#sorted;
    if (sorted === undefined) {
      const names = [...this.#bindings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      sorted = this.#sorted = names.map((name) => (this.#bindings.get(name) as Binding).contract.definition());
    }
    return sorted.slice();
  }

  /**
   * The registry as one caller sees it (added, issue 14): a new Registry holding the same Bindings
   * (same contracts, so an invocation prepared through one runs through the other) of the tools
   * whose listing checks permit `caller` (Binding.listedFor: every Guard's `Authorizer.canList`,
   * asked without arguments; a policy without one keeps the tool). A tool the caller may not see
   * is absent: `resolve` gives undefined and `prepareToolCall` refuses it exactly as an unknown
   * tool, listing only the caller's tools, so nothing tells the caller that it exists. The view
   * is a snapshot: tools registered later are not in it.
   * @param caller - the call options of this caller (`context`: identity, tenancy; `signal`)
   * @throws (the Promise rejects with) the abort reason when `caller.signal` aborts
   */
  async visibleTo(caller: CallOptions): Promise<Registry> {
    const names = this.definitions().map((d) => d.name);
    const bindings = names.map((name) => this.#bindings.get(name) as Binding);
    const listed = await Promise.all(bindings.map((binding) => binding.listedFor(caller)));
    const view = new Registry();
    names.forEach((name, i) => {
      if (listed[i]) view.#bindings.set(name, bindings[i]);
    });
    return view;
  }

  /** Whether some registered tool has a listing check (Binding.hasListingCheck). */
  get hasListingChecks(): boolean {
    return [...this.#bindings.values()].some((binding) => binding.hasListingCheck);
  }
}
