#!/bin/sh
# Builds the C kit's bots into $1 (default: out/) with Debian's clang and wasi-libc:
#   apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32
set -eu
cd "$(dirname "$0")"
out=${1:-out}
mkdir -p "$out"
cc="clang --target=wasm32-wasi -O2 -Wall -Wextra -Werror"
$cc -o "$out/random.wasm" random.c orrery.c
$cc -o "$out/icetraders_greedy.wasm" icetraders_greedy.c greedy.c orrery.c
$cc -o "$out/pantropia_greedy.wasm" pantropia_greedy.c greedy.c orrery.c
