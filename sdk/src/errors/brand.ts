/**
 * Guards check a registered symbol rather than `instanceof`: errors that cross a realm (a vm
 * context, an iframe) or come from a second copy of the SDK in node_modules are still recognised.
 */
export function brand(target: object, key: symbol): void {
  Object.defineProperty(target, key, { value: true, enumerable: false });
}

/** Whether `value` carries the brand `key`. */
export function hasBrand(value: unknown, key: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true;
}
