/** The assembled sort-kernel.wat: scripts/build-wasm.mjs writes sort-kernel.wasm.js (its bytes) under dist/. */
declare const kernelBytes: Uint8Array;
export default kernelBytes;
