/** The assembled kernels.wat: scripts/build-wasm.mjs writes kernels.wasm.js (its bytes) under dist/. */
declare const kernelBytes: Uint8Array;
export default kernelBytes;
