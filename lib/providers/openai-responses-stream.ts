/**
 * Assembles the function calls of a streamed Responses API response (`stream: true`) from its
 * events (`ResponseStreamEvent`, SDK `openai`): `response.output_item.added` opens a
 * `function_call` item (call_id, name), `response.function_call_arguments.delta` events carry
 * argument fragments (concatenated in arrival order), `response.function_call_arguments.done`
 * carries the final arguments text, `response.output_item.done` closes the item, and the terminal
 * event (`response.completed`, `response.incomplete`, `response.failed`) ends the response.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { RESPONSES_COMPLETE_STATUSES } from './openai-responses';
import {
  conflictingIdCalls,
  conflictingNameCall,
  contentAfter,
  endReason,
  finishedWhole,
  malformedCall,
  oneCallPerId,
  streamedWhole,
} from './tool-call';
import type { AssembledToolCall } from './tool-call';

/** The terminal events of a response stream, and the status each stands for when its `response` has none. */
const TERMINAL_STATUSES: ReadonlyMap<string, string> = new Map([
  ['response.completed', 'completed'],
  ['response.incomplete', 'incomplete'],
  ['response.failed', 'failed'],
]);

interface PendingCall {
  readonly callId: string;
  /** Every distinct call_id the stream gave this output index, the first first (more than one: ambiguous). */
  readonly ids: Set<string>;
  readonly name: string;
  /** Every tool name the items of this call gave (added, then done): more than one is ambiguous. */
  readonly names: Set<string>;
  readonly fragments: string[];
  final: string | undefined;
  done: boolean;
  /** Set once any event carried the arguments as a string (`""` included). */
  sawArguments: boolean;
}

/**
 * Collects function calls event by event, keyed by `output_index`: the one assembler of the
 * Responses stream format. `push` accepts anything and ignores what is not a well-formed event (it
 * never throws); `toolCalls()` can be read at any time, also after a stream broke off.
 *
 * ```ts
 * const assembler = new OpenAIResponsesStreamAssembler();
 * for await (const event of stream) assembler.push(event); // the SDK's stream of ResponseStreamEvent
 * // or a recorded `text/event-stream` body: for (const event of parseServerSentJson(text)) assembler.push(event);
 * const calls = assembler.toolCalls();
 * ```
 */
export class OpenAIResponsesStreamAssembler {
  readonly #calls = new Map<number, PendingCall>();
  /** Items a second `output_item.added` with the same call_id replaced at their index, in order. */
  readonly #replaced: Array<readonly [number, PendingCall]> = [];
  /** The response's status, as the terminal event gave it (none yet: the stream has not ended). */
  #status: string | null = null;
  /** A function_call item without a string call_id was seen: skipped, and the batch not whole. */
  #unidentified = false;

