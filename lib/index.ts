/**
 * scope-tool: the trust boundary between a language model and the code it may run.
 *
 * The main entry exports the protocol (the port of the Go `tool` package: Contract, Binding,
 * Guard, Registry, FuncTool, ...), strict DTO inputs (`dtoInput`), the container that turns
 * decorated toolsets into a Registry (`createRegistry`), and the provider projections (OpenAI,
 * Anthropic). The decorators (`Toolset`, `Tool`, `Authorize`) live in `scope-tool/decorators`,
 * so the decorator `Tool` never shadows the protocol interface `Tool`.
 */
export * from './protocol';
export * from './dto';
export * from './container';
export * from './providers';
