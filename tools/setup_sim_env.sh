#!/usr/bin/env bash
# Make the simulation venv in which tools/make_shots.py runs pooltool (a data-generation tool,
# never a runtime or CI dependency of tabletrack). Idempotent: does nothing when the venv already
# imports pooltool 0.6.0, and each pip step skips what is already installed.
#
#   tools/setup_sim_env.sh                 # venv at .venv-sim in the repository (git ignores it)
#   SIM_VENV=~/venvs/sim tools/setup_sim_env.sh
#
# The pooltool-billiards 0.6.0 wheel pins an unreleased panda3d, so it is installed with --no-deps
# and its dependencies are installed explicitly (panda3d 1.10.x works). pooltool writes its
# settings to ~/.config/pooltool on first import; make_shots.py does not read the physics YAML
# there (it builds pooltool's built-in default resolver).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${SIM_VENV:-$REPO/.venv-sim}"
PYTHON="${PYTHON:-python3}"
POOLTOOL_VERSION="0.6.0"

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" - "$POOLTOOL_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
import numba, panda3d, scipy  # noqa: F401  (the heavy dependencies are present)
sys.exit(0 if version("pooltool-billiards") == sys.argv[1] else 1)
EOF
then
    echo "setup_sim_env: $VENV already has pooltool $POOLTOOL_VERSION"
    exit 0
fi

[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)

WHEELS="$(mktemp -d)"
trap 'rm -rf "$WHEELS"' EXIT
"${PIP[@]}" download --no-deps --dest "$WHEELS" "pooltool-billiards==$POOLTOOL_VERSION"
"${PIP[@]}" install --no-deps "$WHEELS"/pooltool_billiards-*.whl
"${PIP[@]}" install --no-deps "panda3d>=1.10.13,<1.11"
"${PIP[@]}" install panda3d-gltf panda3d-simplepbr "numpy<2.4" numba "llvmlite<0.46" scipy attrs \
    cattrs msgpack msgpack-numpy pyyaml click pillow h5py h11 "rich>=14,<15" numpy-quaternion \
    opencv-python-headless imageio-ffmpeg

"$VENV/bin/python" -c "import pooltool; print('setup_sim_env: pooltool', pooltool.__version__, 'in $VENV')"
