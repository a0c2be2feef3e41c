;; sortFloat64's radix sort (sort-float64.ts, which documents it) as WebAssembly: the 64-bit keys in
;; registers, without the two 32-bit halves JS needs. Assembled at build time by scripts/build-wasm.mjs.
(module
  (import "env" "memory" (memory 1))

  ;; Sorts the n float64s (no NaN) at values ascending, as Float64Array.prototype.sort does, using tmp (n
  ;; × 8 bytes) and counts (6 × 2048 i32s, zeroed); returns where the sorted values are (values or tmp).
  ;; Key: the bits with every bit flipped for negative values, only the sign bit for the others, so that
  ;; unsigned key order is value order. Six least-significant-first passes of 11-bit digits; a pass
  ;; whose digit every key shares is skipped.
  (func $sort (export "sort") (param $values i32) (param $tmp i32) (param $n i32) (param $counts i32) (result i32)
    (local $i i32) (local $k i64) (local $a i32) (local $p i32) (local $base i32) (local $d i32)
    (local $at i32) (local $c i32) (local $src i32) (local $dst i32) (local $t i32) (local $shift i64) (local $skip i32)
    ;; Keys in place, and every pass's digit counts.
    (block $done
      (loop $keys
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $k (i64.load (local.get $a)))
        (local.set $k (i64.xor (local.get $k)
          (i64.or (i64.shr_s (local.get $k) (i64.const 63)) (i64.const 0x8000000000000000))))
        (i64.store (local.get $a) (local.get $k))
        (local.set $p (i32.const 0))
        (loop $digits
          (local.set $a (i32.add (local.get $counts) (i32.shl
            (i32.add (i32.shl (local.get $p) (i32.const 11))
              (i32.and (i32.wrap_i64 (i64.shr_u (local.get $k) (i64.extend_i32_u (i32.mul (local.get $p) (i32.const 11))))) (i32.const 2047)))
            (i32.const 2))))
          (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (i32.const 1)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br_if $digits (i32.lt_u (local.get $p) (i32.const 6))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $keys)))
    (local.set $src (local.get $values))
    (local.set $dst (local.get $tmp))
    (local.set $p (i32.const 0))
    (loop $passes
      (local.set $base (i32.add (local.get $counts) (i32.shl (local.get $p) (i32.const 13))))
      ;; Skipped when the first digit that occurs occurs n times.
      (local.set $d (i32.const 0))
      (block $found
        (loop $first
          (local.set $c (i32.load (i32.add (local.get $base) (i32.shl (local.get $d) (i32.const 2)))))
          (br_if $found (i32.ne (local.get $c) (i32.const 0)))
          (local.set $d (i32.add (local.get $d) (i32.const 1)))
          (br $first)))
      (local.set $skip (i32.eq (local.get $c) (local.get $n)))
      (if (i32.eqz (local.get $skip))
        (then
          ;; Counts → first positions, in place.
          (local.set $at (i32.const 0))
          (local.set $d (i32.const 0))
          (loop $offsets
            (local.set $a (i32.add (local.get $base) (i32.shl (local.get $d) (i32.const 2))))
            (local.set $c (i32.load (local.get $a)))
            (i32.store (local.get $a) (local.get $at))
            (local.set $at (i32.add (local.get $at) (local.get $c)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (br_if $offsets (i32.lt_u (local.get $d) (i32.const 2048))))
          (local.set $shift (i64.extend_i32_u (i32.mul (local.get $p) (i32.const 11))))
          (local.set $i (i32.const 0))
          (block $scattered
            (loop $scatter
              (br_if $scattered (i32.ge_u (local.get $i) (local.get $n)))
              (local.set $k (i64.load (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3)))))
              (local.set $a (i32.add (local.get $base) (i32.shl
                (i32.and (i32.wrap_i64 (i64.shr_u (local.get $k) (local.get $shift))) (i32.const 2047)) (i32.const 2))))
              (local.set $at (i32.load (local.get $a)))
              (i32.store (local.get $a) (i32.add (local.get $at) (i32.const 1)))
              (i64.store (i32.add (local.get $dst) (i32.shl (local.get $at) (i32.const 3))) (local.get $k))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $scatter)))
          (local.set $t (local.get $src))
          (local.set $src (local.get $dst))
          (local.set $dst (local.get $t))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $passes (i32.lt_u (local.get $p) (i32.const 6))))
    ;; Keys back to values: a clear sign bit marks a negative value, which had every bit flipped.
    (local.set $i (i32.const 0))
    (block $restored
      (loop $restore
        (br_if $restored (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $k (i64.load (local.get $a)))
        (i64.store (local.get $a) (i64.xor (local.get $k)
          (i64.or (i64.xor (i64.shr_s (local.get $k) (i64.const 63)) (i64.const -1)) (i64.const 0x8000000000000000))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $restore)))
    (local.get $src))
)
