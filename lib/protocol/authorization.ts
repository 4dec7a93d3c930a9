/**
 * Authorization at the universal Tool.call boundary. Ports `Authorization`, `Authorizer`,
 * `AuthorizerFunc`, `Guard`, `GuardConfig`, `NewGuard` and `AuthorizationError`.
 */
import type { WrappingTool } from './capability';
import type { Invocation } from './contract';
import { isInvocation, normalizedArguments } from './contract';
import type { Definition } from './definition';
import { snapshotDefinition } from './definition';
import { rewrap } from './detail';
import { ToolError, instanceOf, messageOf } from './errors';
import { Failure } from './failure';
import { authorizationFailedText, needsInvocation, notAuthorizedText, policyRefusedText } from './messages';
import { Output } from './output';
import type { Result } from './result';
import type { CallOptions, SyncForm, Tool } from './tool';
import { callNow, callOptionsOf, declareSyncForm, isToolShaped, promiseOf } from './tool';
import { abortReasonOf, isCallAborted } from './deadline';

/**
 * What a policy sees: the Guard's frozen definition and the invocation's normalized arguments (the
 * arguments as the tool receives them, see Invocation.normalizedArguments), so policy code judges
 * the value the tool runs with, and can neither bypass the Contract nor execute the invocation.
 * Ports Authorization (whose arguments are the admitted text: the seed's tools decode without
 * defaults or transforms, where the two texts are the same value).
 */
export class Authorization {
  readonly #definition: Definition;
  readonly #arguments: string;

  /**
   * The Guard passes its own snapshot, which is deep-frozen and already valid, so it is shared, not
   * copied (one per Guard, not one per call): nothing a policy does to it can change the definition
   * the Guard, its Contract or the tool use. Any other definition is validated and snapshotted.
   * @param definition - the tool definition (validated and snapshotted)
   * @param args - the arguments JSON text (a Guard passes Invocation.normalizedArguments; a string:
   *   immutable, so not copied either)
   * @throws ToolError ERR_INVALID_DEFINITION when `definition` is invalid
   */
  constructor(definition: Definition, args: string) {
    this.#definition = snapshotDefinition(definition);
    this.#arguments = String(args);
  }

  /** The guarded tool's definition (deep-frozen snapshot of the inner tool's own definition). */
  definition(): Definition {
    return this.#definition;
  }

  /**
   * The arguments JSON object text as the tool receives them: for a FuncTool with an encoder (every
   * dtoInput decoder, so every `@Tool()` method with a DTO), the decoded input encoded back, with the
   * defaults of absent members, `@Transform` results, `@Expose` wire names, nested DTOs and Dates
   * (RFC 3339 strings), members in the DTO's declared order; for any other tool, the admitted text
   * exactly as received. `JSON.parse` it to read a member.
   */
  get arguments(): string {
    return this.#arguments;
  }
}

/** A policy as a plain function. Ports AuthorizerFunc. */
export type AuthorizerFunc = (authorization: Authorization, options: CallOptions) => boolean | Promise<boolean>;

/**
 * A policy: `true` permits, `false` refuses; a throw, a rejection or a non-boolean decision means
 * "undecided" (fail closed). `options` carries the execution signal and the caller's context.
 * A plain AuthorizerFunc is accepted wherever an Authorizer is. Ports Authorizer.
 */
export interface Authorizer {
  authorize(authorization: Authorization, options: CallOptions): boolean | Promise<boolean>;
  /**
   * The listing check (optional, added, issue 14): may the caller of `options` (its `context`) see
   * this tool at all? Asked without arguments by `Registry.definitions(caller)` and
   * `Registry.visibleTo(caller)`: `true` lists the tool, `false` hides it, and a throw, a rejection
   * or a non-boolean hides it (fail closed). A policy without it keeps the tool listed (it needs
   * the arguments to decide). It should say `false` only where `authorize` would refuse every call
   * of this caller: `callerAuthorizer` builds both from one decision.
   */
  canList?(definition: Definition, options: CallOptions): boolean | Promise<boolean>;
}

