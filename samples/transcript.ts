/**
 * The main sample: a weather and notes assistant served by scope-tool, replayed against recorded
 * real responses of the OpenAI and Anthropic APIs (samples/fixtures). For every recorded tool call
 * it prints the tool, the admitted arguments or the admission error, the authorization decision,
 * the outcome, and the tool result message it would send back in that provider's format.
 *
 * `npm start` builds the package, generates samples/tools.manifest.json, and runs this file;
 * spec/samples runs it in-process and checks the transcript.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AuthorizationError,
  classifyFailure,
  createRegistry,
  findError,
  hasErrorCode,
  parseServerSentJson,
  prepareToolCall,
} from 'scope-tool';
import { AnthropicStreamAssembler, anthropicToolCalls, anthropicToolResult } from 'scope-tool/anthropic';
import { openAIChatToolCalls, openAIToolMessage } from 'scope-tool/openai';
import type {
  AssembledToolCall,
  Continuation,
  PreparedToolCall,
  ProviderToolCall,
  Registry,
  Result,
  ToolOutcome,
} from 'scope-tool';
import { DiagnosticsTools } from './assistant/diagnostics.tools';
import { NotesStore } from './assistant/notes-store';
import { NotesTools } from './assistant/notes.tools';
import type { Caller } from './assistant/policies';
import { asAssistantCall, renamedLine } from './assistant/recorded-names';
import { WeatherTools } from './assistant/weather.tools';
import { GreeterTools } from './readme-example';

/** Where the transcript reads its inputs. */
export interface TranscriptOptions {
  /** Folder of the recorded provider payloads. */
  fixturesDir: string;
  /** The manifest written by `scope-tool generate`. */
  manifestPath: string;
  /** Receives each line of the transcript. */
  write: (line: string) => void;
  /**
   * A registry built elsewhere (the NestJS sample: its ScopeToolModule's ToolRegistry) holding the
   * same tools; by default the transcript registers the assistant's toolsets itself.
   */
  registry?: Registry;
  /** The notes store that registry's notes tools write to (the last line counts its notes). */
  notes?: { readonly size: number };
  /** The first line's title; by default the main sample's. */
  title?: string;
}

type Provider = 'openai' | 'anthropic';

/** A recorded call and, for a call that asks for human input, the answers a person gives in turn. */
interface Scenario {
  title: string;
  provider: Provider;
  calls: (ProviderToolCall | AssembledToolCall)[];
  answers?: string[];
}

const ALICE: Omit<Caller, 'audit'> = { user: 'alice', scopes: ['weather:read', 'notes:write'] };

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The tool calls of a recorded Messages stream (`.sse`), fed event by event as a live stream would be. */
function streamedCalls(file: string): AssembledToolCall[] {
  const assembler = new AnthropicStreamAssembler();
  for (const event of parseServerSentJson(fs.readFileSync(file, 'utf8'))) assembler.push(event);
  return assembler.toolCalls();
}

function scenarios(dir: string): Scenario[] {
  const fixture = (name: string) => path.join(dir, name);
  const runner = readJson(fixture('ToolRunner.nock.json')) as { response: unknown }[];
  return [
    {
      title: 'OpenAI Chat Completions: one call (chat_completions_functions.response.json)',
      provider: 'openai',
      calls: openAIChatToolCalls(readJson(fixture('chat_completions_functions.response.json')) as never),
    },
    {
      title: 'Anthropic Messages: one call (messages_response_tool_use.json)',
      provider: 'anthropic',
      calls: anthropicToolCalls(readJson(fixture('messages_response_tool_use.json')) as never).map(asAssistantCall),
    },
    {
      title: 'Anthropic Messages: a parallel pair in one turn (messages_response_parallel_tool_use.json)',
      provider: 'anthropic',
      calls: anthropicToolCalls(readJson(fixture('messages_response_parallel_tool_use.json')) as never).map(
        asAssistantCall,
      ),
    },
    {
      title: 'Anthropic Messages: a member the schema does not declare (ToolRunner.nock.json [4])',
      provider: 'anthropic',
      calls: anthropicToolCalls(runner[4].response as never).map(asAssistantCall),
    },
    {
      title: 'Anthropic stream: a complete streamed call (tool_use_response.sse)',
      provider: 'anthropic',
      calls: streamedCalls(fixture('tool_use_response.sse')),
    },
    {
      title: 'Anthropic stream cut off by max_tokens mid-arguments (incomplete_partial_json_response.sse)',
      provider: 'anthropic',
      calls: streamedCalls(fixture('incomplete_partial_json_response.sse')).map(asAssistantCall),
    },
    {
      title: 'Anthropic Messages: a call that asks the user first (ToolRunner.nock.json [6])',
      provider: 'anthropic',
      calls: anthropicToolCalls(runner[6].response as never).map(asAssistantCall),
      answers: ['{"approve":"yes"}', '{"approve":true,"title":"Companion animals"}'],
    },
  ];
}

