/**
 * `typescript` as the CLI build sees it (tsup.config.ts maps the specifier here): the copy that
 * typescript-json-schema depends on, so the program the generator builds and the one
 * typescript-json-schema reads are of one compiler (lib/cli/generator.ts). Loaded only once
 * `findGenerator` found it; the tests and the typecheck use the repository's typescript directly.
 * @internal
 */
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';
import { findGenerator } from './generator';

const { typescript } = findGenerator('generate');
const ts = createRequire(typescript)(typescript) as typeof TypeScript;

export default ts;
