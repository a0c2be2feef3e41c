/**
 * The project's lib (ES2023, no DOM) has no WebAssembly typings; Node provides the global. What the
 * kernel modules (gbdt/wasm-kernels.ts, explain/tree-shap-wasm.ts, core/sort-float64.ts) use of it, declared once.
 */
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBufferLike;
    grow(pages: number): number;
  }
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: object);
    readonly exports: Record<string, unknown>;
  }
}
