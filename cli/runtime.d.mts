/** Types of cli/runtime.mjs, which is JavaScript: it runs before any TypeScript can. */
export interface Runtime {
  /** The folder of the JavaScript copy. */
  dir: string;
  /** URL of the module the entry source becomes. */
  url: string;
}

export function prepareRuntime(root?: string, entry?: string): Promise<Runtime>;
