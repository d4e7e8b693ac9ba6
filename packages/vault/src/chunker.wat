;; The FastCDC gear scan of chunker.ts, as WebAssembly.
;; Memory: the 256-entry gear table (u32, little endian) at 0..1023, the bytes to scan
;; from 1024 on. `scan` runs the gear hash over [p, end): with maskS while p < normal,
;; with maskL after. It answers the address just past the first byte whose hash has none
;; of the mask's bits set, or 0 when there is none; the hash reached is left in `hash`
;; either way, so a later call can go on where this one stopped.
;; Rebuild the embedded copy (chunker-wasm.ts) with scripts/build-chunker-wasm.mjs.
(module
  (memory (export "memory") 1)
  (global $h (export "hash") (mut i32) (i32.const 0))
  (func (export "scan")
    (param $p i32) (param $normal i32) (param $end i32)
    (param $hash i32) (param $maskS i32) (param $maskL i32)
    (result i32)
    (block $small_done
      (loop $small
        (br_if $small_done (i32.ge_u (local.get $p) (local.get $normal)))
        (local.set $hash
          (i32.add
            (i32.shl (local.get $hash) (i32.const 1))
            (i32.load (i32.shl (i32.load8_u (local.get $p)) (i32.const 2)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if (i32.eqz (i32.and (local.get $hash) (local.get $maskS)))
          (then
            (global.set $h (local.get $hash))
            (return (local.get $p))))
        (br $small)))
    (block $large_done
      (loop $large
        (br_if $large_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $hash
          (i32.add
            (i32.shl (local.get $hash) (i32.const 1))
            (i32.load (i32.shl (i32.load8_u (local.get $p)) (i32.const 2)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if (i32.eqz (i32.and (local.get $hash) (local.get $maskL)))
          (then
            (global.set $h (local.get $hash))
            (return (local.get $p))))
        (br $large)))
    (global.set $h (local.get $hash))
    (i32.const 0)))
