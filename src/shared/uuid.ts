const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID (any version): ids are looked up only then, names otherwise. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
