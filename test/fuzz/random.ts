/** A small seeded random source, so that a failing fuzz input can be found again from its seed. */
export function random(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  return { next, int, pick, bytes };
}
export type Random = ReturnType<typeof random>;

/** Strings that break naive parsers: odd Unicode, injection shapes, separators, huge ones. */
export const NASTY = [
  '', ' ', '%', '%00', '%zz', '..', '../../etc/passwd', '/', '\\', '@', '@@', 'a@b@c', "' OR 1=1 --", '"; DROP TABLE avatars; --',
  '<script>alert(1)</script>', '${jndi:ldap://x}', '{{7*7}}', 'null', 'undefined', 'NaN', '-1', '1e309', '0x10', '\u0000', '\u202e', '\ud83d\ude00',
  'ｆｕｌｌ', 'e\u0301', '\uffff', 'x'.repeat(5000), ',,,', 'maya,,unity', 'MAYA', ' 2.0', '2.00', 'photo ', 'cursor', 'update',
];

export function mutate(r: Random, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data);
  switch (r.int(4)) {
    case 0: // truncate
      return out.subarray(0, r.int(out.length + 1));
    case 1: // flip bytes
      for (let i = 0; i < 1 + r.int(16); i++) if (out.length) out[r.int(out.length)] = r.int(256);
      return out;
    case 2: // insert garbage
      {
        const at = r.int(out.length + 1);
        const merged = new Uint8Array(out.length + 64);
        merged.set(out.subarray(0, at));
        merged.set(r.bytes(64), at);
        merged.set(out.subarray(at), at + 64);
        return merged;
      }
    default: // duplicate a slice
      {
        const a = r.int(out.length + 1);
        const b = Math.min(out.length, a + r.int(256));
        const merged = new Uint8Array(out.length + (b - a));
        merged.set(out.subarray(0, b));
        merged.set(out.subarray(a));
        return merged;
      }
  }
}
