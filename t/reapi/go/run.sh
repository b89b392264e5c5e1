#!/bin/sh
# Builds the Go client (t/reapi/go) against an installed libreapi_cli the
# way Go clients do, flags only through CGO_CFLAGS/CGO_LDFLAGS, with module
# downloads off, and runs it. Exit 77 (skipped) when `go` is absent.
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
export CGO_CFLAGS="-I$PREFIX/include -I$PREFIX/include/resource/reapi/bindings/c"
export CGO_LDFLAGS="-L$PREFIX/lib -lreapi_cli -Wl,-rpath,$PREFIX/lib"
cd "$SRC/t/reapi/go"
go version
go build -o "$WORK/reapi_go_client" .
"$WORK/reapi_go_client" "$SRC/t/reapi/data" "$SRC/t/data/jobspecs"
