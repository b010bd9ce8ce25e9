#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Creates (or reuses) the Python virtual environment that onnxmicro's test oracle and model generators use:
# <repo>/.venv with the pinned packages of tools/requirements.txt. Never needed to build or use the library.
#
#   tools/setup_python.sh            # prints the venv's python path on stdout when done
#   "$(tools/setup_python.sh)" tools/make_models.py
#
# Idempotent and fast when already set up: a stamp file holds the hash of requirements.txt and of the
# interpreter version, so the venv is rebuilt only when either changes. Concurrent callers (parallel ctest
# runs, several build directories) serialise on a lock file. Progress goes to stderr; every failure says
# what to do and exits non-zero.
#
# Environment: ONNXMICRO_VENV overrides the venv directory; PYTHON picks the interpreter (default python3).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv_dir=${ONNXMICRO_VENV:-$repo_root/.venv}
requirements=$repo_root/tools/requirements.txt
python=${PYTHON:-python3}
stamp=$venv_dir/.onnxmicro-requirements.sha256

say() { echo "setup_python: $*" >&2; }
die() {
  say "error: $*"
  exit 1
}

command -v "$python" >/dev/null 2>&1 ||
  die "'$python' not found; install Python 3.9+ (Debian/Ubuntu: apt-get install python3 python3-venv)"
[[ -f $requirements ]] || die "missing $requirements"

python_version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])') ||
  die "'$python' does not run"
wanted_hash=$( (cat "$requirements"; echo "python $python_version") | sha256sum | cut -d' ' -f1)

is_current() { [[ -x $venv_dir/bin/python && -f $stamp && $(cat "$stamp") == "$wanted_hash" ]]; }

if is_current; then
  echo "$venv_dir/bin/python"
  exit 0
fi

mkdir -p "$(dirname "$venv_dir")"
# The lock lives outside the venv (which gets deleted) and outside the repo (nothing to ignore).
lock_file="${TMPDIR:-/tmp}/onnxmicro-venv-$(echo "$venv_dir" | sha256sum | cut -c1-16).lock"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$lock_file"
  flock 9
  # Another caller may have finished the job while we waited.
  if is_current; then
    echo "$venv_dir/bin/python"
    exit 0
  fi
fi

say "creating $venv_dir (python $python_version) from $requirements"
rm -rf "$venv_dir"
if ! "$python" -m venv "$venv_dir" >&2; then
  rm -rf "$venv_dir"
  die "'$python -m venv' failed; install the venv module (Debian/Ubuntu: apt-get install python3-venv)"
fi
if ! "$venv_dir/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2; then
  die "pip could not install $requirements into $venv_dir (network? a pin unavailable for python $python_version?)"
fi
"$venv_dir/bin/python" -c 'import onnx, onnxruntime, numpy' >&2 ||
  die "packages installed but 'import onnx, onnxruntime, numpy' fails in $venv_dir"
echo "$wanted_hash" >"$stamp"
versions=$("$venv_dir/bin/python" -c 'import onnx, onnxruntime; print(onnx.__version__, onnxruntime.__version__)')
say "ready: onnx ${versions% *}, onnxruntime ${versions#* }"
echo "$venv_dir/bin/python"
