/**
 * What a ```ts fragment block of README.md or docs/ may use without declaring it: the values an
 * application already has around the code the block shows (spec/docs/blocks.ts). Each is typed as
 * the application would have it, so a fragment is checked as strictly as a module; a fragment
 * declares anything else itself. Only typechecked, never run.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type OpenAI from 'openai';
import type { Authorizer, Contract, Definition, InputRequest, Invocation, Registry, Request } from 'scope-tool';
import type { SqliteStore } from 'scope-tool/runtime';

/** The application's registry (`createRegistry(...)`) and its definitions (`registry.definitions()`). */
export declare const registry: Registry;
export declare const definitions: Definition[];
/** The manifest `scope-tool generate` wrote. */
export declare const manifest: string;

/** The provider clients and the model they call. */
export declare const openai: OpenAI;
export declare const anthropic: Anthropic;
export declare const ai: GoogleGenAI;
export declare const model: string;
/** What the person asked. */
export declare const question: string;

/** A toolset of the application and the repository it gets. */
export declare class NotesStore {
  add(title: string): Promise<string>;
}
export declare class NotesTools {
  constructor(notes: NotesStore);
}
export declare const notes: NotesStore;
/** Who is calling, as the application knows it: the `context` of each call, which policies read. */
export declare const caller: { readonly user: string; readonly scopes: readonly string[] };
/** A policy factory the application writes: permits callers whose context holds the scope. */
export declare function requireScope(scope: string): Authorizer;

/** The runtime's store (`await SqliteStore.open('suspensions.db')`). */
export declare const store: SqliteStore;

/** An MCP server's OAuth token verifier (the SDK's OAuthTokenVerifier). */
export declare const verifier: { verifyAccessToken(token: string): Promise<AuthInfo> };
/** A call that asked for input, as a runtime holds it, and the answer that comes back. */
export declare const toolName: string;
export declare const toolRequest: Request;
export declare const contract: Contract;
export declare const invocation: Invocation;
export declare const authInfo: AuthInfo;
export declare const result: { readonly inputRequest: InputRequest };
export declare const wireBack: string;
export declare const answerJson: string;
