/**
 * What the loop specs share: the official SDK clients built with a `fetch` that replays recorded
 * responses (samples/fixtures) and keeps every request body, and a registry of the tools those
 * recordings call. No network.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FuncTool, InputRequest, Registry } from '../../../lib/protocol';
import type { JsonObject, JsonValue } from '../../../lib/protocol';
import { Runtime } from '../../../lib/runtime';
import { MemoryStore } from '../../../lib/runtime/stores';
import type { SuspensionStore } from '../../../lib/runtime/store';

/** One request the SDK sent: the path and the decoded JSON body. */
export interface SentRequest {
  readonly path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/**
 * A `fetch` that answers each request with the next recorded response body (HTTP 200, JSON) and
 * records the request; a request beyond the recordings fails the test.
 */
export function replayFetch(responses: readonly unknown[]): { fetch: typeof fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const queue = [...responses];
  const replay = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    sent.push({ path: url.pathname, body: JSON.parse(String(init?.body)) });
    if (queue.length === 0) throw new Error(`replayFetch: no recorded response left for request ${sent.length}`);
    const text = JSON.stringify(queue.shift());
    const response = new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
    // Parsed here, in the test's realm: Node's own Response.json() builds its objects in Node's
    // realm, outside Jest's sandbox, and lib/protocol/json-data.ts refuses an object whose
    // prototype is another realm's Object.prototype ("only plain objects are JSON values"), which
    // would mark every Anthropic tool_use input malformed. Outside Jest there is one realm.
    Object.defineProperty(response, 'json', { value: async () => JSON.parse(text) });
    return response;
  };
  return { fetch: replay as typeof fetch, sent };
}

/** The official OpenAI client on a replaying fetch (no retries, so a failed replay fails at once). */
export function openAIClient(responses: readonly unknown[]): { client: OpenAI; sent: SentRequest[] } {
  const { fetch, sent } = replayFetch(responses);
  return { client: new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 }), sent };
}

/** The official Anthropic client on a replaying fetch (no retries). */
export function anthropicClient(responses: readonly unknown[]): { client: Anthropic; sent: SentRequest[] } {
  const { fetch, sent } = replayFetch(responses);
  return { client: new Anthropic({ apiKey: 'sk-ant-test', fetch, maxRetries: 0 }), sent };
}

const WEATHER_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['location'],
  additionalProperties: false,
};

const CHECK_SCHEMA: JsonObject = {
  type: 'object',
  properties: { value: { type: 'string' }, count: { type: 'integer', minimum: 1, maximum: 10 } },
  additionalProperties: false,
};

const APPROVAL = {
  type: 'object',
  properties: { approve: { type: 'boolean' } },
  required: ['approve'],
  additionalProperties: false,
};

function asObject<T>(value: JsonValue): T {
  return value as T;
}

/** What the tools did, so a spec can tell a replay from a second run. */
export interface ToolRuns {
  weather: number;
  check: number;
}

/**
 * The tools the recordings call: `get_current_weather` (7 °C in Boston; with `confirmWeather` it
 * first asks whether to share the location) and `test_tool` (echoes; a `count` above 1 first asks
 * for approval).
 */
export function loopRegistry(options: { confirmWeather?: boolean } = {}): { registry: Registry; runs: ToolRuns } {
  const runs: ToolRuns = { weather: 0, check: 0 };
  const weather = FuncTool.create(
    {
      name: 'get_current_weather',
      description: 'Get the current weather in a given location',
      inputSchema: WEATHER_SCHEMA,
      decode: asObject<{ location: string; unit?: string }>,
    },
    (input, call) => {
      if (options.confirmWeather === true && call.continuation === undefined) {
        return InputRequest.create({
          prompt: JSON.stringify(`Share your location (${input.location}) with the weather service?`),
          responseSchema: APPROVAL,
          continuationState: '{}',
        });
      }
      if (
        call.continuation !== undefined &&
        !(JSON.parse(call.continuation.response) as { approve: boolean }).approve
      ) {
        return 'The user declined to share the location.';
      }
      runs.weather += 1;
      return { location: input.location, temperature: 7, unit: input.unit ?? 'celsius' };
    },
  );
  const check = FuncTool.create(
    {
      name: 'test_tool',
      description: 'Run a connectivity check and echo what was sent',
      inputSchema: CHECK_SCHEMA,
      decode: asObject<{ value?: string; count?: number }>,
    },
    (input, call) => {
      const count = input.count ?? 1;
      if (count > 1 && call.continuation === undefined) {
        return InputRequest.create({
          prompt: JSON.stringify(`Run the check ${count} times?`),
          responseSchema: APPROVAL,
          continuationState: '{}',
        });
      }
      runs.check += 1;
      return `ok: value=${input.value ?? '-'} count=${count}`;
    },
  );
  return { registry: new Registry(weather, check), runs };
}

/** A Runtime over `registry` and `store` (a fresh MemoryStore by default). */
export function loopRuntime(registry: Registry, store: SuspensionStore = new MemoryStore()): Runtime {
  return new Runtime({ registry, store });
}
