/** The assembled tree-shap-kernel.wat: scripts/build-wasm.mjs writes tree-shap-kernel.wasm.js (its bytes) under dist/. */
declare const kernelBytes: Uint8Array;
export default kernelBytes;
