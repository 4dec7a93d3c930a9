/**
 * MCP progress (`notifications/progress`) for one `tools/call`, sent only when the client asked
 * for it with `_meta.progressToken`.
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** Reports the progress of one call; a no-op when the client sent no progress token. */
export interface ProgressReporter {
  /** Whether the client asked for progress (sent a `progressToken`). */
  readonly requested: boolean;
  /**
   * Sends one step: `progress` grows by one per step (MCP requires it to increase); `message`
   * is for the person watching (never a diagnostic). Resolves once the notification is handed
   * to the transport (so a step sent before the response arrives before it); never rejects.
   */
  step(message: string): Promise<void>;
}

/**
 * Builds the reporter of one call.
 * @param token - `_meta.progressToken` of the request (string or number), or undefined
 * @param send - the request's `sendNotification`
 * @param onError - receives a failure to send (the call goes on)
 */
export function progressReporter(
  token: unknown,
  send: (notification: ServerNotification) => Promise<void>,
  onError: (error: unknown) => void,
): ProgressReporter {
  if (typeof token !== 'string' && typeof token !== 'number') return NO_PROGRESS;
  let progress = 0;
  return {
    requested: true,
    // Reads no `this`: `reporter.step` may be handed on alone (McpCallInfo.progress).
    step(message: string): Promise<void> {
      progress += 1;
      return send({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(
        onError,
      );
    },
  };
}

/** The reporter of every call whose client asked for no progress: one, shared (it holds no state). */
const NO_PROGRESS: ProgressReporter = Object.freeze({ requested: false, step: () => Promise.resolve() });
