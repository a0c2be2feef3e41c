/** Typed arrays ⇄ base64 (little-endian bytes): compact JSON that restores bit-identical numbers. */
type NumericArray = Float64Array | Int32Array | Uint8Array;
type ArrayCtor<T extends NumericArray> = { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number };

export function encodeArray(a: NumericArray): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function decodeArray<T extends NumericArray>(text: string, ctor: ArrayCtor<T>): T {
  const bytes = Buffer.from(text, 'base64');
  // Copy into a fresh buffer: Buffer's pool offset need not be aligned for the element size.
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new ctor(copy);
}
