import * as protocol from '../../lib/protocol';

describe('lib/protocol entry', () => {
  it('exports every runtime name of docs/architecture.md section 2', () => {
    const names = [
      'MAX_INPUT_BYTES',
      'canonicalJson',
      'ToolError',
      'hasErrorCode',
      'findError',
      'isError',
      'validateDefinition',
      'encodeDefinition',
      'decodeDefinition',
      'DEFINITION_SCHEMA',
      'validateRequest',
      'Output',
      'OUTPUT_SCHEMA',
      'Contract',
      'Invocation',
      'Binding',
      'bind',
      'validateResult',
      'InputRequest',
      'INPUT_REQUEST_SCHEMA',
      'Continuation',
      'InputValidatorError',
      'Failure',
      'classifyFailure',
      'CallError',
      'Authorization',
      'Guard',
      'AuthorizationError',
      'capability',
      'Registry',
      'FuncTool',
    ];
    for (const name of names) expect(protocol).toHaveProperty(name);
    expect(protocol.MAX_INPUT_BYTES).toBe(1_048_576);
  });

  it('keeps internal helpers out of the entry', () => {
    for (const name of ['createContract', 'ownerOf', 'snapshotDefinition', 'toJsonData', 'rewrap']) {
      expect(protocol).not.toHaveProperty(name);
    }
  });

  it('exports the I-JSON admission check and schema compilation for other payloads', () => {
    expect(protocol.admitJson('{"a":1,"\\u0061":2}')).toMatchObject({ ok: false, issue: { code: 'duplicate_member' } });
    expect(protocol.admitJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(protocol.compileSchemaValue({ type: 'string' }).validate(1)).toHaveLength(1);
  });
});
