import {
  argumentsRefused,
  authorizationFailedText,
  needsInvocation,
  missingJsonText,
  notJsonText,
  notAuthorizedText,
  policyRefusedText,
  wireJsonRefused,
} from '../../lib/protocol/messages';
import type { AdmissionIssue } from '../../lib/protocol';

// The one place the shared protocol sentences are pinned; other specs assert codes and fields.
const issue: AdmissionIssue = { code: 'schema', path: ['days'], keyword: 'type', message: '/days: must be integer' };

describe('protocol messages', () => {
  it('refused arguments: the seed prefix, then the first issue, with every issue attached', () => {
    const second: AdmissionIssue = { code: 'schema', path: ['city'], keyword: 'required', message: 'x' };
    const err = argumentsRefused([issue, second]);
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toBe('tool: invalid invocation: arguments: /days: must be integer');
    expect(err.issues).toEqual([issue, second]);
  });

  it('refused wire JSON: the sentinel of the given code, then the issue', () => {
    const err = wireJsonRefused('ERR_INVALID_OUTPUT', issue);
    expect(err.code).toBe('ERR_INVALID_OUTPUT');
    expect(err.message).toBe('tool: invalid output: wire JSON: /days: must be integer');
    expect(err.issues).toEqual([issue]);
  });

  it('an invocation that Contract.prepare did not create names the caller', () => {
    const err = needsInvocation('Guard.call');
    expect(err.code).toBe('ERR_INVALID_INVOCATION');
    expect(err.message).toBe('tool: invalid invocation: Guard.call needs an Invocation from Contract.prepare()');
  });

  it('authorization texts keep the Go seed wording, with Go quoting', () => {
    expect(notAuthorizedText('delete_note')).toBe('error: tool "delete_note" is not authorized');
    expect(notAuthorizedText('a"b')).toBe('error: tool "a\\"b" is not authorized');
    expect(authorizationFailedText('delete_note')).toBe('tool: authorization for "delete_note" failed');
    expect(authorizationFailedText('')).toBe('tool: authorization failed');
  });

  it('an InputRequest text that is not JSON says to JSON.stringify plain text', () => {
    const bad: AdmissionIssue = { code: 'invalid_json', path: [], offset: 0, message: 'unexpected character "D"' };
    const err = notJsonText('prompt', 'Delete 3 files?', bad);
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(err.message).toBe(
      'tool: invalid input request: prompt must be JSON text: unexpected character "D"; for plain text pass JSON.stringify("Delete 3 files?")',
    );
    expect(notJsonText('response', 'x'.repeat(65), bad).message).toContain('pass JSON.stringify(text)');
    expect(err.issues).toEqual([bad]);
  });

  it('a JSON text of an input request not given: missing, and what to pass', () => {
    const err = missingJsonText('continuation state');
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(err.message).toBe(
      "tool: invalid input request: continuation state is missing; pass continuationState, the tool's checkpoint as JSON text that resume hands back: JSON.stringify({ step: 1 }), or JSON.stringify(null) when there is nothing to keep",
    );
    expect(missingJsonText('prompt').message).toBe(
      'tool: invalid input request: prompt is missing; pass prompt, the question as JSON text: JSON.stringify("Send it?")',
    );
    expect(missingJsonText('response').message).toBe(
      'tool: invalid input request: response is missing; pass the answer as JSON text that satisfies the response schema: JSON.stringify(true)',
    );
  });

  it('a policy refusal names the tool and the policy for the developer', () => {
    expect(policyRefusedText('delete_note', 'OwnerPolicy')).toBe(
      'tool: rejected: tool "delete_note" was refused by policy OwnerPolicy',
    );
    expect(policyRefusedText('delete_note', undefined)).toBe(
      'tool: rejected: tool "delete_note" was refused by an unnamed policy (give the function or class a name)',
    );
  });
});
