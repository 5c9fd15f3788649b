export interface CallEntry {
  operations: Set<string>;
  features: Set<string>;
}
export interface WebCalls {
  relations: Map<string, CallEntry>;
  functions: Map<string, CallEntry>;
  serverFunctions: Map<string, CallEntry>;
  buckets: Map<string, CallEntry>;
}
export const PRODUCT_DOC: string;
export const BEGIN: string;
export const END: string;
export function serverNames(root?: string): {
  relations: Set<string>;
  functions: Set<string>;
  serverFunctions: Set<string>;
  buckets: Set<string>;
};
export function webCalls(root?: string): WebCalls;
export function renderCalls(calls?: WebCalls): string;
export function documentedCalls(root?: string): string | undefined;
