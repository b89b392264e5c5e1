#!/bin/sh
# The installed reapi_cli.pc must name the prefix it was installed into:
# `cmake --install build --prefix P` then PKG_CONFIG_PATH=P/lib/pkgconfig
# `pkg-config --cflags --libs reapi_cli` must give -IP/include -LP/lib.
#   pc_prefix.sh PREFIX
set -eu
PREFIX=$1
flags=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs reapi_cli)
case "$flags" in
*"-I$PREFIX/include "*"-L$PREFIX/lib "*) echo "ok: $flags" ;;
*) echo "FAIL: the pc file installed under $PREFIX gives: $flags" >&2; exit 1 ;;
esac
