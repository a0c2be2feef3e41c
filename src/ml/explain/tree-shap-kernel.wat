;; TreeSHAP's per-row loops over one tree (the leaf-by-leaf form of tree-shap.ts) as WebAssembly.
;; Assembled at build time by scripts/build-wasm.mjs into tree-shap-kernel.wasm.js; tree-shap-wasm.ts
;; lays each tree out in this memory and calls `rows`. The plain-TypeScript reference is the JS loop of
;; tree-shap.ts (method 'js'); tests check that both agree on real data. Every pointer argument is a
;; byte address into the one memory.
;;
;; Rows go through a tree two at a time, one per f64x2 / i64x2 lane: a node's masks (i64 per row, the
;; low 32 bits used), its sums and a feature's contributions are 16-byte pairs, so the forward and
;; backward passes decode each split once for both rows and do each step as one SIMD operation.
;; One tree, its nodes numbered in preorder (a split node's left child is the next number), as two
;; lists, so that neither loop asks whether a node is a leaf (a coin flip the branch predictor loses):
;;   splits, 48 bytes each, in preorder: threshold f64 (categorical: its first catBits word as i32) |
;;     column·8 (into a row of x) | column·16 (into a row pair's contributions) | a·16 (its node
;;     number a: the byte offset of its masks and of its sums) | right child's number·16 | i64 −1
;;     when missing values go left, else 0 | i64 ~(1 << slot) | flags (2: categorical) | unused;
;;   leaves, 32 bytes each: a·16 | (1 << d) − 1 (d distinct path features) | Ψ table (byte address;
;;     −1: none) | the leaf's first slot in the slot arrays (byte addresses): feature·16 (i32) and
;;     (1 − z)/z (f64) | quadrature data (byte address, −1: none; with neither, Ψ comes from the
;;     polynomial of $direct) | d | c0 | c1 << 16 (the outputs c0 .. c1−1 hold all the leaf's
;;     values other than 0). Leaves whose values are all 0 add nothing and are left out of the list;
;;     their sums are 0 in `sum`, written once for all rows.
;; `values` holds a value per leaf (1 when the table already carries the leaf's value). Twin
;; leaves of one-output forest trees (a split and its two leaves) are a third list ($twins1), left
;; out of the other two.
;;
;; Why the passes are separate small functions: V8 keeps a small function's locals in registers,
;; while one function holding all three passes spilled them to the stack (callgrind, credit forest:
;; 56 instructions per split and row forward, 50 backward; 37 and 35 as separate one-row functions;
;; two rows in lanes: see tree-shap-wasm.ts). Calls cost ~20 instructions a pass, against hundreds of
;; splits a tree.
(module
  (memory (export "memory") 1 65536)

  ;; For row pairs 0 .. pairs−1 of x (row-major, nc f64 per row; rows 2p and 2p + 1), two pairs at a
  ;; time (pairs is even): the masks forward over the splits (bit j of a node's mask cleared once the
  ;; row has left slot j's branch above it), for both pairs at once; every leaf adds its hot terms and
  ;; keeps val·Ψ(S) as its sum, pair by pair; then the splits backward, both pairs at once, add up the
  ;; sums, and a split where the row first leaves its feature's branch subtracts its cold child's sums
  ;; from that feature. The tree's output (phi at its first feature) of feature f of row 2p + i is the
  ;; f64 at phi + p·pairStride + 16f + 8i. mask: 32 bytes per node (the first pair's two i64, then the second's);
  ;; sum: 32 bytes per node (the first pair's f64x2, then the second's), so the leaves, which take
  ;; one pair, read the second pair's masks and sums 16 bytes further on; w: 32 f64;
  ;; g: 34 f64; shapley: 32 × 32 f64 (tree-shap.ts SHAPLEY); zeroDelta: byte distance from the (1 − z)/z
  ;; slot array to the zero fractions' (for $direct); missing: whether x holds NaNs; categorical:
  ;; whether the tree has categorical splits.
  (func $rows (export "rows")
    (param $x i32) (param $nc i32) (param $pairs i32) (param $missing i32)
    (param $splits i32) (param $ns i32) (param $catBits i32) (param $categorical i32)
    (param $leaves i32) (param $nl i32) (param $values i32)
    (param $mask i32) (param $sum i32) (param $w i32) (param $g i32) (param $shapley i32) (param $zeroDelta i32)
    (param $phi i32) (param $pairStride i32) (param $twins i32) (param $nt i32) (param $bits i32) (param $twinBits i32)
    (local $p i32) (local $xr i32) (local $rowBytes i32) (local $pp i32) (local $splitsEnd i32) (local $leavesEnd i32) (local $twinsEnd i32)
    (local $half i32) (local $xq i32) (local $mq i32) (local $sq i32) (local $pq i32) (local $second i32)
    (local.set $splitsEnd (i32.add (local.get $splits) (i32.mul (local.get $ns) (i32.const 48))))
    (local.set $leavesEnd (i32.add (local.get $leaves) (i32.shl (local.get $nl) (i32.const 5))))
    (local.set $twinsEnd (i32.add (local.get $twins) (i32.shl (local.get $nt) (i32.const 6))))
    (local.set $rowBytes (i32.shl (local.get $nc) (i32.const 3)))
    (local.set $xr (local.get $x))
    (local.set $pp (local.get $phi))
    (block $pairsDone
      (loop $pairLoop
        (br_if $pairsDone (i32.ge_u (local.get $p) (local.get $pairs)))
        (call $forwardPass (local.get $xr) (local.get $rowBytes) (local.get $splits) (local.get $splitsEnd) (local.get $mask)
          (local.get $catBits) (local.get $categorical) (local.get $missing))
        ;; The leaves, one pair after the other.
        (local.set $half (i32.const 0))
        (loop $pairHalves
          (local.set $xq (i32.add (local.get $xr) (i32.mul (local.get $half) (i32.shl (local.get $rowBytes) (i32.const 1)))))
          (local.set $mq (i32.add (local.get $mask) (i32.shl (local.get $half) (i32.const 4))))
          (local.set $sq (i32.add (local.get $sum) (i32.shl (local.get $half) (i32.const 4))))
          (local.set $pq (i32.add (local.get $pp) (i32.mul (local.get $half) (local.get $pairStride))))
          (if (i32.ge_s (local.get $bits) (i32.const 0))
            (then (call $packed1 (local.get $pq) (local.get $leaves) (local.get $leavesEnd) (local.get $mq) (local.get $sq) (local.get $bits)))
            (else (call $leaves1 (local.get $pq) (local.get $leaves) (local.get $leavesEnd) (local.get $mq) (local.get $sq)
              (local.get $values) (local.get $w) (local.get $g) (local.get $shapley) (local.get $zeroDelta))))
          (call $twins1 (local.get $pq) (local.get $xq) (i32.add (local.get $xq) (local.get $rowBytes))
            (local.get $twins) (local.get $twinsEnd) (local.get $mq) (local.get $sq) (local.get $twinBits))
          (local.set $half (i32.add (local.get $half) (i32.const 1)))
          (br_if $pairHalves (i32.lt_u (local.get $half) (i32.const 2))))
        (local.set $second (i32.add (local.get $pp) (local.get $pairStride)))
        (call $backward1 (local.get $pp) (local.get $second) (local.get $splits) (local.get $splitsEnd) (local.get $mask) (local.get $sum))
        (local.set $xr (i32.add (local.get $xr) (i32.shl (local.get $rowBytes) (i32.const 2))))
        (local.set $pp (i32.add (local.get $pp) (i32.shl (local.get $pairStride) (i32.const 1))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairLoop))))

  ;; A tree with vector leaves (a forest's class shares: kk outputs) as one-output views, one per
  ;; output c: its leaves with a value other than 0 for c (tables carrying that value) and the splits
  ;; above them, the rest of the tree left out (its sums are 0 for c). A fully grown classification
  ;; tree's leaves are pure (letter forest: 578,890 of 612,280 leaves have one output other than 0, the
  ;; rest none), so output by output a leaf costs what a one-output leaf costs, and the views' splits
  ;; add up to 4.3 times the tree's (letter, 25 outputs), not kk times as a sum vector per node did.
  ;; The forward pass runs once for all views (every split of the tree: its masks serve every view);
  ;; then each view's leaves through $packed1 when they all have a Ψ table, else through $leaves1 (one
  ;; of the two ranges below is empty), and its splits backward ($backward1), as for a one-output tree. Views, 48 bytes each:
  ;; first and end of its split records (copies of the tree's, the same node offsets) | first and end
  ;; of its $packed1 leaf records | their bit table | its sums (32 bytes a node of the whole tree,
  ;; numbered as the masks: a view's own region, where the left-out children's sums are 0, written
  ;; once) | its contributions' offset (c·16·features: output c's, as $rows's phi) | its $leaves1 leaves' values | first and end of
  ;; its $leaves1 leaf records | unused. Other arguments as for $rows.
  (func $rowsViews (export "rowsViews")
    (param $x i32) (param $nc i32) (param $pairs i32) (param $missing i32)
    (param $splits i32) (param $ns i32) (param $catBits i32) (param $categorical i32)
    (param $views i32) (param $nv i32) (param $mask i32) (param $w i32) (param $g i32) (param $shapley i32) (param $zeroDelta i32)
    (param $phi i32) (param $pairStride i32)
    (local $p i32) (local $xr i32) (local $rowBytes i32) (local $pp i32) (local $splitsEnd i32) (local $viewsEnd i32)
    (local $view i32) (local $half i32) (local $vp i32) (local $vs i32) (local $bits i32)
    (local.set $splitsEnd (i32.add (local.get $splits) (i32.mul (local.get $ns) (i32.const 48))))
    (local.set $viewsEnd (i32.add (local.get $views) (i32.mul (local.get $nv) (i32.const 48))))
    (local.set $rowBytes (i32.shl (local.get $nc) (i32.const 3)))
    (local.set $xr (local.get $x))
    (local.set $pp (local.get $phi))
    (block $pairsDone
      (loop $pairLoop
        (br_if $pairsDone (i32.ge_u (local.get $p) (local.get $pairs)))
        (call $forwardPass (local.get $xr) (local.get $rowBytes) (local.get $splits) (local.get $splitsEnd) (local.get $mask)
          (local.get $catBits) (local.get $categorical) (local.get $missing))
        (local.set $view (local.get $views))
        (block $viewsDone
          (loop $viewLoop
            (br_if $viewsDone (i32.ge_u (local.get $view) (local.get $viewsEnd)))
            (local.set $vp (i32.add (local.get $pp) (i32.load offset=24 (local.get $view))))
            (local.set $vs (i32.load offset=20 (local.get $view)))
            (local.set $bits (i32.load offset=16 (local.get $view)))
            (local.set $half (i32.const 0))
            (loop $pairHalves
              (call $packed1 (i32.add (local.get $vp) (i32.mul (local.get $half) (local.get $pairStride)))
                (i32.load offset=8 (local.get $view)) (i32.load offset=12 (local.get $view))
                (i32.add (local.get $mask) (i32.shl (local.get $half) (i32.const 4))) (i32.add (local.get $vs) (i32.shl (local.get $half) (i32.const 4)))
                (local.get $bits))
              (call $leaves1 (i32.add (local.get $vp) (i32.mul (local.get $half) (local.get $pairStride)))
                (i32.load offset=32 (local.get $view)) (i32.load offset=36 (local.get $view))
                (i32.add (local.get $mask) (i32.shl (local.get $half) (i32.const 4))) (i32.add (local.get $vs) (i32.shl (local.get $half) (i32.const 4)))
                (i32.load offset=28 (local.get $view)) (local.get $w) (local.get $g) (local.get $shapley) (local.get $zeroDelta))
              (local.set $half (i32.add (local.get $half) (i32.const 1)))
              (br_if $pairHalves (i32.lt_u (local.get $half) (i32.const 2))))
            (call $backward1 (local.get $vp) (i32.add (local.get $vp) (local.get $pairStride))
              (i32.load (local.get $view)) (i32.load offset=4 (local.get $view)) (local.get $mask) (local.get $vs))
            (local.set $view (i32.add (local.get $view) (i32.const 48)))
            (br $viewLoop)))
        (local.set $xr (i32.add (local.get $xr) (i32.shl (local.get $rowBytes) (i32.const 2))))
        (local.set $pp (i32.add (local.get $pp) (i32.shl (local.get $pairStride) (i32.const 1))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairLoop))))

  ;; The forward pass of two row pairs from the root (every path feature hot): the variant the tree's
  ;; splits need ($forwardCategorical, $forwardMissing or $forward).
  (func $forwardPass (param $xr i32) (param $rowBytes i32) (param $splits i32) (param $splitsEnd i32) (param $mask i32)
    (param $catBits i32) (param $categorical i32) (param $missing i32)
    (v128.store (local.get $mask) (v128.const i64x2 -1 -1))
    (v128.store offset=16 (local.get $mask) (v128.const i64x2 -1 -1))
    (if (local.get $categorical)
      (then (call $forwardCategorical (local.get $xr) (local.get $rowBytes) (local.get $splits) (local.get $splitsEnd) (local.get $mask) (local.get $catBits)))
      (else (if (local.get $missing)
        (then (call $forwardMissing (local.get $xr) (local.get $rowBytes) (local.get $splits) (local.get $splitsEnd) (local.get $mask)))
        (else (call $forward (local.get $xr) (local.get $rowBytes) (local.get $splits) (local.get $splitsEnd) (local.get $mask)))))))

  ;; Forward over splits rec .. end−1 for the four rows at xr0 (two pairs: rows 0, 1 and rows 2, 3,
  ;; rowBytes apart), numeric splits and no missing values: a row goes left at v ≤ threshold; the left
  ;; child (a + 1, 32 bytes on) keeps the mask when the row goes left, else gets it with the split's bit
  ;; cleared, and the right child the other. A split's record is decoded once for the four rows.
  (func $forward (param $xr0 i32) (param $rowBytes i32) (param $rec i32) (param $end i32) (param $mask i32)
    (local $xr1 i32) (local $xr2 i32) (local $xr3 i32) (local $col i32) (local $v v128) (local $u v128) (local $thr v128) (local $dl v128)
    (local $left v128) (local $right v128) (local $ma i32) (local $mr i32) (local $nb v128) (local $mk v128) (local $mj v128) (local $ck v128) (local $cj v128)
    (local.set $xr1 (i32.add (local.get $xr0) (local.get $rowBytes)))
    (local.set $xr2 (i32.add (local.get $xr1) (local.get $rowBytes)))
    (local.set $xr3 (i32.add (local.get $xr2) (local.get $rowBytes)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $col (i32.load offset=8 (local.get $rec)))
        (local.set $v (v128.load64_lane 1 (i32.add (local.get $xr1) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr0) (local.get $col)))))
        (local.set $u (v128.load64_lane 1 (i32.add (local.get $xr3) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr2) (local.get $col)))))
        (local.set $thr (v128.load64_splat (local.get $rec)))
        (local.set $left (f64x2.le (local.get $v) (local.get $thr)))
        (local.set $right (f64x2.le (local.get $u) (local.get $thr)))
        ;; left: the first pair's lanes going left; right (despite its name): the second pair's.
        (local.set $ma (i32.add (local.get $mask) (i32.load offset=16 (local.get $rec))))
        (local.set $mr (i32.add (local.get $mask) (i32.load offset=20 (local.get $rec))))
        (local.set $nb (v128.load64_splat offset=32 (local.get $rec)))
        (local.set $mk (v128.load (local.get $ma)))
        (local.set $mj (v128.load offset=16 (local.get $ma)))
        (local.set $ck (v128.and (local.get $mk) (local.get $nb)))
        (local.set $cj (v128.and (local.get $mj) (local.get $nb)))
        (v128.store offset=32 (local.get $ma) (v128.bitselect (local.get $mk) (local.get $ck) (local.get $left)))
        (v128.store offset=48 (local.get $ma) (v128.bitselect (local.get $mj) (local.get $cj) (local.get $right)))
        (v128.store (local.get $mr) (v128.bitselect (local.get $ck) (local.get $mk) (local.get $left)))
        (v128.store offset=16 (local.get $mr) (v128.bitselect (local.get $cj) (local.get $mj) (local.get $right)))
        (local.set $rec (i32.add (local.get $rec) (i32.const 48)))
        (br $next))))

  ;; $forward where x holds missing values (NaN): they go left where the split's i64 at offset 24 is −1.
  (func $forwardMissing (param $xr0 i32) (param $rowBytes i32) (param $rec i32) (param $end i32) (param $mask i32)
    (local $xr1 i32) (local $xr2 i32) (local $xr3 i32) (local $col i32) (local $v v128) (local $u v128) (local $thr v128) (local $dl v128)
    (local $left v128) (local $right v128) (local $ma i32) (local $mr i32) (local $nb v128) (local $mk v128) (local $mj v128) (local $ck v128) (local $cj v128)
    (local.set $xr1 (i32.add (local.get $xr0) (local.get $rowBytes)))
    (local.set $xr2 (i32.add (local.get $xr1) (local.get $rowBytes)))
    (local.set $xr3 (i32.add (local.get $xr2) (local.get $rowBytes)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $col (i32.load offset=8 (local.get $rec)))
        (local.set $v (v128.load64_lane 1 (i32.add (local.get $xr1) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr0) (local.get $col)))))
        (local.set $u (v128.load64_lane 1 (i32.add (local.get $xr3) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr2) (local.get $col)))))
        (local.set $thr (v128.load64_splat (local.get $rec)))
        (local.set $dl (v128.load64_splat offset=24 (local.get $rec)))
        (local.set $left (v128.or (f64x2.le (local.get $v) (local.get $thr))
          (v128.and (f64x2.ne (local.get $v) (local.get $v)) (local.get $dl))))
        (local.set $right (v128.or (f64x2.le (local.get $u) (local.get $thr))
          (v128.and (f64x2.ne (local.get $u) (local.get $u)) (local.get $dl))))
        ;; left: the first pair's lanes going left; right (despite its name): the second pair's.
        (local.set $ma (i32.add (local.get $mask) (i32.load offset=16 (local.get $rec))))
        (local.set $mr (i32.add (local.get $mask) (i32.load offset=20 (local.get $rec))))
        (local.set $nb (v128.load64_splat offset=32 (local.get $rec)))
        (local.set $mk (v128.load (local.get $ma)))
        (local.set $mj (v128.load offset=16 (local.get $ma)))
        (local.set $ck (v128.and (local.get $mk) (local.get $nb)))
        (local.set $cj (v128.and (local.get $mj) (local.get $nb)))
        (v128.store offset=32 (local.get $ma) (v128.bitselect (local.get $mk) (local.get $ck) (local.get $left)))
        (v128.store offset=48 (local.get $ma) (v128.bitselect (local.get $mj) (local.get $cj) (local.get $right)))
        (v128.store (local.get $mr) (v128.bitselect (local.get $ck) (local.get $mk) (local.get $left)))
        (v128.store offset=16 (local.get $mr) (v128.bitselect (local.get $cj) (local.get $mj) (local.get $right)))
        (local.set $rec (i32.add (local.get $rec) (i32.const 48)))
        (br $next))))

  ;; Whether category v goes left at the categorical split whose bitset starts at word `at` of catBits: −1 or 0.
  (func $categoryLeft (param $catBits i32) (param $at i32) (param $v f64) (result i64)
    (local $bin i32)
    (local.set $bin (i32.trunc_sat_f64_u (local.get $v)))
    (i64.extend_i32_s (i32.sub (i32.const 0) (i32.and (i32.const 1) (i32.shr_u
      (i32.load (i32.add (local.get $catBits) (i32.shl (i32.add (local.get $at) (i32.shr_u (local.get $bin) (i32.const 5))) (i32.const 2))))
      (local.get $bin))))))

  ;; $forwardMissing for trees with categorical splits (flag 2): the value's bit in the split's bitset says left.
  (func $forwardCategorical (param $xr0 i32) (param $rowBytes i32) (param $rec i32) (param $end i32) (param $mask i32) (param $catBits i32)
    (local $xr1 i32) (local $xr2 i32) (local $xr3 i32) (local $col i32) (local $v v128) (local $u v128) (local $thr v128) (local $dl v128)
    (local $left v128) (local $right v128) (local $ma i32) (local $mr i32) (local $nb v128) (local $mk v128) (local $mj v128) (local $ck v128) (local $cj v128)
    (local.set $xr1 (i32.add (local.get $xr0) (local.get $rowBytes)))
    (local.set $xr2 (i32.add (local.get $xr1) (local.get $rowBytes)))
    (local.set $xr3 (i32.add (local.get $xr2) (local.get $rowBytes)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $col (i32.load offset=8 (local.get $rec)))
        (local.set $v (v128.load64_lane 1 (i32.add (local.get $xr1) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr0) (local.get $col)))))
        (local.set $u (v128.load64_lane 1 (i32.add (local.get $xr3) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr2) (local.get $col)))))
        (local.set $thr (v128.load64_splat (local.get $rec)))
        (if (i32.and (i32.load offset=40 (local.get $rec)) (i32.const 2))
          (then
            (local.set $left (i64x2.replace_lane 1
              (i64x2.splat (call $categoryLeft (local.get $catBits) (i32.load (local.get $rec)) (f64x2.extract_lane 0 (local.get $v))))
              (call $categoryLeft (local.get $catBits) (i32.load (local.get $rec)) (f64x2.extract_lane 1 (local.get $v)))))
            (local.set $right (i64x2.replace_lane 1
              (i64x2.splat (call $categoryLeft (local.get $catBits) (i32.load (local.get $rec)) (f64x2.extract_lane 0 (local.get $u))))
              (call $categoryLeft (local.get $catBits) (i32.load (local.get $rec)) (f64x2.extract_lane 1 (local.get $u))))))
          (else
            (local.set $dl (v128.load64_splat offset=24 (local.get $rec)))
            (local.set $left (v128.or (f64x2.le (local.get $v) (local.get $thr))
              (v128.and (f64x2.ne (local.get $v) (local.get $v)) (local.get $dl))))
            (local.set $right (v128.or (f64x2.le (local.get $u) (local.get $thr))
              (v128.and (f64x2.ne (local.get $u) (local.get $u)) (local.get $dl))))))
        ;; left: the first pair's lanes going left; right (despite its name): the second pair's.
        (local.set $ma (i32.add (local.get $mask) (i32.load offset=16 (local.get $rec))))
        (local.set $mr (i32.add (local.get $mask) (i32.load offset=20 (local.get $rec))))
        (local.set $nb (v128.load64_splat offset=32 (local.get $rec)))
        (local.set $mk (v128.load (local.get $ma)))
        (local.set $mj (v128.load offset=16 (local.get $ma)))
        (local.set $ck (v128.and (local.get $mk) (local.get $nb)))
        (local.set $cj (v128.and (local.get $mj) (local.get $nb)))
        (v128.store offset=32 (local.get $ma) (v128.bitselect (local.get $mk) (local.get $ck) (local.get $left)))
        (v128.store offset=48 (local.get $ma) (v128.bitselect (local.get $mj) (local.get $cj) (local.get $right)))
        (v128.store (local.get $mr) (v128.bitselect (local.get $ck) (local.get $mk) (local.get $left)))
        (v128.store offset=16 (local.get $mr) (v128.bitselect (local.get $cj) (local.get $mj) (local.get $right)))
        (local.set $rec (i32.add (local.get $rec) (i32.const 48)))
        (br $next))))

  ;; Backward over splits end−48 .. start, one output, both pairs (contributions at pp and pq): sum[a] =
  ;; sum[a + 1] + sum[right]; the cold child's sums come off the feature in the lanes where the row was
  ;; still on its branch at a (a lane mask, not a branch): a row's mask at a keeps the split's bit
  ;; (mask | ~bit = −1) while it is.
  (func $backward1 (param $pp i32) (param $pq i32) (param $start i32) (param $rec i32) (param $mask i32) (param $sum i32)
    (local $a i32) (local $nb v128) (local $ma i32) (local $sa i32) (local $sr i32) (local $col i32) (local $p i32)
    (local $sl v128) (local $srv v128) (local $tl v128) (local $trv v128)
    (block $done
      (loop $next
        (br_if $done (i32.le_u (local.get $rec) (local.get $start)))
        (local.set $rec (i32.sub (local.get $rec) (i32.const 48)))
        (local.set $a (i32.load offset=16 (local.get $rec)))
        (local.set $nb (v128.load64_splat offset=32 (local.get $rec)))
        (local.set $ma (i32.add (local.get $mask) (local.get $a)))
        (local.set $sa (i32.add (local.get $sum) (local.get $a)))
        (local.set $sr (i32.add (local.get $sum) (i32.load offset=20 (local.get $rec))))
        (local.set $col (i32.load offset=12 (local.get $rec)))
        (local.set $sl (v128.load offset=32 (local.get $sa)))
        (local.set $srv (v128.load (local.get $sr)))
        (local.set $tl (v128.load offset=48 (local.get $sa)))
        (local.set $trv (v128.load offset=16 (local.get $sr)))
        (local.set $p (i32.add (local.get $pp) (local.get $col)))
        (v128.store (local.get $p) (f64x2.sub (v128.load (local.get $p)) (v128.and
          ;; The cold child: the right one where the row went left on its branch (the left child kept the bit).
          (v128.bitselect (local.get $srv) (local.get $sl)
            (i64x2.eq (v128.or (v128.load offset=32 (local.get $ma)) (local.get $nb)) (v128.const i64x2 -1 -1)))
          (i64x2.eq (v128.or (v128.load (local.get $ma)) (local.get $nb)) (v128.const i64x2 -1 -1)))))
        (local.set $p (i32.add (local.get $pq) (local.get $col)))
        (v128.store (local.get $p) (f64x2.sub (v128.load (local.get $p)) (v128.and
          (v128.bitselect (local.get $trv) (local.get $tl)
            (i64x2.eq (v128.or (v128.load offset=48 (local.get $ma)) (local.get $nb)) (v128.const i64x2 -1 -1)))
          (i64x2.eq (v128.or (v128.load offset=16 (local.get $ma)) (local.get $nb)) (v128.const i64x2 -1 -1)))))
        (v128.store (local.get $sa) (f64x2.add (local.get $sl) (local.get $srv)))
        (v128.store offset=16 (local.get $sa) (f64x2.add (local.get $tl) (local.get $trv)))
        (br $next))))

  ;; Leaves rec .. end−1 of a one-output tree, for both rows: Ψ(S) from the leaf's table (which
  ;; carries the leaf's value) and each hot slot j's term (1 − z_j)/z_j · Ψ(S∖{j}) straight into its
  ;; feature; a leaf without a table gets Ψ and the terms from $untabulated and scales them by its value.
  (func $leaves1 (param $pp i32) (param $rec i32) (param $end i32) (param $mask i32) (param $sum i32)
    (param $values i32) (param $w i32) (param $g i32) (param $shapley i32) (param $zeroDelta i32)
    (local $first i32) (local $a i32) (local $low i32) (local $mk v128) (local $tab i32) (local $feat i32) (local $hs i32)
    (local $lane i32) (local $sm i32) (local $b i32) (local $nb i32) (local $j i32) (local $dst i32) (local $psi f64) (local $val f64)
    (local.set $first (local.get $rec))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $a (i32.load (local.get $rec)))
        (local.set $low (i32.load offset=4 (local.get $rec)))
        (local.set $tab (i32.load offset=8 (local.get $rec)))
        (local.set $feat (i32.load offset=12 (local.get $rec)))
        (local.set $hs (i32.load offset=16 (local.get $rec)))
        (local.set $mk (v128.load (i32.add (local.get $mask) (local.get $a))))
        (if (i32.ge_s (local.get $tab) (i32.const 0))
          (then
            ;; Row 0, then row 1: the same loop, its sum and contributions 8 bytes further on.
            (local.set $sm (i32.and (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $mk))) (local.get $low)))
            (f64.store (i32.add (local.get $sum) (local.get $a))
              (f64.load (i32.add (local.get $tab) (i32.shl (local.get $sm) (i32.const 3)))))
            (local.set $b (local.get $sm))
            (block $h0Done
              (loop $h0
                (br_if $h0Done (i32.eqz (local.get $b)))
                (local.set $j (i32.ctz (local.get $b)))
                (local.set $nb (i32.and (local.get $b) (i32.sub (local.get $b) (i32.const 1))))
                (local.set $dst (i32.add (local.get $pp) (i32.load (i32.add (local.get $feat) (i32.shl (local.get $j) (i32.const 2))))))
                ;; S∖{j} = sm − b + nb: b holds j and the hot slots above it, nb the latter.
                (f64.store (local.get $dst) (f64.add (f64.load (local.get $dst))
                  (f64.mul
                    (f64.load (i32.add (local.get $hs) (i32.shl (local.get $j) (i32.const 3))))
                    (f64.load (i32.add (local.get $tab)
                      (i32.shl (i32.add (i32.sub (local.get $sm) (local.get $b)) (local.get $nb)) (i32.const 3)))))))
                (local.set $b (local.get $nb))
                (br $h0)))
            (local.set $sm (i32.and (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $mk))) (local.get $low)))
            (f64.store offset=8 (i32.add (local.get $sum) (local.get $a))
              (f64.load (i32.add (local.get $tab) (i32.shl (local.get $sm) (i32.const 3)))))
            (local.set $b (local.get $sm))
            (block $h1Done
              (loop $h1
                (br_if $h1Done (i32.eqz (local.get $b)))
                (local.set $j (i32.ctz (local.get $b)))
                (local.set $nb (i32.and (local.get $b) (i32.sub (local.get $b) (i32.const 1))))
                (local.set $dst (i32.add (local.get $pp) (i32.load (i32.add (local.get $feat) (i32.shl (local.get $j) (i32.const 2))))))
                (f64.store offset=8 (local.get $dst) (f64.add (f64.load offset=8 (local.get $dst))
                  (f64.mul
                    (f64.load (i32.add (local.get $hs) (i32.shl (local.get $j) (i32.const 3))))
                    (f64.load (i32.add (local.get $tab)
                      (i32.shl (i32.add (i32.sub (local.get $sm) (local.get $b)) (local.get $nb)) (i32.const 3)))))))
                (local.set $b (local.get $nb))
                (br $h1))))
          (else
            (local.set $val (f64.load (i32.add (local.get $values) (i32.shr_u (i32.sub (local.get $rec) (local.get $first)) (i32.const 2)))))
            (local.set $lane (i32.const 0))
            (loop $lanes
              (local.set $sm (i32.and (i32.wrap_i64 (select
                (i64x2.extract_lane 1 (local.get $mk)) (i64x2.extract_lane 0 (local.get $mk)) (local.get $lane))) (local.get $low)))
              (local.set $psi (call $untabulated (local.get $rec) (local.get $sm) (local.get $hs) (local.get $w) (local.get $g) (local.get $shapley) (local.get $zeroDelta)))
              (f64.store (i32.add (i32.add (local.get $sum) (local.get $a)) (local.get $lane)) (f64.mul (local.get $val) (local.get $psi)))
              (local.set $b (local.get $sm))
              (block $wDone
                (loop $wLoop
                  (br_if $wDone (i32.eqz (local.get $b)))
                  (local.set $j (i32.ctz (local.get $b)))
                  (local.set $dst (i32.add (i32.add (local.get $pp) (local.get $lane))
                    (i32.load (i32.add (local.get $feat) (i32.shl (local.get $j) (i32.const 2))))))
                  (f64.store (local.get $dst) (f64.add (f64.load (local.get $dst))
                    (f64.mul (local.get $val) (f64.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 3)))))))
                  (local.set $b (i32.and (local.get $b) (i32.sub (local.get $b) (i32.const 1))))
                  (br $wLoop)))
              (local.set $lane (i32.add (local.get $lane) (i32.const 8)))
              (br_if $lanes (i32.lt_u (local.get $lane) (i32.const 16))))))
        (local.set $rec (i32.add (local.get $rec) (i32.const 32)))
        (br $next))))

  ;; $leaves1 for a one-output tree whose leaves all have a table, with the hot sets of consecutive
  ;; leaves packed into one 64-bit word per row (groups of leaves whose d add up to at most 64), so a
  ;; row pays one exit of the hot-term loop per group, not one per leaf. Leaf records, 32 bytes: a·16 |
  ;; unused | Ψ table (byte address) | at the group's last leaf the byte size of its bit table (32 × its
  ;; bits), else 0 | the leaf's first bit in the word | unused | (1 << d) − 1 (i64). Both rows' hot sets,
  ;; sums and words are taken at once (i64x2 lanes). The bit table (from `bits`, one after another for
  ;; the groups), 32 bytes a bit: (1 − z)/z (f64) | the leaf's Ψ table | feature·16 | the leaf's first
  ;; bit (i64) | (1 << d) − 1 (i64). Bit p of word W is slot p − first of its leaf, so S∖{j} = ((W xor
  ;; 2^p) >> first) & low. The terms reach every contribution in the order of $leaves1 (leaf by leaf,
  ;; slots ascending, each row's own), so the results are the same bits.
  (func $packed1 (param $pp i32) (param $rec i32) (param $end i32) (param $mask i32) (param $sum i32) (param $bits i32)
    (local $a i32) (local $sm v128) (local $at v128) (local $words v128) (local $size i32)
    (local $w0 i64) (local $w1 i64) (local $b i64) (local $lowest i64) (local $e i32) (local $dst i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $a (i32.load (local.get $rec)))
        (local.set $sm (v128.and (v128.load (i32.add (local.get $mask) (local.get $a))) (v128.load64_splat offset=24 (local.get $rec))))
        (local.set $words (v128.or (local.get $words) (i64x2.shl (local.get $sm) (i32.load offset=16 (local.get $rec)))))
        (local.set $at (i64x2.add (i64x2.shl (local.get $sm) (i32.const 3))
          (i64x2.splat (i64.extend_i32_u (i32.load offset=8 (local.get $rec))))))
        (v128.store (i32.add (local.get $sum) (local.get $a))
          (v128.load64_lane 1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $at)))
            (v128.load64_splat (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $at))))))
        (local.set $size (i32.load offset=12 (local.get $rec)))
        (local.set $rec (i32.add (local.get $rec) (i32.const 32)))
        (if (local.get $size)
          (then
            ;; Row 0's hot terms, then row 1's (8 bytes further on). The term loop is written out here and
            ;; in $twins1, twice each: one shared function called per row and word gave the same bits but
            ;; cost the concrete forest 6 % more CPU (640/648 → 683/678 ms per 1,000 records, alternating).
            (local.set $w0 (i64x2.extract_lane 0 (local.get $words)))
            (local.set $w1 (i64x2.extract_lane 1 (local.get $words)))
            (local.set $b (local.get $w0))
            (block $h0Done
              (loop $h0
                (br_if $h0Done (i64.eqz (local.get $b)))
                (local.set $e (i32.add (local.get $bits) (i32.shl (i32.wrap_i64 (i64.ctz (local.get $b))) (i32.const 5))))
                (local.set $lowest (i64.and (local.get $b) (i64.sub (i64.const 0) (local.get $b))))
                (local.set $dst (i32.add (local.get $pp) (i32.load offset=12 (local.get $e))))
                (f64.store (local.get $dst) (f64.add (f64.load (local.get $dst))
                  (f64.mul (f64.load (local.get $e))
                    (f64.load (i32.add (i32.load offset=8 (local.get $e)) (i32.shl (i32.wrap_i64 (i64.and
                      (i64.shr_u (i64.xor (local.get $w0) (local.get $lowest)) (i64.load offset=16 (local.get $e)))
                      (i64.load offset=24 (local.get $e)))) (i32.const 3)))))))
                (local.set $b (i64.xor (local.get $b) (local.get $lowest)))
                (br $h0)))
            (local.set $b (local.get $w1))
            (block $h1Done
              (loop $h1
                (br_if $h1Done (i64.eqz (local.get $b)))
                (local.set $e (i32.add (local.get $bits) (i32.shl (i32.wrap_i64 (i64.ctz (local.get $b))) (i32.const 5))))
                (local.set $lowest (i64.and (local.get $b) (i64.sub (i64.const 0) (local.get $b))))
                (local.set $dst (i32.add (local.get $pp) (i32.load offset=12 (local.get $e))))
                (f64.store offset=8 (local.get $dst) (f64.add (f64.load offset=8 (local.get $dst))
                  (f64.mul (f64.load (local.get $e))
                    (f64.load (i32.add (i32.load offset=8 (local.get $e)) (i32.shl (i32.wrap_i64 (i64.and
                      (i64.shr_u (i64.xor (local.get $w1) (local.get $lowest)) (i64.load offset=16 (local.get $e)))
                      (i64.load offset=24 (local.get $e)))) (i32.const 3)))))))
                (local.set $b (i64.xor (local.get $b) (local.get $lowest)))
                (br $h1)))
            (local.set $bits (i32.add (local.get $bits) (local.get $size)))
            (local.set $words (v128.const i64x2 0 0))))
        (br $next))))

  ;; Twin leaves of a one-output forest tree (a split whose children are both leaves with a Ψ table),
  ;; each pair one 64-byte record in place of the split and its two leaves. The leaves' paths differ
  ;; only in the split's branch (slot s), so with Q the row's hot slots at the split but s (packed to
  ;; d − 1 bits), h = whether the row was still on slot s's branch above (it is then hot in the leaf
  ;; it goes to) and r = h and the row goes right, a row's state is one index i = h | r << 1 | Q << 2
  ;; (d + 1 bits): the split's sum is C[i] (both leaves' Ψ terms, values folded in: C_0(Q) =
  ;; Ψ_L(Q) + Ψ_R(Q) when h = 0; left: Ψ_L(Q + s) + Ψ_R(Q); right: Ψ_L(Q) + Ψ_R(Q + s)), each hot
  ;; slot j of Q gets (1 − z_j)/z_j · C[i without j] (one look-up for both leaves' terms) and, when h =
  ;; 1, the split's feature gets F[i >> 1] (the hot twin's term minus the cold twin's sum: hs_L·Ψ_L(Q)
  ;; − Ψ_R(Q) left, hs_R·Ψ_R(Q) − Ψ_L(Q) right). tree-shap-wasm.ts builds C (2^(d+1) f64, r = 1 with
  ;; h = 0 unused) and F (2^d f64) from the leaves' Ψ tables. The indices of consecutive twins are
  ;; packed into one 64-bit word per row, as $packed1's hot sets, and their terms are $packed1's: bit
  ;; h's bit table entry has F for table, first + 1 for shift and 2^d − 1 for mask (flipping h and
  ;; shifting it out leaves r | Q << 1), bit r carries no term (the group's emit mask leaves it out of
  ;; the term loop). Both rows of the pair go through a record at once (i64x2 lanes). Records: threshold
  ;; f64 | column·8 | a·16 (the split's node: its mask, where its sum goes) | i64 −1 when missing values
  ;; go left, else 0 | i64 the path's slots but s ((1 << d) − 1 without bit s) | i64 (1 << s) − 1 |
  ;; i64 at a group's last twin its emit mask (the words' bits that carry a term), else 0 | s | C (byte
  ;; address) | the twin's first bit in the word | at a group's last twin the byte size of its bit
  ;; table (32 × its bits), else 0. The terms come in the order of the twins, h first, then Q's slots.
  (func $twins1 (param $pp i32) (param $xr0 i32) (param $xr1 i32) (param $rec i32) (param $end i32) (param $mask i32) (param $sum i32)
    (param $bits i32)
    (local $col i32) (local $v v128) (local $left v128) (local $mk v128) (local $a i32) (local $h v128) (local $q v128) (local $below v128)
    (local $idx v128) (local $at v128) (local $words v128) (local $size i32) (local $emit i64)
    (local $w i64) (local $b i64) (local $lowest i64) (local $e i32) (local $dst i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        (local.set $col (i32.load offset=8 (local.get $rec)))
        (local.set $v (v128.load64_lane 1 (i32.add (local.get $xr1) (local.get $col))
          (v128.load64_splat (i32.add (local.get $xr0) (local.get $col)))))
        (local.set $left (v128.or
          (f64x2.le (local.get $v) (v128.load64_splat (local.get $rec)))
          (v128.and (f64x2.ne (local.get $v) (local.get $v)) (v128.load64_splat offset=16 (local.get $rec)))))
        (local.set $a (i32.load offset=12 (local.get $rec)))
        (local.set $mk (v128.load (i32.add (local.get $mask) (local.get $a))))
        (local.set $h (v128.and (i64x2.shr_u (local.get $mk) (i32.load offset=48 (local.get $rec))) (v128.const i64x2 1 1)))
        ;; Q: the slots but s, those above s moved down one bit.
        (local.set $q (v128.and (local.get $mk) (v128.load64_splat offset=24 (local.get $rec))))
        (local.set $below (v128.load64_splat offset=32 (local.get $rec)))
        (local.set $q (v128.or (v128.and (local.get $q) (local.get $below))
          (v128.andnot (i64x2.shr_u (local.get $q) (i32.const 1)) (local.get $below))))
        (local.set $idx (v128.or (v128.or (i64x2.shl (local.get $q) (i32.const 2))
          (i64x2.shl (v128.andnot (local.get $h) (local.get $left)) (i32.const 1))) (local.get $h)))
        (local.set $words (v128.or (local.get $words) (i64x2.shl (local.get $idx) (i32.load offset=56 (local.get $rec)))))
        (local.set $at (i64x2.add (i64x2.shl (local.get $idx) (i32.const 3))
          (i64x2.splat (i64.extend_i32_u (i32.load offset=52 (local.get $rec))))))
        (v128.store (i32.add (local.get $sum) (local.get $a))
          (v128.load64_lane 1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $at)))
            (v128.load64_splat (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $at))))))
        (local.set $size (i32.load offset=60 (local.get $rec)))
        (local.set $emit (i64.load offset=40 (local.get $rec)))
        (local.set $rec (i32.add (local.get $rec) (i32.const 64)))
        (if (local.get $size)
          (then
            ;; Row 0's terms, then row 1's (8 bytes further on), as in $packed1.
            (local.set $w (i64x2.extract_lane 0 (local.get $words)))
            (local.set $b (i64.and (local.get $w) (local.get $emit)))
            (block $h0Done
              (loop $h0
                (br_if $h0Done (i64.eqz (local.get $b)))
                (local.set $e (i32.add (local.get $bits) (i32.shl (i32.wrap_i64 (i64.ctz (local.get $b))) (i32.const 5))))
                (local.set $lowest (i64.and (local.get $b) (i64.sub (i64.const 0) (local.get $b))))
                (local.set $dst (i32.add (local.get $pp) (i32.load offset=12 (local.get $e))))
                (f64.store (local.get $dst) (f64.add (f64.load (local.get $dst))
                  (f64.mul (f64.load (local.get $e))
                    (f64.load (i32.add (i32.load offset=8 (local.get $e)) (i32.shl (i32.wrap_i64 (i64.and
                      (i64.shr_u (i64.xor (local.get $w) (local.get $lowest)) (i64.load offset=16 (local.get $e)))
                      (i64.load offset=24 (local.get $e)))) (i32.const 3)))))))
                (local.set $b (i64.xor (local.get $b) (local.get $lowest)))
                (br $h0)))
            (local.set $w (i64x2.extract_lane 1 (local.get $words)))
            (local.set $b (i64.and (local.get $w) (local.get $emit)))
            (block $h1Done
              (loop $h1
                (br_if $h1Done (i64.eqz (local.get $b)))
                (local.set $e (i32.add (local.get $bits) (i32.shl (i32.wrap_i64 (i64.ctz (local.get $b))) (i32.const 5))))
                (local.set $lowest (i64.and (local.get $b) (i64.sub (i64.const 0) (local.get $b))))
                (local.set $dst (i32.add (local.get $pp) (i32.load offset=12 (local.get $e))))
                (f64.store offset=8 (local.get $dst) (f64.add (f64.load offset=8 (local.get $dst))
                  (f64.mul (f64.load (local.get $e))
                    (f64.load (i32.add (i32.load offset=8 (local.get $e)) (i32.shl (i32.wrap_i64 (i64.and
                      (i64.shr_u (i64.xor (local.get $w) (local.get $lowest)) (i64.load offset=16 (local.get $e)))
                      (i64.load offset=24 (local.get $e)))) (i32.const 3)))))))
                (local.set $b (i64.xor (local.get $b) (local.get $lowest)))
                (br $h1)))
            (local.set $bits (i32.add (local.get $bits) (local.get $size)))
            (local.set $words (v128.const i64x2 0 0))))
        (br $next))))

  ;; Ψ(S) of a leaf without a table (record at rec, hot set sm), and w[j] = (1 − z_j)/z_j · Ψ(S∖{j}).
  (func $untabulated (param $rec i32) (param $sm i32) (param $hs i32) (param $w i32) (param $g i32) (param $shapley i32) (param $zeroDelta i32) (result f64)
    (local $quad i32)
    (local.set $quad (i32.load offset=20 (local.get $rec)))
    (if (result f64) (i32.ge_s (local.get $quad) (i32.const 0))
      (then (call $quadrature (local.get $quad) (i32.load offset=24 (local.get $rec)) (local.get $sm) (local.get $w)))
      (else (call $direct (i32.add (local.get $hs) (local.get $zeroDelta)) (i32.load offset=24 (local.get $rec)) (local.get $sm) (local.get $g) (local.get $w) (local.get $shapley)))))

  ;; A leaf's Ψ table (psi-table.ts psiTable, the same products; the quadrature lanes summed pairwise):
  ;; out[T] = scale · Ψ(T) for every subset T of the d path features with zero fractions at zero (f64
  ;; each, all > 0), out[all] = 0. nodes and weights hold n2 f64x2 each: the Gauss–Legendre nodes t
  ;; and weights ω/(1 − t) for ⌈d/2⌉ points (a padding lane: t = 0, weight 0). Scratch: ratio (d·n2
  ;; v128) and p (2^d·n2 v128, each subset's products Π_{j∉T} (1−t) z_j · Π_{j∈T} (t + (1−t) z_j)).
  (func $psiTable (export "psiTable")
    (param $zero i32) (param $d i32) (param $scale f64) (param $out i32)
    (param $p i32) (param $ratio i32) (param $nodes i32) (param $weights i32) (param $n2 i32)
    (local $bytes i32) (local $j i32) (local $v i32) (local $t v128) (local $omt v128) (local $b v128) (local $cold v128)
    (local.set $bytes (i32.shl (local.get $n2) (i32.const 4)))
    ;; ratio_j = (t + b_j)/b_j and p[∅] = Π_j b_j, with b_j = (1 − t) z_j.
    (local.set $v (i32.const 0))
    (block $vDone
      (loop $vLoop
        (br_if $vDone (i32.ge_u (local.get $v) (local.get $bytes)))
        (local.set $t (v128.load (i32.add (local.get $nodes) (local.get $v))))
        (local.set $omt (f64x2.sub (f64x2.splat (f64.const 1)) (local.get $t)))
        (local.set $cold (f64x2.splat (f64.const 1)))
        (local.set $j (i32.const 0))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.ge_u (local.get $j) (local.get $d)))
            (local.set $b (f64x2.mul (local.get $omt)
              (f64x2.splat (f64.load (i32.add (local.get $zero) (i32.shl (local.get $j) (i32.const 3)))))))
            (local.set $cold (f64x2.mul (local.get $cold) (local.get $b)))
            (v128.store (i32.add (i32.add (local.get $ratio) (i32.mul (local.get $j) (local.get $bytes))) (local.get $v))
              (f64x2.div (f64x2.add (local.get $t) (local.get $b)) (local.get $b)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $jLoop)))
        (v128.store (i32.add (local.get $p) (local.get $v)) (local.get $cold))
        (local.set $v (i32.add (local.get $v) (i32.const 16)))
        (br $vLoop)))
    ;; The subsets, in a loop specialised to the number of lanes (n2 = 1..4 for d ≤ 16), so that the
    ;; weights and the current feature's ratios stay in registers: ~2.5× fewer instructions per entry
    ;; than one loop over the lanes (callgrind, credit forest: 83 → ~30 at n2 = 3).
    (if (i32.eq (local.get $n2) (i32.const 1)) (then (call $fill1 (local.get $p) (local.get $ratio) (local.get $weights) (local.get $out) (local.get $d) (local.get $scale)) (return)))
    (if (i32.eq (local.get $n2) (i32.const 2)) (then (call $fill2 (local.get $p) (local.get $ratio) (local.get $weights) (local.get $out) (local.get $d) (local.get $scale)) (return)))
    (if (i32.eq (local.get $n2) (i32.const 3)) (then (call $fill3 (local.get $p) (local.get $ratio) (local.get $weights) (local.get $out) (local.get $d) (local.get $scale)) (return)))
    (call $fill4 (local.get $p) (local.get $ratio) (local.get $weights) (local.get $out) (local.get $d) (local.get $scale)))

  ;; $psiTable's subsets for n lanes (f64x2 pairs of quadrature nodes): out[s] for s = 0 .. 2^d − 2
  ;; from p[s] = p[s without its highest feature j] · ratio_j, in blocks of one highest feature j.
  (func $fill1 (param $p i32) (param $ratio i32) (param $weights i32) (param $out i32) (param $d i32) (param $scale f64)
    (local $last i32) (local $half i32) (local $j i32) (local $from i32) (local $to i32) (local $o i32) (local $stop i32) (local $acc v128)
    (local $w0 v128) (local $r0 v128) (local $x0 v128)
    (local.set $w0 (v128.load offset=0 (local.get $weights)))
    (local.set $last (i32.sub (i32.shl (i32.const 1) (local.get $d)) (i32.const 1)))
    (local.set $acc (f64x2.mul (local.get $w0) (v128.load offset=0 (local.get $p))))
    (f64.store (local.get $out) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
    (local.set $half (i32.const 1))
    (block $blocksDone
      (loop $block
        (br_if $blocksDone (i32.ge_u (local.get $half) (local.get $last)))
        ;; Subsets whose highest feature is j: p[s] = p[s − 2^j] · ratio_j.
        (local.set $r0 (v128.load offset=0 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 16)))))
        (local.set $from (local.get $p))
        (local.set $to (i32.add (local.get $p) (i32.mul (local.get $half) (i32.const 16))))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $half) (i32.const 3))))
        (local.set $stop (i32.add (local.get $out) (i32.shl (select (i32.shl (local.get $half) (i32.const 1)) (local.get $last) (i32.lt_u (i32.shl (local.get $half) (i32.const 1)) (local.get $last))) (i32.const 3))))
        (loop $s
          (local.set $x0 (f64x2.mul (v128.load offset=0 (local.get $from)) (local.get $r0)))
          (v128.store offset=0 (local.get $to) (local.get $x0))
          (local.set $acc (f64x2.mul (local.get $w0) (local.get $x0)))
          (f64.store (local.get $o) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
          (local.set $from (i32.add (local.get $from) (i32.const 16)))
          (local.set $to (i32.add (local.get $to) (i32.const 16)))
          (local.set $o (i32.add (local.get $o) (i32.const 8)))
          (br_if $s (i32.lt_u (local.get $o) (local.get $stop))))
        (local.set $half (i32.shl (local.get $half) (i32.const 1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $block)))
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $last) (i32.const 3))) (f64.const 0)))

  (func $fill2 (param $p i32) (param $ratio i32) (param $weights i32) (param $out i32) (param $d i32) (param $scale f64)
    (local $last i32) (local $half i32) (local $j i32) (local $from i32) (local $to i32) (local $o i32) (local $stop i32) (local $acc v128)
    (local $w0 v128) (local $r0 v128) (local $x0 v128) (local $w1 v128) (local $r1 v128) (local $x1 v128)
    (local.set $w0 (v128.load offset=0 (local.get $weights)))
    (local.set $w1 (v128.load offset=16 (local.get $weights)))
    (local.set $last (i32.sub (i32.shl (i32.const 1) (local.get $d)) (i32.const 1)))
    (local.set $acc (f64x2.add (f64x2.mul (local.get $w0) (v128.load offset=0 (local.get $p))) (f64x2.mul (local.get $w1) (v128.load offset=16 (local.get $p)))))
    (f64.store (local.get $out) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
    (local.set $half (i32.const 1))
    (block $blocksDone
      (loop $block
        (br_if $blocksDone (i32.ge_u (local.get $half) (local.get $last)))
        ;; Subsets whose highest feature is j: p[s] = p[s − 2^j] · ratio_j.
        (local.set $r0 (v128.load offset=0 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 32)))))
        (local.set $r1 (v128.load offset=16 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 32)))))
        (local.set $from (local.get $p))
        (local.set $to (i32.add (local.get $p) (i32.mul (local.get $half) (i32.const 32))))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $half) (i32.const 3))))
        (local.set $stop (i32.add (local.get $out) (i32.shl (select (i32.shl (local.get $half) (i32.const 1)) (local.get $last) (i32.lt_u (i32.shl (local.get $half) (i32.const 1)) (local.get $last))) (i32.const 3))))
        (loop $s
          (local.set $x0 (f64x2.mul (v128.load offset=0 (local.get $from)) (local.get $r0)))
          (v128.store offset=0 (local.get $to) (local.get $x0))
          (local.set $x1 (f64x2.mul (v128.load offset=16 (local.get $from)) (local.get $r1)))
          (v128.store offset=16 (local.get $to) (local.get $x1))
          (local.set $acc (f64x2.add (f64x2.mul (local.get $w0) (local.get $x0)) (f64x2.mul (local.get $w1) (local.get $x1))))
          (f64.store (local.get $o) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
          (local.set $from (i32.add (local.get $from) (i32.const 32)))
          (local.set $to (i32.add (local.get $to) (i32.const 32)))
          (local.set $o (i32.add (local.get $o) (i32.const 8)))
          (br_if $s (i32.lt_u (local.get $o) (local.get $stop))))
        (local.set $half (i32.shl (local.get $half) (i32.const 1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $block)))
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $last) (i32.const 3))) (f64.const 0)))

  (func $fill3 (param $p i32) (param $ratio i32) (param $weights i32) (param $out i32) (param $d i32) (param $scale f64)
    (local $last i32) (local $half i32) (local $j i32) (local $from i32) (local $to i32) (local $o i32) (local $stop i32) (local $acc v128)
    (local $w0 v128) (local $r0 v128) (local $x0 v128) (local $w1 v128) (local $r1 v128) (local $x1 v128) (local $w2 v128) (local $r2 v128) (local $x2 v128)
    (local.set $w0 (v128.load offset=0 (local.get $weights)))
    (local.set $w1 (v128.load offset=16 (local.get $weights)))
    (local.set $w2 (v128.load offset=32 (local.get $weights)))
    (local.set $last (i32.sub (i32.shl (i32.const 1) (local.get $d)) (i32.const 1)))
    (local.set $acc (f64x2.add (f64x2.add (f64x2.mul (local.get $w0) (v128.load offset=0 (local.get $p))) (f64x2.mul (local.get $w1) (v128.load offset=16 (local.get $p)))) (f64x2.mul (local.get $w2) (v128.load offset=32 (local.get $p)))))
    (f64.store (local.get $out) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
    (local.set $half (i32.const 1))
    (block $blocksDone
      (loop $block
        (br_if $blocksDone (i32.ge_u (local.get $half) (local.get $last)))
        ;; Subsets whose highest feature is j: p[s] = p[s − 2^j] · ratio_j.
        (local.set $r0 (v128.load offset=0 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 48)))))
        (local.set $r1 (v128.load offset=16 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 48)))))
        (local.set $r2 (v128.load offset=32 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 48)))))
        (local.set $from (local.get $p))
        (local.set $to (i32.add (local.get $p) (i32.mul (local.get $half) (i32.const 48))))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $half) (i32.const 3))))
        (local.set $stop (i32.add (local.get $out) (i32.shl (select (i32.shl (local.get $half) (i32.const 1)) (local.get $last) (i32.lt_u (i32.shl (local.get $half) (i32.const 1)) (local.get $last))) (i32.const 3))))
        (loop $s
          (local.set $x0 (f64x2.mul (v128.load offset=0 (local.get $from)) (local.get $r0)))
          (v128.store offset=0 (local.get $to) (local.get $x0))
          (local.set $x1 (f64x2.mul (v128.load offset=16 (local.get $from)) (local.get $r1)))
          (v128.store offset=16 (local.get $to) (local.get $x1))
          (local.set $x2 (f64x2.mul (v128.load offset=32 (local.get $from)) (local.get $r2)))
          (v128.store offset=32 (local.get $to) (local.get $x2))
          (local.set $acc (f64x2.add (f64x2.add (f64x2.mul (local.get $w0) (local.get $x0)) (f64x2.mul (local.get $w1) (local.get $x1))) (f64x2.mul (local.get $w2) (local.get $x2))))
          (f64.store (local.get $o) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
          (local.set $from (i32.add (local.get $from) (i32.const 48)))
          (local.set $to (i32.add (local.get $to) (i32.const 48)))
          (local.set $o (i32.add (local.get $o) (i32.const 8)))
          (br_if $s (i32.lt_u (local.get $o) (local.get $stop))))
        (local.set $half (i32.shl (local.get $half) (i32.const 1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $block)))
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $last) (i32.const 3))) (f64.const 0)))

  (func $fill4 (param $p i32) (param $ratio i32) (param $weights i32) (param $out i32) (param $d i32) (param $scale f64)
    (local $last i32) (local $half i32) (local $j i32) (local $from i32) (local $to i32) (local $o i32) (local $stop i32) (local $acc v128)
    (local $w0 v128) (local $r0 v128) (local $x0 v128) (local $w1 v128) (local $r1 v128) (local $x1 v128) (local $w2 v128) (local $r2 v128) (local $x2 v128) (local $w3 v128) (local $r3 v128) (local $x3 v128)
    (local.set $w0 (v128.load offset=0 (local.get $weights)))
    (local.set $w1 (v128.load offset=16 (local.get $weights)))
    (local.set $w2 (v128.load offset=32 (local.get $weights)))
    (local.set $w3 (v128.load offset=48 (local.get $weights)))
    (local.set $last (i32.sub (i32.shl (i32.const 1) (local.get $d)) (i32.const 1)))
    (local.set $acc (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $w0) (v128.load offset=0 (local.get $p))) (f64x2.mul (local.get $w1) (v128.load offset=16 (local.get $p)))) (f64x2.mul (local.get $w2) (v128.load offset=32 (local.get $p)))) (f64x2.mul (local.get $w3) (v128.load offset=48 (local.get $p)))))
    (f64.store (local.get $out) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
    (local.set $half (i32.const 1))
    (block $blocksDone
      (loop $block
        (br_if $blocksDone (i32.ge_u (local.get $half) (local.get $last)))
        ;; Subsets whose highest feature is j: p[s] = p[s − 2^j] · ratio_j.
        (local.set $r0 (v128.load offset=0 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 64)))))
        (local.set $r1 (v128.load offset=16 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 64)))))
        (local.set $r2 (v128.load offset=32 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 64)))))
        (local.set $r3 (v128.load offset=48 (i32.add (local.get $ratio) (i32.mul (local.get $j) (i32.const 64)))))
        (local.set $from (local.get $p))
        (local.set $to (i32.add (local.get $p) (i32.mul (local.get $half) (i32.const 64))))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $half) (i32.const 3))))
        (local.set $stop (i32.add (local.get $out) (i32.shl (select (i32.shl (local.get $half) (i32.const 1)) (local.get $last) (i32.lt_u (i32.shl (local.get $half) (i32.const 1)) (local.get $last))) (i32.const 3))))
        (loop $s
          (local.set $x0 (f64x2.mul (v128.load offset=0 (local.get $from)) (local.get $r0)))
          (v128.store offset=0 (local.get $to) (local.get $x0))
          (local.set $x1 (f64x2.mul (v128.load offset=16 (local.get $from)) (local.get $r1)))
          (v128.store offset=16 (local.get $to) (local.get $x1))
          (local.set $x2 (f64x2.mul (v128.load offset=32 (local.get $from)) (local.get $r2)))
          (v128.store offset=32 (local.get $to) (local.get $x2))
          (local.set $x3 (f64x2.mul (v128.load offset=48 (local.get $from)) (local.get $r3)))
          (v128.store offset=48 (local.get $to) (local.get $x3))
          (local.set $acc (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $w0) (local.get $x0)) (f64x2.mul (local.get $w1) (local.get $x1))) (f64x2.mul (local.get $w2) (local.get $x2))) (f64x2.mul (local.get $w3) (local.get $x3))))
          (f64.store (local.get $o) (f64.mul (local.get $scale) (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
          (local.set $from (i32.add (local.get $from) (i32.const 64)))
          (local.set $to (i32.add (local.get $to) (i32.const 64)))
          (local.set $o (i32.add (local.get $o) (i32.const 8)))
          (br_if $s (i32.lt_u (local.get $o) (local.get $stop))))
        (local.set $half (i32.shl (local.get $half) (i32.const 1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $block)))
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $last) (i32.const 3))) (f64.const 0)))

  ;; A leaf's terms by Gauss–Legendre quadrature (psi-table.ts): with n = ⌈⌈d/2⌉/2⌉ pairs of nodes t_q,
  ;; Ψ(S) = Σ_q P_q with P_q = base_q · Π_{j∈S} ρ_j(q), and (1 − z_j)/z_j · Ψ(S∖{j}) = Σ_q P_q · κ_j(q).
  ;; at holds, 2n f64 each: base (ω_q/(1−t_q) · Π_j (1−t_q) z_j; 0 in a padding lane), then ρ_j for
  ;; j = 0..d−1 ((t_q + (1−t_q) z_j) / ((1−t_q) z_j)), then κ_j ((1−z_j)/z_j / ρ_j(q)). The kernel's
  ;; leaves have d ≤ 16 (deeper trees go node by node, tree-shap-linear.ts), so n ≤ 4 and P is held in
  ;; four v128 locals, pairs past n left at 0 and skipped (was: P in memory, copied in with memory.copy
  ;; and walked by loops of n steps; the same operations in the same order, so the same bits).
  (func $quadrature (param $at i32) (param $d i32) (param $s i32) (param $w i32) (result f64)
    (local $n i32) (local $bytes i32) (local $b i32) (local $j i32) (local $row i32) (local $acc v128)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local.set $n (i32.shr_u (i32.add (i32.shr_u (i32.add (local.get $d) (i32.const 1)) (i32.const 1)) (i32.const 1)) (i32.const 1)))
    (if (i32.gt_u (local.get $n) (i32.const 4)) (then unreachable))
    (local.set $bytes (i32.shl (local.get $n) (i32.const 4)))
    (local.set $p0 (v128.load (local.get $at)))
    (if (i32.gt_u (local.get $n) (i32.const 1)) (then
      (local.set $p1 (v128.load offset=16 (local.get $at)))
      (if (i32.gt_u (local.get $n) (i32.const 2)) (then
        (local.set $p2 (v128.load offset=32 (local.get $at)))
        (if (i32.gt_u (local.get $n) (i32.const 3)) (then
          (local.set $p3 (v128.load offset=48 (local.get $at)))))))))
    (local.set $b (local.get $s))
    (block $hDone
      (loop $hLoop
        (br_if $hDone (i32.eqz (local.get $b)))
        (local.set $row (i32.add (local.get $at)
          (i32.mul (i32.add (i32.ctz (local.get $b)) (i32.const 1)) (local.get $bytes))))
        (local.set $p0 (f64x2.mul (local.get $p0) (v128.load (local.get $row))))
        (if (i32.gt_u (local.get $n) (i32.const 1)) (then
          (local.set $p1 (f64x2.mul (local.get $p1) (v128.load offset=16 (local.get $row))))
          (if (i32.gt_u (local.get $n) (i32.const 2)) (then
            (local.set $p2 (f64x2.mul (local.get $p2) (v128.load offset=32 (local.get $row))))
            (if (i32.gt_u (local.get $n) (i32.const 3)) (then
              (local.set $p3 (f64x2.mul (local.get $p3) (v128.load offset=48 (local.get $row))))))))))
        (local.set $b (i32.and (local.get $b) (i32.sub (local.get $b) (i32.const 1))))
        (br $hLoop)))
    ;; The hot terms, from κ rows d + 1 .. 2d.
    (local.set $b (local.get $s))
    (block $kDone
      (loop $kLoop
        (br_if $kDone (i32.eqz (local.get $b)))
        (local.set $j (i32.ctz (local.get $b)))
        (local.set $row (i32.add (local.get $at)
          (i32.mul (i32.add (i32.add (local.get $j) (local.get $d)) (i32.const 1)) (local.get $bytes))))
        (local.set $acc (f64x2.add (f64x2.splat (f64.const 0)) (f64x2.mul (local.get $p0) (v128.load (local.get $row)))))
        (if (i32.gt_u (local.get $n) (i32.const 1)) (then
          (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (local.get $p1) (v128.load offset=16 (local.get $row)))))
          (if (i32.gt_u (local.get $n) (i32.const 2)) (then
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (local.get $p2) (v128.load offset=32 (local.get $row)))))
            (if (i32.gt_u (local.get $n) (i32.const 3)) (then
              (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (local.get $p3) (v128.load offset=48 (local.get $row)))))))))))
        (f64.store (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc))))
        (local.set $b (i32.and (local.get $b) (i32.sub (local.get $b) (i32.const 1))))
        (br $kLoop)))
    (local.set $acc (f64x2.add (f64x2.splat (f64.const 0)) (local.get $p0)))
    (if (i32.gt_u (local.get $n) (i32.const 1)) (then
      (local.set $acc (f64x2.add (local.get $acc) (local.get $p1)))
      (if (i32.gt_u (local.get $n) (i32.const 2)) (then
        (local.set $acc (f64x2.add (local.get $acc) (local.get $p2)))
        (if (i32.gt_u (local.get $n) (i32.const 3)) (then
          (local.set $acc (f64x2.add (local.get $acc) (local.get $p3)))))))))
    (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc))))

  ;; A leaf's terms without a table (tree-shap.ts `direct`): returns Ψ(S) for the d zero fractions at
  ;; zero (f64 each) and hot set s, and sets w[j] = (1 − z_j)/z_j · Ψ(S∖{j}) for j in s, from the
  ;; polynomial g = Π_{j∈S}(x + z_j) (coefficients at g) times Π_{j∉S} z_j.
  (func $direct (param $zero i32) (param $d i32) (param $s i32) (param $g i32) (param $w i32) (param $shapley i32) (result f64)
    (local $degree i32) (local $cold f64) (local $j i32) (local $z f64) (local $m i32) (local $wrow i32)
    (local $psi f64) (local $q f64) (local $sum f64)
    (local.set $cold (f64.const 1))
    (f64.store (local.get $g) (f64.const 1))
    (local.set $j (i32.const 0))
    (block $gDone
      (loop $gLoop
        (br_if $gDone (i32.ge_u (local.get $j) (local.get $d)))
        (local.set $z (f64.load (i32.add (local.get $zero) (i32.shl (local.get $j) (i32.const 3)))))
        (if (i32.and (i32.shr_u (local.get $s) (local.get $j)) (i32.const 1))
          (then
            ;; g ← g·(x + z): g[degree+1] = g[degree]; g[m] = g[m−1] + z·g[m] for m = degree..1; g[0] = z·g[0].
            (f64.store (i32.add (local.get $g) (i32.shl (i32.add (local.get $degree) (i32.const 1)) (i32.const 3)))
              (f64.load (i32.add (local.get $g) (i32.shl (local.get $degree) (i32.const 3)))))
            (local.set $m (local.get $degree))
            (block $mDone
              (loop $mLoop
                (br_if $mDone (i32.eqz (local.get $m)))
                (f64.store (i32.add (local.get $g) (i32.shl (local.get $m) (i32.const 3)))
                  (f64.add
                    (f64.load (i32.add (local.get $g) (i32.shl (i32.sub (local.get $m) (i32.const 1)) (i32.const 3))))
                    (f64.mul (local.get $z) (f64.load (i32.add (local.get $g) (i32.shl (local.get $m) (i32.const 3)))))))
                (local.set $m (i32.sub (local.get $m) (i32.const 1)))
                (br $mLoop)))
            (f64.store (local.get $g) (f64.mul (local.get $z) (f64.load (local.get $g))))
            (local.set $degree (i32.add (local.get $degree) (i32.const 1))))
          (else (local.set $cold (f64.mul (local.get $cold) (local.get $z)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $gLoop)))
    ;; Ψ = cold · Σ_m SHAPLEY[d][m] · g[m].
    (local.set $wrow (i32.add (local.get $shapley) (i32.shl (i32.mul (local.get $d) (i32.const 32)) (i32.const 3))))
    (local.set $m (i32.const 0))
    (block $pDone
      (loop $pLoop
        (br_if $pDone (i32.gt_u (local.get $m) (local.get $degree)))
        (local.set $psi (f64.add (local.get $psi)
          (f64.mul
            (f64.load (i32.add (local.get $wrow) (i32.shl (local.get $m) (i32.const 3))))
            (f64.load (i32.add (local.get $g) (i32.shl (local.get $m) (i32.const 3)))))))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))
        (br $pLoop)))
    ;; Each hot j: g / (x + z_j) from the top, weighted.
    (local.set $j (i32.const 0))
    (block $jDone
      (loop $jLoop
        (br_if $jDone (i32.ge_u (local.get $j) (local.get $d)))
        (if (i32.and (i32.shr_u (local.get $s) (local.get $j)) (i32.const 1))
          (then
            (local.set $z (f64.load (i32.add (local.get $zero) (i32.shl (local.get $j) (i32.const 3)))))
            (local.set $q (f64.load (i32.add (local.get $g) (i32.shl (local.get $degree) (i32.const 3)))))
            (local.set $sum (f64.mul
              (f64.load (i32.add (local.get $wrow) (i32.shl (i32.sub (local.get $degree) (i32.const 1)) (i32.const 3))))
              (local.get $q)))
            (local.set $m (i32.sub (local.get $degree) (i32.const 1)))
            (block $qDone
              (loop $qLoop
                (br_if $qDone (i32.le_s (local.get $m) (i32.const 0)))
                (local.set $q (f64.sub
                  (f64.load (i32.add (local.get $g) (i32.shl (local.get $m) (i32.const 3))))
                  (f64.mul (local.get $z) (local.get $q))))
                (local.set $sum (f64.add (local.get $sum)
                  (f64.mul
                    (f64.load (i32.add (local.get $wrow) (i32.shl (i32.sub (local.get $m) (i32.const 1)) (i32.const 3))))
                    (local.get $q))))
                (local.set $m (i32.sub (local.get $m) (i32.const 1)))
                (br $qLoop)))
            (f64.store (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 3)))
              (f64.mul (f64.mul (f64.sub (f64.const 1) (local.get $z)) (local.get $cold)) (local.get $sum)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $jLoop)))
    (f64.mul (local.get $psi) (local.get $cold)))
)
