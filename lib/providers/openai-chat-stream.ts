/**
 * Assembles the tool calls of a streamed Chat Completion (`stream: true`) from its chunks
 * (`ChatCompletionChunk`, SDK `openai`): each `choices[].delta.tool_calls[]` entry names its call by
 * `index`; the first entry of a call carries `id` and `function.name`, later ones carry
 * `function.arguments` fragments, concatenated in arrival order. Some OpenAI-compatible servers
 * (Gemini's) send entries without `index`, each call whole in one entry: an entry without `index`
 * that carries an id is a call of its own, one without either continues the last such call.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import {
  conflictingIdCalls,
  conflictingNameCall,
  contentAfter,
  endReason,
  isCallId,
  malformedCall,
  oneCallPerId,
  streamedWhole,
} from './tool-call';
import type { AssembledToolCall } from './tool-call';

interface PendingCall {
  id: string;
  /** Every distinct id the stream gave this index, the first first (more than one: ambiguous). */
  readonly ids: Set<string>;
  name: string;
  /** Every distinct non-empty name the stream gave this call, the first first (more than one: ambiguous). */
  readonly names: Set<string>;
  fragments: string[];
  /** Set once a delta carried `function.arguments` as a string (`""` included). */
  sawArguments: boolean;
}

/** Finish reasons after which the calls of a choice are whole (streamed or not). @internal */
export const CHAT_COMPLETE_REASONS: ReadonlySet<string> = new Set(['tool_calls', 'stop']);

/**
 * Collects tool-call fragments of one choice, chunk by chunk: the one assembler of the Chat
 * Completions stream format. `push` accepts anything and ignores what is not a well-formed chunk
 * (it never throws); `toolCalls()` can be read at any time, also when the stream broke off.
 *
 * ```ts
 * const assembler = new OpenAIChatStreamAssembler();
 * for await (const chunk of stream) assembler.push(chunk); // the SDK's stream of ChatCompletionChunk
 * // or a recorded `text/event-stream` body: for (const chunk of parseServerSentJson(text)) assembler.push(chunk);
 * const calls = assembler.toolCalls();
 * ```
 */
export class OpenAIChatStreamAssembler {
  readonly #choiceIndex: number;
  readonly #calls = new Map<number, PendingCall>();
  /** The calls of entries without `index`, in arrival order (each entry with an id opens one). */
  readonly #unindexed: PendingCall[] = [];
  #finishReason: string | null = null;

  /** @param choiceIndex - the choice to follow (default 0) */
  constructor(choiceIndex = 0) {
    this.#choiceIndex = choiceIndex;
  }

