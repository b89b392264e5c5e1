#!/bin/sh
# Installs the Debian 12 packages the project needs. Safe to run twice:
# packages already present are skipped, and apt is not touched at all when
# nothing is missing.
set -eu

PACKAGES="
  build-essential cmake ninja-build pkg-config
  libboost-dev libboost-graph-dev
  libyaml-cpp-dev nlohmann-json3-dev libreadline-dev libhwloc-dev hwloc-nox libsqlite3-dev libexpat1-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev python3 jq graphviz tmux time
  scdoc groff-base man-db
  golang-go
  python3-matplotlib python3-yaml fonts-dejavu-core chromium
  slurm-wlm munge
"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

echo "install-deps: installing$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
