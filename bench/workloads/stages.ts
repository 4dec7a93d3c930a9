/**
 * The FuncTool path in stages (issue 16): each row adds one stage to the one before, so the
 * differences of consecutive medians are the cost of each stage, measured in the same run:
 * 1. `JSON.parse` + compiled Ajv (the floor with validation);
 * 2. `admitJson` + the contract's compiled schema (the I-JSON admission scan instead of JSON.parse);
 * 3. `Contract.prepare` (request shape and size, name, the scan, the schema, the decoder, the Invocation);
 * 4. + `Binding.call` without a deadline (FuncTool.call: the function, the result encoding, Result
 *    validation, the promise turns of an async call);
 * 5. + the deadline (the CallScope, the timer armed only when the call has not settled);
 * 6. + an allow-all Guard (the Authorization, the policy): the bench's `scope-tool FuncTool (Guard)`.
 * `npm run bench:stages` prints them (bench/stages.ts).
 */
import Ajv2020 from 'ajv/dist/2020';
import { admitJson, bind, compileSchemaValue, FuncTool, Guard } from '../../lib/protocol';
import type { JsonValue } from '../../lib/protocol';
import type { BenchTool } from '../fixtures';
import { allowAll } from '../note-dto';
import { workload } from '../workload';
import type { Workload } from '../workload';

/** The stage rows of one bench tool, in order (each includes the stages above it). */
export function stageWorkloads(tool: BenchTool): Workload[] {
  const group = `stages/${tool.name}`;
  const fn = tool.fn as (input: unknown) => object;
  const args = tool.args;
  const request = { name: tool.name, arguments: args };
  const validate = new Ajv2020({ strict: true }).compile(tool.schema);
  const compiled = compileSchemaValue(tool.schema);
  const func = (): FuncTool<JsonValue, object> =>
    FuncTool.create(
      { name: tool.name, description: tool.description, inputSchema: tool.schema, decode: (v: JsonValue) => v },
      (input) => fn(input),
    );
  const bare = bind(func(), { timeoutMs: Infinity });
  const timed = bind(func());
  const guarded = bind(new Guard({ tool: func(), authorizer: allowAll }));
  return [
    workload(group, '1 JSON.parse + Ajv', 'floor', () => {
      const value: unknown = JSON.parse(args);
      if (!validate(value)) throw new Error(`bench: Ajv refused ${args}`);
      return value;
    }),
    workload(group, '2 admitJson + schema', 'reference', () => {
      const admitted = admitJson(args);
      if (!admitted.ok || compiled.validate(admitted.value).length > 0) throw new Error(`bench: refused ${args}`);
      return admitted.value;
    }),
    workload(group, '3 Contract.prepare', 'reference', () => bare.contract.prepare(request)),
    workload(group, '4 + Binding.call, no deadline', 'reference', () => bare.call(bare.contract.prepare(request))),
    workload(group, '5 + deadline', 'reference', () => timed.call(timed.contract.prepare(request))),
    workload(group, '6 + Guard (allow-all)', 'scope', () => guarded.call(guarded.contract.prepare(request))),
  ];
}
