/**
 * Loads a Node-only module of this library when a Node-only call needs it. The specifier is computed,
 * so that bundlers for browsers neither follow nor fail on it.
 */
export function importNodeOnly<T>(relative: string): Promise<T> {
  const specifier = new URL(relative, import.meta.url).href;
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}