/**
 * An Authorizer that decides by the caller and the tool only, never the arguments, so the same
 * decision both lists the tool (`canList`) and permits its calls (`authorize`): a caller sees
 * exactly the tools it may call. `decide` gets the tool's definition (its name, annotations, ...)
 * and the call options (`context`: the caller).
 */
export function callerAuthorizer(
  decide: (definition: Definition, options: CallOptions) => boolean | Promise<boolean>,
): Authorizer {
  if (typeof decide !== 'function') {
    throw new ToolError('ERR_INVALID_TOOL', 'callerAuthorizer needs a function (definition, options) => boolean');
  }
  return Object.freeze({
    authorize: (authorization: Authorization, options: CallOptions) => decide(authorization.definition(), options),
    canList: (definition: Definition, options: CallOptions) => decide(definition, options),
  });
}

/**
 * The policy could not establish a decision; the tool was not executed. Message
 * `tool: authorization for "NAME" failed`; the policy's error is `diagnosticCause`, never the
 * standard `cause`, so chain walkers and model-facing text never see it. Ports AuthorizationError.
 */
export class AuthorizationError extends Error {
  readonly #toolName: string;
  readonly #diagnosticCause: unknown;

  constructor(toolName: string, diagnosticCause?: unknown) {
    super(authorizationFailedText(toolName));
    this.name = 'AuthorizationError';
    this.#toolName = toolName;
    this.#diagnosticCause = diagnosticCause;
  }

  /** The guarded tool's name. */
  get toolName(): string {
    return this.#toolName;
  }

  /** The policy's diagnostic, for explicit inspection only. */
  get diagnosticCause(): unknown {
    return this.#diagnosticCause;
  }
}

/** Configuration of a Guard: the inner tool and its policy. Ports GuardConfig. */
export interface GuardConfig {
  readonly tool: Tool;
  readonly authorizer: Authorizer | AuthorizerFunc;
}

type Decide = (authorization: Authorization, options: CallOptions) => unknown;

const ABORTED = Symbol('aborted');

/** Settles with ABORTED when `signal` aborts (never, without a signal); `dispose` detaches it. */
function abortRace(signal: AbortSignal | undefined): { promise: Promise<typeof ABORTED>; dispose: () => void } {
  if (signal === undefined) return { promise: new Promise(() => undefined), dispose: () => undefined };
  let onAbort = (): void => undefined;
  const promise = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    if (signal.aborted) resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** What the policy decided, or how deciding failed (`aborted`: the signal won the race). */
type Outcome =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'decided'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: unknown };

/**
 * The policy's name for developer-facing text: a function's name, or an object's class name
 * (`requireScope`, `OwnerPolicy`); undefined when it has none (an anonymous function, a plain
 * object). Never throws (a hostile getter gives undefined).
 */
function policyName(authorizer: object): string | undefined {
  try {
    if (typeof authorizer === 'function') return authorizer.name !== '' ? authorizer.name : undefined;
    const cls = (Object.getPrototypeOf(authorizer) as { constructor?: unknown } | null)?.constructor;
    if (typeof cls === 'function' && cls !== Object && cls.name !== '') return cls.name;
  } catch {
    // a Proxy or getter that throws: no name
  }
  return undefined;
}

/** The synchronous form of Guard.call (set in its static block). */
let guardNow: SyncForm;

/**
 * A Tool that asks a policy before running its inner tool. Implements WrappingTool, so capabilities
 * (such as a FuncTool's input validator) resolve through it and admission runs before authorization.
 * The policy gets `new Authorization(definition, invocation.normalizedArguments)`: the arguments as
 * the inner tool receives them (a FuncTool's decoded input, defaults applied), read from the
 * invocation's private field. Ports Guard.
 */
export class Guard implements Tool, WrappingTool {
  readonly #tool: Tool;
  readonly #decide: Decide;
  readonly #list: ((definition: Definition, options: CallOptions) => unknown) | undefined;
  readonly #definition: Definition;
  /** The policy's name for developer-facing text (policyName), read once at construction. */
  readonly #policy: string | undefined;