function clip(text: string, max = 160): string {
  const oneLine = text.replace(/\n/g, '\\n');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}… (${oneLine.length} chars)`;
}

function toolResultMessage(provider: Provider, call: ProviderToolCall, outcome: ToolOutcome): string {
  const message = provider === 'openai' ? openAIToolMessage(call, outcome) : anthropicToolResult(call, outcome);
  return JSON.stringify(message);
}

function describeOutcome(outcome: ToolOutcome): string {
  if ('result' in outcome) {
    const result = outcome.result;
    return 'output' in result ? `completed: ${clip(result.output.asText() ?? '(media)')}` : 'suspended';
  }
  if (hasErrorCode(outcome.error, 'ERR_INVALID_INVOCATION')) return 'refused at admission: the tool did not run';
  const failure = classifyFailure(outcome.error);
  if (failure) return `${failure.kind}: ${failure.output.asText() ?? ''}`;
  if (findError(outcome.error, AuthorizationError)) return 'undecided: the policy could not decide';
  return `error: ${clip(String((outcome.error as Error)?.message ?? outcome.error))}`;
}

/** Runs one admitted call, resuming it with each answer while it asks for input. */
async function execute(
  registry: Registry,
  call: ProviderToolCall,
  first: PreparedToolCall,
  answers: string[],
  write: (line: string) => void,
): Promise<ToolOutcome> {
  const binding = first.binding;
  let invocation = first.invocation;
  const pending = [...answers];
  for (;;) {
    const audit: string[] = [];
    let result: Result;
    try {
      result = await binding.call(invocation, { context: { ...ALICE, audit } });
    } catch (error) {
      write(`  authorization: ${audit.join('; ') || 'no policy'}`);
      return { error };
    }
    write(`  authorization: ${audit.join('; ') || 'no policy'}`);
    if (!('inputRequest' in result)) return { result };
    const request = result.inputRequest;
    write(`  suspended: asks ${request.prompt} (answer schema ${JSON.stringify(request.responseSchema)})`);
    let continuation: Continuation | undefined;
    while (continuation === undefined) {
      const answer = pending.shift();
      if (answer === undefined) return { result };
      write(`  human (scripted): ${answer}`);
      try {
        continuation = request.continuation(answer);
        write('  answer accepted: resuming the call');
      } catch (error) {
        write(`  answer refused: ${(error as Error).message}`);
      }
    }
    invocation = prepareToolCall(registry, call, continuation).invocation;
  }
}

async function runScenario(registry: Registry, scenario: Scenario, write: (line: string) => void): Promise<void> {
  write('');
  write(`== ${scenario.title}`);
  for (const call of scenario.calls) {
    write(`▸ ${call.request.name} (id ${call.id})`);
    write(`  arguments: ${clip(call.request.arguments)}`);
    if ('complete' in call && !call.complete) write('  stream: ended before the arguments were complete');
    let outcome: ToolOutcome;
    let prepared: PreparedToolCall | undefined;
    try {
      prepared = prepareToolCall(registry, call);
      write(`  admitted: ${clip(prepared.invocation.arguments)}`);
    } catch (error) {
      write(`  admission refused: ${clip((error as Error).message, 400)}`);
      outcome = { error };
    }
    if (prepared !== undefined) outcome = await execute(registry, call, prepared, scenario.answers ?? [], write);
    write(`  outcome: ${describeOutcome(outcome!)}`);
    if ('result' in outcome! && 'inputRequest' in outcome.result) {
      write('  (still waiting for the user: no tool result is sent yet)');
      continue;
    }
    write(`  ${scenario.provider} tool result: ${toolResultMessage(scenario.provider, call, outcome!)}`);
  }
}

/**
 * Builds the assistant's registry from the manifest and replays every recorded call.
 * @returns the number of calls replayed
 */
export async function runTranscript(options: TranscriptOptions): Promise<number> {
  const store = new NotesStore();
  const registry =
    options.registry ??
    createRegistry({
      manifest: options.manifestPath,
      toolsets: [new WeatherTools(), new NotesTools(store), new DiagnosticsTools(), new GreeterTools()],
    });
  const notes = options.registry === undefined ? store : (options.notes ?? store);
  const write = options.write;
  write(
    `${options.title ?? 'scope-tool sample: a weather and notes assistant'}, caller ${ALICE.user} with scopes ${ALICE.scopes.join(', ')}`,
  );
  write(renamedLine());
  write(
    `tools: ${registry
      .definitions()
      .map((d) => d.name)
      .join(', ')}`,
  );
  let count = 0;
  for (const scenario of scenarios(options.fixturesDir)) {
    await runScenario(registry, scenario, write);
    count += scenario.calls.length;
  }
  write('');
  write(`replayed ${count} recorded tool calls; the notes store now holds ${notes.size} note(s)`);
  return count;
}
