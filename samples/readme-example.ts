import 'reflect-metadata';
import { IsString, Length } from 'class-validator';
import { createRegistry } from 'scope-tool';
import { Tool, Toolset } from 'scope-tool/decorators';

class GreetInput {
  /** Who to greet. */
  @IsString() @Length(1, 40) name!: string;
}

@Toolset()
export class GreeterTools {
  /** Greet someone by name. */
  @Tool({ name: 'greet' })
  greet(input: GreetInput): string {
    return `Hello, ${input.name}!`;
  }
}

export async function greet(manifest: string, args: string): Promise<string | undefined> {
  const registry = createRegistry({ manifest, toolsets: [new GreeterTools()] });
  const binding = registry.resolve('greet')!;
  const invocation = binding.contract.prepare({ name: 'greet', arguments: args });
  const result = await binding.call(invocation);
  return 'output' in result ? result.output.asText() : undefined;
}
