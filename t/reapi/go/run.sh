#!/bin/sh
# Builds the Go client (t/reapi/go) against an installed libreapi_cli the
# way Go clients do, flags only through CGO_CFLAGS/CGO_LDFLAGS (taken from
# the installed reapi_cli.pc), with module downloads off, and runs it.
# Exit 77 (skipped) when `go` is absent.
#   run.sh PREFIX SRC_DIR WORK_DIR
set -eu
PREFIX=$1 SRC=$2 WORK=$3
if ! command -v go >/dev/null 2>&1; then
    echo "go is not installed (utilities/install-deps.sh adds golang-go); skipped"
    exit 77
fi
mkdir -p "$WORK"
export GO111MODULE=on GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local
export GOPATH="$WORK/gopath" GOCACHE="$WORK/gocache" CGO_ENABLED=1
# Only what `pkg-config --cflags --libs reapi_cli` prints: no wrapper
# header, no extra -I or -l. The run finds the library by LD_LIBRARY_PATH.
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
CGO_CFLAGS=$(pkg-config --cflags reapi_cli)
CGO_LDFLAGS=$(pkg-config --libs reapi_cli)
export CGO_CFLAGS CGO_LDFLAGS
echo "CGO_CFLAGS=$CGO_CFLAGS CGO_LDFLAGS=$CGO_LDFLAGS"
export LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$SRC/t/reapi/go"
go version
go build -o "$WORK/reapi_go_client" .
"$WORK/reapi_go_client" "$SRC/t/reapi/data" "$SRC/t/data/jobspecs"