  /**
   * Order: the authorizer (first, so an empty config reports it), the tool, then `definition()`
   * read exactly once, validated (not compiled) and snapshotted. Ports NewGuard.
   * @throws ToolError ERR_INVALID_TOOL: `authorizer is nil`, `authorization guard tool is nil`,
   *   `authorization guard definition: ...` (wrapping ERR_INVALID_DEFINITION)
   */
  constructor(config: GuardConfig) {
    const authorizer: unknown = typeof config === 'object' && config !== null ? config.authorizer : undefined;
    if (typeof authorizer === 'function') {
      this.#decide = (a, o) => (authorizer as AuthorizerFunc)(a, o);
    } else if (
      typeof authorizer === 'object' &&
      authorizer !== null &&
      typeof (authorizer as Authorizer).authorize === 'function'
    ) {
      this.#decide = (a, o) => (authorizer as Authorizer).authorize(a, o);
      if (typeof (authorizer as Authorizer).canList === 'function') {
        this.#list = (d, o) => (authorizer as Required<Authorizer>).canList(d, o);
      }
    } else {
      throw new ToolError('ERR_INVALID_TOOL', 'authorizer is nil; pass an object with authorize() or a function');
    }
    this.#policy = policyName(authorizer);
    const tool: unknown = config.tool;
    if (!isToolShaped(tool)) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        'authorization guard tool is nil; pass an object with definition() and call()',
      );
    }
    this.#tool = tool;
    try {
      this.#definition = snapshotDefinition(tool.definition());
    } catch (e) {
      throw rewrap(
        'ERR_INVALID_TOOL',
        instanceOf(e, ToolError) ? e : new Error(messageOf(e), { cause: e }),
        'authorization guard definition',
      );
    }
  }

  /** The definition snapshot taken at construction (deep-frozen). */
  definition(): Definition {
    return this.#definition;
  }

  /** The inner tool. */
  unwrap(): Tool {
    return this.#tool;
  }

  /** Whether the policy has a listing check (`Authorizer.canList`). */
  get hasListingCheck(): boolean {
    return this.#list !== undefined;
  }

  /**
   * The listing check of this Guard's policy for one caller (see Authorizer.canList): true without
   * a `canList`; else its decision, where a throw, a rejection or a non-boolean is false (fail
   * closed). A pending check is raced against `options.signal`.
   * @throws the abort reason when `options.signal` is aborted before or while it is decided
   */
  async listedFor(options?: CallOptions): Promise<boolean> {
    const list = this.#list;
    if (list === undefined) return true;
    const opts = callOptionsOf(options);
    if (isCallAborted(opts)) throw abortReasonOf(opts);
    let decided: unknown;
    const race = abortRace(opts.signal);
    try {
      const pending = Promise.resolve().then(() => list(this.#definition, opts));
      decided = await Promise.race([pending, race.promise]);
      if (decided === ABORTED) {
        pending.then(undefined, () => undefined);
        throw abortReasonOf(opts);
      }
    } catch {
      if (isCallAborted(opts)) throw abortReasonOf(opts);
      return false;
    } finally {
      race.dispose();
    }
    return decided === true;
  }

  /**
   * Asks the policy, then runs the inner tool. Order (docs/reference-semantics.md section 13,
   * docs/architecture.md section 3.11): an aborted
   * signal throws its reason as is (nothing called); the policy is raced against the signal (an
   * abort while it is pending throws the reason, and the tool never runs); a policy that throws,
   * rejects or decides a non-boolean gives an AuthorizationError, or
   * `AggregateError([reason, authorizationError])` when the signal is aborted by then; a decision
   * reached after an abort throws the reason; `false` throws a Failure of kind `rejected` with output
   * `error: tool "NAME" is not authorized` (what the model sees) and, as its diagnostic cause and so
   * its message, `tool: rejected: tool "NAME" was refused by policy POLICY` (the policy's function or
   * class name; Changed from the seed's cause-less `tool: rejected`, docs/architecture.md section 3.11);
   * `true` returns the inner tool's call, made with the very options the policy was asked with (a
   * frozen `{ signal, context, idempotencyKey }` read once, or the Binding's CallScope).
   * @throws the abort reason, AggregateError, AuthorizationError, Failure, or the inner tool's error
   */
  call(invocation: Invocation, options?: CallOptions): Promise<Result> {
    return promiseOf(guardNow, this, invocation, options);
  }

  static {
    guardNow = (tool, invocation, options) => (tool as Guard).#now(invocation, options);
    declareSyncForm(Guard.prototype.call, guardNow);
  }

  /**
   * The synchronous form of call (see SyncForm): a policy that decides at once costs no promise;
   * the inner tool is called through its own synchronous form when it has one.
   */
  #now(invocation: Invocation, options: CallOptions | undefined): unknown {
    const opts = callOptionsOf(options);
    // Read through isCallAborted: a Binding's CallScope makes its AbortSignal only when something
    // reads `signal` (lib/protocol/deadline.ts), which a policy that decides at once never does.
    if (isCallAborted(opts)) throw abortReasonOf(opts);
    if (!isInvocation(invocation)) {
      throw needsInvocation('Guard.call');
    }
    let returned: unknown;
    let pending: Promise<unknown> | undefined;
    try {
      // The normalized text, not the admitted one: a default or a transform the decoder applied is
      // what the tool runs with, so it is what the policy must judge (lib/protocol/contract.ts).
      returned = this.#decide(new Authorization(this.#definition, normalizedArguments(invocation)), opts);
      // Reading `then` is the policy's code too (a getter may throw): inside the try.
      if (typeof (returned as { then?: unknown } | null)?.then === 'function') pending = Promise.resolve(returned);
    } catch (e) {
      return this.#decided({ kind: 'error', error: e }, opts, invocation);
    }
    if (pending !== undefined) return this.#settle(pending, opts, invocation);
    return this.#decided({ kind: 'decided', value: returned }, opts, invocation);
  }

  /** Waits for a pending policy, raced against the signal, then goes on as #decided. */
  async #settle(pending: Promise<unknown>, opts: CallOptions, invocation: Invocation): Promise<unknown> {
    let outcome: Outcome;
    // A settled policy is listed first, so it wins over an abort that happened meanwhile.
    const race = abortRace(opts.signal);
    try {
      const settled = await Promise.race([pending, race.promise]);
      outcome = settled === ABORTED ? { kind: 'aborted' } : { kind: 'decided', value: settled };
    } catch (e) {
      outcome = { kind: 'error', error: e };
    } finally {
      race.dispose();
    }
    if (outcome.kind === 'aborted') {
      pending.then(undefined, () => undefined);
      throw abortReasonOf(opts);
    }
    return await this.#decided(outcome, opts, invocation);
  }

  /**
   * After the policy: throws what its outcome calls for (see call), or calls the inner tool (see
   * callNow: its Result when it settled at once, else a promise of it).
   */
  #decided(decision: Outcome, opts: CallOptions, invocation: Invocation): unknown {
    const name = this.#definition.name;
    let outcome = decision;
    if (outcome.kind === 'decided' && typeof outcome.value !== 'boolean') {
      const got = outcome.value === null ? 'null' : typeof outcome.value;
      outcome = { kind: 'error', error: new TypeError(`authorizer returned ${got}, expected a boolean`) };
    }
    if (outcome.kind === 'error') {
      const authError = new AuthorizationError(name, outcome.error);
      if (isCallAborted(opts)) {
        const reason = abortReasonOf(opts);
        throw new AggregateError([reason, authError], `${messageOf(reason)}\n${authError.message}`);
      }
      throw authError;
    }
    if (isCallAborted(opts)) throw abortReasonOf(opts);
    if (outcome.kind === 'decided' && outcome.value === false) {
      // The cause names the tool and the policy for the developer (the Failure's message, logs); the
      // model sees the output only, and chain walkers never reach a diagnostic cause.
      const cause = new Error(policyRefusedText(name, this.#policy));
      throw new Failure({ kind: 'rejected', output: Output.text(notAuthorizedText(name)), cause });
    }
    // The very options the policy was asked with: a caller's getter or a changed `context` cannot
    // show the tool another caller than the one the policy allowed.
    return callNow(this.#tool, invocation, opts);
  }
}
