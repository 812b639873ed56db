;; random.wat: a hosted bot for every game in hand-written WebAssembly text, with no kit and
;; no libc: it reads each decision line from stdin, finds "legal_count", draws a number from
;; the host's random source and answers {"legal_index": N}. Written from docs/hosted.md alone.
;;
;;   wat2wasm random.wat -o random.wasm     (Debian: apt-get install wabt)
(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))

  ;; 16 pages (1 MiB): [0, 64) scratch (an iovec, counts, random bytes), [64, 128) the answer,
  ;; [256, 512) the first line, [512, 544) the key searched for, [4096, 1 MiB) the line read.
  (memory (export "memory") 16)
  (global $iov i32 (i32.const 0))
  (global $count i32 (i32.const 8))
  (global $rand i32 (i32.const 16))
  (global $answer i32 (i32.const 64))
  (global $first i32 (i32.const 256))
  (global $key i32 (i32.const 512))
  (global $buf i32 (i32.const 4096))
  (global $bufEnd i32 (i32.const 1048576))
  (global $have (mut i32) (i32.const 0)) ;; bytes read into the buffer, not yet used

  ;; It needs the number of legal actions alone: the rest of each decision is left out.
  (data (i32.const 256) "{\"receive\": {\"omit_legal\": true, \"omit_legal_notation\": true, \"omit_text\": true, \"omit_observation\": true, \"omit_events\": true}}\n")
  (data (i32.const 512) "\"legal_count\":")
  (data (i32.const 64) "{\"legal_index\": ")

  ;; write writes len bytes at ptr to stdout, all of them, or exits.
  (func $write (param $ptr i32) (param $len i32)
    (loop $more
      (i32.store (global.get $iov) (local.get $ptr))
      (i32.store offset=4 (global.get $iov) (local.get $len))
      (if (call $fd_write (i32.const 1) (global.get $iov) (i32.const 1) (global.get $count))
        (then (call $proc_exit (i32.const 1))))
      (local.set $ptr (i32.add (local.get $ptr) (i32.load (global.get $count))))
      (local.set $len (i32.sub (local.get $len) (i32.load (global.get $count))))
      (br_if $more (i32.gt_s (local.get $len) (i32.const 0)))))

  ;; newline is the offset of the first '\n' in the buffer's unused bytes, or -1.
  (func $newline (result i32)
    (local $i i32)
    (block $none
      (loop $scan
        (br_if $none (i32.ge_u (local.get $i) (global.get $have)))
        (if (i32.eq (i32.load8_u (i32.add (global.get $buf) (local.get $i))) (i32.const 10))
          (then (return (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (i32.const -1))

  ;; readLine reads until the buffer holds a whole line and returns its length (without the
  ;; newline), or -1 once stdin has ended.
  (func $readLine (result i32)
    (local $at i32)
    (loop $more
      (local.set $at (call $newline))
      (if (i32.ge_s (local.get $at) (i32.const 0)) (then (return (local.get $at))))
      (if (i32.ge_u (i32.add (global.get $buf) (global.get $have)) (global.get $bufEnd))
        (then (call $proc_exit (i32.const 2)))) ;; a line longer than the buffer
      (i32.store (global.get $iov) (i32.add (global.get $buf) (global.get $have)))
      (i32.store offset=4 (global.get $iov) (i32.sub (global.get $bufEnd) (i32.add (global.get $buf) (global.get $have))))
      (if (call $fd_read (i32.const 0) (global.get $iov) (i32.const 1) (global.get $count))
        (then (return (i32.const -1))))
      (if (i32.eqz (i32.load (global.get $count))) (then (return (i32.const -1)))) ;; end of stdin
      (global.set $have (i32.add (global.get $have) (i32.load (global.get $count))))
      (br $more))
    (i32.const -1))

  ;; consume drops the line of length len and its newline from the buffer.
  (func $consume (param $len i32)
    (local $from i32) (local $left i32) (local $i i32)
    (local.set $from (i32.add (global.get $buf) (i32.add (local.get $len) (i32.const 1))))
    (local.set $left (i32.sub (global.get $have) (i32.add (local.get $len) (i32.const 1))))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $left)))
        (i32.store8 (i32.add (global.get $buf) (local.get $i)) (i32.load8_u (i32.add (local.get $from) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (global.set $have (local.get $left)))

  ;; legalCount reads the number after "legal_count": in the line of length len (protojson may
  ;; put spaces after the colon); 1 if there is none.
  (func $legalCount (param $len i32) (result i32)
    (local $i i32) (local $j i32) (local $n i32) (local $c i32)
    (block $notFound
      (loop $at
        (br_if $notFound (i32.gt_u (i32.add (local.get $i) (i32.const 14)) (local.get $len)))
        (local.set $j (i32.const 0))
        (block $differ
          (loop $cmp
            (br_if $differ (i32.ne
              (i32.load8_u (i32.add (global.get $buf) (i32.add (local.get $i) (local.get $j))))
              (i32.load8_u (i32.add (global.get $key) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br_if $cmp (i32.lt_u (local.get $j) (i32.const 14))))
          ;; found: skip spaces, then read the digits
          (local.set $i (i32.add (local.get $i) (i32.const 14)))
          (loop $space
            (if (i32.and (i32.lt_u (local.get $i) (local.get $len))
                         (i32.eq (i32.load8_u (i32.add (global.get $buf) (local.get $i))) (i32.const 32)))
              (then (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $space))))
          (loop $digit
            (if (i32.lt_u (local.get $i) (local.get $len))
              (then
                (local.set $c (i32.sub (i32.load8_u (i32.add (global.get $buf) (local.get $i))) (i32.const 48)))
                (if (i32.lt_u (local.get $c) (i32.const 10))
                  (then
                    (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $digit))))))
          (if (i32.eqz (local.get $n)) (then (return (i32.const 1))))
          (return (local.get $n)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $at)))
    (i32.const 1))

  ;; answer prints {"legal_index": index}.
  (func $answer (param $index i32)
    (local $end i32) (local $digits i32) (local $i i32)
    ;; the digits go after the 16-byte prefix, most significant first
    (local.set $digits (i32.const 1))
    (local.set $i (local.get $index))
    (block $counted
      (loop $count
        (br_if $counted (i32.lt_u (local.get $i) (i32.const 10)))
        (local.set $i (i32.div_u (local.get $i) (i32.const 10)))
        (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
        (br $count)))
    (local.set $end (i32.add (i32.add (global.get $answer) (i32.const 16)) (local.get $digits)))
    (local.set $i (local.get $end))
    (loop $digit
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (i32.store8 (local.get $i) (i32.add (i32.const 48) (i32.rem_u (local.get $index) (i32.const 10))))
      (local.set $index (i32.div_u (local.get $index) (i32.const 10)))
      (br_if $digit (i32.gt_u (local.get $i) (i32.add (global.get $answer) (i32.const 16)))))
    (i32.store8 (local.get $end) (i32.const 125)) ;; }
    (i32.store8 (i32.add (local.get $end) (i32.const 1)) (i32.const 10))
    (call $write (global.get $answer) (i32.sub (i32.add (local.get $end) (i32.const 2)) (global.get $answer))))

  (func (export "_start")
    (local $len i32)
    (call $write (global.get $first) (i32.const 129)) ;; the first line's length, newline included
    (loop $decide
      (local.set $len (call $readLine))
      (if (i32.lt_s (local.get $len) (i32.const 0)) (then (return))) ;; stdin ended: the seat is over
      ;; A fresh draw from the host's source at each decision (docs/hosted.md: keyed by it).
      (if (call $random_get (global.get $rand) (i32.const 4)) (then (call $proc_exit (i32.const 3))))
      (call $answer (i32.rem_u (i32.load (global.get $rand)) (call $legalCount (local.get $len))))
      (call $consume (local.get $len))
      (br $decide))))
