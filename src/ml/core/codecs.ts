/** Typed arrays ⇄ base64 of their little-endian bytes: exact (NaN/±Infinity included) and compact in JSON. */
type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array;
type TypedCtor<T extends Typed> = { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

export function toBase64(a: Typed): string {
  if (!LITTLE_ENDIAN) throw new Error('model serialisation needs a little-endian platform');
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function fromBase64<T extends Typed>(s: string, Ctor: TypedCtor<T>): T {
  if (!LITTLE_ENDIAN) throw new Error('model serialisation needs a little-endian platform');
  const bytes = Buffer.from(s, 'base64');
  // Copy into a fresh buffer: Buffer's pool offset need not be aligned for the element size.
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new Ctor(copy, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
}