  /** Feeds one event (a `ResponseStreamEvent`, or any decoded SSE payload, which is checked). */
  push(event: ResponseStreamEvent | unknown): void {
    try {
      const e = event as ResponseStreamEvent | null;
      if (e === null || typeof e !== 'object') return;
      const terminal = TERMINAL_STATUSES.get(e.type);
      if (terminal !== undefined) {
        // Regression (review b, finding 2): terminal events carry no output_index and were dropped,
        // so a response cut by max_output_tokens ran the calls that had finished.
        const given = (e as { response?: { status?: unknown } }).response?.status;
        // The first terminal status stands; another after it, or output after it, is no whole turn.
        this.#status = endReason(this.#status, typeof given === 'string' ? given : terminal);
        return;
      }
      if (typeof (e as { output_index?: unknown }).output_index !== 'number') return;
      this.#status = contentAfter(this.#status);
      const index = (e as { output_index: number }).output_index;
      if (e.type === 'response.output_item.added') {
        const item = e.item;
        if (item?.type !== 'function_call') return;
        if (typeof item.call_id !== 'string') {
          this.#unidentified = true; // a call that cannot be answered holds its batch (toolCalls)
          return;
        }
        const earlier = this.#calls.get(index);
        if (earlier !== undefined && earlier.callId !== item.call_id) {
          // A second item at one output index: the call is ambiguous, whatever follows (toolCalls).
          earlier.ids.add(item.call_id);
          return;
        }
        // A second item with the same call_id at the same index (review b, finding 4, as in the
        // Anthropic stream): both are kept, two calls sharing an id, one malformed call (toolCalls).
        if (earlier !== undefined) this.#replaced.push([index, earlier]);
        const name = typeof item.name === 'string' ? item.name : '';
        const sawArguments = typeof item.arguments === 'string';
        const initial = sawArguments && item.arguments !== '' ? [item.arguments] : [];
        const ids = new Set([item.call_id]);
        this.#calls.set(index, {
          callId: item.call_id,
          ids,
          name,
          names: new Set(name === '' ? [] : [name]),
          fragments: initial,
          final: undefined,
          done: false,
          sawArguments,
        });
        return;
      }
      const pending = this.#calls.get(index);
      if (pending === undefined || pending.done) return;
      const itemId = (e as { item?: { call_id?: unknown } }).item?.call_id;
      if (typeof itemId === 'string' && itemId !== '') pending.ids.add(itemId);
      if (e.type === 'response.function_call_arguments.delta' && typeof e.delta === 'string') {
        pending.fragments.push(e.delta);
        pending.sawArguments = true;
      } else if (e.type === 'response.function_call_arguments.done' && typeof e.arguments === 'string') {
        pending.final = e.arguments;
        pending.sawArguments = true;
      } else if (e.type === 'response.output_item.done' && e.item?.type === 'function_call') {
        // The done item is what the SDK's final response keeps: a name it changes makes the call
        // ambiguous (second review: added `lookup`, done `refund_all` ran `lookup`).
        if (typeof e.item.name === 'string' && e.item.name !== '') pending.names.add(e.item.name);
        if (typeof e.item.arguments === 'string' && pending.final === undefined) pending.final = e.item.arguments;
        if (typeof e.item.arguments === 'string') pending.sawArguments = true;
        pending.done = finishedWhole(e.item.status, RESPONSES_COMPLETE_STATUSES);
      }
    } catch {
      // a hostile payload (throwing getters): ignored, like any malformed event
    }
  }

  /**
   * The calls assembled so far, by output index. A call is `complete` once its
   * `response.output_item.done` arrived (with the status `completed`, or none) and the response
   * ended `completed`: its terminal event is `response.completed` (or gives that `status`). After
   * `response.incomplete` (cut by `max_output_tokens`) or `response.failed`, and when the stream
   * broke off before a terminal event, every call is incomplete, the finished items too, as
   * `openAIResponsesToolCalls` marks the calls of such a response (see `streamedWhole`). A
   * finished call's arguments are the final text the server sent (`function_call_arguments.done`,
   * else the done item's), or the fragments when no final text came. An unfinished call holds
   * exactly the fragments received (possibly blank): admit the calls with `prepareToolCall`, which
   * refuses incomplete ones. A finished call whose events never carried the arguments as a string
   * is `malformed` (see `ProviderToolCall`), and a call opened without a name has the name `""`:
   * `prepareToolCall` refuses both, so every call id gets exactly one result. Every id yields
   * exactly one call (`oneCallPerId` in `tool-call.ts`): items sharing a `call_id` are one
   * `malformed` call, a second item added with the same `call_id` at the same output index
   * included, and an output index the stream gave a second, different `call_id` is `malformed`
   * under each of them.
   */
  toolCalls(): AssembledToolCall[] {
    // A batch with a call whose item never ended is not whole either, whatever the status says
    // (as in the Anthropic stream: no call of a batch runs while another was cut).
    const pending = [...this.#replaced, ...this.#calls.entries()];
    const whole =
      streamedWhole(this.#status, RESPONSES_COMPLETE_STATUSES) &&
      !this.#unidentified &&
      pending.every(([, c]) => c.done);
    const calls = pending
      .sort(([a], [b]) => a - b)
      .flatMap(([index, call]): AssembledToolCall[] => {
        if (call.ids.size > 1) return conflictingIdCalls([...call.ids], call.name, index, whole);
        if (call.names.size > 1) return [conflictingNameCall(call.callId, [...call.names], whole)];
        return [
          call.done && !call.sawArguments
            ? {
                ...malformedCall(call.callId, call.name, 'the stream carried no arguments text for this call'),
                complete: whole,
              }
            : {
                id: call.callId,
                request: {
                  name: call.name,
                  arguments: call.done && call.final !== undefined ? call.final : call.fragments.join(''),
                },
                complete: whole,
              },
        ];
      });
    return oneCallPerId(calls);
  }
}
