;; The GBDT's hot loops as WebAssembly: histogram building and leaf partitioning (training) and tree
;; walks and leaf masks (prediction). Assembled at build time by scripts/build-wasm.mjs (npm package `wabt`) into
;; kernels.wasm.js (its bytes as a module) beside the compiled wasm-kernels.js, which loads it and documents the calling
;; conventions. Every pointer argument is a byte address into the one imported memory; begin/end,
;; nf, nRows, nTrees and k are counts. Plain-TypeScript references: test/ml/gbdt/kernel-reference.ts.
(module
  ;; Shared, so that helper threads can run the kernels on the same arrays (feature-team.ts).
  (import "env" "memory" (memory 1 65536 shared))

  ;; hist[binAt[f] + 16·bin] += pairs[r] for every row r = idx[i], i in [begin, end), and
  ;; every feature f in [f0, f1) of r: bin = codes[r·nf + f] (u8, row-major), binAt[f] (i32) the byte
  ;; offset of feature f's first bin in a histogram; pairs[r] and a bin's sums are (gradient, hessian)
  ;; f64 pairs, 16 bytes: one load per row (not one from each of two arrays), one vector add per cell.
  ;; One byte per cell (bin codes always fit one: bin-mapper.ts) rather than a global u16 bin index: at
  ;; 400k × 30 the matrix is 12 MB instead of 24, read at the leaf's rows, which are scattered once a
  ;; tree has a few levels; binAt (nf × 4 bytes) stays in L1. Returns nothing of use (see the touches).
  ;; A feature range lets threads split one histogram by features and still add in row order.
  (func $build8 (export "build8")
    (param $hist i32) (param $codes i32) (param $idx i32) (param $begin i32) (param $end i32)
    (param $pairs i32) (param $nf i32) (param $f0 i32) (param $f1 i32) (param $binAt i32)
    (result i32)
    (local $i i32) (local $r i32) (local $gh v128) (local $j i32) (local $je i32) (local $o i32) (local $s i32)
    (local $base v128) (local $at v128) (local $ahead i32) (local $sink i32) (local $next i32) (local $t i32) (local $tEnd i32) (local $last i32)
    (local.set $base (i32x4.splat (local.get $hist)))
    (local.set $i (local.get $begin))
    (local.set $next (local.get $begin))
    (local.set $last (select (i32.sub (i32.sub (local.get $f1) (local.get $f0)) (i32.const 1)) (i32.const 0) (i32.gt_u (local.get $f1) (local.get $f0))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $r (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))
        ;; A leaf's rows are scattered through memory (increasing, with gaps): every 16 rows, touch the codes
        ;; (first and last byte of features f0 .. f1-1) and pair of the next 16 rows, so that their cache
        ;; misses overlap one another and these 16 rows' adds instead of following them one row at a time
        ;; (400k × 30, rows read in random order: 2–4× fewer ns per cell). Wasm has no prefetch
        ;; instruction; a load does its work, and the loaded bytes go into the result so that the
        ;; compiler keeps the loads. (Groups of 8 rows: 7 % slower at 400k. One row 8 ahead at each row
        ;; gained little: a missing load holds up the reorder buffer, so misses must be issued side by side.)
        (if (i32.eq (local.get $i) (local.get $next))
          (then
            (local.set $next (i32.add (local.get $i) (i32.const 16)))
            (local.set $t (local.get $next))
            (local.set $tEnd (select (local.get $end) (i32.add (local.get $next) (i32.const 16))
              (i32.lt_u (local.get $end) (i32.add (local.get $next) (i32.const 16)))))
            (block $touched
              (loop $touch
                (br_if $touched (i32.ge_u (local.get $t) (local.get $tEnd)))
                (local.set $ahead (i32.load (i32.add (local.get $idx) (i32.shl (local.get $t) (i32.const 2)))))
                (local.set $j (i32.add (local.get $codes) (i32.add (i32.mul (local.get $ahead) (local.get $nf)) (local.get $f0))))
                (local.set $sink (i32.xor (local.get $sink) (i32.xor (i32.xor
                  (i32.load8_u (local.get $j))
                  (i32.load8_u (i32.add (local.get $j) (local.get $last))))
                  (i32.load (i32.add (local.get $pairs) (i32.shl (local.get $ahead) (i32.const 4)))))))
                (local.set $t (i32.add (local.get $t) (i32.const 1)))
                (br $touch)))))
        (local.set $gh (v128.load (i32.add (local.get $pairs) (i32.shl (local.get $r) (i32.const 4)))))
        ;; j runs over this row's codes of features f0 .. f1-1, o over their binAt entries.
        (local.set $j (i32.add (local.get $codes) (i32.add (i32.mul (local.get $r) (local.get $nf)) (local.get $f0))))
        (local.set $je (i32.add (local.get $j) (i32.sub (local.get $f1) (local.get $f0))))
        (local.set $o (i32.add (local.get $binAt) (i32.shl (local.get $f0) (i32.const 2))))
        ;; Four cells per step: their codes (one 32-bit load, unaligned when nf is not a multiple of 4)
        ;; widened to i32 lanes, times 16, plus the four features' binAt and hist: four bin addresses
        ;; from two loads and three vector operations, rather than a binAt load and two adds per cell.
        (block $quadsDone
          (loop $quads
            (br_if $quadsDone (i32.gt_u (i32.add (local.get $j) (i32.const 4)) (local.get $je)))
            (local.set $at (i32x4.add (local.get $base) (i32x4.add (v128.load (local.get $o))
              (i32x4.shl (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (local.get $j)))) (i32.const 4)))))
            (local.set $s (i32x4.extract_lane 0 (local.get $at)))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $s (i32x4.extract_lane 1 (local.get $at)))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $s (i32x4.extract_lane 2 (local.get $at)))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $s (i32x4.extract_lane 3 (local.get $at)))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (br $quads)))
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_u (local.get $j) (local.get $je)))
            (local.set $s (i32.add (i32.add (local.get $hist) (i32.load (local.get $o)))
              (i32.shl (i32.load8_u (local.get $j)) (i32.const 4))))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (local.set $o (i32.add (local.get $o) (i32.const 4)))
            (br $rest)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
    (local.get $sink))

  ;; dst[i] −= src[i] for the n float64 values at byte addresses dst and src, two per vector step: the
  ;; sibling's histogram as parent minus child (the same IEEE differences as one at a time).
  (func $subtract (export "subtract") (param $dst i32) (param $src i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 3))))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $dst) (i32.const 16)) (local.get $end)))
        (v128.store (local.get $dst) (f64x2.sub (v128.load (local.get $dst)) (v128.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $pairs)))
    (if (i32.lt_u (local.get $dst) (local.get $end))
      (then (f64.store (local.get $dst) (f64.sub (f64.load (local.get $dst)) (f64.load (local.get $src)))))))

  ;; dst[i] += src[i] for the n float64 values at byte addresses dst and src, two per vector step: a
  ;; histogram's row chunks summed into it in chunk order (the same IEEE sums as one at a time).
  (func $add (export "add") (param $dst i32) (param $src i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 3))))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $dst) (i32.const 16)) (local.get $end)))
        (v128.store (local.get $dst) (f64x2.add (v128.load (local.get $dst)) (v128.load (local.get $src))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $pairs)))
    (if (i32.lt_u (local.get $dst) (local.get $end))
      (then (f64.store (local.get $dst) (f64.add (f64.load (local.get $dst)) (f64.load (local.get $src)))))))

  ;; Zeroes bytes [at, at + n): a histogram's feature range before building it (memory.fill is a memset;
  ;; TypedArray.fill on a shared buffer is not).
  (func $clear (export "clear") (param $at i32) (param $n i32)
    (memory.fill (local.get $at) (i32.const 0) (local.get $n)))

  ;; Stable in-place partition of the rows idx[begin .. end): rows r with table[codes[r]] = 1 first, in
  ;; their order, then the others in theirs. Returns the end of the left part.
  (func $partition (export "partition")
    (param $idx i32) (param $begin i32) (param $end i32) (param $codes i32) (param $table i32) (param $tmp i32)
    (result i32)
    (local $nl i32)
    (local.set $nl (call $partitionApart (local.get $idx) (local.get $begin) (local.get $end) (local.get $codes) (local.get $table) (local.get $tmp)))
    ;; The right part after the left.
    (memory.copy
      (i32.add (local.get $idx) (i32.shl (local.get $nl) (i32.const 2)))
      (local.get $tmp)
      (i32.shl (i32.sub (local.get $end) (local.get $nl)) (i32.const 2)))
    (local.get $nl))

  ;; partition's split without its last step: the left part in place at idx[begin .. nl) and the right
  ;; part, in order, at tmp[0 .. end − nl) (idx[nl .. end) is left stale), so that the feature team can
  ;; put each thread's right part straight into its final place. Branch-free: every row is written to
  ;; both the left cursor (in place) and the right cursor (in tmp) and only the matching cursor
  ;; advances. Returns nl, the end of the left part.
  (func $partitionApart (export "partitionApart")
    (param $idx i32) (param $begin i32) (param $end i32) (param $codes i32) (param $table i32) (param $tmp i32)
    (result i32)
    (local $i i32) (local $nl i32) (local $nr i32) (local $r i32) (local $left i32)
    (local.set $nl (local.get $begin))
    (local.set $i (local.get $begin))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $r (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $left (i32.load8_u (i32.add (local.get $table) (i32.load8_u (i32.add (local.get $codes) (local.get $r))))))
        (i32.store (i32.add (local.get $idx) (i32.shl (local.get $nl) (i32.const 2))) (local.get $r))
        (i32.store (i32.add (local.get $tmp) (i32.shl (local.get $nr) (i32.const 2))) (local.get $r))
        (local.set $nl (i32.add (local.get $nl) (local.get $left)))
        (local.set $nr (i32.sub (i32.add (local.get $nr) (i32.const 1)) (local.get $left)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
    (local.get $nl))

  ;; Adds every tree's output to out (row-major nRows × k; tree t adds to column t mod k) for the rows of
  ;; x (row-major nRows × nf, f64; categorical features hold their training bin). The forest is in the
  ;; walk layout of walk-layout.ts: 16-byte node records from nodes, each tree's in pre-order, tree t's
  ;; root record at index treeRoot[t]. A record is threshold f64 (categorical: its first catBits word as
  ;; i32), word i32 = feature << 3 | categorical << 1 | defaultLeft (sign bit: a leaf), and the right
  ;; child's byte offset from nodes; the left child is the next record. Numeric: left when value ≤
  ;; threshold, NaN left iff defaultLeft; categorical: left when the bin's bit is set. A leaf (threshold
  ;; NaN, not defaultLeft) always goes right, to itself; its value is value[index].
  ;; Rows go 4 at a time (nRows must be a multiple of 4), each lane's state the address of its record:
  ;; the 4 walks are independent chains of loads that overlap. Every lane steps each round, without a
  ;; branch per lane, until the 4 words read are all leaves. Trees are added in order, so the sums are
  ;; exactly those of one walk per row.
  (func $score4 (export "score4")
    (param $x i32) (param $nf i32) (param $nRows i32) (param $treeRoot i32) (param $nTrees i32)
    (param $nodes i32) (param $value i32) (param $catBits i32) (param $out i32) (param $k i32)
    (local $t i32) (local $root i32) (local $c i32) (local $sr i32) (local $rowBytes i32) (local $kBytes i32)
    (local $v f64) (local $bin i32) (local $left i32) (local $o i32)
    (local $a0 i32) (local $w0 i32) (local $row0 i32)
    (local $a1 i32) (local $w1 i32) (local $row1 i32)
    (local $a2 i32) (local $w2 i32) (local $row2 i32)
    (local $a3 i32) (local $w3 i32) (local $row3 i32)
    (local.set $rowBytes (i32.shl (local.get $nf) (i32.const 3)))
    (local.set $kBytes (i32.shl (local.get $k) (i32.const 3)))
    (block $treesDone
      (loop $trees
        (br_if $treesDone (i32.ge_u (local.get $t) (local.get $nTrees)))
        (local.set $root (i32.add (local.get $nodes) (i32.shl (i32.load (i32.add (local.get $treeRoot) (i32.shl (local.get $t) (i32.const 2)))) (i32.const 4))))
        (local.set $c (i32.rem_u (local.get $t) (local.get $k)))
        (local.set $sr (i32.const 0))
        (block $rowsDone
          (loop $rows
            (br_if $rowsDone (i32.ge_u (local.get $sr) (local.get $nRows)))
            (local.set $row0 (i32.add (local.get $x) (i32.mul (local.get $sr) (local.get $rowBytes))))
            (local.set $row1 (i32.add (local.get $row0) (local.get $rowBytes)))
            (local.set $row2 (i32.add (local.get $row1) (local.get $rowBytes)))
            (local.set $row3 (i32.add (local.get $row2) (local.get $rowBytes)))
            (local.set $a0 (local.get $root))
            (local.set $a1 (local.get $root))
            (local.set $a2 (local.get $root))
            (local.set $a3 (local.get $root))
            (block $walked
              (loop $walk
                (local.set $w0 (i32.load offset=8 (local.get $a0)))
                (local.set $w1 (i32.load offset=8 (local.get $a1)))
                (local.set $w2 (i32.load offset=8 (local.get $a2)))
                (local.set $w3 (i32.load offset=8 (local.get $a3)))
                ;; Done when every lane's word has the sign bit (a leaf).
                (br_if $walked (i32.lt_s (i32.and (i32.and (i32.and (local.get $w0) (local.get $w1)) (local.get $w2)) (local.get $w3)) (i32.const 0)))
                ;; Lane 0: one step (a leaf steps to itself).
                (local.set $v (f64.load (i32.add (local.get $row0) (i32.and (local.get $w0) (i32.const 0x7ffffff8)))))
                (local.set $left (if (result i32) (i32.and (local.get $w0) (i32.const 2))
                  (then
                    (local.set $bin (i32.trunc_f64_u (local.get $v)))
                    (i32.and (i32.const 1) (i32.shr_u
                      (i32.load (i32.add (local.get $catBits)
                        (i32.shl (i32.add (i32.load (local.get $a0)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                      (local.get $bin))))
                  (else
                    (select
                      (i32.and (local.get $w0) (i32.const 1))
                      (f64.le (local.get $v) (f64.load (local.get $a0)))
                      (f64.ne (local.get $v) (local.get $v))))))
                (local.set $a0 (select
                  (i32.add (local.get $a0) (i32.const 16))
                  (i32.add (local.get $nodes) (i32.load offset=12 (local.get $a0)))
                  (local.get $left)))
                ;; Lane 1: one step (a leaf steps to itself).
                (local.set $v (f64.load (i32.add (local.get $row1) (i32.and (local.get $w1) (i32.const 0x7ffffff8)))))
                (local.set $left (if (result i32) (i32.and (local.get $w1) (i32.const 2))
                  (then
                    (local.set $bin (i32.trunc_f64_u (local.get $v)))
                    (i32.and (i32.const 1) (i32.shr_u
                      (i32.load (i32.add (local.get $catBits)
                        (i32.shl (i32.add (i32.load (local.get $a1)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                      (local.get $bin))))
                  (else
                    (select
                      (i32.and (local.get $w1) (i32.const 1))
                      (f64.le (local.get $v) (f64.load (local.get $a1)))
                      (f64.ne (local.get $v) (local.get $v))))))
                (local.set $a1 (select
                  (i32.add (local.get $a1) (i32.const 16))
                  (i32.add (local.get $nodes) (i32.load offset=12 (local.get $a1)))
                  (local.get $left)))
                ;; Lane 2: one step (a leaf steps to itself).
                (local.set $v (f64.load (i32.add (local.get $row2) (i32.and (local.get $w2) (i32.const 0x7ffffff8)))))
                (local.set $left (if (result i32) (i32.and (local.get $w2) (i32.const 2))
                  (then
                    (local.set $bin (i32.trunc_f64_u (local.get $v)))
                    (i32.and (i32.const 1) (i32.shr_u
                      (i32.load (i32.add (local.get $catBits)
                        (i32.shl (i32.add (i32.load (local.get $a2)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                      (local.get $bin))))
                  (else
                    (select
                      (i32.and (local.get $w2) (i32.const 1))
                      (f64.le (local.get $v) (f64.load (local.get $a2)))
                      (f64.ne (local.get $v) (local.get $v))))))
                (local.set $a2 (select
                  (i32.add (local.get $a2) (i32.const 16))
                  (i32.add (local.get $nodes) (i32.load offset=12 (local.get $a2)))
                  (local.get $left)))
                ;; Lane 3: one step (a leaf steps to itself).
                (local.set $v (f64.load (i32.add (local.get $row3) (i32.and (local.get $w3) (i32.const 0x7ffffff8)))))
                (local.set $left (if (result i32) (i32.and (local.get $w3) (i32.const 2))
                  (then
                    (local.set $bin (i32.trunc_f64_u (local.get $v)))
                    (i32.and (i32.const 1) (i32.shr_u
                      (i32.load (i32.add (local.get $catBits)
                        (i32.shl (i32.add (i32.load (local.get $a3)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                      (local.get $bin))))
                  (else
                    (select
                      (i32.and (local.get $w3) (i32.const 1))
                      (f64.le (local.get $v) (f64.load (local.get $a3)))
                      (f64.ne (local.get $v) (local.get $v))))))
                (local.set $a3 (select
                  (i32.add (local.get $a3) (i32.const 16))
                  (i32.add (local.get $nodes) (i32.load offset=12 (local.get $a3)))
                  (local.get $left)))
                (br $walk)))
            ;; out[(sr + lane)·k + c] += value[record index of lane]
            (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $sr) (local.get $k)) (local.get $c)) (i32.const 3))))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $value) (i32.shr_u (i32.sub (local.get $a0) (local.get $nodes)) (i32.const 1))))))
            (local.set $o (i32.add (local.get $o) (local.get $kBytes)))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $value) (i32.shr_u (i32.sub (local.get $a1) (local.get $nodes)) (i32.const 1))))))
            (local.set $o (i32.add (local.get $o) (local.get $kBytes)))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $value) (i32.shr_u (i32.sub (local.get $a2) (local.get $nodes)) (i32.const 1))))))
            (local.set $o (i32.add (local.get $o) (local.get $kBytes)))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $value) (i32.shr_u (i32.sub (local.get $a3) (local.get $nodes)) (i32.const 1))))))
            (local.set $sr (i32.add (local.get $sr) (i32.const 4)))
            (br $rows)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $trees))))

  ;; score4's walk for one row at a time: the rows of a batch beyond a multiple of 4 (a single record is
  ;; walked once, not in four lanes). Same arguments, same sums.
  (func $score1 (export "score1")
    (param $x i32) (param $nf i32) (param $nRows i32) (param $treeRoot i32) (param $nTrees i32)
    (param $nodes i32) (param $value i32) (param $catBits i32) (param $out i32) (param $k i32)
    (local $t i32) (local $root i32) (local $c i32) (local $sr i32) (local $rowBytes i32) (local $kBytes i32)
    (local $v f64) (local $bin i32) (local $left i32) (local $o i32)
    (local $a0 i32) (local $w0 i32) (local $row0 i32)
    (local.set $rowBytes (i32.shl (local.get $nf) (i32.const 3)))
    (local.set $kBytes (i32.shl (local.get $k) (i32.const 3)))
    (block $treesDone
      (loop $trees
        (br_if $treesDone (i32.ge_u (local.get $t) (local.get $nTrees)))
        (local.set $root (i32.add (local.get $nodes) (i32.shl (i32.load (i32.add (local.get $treeRoot) (i32.shl (local.get $t) (i32.const 2)))) (i32.const 4))))
        (local.set $c (i32.rem_u (local.get $t) (local.get $k)))
        (local.set $sr (i32.const 0))
        (block $rowsDone
          (loop $rows
            (br_if $rowsDone (i32.ge_u (local.get $sr) (local.get $nRows)))
            (local.set $row0 (i32.add (local.get $x) (i32.mul (local.get $sr) (local.get $rowBytes))))

            (local.set $a0 (local.get $root))
            (block $walked
              (loop $walk
                (local.set $w0 (i32.load offset=8 (local.get $a0)))
                ;; Done when every lane's word has the sign bit (a leaf).
                (br_if $walked (i32.lt_s (local.get $w0) (i32.const 0)))
                ;; Lane 0: one step (a leaf steps to itself).
                (local.set $v (f64.load (i32.add (local.get $row0) (i32.and (local.get $w0) (i32.const 0x7ffffff8)))))
                (local.set $left (if (result i32) (i32.and (local.get $w0) (i32.const 2))
                  (then
                    (local.set $bin (i32.trunc_f64_u (local.get $v)))
                    (i32.and (i32.const 1) (i32.shr_u
                      (i32.load (i32.add (local.get $catBits)
                        (i32.shl (i32.add (i32.load (local.get $a0)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                      (local.get $bin))))
                  (else
                    (select
                      (i32.and (local.get $w0) (i32.const 1))
                      (f64.le (local.get $v) (f64.load (local.get $a0)))
                      (f64.ne (local.get $v) (local.get $v))))))
                (local.set $a0 (select
                  (i32.add (local.get $a0) (i32.const 16))
                  (i32.add (local.get $nodes) (i32.load offset=12 (local.get $a0)))
                  (local.get $left)))
                (br $walk)))
            ;; out[(sr + lane)·k + c] += value[record index of lane]
            (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $sr) (local.get $k)) (local.get $c)) (i32.const 3))))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $value) (i32.shr_u (i32.sub (local.get $a0) (local.get $nodes)) (i32.const 1))))))
            (local.set $sr (i32.add (local.get $sr) (i32.const 1)))
            (br $rows)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $trees))))

  ;; bins[r·stride] = the bin of col[r] (f64) for r < nRows: the number of cuts below it, nanBin for NaN.
  ;; cuts: 2^steps f64s ascending, ending with at least one +∞, searched without a branch on the data:
  ;; lo grows by half when the cut before lo + half is below the value. Prediction bins rows against a
  ;; forest's thresholds (leaf-mask-layout.ts, NaN 255); training against a feature's bin upper bounds
  ;; (binned-data.ts, NaN its missing bin), where the bin is the same as bin-mapper.ts valueToBin's.
  (func $binColumn (export "binColumn")
    (param $col i32) (param $nRows i32) (param $cuts i32) (param $steps i32) (param $bins i32) (param $stride i32)
    (param $nanBin i32)
    (local $r i32) (local $v f64) (local $at i32) (local $half i32) (local $before i32) (local $top i32)
    ;; The search in bytes: at = the address of cut lo − 1, half = 8·half (fewer instructions a step).
    (local.set $before (i32.sub (local.get $cuts) (i32.const 8)))
    (local.set $top (i32.shl (i32.const 8) (local.get $steps)))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $nRows)))
        (local.set $v (f64.load (i32.add (local.get $col) (i32.shl (local.get $r) (i32.const 3)))))
        (local.set $at (local.get $before))
        (local.set $half (local.get $top))
        (block $found
          (loop $search
            (local.set $half (i32.shr_u (local.get $half) (i32.const 1)))
            (br_if $found (i32.lt_u (local.get $half) (i32.const 8)))
            (local.set $at (select
              (i32.add (local.get $at) (local.get $half))
              (local.get $at)
              (f64.lt (f64.load (i32.add (local.get $at) (local.get $half))) (local.get $v))))
            (br $search)))
        (i32.store8 (i32.add (local.get $bins) (i32.mul (local.get $r) (local.get $stride)))
          (select
            (local.get $nanBin)
            (i32.shr_u (i32.sub (local.get $at) (local.get $before)) (i32.const 3))
            (f64.ne (local.get $v) (local.get $v))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))

  ;; Adds every tree's output to out (row-major nRows × k; tree t adds to column t mod k) for rows given
  ;; as bins (16·vectors bytes per row, from binColumn) and, for the nCat categorical features, catBins
  ;; (row-major i32 training bins). The forest is in the leaf-mask layout of leaf-mask-layout.ts, whose
  ;; comment says why this finds the leaf a walk reaches. Per tree and row: leaves = all ones; for each
  ;; block of 16 split nodes, one byte compare sends each node's row left or right ((bin + add) mod 256
  ;; > lim: right), and each node that sends it right clears its left subtree's leaves from leaves; then
  ;; each categorical node whose bitset lacks the row's bin clears likewise; the exit leaf is the lowest
  ;; bit left. Trees are added in order, so the sums are exactly those of the walk.
  (func $scoreMasks (export "scoreMasks")
    (param $bins i32) (param $vectors i32) (param $nRows i32) (param $trees i32) (param $nTrees i32)
    (param $value i32) (param $cats i32) (param $catBins i32) (param $nCat i32) (param $catBits i32)
    (param $out i32) (param $k i32)
    (local $t i32) (local $tree i32) (local $treeBytes i32) (local $blockBytes i32) (local $treeEnd i32)
    (local $firstLeaf i32) (local $c i32) (local $r i32) (local $rowAddr i32) (local $row v128)
    (local $block i32) (local $acc v128) (local $right v128) (local $half v128) (local $v i32)
    (local $leaves i32) (local $e i32) (local $eEnd i32) (local $bin i32) (local $o i32)
    (local.set $blockBytes (i32.shl (i32.add (local.get $vectors) (i32.const 6)) (i32.const 4)))
    (local.set $treeBytes (i32.add (i32.const 16) (i32.shl (local.get $blockBytes) (i32.const 1))))
    (block $treesDone
      (loop $trees
        (br_if $treesDone (i32.ge_u (local.get $t) (local.get $nTrees)))
        (local.set $tree (i32.add (local.get $trees) (i32.mul (local.get $t) (local.get $treeBytes))))
        (local.set $treeEnd (i32.add (local.get $tree) (local.get $treeBytes)))
        (local.set $firstLeaf (i32.add (local.get $value) (i32.shl (i32.load (local.get $tree)) (i32.const 3))))
        (local.set $c (i32.rem_u (local.get $t) (local.get $k)))
        (local.set $r (i32.const 0))
        (block $rowsDone
          (loop $rows
            (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $nRows)))
            (local.set $rowAddr (i32.add (local.get $bins) (i32.mul (local.get $r) (i32.shl (local.get $vectors) (i32.const 4)))))
            (local.set $row (v128.load (local.get $rowAddr)))
            (local.set $acc (v128.const i32x4 -1 -1 -1 -1))
            (local.set $block (i32.add (local.get $tree) (i32.const 16)))
            (loop $blocks
              ;; Each node's bin of its feature (0 from a vector that does not hold it): a byte shuffle per vector.
              (local.set $right (i8x16.swizzle (local.get $row) (v128.load offset=96 (local.get $block))))
              (local.set $v (i32.const 1))
              (block $gathered
                (loop $more
                  (br_if $gathered (i32.ge_u (local.get $v) (local.get $vectors)))
                  (local.set $right (v128.or (local.get $right) (i8x16.swizzle
                    (v128.load (i32.add (local.get $rowAddr) (i32.shl (local.get $v) (i32.const 4))))
                    (v128.load offset=96 (i32.add (local.get $block) (i32.shl (local.get $v) (i32.const 4)))))))
                  (local.set $v (i32.add (local.get $v) (i32.const 1)))
                  (br $more)))
              ;; 0xff where the node sends the row right.
              (local.set $right (i8x16.gt_u
                (i8x16.add (local.get $right) (v128.load (local.get $block)))
                (v128.load offset=16 (local.get $block))))
              ;; Widened to one i32 lane per node (nodes 0-3, 4-7, 8-11, 12-15), each clearing its left leaves.
              (local.set $half (i16x8.extend_low_i8x16_s (local.get $right)))
              (local.set $acc (v128.andnot (local.get $acc) (v128.and (i32x4.extend_low_i16x8_s (local.get $half)) (v128.load offset=32 (local.get $block)))))
              (local.set $acc (v128.andnot (local.get $acc) (v128.and (i32x4.extend_high_i16x8_s (local.get $half)) (v128.load offset=48 (local.get $block)))))
              (local.set $half (i16x8.extend_high_i8x16_s (local.get $right)))
              (local.set $acc (v128.andnot (local.get $acc) (v128.and (i32x4.extend_low_i16x8_s (local.get $half)) (v128.load offset=64 (local.get $block)))))
              (local.set $acc (v128.andnot (local.get $acc) (v128.and (i32x4.extend_high_i16x8_s (local.get $half)) (v128.load offset=80 (local.get $block)))))
              (local.set $block (i32.add (local.get $block) (local.get $blockBytes)))
              (br_if $blocks (i32.lt_u (local.get $block) (local.get $treeEnd))))
            (local.set $acc (v128.and (local.get $acc) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $acc) (local.get $acc))))
            (local.set $leaves (i32.and (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc))))
            ;; Categorical nodes: entries (slot·4, first catBits word, leaves kept when the bin's bit is clear).
            (local.set $e (i32.add (local.get $cats) (i32.mul (i32.load offset=4 (local.get $tree)) (i32.const 12))))
            (local.set $eEnd (i32.add (local.get $cats) (i32.mul (i32.load offset=8 (local.get $tree)) (i32.const 12))))
            (block $catsDone
              (loop $catNodes
                (br_if $catsDone (i32.ge_u (local.get $e) (local.get $eEnd)))
                (local.set $bin (i32.load (i32.add
                  (i32.add (local.get $catBins) (i32.shl (i32.mul (local.get $r) (local.get $nCat)) (i32.const 2)))
                  (i32.load (local.get $e)))))
                (local.set $leaves (i32.and (local.get $leaves) (i32.or
                  (i32.load offset=8 (local.get $e))
                  (i32.sub (i32.const 0) (i32.and (i32.const 1) (i32.shr_u
                    (i32.load (i32.add (local.get $catBits)
                      (i32.shl (i32.add (i32.load offset=4 (local.get $e)) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
                    (local.get $bin)))))))
                (local.set $e (i32.add (local.get $e) (i32.const 12)))
                (br $catNodes)))
            ;; out[r·k + c] += value[first leaf + the lowest leaf left]
            (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $r) (local.get $k)) (local.get $c)) (i32.const 3))))
            (f64.store (local.get $o) (f64.add (f64.load (local.get $o))
              (f64.load (i32.add (local.get $firstLeaf) (i32.shl (i32.ctz (local.get $leaves)) (i32.const 3))))))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $rows)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $trees))))
)
