import {
  ANSWER_RULE,
  BEARER,
  FORM_RULE,
  HTTP_REFUSAL,
  NOT_FINITE,
  PROGRESS,
  argumentsNotObject,
  askedAgain,
  bodyTooLarge,
  cannotElicit,
  clientSessionsBusy,
  contextFailed,
  fieldTypeNotInForm,
  formCannotShow,
  formRefused,
  inputNotGiven,
  keywordNotInForm,
  limitNotPositive,
  limitTooLong,
  stateNotResumed,
  mcpToolNotObject,
  noEndpoint,
  notAnOrigin,
  notAuthInfo,
  registryRequired,
  resourceMetadataInvalid,
  runtimeReferenceOmitted,
  tooDeep,
  tooManyElicitations,
  tooManySessions,
  toolResultBlock,
  toolResultMember,
  toolResultNotObject,
  verifierRequired,
  wildcardWarning,
} from '../../lib/mcp/messages';

// The one place the MCP layer's sentences are pinned; other specs assert codes, statuses and fields.
describe('MCP messages', () => {
  it('refusals of values handed to the MCP projections carry their code and name the shape expected', () => {
    expect([registryRequired().code, registryRequired().message]).toEqual([
      'ERR_INVALID_REGISTRY',
      'tool: invalid registry: createMcpServer: pass a Registry (for example the one createRegistry returns)',
    ]);
    expect([mcpToolNotObject().code, mcpToolNotObject().message]).toEqual([
      'ERR_INVALID_DEFINITION',
      'tool: invalid definition: MCP tool must be an object { name, description?, inputSchema }',
    ]);
    expect([toolResultNotObject().code, toolResultNotObject().message]).toEqual([
      'ERR_INVALID_OUTPUT',
      'tool: invalid output: MCP tool result must be an object',
    ]);
    expect(toolResultMember('isError must be a boolean').message).toBe(
      'tool: invalid output: MCP tool result: isError must be a boolean',
    );
    expect(toolResultBlock(2, 'video').message).toBe(
      'tool: invalid output: MCP tool result: content[2]: unknown or malformed block (type "video"); ' +
        'expected text, image, audio, resource_link or resource',
    );
    expect(runtimeReferenceOmitted('image/jpeg')).toBe(
      '[image/jpeg media omitted: a runtime reference cannot be sent over MCP]',
    );
  });

  it('the rules of the arguments mcpRequest cannot serialize faithfully say what to send', () => {
    expect(NOT_FINITE).toBe('number is out of range (not a finite double); send a finite number');
    expect(tooDeep(10_000)).toBe('nesting is deeper than 10000 arrays and objects; flatten the arguments');
  });

  it('a call that cannot complete tells the model which tool and why, without diagnostics', () => {
    expect(argumentsNotObject('get_weather')).toBe('tools/call: arguments of tool "get_weather" must be a JSON object');
    expect(contextFailed('get_weather')).toBe('the context option failed for tool "get_weather"; the tool did not run');
    expect(tooManyElicitations('file_note', 5)).toBe(
      'error: tool "file_note" asked for input more than 5 times; the call did not complete',
    );
    expect(inputNotGiven('file_note', 'decline')).toBe(
      'error: the user declined to give the input tool "file_note" asked for; the call did not complete',
    );
    expect(inputNotGiven('file_note', 'cancel')).toBe(
      'error: the user dismissed the request for the input tool "file_note" asked for; the call did not complete',
    );
    expect(askedAgain('File the note?', 'response: /title: too long')).toBe(
      'File the note?\n\n(The previous answer was refused: response: /title: too long)',
    );
    expect(ANSWER_RULE).toEqual({
      notObject: 'the elicitation result must be an object { action, content }',
      action: 'action must be "accept", "decline" or "cancel"',
      content: 'content must be an object of the form fields',
      responses: 'inputResponses must be an object whose "input" member is the elicitation result',
    });
    expect(cannotElicit('file_note')).toBe(
      'error: tool "file_note" needs input from the user, and this client cannot ask for it ' +
        '(no elicitation capability); the call did not complete',
    );
    expect(formCannotShow('ask_address')).toBe(
      'error: tool "ask_address" needs input from the user in a form MCP elicitation cannot show; ' +
        'the call did not complete',
    );
    expect(PROGRESS).toEqual({
      admitted: 'admitted',
      waiting: 'waiting for input from the user',
      resumed: "resumed with the user's answer",
    });
  });

  it('a request state that does not open (2026-07-28) says why and what to do', () => {
    expect(stateNotResumed('file_note', 'replayed')).toBe(
      'error: the answer to tool "file_note" was not taken: its request state was already used (a call resumes once); call the tool again',
    );
    expect(stateNotResumed('file_note', 'expired')).toBe(
      'error: the answer to tool "file_note" was not taken: its request state has expired; call the tool again',
    );
    expect(stateNotResumed('file_note', 'tampered')).toBe(
      'error: the answer to tool "file_note" was not taken: its request state is not one this server issued for this call; call the tool again',
    );
  });

  it('a response schema elicitation cannot show names the place, the rule and what a form holds', () => {
    const flat = 'MCP elicitation asks for one flat object of string, number, integer, boolean and enum fields';
    const err = formRefused('/properties/address', FORM_RULE.notObject);
    expect(err.code).toBe('ERR_INVALID_INPUT_REQUEST');
    expect(err.message).toBe(
      'tool: invalid input request: response schema /properties/address: must be a JSON Schema object ' +
        `(boolean schemas cannot be shown as a form); ${flat}`,
    );
    expect(formRefused('', keywordNotInForm('oneOf')).message).toBe(
      `tool: invalid input request: response schema: keyword "oneOf" has no MCP elicitation form equivalent; ${flat}`,
    );
    expect(fieldTypeNotInForm('object')).toBe(
      'a form field must have type string, number, integer, boolean or a string-enum array (got "object")',
    );
    expect(FORM_RULE).toEqual({
      required: 'must be an array of strings',
      enum: 'enum must list strings only',
      oneOf: 'oneOf must list { const, title } string options',
      multiSelect: 'a multi-select field must list string enum items',
      notObject: 'must be a JSON Schema object (boolean schemas cannot be shown as a form)',
      ref: '"$ref" cannot be shown as a form; inline the schema',
    });
  });

  it('start-up refusals name the function, the option, the value and the fix', () => {
    expect(limitNotPositive('serveStreamableHttp', 'sessionIdleMs', 1.5)).toEqual(
      new RangeError('serveStreamableHttp: sessionIdleMs must be a positive integer, got 1.5'),
    );
    expect(limitNotPositive('createMcpServer', 'maxElicitations', '5')).toEqual(
      new RangeError('createMcpServer: maxElicitations must be a positive integer, got "5"'),
    );
    expect(limitTooLong('serveStreamableHttp', 'sessionMaxLifetimeMs', 2_147_483_647, 2_147_483_648)).toEqual(
      new RangeError('serveStreamableHttp: sessionMaxLifetimeMs must be at most 2147483647 ms, got 2147483648'),
    );
    expect(verifierRequired()).toEqual(
      new TypeError(
        'serveStreamableHttp: auth.verifier must have verifyAccessToken(token) (the SDK OAuthTokenVerifier)',
      ),
    );
    expect(notAnOrigin('https://a.example/')).toEqual(
      new TypeError(
        'serveStreamableHttp: allowedOrigins entry "https://a.example/" is not an origin; write scheme://host[:port]',
      ),
    );
    expect(resourceMetadataInvalid('resource: Invalid url')).toEqual(
      new TypeError(
        'serveStreamableHttp: auth.resourceMetadata is not RFC 9728 protected resource metadata: resource: Invalid url',
      ),
    );
    expect(notAuthInfo()).toEqual(
      new TypeError('auth.verifier.verifyAccessToken resolved to a value that is not an AuthInfo'),
    );
  });

  it('the all-interfaces warning is an McpHttpWarning that says what is exposed', () => {
    const unlisted = wildcardWarning('0.0.0.0, port 3000', false);
    expect(unlisted.name).toBe('McpHttpWarning');
    expect(unlisted.message).toBe(
      'serveStreamableHttp: listening on all interfaces (0.0.0.0, port 3000); only the Host names localhost, ' +
        '127.0.0.1 and [::1] are accepted: list the names remote clients use in allowedHosts',
    );
    expect(wildcardWarning('::, port 3000', true).message).toBe(
      'serveStreamableHttp: listening on all interfaces (::, port 3000); ' +
        'anyone who can reach this port may call the tools unless auth is set',
    );
  });

  it('HTTP refusals say what was refused and what to do', () => {
    expect(HTTP_REFUSAL).toEqual({
      target: 'request target must be a path (origin-form, e.g. /mcp), not an absolute URL',
      host: 'Host header not allowed (DNS rebinding protection); list it in allowedHosts',
      origin: 'Origin header not allowed (DNS rebinding protection); list it in allowedOrigins',
      session: 'session not found; initialize a new session',
      notJson: 'request body is not JSON',
      noSession: 'no session: send initialize (POST) first',
      versionMismatch:
        'MCP-Protocol-Version header differs from the protocol version in the request _meta; send the same',
      internal: 'internal error',
    });
    expect(noEndpoint('/other', '/mcp')).toBe('no MCP endpoint at /other; use /mcp');
    expect(bodyTooLarge(4_194_304)).toBe('request body exceeds 4194304 bytes');
    expect(clientSessionsBusy(10)).toBe('this client has 10 open sessions, all busy; end one with DELETE and retry');
    expect(tooManySessions(100)).toBe('too many open sessions (100); end one with DELETE and retry');
  });

  it("bearer token refusals are worded exactly as the SDK's requireBearerAuth words them", () => {
    expect(BEARER).toEqual({
      missing: 'Missing Authorization header',
      format: "Invalid Authorization header format, expected 'Bearer TOKEN'",
      invalid: 'Invalid token',
      resource: 'Token was not issued for this resource',
      scope: 'Insufficient scope',
      noExpiry: 'Token has no expiration time',
      expired: 'Token has expired',
      server: 'Internal Server Error',
    });
  });
});
