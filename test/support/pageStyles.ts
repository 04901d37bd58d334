import { Module } from 'node:module';

/**
 * Lets Node load the chat page's scripts that import their stylesheet (`import './x.css'`, bundled by esbuild for
 * the page): a stylesheet resolves to an empty module, so the page's pure code (the lexer, the spoken text, the find
 * bar's matching) runs in the unit tests as it is shipped.
 */
export function ignorePageStyles(): void {
  const internal = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = internal._resolveFilename.bind(Module);
  internal._resolveFilename = (request: string, ...rest: unknown[]): string =>
    request.endsWith('.css') ? __filename : resolve(request, ...rest);
}
