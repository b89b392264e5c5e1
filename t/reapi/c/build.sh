#!/bin/sh
# Builds the C99 clients of libreapi_cli against an *installed* prefix, the
# way an embedder would: once through the pc file, once with plain -I/-L.
#   build.sh PREFIX SRC_DIR OUT_DIR
set -eu
PREFIX=$1 SRC=$2 OUT=$3
CC=${CC:-cc}
mkdir -p "$OUT"
C="$SRC/t/reapi/c"
WARN="-std=c99 -pedantic -Wall -Wextra -Werror -Wno-unused-function"

# 1. pkg-config; the pc file may name the configure-time prefix, so point
#    it at the one we installed into.
pcdir=""
for d in "$PREFIX/lib/pkgconfig" "$PREFIX/share/pkgconfig" "$PREFIX"/lib/*/pkgconfig; do
    [ -f "$d/reapi_cli.pc" ] && pcdir=$d && break
done
if [ -z "$pcdir" ]; then
    echo "build.sh: no reapi_cli.pc under $PREFIX" >&2
    exit 1
fi
PC="pkg-config --define-variable=prefix=$PREFIX"
cflags=$(PKG_CONFIG_PATH=$pcdir $PC --cflags reapi_cli)
libs=$(PKG_CONFIG_PATH=$pcdir $PC --libs reapi_cli)
echo "pkg-config: $cflags $libs"
# <reapi_cli.h> needs the bindings directory too (reapi.md §1, style 2).
short="-I$PREFIX/include/resource/reapi/bindings/c"
# shellcheck disable=SC2086
$CC $WARN $cflags $short -o "$OUT/reapi_c_test" "$C"/reapi_c_*.c "$C/include_style.c" \
    $libs -Wl,-rpath,"$PREFIX/lib"

# 2. plain flags, each include style with only its own -I (so that neither
#    leans on the other's path), and ASan in the program (the library's
#    allocations go through ASan's malloc, so LSan sees their leaks too).
SAN="-g -fsanitize=address -fno-omit-frame-pointer"
objs=""
for f in "$C"/reapi_c_*.c; do
    o="$OUT/$(basename "$f" .c).o"
    # shellcheck disable=SC2086
    $CC $WARN $SAN -I"$PREFIX/include" -c -o "$o" "$f"
    objs="$objs $o"
done
# shellcheck disable=SC2086
$CC $WARN $SAN $short -c -o "$OUT/include_style.o" "$C/include_style.c"
# shellcheck disable=SC2086
$CC $SAN -o "$OUT/reapi_c_test_asan" $objs "$OUT/include_style.o" \
    -L"$PREFIX/lib" -lreapi_cli -Wl,-rpath,"$PREFIX/lib"

echo "built $OUT/reapi_c_test $OUT/reapi_c_test_asan"