  /** Feeds one chunk (a `ChatCompletionChunk`, or any decoded SSE payload, which is checked). */
  push(chunk: ChatCompletionChunk | unknown): void {
    try {
      const choices = (chunk as ChatCompletionChunk | null)?.choices;
      if (!Array.isArray(choices)) return;
      for (const choice of choices) {
        if (choice?.index !== this.#choiceIndex) continue;
        const deltas = Array.isArray(choice.delta?.tool_calls) ? choice.delta.tool_calls : [];
        // After a finish reason the choice has ended: call text after it, or another reason, leaves
        // the batch unfinished (endReason, contentAfter).
        if (deltas.length > 0) this.#finishReason = contentAfter(this.#finishReason);
        for (const delta of deltas) this.#apply(delta);
        const reason: unknown = choice.finish_reason;
        if (typeof reason === 'string') this.#finishReason = endReason(this.#finishReason, reason);
      }
    } catch {
      // a hostile payload (throwing getters): ignored, like any malformed chunk
    }
  }

  /**
   * The calls assembled so far, by `index`. `complete` is true when the choice finished with
   * `tool_calls` or `stop`; otherwise (`length`, `content_filter`, no finish reason) each call's
   * arguments are the partial text received (possibly blank): admit the calls with
   * `prepareToolCall`, which refuses incomplete ones. A complete call whose deltas never carried
   * `function.arguments` as a string (an OpenAI-compatible server sent it null or not at all) is
   * `malformed` (see `ProviderToolCall`), and a call that never received a name has the name `""`:
   * `prepareToolCall` refuses both, so every call id gets exactly one result. Calls that never
   * received an id are skipped (they cannot be answered), and every other call of the stream is
   * then incomplete. Calls of entries without `index` follow the indexed ones, in arrival order:
   * each such entry that carries an id is a new call, and one without an id continues the last of
   * them (before any, it opens a call without an id: skipped, holding the batch). Every id yields exactly one call (`oneCallPerId` in `tool-call.ts`):
   * calls of two indexes (or two entries without `index`) sharing an id are one `malformed` call,
   * and an index the stream gave a second, different id is `malformed` under each of its ids, so
   * neither runs and each id gets one refusal; a call the stream gave a second, different tool name
   * (the same name repeated is one name) is `malformed` too (`conflictingNameCall`).
   */
  toolCalls(): AssembledToolCall[] {
    const indexed = [...this.#calls.entries()].sort(([a], [b]) => a - b);
    // A call without `index` has one id (only an entry carrying an id opens it): -1 is never shown.
    const all = [...indexed, ...this.#unindexed.map((call) => [-1, call] as const)];
    // A call that cannot be answered (its id never came, or was no string) is skipped, and holds
    // its batch: no sibling runs as if the batch were whole (third review: a call with id 7 vanished
    // and its sibling ran).
    const complete = streamedWhole(this.#finishReason, CHAT_COMPLETE_REASONS) && all.every(([, c]) => c.id !== '');
    const calls = all
      .filter(([, call]) => call.id !== '')
      .flatMap(([index, call]): AssembledToolCall[] => {
        if (call.ids.size > 1) return conflictingIdCalls([...call.ids], call.name, index, complete);
        if (call.names.size > 1) return [conflictingNameCall(call.id, [...call.names], complete)];
        return [
          complete && !call.sawArguments
            ? {
                ...malformedCall(call.id, call.name, 'the stream carried no function.arguments text for this call'),
                complete,
              }
            : { id: call.id, request: { name: call.name, arguments: call.fragments.join('') }, complete },
        ];
      });
    return oneCallPerId(calls);
  }

  #apply(delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const call = this.#callOf(delta);
    if (call === undefined) return;
    if (isCallId(delta.id)) {
      // The first id names the call; a different one later makes the call ambiguous (toolCalls).
      if (call.id === '') call.id = delta.id;
      call.ids.add(delta.id);
    }
    const fn = delta.function;
    // OpenAI sends the whole name in the call's first delta; compatible servers that repeat it in
    // every delta must not turn `get_weather` into `get_weatherget_weather`: the first name is the
    // call's. Regression (review b, finding 5): a later, different name was ignored, and the call
    // ran as the first tool while the SDK's accumulator keeps the last; the call is ambiguous now.
    if (typeof fn?.name === 'string' && fn.name !== '') {
      if (call.name === '') call.name = fn.name;
      call.names.add(fn.name);
    }
    if (typeof fn?.arguments === 'string') {
      call.fragments.push(fn.arguments);
      call.sawArguments = true;
    }
  }

  /**
   * The call an entry belongs to: by `index`, or, for an entry without one, a new call when it
   * carries an id, else the last such call. Regression (review b, finding 1): Gemini's entries,
   * which carry no index, were dropped, so the model's calls were never answered.
   */
  #callOf(delta: ChatCompletionChunk.Choice.Delta.ToolCall): PendingCall | undefined {
    const index: unknown = delta?.index;
    if (typeof index === 'number') {
      let call = this.#calls.get(index);
      if (call === undefined) {
        call = newCall();
        this.#calls.set(index, call);
      }
      return call;
    }
    // Before any call it could continue, an entry without an id opens one that never gets an id:
    // skipped, and it holds the batch (toolCalls).
    if (!isCallId(delta?.id) && this.#unindexed.length > 0) return this.#unindexed.at(-1);
    const call = newCall();
    this.#unindexed.push(call);
    return call;
  }
}

function newCall(): PendingCall {
  return { id: '', ids: new Set(), name: '', names: new Set(), fragments: [], sawArguments: false };
}
