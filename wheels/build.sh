#!/usr/bin/env bash
# Builds the manylinux wheel into wheels/ (see tools/build_wheel.py).
# Usage: wheels/build.sh [--python PYTHON] [--out DIR] [--keep]
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python3}" tools/build_wheel.py "$@"
