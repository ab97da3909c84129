/** The first value of a header Node.js may hand over as a list (a repeated header). */
export function firstHeaderValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
