;; The GBDT's hot loops as WebAssembly: histogram building and leaf partitioning (training) and tree
;; walks (prediction). Assembled at build time by scripts/build-wasm.mjs (npm package `wabt`) into
;; kernels.wasm.js (its bytes as a module) beside the compiled wasm-kernels.js, which loads it and documents the calling
;; conventions. Every pointer argument is a byte address into the one imported memory; begin/end,
;; nf, nRows, nTrees and k are counts. Plain-TypeScript references: test/ml/gbdt/kernel-reference.ts.
(module
  ;; Shared, so that helper threads can run the kernels on the same arrays (feature-team.ts).
  (import "env" "memory" (memory 1 65536 shared))

  ;; hist[slot] += (grad[r], hess[r]) for every row r = idx[i], i in [begin, end), and every feature
  ;; f in [f0, f1) of r: slot = slots[r·nf + f] (u16), and a slot's (grad, hess) pair is 16 bytes.
  ;; A feature range lets threads split one histogram by features and still add in row order.
  (func $build16 (export "build16")
    (param $hist i32) (param $slots i32) (param $idx i32) (param $begin i32) (param $end i32)
    (param $grad i32) (param $hess i32) (param $nf i32) (param $f0 i32) (param $f1 i32)
    (local $i i32) (local $r i32) (local $gh v128) (local $j i32) (local $je i32) (local $s i32) (local $two i32)
    (local.set $i (local.get $begin))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $r (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))
        ;; (grad, hess) as one f64x2, added to a bin's pair by a single vector add.
        (local.set $gh (f64x2.replace_lane 1
          (f64x2.splat (f64.load (i32.add (local.get $grad) (i32.shl (local.get $r) (i32.const 3)))))
          (f64.load (i32.add (local.get $hess) (i32.shl (local.get $r) (i32.const 3))))))
        ;; j runs over this row's slots of features f0 .. f1-1, 2 bytes apart.
        (local.set $j (i32.add (local.get $slots)
          (i32.shl (i32.add (i32.mul (local.get $r) (local.get $nf)) (local.get $f0)) (i32.const 1))))
        (local.set $je (i32.add (local.get $j) (i32.shl (i32.sub (local.get $f1) (local.get $f0)) (i32.const 1))))
        ;; Two slots per step (one 32-bit load), then the odd one out.
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $j) (i32.const 4)) (local.get $je)))
            (local.set $two (i32.load (local.get $j)))
            (local.set $s (i32.add (local.get $hist) (i32.shl (i32.and (local.get $two) (i32.const 0xffff)) (i32.const 4))))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $s (i32.add (local.get $hist) (i32.shl (i32.shr_u (local.get $two) (i32.const 16)) (i32.const 4))))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $pairs)))
        (if (i32.lt_u (local.get $j) (local.get $je))
          (then
            (local.set $s (i32.add (local.get $hist) (i32.shl (i32.load16_u (local.get $j)) (i32.const 4))))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; Zeroes bytes [at, at + n): a histogram's feature range before building it (memory.fill is a memset;
  ;; TypedArray.fill on a shared buffer is not).
  (func $clear (export "clear") (param $at i32) (param $n i32)
    (memory.fill (local.get $at) (i32.const 0) (local.get $n)))

  ;; build16 over u32 slots, for more than 65,536 bins in all.
  (func $build32 (export "build32")
    (param $hist i32) (param $slots i32) (param $idx i32) (param $begin i32) (param $end i32)
    (param $grad i32) (param $hess i32) (param $nf i32) (param $f0 i32) (param $f1 i32)
    (local $i i32) (local $r i32) (local $gh v128) (local $j i32) (local $je i32) (local $s i32)
    (local.set $i (local.get $begin))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $r (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))
        ;; (grad, hess) as one f64x2, added to a bin's pair by a single vector add.
        (local.set $gh (f64x2.replace_lane 1
          (f64x2.splat (f64.load (i32.add (local.get $grad) (i32.shl (local.get $r) (i32.const 3)))))
          (f64.load (i32.add (local.get $hess) (i32.shl (local.get $r) (i32.const 3))))))
        (local.set $j (i32.add (local.get $slots)
          (i32.shl (i32.add (i32.mul (local.get $r) (local.get $nf)) (local.get $f0)) (i32.const 2))))
        (local.set $je (i32.add (local.get $j) (i32.shl (i32.sub (local.get $f1) (local.get $f0)) (i32.const 2))))
        (block $rowDone
          (loop $features
            (br_if $rowDone (i32.ge_u (local.get $j) (local.get $je)))
            (local.set $s (i32.add (local.get $hist) (i32.shl (i32.load (local.get $j)) (i32.const 4))))
            (v128.store (local.get $s) (f64x2.add (v128.load (local.get $s)) (local.get $gh)))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $features)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; Stable in-place partition of the rows idx[begin .. end): rows r with table[codes[r]] = 1 first, in
  ;; their order, then the others in theirs. Branch-free: every row is written to both the left cursor
  ;; (in place) and the right cursor (in tmp) and only the matching cursor advances; the right part is
  ;; copied back after the left. Returns the end of the left part.
  (func $partition (export "partition")
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
    (memory.copy
      (i32.add (local.get $idx) (i32.shl (local.get $nl) (i32.const 2)))
      (local.get $tmp)
      (i32.shl (local.get $nr) (i32.const 2)))
    (local.get $nl))

  ;; Adds every tree's output to out (row-major nRows × k; tree t adds to column t mod k) for the rows of
  ;; x (row-major nRows × nf, f64; categorical features hold their training bin). Tree t's nodes are
  ;; nodeOffset[t] .. nodeOffset[t+1]-1 (an empty range: the tree is the single leaf 0), its leaves start
  ;; at leafOffset[t]. Node i (global index): feature[i] = f ≥ 0 numeric (right when x > threshold[i],
  ;; NaN goes left iff defaultLeft[i] = 1), ~f categorical (right when the bin's bit in the bitset at
  ;; catBits word catOffset[i] is clear); children[2i + right] is a tree-local node ≥ 0 or a leaf ~c.
  ;; Rows go four at a time (nRows must be a multiple of 4): the four independent walks overlap their
  ;; loads. A lane's node is a global node index ≥ 0 while it walks; at leaf c it becomes -2 - c, and -1
;; stands for "empty tree: leaf 0", so a lane is done when its node is negative.
  (func $score (export "score")
    (param $x i32) (param $nf i32) (param $nRows i32) (param $nodeOffset i32) (param $leafOffset i32) (param $nTrees i32)
    (param $feature i32) (param $threshold i32) (param $children i32) (param $defaultLeft i32) (param $catOffset i32)
    (param $catBits i32) (param $leafValue i32) (param $out i32) (param $k i32)
    (local $t i32) (local $n0 i32) (local $l0 i32) (local $c i32) (local $sr i32) (local $empty i32) (local $a i32)
    (local $node0 i32) (local $node1 i32) (local $node2 i32) (local $node3 i32)
    (local $leaf0 i32) (local $leaf1 i32) (local $leaf2 i32) (local $leaf3 i32)
    (local $row0 i32) (local $row1 i32) (local $row2 i32) (local $row3 i32)
    (local $start i32) (local $rowBytes i32) (local $f i32) (local $v f64) (local $right i32) (local $bin i32) (local $next i32)
    (local.set $rowBytes (i32.shl (local.get $nf) (i32.const 3)))
    (block $treesDone
      (loop $trees
        (br_if $treesDone (i32.ge_u (local.get $t) (local.get $nTrees)))
        (local.set $a (i32.add (local.get $nodeOffset) (i32.shl (local.get $t) (i32.const 2))))
        (local.set $n0 (i32.load (local.get $a)))
        (local.set $empty (i32.eq (i32.load offset=4 (local.get $a)) (local.get $n0)))
        (local.set $l0 (i32.load (i32.add (local.get $leafOffset) (i32.shl (local.get $t) (i32.const 2)))))
        (local.set $c (i32.rem_u (local.get $t) (local.get $k)))
        ;; An empty tree is a single leaf 0: every lane starts there.
        (local.set $start (select (i32.const -1) (local.get $n0) (local.get $empty)))
        (local.set $sr (i32.const 0))
        (block $rowsDone
          (loop $rows
            (br_if $rowsDone (i32.ge_u (local.get $sr) (local.get $nRows)))
            (local.set $row0 (i32.add (local.get $x) (i32.mul (local.get $sr) (local.get $rowBytes))))
            (local.set $row1 (i32.add (local.get $row0) (local.get $rowBytes)))
            (local.set $row2 (i32.add (local.get $row1) (local.get $rowBytes)))
            (local.set $row3 (i32.add (local.get $row2) (local.get $rowBytes)))
            (local.set $node0 (local.get $start))
            (local.set $node1 (local.get $start))
            (local.set $node2 (local.get $start))
            (local.set $node3 (local.get $start))
            (local.set $leaf0 (i32.const 0))
            (local.set $leaf1 (i32.const 0))
            (local.set $leaf2 (i32.const 0))
            (local.set $leaf3 (i32.const 0))
            (block $walked
              (loop $walk
                ;; Lane 0: one step down unless at a leaf already.
                (if (i32.ge_s (local.get $node0) (i32.const 0))
                  (then
                    (local.set $f (i32.load (i32.add (local.get $feature) (i32.shl (local.get $node0) (i32.const 2)))))
                    (if (i32.ge_s (local.get $f) (i32.const 0))
                      (then
                        (local.set $v (f64.load (i32.add (local.get $row0) (i32.shl (local.get $f) (i32.const 3)))))
                        (local.set $right (select
                          (i32.sub (i32.const 1) (i32.load8_u (i32.add (local.get $defaultLeft) (local.get $node0))))
                          (i32.sub (i32.const 1) (f64.le (local.get $v)
                            (f64.load (i32.add (local.get $threshold) (i32.shl (local.get $node0) (i32.const 3))))))
                          (f64.ne (local.get $v) (local.get $v)))))
                      (else
                        (local.set $bin (i32.trunc_f64_u
                          (f64.load (i32.add (local.get $row0) (i32.shl (i32.xor (local.get $f) (i32.const -1)) (i32.const 3))))))
                        (local.set $right (i32.sub (i32.const 1) (i32.and (i32.const 1) (i32.shr_u
                          (i32.load (i32.add (local.get $catBits) (i32.shl
                            (i32.add (i32.load (i32.add (local.get $catOffset) (i32.shl (local.get $node0) (i32.const 2))))
                                     (i32.shr_u (local.get $bin) (i32.const 5)))
                            (i32.const 2))))
                          (i32.and (local.get $bin) (i32.const 31))))))))
                    (local.set $next (i32.load (i32.add (i32.add (local.get $children) (i32.shl (local.get $node0) (i32.const 3)))
                      (i32.shl (local.get $right) (i32.const 2)))))
                    (local.set $node0 (select (i32.sub (local.get $next) (i32.const 1)) (i32.add (local.get $n0) (local.get $next))
                      (i32.lt_s (local.get $next) (i32.const 0))))))
                ;; Lane 1: one step down unless at a leaf already.
                (if (i32.ge_s (local.get $node1) (i32.const 0))
                  (then
                    (local.set $f (i32.load (i32.add (local.get $feature) (i32.shl (local.get $node1) (i32.const 2)))))
                    (if (i32.ge_s (local.get $f) (i32.const 0))
                      (then
                        (local.set $v (f64.load (i32.add (local.get $row1) (i32.shl (local.get $f) (i32.const 3)))))
                        (local.set $right (select
                          (i32.sub (i32.const 1) (i32.load8_u (i32.add (local.get $defaultLeft) (local.get $node1))))
                          (i32.sub (i32.const 1) (f64.le (local.get $v)
                            (f64.load (i32.add (local.get $threshold) (i32.shl (local.get $node1) (i32.const 3))))))
                          (f64.ne (local.get $v) (local.get $v)))))
                      (else
                        (local.set $bin (i32.trunc_f64_u
                          (f64.load (i32.add (local.get $row1) (i32.shl (i32.xor (local.get $f) (i32.const -1)) (i32.const 3))))))
                        (local.set $right (i32.sub (i32.const 1) (i32.and (i32.const 1) (i32.shr_u
                          (i32.load (i32.add (local.get $catBits) (i32.shl
                            (i32.add (i32.load (i32.add (local.get $catOffset) (i32.shl (local.get $node1) (i32.const 2))))
                                     (i32.shr_u (local.get $bin) (i32.const 5)))
                            (i32.const 2))))
                          (i32.and (local.get $bin) (i32.const 31))))))))
                    (local.set $next (i32.load (i32.add (i32.add (local.get $children) (i32.shl (local.get $node1) (i32.const 3)))
                      (i32.shl (local.get $right) (i32.const 2)))))
                    (local.set $node1 (select (i32.sub (local.get $next) (i32.const 1)) (i32.add (local.get $n0) (local.get $next))
                      (i32.lt_s (local.get $next) (i32.const 0))))))
                ;; Lane 2: one step down unless at a leaf already.
                (if (i32.ge_s (local.get $node2) (i32.const 0))
                  (then
                    (local.set $f (i32.load (i32.add (local.get $feature) (i32.shl (local.get $node2) (i32.const 2)))))
                    (if (i32.ge_s (local.get $f) (i32.const 0))
                      (then
                        (local.set $v (f64.load (i32.add (local.get $row2) (i32.shl (local.get $f) (i32.const 3)))))
                        (local.set $right (select
                          (i32.sub (i32.const 1) (i32.load8_u (i32.add (local.get $defaultLeft) (local.get $node2))))
                          (i32.sub (i32.const 1) (f64.le (local.get $v)
                            (f64.load (i32.add (local.get $threshold) (i32.shl (local.get $node2) (i32.const 3))))))
                          (f64.ne (local.get $v) (local.get $v)))))
                      (else
                        (local.set $bin (i32.trunc_f64_u
                          (f64.load (i32.add (local.get $row2) (i32.shl (i32.xor (local.get $f) (i32.const -1)) (i32.const 3))))))
                        (local.set $right (i32.sub (i32.const 1) (i32.and (i32.const 1) (i32.shr_u
                          (i32.load (i32.add (local.get $catBits) (i32.shl
                            (i32.add (i32.load (i32.add (local.get $catOffset) (i32.shl (local.get $node2) (i32.const 2))))
                                     (i32.shr_u (local.get $bin) (i32.const 5)))
                            (i32.const 2))))
                          (i32.and (local.get $bin) (i32.const 31))))))))
                    (local.set $next (i32.load (i32.add (i32.add (local.get $children) (i32.shl (local.get $node2) (i32.const 3)))
                      (i32.shl (local.get $right) (i32.const 2)))))
                    (local.set $node2 (select (i32.sub (local.get $next) (i32.const 1)) (i32.add (local.get $n0) (local.get $next))
                      (i32.lt_s (local.get $next) (i32.const 0))))))
                ;; Lane 3: one step down unless at a leaf already.
                (if (i32.ge_s (local.get $node3) (i32.const 0))
                  (then
                    (local.set $f (i32.load (i32.add (local.get $feature) (i32.shl (local.get $node3) (i32.const 2)))))
                    (if (i32.ge_s (local.get $f) (i32.const 0))
                      (then
                        (local.set $v (f64.load (i32.add (local.get $row3) (i32.shl (local.get $f) (i32.const 3)))))
                        (local.set $right (select
                          (i32.sub (i32.const 1) (i32.load8_u (i32.add (local.get $defaultLeft) (local.get $node3))))
                          (i32.sub (i32.const 1) (f64.le (local.get $v)
                            (f64.load (i32.add (local.get $threshold) (i32.shl (local.get $node3) (i32.const 3))))))
                          (f64.ne (local.get $v) (local.get $v)))))
                      (else
                        (local.set $bin (i32.trunc_f64_u
                          (f64.load (i32.add (local.get $row3) (i32.shl (i32.xor (local.get $f) (i32.const -1)) (i32.const 3))))))
                        (local.set $right (i32.sub (i32.const 1) (i32.and (i32.const 1) (i32.shr_u
                          (i32.load (i32.add (local.get $catBits) (i32.shl
                            (i32.add (i32.load (i32.add (local.get $catOffset) (i32.shl (local.get $node3) (i32.const 2))))
                                     (i32.shr_u (local.get $bin) (i32.const 5)))
                            (i32.const 2))))
                          (i32.and (local.get $bin) (i32.const 31))))))))
                    (local.set $next (i32.load (i32.add (i32.add (local.get $children) (i32.shl (local.get $node3) (i32.const 3)))
                      (i32.shl (local.get $right) (i32.const 2)))))
                    (local.set $node3 (select (i32.sub (local.get $next) (i32.const 1)) (i32.add (local.get $n0) (local.get $next))
                      (i32.lt_s (local.get $next) (i32.const 0))))))
                ;; Every lane at a leaf (all four negative): the AND is negative.
                (br_if $walked (i32.lt_s
                  (i32.and (i32.and (local.get $node0) (local.get $node1)) (i32.and (local.get $node2) (local.get $node3)))
                  (i32.const 0)))
                (br $walk)))
            (call $addLeaf (local.get $out) (local.get $sr) (i32.const 0) (local.get $k) (local.get $c) (local.get $leafValue)
              (local.get $l0) (local.get $node0) (local.get $empty))
            (call $addLeaf (local.get $out) (local.get $sr) (i32.const 1) (local.get $k) (local.get $c) (local.get $leafValue)
              (local.get $l0) (local.get $node1) (local.get $empty))
            (call $addLeaf (local.get $out) (local.get $sr) (i32.const 2) (local.get $k) (local.get $c) (local.get $leafValue)
              (local.get $l0) (local.get $node2) (local.get $empty))
            (call $addLeaf (local.get $out) (local.get $sr) (i32.const 3) (local.get $k) (local.get $c) (local.get $leafValue)
              (local.get $l0) (local.get $node3) (local.get $empty))
            (local.set $sr (i32.add (local.get $sr) (i32.const 4)))
            (br $rows)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $trees))))

  ;; out[(sr + lane)·k + c] += leafValue[l0 + leaf], where node = -2 - leaf (a finished walk) or -1 (an
  ;; empty tree: leaf 0).
  (func $addLeaf
    (param $out i32) (param $sr i32) (param $lane i32) (param $k i32) (param $c i32) (param $leafValue i32)
    (param $l0 i32) (param $node i32) (param $empty i32)
    (local $o i32) (local $leaf i32)
    (local.set $leaf (select (i32.const 0) (i32.sub (i32.const -2) (local.get $node)) (local.get $empty)))
    (local.set $o (i32.add (local.get $out) (i32.shl
      (i32.add (i32.mul (i32.add (local.get $sr) (local.get $lane)) (local.get $k)) (local.get $c)) (i32.const 3))))
    (f64.store (local.get $o) (f64.add (f64.load (local.get $o))
      (f64.load (i32.add (local.get $leafValue) (i32.shl (i32.add (local.get $l0) (local.get $leaf)) (i32.const 3))))))))
