/**
 * Assembles the tool calls of a streamed Anthropic message (`stream: true`) from its events
 * (`RawMessageStreamEvent`, SDK `@anthropic-ai/sdk`): `content_block_start` opens a `tool_use`
 * block (id, name, initial `input`), `content_block_delta` events of type `input_json_delta` carry
 * `partial_json` fragments (concatenated in arrival order), `content_block_stop` closes the block.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { ANTHROPIC_COMPLETE_REASONS } from './anthropic-messages';
import {
  argumentsText,
  conflictingIdCalls,
  contentAfter,
  endReason,
  malformedCall,
  oneCallPerId,
  streamedWhole,
} from './tool-call';
import type { AssembledToolCall } from './tool-call';

interface PendingBlock {
  readonly id: string;
  /** Every distinct id the stream gave this block index, the first first (more than one: ambiguous). */
  readonly ids: Set<string>;
  readonly name: string;
  readonly initialInput: unknown;
  readonly fragments: string[];
  stopped: boolean;
}

/**
 * Collects `tool_use` blocks event by event: the one assembler of the Messages stream format.
 * `push` accepts anything and ignores what is not a well-formed event (it never throws);
 * `toolCalls()` can be read at any time, also after a stream broke off.
 *
 * ```ts
 * const assembler = new AnthropicStreamAssembler();
 * for await (const event of stream) assembler.push(event); // the SDK's stream of RawMessageStreamEvent
 * // or a recorded `.sse` body: for (const event of parseServerSentJson(text)) assembler.push(event);
 * const calls = assembler.toolCalls();
 * ```
 */
export class AnthropicStreamAssembler {
  readonly #blocks = new Map<number, PendingBlock>();
  /** Blocks a second start with the same id replaced at their index, with that index, in order. */
  readonly #replaced: Array<readonly [number, PendingBlock]> = [];
  #stopReason: string | null = null;
  /** A tool_use block without a string id was seen: skipped, and the batch not whole. */
  #unidentified = false;

  /** Feeds one event (a `RawMessageStreamEvent`, or any decoded SSE payload, which is checked). */
  push(event: RawMessageStreamEvent | unknown): void {
    try {
      const e = event as RawMessageStreamEvent | null;
      if (e !== null && typeof e === 'object' && e.type === 'message_delta') {
        const reason = e.delta?.stop_reason;
        // The first reason stands; another after it, or a block after it, leaves the batch unfinished.
        if (typeof reason === 'string') this.#stopReason = endReason(this.#stopReason, reason);
        return;
      }
      if (e === null || typeof e !== 'object' || typeof (e as { index?: unknown }).index !== 'number') return;
      this.#stopReason = contentAfter(this.#stopReason);
      if (e.type === 'content_block_start') {
        const block = e.content_block;
        if (block?.type !== 'tool_use') return;
        if (typeof block.id !== 'string') {
          this.#unidentified = true; // a call that cannot be answered holds its batch (toolCalls)
          return;
        }
        const earlier = this.#blocks.get(e.index);
        if (earlier !== undefined && earlier.id !== block.id) {
          // A second tool_use at one block index: the call is ambiguous, whatever follows (toolCalls).
          earlier.ids.add(block.id);
          return;
        }
        // Regression (review b, finding 4): a second start with the same id at the same index replaced
        // the first block silently. Both are kept: two calls sharing an id, one malformed call (toolCalls).
        if (earlier !== undefined) this.#replaced.push([e.index, earlier]);
        const name = typeof block.name === 'string' ? block.name : '';
        const ids = new Set([block.id]);
        this.#blocks.set(e.index, {
          id: block.id,
          ids,
          name,
          initialInput: block.input,
          fragments: [],
          stopped: false,
        });
      } else if (e.type === 'content_block_delta') {
        const pending = this.#blocks.get(e.index);
        if (pending === undefined || pending.stopped || e.delta?.type !== 'input_json_delta') return;
        if (typeof e.delta.partial_json === 'string') pending.fragments.push(e.delta.partial_json);
      } else if (e.type === 'content_block_stop') {
        const pending = this.#blocks.get(e.index);
        if (pending !== undefined) pending.stopped = true;
      }
    } catch {
      // a hostile payload (throwing getters): ignored, like any malformed event
    }
  }

  /**
   * The tool calls assembled so far, by block index. A stopped block is `complete`; its arguments
   * are the concatenated fragments, or, when no fragment carried text, the start event's `input`
   * written as JSON text (`{}`), as the SDK does, by the iterative encoder (`argumentsText` in
   * `tool-call.ts`): an `input` that is not JSON data makes the call `malformed`, never `{}`. A
   * block that never stopped is incomplete; its arguments are exactly the fragments received (the
   * partial text, possibly blank): admit the calls with `prepareToolCall`, which refuses incomplete
   * ones. A block started without a name has the name `""`, which `prepareToolCall` refuses.
   * Unless a `message_delta` gave the `stop_reason` `tool_use` or `end_turn`, every call is
   * incomplete: another reason (`max_tokens`) as `anthropicToolCalls` marks them, and no reason
   * because the stream broke off before its end, as the Chat stream assembler marks a choice with no
   * `finish_reason` (see `streamedWhole`); a stopped block included (`complete` says the batch was
   * finished, not only the block). Every id yields exactly one call (`oneCallPerId` in
   * `tool-call.ts`): blocks sharing an id are one `malformed` call, a second block started with the
   * same id at the same index included, and a block index the stream gave a second, different id is
   * `malformed` under each of them.
   */
  toolCalls(): AssembledToolCall[] {
    // Regression (review b, finding 3): a stream that broke off before message_delta (no
    // stop_reason) ran the blocks that had stopped, a batch the model never finished.
    // So is a batch with a block that never stopped, whatever the stop reason says (second review:
    // block 0 ran while block 1, never stopped, was refused).
    const blocks = [...this.#replaced, ...this.#blocks.entries()];
    const whole =
      streamedWhole(this.#stopReason, ANTHROPIC_COMPLETE_REASONS) &&
      !this.#unidentified &&
      blocks.every(([, b]) => b.stopped);
    const calls = blocks
      .sort(([a], [b]) => a - b)
      .flatMap(([index, block]): AssembledToolCall[] => {
        if (block.ids.size > 1) return conflictingIdCalls([...block.ids], block.name, index, whole);
        const streamed = block.fragments.join('');
        if (!block.stopped || streamed.trim() !== '') {
          return [{ id: block.id, request: { name: block.name, arguments: streamed }, complete: whole }];
        }
        const { text, malformed } = argumentsText(block.initialInput ?? {}, `content block ${index} input`);
        if (malformed !== undefined) return [{ ...malformedCall(block.id, block.name, malformed), complete: whole }];
        return [{ id: block.id, request: { name: block.name, arguments: text }, complete: whole }];
      });
    return oneCallPerId(calls);
  }
}
